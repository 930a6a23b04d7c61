#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

#include "core/checksum.hpp"
#include "layout/hz.hpp"
#include "pipelines/grids/grid_group.hpp"
#include "pipelines/series/series_group.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/same_arguments.hpp"

namespace lodex {

bool make_room(DatasetState& st, uint64_t bytes) {
  if (!st.options.max_pending_bytes) return true;
  const uint64_t limit = *st.options.max_pending_bytes;
  const std::vector<uint64_t> sizes = st.pending.sizes();
  std::vector<uint64_t> need{steps_to_complete(sizes, bytes, limit), bytes > limit ? 1u : 0u};
  st.comm.allreduce_u64(need, MPI_MAX);   // the same steps complete on every rank
  for (uint64_t k = 0; k < need[0] && !st.pending.entries.empty(); ++k) {
    const std::function<void()> complete = st.pending.entries.front().complete;
    complete();   // removes the entry; raises the step's error on every rank
  }
  return need[1] == 0;
}

void choose_async_path(DatasetState& st) {
  bool allowed = true;
  st.comm.agree([&] {
    const char* env = std::getenv("LODEX_ASYNC_PATH");
    const std::string want = env ? env : "";
    if (!want.empty() && want != "helper-mpi" && want != "caller-aggregates")
      fail(ErrorCode::kInvalidArgument, "LODEX_ASYNC_PATH must be helper-mpi or caller-aggregates, got \"", want, "\"");
    allowed = want != "caller-aggregates";
  });
  const uint64_t mine = allowed && (!st.comm.is_mpi() || mpi_thread_multiple()) ? 1 : 0;
  st.helper_mpi = st.comm.allreduce_u64(mine, MPI_MIN) == 1;   // serial: no MPI call
}

namespace {
constexpr uint64_t kMaxManifestBytes = uint64_t{256} << 20;
}

std::string version() { return "0.1.0"; }

void replace_file(const std::string& path, std::span<const uint8_t> bytes, bool durable) {
  if (durable) {
    atomic_replace(path, bytes.data(), bytes.size());
    return;
  }
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  try {
    File f(tmp, File::Mode::kCreate);
    f.pwrite_all(bytes.data(), bytes.size(), 0);
    f.close();
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  try {
    rename_file(tmp, path);
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
}

const char* write_path_name(WritePath path) {
  switch (path) {
    case WritePath::kNode: return "node";
    case WritePath::kSharedMemory: return "shm";
    case WritePath::kPointToPoint: break;
  }
  return "p2p";
}

std::string step_directory_name(const std::string& group, int64_t step) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "step-%09lld", static_cast<long long>(step));
  return group + "/" + buf;
}

void remove_steps_after(const std::string& dir, std::string_view prefix, std::string_view suffix, int64_t after) {
  for (const std::string& name : list_directory(dir)) {
    if (name.size() <= prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    if (std::stoll(digits) > after) remove_tree(join_path(dir, name));
  }
}

namespace {

// The holder of the dataset's lock now, for a conflict's message.
std::string lock_now(const std::string& path) {
  try {
    const std::optional<LockHolder> h = read_lock_holder(path);
    return h ? cat("; its writer lock is now held by ", h->describe()) : std::string("; no writer lock is held now");
  } catch (const Error&) {
    return std::string();
  }
}

// Raises AlreadyExists if manifest.json is not the one this writer last read or wrote.
void require_unchanged(const DatasetState& st) {
  const std::string mp = st.manifest_path();
  std::optional<uint64_t> now;
  if (path_exists(mp)) {
    const auto bytes = st.confinement.read_whole(mp, kMaxManifestBytes);
    now = checksum64(bytes.data(), bytes.size());
  }
  if (now == st.manifest_seen) return;
  fail(ErrorCode::kAlreadyExists, "commit conflict in dataset '", st.path, "': ", kManifestName,
       now ? " was replaced by another writer" : " was removed",
       " since this writer read it (another process wrote to ", "the dataset without holding its writer lock ",
       kWriterLockName, ")", lock_now(st.path),
       "; nothing of this change was committed and the other writer's steps are kept; reopen the dataset to append");
}

}  // namespace

void DatasetState::write_manifest() const {
  encode_manifest(manifest, manifest_text);
  const CommitGuard guard(path);   // commits of writers that bypassed the lock go one at a time
  require_unchanged(*this);
  replace_file(manifest_path(), bytes_of(manifest_text), options.fsync);
  manifest_seen = checksum64(manifest_text.data(), manifest_text.size());
}

void DatasetState::require_open() const {
  if (closed) fail(ErrorCode::kInvalidArgument, "dataset '", path, "' is closed");
}

void DatasetState::require_writable() const {
  require_open();
  if (!writable)
    fail(ErrorCode::kInvalidArgument, "dataset '", path,
         "' is open for reading; open it with mode=\"a\" to append steps");
}

namespace {

// The path as every rank would find it (relative paths are taken from each rank's folder).
std::string absolute_text(const std::string& path) {
  std::error_code ec;
  const auto p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

std::string options_text(const DatasetOptions& o) {
  // The budget too: make_room is collective only when one is set, so every rank must have it.
  return cat("fsync=", o.fsync, " allow_outside=", o.allow_outside, " exchange=", static_cast<int>(o.exchange),
             " max_pending_bytes=", o.max_pending_bytes ? std::to_string(*o.max_pending_bytes) : "none");
}

}  // namespace

std::shared_ptr<Dataset> Dataset::create(const std::string& path, MPI_Comm comm, DatasetOptions options) {
  auto ds = std::shared_ptr<Dataset>(new Dataset());
  ds->state_ = std::make_shared<DatasetState>();
  DatasetState& st = *ds->state_;
  if (comm != MPI_COMM_NULL) st.comm = Comm(comm);
  require_same_arguments(st.comm, "create", {{"path", absolute_text(path)}, {"options", options_text(options)}});
  st.path = path;
  st.writable = true;
  st.options = options;
  choose_async_path(st);
  st.manifest.created_by = "lodex " + version();
  st.comm.agree([&] {
    if (path.empty()) fail(ErrorCode::kInvalidArgument, "dataset path is empty");
    if (st.comm.rank() != 0) return;
    if (path_exists(path)) fail(ErrorCode::kAlreadyExists, "dataset '", path, "' already exists");
    make_directory(path);
    try {
      st.lock = WriterLock::acquire(path, version());
      st.write_manifest();
    } catch (...) {
      st.lock.reset();
      remove_tree(path);
      throw;
    }
  });
  st.confinement = Confinement(path, options.allow_outside);   // resolved now that it exists
  return ds;
}

namespace {

// The temporary files of atomic replaces at the dataset's root ("<file>.tmp-<pid>") whose writer
// is gone: a writer killed between writing and renaming leaves one. Only a process of this host
// can own them (rank 0 of the writing job writes every one), and a live process is left alone.
void remove_stale_temporaries(const std::string& dir) {
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    const size_t at = name.rfind(".tmp-");
    if (at == std::string::npos || at + 5 >= name.size()) continue;
    const std::string pid_text = name.substr(at + 5);
    if (pid_text.find_first_not_of("0123456789") != std::string::npos || pid_text.size() > 9) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(pid_text));
    if (pid <= 0 || pid == ::getpid()) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;   // alive (or not ours to judge)
    std::error_code rm;
    if (e.is_regular_file(rm)) std::filesystem::remove(e.path(), rm);
  }
}

// What failed or killed writes left, now that the lock keeps every other writer out: the step
// folders of grid steps the manifest does not list (a particle step's folder is replaced when the
// step is written again, a series window's temporary when its window is).
void remove_leftovers(const DatasetState& st) {
  for (const GridMeta& g : st.manifest.grids) remove_uncommitted_grid_steps(g, st.path);
}

}  // namespace

std::shared_ptr<Dataset> Dataset::open(const std::string& path, OpenMode mode, MPI_Comm comm, DatasetOptions options) {
  auto ds = std::shared_ptr<Dataset>(new Dataset());
  ds->state_ = std::make_shared<DatasetState>();
  DatasetState& st = *ds->state_;
  if (comm != MPI_COMM_NULL) st.comm = Comm(comm);
  require_same_arguments(st.comm, "open",
                         {{"path", absolute_text(path)},
                          {"mode", mode == OpenMode::kAppend ? "append" : "read"},
                          {"options", options_text(options)}});
  st.path = path;
  st.writable = mode == OpenMode::kAppend;
  st.options = options;
  if (st.writable) choose_async_path(st);
  st.confinement = Confinement(path, options.allow_outside);
  std::string text;
  st.comm.agree([&] {
    if (st.comm.rank() != 0) return;
    if (!is_directory(path)) fail(ErrorCode::kNotFound, "no lodex dataset at '", path, "'");
    const std::string mp = st.manifest_path();
    if (!path_exists(mp))
      fail(ErrorCode::kFormat, "'", path, "' is not a lodex dataset: ", kManifestName, " is missing");
    if (mode == OpenMode::kAppend) st.lock = WriterLock::acquire(path, version());   // before the manifest is read
    const auto bytes = st.confinement.read_whole(mp, kMaxManifestBytes);
    text.assign(bytes.begin(), bytes.end());
    st.manifest_seen = checksum64(bytes.data(), bytes.size());
    if (mode == OpenMode::kAppend) remove_stale_temporaries(path);
  });
  st.comm.bcast_string(text, 0);
  st.comm.agree([&] {
    st.manifest = decode_manifest(text, st.manifest_path());
    if (mode == OpenMode::kAppend && st.comm.rank() == 0) remove_leftovers(st);
  });
  for (const auto& g : st.manifest.particle_groups) ds->groups_.emplace_back(new ParticleGroup(ds->state_, g.name));
  for (const auto& g : st.manifest.grids) ds->grids_.emplace_back(new GridGroup(ds->state_, g.name));
  for (const auto& s : st.manifest.series) ds->series_.emplace_back(new SeriesGroup(ds->state_, s.name));
  return ds;
}

namespace {

// Levenshtein distance, for "did you mean" (names are short).
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

void check_domain(const ParticleDomain& d) {
  if (d.automatic) {
    if (d.periodic[0] || d.periodic[1] || d.periodic[2])
      fail(ErrorCode::kInvalidArgument, "a periodic axis needs a fixed domain (its period); domain \"auto\" has none");
    return;
  }
  if (d.box.empty() || !d.box.finite())
    fail(ErrorCode::kInvalidArgument, "domain ", to_string(d.box), " must be finite with min < max on every axis");
}

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

}  // namespace

void Dataset::fail_not_found(const char* kind, const std::string& name) const {
  const std::vector<std::string> particles = particle_group_names(), grids = grid_names(), series = series_names();
  std::string guess;
  size_t best = std::max<size_t>(2, name.size() / 3) + 1;
  for (const auto* list : {&particles, &grids, &series})
    for (const auto& n : *list)
      if (const size_t d = edit_distance(name, n); d < best) best = d, guess = n;
  const char* guess_kind = state_->manifest.kind_of(guess);
  fail(ErrorCode::kNotFound, "no ", kind, " '", name, "' in '", state_->path, "' (particle groups: ", listed(particles),
       "; grids: ", listed(grids), "; series: ", listed(series), ")",
       guess.empty() ? std::string() : cat("; did you mean the ", guess_kind ? guess_kind : "name", " '", guess, "'?"));
}

ParticleGroup& Dataset::particles(const std::string& name) {
  state_->require_open();
  for (auto& g : groups_)
    if (g->name() == name) return *g;
  fail_not_found("particle group", name);
}

GridGroup& Dataset::grid(const std::string& name) {
  state_->require_open();
  for (auto& g : grids_)
    if (g->name() == name) return *g;
  fail_not_found("grid", name);
}

SeriesGroup& Dataset::series(const std::string& name) {
  state_->require_open();
  for (auto& s : series_)
    if (s->name() == name) return *s;
  fail_not_found("series", name);
}

namespace {

// ---- one definition path: particle groups, grids and series ----

// What differs between the kinds: the manifest's list, its lookup, and how a definition asked
// again compares with the recorded one.
template <typename Meta>
struct DefinitionKind;
template <>
struct DefinitionKind<ParticleGroupMeta> {
  static constexpr const char* kName = "particle group";
  static std::vector<ParticleGroupMeta>& entries(Manifest& m) { return m.particle_groups; }
  static const ParticleGroupMeta* find(const Manifest& m, const std::string& n) { return m.find_particles(n); }
  static void like(const ParticleGroupMeta&, ParticleGroupMeta&) {}
};
template <>
struct DefinitionKind<GridMeta> {
  static constexpr const char* kName = "grid";
  static std::vector<GridMeta>& entries(Manifest& m) { return m.grids; }
  static const GridMeta* find(const Manifest& m, const std::string& n) { return m.find_grid(n); }
  // A bitmask left to lodex matches the one lodex derived (its text is recorded at each write).
  static void like(const GridMeta& existing, GridMeta& asked) {
    if (asked.bitmask_derived && existing.bitmask_derived) asked.bitmask = existing.bitmask;
  }
};
template <>
struct DefinitionKind<SeriesMeta> {
  static constexpr const char* kName = "series";
  static std::vector<SeriesMeta>& entries(Manifest& m) { return m.series; }
  static const SeriesMeta* find(const Manifest& m, const std::string& n) { return m.find_series(n); }
  static void like(const SeriesMeta&, SeriesMeta&) {}
};

template <typename Meta>
Manifest probe_of(const Meta& def) {
  Manifest probe;
  DefinitionKind<Meta>::entries(probe).push_back(def);
  return probe;
}

// Collective, the same for every kind: the kind's checks of `def` (which may complete it),
// agreed with a binding's input error; every rank's definition the same; then either the
// recorded definition equals it (each difference named otherwise) or rank 0 adds it to the
// manifest (taken back if the write fails) and every rank lists it. Returns whether it is new.
template <typename Meta, typename Check>
bool define_group(DatasetState& st, Meta& def, const std::optional<Error>& input_error, Check&& check) {
  using Kind = DefinitionKind<Meta>;
  const std::string& name = def.name;
  st.comm.agree(input_error, [&] {
    check_group_name(name);
    if (const char* kind = st.manifest.kind_of(name); kind && std::string(kind) != Kind::kName)
      fail(ErrorCode::kAlreadyExists, "'", name, "' is a ", kind, ", not a ", Kind::kName);
    check(def);
  });
  const std::string text = encode_manifest(probe_of(def));
  if (!st.comm.same_everywhere(checksum64(text.data(), text.size())))
    fail(ErrorCode::kInvalidArgument, "ranks define ", Kind::kName, " '", name, "' differently");
  if (const Meta* existing = Kind::find(st.manifest, name)) {
    st.comm.agree([&] {
      Meta asked = def;
      Kind::like(*existing, asked);
      std::string with;
      for (const std::string& d : definition_differences(probe_of(*existing), probe_of(asked)))
        with += cat(with.empty() ? " exists with " : "; it exists with ", d);
      if (!with.empty())
        fail(ErrorCode::kInvalidArgument, Kind::kName, " '", name, "'", with,
             ": it has another definition; reopen it without one to use it as is");
    });
    return false;
  }
  st.comm.agree([&] {
    st.require_writable();
    if (st.comm.rank() != 0) return;
    Kind::entries(st.manifest).push_back(def);
    try {
      make_directories(join_path(st.path, name));
      st.write_manifest();
    } catch (...) {
      Kind::entries(st.manifest).pop_back();
      throw;
    }
  });
  if (st.comm.rank() != 0) Kind::entries(st.manifest).push_back(def);
  return true;
}

// ---- each kind's checks ----

void check_particle_definition(const ParticleGroupMeta& def, const ParticleDomain& domain) {
  const LodParams& lod = def.lod;
  const PartitionSpec& partition = def.partition;
  check_domain(domain);
  if (lod.scale < 2 || lod.scale > 1024)
    fail(ErrorCode::kInvalidArgument, "level scale ", lod.scale, " must be 2..1024");
  if (lod.level0_max < 1) fail(ErrorCode::kInvalidArgument, "level0_max must be at least 1");
  for (int a = 0; a < 3; ++a)
    if (partition.dims[a] < 1 || partition.dims[a] > (1u << 20))
      fail(ErrorCode::kInvalidArgument, "partition dims must be 1..2^20, got ", partition.dims[a]);
  if (partition.mode == PartitionMode::kAdaptive && partition.particles_per_file < 1)
    fail(ErrorCode::kInvalidArgument, "adaptive partitions need particles_per_file of at least 1, got ",
         partition.particles_per_file);
}

void check_grid_definition(GridMeta& def, const GridSpec& spec) {
  if (spec.ndims < 1 || spec.ndims > 3)
    fail(ErrorCode::kInvalidArgument, "a grid has 1, 2 or 3 axes, not ", spec.ndims);
  for (int a = 0; a < 3; ++a) {
    if (a < spec.ndims && (spec.dims[a] < 1 || spec.dims[a] > (uint64_t{1} << 40)))
      fail(ErrorCode::kInvalidArgument, "grid dimension ", "xyz"[a], " is ", spec.dims[a], "; it must be 1..2^40");
    if (a >= spec.ndims && spec.dims[a] != 1)
      fail(ErrorCode::kInvalidArgument, "a ", spec.ndims, "-D grid has no extent on axis ", "xyz"[a]);
  }
  if (spec.fields.empty()) fail(ErrorCode::kInvalidArgument, "a grid needs at least one field");
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const FieldSpec& f = spec.fields[i];
    if (f.name.empty() || f.name.find_first_of(" +\n\t") != std::string::npos)
      fail(ErrorCode::kInvalidArgument, "grid field name '", f.name, "' must be non-empty without spaces or '+'");
    if (f.components < 1 || f.components > kMaxComponents)
      fail(ErrorCode::kInvalidArgument, "field '", f.name, "' has ", f.components, " components (1..", kMaxComponents,
           ")");
    for (size_t j = 0; j < i; ++j)
      if (spec.fields[j].name == f.name) fail(ErrorCode::kInvalidArgument, "field '", f.name, "' is named twice");
  }
  const HzIndex index(spec.bitmask.empty() ? HzIndex::default_bitmask(spec.dims, spec.ndims) : spec.bitmask);
  if (!spec.bitmask.empty()) index.require_fits(spec.dims, spec.ndims);
  const int bits = index.maxh();
  def.bits_per_block = spec.bits_per_block == 0 ? std::min(15, bits) : spec.bits_per_block;
  if (def.bits_per_block < 1 || def.bits_per_block > std::min(bits, 31))
    fail(ErrorCode::kInvalidArgument, "bits_per_block ", spec.bits_per_block, " is larger than the grid: its ",
         "index has ", bits, " bits, so blocks have 1..", std::min(bits, 31), " bits");
  if (spec.blocks_per_file < 1) fail(ErrorCode::kInvalidArgument, "blocks_per_file must be at least 1");
  parse_grid_aggregation(spec.aggregation);
  grid_partition_bits(spec.partitions, index);
  if (spec.index_space != "global" && spec.index_space != "local")
    fail(ErrorCode::kInvalidArgument, "index_space must be 'global' or 'local', got '", spec.index_space, "'");
}

void check_series_definition(const SeriesSpec& spec) {
  for (int a = 0; a < 3; ++a)
    if (spec.dims[a] < 1 || spec.dims[a] > (int64_t{1} << 31))
      fail(ErrorCode::kInvalidArgument, "series dimension ", "xyz"[a], " is ", spec.dims[a], "; it must be 1..2^31");
  if (spec.variables.empty()) fail(ErrorCode::kInvalidArgument, "a series needs at least one variable");
  if (spec.variables.size() > 65536) fail(ErrorCode::kInvalidArgument, "a series has at most 65536 variables");
  for (size_t i = 0; i < spec.variables.size(); ++i) {
    const SeriesVariable& v = spec.variables[i];
    if (v.name.empty() || v.name.size() > 255 || v.name.find_first_of(" \n\t/") != std::string::npos)
      fail(ErrorCode::kInvalidArgument, "variable name '", v.name, "' must have 1-255 characters, no spaces or '/'");
    if (v.ndim != 2 && v.ndim != 3)
      fail(ErrorCode::kInvalidArgument, "variable '", v.name, "' has ", v.ndim,
           " dimensions; series variables have 2 (y, x) or 3 (z, y, x)");
    for (size_t j = 0; j < i; ++j)
      if (spec.variables[j].name == v.name) fail(ErrorCode::kInvalidArgument, "variable '", v.name, "' is named twice");
  }
  const StarSettings& s = spec.settings;
  if (s.memory_budget < 1) fail(ErrorCode::kInvalidArgument, "memory_budget must be at least 1 byte");
  if (s.d_tar < 0 || s.d_tar > 1024)
    fail(ErrorCode::kInvalidArgument, "d_tar must be 1..1024 (0: chosen), got ", s.d_tar);
  if (s.d_sar < -1 || s.d_sar > 31)
    fail(ErrorCode::kInvalidArgument, "d_sar must be 0..31 (-1: chosen), got ", s.d_sar);
  if (!(s.bw_io > 0) || !(s.cc >= 0) || !(s.ts >= 0) || !(s.cc + s.ts > 0))
    fail(ErrorCode::kInvalidArgument, "bw_io must be positive and cc, ts non-negative (not both 0)");
}

}  // namespace

ParticleGroup& Dataset::particles(const std::string& name, const Schema& schema, const ParticleDomain& domain,
                                  const PartitionSpec& partition, const LodParams& lod,
                                  const std::optional<Error>& input_error) {
  DatasetState& st = *state_;
  st.require_open();
  complete_pending();   // collective; a pending step refers to the manifest's groups, which this may grow
  ParticleGroupMeta def;
  def.name = name;
  def.schema = schema;
  def.domain = domain.automatic ? Box{} : domain.box;
  def.auto_domain = domain.automatic;
  def.periodic = domain.periodic;
  def.partition = partition;
  def.lod = lod;
  if (define_group(st, def, input_error, [&](const ParticleGroupMeta& d) { check_particle_definition(d, domain); }))
    groups_.emplace_back(new ParticleGroup(state_, name));
  return particles(name);
}

GridGroup& Dataset::grid(const std::string& name, const GridSpec& spec, const std::optional<Error>& input_error) {
  DatasetState& st = *state_;
  st.require_open();
  complete_pending();   // collective; a pending step refers to the manifest's groups, which this may grow
  GridMeta def;
  def.name = name;
  def.dims = spec.dims;
  def.ndims = spec.ndims;
  def.fields = spec.fields;
  def.bitmask = spec.bitmask;
  def.bitmask_derived = spec.bitmask.empty();
  def.blocks_per_file = spec.blocks_per_file;
  def.aggregation = spec.aggregation;
  def.partitions = spec.partitions;
  def.index_space = spec.index_space;
  def.zip = spec.zip;
  if (define_group(st, def, input_error, [&](GridMeta& d) { check_grid_definition(d, spec); }))
    grids_.emplace_back(new GridGroup(state_, name));
  return grid(name);
}

SeriesGroup& Dataset::series(const std::string& name, const SeriesSpec& spec, const std::optional<Error>& input_error) {
  DatasetState& st = *state_;
  st.require_open();
  complete_pending();   // collective; a pending step refers to the manifest's groups, which this may grow
  SeriesMeta def;
  def.name = name;
  def.dims = spec.dims;
  def.variables = spec.variables;
  def.settings = spec.settings;
  if (define_group(st, def, input_error, [&](const SeriesMeta&) { check_series_definition(spec); }))
    series_.emplace_back(new SeriesGroup(state_, name));
  return series(name);
}

std::vector<std::string> Dataset::series_names() const {
  std::vector<std::string> out;
  for (const auto& s : state_->manifest.series) out.push_back(s.name);
  return out;
}

std::vector<std::string> Dataset::grid_names() const {
  std::vector<std::string> out;
  for (const auto& g : state_->manifest.grids) out.push_back(g.name);
  return out;
}

std::vector<std::string> Dataset::particle_group_names() const {
  std::vector<std::string> out;
  for (const auto& g : state_->manifest.particle_groups) out.push_back(g.name);
  return out;
}

const Manifest& Dataset::manifest() const { return state_->manifest; }
const std::string& Dataset::path() const { return state_->path; }
bool Dataset::writable() const { return state_->writable; }
int Dataset::rank() const { return state_->comm.rank(); }
int Dataset::size() const { return state_->comm.size(); }

void Dataset::close() {
  if (!state_ || state_->closed) return;
  if (state_->writable) {
    complete_pending();   // collective; an error leaves the dataset open
    for (auto& s : series_) s->flush();
  }
  if (state_->writable && state_->comm.is_mpi() && mpi_active()) state_->comm.barrier();
  state_->closed = true;
  state_->lock.reset();   // after the barrier: every rank is done writing
  for (auto& g : groups_) g->discard_buffers();   // a step opened for zero-copy input, never committed
  for (auto& g : groups_)
    for (auto& scratch : g->scratch_)   // in the same order on every rank
      if (state_->comm.is_mpi() && mpi_active()) release_collectively(*scratch);   // node-collective
  for (auto& g : groups_) g->scratch_.clear();   // the write buffers kept between steps
  for (auto& g : grids_) g->scratch_.reset();
}

void Dataset::complete_pending() {
  for (auto& g : groups_) g->wait_pending();
  for (auto& g : grids_) g->wait_pending();
  for (auto& s : series_) s->wait_pending();
}

uint64_t Dataset::pending_bytes() const { return state_ ? state_->pending.held() : 0; }

void Dataset::set_max_pending_bytes(std::optional<uint64_t> bytes) {
  DatasetState& st = *state_;
  st.require_open();
  // The budget makes make_room collective: a rank with another one would wait alone.
  require_same_arguments(st.comm, "set_max_pending_bytes",
                         {{"max_pending_bytes", bytes ? std::to_string(*bytes) : "none"}});
  st.comm.agree([&] {
    if (!st.writable) fail(ErrorCode::kInvalidArgument, "dataset '", st.path, "' is open to read: no writes to bound");
  });
  st.options.max_pending_bytes = bytes;
}

Dataset::~Dataset() {
  if (!state_) return;
  state_->closed = true;
  state_->lock.reset();
}

}   // namespace lodex
