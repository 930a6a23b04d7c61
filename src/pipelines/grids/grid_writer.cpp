// Parallel IDX writes of grid variables (pipelines/grids/grid_group.hpp; Kumar et al. 2017 §III-§V, Kumar et al. 2011),
// on the collective skeleton (pipelines/collective.hpp):
//   check     the step, box and fields of this rank; rank 0 clears what a failed write of the
//             step may have left
//   agree     one allgather of every rank's box, step and verdict
//   plan      the indexing template and partitions (pure, the same everywhere)
//   restructure, hz_encode, aggregate, compress, file_write   one IDX dataset's files
//             (grid_space_writer.hpp): the whole grid, or this rank's partition's dataset
//   commit    outcomes to rank 0, which writes the .idx header(s) and the manifest; the verdict
//             and the profile go to every rank
#include <algorithm>
#include <cmath>
#include <cstring>
#include <atomic>
#include <map>
#include <thread>

#include "core/bytes.hpp"
#include "core/error.hpp"
#include "format/idx.hpp"
#include "format/idx_sums.hpp"
#include "pipelines/collective.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/grids/grid_group.hpp"
#include "pipelines/grids/grid_space_writer.hpp"
#include "storage/file.hpp"

namespace lodex {

namespace {

constexpr const char* kTimePattern = "time_%06d/";

std::vector<std::string> phase_names() {
  return {"check", "agree", "plan", "restructure", "hz_encode", "aggregate", "compress", "file_write", "commit"};
}

// Every rank's summary, agreed on before planning.
struct GridRecord {
  int64_t box[6];
  int64_t step;
};

}   // namespace

std::string GridWriteProfile::to_json() const {
  std::string s =
      cat("{\"step\": ", step, ", \"ranks\": ", ranks, ", \"aggregators\": ", aggregators, ", \"files\": ", files,
          ", \"bytes\": ", bytes, ", \"restructured_bytes\": ", restructured_bytes,
          ", \"aggregated_bytes\": ", aggregated_bytes, ", \"bitmask\": \"", bitmask, "\", \"rank_order\": \"",
          rank_order, "\", \"brick_bits\": ", brick_bits, ", \"partitions\": ", partitions, ", \"index_space\": \"",
          index_space, "\"", ", \"fsync\": ", fsync ? "true" : "false", ", \"total_s\": ", total_s,
          ", \"blocked_s\": ", blocked_s, ", \"async_path\": \"", async_path, "\", \"phases\": {");
  for (size_t i = 0; i < phases.size(); ++i)
    s += cat(i ? ", " : "", "\"", phases[i].name, "\": {\"min_s\": ", phases[i].min_s,
             ", \"mean_s\": ", phases[i].mean_s, ", \"max_s\": ", phases[i].max_s, "}");
  s += "}, \"levels\": [";
  for (size_t i = 0; i < levels.size(); ++i)
    s += cat(i ? ", " : "", "{\"level\": ", levels[i].level, ", \"blocks\": ", levels[i].blocks,
             ", \"bytes\": ", levels[i].bytes, ", \"encode_s\": ", levels[i].encode_s,
             ", \"write_s\": ", levels[i].write_s, "}");
  return s + "]}";
}

const GridMeta& GridGroup::meta() const {
  const GridMeta* g = ds_->manifest.find_grid(name_);
  if (!g) fail(ErrorCode::kInternal, "grid '", name_, "' vanished from the manifest");
  return *g;
}

std::string GridGroup::idx_path() const {
  const GridMeta& g = meta();
  if (g.split_into_parts())
    fail(ErrorCode::kUnsupported, "grid '", name_, "' is written in the local index space: one IDX dataset per ",
         "partition (", g.partitions, " partitions), not one .idx; see its part datasets");
  return join_path(ds_->path, g.idx_name());
}

std::vector<int64_t> GridGroup::steps() const {
  std::vector<int64_t> out;
  for (const auto& s : meta().steps) out.push_back(s.step);
  return out;
}

void GridGroup::require_step(int64_t step) const {
  ds_->require_open();
  const GridMeta& g = meta();
  if (!g.find_step(step)) {
    std::string have;
    for (const auto& s : g.steps) have += (have.empty() ? "" : ", ") + std::to_string(s.step);
    fail(ErrorCode::kNotFound, "grid '", name_, "' has no step ", step, " (steps: ", have.empty() ? "none" : have, ")");
  }
}

namespace {

// The IDX header lodex writes for one dataset of the grid (the whole grid, or one partition's box).
IdxHeader grid_idx_header(const GridMeta& g, const std::string& idx_name, const Coord3& dims,
                          const std::string& bitmask, int bits_per_block) {
  std::vector<IdxField> fields;
  for (const auto& f : g.fields) fields.push_back(IdxField{f.name, f.dtype, f.components, "", true});
  return idx_write_header(
      idx_name, dims, g.ndims, fields, bitmask, bits_per_block, g.blocks_per_file, g.zip,
      IdxTime{std::to_string(g.steps.front().step), std::to_string(g.steps.back().step), kTimePattern});
}

void write_idx_header(const GridMeta& g, const std::string& idx_name, const std::string& path, const Coord3& dims,
                      const std::string& bitmask, int bits_per_block, bool fsync) {
  const std::string text = encode_idx_header(grid_idx_header(g, idx_name, dims, bitmask, bits_per_block));
  replace_file(path, bytes_of(text), fsync);
}

// A grid's .idx against what the manifest says it must hold: a swapped or edited header (another
// grid's, another box, another field type, a template pointing elsewhere) is a FormatError, never
// a read of other data. The time range may have grown since this copy of the manifest was read
// (a writer appending steps): only its pattern and the step being read are checked.
void check_idx_header(const IdxHeader& got, const IdxHeader& want, int64_t step, const std::string& path) {
  auto differ = [&](const char* key, const std::string& found, const std::string& expected) {
    fail(ErrorCode::kFormat, "'", path, "': ", key, " is ", found, "; the dataset's manifest says ", expected,
         " (the .idx was replaced or edited)");
  };
  auto box = [](const IdxHeader& h) {
    return cat(h.box_min[0], " ", h.box_max[0], " ", h.box_min[1], " ", h.box_max[1], " ", h.box_min[2], " ",
               h.box_max[2]);
  };
  if (got.ndims != want.ndims || got.box_min != want.box_min || got.box_max != want.box_max)
    differ("(box)", box(got), box(want));
  auto fields = [](const IdxHeader& h) {
    std::string s;
    for (const auto& f : h.fields)
      s += cat(s.empty() ? "" : ", ", f.name, " ", dtype_name(f.dtype), " x ", f.components);
    return s;
  };
  bool same_fields = got.fields.size() == want.fields.size();
  for (size_t i = 0; same_fields && i < got.fields.size(); ++i)
    same_fields = got.fields[i].name == want.fields[i].name && got.fields[i].dtype == want.fields[i].dtype &&
                  got.fields[i].components == want.fields[i].components;
  if (!same_fields) differ("(fields)", fields(got), fields(want));
  if (got.bits != want.bits) differ("(bits)", got.bits, want.bits);
  if (got.bits_per_block != want.bits_per_block)
    differ("(bitsperblock)", std::to_string(got.bits_per_block), std::to_string(want.bits_per_block));
  if (got.blocks_per_file != want.blocks_per_file)
    differ("(blocksperfile)", std::to_string(got.blocks_per_file), std::to_string(want.blocks_per_file));
  if (got.filename_template != want.filename_template)
    differ("(filename_template)", got.filename_template, want.filename_template);
  if (!got.time || got.time->pattern != want.time->pattern)
    differ("(time)", got.time ? got.time->pattern : "absent", want.time->pattern);
  if (!idx_time_holds(*got.time, step))
    differ("(time)", cat(got.time->first, " ", got.time->last), cat("a range holding step ", step));
}

std::string part_name(uint32_t q) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "p%04u", q);
  return buf;
}

// Partition q's box clipped to the grid (empty when the partition holds no sample).
GridBox part_box(const GridMeta& g, const HzIndex& hz, int k, uint32_t q) {
  const GridBox grid{
      {0, 0, 0}, {static_cast<int64_t>(g.dims[0]), static_cast<int64_t>(g.dims[1]), static_cast<int64_t>(g.dims[2])}};
  return grid_partition_box(hz, k, q).intersect(grid);
}

}   // namespace

IdxDataset GridGroup::open_step(int64_t step) const {
  require_step(step);
  const GridMeta& g = meta();
  const std::string path = idx_path();
  IdxDataset d = IdxDataset::open(path, ds_->confinement);
  check_idx_header(d.header(), grid_idx_header(g, name_, g.dims, g.bitmask, g.bits_per_block), step, path);
  d.require_block_checksums(g.find_step(step)->block_checksums);
  return d;
}

std::vector<std::pair<GridPartDataset, IdxDataset>> GridGroup::open_parts(int64_t step) const {
  require_step(step);
  const GridMeta& g = meta();
  const HzIndex hz(g.bitmask);
  const int k = grid_partition_bits(g.partitions, hz);
  std::vector<std::pair<GridPartDataset, IdxDataset>> out;
  for (GridPartDataset& p : part_datasets()) {
    IdxDataset d = IdxDataset::open(p.idx_path, ds_->confinement);
    Coord3 dims;
    for (int a = 0; a < 3; ++a) dims[a] = static_cast<uint64_t>(p.box.hi[a] - p.box.lo[a]);
    check_idx_header(d.header(),
                     grid_idx_header(g, part_name(p.partition), dims, "V" + hz.text().substr(1 + k),
                                     std::min(g.bits_per_block, hz.maxh() - k)),
                     step, p.idx_path);
    d.require_block_checksums(g.find_step(step)->block_checksums);
    out.emplace_back(std::move(p), std::move(d));
  }
  return out;
}

std::vector<GridPartDataset> GridGroup::part_datasets() const {
  const GridMeta& g = meta();
  std::vector<GridPartDataset> out;
  if (!g.split_into_parts() || g.bitmask.empty()) return out;
  const HzIndex hz(g.bitmask);
  const int k = grid_partition_bits(g.partitions, hz);
  for (uint32_t q = 0; q < g.partitions; ++q) {
    const GridBox b = part_box(g, hz, k, q);
    if (!b.empty()) out.push_back({q, b, join_path(join_path(ds_->path, name_), part_name(q) + ".idx")});
  }
  return out;
}

namespace {

// This rank's side of one step's write.
struct GridStepWrite {
  DatasetState& st;
  GridMeta& g;
  const std::string& name;
  int64_t step;
  size_t F = 0;
  std::vector<size_t> sample;   // bytes per sample, per field
  ArrayView mine;
  std::vector<GridBox> boxes;   // every rank's
  GridTemplate tmpl;
  std::unique_ptr<HzIndex> hz;   // of the whole grid
  int k = 0;   // partition bits
  std::vector<uint32_t> parts;   // every rank's partition
};

std::string time_dir(int64_t step) { return idx_time_dir(IdxTime{"0", "0", kTimePattern}, step); }

// The folders holding a folder per step (time_<step>/) of a grid: its blocks' and their
// checksums' (docs/formats/idx.md §7), per partition in the local index space.
std::vector<std::string> step_parents(const GridMeta& g, const std::string& root) {
  const std::string dir = join_path(root, g.name);
  std::vector<std::string> blocks;
  if (g.split_into_parts())
    for (uint32_t q = 0; q < g.partitions; ++q) blocks.push_back(join_path(dir, part_name(q)));
  else blocks.push_back(dir);
  std::vector<std::string> out;
  for (const std::string& b : blocks) {
    out.push_back(b);
    out.push_back(parent_path(parent_path(idx_sums_path(b + ".idx", time_dir(0)))));
  }
  return out;
}

// ---- check ----
GridRecord check(GridStepWrite& w, const GridBox& box, std::span<const FieldView> views) {
  w.st.require_writable();
  const GridMeta& g = w.g;
  if (w.step < 0) fail(ErrorCode::kInvalidArgument, "step must be non-negative, got ", w.step);
  if (g.find_step(w.step)) fail(ErrorCode::kAlreadyExists, "grid '", w.name, "' already has step ", w.step);
  if (!g.steps.empty() && w.step < g.steps.back().step)
    fail(ErrorCode::kInvalidArgument, "grid '", w.name, "' has step ", g.steps.back().step, "; step ", w.step,
         " comes before it (grid steps are written in increasing order)");
  for (int a = 0; a < 3; ++a) {
    if (box.hi[a] < box.lo[a])
      fail(ErrorCode::kInvalidArgument, "box ", box_text(box), " has max < min on axis ", "xyz"[a]);
    if (!box.empty() && (box.lo[a] < 0 || box.hi[a] > static_cast<int64_t>(g.dims[a])))
      fail(ErrorCode::kInvalidArgument, "box ", box_text(box), " is outside the ", g.dims[0], " x ", g.dims[1], " x ",
           g.dims[2], " grid '", w.name, "'");
  }
  const uint64_t n = box.volume();
  w.mine = ArrayView{box, std::vector<const uint8_t*>(w.F, nullptr)};
  for (const FieldView& v : views) {
    size_t f = 0;
    while (f < w.F && g.fields[f].name != v.name) ++f;
    if (f == w.F) fail(ErrorCode::kInvalidArgument, "grid '", w.name, "' has no field '", v.name, "'");
    if (w.mine.data[f]) fail(ErrorCode::kInvalidArgument, "field '", v.name, "' is given twice");
    if (v.dtype != g.fields[f].dtype || v.components != g.fields[f].components)
      fail(ErrorCode::kInvalidArgument, "field '", v.name, "' is ", dtype_name(g.fields[f].dtype), " x ",
           g.fields[f].components, ", not ", dtype_name(v.dtype), " x ", v.components);
    if (v.rows != n)
      fail(ErrorCode::kInvalidArgument, "field '", v.name, "' has ", v.rows, " samples; the box ", box_text(box),
           " holds ", n);
    if (n > 0 && !v.data) fail(ErrorCode::kInvalidArgument, "field '", v.name, "' has no data");
    w.mine.data[f] = static_cast<const uint8_t*>(v.data);
  }
  for (size_t f = 0; f < w.F; ++f)
    if (!w.mine.data[f] && n > 0) fail(ErrorCode::kInvalidArgument, "field '", g.fields[f].name, "' is missing");
  if (w.mine.box.empty()) w.mine.box = GridBox{};
  if (w.st.comm.rank() == 0)   // leftovers of a write of this step that never committed (or was truncated)
    for (const std::string& parent : step_parents(g, w.st.path)) remove_tree(join_path(parent, time_dir(w.step)));
  GridRecord r{};
  for (int a = 0; a < 3; ++a) {
    r.box[a] = w.mine.box.lo[a];
    r.box[3 + a] = w.mine.box.hi[a];
  }
  r.step = w.step;
  return r;
}

// ---- plan: the template and the partitions (the same on every rank, so are its errors) ----
void plan(GridStepWrite& w, const std::vector<GridRecord>& all) {
  for (size_t r = 0; r < all.size(); ++r) {
    if (all[r].step != all[0].step)
      fail(ErrorCode::kInvalidArgument, "ranks write different steps of grid '", w.name, "': rank 0 step ", all[0].step,
           ", rank ", r, " step ", all[r].step);
    GridBox b;
    for (int a = 0; a < 3; ++a) {
      b.lo[a] = all[r].box[a];
      b.hi[a] = all[r].box[3 + a];
    }
    w.boxes.push_back(b);
  }
  w.tmpl = grid_template(w.g.bitmask, w.g.dims, w.g.ndims, w.boxes);
  w.hz = std::make_unique<HzIndex>(w.tmpl.bitmask);
  w.k = grid_partition_bits(w.g.partitions, *w.hz);
  w.parts = grid_rank_partitions(*w.hz, w.k, w.boxes);
}

// The IDX dataset this rank writes into: the whole grid, or its partition's (in the partition's
// coordinates). `space_mine` is this rank's array in those coordinates.
SpaceTarget space_target(const GridStepWrite& w, const Comm* part_comm, ArrayView& space_mine) {
  const GridMeta& g = w.g;
  SpaceTarget t;
  t.in.tmpl = w.tmpl;
  t.in.bits_per_block = g.bits_per_block;
  t.in.blocks_per_file = g.blocks_per_file;
  t.in.fields = static_cast<uint32_t>(w.F);
  t.in.aggregation = parse_grid_aggregation(g.aggregation);
  t.tdir = time_dir(w.step);
  t.step = w.step;
  for (const auto& f : g.fields) t.fields.push_back(IdxField{f.name, f.dtype, f.components, "", true});
  t.zip = g.zip;
  t.fsync = w.st.options.fsync;
  space_mine = w.mine;
  if (!g.split_into_parts()) {   // one dataset over the whole grid
    t.in.dims = g.dims;
    t.in.boxes = w.boxes;
    t.in.partitions = g.partitions;
    t.idx_dir = w.st.path;
    t.idx_name = w.name;
    t.part = g.partitions > 1 ? part_comm : nullptr;
    return t;
  }
  const uint32_t my_part = w.parts[w.st.comm.rank()];
  const GridBox pb = part_box(g, *w.hz, w.k, my_part);
  for (int a = 0; a < 3; ++a) t.in.dims[a] = static_cast<uint64_t>(std::max<int64_t>(0, pb.hi[a] - pb.lo[a]));
  for (size_t r = 0; r < w.boxes.size(); ++r) {
    if (w.parts[r] != my_part) continue;
    GridBox b = w.boxes[r];
    if (!b.empty())
      for (int a = 0; a < 3; ++a) {
        b.lo[a] -= pb.lo[a];
        b.hi[a] -= pb.lo[a];
      }
    t.in.boxes.push_back(b);
  }
  t.in.tmpl = user_template("V" + w.hz->text().substr(1 + w.k), t.in.boxes);
  // A partition's index is k characters shorter: its blocks are at most all of it.
  t.in.bits_per_block = std::min(g.bits_per_block, w.hz->maxh() - w.k);
  if (!space_mine.box.empty())
    for (int a = 0; a < 3; ++a) {
      space_mine.box.lo[a] -= pb.lo[a];
      space_mine.box.hi[a] -= pb.lo[a];
    }
  t.idx_dir = join_path(w.st.path, w.name);
  t.idx_name = part_name(my_part);
  t.level_shift = w.k;
  return t;
}

// ---- commit (rank 0): outcomes summed, the .idx header(s), the manifest ----
// A rank's outcome (aggregators: 1 when it wrote) or rank 0's sum of them (aggregators: the count).
std::vector<uint8_t> encode_outcome(const SpaceOutcome& o, uint64_t aggregators) {
  ByteWriter b;
  for (uint64_t v : {o.bytes, o.files, aggregators, o.restructured, o.aggregated}) b.put<uint64_t>(v);
  b.put<int32_t>(o.brick_bits);
  b.put<uint32_t>(static_cast<uint32_t>(o.encode_s.size()));
  for (size_t L = 0; L < o.encode_s.size(); ++L) {
    b.put<double>(o.encode_s[L]);
    b.put<double>(o.write_s[L]);
    b.put<uint64_t>(o.level_blocks[L]);
    b.put<uint64_t>(o.level_bytes[L]);
  }
  return std::move(b.bytes());
}

SpaceOutcome decode_outcome(const std::vector<uint8_t>& bytes, uint64_t& aggregators) {
  ByteReader r(bytes.data(), bytes.size(), "grid write outcome");
  SpaceOutcome o;
  o.bytes = r.get<uint64_t>("bytes");
  o.files = r.get<uint64_t>("files");
  aggregators = r.get<uint64_t>("aggregators");
  o.aggregator = aggregators > 0;
  o.restructured = r.get<uint64_t>("restructured");
  o.aggregated = r.get<uint64_t>("aggregated");
  o.brick_bits = r.get<int32_t>("brick bits");
  const uint32_t levels = r.get<uint32_t>("levels");
  if (levels > 64) r.corrupt("more than 64 levels");
  for (uint32_t L = 0; L < levels; ++L) {
    o.encode_s.push_back(r.get<double>("encode"));
    o.write_s.push_back(r.get<double>("write"));
    o.level_blocks.push_back(r.get<uint64_t>("blocks"));
    o.level_bytes.push_back(r.get<uint64_t>("level bytes"));
  }
  return o;
}

// Over every rank: counts summed, times at their maximum; `aggregators` counts the ranks that wrote.
SpaceOutcome combine_outcomes(std::span<const RankOutcome> outcomes, uint64_t& aggregators) {
  SpaceOutcome all;
  aggregators = 0;
  for (const RankOutcome& ro : outcomes) {
    uint64_t one = 0;
    const SpaceOutcome o = decode_outcome(ro.payload, one);
    aggregators += one;
    all.bytes += o.bytes;
    all.files += o.files;
    all.restructured += o.restructured;
    all.aggregated += o.aggregated;
    all.brick_bits = std::max(all.brick_bits, o.brick_bits);
    const size_t levels = std::max(all.encode_s.size(), o.encode_s.size());
    all.encode_s.resize(levels, 0.0);
    all.write_s.resize(levels, 0.0);
    all.level_blocks.resize(levels, 0);
    all.level_bytes.resize(levels, 0);
    for (size_t L = 0; L < o.encode_s.size(); ++L) {
      all.encode_s[L] = std::max(all.encode_s[L], o.encode_s[L]);
      all.write_s[L] = std::max(all.write_s[L], o.write_s[L]);
      all.level_blocks[L] += o.level_blocks[L];
      all.level_bytes[L] += o.level_bytes[L];
    }
  }
  return all;
}

// Every .idx header of the grid (its time range first..last step): the global one at `idx_path`,
// or in the local index space every partition's holding samples.
void write_headers(const GridMeta& g, const std::string& root, const std::string& idx_path, bool fsync) {
  if (!g.split_into_parts()) {
    write_idx_header(g, g.name, idx_path, g.dims, g.bitmask, g.bits_per_block, fsync);
    return;
  }
  const HzIndex hz(g.bitmask);
  const int k = grid_partition_bits(g.partitions, hz);
  for (uint32_t q = 0; q < g.partitions; ++q) {   // every partition holding samples
    const GridBox pb = part_box(g, hz, k, q);
    if (pb.empty()) continue;
    Coord3 dims;
    for (int a = 0; a < 3; ++a) dims[a] = static_cast<uint64_t>(pb.hi[a] - pb.lo[a]);
    const std::string bits = "V" + hz.text().substr(1 + k);
    const std::string dir = join_path(root, g.name);
    write_idx_header(g, part_name(q), join_path(dir, part_name(q) + ".idx"), dims, bits,
                     std::min(g.bits_per_block, hz.maxh() - k), fsync);
  }
}

GridStepRecord step_record(const GridStepWrite& w, const SpaceOutcome& sum) {
  GridStepRecord rec;
  rec.step = w.step;
  rec.files = static_cast<uint32_t>(sum.files);
  rec.bytes = sum.bytes;
  rec.writer_ranks = static_cast<uint32_t>(w.st.comm.size());
  rec.block_checksums = true;
  return rec;
}

void commit(GridStepWrite& w, const SpaceOutcome& sum, const std::string& idx_path) {
  const std::string bitmask_before = w.g.bitmask;
  w.g.bitmask = w.hz->text();
  w.g.steps.push_back(step_record(w, sum));
  try {
    write_headers(w.g, w.st.path, idx_path, w.st.options.fsync);
    w.st.write_manifest();
  } catch (...) {
    w.g.steps.pop_back();
    w.g.bitmask = bitmask_before;
    throw;
  }
}

GridWriteProfile make_profile(const GridStepWrite& w, const Verdict& v, const SpaceOutcome& sum, uint64_t aggregators) {
  GridWriteProfile prof;
  prof.step = w.step;
  prof.ranks = w.st.comm.size();
  prof.aggregators = static_cast<uint32_t>(aggregators);
  prof.files = static_cast<uint32_t>(sum.files);
  prof.bytes = sum.bytes;
  prof.restructured_bytes = sum.restructured;
  prof.aggregated_bytes = sum.aggregated;
  prof.bitmask = w.hz->text();
  prof.rank_order = w.tmpl.derived        ? rank_order_name(w.tmpl.order)
                    : w.g.bitmask_derived ? "derived at the first write"
                                          : "user";
  prof.brick_bits = sum.brick_bits;
  prof.partitions = w.g.partitions;
  prof.index_space = w.g.index_space;
  prof.fsync = w.st.options.fsync;
  prof.total_s = v.total_s;
  prof.phases = v.phases;
  for (size_t L = 0; L < sum.encode_s.size(); ++L)
    prof.levels.push_back(
        {static_cast<int>(L), sum.level_blocks[L], sum.level_bytes[L], sum.encode_s[L], sum.write_s[L]});
  return prof;
}

}   // namespace

// ---- a step between its collective phases and its commit ----

// What the file writes need after the collective phases (on the calling thread for write, on a
// helper thread for write_async: with the streamed gather over `helper_comm` on the "helper-mpi"
// path, no MPI call otherwise) and what the commit needs after them. The space's state refers to
// t, space_mine, w.sample, out and *scratch: they live here.
struct PendingGridStep {
  PendingGridStep(DatasetState& st, const std::string& name, int64_t step)
      : w{st, *st.manifest.find_grid(name), name, step}, op(st.comm, phase_names()) {}
  ~PendingGridStep() {
    if (helper.joinable()) helper.join();   // a step never waited for is left uncommitted
  }
  GridStepWrite w;
  CollectiveOp op;
  SpaceTarget t;
  ArrayView space_mine;
  SpaceOutcome out;
  std::shared_ptr<GridScratch> scratch;
  std::shared_ptr<SpaceWrite> files;   // null: this rank's partition holds no sample
  std::shared_ptr<Comm> helper_comm;   // the grid's own communicator ("helper-mpi"), else null
  const char* path = "blocking";   // GridWriteProfile::async_path
  std::thread helper;
  std::atomic<bool> written{false};
  double blocked_s = 0;   // time the calls held the caller
};

namespace {

// gather + commit + verdict (collective), after the files are written; the step's profile.
GridWriteProfile commit_step(PendingGridStep& s, const std::string& idx_path) {
  GridStepWrite& w = s.w;
  const Comm& comm = w.st.comm;
  s.op.times().restart();   // an asynchronous step's commit comes later: the time between is the caller's
  const Verdict v = s.op.finish(
      encode_outcome(s.out, s.out.aggregator ? 1 : 0),
      [&](std::span<const RankOutcome> outcomes) {
        uint64_t aggregators = 0;
        const SpaceOutcome sum = combine_outcomes(outcomes, aggregators);
        commit(w, sum, idx_path);
        return encode_outcome(sum, aggregators);
      },
      [&] {   // a failed step leaves none of its blocks (a full disk keeps its partial files otherwise)
        for (const std::string& parent : step_parents(w.g, w.st.path)) remove_tree(join_path(parent, time_dir(w.step)));
      });
  uint64_t aggregators = 0;
  const SpaceOutcome sum = decode_outcome(v.summary, aggregators);
  if (comm.rank() != 0) {
    w.g.bitmask = w.hz->text();
    w.g.steps.push_back(step_record(w, sum));
  }
  GridWriteProfile prof = make_profile(w, v, sum, aggregators);
  prof.async_path = s.path;
  prof.blocked_s = v.total_s;   // a write holds the caller throughout
  for (const PhaseTiming& t : v.threads)
    if (t.name == "blocked") prof.blocked_s = t.max_s;   // an asynchronous step: its calls, slowest rank
  return prof;
}

}   // namespace

// check, agree, plan and the collective phases of the space's write, on the calling thread. An
// error before the exchanges is raised here on every rank (nothing pending then).
std::shared_ptr<PendingGridStep> GridGroup::begin_step(int64_t step, const GridBox& box,
                                                       std::span<const FieldView> views,
                                                       const std::optional<Error>& input_error, bool stream,
                                                       bool defer_stream) {
  DatasetState& st = *ds_;
  const Comm& comm = st.comm;
  auto s = std::make_shared<PendingGridStep>(st, name_, step);
  GridStepWrite& w = s->w;
  w.F = w.g.fields.size();
  for (const auto& f : w.g.fields) w.sample.push_back(dtype_size(f.dtype) * f.components);
  PhaseTimes& times = s->op.times();
  const std::vector<GridRecord> all = s->op.agree<GridRecord>(input_error, [&] {
    const GridRecord r = check(w, box, views);
    times.lap(kGridCheck);
    return r;
  });
  times.lap(kGridAgree);
  plan(w, all);   // raises the same error on every rank
  // Every rank sees the same `parts`, so every rank splits (a collective) or none does.
  if (w.g.partitions > 1 && w.parts != part_of_rank_) {
    part_comm_ = std::make_shared<Comm>(comm.split(static_cast<int>(w.parts[comm.rank()])));
    part_of_rank_ = w.parts;
  }
  const int levels = w.hz->maxh() + 1;
  s->t = space_target(w, part_comm_.get(), s->space_mine);
  if (!scratch_) scratch_ = std::make_shared<GridScratch>();
  s->scratch = scratch_;
  SpaceOutcome& out = s->out;
  out.encode_s.assign(levels, 0.0);
  out.write_s.assign(levels, 0.0);
  out.level_blocks.assign(levels, 0);
  out.level_bytes.assign(levels, 0);
  const bool split = w.g.split_into_parts();
  if (!split || !part_box(w.g, *w.hz, w.k, w.parts[comm.rank()]).empty())
    s->files = prepare_space(split ? *part_comm_ : comm, s->t, s->space_mine, w.sample, *s->scratch, s->op, out, stream,
                             defer_stream);
  return s;   // the caller's arrays are not read after this: their samples are in the unit buffers
}

void GridGroup::write(int64_t step, const GridBox& box, std::span<const FieldView> views,
                      const std::optional<Error>& input_error) {
  wait_pending();
  auto s = begin_step(step, box, views, input_error, true);   // raw blocks streamed to their files
  if (s->files) write_space_files(*s->files, s->op);
  profile_ = commit_step(*s, meta().split_into_parts() ? std::string() : idx_path());
}

void GridGroup::write_async(int64_t step, const GridBox& box, std::span<const FieldView> views,
                            const std::optional<Error>& input_error) {
  wait_pending();   // one step in flight: the next one reuses its buffers
  const uint64_t bytes = input_error ? 0 : view_bytes(views);
  if (!make_room(*ds_, bytes)) {   // larger than the budget by itself: written within the call
    write(step, box, views, input_error);
    return;
  }
  const double t0 = wall_seconds();   // the waits above count in the completed steps' blocked_s
  // A grid without partitions is gathered on the helper when MPI allows it (raw blocks streamed
  // with their writes, zipped ones aggregated and compressed): the same decision on every rank
  // (the option is agreed on, the grid's settings are the manifest's).
  const GridMeta& g = meta();
  const bool on_helper = ds_->helper_mpi && g.partitions <= 1;
  if (on_helper && !helper_comm_)   // collective: every rank makes it at the same step
    helper_comm_ = std::make_shared<Comm>(ds_->comm.duplicate());
  auto s = begin_step(step, box, views, input_error, on_helper, on_helper);   // files written on the helper
  s->path = on_helper ? "helper-mpi" : "caller-aggregates";
  PendingGridStep* raw = s.get();
  if (s->files && on_helper) {
    s->helper_comm = helper_comm_;
    s->helper = std::thread([raw] {
      raw->op.run_locally([&] {   // its errors are the step's, raised at the commit on every rank
        gather_space_files(*raw->files, *raw->helper_comm, raw->op);
      });
      write_space_files(*raw->files, raw->op);   // the streamed units are written: its phase only
      raw->written.store(true, std::memory_order_release);
    });
  } else if (s->files) {
    s->helper = std::thread([raw] {
      write_space_files(*raw->files, raw->op);   // records its errors in the step's operation
      raw->written.store(true, std::memory_order_release);
    });
  } else {
    s->written.store(true, std::memory_order_release);
  }
  s->blocked_s = wall_seconds() - t0;
  pending_ = std::move(s);
  ds_->pending.add(this, bytes, [this] { wait_pending(); });
}

void GridGroup::wait_pending() {
  if (!pending_) return;
  std::shared_ptr<PendingGridStep> s = std::move(pending_);
  ds_->pending.remove(this);
  const double t0 = wall_seconds();
  if (s->helper.joinable()) s->helper.join();
  s->op.add_thread_time("blocked", s->blocked_s + wall_seconds() - t0);   // reduced over ranks with the rest
  profile_ =
      commit_step(*s, meta().split_into_parts() ? std::string() : idx_path());   // the step's error, on every rank
}

bool GridGroup::pending_done() const { return !pending_ || pending_->written.load(std::memory_order_acquire); }

int64_t GridGroup::pending_step() const { return pending_ ? pending_->w.step : -1; }

void remove_uncommitted_grid_steps(const GridMeta& g, const std::string& root) {
  const std::string prefix = std::string(kTimePattern).substr(0, std::string(kTimePattern).find('%'));
  for (const std::string& parent : step_parents(g, root))
    for (const std::string& name : list_directory(parent)) {
      if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
      const std::string digits = name.substr(prefix.size());
      if (digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
      if (!g.find_step(std::stoll(digits))) remove_tree(join_path(parent, name));
    }
}

void truncate_grid_files(const GridMeta& g, const std::string& root, int64_t after, bool fsync) {
  if (!g.steps.empty()) {
    write_headers(g, root, join_path(root, g.idx_name()), fsync);
  } else if (g.split_into_parts()) {   // no step left: no header claims one
    for (uint32_t q = 0; q < g.partitions; ++q) remove_tree(join_path(join_path(root, g.name), part_name(q) + ".idx"));
  } else {
    remove_tree(join_path(root, g.idx_name()));
  }
  const std::string prefix = std::string(kTimePattern).substr(0, std::string(kTimePattern).find('%'));
  for (const std::string& parent : step_parents(g, root)) remove_steps_after(parent, prefix, "", after);
}

}   // namespace lodex
