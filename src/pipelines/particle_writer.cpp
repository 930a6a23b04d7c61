// The spatially aware two-phase particle write (paper §3): validate, plan, count exchange,
// particle exchange, level-of-detail reorder, one file per partition, spatial metadata, commit.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/checksum.hpp"
#include "format/particle_file.hpp"
#include "layout/rng.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/particle_exchange.hpp"

namespace lodex {

namespace {

constexpr uint64_t kMaxMetadataBytes = uint64_t{1} << 30;

enum Phase { kPlan, kCountExchange, kParticleExchange, kReorder, kFileWrite, kMetadata, kNumPhases };
const char* kPhaseNames[kNumPhases] = {"plan", "count_exchange", "particle_exchange",
                                       "reorder", "file_write", "metadata"};

class PhaseClock {
 public:
  PhaseClock() : last_(now()) {}
  void lap(Phase p) {
    const double t = now();
    seconds[p] += t - last_;
    last_ = t;
  }
  double seconds[kNumPhases] = {};

 private:
  static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  double last_;
};

// Rank summary exchanged by every rank before planning.
struct RankRecord {
  double box[6];
  uint64_t count;
  uint64_t patch_given;
};

template <typename T>
void position_bounds(const T* p, uint64_t n, const Box& domain, const std::optional<Box>& patch,
                     Box& bounds) {
  bounds = Box::nothing();
  for (uint64_t i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) {
      const double v = static_cast<double>(p[3 * i + a]);
      if (!std::isfinite(v))
        fail(ErrorCode::kInvalidArgument, "field 'position' row ", i, " component ", a, " is ",
             v, "; positions must be finite");
      bounds.inclusive_min[a] = std::min(bounds.inclusive_min[a], v);
      bounds.exclusive_max[a] = std::max(bounds.exclusive_max[a], v);
    }
    const Vec3 q{static_cast<double>(p[3 * i]), static_cast<double>(p[3 * i + 1]),
                 static_cast<double>(p[3 * i + 2])};
    if (!domain.contains(q))
      fail(ErrorCode::kInvalidArgument, "particle ", i, " at (", q[0], ", ", q[1], ", ", q[2],
           ") is outside the domain ", to_string(domain));
    if (patch && !patch->contains(q))
      fail(ErrorCode::kInvalidArgument, "particle ", i, " at (", q[0], ", ", q[1], ", ", q[2],
           ") is outside this rank's patch ", to_string(*patch));
  }
}

// Per-component min/max of a column, widened to double and rounded outward so pruning by them
// never drops a value (integers above 2^53 do not all fit a double).
template <typename T>
void column_minmax(const T* v, uint64_t n, uint32_t comps, double* mn, double* mx) {
  // One pass over the rows, all components at once; NaN values are skipped (a field may hold
  // NaN, positions may not). A component with no non-NaN value gets NaN bounds.
  std::vector<T> lo(comps, std::numeric_limits<T>::max()), hi(comps, std::numeric_limits<T>::lowest());
  std::vector<uint8_t> seen(comps, 0);
  for (uint64_t i = 0; i < n; ++i) {
    const T* row = v + i * comps;
    for (uint32_t c = 0; c < comps; ++c) {
      const T x = row[c];
      if constexpr (std::is_floating_point_v<T>) {
        if (x != x) continue;
      }
      lo[c] = x < lo[c] ? x : lo[c];
      hi[c] = x > hi[c] ? x : hi[c];
      seen[c] = 1;
    }
  }
  for (uint32_t c = 0; c < comps; ++c) {
    double dlo = static_cast<double>(lo[c]), dhi = static_cast<double>(hi[c]);
    if constexpr (std::is_integral_v<T> && sizeof(T) == 8) {
      // Integers beyond 2^53 round to the nearest double: widen by one ulp both ways.
      if (std::abs(dlo) >= 9007199254740992.0) dlo = std::nextafter(dlo, -INFINITY);
      if (std::abs(dhi) >= 9007199254740992.0) dhi = std::nextafter(dhi, INFINITY);
    }
    if (!seen[c]) dlo = dhi = std::numeric_limits<double>::quiet_NaN();
    mn[c] = dlo;
    mx[c] = dhi;
  }
}

void field_minmax(const FieldSpec& f, const uint8_t* data, uint64_t n, double* mn, double* mx) {
  switch (f.dtype) {
    case DType::kF4: return column_minmax(reinterpret_cast<const float*>(data), n, f.components, mn, mx);
    case DType::kF8: return column_minmax(reinterpret_cast<const double*>(data), n, f.components, mn, mx);
    case DType::kI1: return column_minmax(reinterpret_cast<const int8_t*>(data), n, f.components, mn, mx);
    case DType::kU1: return column_minmax(reinterpret_cast<const uint8_t*>(data), n, f.components, mn, mx);
    case DType::kI2: return column_minmax(reinterpret_cast<const int16_t*>(data), n, f.components, mn, mx);
    case DType::kU2: return column_minmax(reinterpret_cast<const uint16_t*>(data), n, f.components, mn, mx);
    case DType::kI4: return column_minmax(reinterpret_cast<const int32_t*>(data), n, f.components, mn, mx);
    case DType::kU4: return column_minmax(reinterpret_cast<const uint32_t*>(data), n, f.components, mn, mx);
    case DType::kI8: return column_minmax(reinterpret_cast<const int64_t*>(data), n, f.components, mn, mx);
    case DType::kU8: return column_minmax(reinterpret_cast<const uint64_t*>(data), n, f.components, mn, mx);
  }
}

uint64_t file_seed(uint64_t group_seed, int64_t step, uint32_t partition) {
  uint64_t s = group_seed ^ (static_cast<uint64_t>(step) * 0x9e3779b97f4a7c15ULL) ^
               (uint64_t{partition} << 32 | partition);
  return splitmix64(s);
}

struct Buffer {   // uninitialized byte buffer (a 30 MiB memset is not free)
  std::unique_ptr<uint8_t[]> data;
  size_t size = 0;
  void resize(size_t n) {
    data.reset(new uint8_t[n]);
    size = n;
  }
};

}  // namespace

std::string WriteProfile::to_json() const {
  std::string s = cat("{\"step\": ", step, ", \"ranks\": ", ranks, ", \"aggregators\": ", aggregators,
                      ", \"files\": ", files, ", \"particles\": ", particles, ", \"bytes\": ", bytes,
                      ", \"aligned\": ", aligned ? "true" : "false", ", \"fsync\": ", fsync ? "true" : "false",
                      ", \"total_s\": ", total_s, ", \"phases\": {");
  for (size_t i = 0; i < phases.size(); ++i)
    s += cat(i ? ", " : "", "\"", phases[i].name, "\": {\"min_s\": ", phases[i].min_s, ", \"mean_s\": ",
             phases[i].mean_s, ", \"max_s\": ", phases[i].max_s, "}");
  return s + "}}";
}

void ParticleGroup::abort_write(const Error& error) {
  // Matches the first collective of write(): the ranks inside write() raise this error too.
  ds_->comm.agree([&] { throw error; });
}

void ParticleGroup::write(int64_t step, std::span<const FieldView> views, std::optional<Box> patch) {
  DatasetState& st = *ds_;
  const Comm& comm = st.comm;
  const int me = comm.rank();
  PhaseClock clock;
  ParticleGroupMeta* group = st.manifest.find_particles(name_);
  const Schema& schema = group->schema;
  const size_t nf = schema.size();

  // ---- validate (local checks, then agreement so every rank raises the same error) ----
  std::vector<const FieldView*> by_field(nf, nullptr);
  uint64_t n = 0;
  Box bounds = Box::nothing();
  comm.agree([&] {
    st.require_writable();
    if (step < 0) fail(ErrorCode::kInvalidArgument, "step ", step, " is negative");
    if (group->find_step(step))
      fail(ErrorCode::kAlreadyExists, "step ", step, " of group '", name_,
           "' is already committed; steps are written once");
    for (const FieldView& v : views) {
      if (!schema.has(v.name))
        fail(ErrorCode::kInvalidArgument, "unknown field '", v.name, "'; the schema is {", schema.describe(), "}");
      const size_t i = schema.index_of(v.name);
      if (by_field[i]) fail(ErrorCode::kInvalidArgument, "field '", v.name, "' is given twice");
      by_field[i] = &v;
    }
    for (size_t i = 0; i < nf; ++i) {
      const FieldSpec& f = schema.field(i);
      if (!by_field[i]) fail(ErrorCode::kInvalidArgument, "missing field '", f.name, "'; the schema is {", schema.describe(), "}");
      const FieldView& v = *by_field[i];
      if (v.dtype != f.dtype)
        fail(ErrorCode::kInvalidArgument, "field '", f.name, "' has dtype ", dtype_name(v.dtype),
             "; the schema says ", dtype_name(f.dtype));
      if (v.components != f.components)
        fail(ErrorCode::kInvalidArgument, "field '", f.name, "' has ", v.components,
             " components per particle; the schema says ", f.components);
      if (v.rows && !v.data) fail(ErrorCode::kInvalidArgument, "field '", f.name, "' has no data");
    }
    n = by_field[0]->rows;
    for (size_t i = 1; i < nf; ++i)
      if (by_field[i]->rows != n)
        fail(ErrorCode::kInvalidArgument, "fields have different lengths: '", schema.field(0).name, "' has ",
             n, " rows, '", schema.field(i).name, "' has ", by_field[i]->rows);
    if (n > UINT32_MAX) fail(ErrorCode::kUnsupported, n, " particles on one rank; at most 2^32-1 per call");
    if (patch) {
      if (!patch->finite() || patch->empty())
        fail(ErrorCode::kInvalidArgument, "patch ", to_string(*patch), " must be finite with min < max");
      if (!group->domain.contains(*patch))
        fail(ErrorCode::kInvalidArgument, "patch ", to_string(*patch), " is not inside the domain ",
             to_string(group->domain));
    }
    const FieldView& pos = *by_field[schema.position_index()];
    if (pos.dtype == DType::kF8)
      position_bounds(static_cast<const double*>(pos.data), n, group->domain, patch, bounds);
    else
      position_bounds(static_cast<const float*>(pos.data), n, group->domain, patch, bounds);
  });
  if (comm.allreduce_i64(step, MPI_MIN) != comm.allreduce_i64(step, MPI_MAX))
    fail(ErrorCode::kInvalidArgument, "ranks disagree on the step number of a collective write");

  // ---- plan ----
  RankRecord mine{};
  Box my_patch = Box::nothing();
  if (patch) {
    my_patch = *patch;
  } else if (n > 0) {
    my_patch = bounds;
    for (int a = 0; a < 3; ++a)
      my_patch.exclusive_max[a] = std::nextafter(bounds.exclusive_max[a], INFINITY);
  } else {
    my_patch = Box{};
  }
  for (int a = 0; a < 3; ++a) {
    mine.box[a] = my_patch.inclusive_min[a];
    mine.box[3 + a] = my_patch.exclusive_max[a];
  }
  mine.count = n;
  mine.patch_given = patch.has_value();
  std::vector<RankRecord> all(comm.size());
  comm.allgather(&mine, sizeof mine, all.data());
  std::vector<RankInput> inputs(comm.size());
  for (int r = 0; r < comm.size(); ++r) {
    for (int a = 0; a < 3; ++a) {
      inputs[r].patch.inclusive_min[a] = all[r].box[a];
      inputs[r].patch.exclusive_max[a] = all[r].box[3 + a];
    }
    inputs[r].count = all[r].count;
    inputs[r].patch_given = all[r].patch_given != 0;
  }
  ParticlePlan plan;
  const std::string step_dir_rel = step_directory_name(name_, step);
  const std::string step_dir = join_path(st.path, step_dir_rel);
  comm.agree([&] {
    plan = plan_particle_write(group->domain, group->partition, inputs);
    if (me == 0) {
      remove_tree(step_dir);   // leftovers of a step that never committed
      make_directories(step_dir);
    }
  });
  clock.lap(kPlan);

  // ---- count exchange (§3.3): senders tell aggregators how many particles follow ----
  const auto sends = plan.sends_of(me);
  Outgoing outgoing;
  outgoing.partitions = sends;
  outgoing.counts.assign(sends.size(), 0);
  std::vector<uint32_t> send_order;         // non-aligned: rows grouped by destination
  std::vector<uint64_t> send_starts(sends.size() + 1, 0);
  if (sends.size() == 1) {
    outgoing.counts[0] = n;
  } else if (sends.size() > 1) {
    const FieldView& pos = *by_field[schema.position_index()];
    std::vector<uint32_t> slot(n);
    for (uint64_t i = 0; i < n; ++i) {
      Vec3 q;
      for (int a = 0; a < 3; ++a)
        q[a] = pos.dtype == DType::kF8 ? static_cast<const double*>(pos.data)[3 * i + a]
                                       : static_cast<const float*>(pos.data)[3 * i + a];
      const uint32_t p = plan.partition_of(q);
      const auto it = std::lower_bound(sends.begin(), sends.end(), p);
      if (it == sends.end() || *it != p)
        fail(ErrorCode::kInternal, "particle ", i, " falls in partition ", p, " outside its patch's partitions");
      slot[i] = static_cast<uint32_t>(it - sends.begin());
      ++outgoing.counts[slot[i]];
    }
    for (size_t s = 0; s < sends.size(); ++s) send_starts[s + 1] = send_starts[s] + outgoing.counts[s];
    send_order.resize(n);
    std::vector<uint64_t> fill(send_starts.begin(), send_starts.end() - 1);
    for (uint64_t i = 0; i < n; ++i) send_order[fill[slot[i]]++] = static_cast<uint32_t>(i);
  }
  std::vector<size_t> row_bytes;
  for (const auto& f : schema.fields()) row_bytes.push_back(f.row_bytes());
  ParticleExchange exchange(comm, plan, row_bytes, st.options.exchange);
  exchange.exchange_counts(outgoing);
  clock.lap(kCountExchange);

  // ---- particle exchange: column by column, straight into the aggregators' columns ----
  std::vector<std::vector<uint8_t>> packed;   // non-aligned: each destination's rows, per field
  if (sends.size() == 1) {
    for (size_t f = 0; f < nf; ++f) outgoing.rows.push_back(static_cast<const uint8_t*>(by_field[f]->data));
  } else if (sends.size() > 1) {
    packed.resize(sends.size() * nf);
    for (size_t s = 0; s < sends.size(); ++s)
      for (size_t f = 0; f < nf; ++f) {
        auto& buf = packed[s * nf + f];
        buf.resize(outgoing.counts[s] * row_bytes[f]);
        gather_rows(by_field[f]->data, buf.data(), row_bytes[f], send_order.data() + send_starts[s],
                    outgoing.counts[s]);
        outgoing.rows.push_back(buf.data());
      }
  }
  exchange.exchange_particles(outgoing);
  clock.lap(kParticleExchange);

  // ---- reorder (§3.4), write one file per partition, describe it ----
  std::vector<DataFileRecord> records;
  uint64_t local_bytes = 0;
  uint32_t comps_total = 0;
  for (const auto& f : schema.fields()) comps_total += f.components;
  auto remove_step_dir = [&] {
    if (me != 0) return;
    try {
      remove_tree(step_dir);
    } catch (const Error&) {   // the original error matters more than a failed cleanup
    }
  };
  try {
  comm.agree([&] {
    std::vector<uint32_t> perm;
    Buffer buffer;
    for (auto& o : exchange.incoming()) {
      if (o.total == 0) continue;
      const Box& pbox = plan.partitions[o.id];
      LodParams lp = group->lod;
      lp.seed = file_seed(group->lod.seed, step, o.id);
      const size_t pi = schema.position_index();
      const LodLayout layout = lod_order(o.columns[pi], schema.field(pi).dtype, o.total, pbox, lp, perm);
      ParticleFileHead head;
      head.num_particles = o.total;
      head.level_scale = lp.scale;
      head.brick_bits = layout.brick_bits;
      head.brick_box = pbox;
      head.seed = lp.seed;
      head.fields = schema.fields();
      head.level_ends = layout.level_ends;
      head.segment_starts = layout.segment_starts;
      assign_column_offsets(head);
      const uint64_t file_bytes = head.file_bytes();
      buffer.resize(file_bytes);
      for (size_t f = 0; f < nf; ++f)
        gather_rows(o.columns[f], buffer.data.get() + head.column_offsets[f],
                    schema.field(f).row_bytes(), perm.data(), o.total);
      clock.lap(kReorder);

      const uint64_t nseg = head.num_segments();
      head.segment_checksums.resize(nf * nseg);
      for (size_t f = 0; f < nf; ++f) {
        const size_t rb = schema.field(f).row_bytes();
        const uint8_t* col = buffer.data.get() + head.column_offsets[f];
        for (uint64_t sidx = 0; sidx < nseg; ++sidx)
          head.segment_checksums[f * nseg + sidx] =
              checksum64(col + head.segment_starts[sidx] * rb,
                         (head.segment_starts[sidx + 1] - head.segment_starts[sidx]) * rb);
      }
      const std::vector<uint8_t> head_bytes = encode_particle_head(head);
      std::memcpy(buffer.data.get(), head_bytes.data(), head_bytes.size());
      // Zero the alignment gaps so files are byte-for-byte reproducible.
      uint64_t at = head_bytes.size();
      for (size_t f = 0; f < nf; ++f) {
        std::memset(buffer.data.get() + at, 0, head.column_offsets[f] - at);
        at = head.column_offsets[f] + head.column_bytes(f);
      }
      char fname[32];
      std::snprintf(fname, sizeof fname, "p%06u.lpd", o.id);
      File file(join_path(step_dir, fname), File::Mode::kCreate);
      file.pwrite_all(buffer.data.get(), file_bytes, 0);
      if (st.options.fsync) file.sync();
      file.close();
      local_bytes += file_bytes;
      clock.lap(kFileWrite);

      DataFileRecord rec;
      rec.file_name = fname;
      rec.partition = o.id;
      rec.aggregator_rank = me;
      rec.partition_box = pbox;
      rec.count = o.total;
      rec.file_bytes = file_bytes;
      rec.head_checksum = checksum64(head_bytes.data(), head_bytes.size());
      rec.min.resize(comps_total);
      rec.max.resize(comps_total);
      uint32_t c0 = 0;
      for (size_t f = 0; f < nf; ++f) {
        field_minmax(schema.field(f), o.columns[f], o.total, rec.min.data() + c0, rec.max.data() + c0);
        if (f == pi)
          for (int a = 0; a < 3; ++a) {
            rec.bounds.inclusive_min[a] = rec.min[c0 + a];
            rec.bounds.exclusive_max[a] = rec.max[c0 + a];
          }
        c0 += schema.field(f).components;
      }
      records.push_back(std::move(rec));
      clock.lap(kMetadata);
    }
  });
  } catch (const Error&) {
    remove_step_dir();
    throw;
  }
  exchange.release();   // collective over the node when the receive region is a shared window
  packed.clear();
  // Ranks that aggregate nothing spend this phase waiting for the aggregators' writes.
  clock.lap(kFileWrite);

  // ---- spatial metadata (§3.5) on rank 0, then the manifest commit ----
  std::vector<uint8_t> mine_bytes;
  for (const auto& r : records) encode_data_file_record(r, comps_total, mine_bytes);
  const std::vector<uint8_t> gathered = comm.gatherv(mine_bytes, 0);
  StepRecord committed;
  comm.agree([&] {
    if (me != 0) return;
    try {
      SpatialMetadata meta;
      meta.step = step;
      meta.num_components = comps_total;
      const size_t rb = data_file_record_bytes(comps_total);
      for (size_t at = 0; at + rb <= gathered.size(); at += rb)
        meta.files.push_back(decode_data_file_record(gathered.data() + at, rb, comps_total, "gathered record"));
      std::sort(meta.files.begin(), meta.files.end(),
                [](const DataFileRecord& a, const DataFileRecord& b) { return a.partition < b.partition; });
      const std::vector<uint8_t> mbytes = encode_spatial_metadata(meta);
      if (mbytes.size() > kMaxMetadataBytes) fail(ErrorCode::kUnsupported, "spatial metadata exceeds 1 GiB");
      replace_file(join_path(step_dir, "spatial.lsm"), mbytes, st.options.fsync);
      if (st.options.fsync) sync_directory(step_dir);
      committed.step = step;
      committed.particles = meta.total_particles();
      committed.files = static_cast<uint32_t>(meta.files.size());
      committed.bytes = mbytes.size();
      for (const auto& f : meta.files) committed.bytes += f.file_bytes;
      committed.directory = step_dir_rel;
      committed.metadata_checksum = checksum64(mbytes.data(), mbytes.size());
      committed.writer_ranks = static_cast<uint32_t>(comm.size());
      auto& steps = group->steps;
      const auto pos = std::upper_bound(steps.begin(), steps.end(), step,
                                        [](int64_t s, const StepRecord& r) { return s < r.step; });
      const auto inserted = steps.insert(pos, committed);
      try {
        st.write_manifest();
      } catch (...) {
        steps.erase(inserted);
        throw;
      }
    } catch (...) {
      remove_step_dir();
      throw;
    }
  });
  // Rank 0 committed: the others learn the step record.
  {
    uint64_t fixed[6] = {committed.particles, committed.files, committed.bytes, committed.metadata_checksum,
                         committed.writer_ranks, 0};
    comm.bcast(fixed, sizeof fixed, 0);
    if (me != 0) {
      committed.step = step;
      committed.particles = fixed[0];
      committed.files = static_cast<uint32_t>(fixed[1]);
      committed.bytes = fixed[2];
      committed.metadata_checksum = fixed[3];
      committed.writer_ranks = static_cast<uint32_t>(fixed[4]);
      committed.directory = step_dir_rel;
      auto& steps = group->steps;
      steps.insert(std::upper_bound(steps.begin(), steps.end(), step,
                                    [](int64_t s, const StepRecord& r) { return s < r.step; }),
                   committed);
    }
  }
  clock.lap(kMetadata);

  // ---- profile: reduce phase times over ranks ----
  double mn[kNumPhases + 1], mx[kNumPhases + 1], sum[kNumPhases + 1];
  double total = 0;
  for (int p = 0; p < kNumPhases; ++p) total += clock.seconds[p];
  for (int p = 0; p < kNumPhases; ++p) mn[p] = mx[p] = sum[p] = clock.seconds[p];
  mn[kNumPhases] = mx[kNumPhases] = sum[kNumPhases] = total;
  comm.allreduce_doubles(mn, kNumPhases + 1, MPI_MIN);
  comm.allreduce_doubles(mx, kNumPhases + 1, MPI_MAX);
  comm.allreduce_doubles(sum, kNumPhases + 1, MPI_SUM);
  profile_ = WriteProfile{};
  profile_.step = step;
  profile_.ranks = comm.size();
  profile_.aggregators = plan.num_aggregators();
  profile_.files = committed.files;
  profile_.particles = committed.particles;
  profile_.bytes = committed.bytes;
  profile_.aligned = plan.aligned;
  profile_.fsync = st.options.fsync;
  profile_.total_s = mx[kNumPhases];
  for (int p = 0; p < kNumPhases; ++p)
    profile_.phases.push_back({kPhaseNames[p], mn[p], sum[p] / comm.size(), mx[p]});
  (void)local_bytes;
}

}  // namespace lodex
