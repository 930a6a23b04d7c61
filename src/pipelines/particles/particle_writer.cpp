// The spatially aware two-phase particle write (paper §3), on the collective skeleton
// (pipelines/collective.hpp):
//   check     the fields against the schema, positions finite and inside the domain and patch;
//             rank 0 prepares the step's folder
//   agree     one allgather of every rank's patch, count and verdict (adaptive plans: also a
//             histogram of each rank's particles)
//   plan      the pure planner (layout/particle_plan.hpp), the same on every rank
//   exchange  rows binned to their partitions (non-aligned plans), counts (non-aligned plans
//             only: aligned counts are in the agreed records), particles column by column with
//             each sender's per-component min/max
//   reorder   per partition: the level-of-detail order (started as soon as the positions are in,
//             while the other columns still arrive), then the gather into file order with the
//             segment checksums, chunk by chunk
//   file_write  a write-behind thread writes each chunk while the next is gathered. Where ranks of
//             a partition share its aggregator's node, they write its file together, each a slice
//             of whole segments (node_file_write.hpp: the default wherever it applies)
//   commit    outcomes to rank 0, spatial metadata (§3.5) and manifest, verdict to every rank
// The zero-copy input (ParticleGroup::open_buffers) is in particle_buffers.cpp; what both share is in
// particle_step.hpp.
#include <algorithm>
#include <cmath>
#include <atomic>
#include <functional>
#include <future>
#include <optional>
#include <thread>

#include "core/bytes.hpp"
#include "core/checksum.hpp"
#include "format/particle_file.hpp"
#include "layout/rng.hpp"
#include "pipelines/collective.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/particles/node_file_write.hpp"
#include "pipelines/particles/particle_exchange.hpp"
#include "pipelines/particles/particle_input.hpp"
#include "pipelines/particles/particle_positions.hpp"
#include "pipelines/particles/particle_step.hpp"
#include "pipelines/particles/partition_file_writer.hpp"

namespace lodex {

namespace {

constexpr uint64_t kMaxMetadataBytes = uint64_t{1} << 30;

std::vector<std::string> phase_names() {
  return {"check", "agree", "plan", "exchange", "reorder", "file_write", "commit"};
}

// Adaptive plans: particles per cell of an h^3 grid over `extent` (layout/particle_plan.hpp).
template <typename P>
void position_histogram(const P& p, uint64_t n, const Box& extent, uint32_t h, std::vector<uint32_t>& out) {
  out.assign(size_t{h} * h * h, 0);
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t c[3];
    for (int a = 0; a < 3; ++a) c[a] = histogram_cell(p(i, a), extent.inclusive_min[a], extent.exclusive_max[a], h);
    ++out[c[0] + h * (c[1] + h * c[2])];
  }
}

uint64_t file_seed(uint64_t group_seed, int64_t step, uint32_t partition) {
  uint64_t s =
      group_seed ^ (static_cast<uint64_t>(step) * 0x9e3779b97f4a7c15ULL) ^ (uint64_t{partition} << 32 | partition);
  return splitmix64(s);
}

// ---- check ----

RankRecord check(StepWrite& w, std::span<const FieldView> views, std::optional<Box> patch) {
  w.st.require_writable();
  if (w.step < 0) fail(ErrorCode::kInvalidArgument, "step ", w.step, " is negative");
  if (w.group.find_step(w.step))
    fail(ErrorCode::kAlreadyExists, "step ", w.step, " of group '", w.name,
         "' is already committed; steps are written once");
  w.input = step_input(w.schema(), views);
  w.n = w.input.n;
  const CheckedPositions checked = check_positions(w.input, w.group, patch, w.scratch.wrapped);
  w.my_patch = checked.patch;
  bool patch_given = checked.patch_given;
  // One writer of a factor-partitioned group: its patch is the whole domain (a factor needs patches).
  if (!patch_given && w.st.comm.size() == 1 && w.group.partition.mode == PartitionMode::kFactor) {
    if (!w.group.auto_domain) w.my_patch = w.group.domain;
    patch_given = !w.group.auto_domain || w.n > 0;
  }
  if (w.st.comm.rank() == 0) {
    remove_tree(w.step_dir);   // leftovers of a step that never committed
    w.made_step_dir = true;
    make_directories(w.step_dir);
  }
  RankRecord mine{};
  for (int a = 0; a < 3; ++a) {
    mine.box[a] = w.my_patch.inclusive_min[a];
    mine.box[3 + a] = w.my_patch.exclusive_max[a];
    mine.bounds[a] = checked.bounds.inclusive_min[a];
    mine.bounds[3 + a] = checked.bounds.exclusive_max[a];
  }
  mine.count = w.n;
  mine.patch_given = patch_given;
  mine.step = w.step;
  return mine;
}

}  // namespace

// ---- agree + plan ----

std::vector<RankInput> rank_inputs(const std::vector<RankRecord>& all) {
  std::vector<RankInput> inputs(all.size());
  for (size_t r = 0; r < all.size(); ++r) {
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
  return inputs;
}

namespace {

// An "auto" group's step domain, the same on every rank: the union of the given patches and the
// particles' bounds; the patches are then kept inside it.
Box step_domain(const std::vector<RankRecord>& all, std::vector<RankInput>& inputs, const ParticleGroupMeta& g) {
  std::vector<Box> boxes;
  for (size_t r = 0; r < all.size(); ++r) {
    if (inputs[r].patch_given) boxes.push_back(inputs[r].patch);
    if (all[r].count > 0)
      boxes.push_back(Box{{all[r].bounds[0], all[r].bounds[1], all[r].bounds[2]},
                          {all[r].bounds[3], all[r].bounds[4], all[r].bounds[5]}});
  }
  const Box d = auto_step_domain(boxes, g.extent());
  for (RankInput& in : inputs)
    if (in.count > 0 || in.patch_given) in.patch = kept_inside(in.patch, d);
  return d;
}

// Adaptive plans balance on every rank's histogram over its extent (the particles inside a patch
// are rarely spread evenly): a second allgather, same on every rank.
void share_histograms(const StepWrite& w, std::vector<RankInput>& inputs) {
  const Comm& comm = w.st.comm;
  const uint32_t h = adaptive_histogram_side(static_cast<uint64_t>(comm.size()));
  const size_t cells = size_t{h} * h * h;
  std::vector<uint32_t> local(cells, 0), gathered(cells * comm.size());
  if (w.n > 0)
    with_positions(w.input, w.schema(), [&](const auto& p) { position_histogram(p, w.n, w.my_patch, h, local); });
  comm.allgather(local.data(), cells * sizeof(uint32_t), gathered.data());
  for (int r = 0; r < comm.size(); ++r)
    if (inputs[r].count > 0)
      inputs[r].histogram.assign(gathered.begin() + static_cast<long>(r * cells),
                                 gathered.begin() + static_cast<long>((r + 1) * cells));
}

// ---- exchange: this rank's rows by destination, with their statistics ----

// One destination (aligned plans): the rows stay where they are, unless copied. Rows read in place
// after the call returns (an asynchronous step whose one partition stays on this rank) are copied
// first: the caller may reuse its arrays once it has control back. A field given per component is
// interleaved into rows here. An asynchronous step leaves the statistics of rows that stay on this
// rank to its helper thread (they are read there anyway), so the call returns sooner, and so does
// one that does not copy (copy=False) for the rows it sends: where they go to its node's window,
// the helper computes them and copies the rows (ParticleExchange::finish_node_exchange), else the
// call does before they leave (send_statistics).
void route_whole(StepWrite& w) {
  const Schema& schema = w.schema();
  const size_t nf = schema.size();
  Outgoing& out = w.outgoing;
  out.counts[0] = w.n;
  const bool in_place = w.plan->aggregated_in_place(out.partitions[0]);
  const bool copy_all = w.keep_inputs && in_place;
  auto copied = [&](size_t f) { return copy_all || w.input.columns[f].per_component(); };
  size_t total = kColumnAlignment;
  for (size_t f = 0; f < nf; ++f)
    if (copied(f)) total += align_up(w.n * schema.field(f).row_bytes(), kColumnAlignment);
  uint8_t* base = total > kColumnAlignment ? w.scratch.send.reserve(total) : nullptr;
  size_t at =
      base ? align_up(reinterpret_cast<uintptr_t>(base), kColumnAlignment) - reinterpret_cast<uintptr_t>(base) : 0;
  for (size_t f = 0; f < nf; ++f) {
    const auto* rows = static_cast<const uint8_t*>(w.input.columns[f].rows);
    if (copied(f)) {
      gather_input(w.input, schema, f, nullptr, w.n, base + at);
      rows = base + at;
      at += align_up(w.n * schema.field(f).row_bytes(), kColumnAlignment);
    }
    out.rows.push_back(rows);
  }
  const bool later = w.async && (in_place || !w.keep_inputs);
  out.stats.push_back(later ? ColumnStats::pending() : ColumnStats::of(schema, out.rows, w.n));
}

// The statistics of out's slot s, if still pending (route_whole).
void slot_statistics(StepWrite& w, size_t s) {
  Outgoing& out = w.outgoing;
  if (!out.stats[s].is_pending()) return;
  const size_t nf = w.schema().size();
  const std::vector<const uint8_t*> rows(out.rows.begin() + s * nf, out.rows.begin() + (s + 1) * nf);
  out.stats[s] = ColumnStats::of(w.schema(), rows, out.counts[s]);
}

// Before rows leave the rank in the call: the statistics still pending of every slot that is sent.
void send_statistics(StepWrite& w) {
  for (size_t s = 0; s < w.outgoing.partitions.size(); ++s)
    if (!w.plan->aggregated_in_place(w.outgoing.partitions[s])) slot_statistics(w, s);
}

// Non-aligned: the destination of every row, then the rows grouped by destination. Both arrays
// live in reused scratch: fresh ones would cost a page fault per 4 KiB every step.
void route_binned(StepWrite& w) {
  const Schema& schema = w.schema();
  const size_t nf = schema.size();
  Outgoing& out = w.outgoing;
  const std::span<const uint32_t> sends = out.partitions;
  auto* slot = reinterpret_cast<uint32_t*>(w.scratch.slot.reserve(w.n * sizeof(uint32_t)));
  auto* order = reinterpret_cast<uint32_t*>(w.scratch.order.reserve(w.n * sizeof(uint32_t)));
  const PartitionBinner partition_of = w.plan->binner();
  auto bin = [&](const auto& q) {
    for (uint64_t i = 0; i < w.n; ++i) {
      const uint32_t p = partition_of({q(i, 0), q(i, 1), q(i, 2)});
      const auto it = std::lower_bound(sends.begin(), sends.end(), p);
      if (it == sends.end() || *it != p)
        fail(ErrorCode::kInternal, "particle ", i, " falls in partition ", p, " outside its patch's partitions");
      slot[i] = static_cast<uint32_t>(it - sends.begin());
      ++out.counts[slot[i]];
    }
  };
  with_positions(w.input, schema, bin);
  std::vector<uint64_t> starts(sends.size() + 1, 0);
  for (size_t s = 0; s < sends.size(); ++s) starts[s + 1] = starts[s] + out.counts[s];
  std::vector<uint64_t> fill(starts.begin(), starts.end() - 1);
  for (uint64_t i = 0; i < w.n; ++i) order[fill[slot[i]]++] = static_cast<uint32_t>(i);
  // Each destination's rows gathered per field into the reused send buffer. Every (destination,
  // field) block starts 64-byte aligned: it may become an aggregator's column in place.
  size_t total = kColumnAlignment;
  for (size_t s = 0; s < sends.size(); ++s)
    for (size_t f = 0; f < nf; ++f) total += align_up(out.counts[s] * schema.field(f).row_bytes(), kColumnAlignment);
  uint8_t* base = w.scratch.send.reserve(total);
  size_t at = align_up(reinterpret_cast<uintptr_t>(base), kColumnAlignment) - reinterpret_cast<uintptr_t>(base);
  for (size_t s = 0; s < sends.size(); ++s) {
    std::vector<const uint8_t*> mine;
    for (size_t f = 0; f < nf; ++f) {
      const size_t rb = schema.field(f).row_bytes();
      gather_input(w.input, schema, f, order + starts[s], out.counts[s], base + at);
      out.rows.push_back(base + at);
      mine.push_back(base + at);
      at += align_up(out.counts[s] * rb, kColumnAlignment);
    }
    out.stats.push_back(ColumnStats::of(schema, mine, out.counts[s]));
  }
}

void route(StepWrite& w) {
  Outgoing& out = w.outgoing;
  out.partitions = w.plan->sends_of(w.st.comm.rank());
  out.counts.assign(out.partitions.size(), 0);
  if (out.partitions.size() == 1) route_whole(w);
  else if (!out.partitions.empty()) route_binned(w);
}

}  // namespace

// ---- exchange + reorder + file_write: this rank's partitions ----

// The orders of this rank's partitions. With particles in flight they are computed on a helper
// thread: the shuffles as soon as the counts are known, the placements once the positions are in,
// while the other columns still arrive. Otherwise inline. The orders and their working arrays are
// the group's scratch (WriteScratch::orders), reused from step to step.
class Orderer {
 public:
  // `perm_target(k)`: where partition k's permutation goes when not in its order's own array (the
  // node-cooperative file's area in the shared window), or nullptr. `shuffle_target(k)`: where its
  // shuffle goes when the file's writers place the order together (then only the shuffle is
  // computed here), or nullptr.
  using Target = std::function<uint32_t*(size_t)>;
  Orderer(StepWrite& w, const std::vector<IncomingPartition>& incoming, Target perm_target, Target shuffle_target)
      : w_(w),
        incoming_(incoming),
        orders_(w.scratch.orders),
        place_(w.scratch.place),
        perm_target_(std::move(perm_target)),
        shuffle_target_(std::move(shuffle_target)) {}
  ~Orderer() { stop(); }

  void start(bool threaded) {
    threaded_ = threaded;
    if (threaded_) thread_ = std::thread([this] { run(positions_.get_future()); });
  }
  void positions_ready() {
    if (threaded_) positions_.set_value();
    else run_inline();
  }
  // Joins the helper; the orders, or the helper's error.
  std::vector<PartitionOrder>& finish() {
    stop();
    if (error_) std::rethrow_exception(error_);
    return orders_;
  }
  bool threaded() const { return threaded_; }
  double seconds() const { return seconds_; }

 private:
  void shuffle_all() {
    orders_.resize(incoming_.size());
    for (size_t k = 0; k < incoming_.size(); ++k) {
      LodParams lod = w_.group.lod;
      lod.seed = file_seed(w_.group.lod.seed, w_.step, incoming_[k].id);
      orders_[k].shuffle_target = shuffle_target_ ? shuffle_target_(k) : nullptr;
      shuffle_partition(incoming_[k], lod, w_.schema().row_bytes(), orders_[k]);
    }
  }
  void place_all() {
    for (size_t k = 0; k < incoming_.size(); ++k) {
      const IncomingPartition& in = incoming_[k];
      orders_[k].perm_target = perm_target_ ? perm_target_(k) : nullptr;
      if (in.total == 0) continue;
      const Box tile = w_.plan->tiles.empty() ? Box::nothing() : w_.plan->tiles[in.id];
      place_partition(in, w_.schema(), w_.plan->partitions[in.id], tile, orders_[k], place_);
    }
  }
  void run(std::future<void> positions) {
    try {
      double t0 = wall_seconds();
      shuffle_all();
      seconds_ += wall_seconds() - t0;
      positions.get();   // throws when the exchange failed
      t0 = wall_seconds();
      place_all();
      seconds_ += wall_seconds() - t0;
    } catch (...) {
      error_ = std::current_exception();
    }
  }
  void run_inline() {
    const double t0 = wall_seconds();
    try {
      shuffle_all();
      place_all();
    } catch (...) {
      error_ = std::current_exception();
    }
    seconds_ += wall_seconds() - t0;
  }
  void stop() {
    if (!thread_.joinable()) return;
    try {   // releases a helper still waiting for positions that will not come
      positions_.set_exception(std::make_exception_ptr(Error(ErrorCode::kInternal, "the exchange failed")));
    } catch (const std::future_error&) {   // already set: the positions were in
    }
    thread_.join();
  }

  const StepWrite& w_;
  const std::vector<IncomingPartition>& incoming_;
  std::vector<PartitionOrder>& orders_;
  LodPlaceScratch& place_;
  Target perm_target_, shuffle_target_;
  std::promise<void> positions_;
  bool threaded_ = false;
  std::thread thread_;
  std::exception_ptr error_;
  double seconds_ = 0;
};

namespace {

// The path a step takes: node-cooperative files where some partition has two or more writers on
// its aggregator's node (and the option allows it); otherwise one writer per file, its particles
// brought by the exchange method asked for (the node default uses point to point then).
WritePath choose_path(const StepWrite& w) {
  switch (w.st.options.exchange) {
    case ExchangeMethod::kNode:
      return node_writes_together(w.st.comm, *w.plan) ? WritePath::kNode : WritePath::kPointToPoint;
    case ExchangeMethod::kSharedMemory: return WritePath::kSharedMemory;
    case ExchangeMethod::kPointToPoint: break;
  }
  return WritePath::kPointToPoint;
}

// One writer per file: the aggregator writes each of its partitions alone.
void write_alone(StepWrite& w, const ParticleExchange& exchange, std::vector<PartitionOrder>& orders,
                 PartitionFileTimes& pt) {
  for (size_t k = 0; k < exchange.incoming().size(); ++k) {
    const IncomingPartition& in = exchange.incoming()[k];
    if (in.total == 0 || exchange.area(k)) continue;   // an area: written together
    w.records.push_back(write_partition_file(in, w.schema(), orders[k], w.st.comm.rank(), w.step_dir,
                                             w.st.options.fsync, w.scratch.file, w.scratch.writer, pt));
  }
}

// Node-cooperative files (node_file_write.hpp): the aggregators publish their orders, every writer
// writes its slices (aggregators also their partitions written alone), the aggregators the heads.
// Every wait is for a word in the shared window; an aggregator that failed publishes that it did.
void write_together(StepWrite& w, CollectiveOp& op, ParticleExchange& exchange, const NodeFileWrite& node,
                    Orderer& orderer, PartitionFileTimes& pt) {
  PhaseTimes& times = op.times();
  std::vector<PartitionOrder>* orders = nullptr;
  op.run_locally([&] { orders = &orderer.finish(); });
  op.run_locally([&] {
    for (size_t k = 0; k < exchange.incoming().size(); ++k)
      node.publish(exchange.area(k), exchange.incoming()[k], orders ? &(*orders)[k] : nullptr);
  });
  times.lap(kReorder);
  op.run_locally([&] {
    node.write_slices(exchange, w.step_dir, w.scratch.file, w.scratch.place.shuffled_key, w.scratch.writer, pt);
  });
  if (orders) op.run_locally([&] { write_alone(w, exchange, *orders, pt); });
  if (orders && !op.failed())
    op.run_locally([&] {
      for (size_t k = 0; k < exchange.incoming().size(); ++k)
        if (const uint8_t* area = exchange.area(k); area && exchange.incoming()[k].total > 0)
          if (auto rec = node.finish(area, exchange.incoming()[k], (*orders)[k], w.step_dir, w.st.options.fsync,
                                     w.scratch.writer, pt))
            w.records.push_back(std::move(*rec));
    });
}

}  // namespace

// ---- a step between its exchange and its commit ----

PendingParticleStep::PendingParticleStep(DatasetState& st, ParticleGroupMeta& group, const std::string& name,
                                         WriteScratch& scratch, int64_t step)
    : w(st, group, name, scratch, step), op(st.comm, phase_names()) {}

PendingParticleStep::~PendingParticleStep() {
  if (helper.joinable()) helper.join();   // a step never waited for is left uncommitted
}

// The step's exchange objects, from its plan: no communication.
void set_up_exchange(PendingParticleStep& s) {
  StepWrite& w = s.w;
  std::vector<size_t> row_bytes;
  for (const auto& f : w.schema().fields()) row_bytes.push_back(f.row_bytes());
  w.path = choose_path(w);
  const ExchangeMethod method =
      w.path == WritePath::kPointToPoint ? ExchangeMethod::kPointToPoint : ExchangeMethod::kSharedMemory;
  ParticleExchange& exchange = s.exchange.emplace(w.st.comm, *w.plan, row_bytes, total_components(w.schema()), method,
                                                  w.scratch.receive, w.scratch.window);
  Orderer::Target perm_target, shuffle_target;
  if (w.path == WritePath::kNode) {
    NodeFileWrite& node = s.node.emplace(w.st.comm, *w.plan, w.schema(), w.group.lod);
    exchange.reserve_areas([&node](const IncomingPartition& in) { return node.area_bytes(in); });
    // The order is placed straight into the window, where the file's writers read it (or place it
    // together from the shuffle put there).
    perm_target = [&node, &exchange](size_t k) { return node.perm_target(exchange.area(k), exchange.incoming()[k]); };
    shuffle_target = [&node, &exchange](size_t k) {
      return node.shuffle_target(exchange.area(k), exchange.incoming()[k]);
    };
  }
  s.orderer = std::make_unique<Orderer>(w, s.exchange->incoming(), std::move(perm_target), std::move(shuffle_target));
}

// The exchange, on the calling thread (its counts first unless `counted`). `threaded_order`: the
// order is computed on the orderer's thread even when nothing moves (an asynchronous step: the
// caller gets control back sooner).
void run_exchange(PendingParticleStep& s, bool threaded_order, bool counted) {
  StepWrite& w = s.w;
  ParticleExchange& exchange = *s.exchange;
  Orderer& orderer = *s.orderer;
  s.op.run_locally([&] {
    if (!counted) exchange.exchange_counts(w.outgoing, w.rank_counts);
    exchange.prepare(w.outgoing);   // the areas in the window, where the orders' shuffles may go
    // An asynchronous step sending only to its node's windows leaves the copies to its helper.
    const bool defer = threaded_order && exchange.defers_node_copies(w.outgoing);
    if (!defer) send_statistics(w);
    bool moving = threaded_order && !exchange.incoming().empty();
    for (const auto& in : exchange.incoming()) moving = moving || !w.plan->aggregated_in_place(in.id);
    orderer.start(moving);
    exchange.exchange_particles(w.outgoing, w.schema().position_index(), [&] { orderer.positions_ready(); }, defer);
  });
  s.op.times().lap(kExchange);
}

namespace {

void exchange_step(PendingParticleStep& s, bool threaded_order) {
  set_up_exchange(s);
  run_exchange(s, threaded_order, false);
}

}  // namespace

// The order, the gathers and the file writes: no MPI call.
void write_files(PendingParticleStep& s) {
  StepWrite& w = s.w;
  CollectiveOp& op = s.op;
  PhaseTimes& times = op.times();
  ParticleExchange& exchange = *s.exchange;
  Orderer& orderer = *s.orderer;
  if (exchange.deferred()) {   // the node's part of the exchange, which the call left here
    const double t0 = wall_seconds();
    op.run_locally([&] {
      exchange.finish_node_exchange(
          w.outgoing, [&] { orderer.positions_ready(); }, [&](size_t slot) { slot_statistics(w, slot); });
    });
    op.add_thread_time("helper_exchange", wall_seconds() - t0);   // also in the exchange phase
    times.lap(kExchange);
  }
  if (s.node) {
    write_together(w, op, exchange, *s.node, orderer, s.pt);
  } else {
    op.run_locally([&] {
      std::vector<PartitionOrder>& orders = orderer.finish();
      times.lap(kReorder);
      write_alone(w, exchange, orders, s.pt);
    });
  }
  if (orderer.threaded()) op.add_thread_time("order", orderer.seconds());
  else times.move(kExchange, kReorder, orderer.seconds());
  exchange.release();
  s.orderer.reset();   // the orders' arrays (8-12 bytes per row of this rank's partitions) stay in the
  // group's scratch for the next step: given back to the system (malloc_trim) and allocated again,
  // they cost a page fault and a cleared page per 4 KiB every step, 0.5 ms of 32,768 particles.
  times.lap(kFileWrite);
  times.move(kFileWrite, kReorder, s.pt.reorder_s + s.pt.checksum_s);
  const double writer_s = w.scratch.writer.take_busy_seconds();
  if (writer_s > 0) op.add_thread_time("writer", writer_s);
}

namespace {

// ---- commit (rank 0) ----

std::vector<uint8_t> encode_records(const std::vector<DataFileRecord>& records, uint32_t comps) {
  std::vector<uint8_t> out;
  for (const auto& r : records) encode_data_file_record(r, comps, out);
  return out;
}

StepRecord commit(StepWrite& w, std::span<const RankOutcome> outcomes) {
  const uint32_t comps = total_components(w.schema());
  SpatialMetadata meta;
  meta.step = w.step;
  meta.num_components = comps;
  const size_t rb = data_file_record_bytes(comps);
  for (const RankOutcome& o : outcomes)
    for (size_t at = 0; at < o.payload.size(); at += rb) {
      if (o.payload.size() - at < rb) fail(ErrorCode::kInternal, "truncated file record from a rank");
      meta.files.push_back(decode_data_file_record(o.payload.data() + at, rb, comps, "gathered record"));
    }
  std::sort(meta.files.begin(), meta.files.end(),
            [](const DataFileRecord& a, const DataFileRecord& b) { return a.partition < b.partition; });
  const std::vector<uint8_t> mbytes = encode_spatial_metadata(meta);
  if (mbytes.size() > kMaxMetadataBytes) fail(ErrorCode::kUnsupported, "spatial metadata exceeds 1 GiB");
  // Written in place, not by rename: the step's folder is invisible until the manifest lists it, and
  // a step left uncommitted is removed when it is written again.
  File spatial(join_path(w.step_dir, "spatial.lsm"), File::Mode::kCreate);
  spatial.pwrite_all(mbytes.data(), mbytes.size(), 0);
  if (w.st.options.fsync) spatial.sync();
  spatial.close();
  if (w.st.options.fsync) sync_directory(w.step_dir);
  StepRecord committed;
  committed.step = w.step;
  committed.particles = meta.total_particles();
  committed.files = static_cast<uint32_t>(meta.files.size());
  committed.bytes = mbytes.size();
  for (const auto& f : meta.files) committed.bytes += f.file_bytes;
  committed.directory = w.step_dir_rel;
  committed.metadata_checksum = checksum64(mbytes.data(), mbytes.size());
  committed.writer_ranks = static_cast<uint32_t>(w.st.comm.size());
  if (w.group.auto_domain) committed.domain = w.domain;
  auto& steps = w.group.steps;
  const auto inserted = steps.insert(
      std::upper_bound(steps.begin(), steps.end(), w.step, [](int64_t s, const StepRecord& x) { return s < x.step; }),
      committed);
  try {
    w.st.write_manifest();
  } catch (...) {
    steps.erase(inserted);
    throw;
  }
  return committed;
}

std::vector<uint8_t> encode_summary(const StepRecord& c) {
  ByteWriter s;
  s.put<uint64_t>(c.particles);
  s.put<uint32_t>(c.files);
  s.put<uint64_t>(c.bytes);
  s.put<uint64_t>(c.metadata_checksum);
  return std::move(s.bytes());
}

StepRecord decode_summary(const StepWrite& w, const std::vector<uint8_t>& summary) {
  ByteReader r(summary.data(), summary.size(), "write summary from rank 0");
  StepRecord c;
  c.step = w.step;
  c.particles = r.get<uint64_t>("particles");
  c.files = r.get<uint32_t>("files");
  c.bytes = r.get<uint64_t>("bytes");
  c.metadata_checksum = r.get<uint64_t>("metadata checksum");
  c.directory = w.step_dir_rel;
  c.writer_ranks = static_cast<uint32_t>(w.st.comm.size());
  if (w.group.auto_domain) c.domain = w.domain;
  return c;
}

}  // namespace

void release_collectively(WriteScratch& scratch) { scratch.window.release(); }

std::string WriteProfile::to_json() const {
  std::string s =
      cat("{\"step\": ", step, ", \"ranks\": ", ranks, ", \"aggregators\": ", aggregators, ", \"files\": ", files,
          ", \"particles\": ", particles, ", \"bytes\": ", bytes, ", \"aligned\": ", aligned ? "true" : "false",
          ", \"plan_reused\": ", plan_reused ? "true" : "false", ", \"path\": \"", write_path_name(path), "\"",
          ", \"fsync\": ", fsync ? "true" : "false", ", \"total_s\": ", total_s, ", \"blocked_s\": ", blocked_s);
  auto timings = [&](const char* key, const std::vector<PhaseTiming>& ts) {
    s += cat(", \"", key, "\": {");
    for (size_t i = 0; i < ts.size(); ++i)
      s += cat(i ? ", " : "", "\"", ts[i].name, "\": {\"min_s\": ", ts[i].min_s, ", \"mean_s\": ", ts[i].mean_s,
               ", \"max_s\": ", ts[i].max_s, "}");
    s += "}";
  };
  timings("phases", phases);
  timings("threads", threads);
  return s + "}";
}

namespace {

// check, agree, plan, route and exchange: on the calling thread, collective. An error before the
// exchange is raised here on every rank (nothing pending then).
std::shared_ptr<PendingParticleStep> begin_step(DatasetState& st, const std::string& name, WriteScratch& scratch,
                                                int64_t step, std::span<const FieldView> views,
                                                const std::optional<Box>& patch,
                                                const std::optional<Error>& input_error, bool async, bool copy) {
  auto s = std::make_shared<PendingParticleStep>(st, *st.manifest.find_particles(name), name, scratch, step);
  StepWrite& w = s->w;
  w.async = async;
  w.keep_inputs = async && copy;
  w.step_dir_rel = step_directory_name(name, step < 0 ? 0 : step);
  w.step_dir = join_path(st.path, w.step_dir_rel);
  PhaseTimes& times = s->op.times();
  try {
    const std::vector<RankRecord> all = s->op.agree<RankRecord>(input_error, [&] {
      const RankRecord r = check(w, views, patch);
      times.lap(kCheck);
      return r;
    });
    times.lap(kAgree);
    std::vector<RankInput> inputs = rank_inputs(all);   // its errors are the same everywhere
    w.domain = w.group.domain;
    if (w.group.auto_domain) {
      w.domain = step_domain(all, inputs, w.group);
      w.my_patch = inputs[w.st.comm.rank()].patch;
    }
    if (w.group.partition.mode == PartitionMode::kAdaptive) share_histograms(w, inputs);
    for (const RankInput& in : inputs) w.rank_counts.push_back(in.count);
    w.plan = w.scratch.plans.plan(w.domain, w.group.partition, inputs);
  } catch (...) {   // raised identically on every rank
    try {
      if (w.made_step_dir) remove_tree(w.step_dir);
    } catch (...) {   // the original error matters more than a failed cleanup
    }
    throw;
  }
  times.lap(kPlan);
  s->op.run_locally([&] { route(w); });
  exchange_step(*s, async);
  w.input = {};   // the caller's views are not read after this
  return s;
}

}  // namespace

// gather + commit + verdict (collective), after the files are written; the profile of the step.
WriteProfile commit_step(PendingParticleStep& s) {
  StepWrite& w = s.w;
  DatasetState& st = w.st;
  auto remove_step_dir = [&] {
    if (w.made_step_dir) remove_tree(w.step_dir);
  };
  s.op.times().restart();   // an asynchronous step's commit comes later: the time between is the caller's
  const uint32_t comps = total_components(w.schema());
  const Verdict v = s.op.finish(
      encode_records(w.records, comps),
      [&](std::span<const RankOutcome> outcomes) { return encode_summary(commit(w, outcomes)); }, remove_step_dir);
  const StepRecord committed = decode_summary(w, v.summary);
  if (st.comm.rank() != 0) {
    auto& steps = w.group.steps;
    steps.insert(
        std::upper_bound(steps.begin(), steps.end(), w.step, [](int64_t x, const StepRecord& r) { return x < r.step; }),
        committed);
  }
  WriteProfile p;
  p.step = w.step;
  p.ranks = st.comm.size();
  p.aggregators = w.plan->num_aggregators();
  p.files = committed.files;
  p.particles = committed.particles;
  p.bytes = committed.bytes;
  p.aligned = w.plan->aligned;
  p.plan_reused = w.scratch.plans.reused();
  p.fsync = st.options.fsync;
  p.path = w.path;
  p.total_s = v.total_s;
  p.blocked_s = v.total_s;   // a write holds the caller throughout
  p.phases = v.phases;
  for (const PhaseTiming& t : v.threads) {
    if (t.name == "blocked") p.blocked_s = t.max_s;   // an asynchronous step: its calls, slowest rank
    else p.threads.push_back(t);
  }
  return p;
}

void ParticleGroup::write(int64_t step, std::span<const FieldView> views, std::optional<Box> patch,
                          const std::optional<Error>& input_error) {
  wait_pending();
  const std::optional<Error> error = input_error ? input_error : open_buffers_error();
  auto s = begin_step(*ds_, name_, free_scratch(), step, views, patch, error, false, false);
  write_files(*s);
  profile_ = commit_step(*s);
}

void ParticleGroup::write_async(int64_t step, std::span<const FieldView> views, std::optional<Box> patch, bool copy,
                                const std::optional<Error>& input_error) {
  // Without a budget one step in flight: the next one reuses its buffers and window. With one, a
  // pending step of the same number commits first (its folder is the new one's), and at most
  // kMaxStepsInFlight are in flight (the same on every rank: the pending steps are).
  if (!ds_->options.max_pending_bytes) wait_pending();
  wait_step(step);
  if (pending_.size() >= kMaxStepsInFlight) complete_oldest();
  const std::optional<Error> error = input_error ? input_error : open_buffers_error();
  const uint64_t bytes = error ? 0 : view_bytes(views);
  if (!make_room(*ds_, bytes)) {   // larger than the budget by itself: written within the call
    write(step, views, patch, error);
    return;
  }
  const double t0 = wall_seconds();   // the waits above count in the completed steps' blocked_s
  auto s = begin_step(*ds_, name_, free_scratch(), step, views, patch, error, true, copy);
  start_pending(std::move(s), bytes, t0);
}

WriteScratch& ParticleGroup::free_scratch() {
  for (const std::shared_ptr<WriteScratch>& sc : scratch_) {
    bool held = false;
    for (const auto& p : pending_) held = held || &p->w.scratch == sc.get();
    if (!held) return *sc;
  }
  return *scratch_.emplace_back(std::make_shared<WriteScratch>());
}

void ParticleGroup::start_pending(std::shared_ptr<PendingParticleStep> s, uint64_t bytes, double t0) {
  PendingParticleStep* raw = s.get();
  s->helper = std::thread([raw] {
    write_files(*raw);   // records its errors in the step's operation
    raw->written.store(true, std::memory_order_release);
  });
  s->blocked_s = wall_seconds() - t0;
  pending_.push_back(std::move(s));
  ds_->pending.add(raw, bytes, [this] { complete_oldest(); });   // the oldest entry is this group's oldest step
}

void ParticleGroup::complete_oldest() {
  if (pending_.empty()) return;
  std::shared_ptr<PendingParticleStep> s = std::move(pending_.front());
  pending_.pop_front();
  ds_->pending.remove(s.get());
  const double t0 = wall_seconds();
  if (s->helper.joinable()) s->helper.join();
  s->op.add_thread_time("blocked", s->blocked_s + wall_seconds() - t0);   // reduced over ranks with the rest
  profile_ = commit_step(*s);   // raises the step's error on every rank
}

void ParticleGroup::complete_oldest(size_t count) {
  // A failed step does not keep the ones after it from committing: its error (raised on every
  // rank alike, so every rank goes on alike) is raised once they have.
  std::exception_ptr first;
  for (size_t i = 0; i < count && !pending_.empty(); ++i) {
    try {
      complete_oldest();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

void ParticleGroup::wait_pending() { complete_oldest(pending_.size()); }

void ParticleGroup::wait_step(int64_t step) {
  const auto it = std::find_if(pending_.begin(), pending_.end(), [&](const auto& p) { return p->w.step == step; });
  if (it != pending_.end()) complete_oldest(static_cast<size_t>(it - pending_.begin()) + 1);
}

bool ParticleGroup::step_written(int64_t step) const {
  for (const auto& p : pending_)
    if (p->w.step == step && !p->written.load(std::memory_order_acquire)) return false;
  return true;
}

bool ParticleGroup::pending_done() const {
  for (const auto& p : pending_)
    if (!p->written.load(std::memory_order_acquire)) return false;
  return true;
}

int64_t ParticleGroup::pending_step() const { return pending_.empty() ? -1 : pending_.back()->w.step; }

}  // namespace lodex
