#include "format/manifest.hpp"

#include <cmath>
#include <algorithm>
#include <cctype>
#include <functional>
#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace lodex {

using json = nlohmann::json;

const StepIndex* StepRecord::find_index(const std::string& field) const {
  for (const auto& x : indexes)
    if (x.field == field) return &x;
  return nullptr;
}

const StepRecord* ParticleGroupMeta::find_step(int64_t step) const {
  for (const auto& s : steps)
    if (s.step == step) return &s;
  return nullptr;
}

Box ParticleGroupMeta::extent() const {
  if (!auto_domain) return domain;
  Box b = Box::nothing();
  for (const auto& s : steps) b.extend(s.domain);
  return b;
}

ParticleGroupMeta* Manifest::find_particles(const std::string& name) {
  for (auto& g : particle_groups)
    if (g.name == name) return &g;
  return nullptr;
}
const ParticleGroupMeta* Manifest::find_particles(const std::string& name) const {
  return const_cast<Manifest*>(this)->find_particles(name);
}

const GridStepRecord* GridMeta::find_step(int64_t step) const {
  for (const auto& s : steps)
    if (s.step == step) return &s;
  return nullptr;
}

GridMeta* Manifest::find_grid(const std::string& name) {
  for (auto& g : grids)
    if (g.name == name) return &g;
  return nullptr;
}
const GridMeta* Manifest::find_grid(const std::string& name) const {
  return const_cast<Manifest*>(this)->find_grid(name);
}

SeriesMeta* Manifest::find_series(const std::string& name) {
  for (auto& s : series)
    if (s.name == name) return &s;
  return nullptr;
}
const SeriesMeta* Manifest::find_series(const std::string& name) const {
  return const_cast<Manifest*>(this)->find_series(name);
}

const char* Manifest::kind_of(const std::string& name) const {
  if (find_particles(name)) return "particle group";
  if (find_grid(name)) return "grid";
  if (find_series(name)) return "series";
  return nullptr;
}

const SeriesVariable* SeriesMeta::find_variable(const std::string& v) const {
  for (const auto& x : variables)
    if (x.name == v) return &x;
  return nullptr;
}

void check_group_name(const std::string& name) {
  bool ok = !name.empty() && name.size() <= 64 && name[0] != '-';
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-');
  if (!ok)
    fail(ErrorCode::kInvalidArgument, "group name '", name,
         "' must have 1-64 letters, digits, '_' or '-' and not start with '-'");
}

namespace {
json box_json(const Box& b) {
  return json::array({json::array({b.inclusive_min[0], b.inclusive_min[1], b.inclusive_min[2]}),
                      json::array({b.exclusive_max[0], b.exclusive_max[1], b.exclusive_max[2]})});
}

// Typed accessors that name the key path on failure.
class Reader {
 public:
  explicit Reader(std::string what) : what_(std::move(what)) {}
  [[noreturn]] void bad(const std::string& path, const std::string& why) const {
    fail(ErrorCode::kFormat, what_, ": ", path, ": ", why);
  }
  const json& key(const json& obj, const char* k, const std::string& path) const {
    if (!obj.is_object()) bad(path, "expected an object");
    auto it = obj.find(k);
    if (it == obj.end()) bad(path, cat("missing key '", k, "'"));
    return *it;
  }
  uint64_t u64(const json& v, const std::string& path) const {
    if (!v.is_number_unsigned()) bad(path, "expected a non-negative integer");
    return v.get<uint64_t>();
  }
  int64_t i64(const json& v, const std::string& path) const {
    if (!v.is_number_integer()) bad(path, "expected an integer");
    return v.get<int64_t>();
  }
  double num(const json& v, const std::string& path) const {
    if (!v.is_number()) bad(path, "expected a number");
    return v.get<double>();
  }
  std::string str(const json& v, const std::string& path) const {
    if (!v.is_string()) bad(path, "expected a string");
    return v.get<std::string>();
  }
  Box box(const json& v, const std::string& path) const {
    if (!v.is_array() || v.size() != 2 || !v[0].is_array() || v[0].size() != 3 || !v[1].is_array() || v[1].size() != 3)
      bad(path, "expected [[x0, y0, z0], [x1, y1, z1]]");
    Box b;
    for (int a = 0; a < 3; ++a) {
      b.inclusive_min[a] = num(v[0][a], path);
      b.exclusive_max[a] = num(v[1][a], path);
    }
    return b;
  }

 private:
  std::string what_;
};
}  // namespace

namespace {

bool same(const StepRecord& a, const StepRecord& b) {
  if (a.step != b.step || a.particles != b.particles || a.files != b.files || a.bytes != b.bytes ||
      a.directory != b.directory || a.metadata_checksum != b.metadata_checksum || a.writer_ranks != b.writer_ranks ||
      a.indexes.size() != b.indexes.size() || !(a.domain == b.domain))
    return false;
  for (size_t i = 0; i < a.indexes.size(); ++i) {
    const StepIndex &x = a.indexes[i], &y = b.indexes[i];
    if (x.field != y.field || x.binning.kind != y.binning.kind || x.binning.param != y.binning.param ||
        x.bytes != y.bytes)
      return false;
  }
  return true;
}

bool same(const GridStepRecord& a, const GridStepRecord& b) {
  return a.step == b.step && a.files == b.files && a.bytes == b.bytes && a.writer_ranks == b.writer_ranks &&
         a.block_checksums == b.block_checksums;
}

json step_json(const StepRecord& s) {
  json js = {{"step", s.step},
             {"particles", s.particles},
             {"files", s.files},
             {"bytes", s.bytes},
             {"directory", s.directory},
             {"metadata_checksum", s.metadata_checksum},
             {"writer_ranks", s.writer_ranks}};
  if (!s.domain.empty()) js["domain"] = box_json(s.domain);   // groups of domain "auto"
  if (!s.indexes.empty()) {
    json ji = json::object();
    for (const auto& x : s.indexes) {
      const bool precision = x.binning.kind == Binning::kPrecision;
      ji[x.field] = {{"binning", precision ? "precision" : "equal_weight"},
                     {precision ? "precision" : "bins", x.binning.param},
                     {"bytes", x.bytes}};
    }
    js["indexes"] = ji;
  }
  return js;
}

json step_json(const GridStepRecord& s) {
  json js = {{"step", s.step}, {"files", s.files}, {"bytes", s.bytes}, {"writer_ranks", s.writer_ranks}};
  if (s.block_checksums) js["block_checksums"] = "xxh3";
  return js;
}

// Where a group's step list sits in the dumped manifest (root > "groups" > group > "steps"): its
// elements' lines start 4 spaces in (dump(1) indents a space per level).
constexpr const char* kElementIndent = "    ";

// The record as an element of that list: its own dump(1) with every line moved in by the list's depth.
std::string element_text(const json& js) {
  std::string text;
  for (char c : js.dump(1)) {
    text += c;
    if (c == '\n') text += kElementIndent;
  }
  return text;
}

}  // namespace

struct EncodedStep {
  StepRecord record;
  std::string text;
};
struct EncodedGridStep {
  GridStepRecord record;
  std::string text;
};

namespace {

// The record's element text: the cached one while the record still holds what it was made of.
template <typename Encoded, typename Record>
const std::string& element_of(const Record& r) {
  if (!r.encoded || !same(r.encoded->record, r)) {
    auto e = std::make_shared<Encoded>();
    e->record = r;
    e->record.encoded.reset();
    e->text = element_text(step_json(r));
    r.encoded = std::move(e);
  }
  return r.encoded->text;
}

// A group's step list as dump(1) writes it at that depth, appended to `out`: "[]", or one element
// per line.
template <typename Encoded, typename Record>
void append_step_list(const std::vector<Record>& steps, std::string& out) {
  if (steps.empty()) {
    out += "[]";
    return;
  }
  out += "[\n";
  for (size_t i = 0; i < steps.size(); ++i) {
    out += kElementIndent;
    out += element_of<Encoded>(steps[i]);
    out += i + 1 < steps.size() ? ",\n" : "\n";
  }
  out += "   ]";
}

// The step lists of a manifest, in the order their placeholders were numbered.
using StepLists = std::vector<std::function<void(std::string&)>>;

// A group's step list is dumped as this string and the number of its list (dump writes the control
// character as \u0001), then replaced. Only the value of a "steps" key is taken for one: another
// string spelled so (a forged created_by) stays what it is.
constexpr const char* kListValue = "\x01lodex-steps-";
constexpr std::string_view kListToken = R"("\u0001lodex-steps-)";

// `out` = the dumped manifest with each step list's placeholder (the value of a "steps" key)
// replaced by its list; lists[k] appends the k-th placeholder's.
void splice_lists(const std::string& text, const StepLists& lists, std::string& out) {
  constexpr std::string_view kKey = R"("steps": )";
  out.clear();   // keeps the buffer: the manifest only grows
  size_t copied = 0, search = 0, replaced = 0;
  for (size_t at; (at = text.find(kListToken, search)) != std::string::npos;) {
    search = at + 1;
    if (at < kKey.size() || text.compare(at - kKey.size(), kKey.size(), kKey) != 0) continue;
    const size_t digits = at + kListToken.size(), close = text.find('"', digits);
    out.append(text, copied, at - copied);
    lists.at(std::stoul(text.substr(digits, close - digits)))(out);
    copied = search = close + 1;
    ++replaced;
  }
  if (replaced != lists.size())
    fail(ErrorCode::kInternal, "manifest encoding placed ", replaced, " of ", lists.size(), " step lists");
  out.append(text, copied, std::string::npos);
  out += "\n";
}

}  // namespace

namespace {

// The one group of a probe manifest, as JSON, without what writes add.
json definition_json(const Manifest& m) {
  std::string text;
  encode_manifest(m, text);
  json root = json::parse(text);
  const json& groups = root.at("groups");
  if (groups.size() != 1) fail(ErrorCode::kInternal, "a definition probe holds ", groups.size(), " groups");
  json g = groups.begin().value();
  for (const char* written :
       {"steps", "windows", "cuts", "d_tar", "d_sar", "opt_size", "chunk_bytes", "reason", "writer_ranks"})
    g.erase(written);
  if (g.at("kind") == "particles" && !g.contains("periodic")) g["periodic"] = {false, false, false};
  return g;
}

}  // namespace

std::vector<std::string> definition_differences(const Manifest& existing, const Manifest& asked) {
  const json a = definition_json(existing), b = definition_json(asked);
  std::vector<std::string> out;
  json keys = json::object();
  for (const auto& [k, v] : a.items()) keys[k] = true;
  for (const auto& [k, v] : b.items()) keys[k] = true;
  for (const auto& [k, v] : keys.items()) {
    const json none = "absent";
    const json& x = a.contains(k) ? a.at(k) : none;
    const json& y = b.contains(k) ? b.at(k) : none;
    if (x != y) out.push_back(cat(k == "periodic" ? "periodic axes" : k, " ", x.dump(), ", not ", y.dump()));
  }
  return out;
}

std::string encode_manifest(const Manifest& m) {
  std::string out;
  encode_manifest(m, out);
  return out;
}

namespace {

// A particle group's entry of "groups"; its step list is a placeholder, appended to `lists`.
json encode_particles(const ParticleGroupMeta& g, StepLists& lists) {
  json jg;
  jg["kind"] = "particles";
  json schema = json::array();
  for (const auto& f : g.schema.fields())
    schema.push_back({{"name", f.name}, {"dtype", dtype_name(f.dtype)}, {"components", f.components}});
  jg["schema"] = schema;
  jg["domain"] = g.auto_domain ? json("auto") : box_json(g.domain);
  if (g.any_periodic()) jg["periodic"] = g.periodic;
  jg["partition"] = {{"mode", partition_mode_name(g.partition.mode)}, {"dims", g.partition.dims}};
  if (g.partition.mode == PartitionMode::kAdaptive)
    jg["partition"]["particles_per_file"] = g.partition.particles_per_file;
  jg["lod"] = {{"scale", g.lod.scale},
               {"level0_max", g.lod.level0_max},
               {"brick_target", g.lod.brick_target},
               {"seed", g.lod.seed}};
  jg["steps"] = kListValue + std::to_string(lists.size());
  lists.push_back([&g](std::string& o) { append_step_list<EncodedStep>(g.steps, o); });
  return jg;
}

// A grid's entry of "groups"; its step list is a placeholder, appended to `lists`.
json encode_grid(const GridMeta& g, StepLists& lists) {
  json jg;
  jg["kind"] = "grid";
  jg["dims"] = g.dims;
  jg["ndims"] = g.ndims;
  json fields = json::array();
  for (const auto& f : g.fields)
    fields.push_back({{"name", f.name}, {"dtype", dtype_name(f.dtype)}, {"components", f.components}});
  jg["fields"] = fields;
  jg["bitmask"] = g.bitmask;
  jg["bitmask_derived"] = g.bitmask_derived;
  jg["bits_per_block"] = g.bits_per_block;
  jg["blocks_per_file"] = g.blocks_per_file;
  jg["aggregation"] = g.aggregation;
  jg["partitions"] = g.partitions;
  jg["index_space"] = g.index_space;
  jg["compression"] = g.zip ? "zip" : "none";
  jg["steps"] = kListValue + std::to_string(lists.size());
  lists.push_back([&g](std::string& o) { append_step_list<EncodedGridStep>(g.steps, o); });
  return jg;
}

// A series' entry of "groups" (its windows are listed in full).
json encode_series(const SeriesMeta& g) {
  json jg;
  jg["kind"] = "series";
  jg["dims"] = g.dims;
  json vars = json::array();
  for (const auto& v : g.variables)
    vars.push_back({{"name", v.name}, {"dtype", dtype_name(v.dtype)}, {"ndim", v.ndim}});
  jg["variables"] = vars;
  const StarSettings& st = g.settings;
  jg["settings"] = {{"memory_budget", st.memory_budget},
                    {"d_tar", st.d_tar},
                    {"d_sar", st.d_sar},
                    {"bw_io", st.bw_io},
                    {"cc", st.cc},
                    {"ts", st.ts},
                    {"max_window_steps", st.max_window_steps}};
  // JSON has no infinity: no time bound is null.
  jg["settings"]["max_window_seconds"] =
      std::isinf(st.max_window_seconds) ? json(nullptr) : json(st.max_window_seconds);
  if (g.planned()) {
    jg["cuts"] = {g.cuts[0], g.cuts[1], g.cuts[2]};
    jg["d_tar"] = g.d_tar;
    jg["d_sar"] = g.d_sar;
    jg["opt_size"] = g.opt_size;
    jg["chunk_bytes"] = g.chunk_bytes;
    jg["reason"] = g.reason;
    jg["writer_ranks"] = g.writer_ranks;
  }
  json windows = json::array();
  for (const auto& w : g.windows) windows.push_back({{"file", w.file}, {"steps", w.steps}, {"bytes", w.bytes}});
  jg["windows"] = windows;
  return jg;
}

}  // namespace

void encode_manifest(const Manifest& m, std::string& out) {
  StepLists lists;   // in placeholder order
  json root;
  root["format"] = "lodex";
  root["format_version"] = m.format_version;
  root["created_by"] = m.created_by;
  json groups = json::object();
  for (const auto& g : m.particle_groups) groups[g.name] = encode_particles(g, lists);
  for (const auto& g : m.grids) groups[g.name] = encode_grid(g, lists);
  for (const auto& g : m.series) groups[g.name] = encode_series(g);
  root["groups"] = groups;
  splice_lists(root.dump(1), lists, out);
}

namespace {
FieldSpec decode_field(const Reader& r, const json& jf, const std::string& fp) {
  FieldSpec f;
  f.name = r.str(r.key(jf, "name", fp), fp + "/name");
  try {
    f.dtype = parse_dtype(r.str(r.key(jf, "dtype", fp), fp + "/dtype"));
  } catch (const Error& e) {
    r.bad(fp + "/dtype", e.what());
  }
  const uint64_t comps = r.u64(r.key(jf, "components", fp), fp + "/components");
  if (comps < 1 || comps > kMaxComponents) r.bad(fp + "/components", "out of range");
  f.components = static_cast<uint32_t>(comps);
  return f;
}

// A group's "domain" (a box, or "auto") and "periodic" (absent: no periodic axis).
void decode_domain(const Reader& r, const json& jg, const std::string& gp, ParticleGroupMeta& g) {
  const json& jd = r.key(jg, "domain", gp);
  if (jd.is_string()) {
    if (jd.get<std::string>() != "auto") r.bad(gp + "/domain", "expected a box or \"auto\"");
    g.auto_domain = true;
  } else {
    g.domain = r.box(jd, gp + "/domain");
    if (g.domain.empty() || !g.domain.finite()) r.bad(gp + "/domain", "must be finite with min < max");
  }
  if (!jg.contains("periodic")) return;
  const json& jp = jg["periodic"];
  if (!jp.is_array() || jp.size() != 3 || !jp[0].is_boolean() || !jp[1].is_boolean() || !jp[2].is_boolean())
    r.bad(gp + "/periodic", "expected 3 booleans");
  for (int a = 0; a < 3; ++a) g.periodic[a] = jp[a].get<bool>();
  if (g.auto_domain && g.any_periodic()) r.bad(gp + "/periodic", "a domain \"auto\" has no periodic axis");
}

// A step's own domain: required in groups of domain "auto", absent in the others.
void decode_step_domain(const Reader& r, const json& s, const std::string& sp, const ParticleGroupMeta& g,
                        StepRecord& rec) {
  if (!g.auto_domain) {
    if (s.contains("domain")) r.bad(sp + "/domain", "only steps of a group of domain \"auto\" have one");
    return;
  }
  rec.domain = r.box(r.key(s, "domain", sp), sp + "/domain");
  if (rec.domain.empty() || !rec.domain.finite()) r.bad(sp + "/domain", "must be finite with min < max");
}

// A particle group's definition: its schema, domain, partition and level-of-detail settings.
void decode_particle_definition(const Reader& r, const json& jg, const std::string& gp, ParticleGroupMeta& g) {
  const json& js = r.key(jg, "schema", gp);
  if (!js.is_array()) r.bad(gp + "/schema", "expected a list of fields");
  std::vector<FieldSpec> fields;
  for (size_t i = 0; i < js.size(); ++i) fields.push_back(decode_field(r, js[i], cat(gp, "/schema/", i)));
  try {
    g.schema = Schema(fields);
  } catch (const Error& e) {
    r.bad(gp + "/schema", e.what());
  }
  decode_domain(r, jg, gp, g);
  const json& jp = r.key(jg, "partition", gp);
  const std::string mode = r.str(r.key(jp, "mode", gp + "/partition"), gp + "/partition/mode");
  try {
    g.partition.mode = parse_partition_mode(mode);
  } catch (const Error&) {
    r.bad(gp + "/partition/mode", "expected 'factor', 'grid' or 'adaptive'");
  }
  if (g.partition.mode == PartitionMode::kAdaptive) {
    g.partition.particles_per_file =
        r.u64(r.key(jp, "particles_per_file", gp + "/partition"), gp + "/partition/particles_per_file");
    if (g.partition.particles_per_file < 1) r.bad(gp + "/partition/particles_per_file", "must be at least 1");
  }
  const json& dims = r.key(jp, "dims", gp + "/partition");
  if (!dims.is_array() || dims.size() != 3) r.bad(gp + "/partition/dims", "expected 3 integers");
  for (int a = 0; a < 3; ++a) {
    const uint64_t d = r.u64(dims[a], gp + "/partition/dims");
    if (d < 1 || d > (1u << 20)) r.bad(gp + "/partition/dims", "out of range");
    g.partition.dims[a] = static_cast<uint32_t>(d);
  }
  const json& jl = r.key(jg, "lod", gp);
  g.lod.scale = static_cast<uint32_t>(r.u64(r.key(jl, "scale", gp + "/lod"), gp + "/lod/scale"));
  g.lod.level0_max = r.u64(r.key(jl, "level0_max", gp + "/lod"), gp + "/lod/level0_max");
  g.lod.brick_target = r.u64(r.key(jl, "brick_target", gp + "/lod"), gp + "/lod/brick_target");
  g.lod.seed = r.u64(r.key(jl, "seed", gp + "/lod"), gp + "/lod/seed");
  if (g.lod.scale < 2 || g.lod.scale > 1024 || g.lod.level0_max < 1)
    r.bad(gp + "/lod", "scale or level0_max out of range");
}

// A step's bitmap indexes, by field ("indexes": absent in steps without bitmap indexes).
void decode_step_indexes(const Reader& r, const json& s, const std::string& sp, const ParticleGroupMeta& g,
                         StepRecord& rec) {
  if (!s.contains("indexes")) return;
  const json& ji = s["indexes"];
  const std::string ip = sp + "/indexes";
  if (!ji.is_object()) r.bad(ip, "expected an object of field -> index");
  for (auto it = ji.begin(); it != ji.end(); ++it) {
    const std::string fp = ip + "/" + it.key();
    StepIndex x;
    x.field = it.key();
    if (!g.schema.has(x.field)) r.bad(fp, "no such field in the schema");
    const std::string kind = r.str(r.key(*it, "binning", fp), fp + "/binning");
    if (kind == "precision") {
      x.binning = {Binning::kPrecision, static_cast<uint32_t>(r.u64(r.key(*it, "precision", fp), fp + "/precision"))};
    } else if (kind == "equal_weight") {
      x.binning = {Binning::kEqualWeight, static_cast<uint32_t>(r.u64(r.key(*it, "bins", fp), fp + "/bins"))};
    } else {
      r.bad(fp + "/binning", "expected \"precision\" or \"equal_weight\"");
    }
    try {
      validate(x.binning);
    } catch (const Error& e) {
      r.bad(fp, e.what());
    }
    x.bytes = r.u64(r.key(*it, "bytes", fp), fp + "/bytes");
    rec.indexes.push_back(x);
  }
}

// Step record `s` of particle group `g` (which holds the steps listed before it).
StepRecord decode_particle_step(const Reader& r, const json& s, const std::string& sp, const ParticleGroupMeta& g) {
  StepRecord rec;
  rec.step = r.i64(r.key(s, "step", sp), sp + "/step");
  if (rec.step < 0) r.bad(sp + "/step", "negative step");
  rec.particles = r.u64(r.key(s, "particles", sp), sp + "/particles");
  rec.files = static_cast<uint32_t>(r.u64(r.key(s, "files", sp), sp + "/files"));
  rec.bytes = r.u64(r.key(s, "bytes", sp), sp + "/bytes");
  rec.directory = r.str(r.key(s, "directory", sp), sp + "/directory");
  if (rec.directory.empty() || rec.directory[0] == '/' || rec.directory.find("..") != std::string::npos)
    r.bad(sp + "/directory", "must be a relative path inside the dataset");
  rec.metadata_checksum = r.u64(r.key(s, "metadata_checksum", sp), sp + "/metadata_checksum");
  rec.writer_ranks = static_cast<uint32_t>(r.u64(r.key(s, "writer_ranks", sp), sp + "/writer_ranks"));
  if (!g.steps.empty() && g.steps.back().step >= rec.step) r.bad(sp + "/step", "steps are not ascending");
  decode_step_domain(r, s, sp, g, rec);
  decode_step_indexes(r, s, sp, g, rec);
  return rec;
}

ParticleGroupMeta decode_particles(const Reader& r, const json& jg, const std::string& name, const std::string& gp) {
  ParticleGroupMeta g;
  g.name = name;
  try {
    check_group_name(name);
  } catch (const Error& e) {
    r.bad(gp, e.what());
  }
  decode_particle_definition(r, jg, gp, g);
  const json& jsteps = r.key(jg, "steps", gp);
  if (!jsteps.is_array()) r.bad(gp + "/steps", "expected a list");
  for (size_t i = 0; i < jsteps.size(); ++i)
    g.steps.push_back(decode_particle_step(r, jsteps[i], cat(gp, "/steps/", i), g));
  return g;
}

// A grid's size and its bitmask agree: at most 2^62 bytes per field, a bitmask of axes below ndims
// whose box (2^bits along each axis) holds the dims, 60 bits at most (as layout/hz supports).
void check_grid_extent(const Reader& r, const GridMeta& g, const std::string& gp) {
  uint64_t widest = 1;
  for (const FieldSpec& f : g.fields) widest = std::max<uint64_t>(widest, dtype_size(f.dtype) * f.components);
  uint64_t bytes = widest;
  for (int a = 0; a < 3; ++a) {
    if (bytes > (uint64_t{1} << 62) / g.dims[a]) r.bad(gp + "/dims", "the grid would hold more than 2^62 bytes");
    bytes *= g.dims[a];
  }
  if (g.bitmask.empty()) return;
  if (g.bitmask.size() > 61 || g.bitmask[0] != 'V') r.bad(gp + "/bitmask", "expected 'V' and at most 60 axis digits");
  std::array<int, 3> bits{0, 0, 0};
  for (size_t i = 1; i < g.bitmask.size(); ++i) {
    const int a = g.bitmask[i] - '0';
    if (a < 0 || a >= g.ndims) r.bad(gp + "/bitmask", cat("character ", i, " is not an axis below ndims"));
    ++bits[a];
  }
  for (int a = 0; a < g.ndims; ++a)
    if (bits[a] < 40 && (uint64_t{1} << bits[a]) < g.dims[a])
      r.bad(gp + "/bitmask",
            cat("its ", bits[a], " bits of axis ", "xyz"[a], " cannot address ", g.dims[a], " samples"));
}

GridMeta decode_grid(const Reader& r, const json& jg, const std::string& name, const std::string& gp) {
  GridMeta g;
  g.name = name;
  try {
    check_group_name(name);
  } catch (const Error& e) {
    r.bad(gp, e.what());
  }
  g.ndims = static_cast<int>(r.u64(r.key(jg, "ndims", gp), gp + "/ndims"));
  if (g.ndims < 1 || g.ndims > 3) r.bad(gp + "/ndims", "must be 1, 2 or 3");
  const json& jd = r.key(jg, "dims", gp);
  if (!jd.is_array() || jd.size() != 3) r.bad(gp + "/dims", "expected 3 integers");
  for (int a = 0; a < 3; ++a) {
    g.dims[a] = r.u64(jd[a], gp + "/dims");
    if (g.dims[a] < 1 || g.dims[a] > (uint64_t{1} << 40) || (a >= g.ndims && g.dims[a] != 1))
      r.bad(gp + "/dims", "out of range");
  }
  const json& jf = r.key(jg, "fields", gp);
  if (!jf.is_array() || jf.empty()) r.bad(gp + "/fields", "expected a non-empty list of fields");
  for (size_t i = 0; i < jf.size(); ++i) g.fields.push_back(decode_field(r, jf[i], cat(gp, "/fields/", i)));
  g.bitmask = r.str(r.key(jg, "bitmask", gp), gp + "/bitmask");
  const json& jdv = r.key(jg, "bitmask_derived", gp);
  if (!jdv.is_boolean()) r.bad(gp + "/bitmask_derived", "expected true or false");
  g.bitmask_derived = jdv.get<bool>();
  g.bits_per_block = static_cast<int>(r.u64(r.key(jg, "bits_per_block", gp), gp + "/bits_per_block"));
  if (g.bits_per_block < 1 || g.bits_per_block > 31) r.bad(gp + "/bits_per_block", "must be 1..31");
  g.blocks_per_file = r.u64(r.key(jg, "blocks_per_file", gp), gp + "/blocks_per_file");
  if (g.blocks_per_file < 1) r.bad(gp + "/blocks_per_file", "must be at least 1");
  g.aggregation = r.str(r.key(jg, "aggregation", gp), gp + "/aggregation");
  if (g.aggregation != "uniform" && g.aggregation != "localized") r.bad(gp + "/aggregation", "unknown scheme");
  g.partitions = static_cast<uint32_t>(r.u64(r.key(jg, "partitions", gp), gp + "/partitions"));
  if (g.partitions < 1 || (g.partitions & (g.partitions - 1)) != 0) r.bad(gp + "/partitions", "must be a power of two");
  if (jg.contains("index_space")) {   // absent in datasets written before partitioning
    g.index_space = r.str(jg["index_space"], gp + "/index_space");
    if (g.index_space != "global" && g.index_space != "local")
      r.bad(gp + "/index_space", "expected 'global' or 'local'");
  }
  const std::string comp = r.str(r.key(jg, "compression", gp), gp + "/compression");
  if (comp != "zip" && comp != "none") r.bad(gp + "/compression", "expected 'zip' or 'none'");
  g.zip = comp == "zip";
  const json& js = r.key(jg, "steps", gp);
  if (!js.is_array()) r.bad(gp + "/steps", "expected a list");
  for (size_t i = 0; i < js.size(); ++i) {
    const std::string sp = cat(gp, "/steps/", i);
    GridStepRecord rec;
    rec.step = r.i64(r.key(js[i], "step", sp), sp + "/step");
    if (rec.step < 0) r.bad(sp + "/step", "negative step");
    rec.files = static_cast<uint32_t>(r.u64(r.key(js[i], "files", sp), sp + "/files"));
    rec.bytes = r.u64(r.key(js[i], "bytes", sp), sp + "/bytes");
    rec.writer_ranks = static_cast<uint32_t>(r.u64(r.key(js[i], "writer_ranks", sp), sp + "/writer_ranks"));
    if (js[i].contains("block_checksums")) {   // absent in steps written before block checksums
      if (r.str(js[i]["block_checksums"], sp + "/block_checksums") != "xxh3")
        r.bad(sp + "/block_checksums", "expected 'xxh3'");
      rec.block_checksums = true;
    }
    if (!g.steps.empty() && g.steps.back().step >= rec.step) r.bad(sp + "/step", "steps are not ascending");
    g.steps.push_back(rec);
  }
  if (!g.steps.empty() && g.bitmask.empty()) r.bad(gp + "/bitmask", "a grid with steps needs its bitmask");
  check_grid_extent(r, g, gp);
  return g;
}
SeriesMeta decode_series(const Reader& r, const json& jg, const std::string& name, const std::string& gp) {
  SeriesMeta g;
  g.name = name;
  try {
    check_group_name(name);
  } catch (const Error& e) {
    r.bad(gp, e.what());
  }
  const json& jd = r.key(jg, "dims", gp);
  if (!jd.is_array() || jd.size() != 3) r.bad(gp + "/dims", "expected 3 integers");
  for (int a = 0; a < 3; ++a) {
    g.dims[a] = r.i64(jd[a], gp + "/dims");
    if (g.dims[a] < 1 || g.dims[a] > (int64_t{1} << 31)) r.bad(gp + "/dims", "out of range");
  }
  const json& jv = r.key(jg, "variables", gp);
  if (!jv.is_array() || jv.empty()) r.bad(gp + "/variables", "expected a non-empty list");
  for (size_t i = 0; i < jv.size(); ++i) {
    const std::string vp = cat(gp, "/variables/", i);
    SeriesVariable v;
    v.name = r.str(r.key(jv[i], "name", vp), vp + "/name");
    try {
      v.dtype = parse_dtype(r.str(r.key(jv[i], "dtype", vp), vp + "/dtype"));
    } catch (const Error& e) {
      r.bad(vp + "/dtype", e.what());
    }
    v.ndim = static_cast<int>(r.u64(r.key(jv[i], "ndim", vp), vp + "/ndim"));
    if (v.ndim != 2 && v.ndim != 3) r.bad(vp + "/ndim", "must be 2 or 3");
    if (v.name.empty() || g.find_variable(v.name)) r.bad(vp + "/name", "empty or named twice");
    g.variables.push_back(v);
  }
  const json& js = r.key(jg, "settings", gp);
  const std::string sp = gp + "/settings";
  g.settings.memory_budget = r.u64(r.key(js, "memory_budget", sp), sp + "/memory_budget");
  g.settings.d_tar = static_cast<int>(r.i64(r.key(js, "d_tar", sp), sp + "/d_tar"));
  g.settings.d_sar = static_cast<int>(r.i64(r.key(js, "d_sar", sp), sp + "/d_sar"));
  g.settings.bw_io = r.num(r.key(js, "bw_io", sp), sp + "/bw_io");
  g.settings.cc = r.num(r.key(js, "cc", sp), sp + "/cc");
  g.settings.ts = r.num(r.key(js, "ts", sp), sp + "/ts");
  // Absent in series defined before the window bounds: the defaults (a stored plan is kept as is).
  if (js.contains("max_window_steps")) {
    const uint64_t steps = r.u64(js["max_window_steps"], sp + "/max_window_steps");
    if (steps < 1 || steps > UINT32_MAX) r.bad(sp + "/max_window_steps", "must be 1 .. 2^32 - 1");
    g.settings.max_window_steps = static_cast<uint32_t>(steps);
  }
  if (js.contains("max_window_seconds")) {
    const json& s = js["max_window_seconds"];
    g.settings.max_window_seconds = s.is_null() ? INFINITY : r.num(s, sp + "/max_window_seconds");
    if (!(g.settings.max_window_seconds > 0)) r.bad(sp + "/max_window_seconds", "must be positive (null: no bound)");
  }
  if (jg.contains("cuts")) {
    const json& jc = jg["cuts"];
    if (!jc.is_array() || jc.size() != 3) r.bad(gp + "/cuts", "expected 3 lists");
    for (int a = 0; a < 3; ++a) {
      const std::string cp = cat(gp, "/cuts/", a);
      if (!jc[a].is_array() || jc[a].size() < 2) r.bad(cp, "expected at least 2 cuts");
      for (const json& c : jc[a]) {
        const int64_t x = r.i64(c, cp);
        if ((g.cuts[a].empty() ? x != 0 : x <= g.cuts[a].back()) || x > g.dims[a])
          r.bad(cp, "cuts must rise from 0 to the extent");
        g.cuts[a].push_back(x);
      }
      if (g.cuts[a].back() != g.dims[a]) r.bad(cp, "cuts must end at the extent");
    }
    g.d_tar = static_cast<uint32_t>(r.u64(r.key(jg, "d_tar", gp), gp + "/d_tar"));
    g.d_sar = static_cast<uint32_t>(r.u64(r.key(jg, "d_sar", gp), gp + "/d_sar"));
    if (g.d_tar < 1 || g.d_tar > (1u << 20) || g.d_sar > 31) r.bad(gp + "/d_tar", "d_tar or d_sar out of range");
    g.opt_size = r.u64(r.key(jg, "opt_size", gp), gp + "/opt_size");
    g.chunk_bytes = r.u64(r.key(jg, "chunk_bytes", gp), gp + "/chunk_bytes");
    g.reason = r.str(r.key(jg, "reason", gp), gp + "/reason");
    g.writer_ranks = static_cast<uint32_t>(r.u64(r.key(jg, "writer_ranks", gp), gp + "/writer_ranks"));
  }
  const json& jw = r.key(jg, "windows", gp);
  if (!jw.is_array()) r.bad(gp + "/windows", "expected a list");
  if (!jw.empty() && !g.planned()) r.bad(gp + "/cuts", "a series with windows needs its decomposition");
  for (size_t i = 0; i < jw.size(); ++i) {
    const std::string wp = cat(gp, "/windows/", i);
    SeriesWindowRecord w;
    w.file = r.str(r.key(jw[i], "file", wp), wp + "/file");
    if (w.file.empty() || w.file.find('/') != std::string::npos || w.file.find("..") != std::string::npos)
      r.bad(wp + "/file", "must be a file name inside the series' folder");
    const json& jst = r.key(jw[i], "steps", wp);
    if (!jst.is_array() || jst.empty() || jst.size() > g.d_tar) r.bad(wp + "/steps", "expected 1..d_tar steps");
    for (const json& x : jst) {
      const int64_t t = r.i64(x, wp + "/steps");
      if (t < 0 || t <= (w.steps.empty() ? g.last_step() : w.steps.back()))
        r.bad(wp + "/steps", "steps are not ascending");
      w.steps.push_back(t);
    }
    w.bytes = r.u64(r.key(jw[i], "bytes", wp), wp + "/bytes");
    g.windows.push_back(std::move(w));
  }
  return g;
}
}  // namespace

namespace {

// " at byte b (key 'k')": where in the text a JSON error lies, and the last key before it.
std::string json_location(std::string_view text, size_t at) {
  at = std::min(at, text.size());
  std::string where = cat(" at byte ", at);
  // The last `"key":` before the error, scanning back over the text.
  for (size_t colon = text.rfind(':', at); colon != std::string_view::npos && colon > 0;
       colon = text.rfind(':', colon - 1)) {
    size_t end = colon;
    while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\n' || text[end - 1] == '\t')) --end;
    if (end == 0 || text[end - 1] != '"') continue;
    const size_t open = text.rfind('"', end - 2);
    if (open == std::string_view::npos) break;
    return where + cat(" (key '", text.substr(open + 1, end - 2 - open), "')");
  }
  return where;
}

// The manifest's JSON; its syntax errors and numbers that do not fit are FormatErrors naming
// the file, the byte and the key.
json parse_json(std::string_view text, const std::string& what) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    fail(ErrorCode::kFormat, what, ": not valid JSON", json_location(text, e.byte ? e.byte - 1 : 0), " (", e.what(),
         ")");
  } catch (const json::exception& e) {
    // A number too large for a double or a 64-bit integer ("number overflow parsing '1e400'").
    const std::string msg = e.what();
    const size_t q0 = msg.find('\''), q1 = msg.rfind('\'');
    size_t at = text.size();
    if (q0 != std::string::npos && q1 > q0) at = text.find(msg.substr(q0 + 1, q1 - q0 - 1));
    fail(ErrorCode::kFormat, what, ": a JSON value cannot be represented", json_location(text, at), " (", msg, ")");
  }
}

}  // namespace

Manifest decode_manifest(std::string_view text, const std::string& what) {
  json root = parse_json(text, what);
  Reader r(what);
  // json::value() throws its own type_error when "format" is not a string: compare instead.
  if (!root.is_object() || !root.contains("format") || root["format"] != "lodex")
    r.bad("format", "not a lodex manifest");
  Manifest m;
  m.format_version = static_cast<uint32_t>(r.u64(r.key(root, "format_version", "/"), "format_version"));
  if (m.format_version != kManifestVersion)
    r.bad("format_version", cat(m.format_version, " is not supported (this lodex reads ", kManifestVersion, ")"));
  if (root.contains("created_by")) m.created_by = r.str(root["created_by"], "created_by");
  const json& groups = r.key(root, "groups", "/");
  if (!groups.is_object()) r.bad("groups", "expected an object");
  for (auto it = groups.begin(); it != groups.end(); ++it) {
    const std::string gp = "groups/" + it.key();
    const json& jg = it.value();
    const std::string kind = r.str(r.key(jg, "kind", gp), gp + "/kind");
    if (kind == "grid") {
      m.grids.push_back(decode_grid(r, jg, it.key(), gp));
      continue;
    }
    if (kind == "series") {
      m.series.push_back(decode_series(r, jg, it.key(), gp));
      continue;
    }
    if (kind != "particles") r.bad(gp + "/kind", cat("unknown group kind '", kind, "'"));
    m.particle_groups.push_back(decode_particles(r, jg, it.key(), gp));
  }
  return m;
}

}  // namespace lodex
