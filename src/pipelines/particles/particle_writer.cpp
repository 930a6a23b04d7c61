// The spatially aware two-phase particle write (paper §3): validate, plan, count exchange,
// particle exchange, level-of-detail reorder, one file per partition, spatial metadata, commit.
//
// Synchronization. On success a step costs four collective steps: an allgather of every rank's
// summary that also carries its validation status; the count and particle exchanges (point to
// point, or a node-local shared window); a gather of each rank's outcome (file records, errors,
// phase times) to rank 0; and rank 0's broadcast of the commit result. Any error, on any rank
// and in any phase, reaches every rank through one of these, so no rank is left waiting.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/bytes.hpp"
#include "core/checksum.hpp"
#include "format/particle_file.hpp"
#include "layout/rng.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/particles/partition_file_writer.hpp"
#include "pipelines/particles/particle_exchange.hpp"
#include "pipelines/phase_clock.hpp"

namespace lodex {

struct WriteScratch {
  ScratchBuffer receive;   // the aggregator's receive region (point-to-point exchange)
  ScratchBuffer file;      // one data file, assembled before its single write
  ScratchBuffer send;      // non-aligned sends: each destination's rows, packed per field
  ScratchBuffer slot;      // non-aligned sends: the destination of every row (uint32)
  ScratchBuffer order;     // non-aligned sends: rows grouped by destination (uint32)
};

namespace {

constexpr uint64_t kMaxMetadataBytes = uint64_t{1} << 30;

enum Phase { kPlan, kCountExchange, kParticleExchange, kReorder, kFileWrite, kMetadata, kNumPhases };
const char* kPhaseNames[kNumPhases] = {"plan", "count_exchange", "particle_exchange",
                                       "reorder", "file_write", "metadata"};

// Every rank's summary, exchanged before planning.
struct RankRecord {
  double box[6];
  uint64_t count;
  uint64_t patch_given;
  int64_t step;
  int32_t status;   // ErrorCode of this rank's validation, 0 when it passed
  int32_t reserved;
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

// Adaptive plans: particles per cell of an h^3 grid over `extent` (layout/particle_plan.hpp).
template <typename T>
void position_histogram(const T* p, uint64_t n, const Box& extent, uint32_t h, std::vector<uint32_t>& out) {
  out.assign(size_t{h} * h * h, 0);
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t c[3];
    for (int a = 0; a < 3; ++a)
      c[a] = histogram_cell(static_cast<double>(p[3 * i + a]), extent.inclusive_min[a], extent.exclusive_max[a], h);
    ++out[c[0] + h * (c[1] + h * c[2])];
  }
}

// The half-open box of positions (max one ulp above the largest coordinate).
template <typename T>
Box positions_box(const T* p, uint64_t n) {
  Box b = Box::nothing();
  for (uint64_t i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) {
      const double v = static_cast<double>(p[3 * i + a]);
      b.inclusive_min[a] = std::min(b.inclusive_min[a], v);
      b.exclusive_max[a] = std::max(b.exclusive_max[a], v);
    }
  for (int a = 0; a < 3; ++a) b.exclusive_max[a] = std::nextafter(b.exclusive_max[a], INFINITY);
  return b;
}

uint64_t file_seed(uint64_t group_seed, int64_t step, uint32_t partition) {
  uint64_t s = group_seed ^ (static_cast<uint64_t>(step) * 0x9e3779b97f4a7c15ULL) ^
               (uint64_t{partition} << 32 | partition);
  return splitmix64(s);
}

std::string rank_message(const Comm& comm, int rank, const std::string& message) {
  return comm.size() > 1 ? cat("rank ", rank, ": ", message) : message;
}

// The first collective of a write. If any rank's validation failed, every rank throws the error
// of the lowest failing rank.
std::vector<RankRecord> share_rank_records(const Comm& comm, RankRecord mine, const std::optional<Error>& error) {
  mine.status = error ? static_cast<int32_t>(error->code()) : 0;
  std::vector<RankRecord> all(comm.size());
  comm.allgather(&mine, sizeof mine, all.data());
  for (int r = 0; r < comm.size(); ++r) {
    if (all[r].status == 0) continue;
    std::string message = r == comm.rank() ? error->what() : "";
    comm.bcast_string(message, r);
    throw Error(static_cast<ErrorCode>(all[r].status), rank_message(comm, r, message));
  }
  return all;
}

// What each rank hands to rank 0 once its files are written.
struct Outcome {
  int32_t status = 0;
  std::string message;
  std::vector<DataFileRecord> records;
  double seconds[kNumPhases] = {};
};

std::vector<uint8_t> encode_outcome(const Outcome& o, uint32_t comps) {
  ByteWriter w;
  w.put<int32_t>(o.status);
  w.put<uint32_t>(static_cast<uint32_t>(o.message.size()));
  w.put_bytes(o.message.data(), o.message.size());
  w.put<uint32_t>(static_cast<uint32_t>(o.records.size()));
  std::vector<uint8_t> recs;
  for (const auto& r : o.records) encode_data_file_record(r, comps, recs);
  w.put_bytes(recs.data(), recs.size());
  for (double t : o.seconds) w.put<double>(t);
  return std::move(w.bytes());
}

Outcome decode_outcome(ByteReader& r, uint32_t comps) {
  Outcome o;
  o.status = r.get<int32_t>("status");
  const uint32_t len = r.get<uint32_t>("message length");
  if (len > r.remaining()) r.corrupt("message longer than the outcome");
  o.message.assign(reinterpret_cast<const char*>(r.data() + r.position()), len);
  r.skip(len, "message");
  const uint32_t n = r.get<uint32_t>("record count");
  const size_t rb = data_file_record_bytes(comps);
  for (uint32_t i = 0; i < n; ++i) {
    if (r.remaining() < rb) r.corrupt("truncated record");
    o.records.push_back(decode_data_file_record(r.data() + r.position(), rb, comps, "gathered record"));
    r.skip(rb, "record");
  }
  for (double& t : o.seconds) t = r.get<double>("phase time");
  return o;
}

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
  // Takes part in write()'s first collective, so the ranks inside write() raise this error too.
  share_rank_records(ds_->comm, RankRecord{}, error);
}

void ParticleGroup::write(int64_t step, std::span<const FieldView> views, std::optional<Box> patch) {
  DatasetState& st = *ds_;
  const Comm& comm = st.comm;
  const int me = comm.rank();
  PhaseClock<kNumPhases> clock;
  ParticleGroupMeta* group = st.manifest.find_particles(name_);
  const Schema& schema = group->schema;
  const size_t nf = schema.size();
  uint32_t comps = 0;
  for (const auto& f : schema.fields()) comps += f.components;
  const std::string step_dir_rel = step_directory_name(name_, step < 0 ? 0 : step);
  const std::string step_dir = join_path(st.path, step_dir_rel);
  bool made_step_dir = false;
  auto remove_step_dir = [&] {
    if (!made_step_dir) return;
    try {
      remove_tree(step_dir);
    } catch (const Error&) {   // the original error matters more than a failed cleanup
    }
  };

  // ---- validate locally; rank 0 also prepares the step directory ----
  std::vector<const FieldView*> by_field(nf, nullptr);
  uint64_t n = 0;
  Box bounds = Box::nothing();
  std::optional<Error> local_error;
  try {
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
    if (me == 0) {
      remove_tree(step_dir);   // leftovers of a step that never committed
      made_step_dir = true;
      make_directories(step_dir);
    }
  } catch (const Error& e) {
    local_error = e;
  } catch (const std::bad_alloc&) {
    local_error = Error(ErrorCode::kIo, "out of memory while validating the write");
  }

  // ---- plan: every rank's patch and count, then the pure planner (same result everywhere) ----
  RankRecord mine{};
  Box my_patch{};
  if (patch) {
    my_patch = *patch;
  } else if (n > 0) {
    my_patch = bounds;
    for (int a = 0; a < 3; ++a) my_patch.exclusive_max[a] = std::nextafter(bounds.exclusive_max[a], INFINITY);
  }
  for (int a = 0; a < 3; ++a) {
    mine.box[a] = my_patch.inclusive_min[a];
    mine.box[3 + a] = my_patch.exclusive_max[a];
  }
  mine.count = n;
  mine.patch_given = patch.has_value();
  mine.step = step;
  ParticlePlan plan;
  try {
    const std::vector<RankRecord> all = share_rank_records(comm, mine, local_error);
    std::vector<RankInput> inputs(comm.size());
    for (int r = 0; r < comm.size(); ++r) {
      if (all[r].step != all[0].step)
        fail(ErrorCode::kInvalidArgument, "ranks disagree on the step of a collective write: rank 0 writes step ",
             all[0].step, ", rank ", r, " step ", all[r].step);
      for (int a = 0; a < 3; ++a) {
        inputs[r].patch.inclusive_min[a] = all[r].box[a];
        inputs[r].patch.exclusive_max[a] = all[r].box[3 + a];
      }
      inputs[r].count = all[r].count;
      inputs[r].patch_given = all[r].patch_given != 0;
    }
    if (group->partition.mode == PartitionMode::kAdaptive) {
      // Every rank's histogram over its extent: the planner balances on it (the particles inside
      // a patch are rarely spread evenly).
      const uint32_t h = adaptive_histogram_side(static_cast<uint64_t>(comm.size()));
      const size_t cells = size_t{h} * h * h;
      std::vector<uint32_t> local(cells, 0), gathered(cells * comm.size());
      const FieldView& pos = *by_field[schema.position_index()];
      if (n > 0) {
        if (pos.dtype == DType::kF8) position_histogram(static_cast<const double*>(pos.data), n, my_patch, h, local);
        else position_histogram(static_cast<const float*>(pos.data), n, my_patch, h, local);
      }
      comm.allgather(local.data(), cells * sizeof(uint32_t), gathered.data());
      for (int r = 0; r < comm.size(); ++r)
        if (inputs[r].count > 0)
          inputs[r].histogram.assign(gathered.begin() + static_cast<long>(r * cells),
                                     gathered.begin() + static_cast<long>((r + 1) * cells));
    }
    plan = plan_particle_write(group->domain, group->partition, inputs);
  } catch (const Error&) {   // raised identically on every rank
    remove_step_dir();
    throw;
  }
  clock.lap(kPlan);

  // ---- count exchange (§3.3): senders tell aggregators how many particles follow ----
  const auto sends = plan.sends_of(me);
  Outgoing outgoing;
  outgoing.partitions = sends;
  outgoing.counts.assign(sends.size(), 0);
  if (!scratch_) scratch_ = std::make_shared<WriteScratch>();
  const uint32_t* send_order = nullptr;     // non-aligned: rows grouped by destination
  std::vector<uint64_t> send_starts(sends.size() + 1, 0);
  if (sends.size() == 1) {
    outgoing.counts[0] = n;
  } else if (sends.size() > 1) {
    // Destination of every row, then the rows grouped by destination. Both arrays live in
    // reused scratch: fresh ones would cost a page fault per 4 KiB every step.
    auto* slot = reinterpret_cast<uint32_t*>(scratch_->slot.reserve(n * sizeof(uint32_t)));
    auto* order = reinterpret_cast<uint32_t*>(scratch_->order.reserve(n * sizeof(uint32_t)));
    const FieldView& pos = *by_field[schema.position_index()];
    auto bin = [&](const auto* q) {
      for (uint64_t i = 0; i < n; ++i) {
        const uint32_t p = plan.partition_of({static_cast<double>(q[3 * i]), static_cast<double>(q[3 * i + 1]),
                                              static_cast<double>(q[3 * i + 2])});
        const auto it = std::lower_bound(sends.begin(), sends.end(), p);
        if (it == sends.end() || *it != p)
          fail(ErrorCode::kInternal, "particle ", i, " falls in partition ", p, " outside its patch's partitions");
        slot[i] = static_cast<uint32_t>(it - sends.begin());
        ++outgoing.counts[slot[i]];
      }
    };
    if (pos.dtype == DType::kF8) bin(static_cast<const double*>(pos.data));
    else bin(static_cast<const float*>(pos.data));
    for (size_t s = 0; s < sends.size(); ++s) send_starts[s + 1] = send_starts[s] + outgoing.counts[s];
    std::vector<uint64_t> fill(send_starts.begin(), send_starts.end() - 1);
    for (uint64_t i = 0; i < n; ++i) order[fill[slot[i]]++] = static_cast<uint32_t>(i);
    send_order = order;
  }
  std::vector<size_t> row_bytes;
  for (const auto& f : schema.fields()) row_bytes.push_back(f.row_bytes());
  ParticleExchange exchange(comm, plan, row_bytes, st.options.exchange, scratch_->receive);
  exchange.exchange_counts(outgoing);
  clock.lap(kCountExchange);

  // ---- particle exchange: column by column, straight into the aggregators' columns ----
  if (sends.size() == 1) {
    for (size_t f = 0; f < nf; ++f) outgoing.rows.push_back(static_cast<const uint8_t*>(by_field[f]->data));
  } else if (sends.size() > 1) {
    // Non-aligned: each destination's rows gathered per field into the reused send buffer (a
    // fresh buffer per step would cost a zero-fill and a page fault per 4 KiB every time).
    // Every (destination, field) block starts 64-byte aligned: a block may become an
    // aggregator's column in place, read as doubles or 8-byte integers.
    size_t total = kColumnAlignment;
    for (size_t s = 0; s < sends.size(); ++s)
      for (size_t f = 0; f < nf; ++f) total += align_up(outgoing.counts[s] * row_bytes[f], kColumnAlignment);
    uint8_t* base = scratch_->send.reserve(total);
    size_t at = align_up(reinterpret_cast<uintptr_t>(base), kColumnAlignment) - reinterpret_cast<uintptr_t>(base);
    for (size_t s = 0; s < sends.size(); ++s)
      for (size_t f = 0; f < nf; ++f) {
        gather_rows(by_field[f]->data, base + at, row_bytes[f], send_order + send_starts[s], outgoing.counts[s]);
        outgoing.rows.push_back(base + at);
        at += align_up(outgoing.counts[s] * row_bytes[f], kColumnAlignment);
      }
  }
  exchange.exchange_particles(outgoing);
  clock.lap(kParticleExchange);

  // ---- reorder (§3.4) and write one file per owned partition ----
  Outcome outcome;
  PartitionFileTimes times;
  try {
    for (const IncomingPartition& in : exchange.incoming()) {
      if (in.total == 0) continue;
      LodParams lod = group->lod;
      lod.seed = file_seed(group->lod.seed, step, in.id);
      Box pbox = plan.partitions[in.id];
      if (!plan.tiles.empty()) {   // adaptive: the tile cut down to the particles it received
        const size_t pi = schema.position_index();
        const Box got = schema.field(pi).dtype == DType::kF8
                            ? positions_box(reinterpret_cast<const double*>(in.columns[pi]), in.total)
                            : positions_box(reinterpret_cast<const float*>(in.columns[pi]), in.total);
        pbox = intersection(plan.tiles[in.id], got);
        if (pbox.empty()) fail(ErrorCode::kInternal, "partition ", in.id, " received particles outside its tile");
      }
      outcome.records.push_back(
          write_partition_file(in, schema, pbox, lod, me, step_dir, st.options.fsync, scratch_->file, times));
    }
  } catch (const Error& e) {
    outcome.status = static_cast<int32_t>(e.code());
    outcome.message = e.what();
  } catch (const std::bad_alloc&) {
    outcome.status = static_cast<int32_t>(ErrorCode::kIo);
    outcome.message = "out of memory while writing a partition file";
  }
  exchange.release();   // collective over the node when the receive region is a shared window
  clock.lap(kFileWrite);
  // The lap holds reorder, write and describe time; file the first and last where they belong.
  clock.seconds[kFileWrite] -= times.reorder_s + times.describe_s;
  clock.seconds[kReorder] += times.reorder_s;
  clock.seconds[kMetadata] += times.describe_s;

  // ---- outcomes to rank 0: spatial metadata (§3.5), manifest commit, profile ----
  std::copy(std::begin(clock.seconds), std::end(clock.seconds), outcome.seconds);
  const std::vector<uint8_t> gathered = comm.gatherv(encode_outcome(outcome, comps), 0);
  std::vector<uint8_t> answer;   // rank 0's verdict, broadcast to all
  if (me == 0) {
    int32_t status = 0;
    std::string message;
    StepRecord committed;
    std::vector<Outcome> all;
    try {
      ByteReader r(gathered.data(), gathered.size(), "gathered write outcomes");
      for (int q = 0; q < comm.size(); ++q) all.push_back(decode_outcome(r, comps));
      for (int q = 0; q < comm.size() && status == 0; ++q)
        if (all[q].status) {
          status = all[q].status;
          message = rank_message(comm, q, all[q].message);
        }
      if (status == 0) {
        SpatialMetadata meta;
        meta.step = step;
        meta.num_components = comps;
        for (auto& o : all)
          for (auto& rec : o.records) meta.files.push_back(std::move(rec));
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
        const auto inserted = steps.insert(
            std::upper_bound(steps.begin(), steps.end(), step, [](int64_t s, const StepRecord& x) { return s < x.step; }),
            committed);
        try {
          st.write_manifest();
        } catch (...) {
          steps.erase(inserted);
          throw;
        }
      }
    } catch (const Error& e) {
      status = static_cast<int32_t>(e.code());
      message = rank_message(comm, 0, e.what());
    }
    if (status != 0) remove_step_dir();
    clock.lap(kMetadata);
    ByteWriter w;
    w.put<int32_t>(status);
    w.put<uint32_t>(static_cast<uint32_t>(message.size()));
    w.put_bytes(message.data(), message.size());
    w.put<uint64_t>(committed.particles);
    w.put<uint32_t>(committed.files);
    w.put<uint64_t>(committed.bytes);
    w.put<uint64_t>(committed.metadata_checksum);
    // Phase statistics over ranks; rank 0's own times include the commit.
    if (!all.empty()) std::copy(std::begin(clock.seconds), std::end(clock.seconds), all[0].seconds);
    double total_max = 0;
    for (const auto& o : all) {
      double t = 0;
      for (double s : o.seconds) t += s;
      total_max = std::max(total_max, t);
    }
    w.put<double>(total_max);
    for (int p = 0; p < kNumPhases; ++p) {
      double lo = INFINITY, hi = 0, sum = 0;
      for (const auto& o : all) {
        lo = std::min(lo, o.seconds[p]);
        hi = std::max(hi, o.seconds[p]);
        sum += o.seconds[p];
      }
      w.put<double>(all.empty() ? 0 : lo);
      w.put<double>(all.empty() ? 0 : sum / all.size());
      w.put<double>(hi);
    }
    answer = std::move(w.bytes());
  }
  std::string text(answer.begin(), answer.end());
  comm.bcast_string(text, 0);

  ByteReader r(reinterpret_cast<const uint8_t*>(text.data()), text.size(), "write verdict from rank 0");
  const int32_t status = r.get<int32_t>("status");
  const uint32_t len = r.get<uint32_t>("message length");
  if (len > r.remaining()) r.corrupt("message longer than the verdict");
  const std::string message(text.data() + r.position(), len);
  r.skip(len, "message");
  if (status != 0) throw Error(static_cast<ErrorCode>(status), message);
  StepRecord committed;
  committed.step = step;
  committed.particles = r.get<uint64_t>("particles");
  committed.files = r.get<uint32_t>("files");
  committed.bytes = r.get<uint64_t>("bytes");
  committed.metadata_checksum = r.get<uint64_t>("metadata checksum");
  committed.directory = step_dir_rel;
  committed.writer_ranks = static_cast<uint32_t>(comm.size());
  if (me != 0) {
    auto& steps = group->steps;
    steps.insert(
        std::upper_bound(steps.begin(), steps.end(), step, [](int64_t s, const StepRecord& x) { return s < x.step; }),
        committed);
  }
  profile_ = WriteProfile{};
  profile_.step = step;
  profile_.ranks = comm.size();
  profile_.aggregators = plan.num_aggregators();
  profile_.files = committed.files;
  profile_.particles = committed.particles;
  profile_.bytes = committed.bytes;
  profile_.aligned = plan.aligned;
  profile_.fsync = st.options.fsync;
  profile_.total_s = r.get<double>("total");
  for (int p = 0; p < kNumPhases; ++p) {
    PhaseTiming t{kPhaseNames[p], 0, 0, 0};
    t.min_s = r.get<double>("phase min");
    t.mean_s = r.get<double>("phase mean");
    t.max_s = r.get<double>("phase max");
    profile_.phases.push_back(t);
  }
}

}  // namespace lodex
