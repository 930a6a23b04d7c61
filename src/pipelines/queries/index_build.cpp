// Bitmap indexes over particle steps (Byna et al. 2012 §II-B; docs/queries.md): the files of a step are
// spread over the ranks (largest first, to the least loaded rank), and each rank's threads pull
// (file, field) tasks from a shared counter; each task bins one field of one data file and writes
// its index file. The value queries that use the indexes are in value_query.cpp.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/bytes.hpp"
#include "core/checksum.hpp"
#include "core/worker_pool.hpp"
#include "format/bitmap_index.hpp"
#include "layout/binning.hpp"
#include "layout/value_query_plan.hpp"
#include "mpi/comm.hpp"
#include "pipelines/collective.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/particles/particle_rows.hpp"
#include "pipelines/queries/index_common.hpp"

namespace lodex {

namespace {

size_t build_threads(const Comm& comm) {
  if (const char* env = std::getenv("LODEX_INDEX_THREADS")) {
    const long n = std::strtol(env, nullptr, 10);
    if (n >= 1) return static_cast<size_t>(n);
  }
  int on_node = 1;
  if (comm.node_raw() != MPI_COMM_NULL) MPI_Comm_size(comm.node_raw(), &on_node);
  const size_t hw = std::max(1u, std::thread::hardware_concurrency());
  return std::max<size_t>(1, hw / static_cast<size_t>(std::max(1, on_node)));
}

struct BuildTimes {
  double read_s = 0, bin_s = 0, encode_s = 0, write_s = 0;
  uint64_t rows = 0, column_bytes = 0, index_bytes = 0;
};

// One index file: field f of one data file.
BuildTimes build_one(const Confinement& confinement, const std::string& dir, const DataFileRecord& rec,
                     const Schema& schema, size_t f, const BinningSpec& binning, bool durable) {
  BuildTimes t;
  const double t0 = wall_seconds();
  IoCount io;
  const DataFile df = open_data_file(confinement, dir, rec, schema, io);
  const FieldSpec& spec = schema.field(f);
  const uint64_t n = df.head.num_particles;
  if (n >= (uint64_t{1} << 32))
    fail(ErrorCode::kUnsupported, "'", df.path, "' has ", n,
         " particles; bitmap indexes cover files of fewer than 2^32");
  std::vector<uint8_t> column(n * spec.row_bytes());
  read_column(df, f, column.data(), io);
  t.read_s = since(t0);
  t.rows = n * spec.components;
  t.column_bytes = column.size();

  std::vector<EncodedComponent> comps(spec.components);
  for (uint32_t c = 0; c < spec.components; ++c) {
    double t1 = wall_seconds();
    const ComponentBins bins = bin_component(column.data(), spec.dtype, spec.components, c, n, binning);
    t.bin_s += since(t1);
    t1 = wall_seconds();
    EncodedComponent& ec = comps[c];
    for (size_t b = 0; b < bins.bins(); ++b) {
      IndexBin e;
      e.vmin = bins.vmin[b];
      e.vmax = bins.vmax[b];
      e.count = bins.start[b + 1] - bins.start[b];
      ec.bins.push_back(e);
      ec.bitmaps.push_back(encode_bin_rows(bins.rows.data() + bins.start[b], e.count));
    }
    ec.nan_rows = bins.nan_rows.size();
    ec.bitmaps.push_back(encode_bin_rows(bins.nan_rows.data(), bins.nan_rows.size()));
    t.encode_s += since(t1);
  }
  double t2 = wall_seconds();
  BitmapIndexHead head;
  head.rows = n;
  head.dtype = spec.dtype;
  head.binning = binning;
  head.data_head_checksum = rec.head_checksum;
  head.field = spec.name;
  const std::vector<uint8_t> bytes = encode_bitmap_index(head, comps);
  t.encode_s += since(t2);
  t2 = wall_seconds();
  replace_file(join_path(dir, index_file_name(rec.file_name, spec.name)), bytes, durable);
  t.write_s = since(t2);
  t.index_bytes = bytes.size();
  return t;
}

}  // namespace

std::string IndexBuildStats::to_json() const {
  nlohmann::json j = {{"steps", steps},
                      {"files", files},
                      {"indexes", indexes},
                      {"rows", rows},
                      {"column_bytes", column_bytes},
                      {"index_bytes", index_bytes},
                      {"seconds", seconds},
                      {"read_s", read_s},
                      {"bin_s", bin_s},
                      {"encode_s", encode_s},
                      {"write_s", write_s}};
  return j.dump();
}

std::vector<StepIndex> ParticleGroup::indexes(int64_t step) const {
  ds_->require_open();
  return step_record(group_meta(*ds_, name_), step).indexes;
}

namespace {

// The checked arguments of a build and the metadata of every step it indexes.
struct IndexBuild {
  IndexSpec spec;
  std::vector<size_t> field_ids;
  std::vector<int64_t> steps;
  std::vector<LoadedMetadata> loaded;   // per step
};

// ---- check (local): the spec, the fields, the steps and their metadata ----
uint64_t check_build(const DatasetState& st, const std::string& name, IndexBuild& b) {
  st.require_writable();
  validate(b.spec.binning);
  const ParticleGroupMeta& g = group_meta(st, name);
  if (b.spec.fields.empty())
    for (const auto& f : g.schema.fields()) b.spec.fields.push_back(f.name);
  check_query_fields(g.schema, b.spec.fields, "index");
  for (const auto& field : b.spec.fields) {
    const size_t id = g.schema.index_of(field);
    if (std::find(b.field_ids.begin(), b.field_ids.end(), id) != b.field_ids.end())
      fail(ErrorCode::kInvalidArgument, "field '", field, "' is listed twice");
    b.field_ids.push_back(id);
  }
  if (b.steps.empty())
    for (const auto& s : g.steps) b.steps.push_back(s.step);
  for (int64_t s : b.steps) b.loaded.push_back(load_metadata(st, name, s));
  // Every rank must build the same thing: the agreement compares this.
  std::string key = cat(static_cast<int>(b.spec.binning.kind), ':', b.spec.binning.param);
  for (size_t id : b.field_ids) key += cat(',', id);
  for (int64_t s : b.steps) key += cat(';', s);
  return checksum64(key.data(), key.size());
}

// ---- commit: the step's record lists the new indexes (rank 0 also writes the manifest) ----
void commit_indexes(DatasetState& st, const std::string& name, int64_t step, const Schema& schema,
                    const std::vector<size_t>& field_ids, const BinningSpec& binning,
                    const std::vector<uint64_t>& bytes, bool write = true) {
  ParticleGroupMeta* g = st.manifest.find_particles(name);
  StepRecord* rec = nullptr;
  for (auto& s : g->steps)
    if (s.step == step) rec = &s;
  if (!rec) fail(ErrorCode::kInternal, "step ", step, " vanished from group '", name, "'");
  const std::vector<StepIndex> before = rec->indexes;
  for (size_t k = 0; k < field_ids.size(); ++k) {
    StepIndex x{schema.field(field_ids[k]).name, binning, bytes[k]};
    auto it =
        std::find_if(rec->indexes.begin(), rec->indexes.end(), [&](const StepIndex& y) { return y.field == x.field; });
    if (it != rec->indexes.end()) *it = x;
    else rec->indexes.push_back(x);
  }
  std::sort(rec->indexes.begin(), rec->indexes.end(),
            [](const StepIndex& a, const StepIndex& b) { return a.field < b.field; });
  if (!write) return;
  try {
    st.write_manifest();
  } catch (...) {
    rec->indexes = before;
    throw;
  }
}

}  // namespace

IndexBuildStats ParticleGroup::build_index(const IndexSpec& spec_in, const std::vector<int64_t>& steps_in,
                                           const std::optional<Error>& input_error) {
  wait_pending();   // a pending step is committed first (collective)
  DatasetState& st = *ds_;
  const Comm& comm = st.comm;
  const double t_start = wall_seconds();
  IndexBuild b;
  b.spec = spec_in;
  b.steps = steps_in;
  CollectiveOp op(comm, {"check", "agree"});
  const std::vector<uint64_t> keys = op.agree<uint64_t>(input_error, [&] { return check_build(st, name_, b); });
  if (std::adjacent_find(keys.begin(), keys.end(), std::not_equal_to<>()) != keys.end())
    fail(ErrorCode::kInvalidArgument, "ranks disagree on the fields, binning or steps of a collective index build");

  IndexBuildStats out;
  const size_t threads = build_threads(comm);
  const Schema& schema = group_meta(st, name_).schema;
  uint64_t row_bytes = 0;
  for (size_t id : b.field_ids) row_bytes += schema.field(id).row_bytes();
  for (size_t k = 0; k < b.steps.size(); ++k) {
    const LoadedMetadata& loaded = b.loaded[k];
    // ---- plan: the step's files shared among the ranks (layout/value_query_plan.hpp) ----
    std::vector<uint64_t> work;
    for (const auto& rec : loaded.meta.files) work.push_back(rec.count * row_bytes);
    struct Task {
      size_t file, slot;   // slot: index into field_ids
    };
    std::vector<Task> tasks;
    const std::vector<std::vector<size_t>> shares = share_files(work, comm.size());
    for (size_t fi : shares[static_cast<size_t>(comm.rank())])
      for (size_t f = 0; f < b.field_ids.size(); ++f) tasks.push_back({fi, f});
    // ---- build ----
    CollectiveOp step_op(comm, {"build", "commit"});
    std::vector<BuildTimes> times(tasks.size());
    // A step whose build or commit fails on any rank leaves none of the index files this rank
    // wrote for fields the step had no index of (the manifest does not list them).
    const std::vector<StepIndex> had = step_record(group_meta(st, name_), b.steps[k]).indexes;
    const auto remove_new_files = [&] {
      for (const Task& t : tasks) {
        const std::string& field = schema.field(b.field_ids[t.slot]).name;
        if (std::any_of(had.begin(), had.end(), [&](const StepIndex& x) { return x.field == field; })) continue;
        std::error_code ec;
        std::filesystem::remove(join_path(loaded.step_dir, index_file_name(loaded.meta.files[t.file].file_name, field)),
                                ec);
      }
    };
    step_op.run_locally([&] {
      try {
        parallel_for(tasks.size(), threads, [&](size_t i, size_t) {
          times[i] = build_one(loaded.confinement, loaded.step_dir, loaded.meta.files[tasks[i].file], schema,
                               b.field_ids[tasks[i].slot], b.spec.binning, st.options.fsync);
        });
      } catch (const std::bad_alloc&) {
        fail(ErrorCode::kIo, "out of memory while building bitmap indexes of step ", b.steps[k]);
      }
    });
    // ---- gather, commit (the step's record lists its new indexes), verdict ----
    BuildTimes mine;
    std::vector<uint64_t> field_bytes(b.field_ids.size(), 0);
    for (size_t i = 0; i < tasks.size(); ++i) {
      field_bytes[tasks[i].slot] += times[i].index_bytes;
      mine.read_s += times[i].read_s;
      mine.bin_s += times[i].bin_s;
      mine.encode_s += times[i].encode_s;
      mine.write_s += times[i].write_s;
      mine.rows += times[i].rows;
      mine.column_bytes += times[i].column_bytes;
      mine.index_bytes += times[i].index_bytes;
    }
    ByteWriter w;
    for (uint64_t v : field_bytes) w.put<uint64_t>(v);
    for (uint64_t v : {mine.rows, mine.column_bytes, mine.index_bytes}) w.put<uint64_t>(v);
    for (double v : {mine.read_s, mine.bin_s, mine.encode_s, mine.write_s}) w.put<double>(v);
    const auto commit = [&](std::span<const RankOutcome> outcomes) {
      std::vector<uint64_t> sums(b.field_ids.size() + 3, 0);
      std::vector<double> maxima(4, 0.0);
      for (const RankOutcome& o : outcomes) {
        ByteReader r(o.payload.data(), o.payload.size(), "index build outcome");
        for (uint64_t& x : sums) x += r.get<uint64_t>("count");
        for (double& x : maxima) x = std::max(x, r.get<double>("seconds"));
      }
      if (st.options.fsync) sync_directory(loaded.step_dir);
      commit_indexes(st, name_, b.steps[k], schema, b.field_ids, b.spec.binning, sums);
      ByteWriter sw;
      for (uint64_t x : sums) sw.put<uint64_t>(x);
      for (double x : maxima) sw.put<double>(x);
      return std::move(sw.bytes());
    };
    Verdict v;
    try {
      v = step_op.finish(std::move(w.bytes()), commit, nullptr);
    } catch (...) {
      remove_new_files();
      throw;
    }
    ByteReader r(v.summary.data(), v.summary.size(), "index build summary");
    std::vector<uint64_t> sums(b.field_ids.size() + 3);
    for (uint64_t& x : sums) x = r.get<uint64_t>("count");
    if (comm.rank() != 0) commit_indexes(st, name_, b.steps[k], schema, b.field_ids, b.spec.binning, sums, false);
    const size_t F = b.field_ids.size();
    out.rows += sums[F];
    out.column_bytes += sums[F + 1];
    out.index_bytes += sums[F + 2];
    out.read_s += r.get<double>("read");   // per step the slowest rank's, summed over steps
    out.bin_s += r.get<double>("bin");
    out.encode_s += r.get<double>("encode");
    out.write_s += r.get<double>("write");
    out.steps += 1;
    out.files += loaded.meta.files.size();
  }
  out.indexes = out.files * b.field_ids.size();
  out.seconds = since(t_start);
  return out;
}

}  // namespace lodex
