// Series writes (pipelines/series/series_group.hpp; Tian et al. 2013 §III), on the collective skeleton
// (pipelines/collective.hpp). One collective write:
//   check, agree  this rank's step, box and variables; one allgather of every rank's box, step
//                 and verdict (rank 0 also clears a window file a failed flush may have left)
//   plan          first write only: the decomposition the boxes form, d_tar and d_sar
//                 (layout/series_plan.hpp), the aggregation plan
//   buffer        the step's variables copied into this rank's window buffers (t, z, y, x)
// and, when the window is full (d_tar steps) or at flush():
//   aggregate     d_sar levels of point-to-point hops: at each, every variable's level-(L−1)
//                 aggregates reach its level-L aggregator, which places them in its group's box
//   file_write    the top aggregators write their chunks at the plan's offsets, and each
//                 chunk's block checksums, into the window's temporary file
//   commit        rank 0 sets the file's size, writes the head (header and chunk table), renames
//                 the file into place and commits the manifest: the window's steps become readable
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "core/bytes.hpp"
#include "core/checksum.hpp"
#include "format/series_file.hpp"
#include "pipelines/series/series_group.hpp"
#include "pipelines/box_copy.hpp"
#include "pipelines/collective.hpp"
#include "pipelines/dataset_state.hpp"
#include "pipelines/phase_clock.hpp"
#include "pipelines/series/series_common.hpp"

namespace lodex {

namespace {

enum Phase { kCheck, kAgree, kPlan, kBuffer, kAggregate, kFileWrite, kCommit, kNumPhases };
std::vector<std::string> phase_names() {
  return {"check", "agree", "plan", "buffer", "aggregate", "file_write", "commit"};
}
constexpr int kTagSar = 71;

// Every rank's summary, agreed on before anything else.
struct SeriesRecord {
  int64_t box[6];
  int64_t step;
  double window_age;   // seconds since the buffered window's first step on this rank's clock (0: none)
};

// One variable's data over a box for the window's steps, (t, z, y, x).
struct Piece {
  GridBox box;                 // the variable's box (z = [0, 1) for 2-D variables)
  uint8_t* data = nullptr;
};

}  // namespace

struct SeriesWriter {
  SeriesDecomposition dec;
  std::unique_ptr<SarPlan> sar;
  GridBox box;                               // this rank's (as passed)
  uint32_t d_tar = 1, d_sar = 0;
  std::vector<std::vector<uint8_t>> buffers;   // per variable: d_tar steps of its box
  // Per level and variable: the group's aggregate when this rank aggregates it, kept from window
  // to window (same size every full window), so flushes do not map and fault in fresh pages.
  std::vector<std::vector<std::vector<uint8_t>>> aggregates;
  std::vector<int64_t> buffered;
  std::chrono::steady_clock::time_point window_start;   // when the first buffered step was written
  StarChoice choice;
};

namespace {
// The decomposition and degrees the first window fixes, into the manifest's record.
void record_plan(SeriesMeta& m, const SeriesWriter& w) {
  m.cuts = w.dec.cuts;
  m.d_tar = w.d_tar;
  m.d_sar = w.d_sar;
  m.opt_size = w.choice.opt_size;
  m.chunk_bytes = w.choice.chunk_bytes;
  m.reason = w.choice.reason;
  m.writer_ranks = static_cast<uint32_t>(w.dec.cell.size());
}

}  // namespace

std::string SeriesWriteProfile::to_json() const {
  std::string s =
      cat("{\"step\": ", step, ", \"ranks\": ", ranks, ", \"flushed\": ", flushed ? "true" : "false",
          ", \"window_steps\": ", window_steps, ", \"bytes\": ", bytes, ", \"aggregated_bytes\": ", aggregated_bytes,
          ", \"writers\": ", writers, ", \"total_s\": ", total_s, ", \"blocked_s\": ", blocked_s,
          ", \"async_path\": \"", async_path, "\", \"phases\": {");
  for (size_t i = 0; i < phases.size(); ++i)
    s += cat(i ? ", " : "", "\"", phases[i].name, "\": {\"min_s\": ", phases[i].min_s,
             ", \"mean_s\": ", phases[i].mean_s, ", \"max_s\": ", phases[i].max_s, "}");
  return s + "}}";
}

SeriesGroup::SeriesGroup(std::shared_ptr<DatasetState> ds, std::string name)
    : ds_(std::move(ds)), name_(std::move(name)) {}
SeriesGroup::~SeriesGroup() = default;

const SeriesMeta& SeriesGroup::meta() const {
  const SeriesMeta* s = ds_->manifest.find_series(name_);
  if (!s) fail(ErrorCode::kInternal, "series '", name_, "' vanished from the manifest");
  return *s;
}

std::vector<int64_t> SeriesGroup::steps() const {
  std::vector<int64_t> out;
  for (const auto& w : meta().windows) out.insert(out.end(), w.steps.begin(), w.steps.end());
  return out;
}

std::vector<int64_t> SeriesGroup::buffered_steps() const { return w_ ? w_->buffered : std::vector<int64_t>{}; }

void SeriesGroup::forget_after(int64_t after) {
  if (w_)
    while (!w_->buffered.empty() && w_->buffered.back() > after) w_->buffered.pop_back();
  heads_.clear();
  read_plan_.reset();
}

const StarChoice* SeriesGroup::planned_choice() const { return w_ ? &w_->choice : nullptr; }

void SeriesGroup::plan_first_write(const GridBox& box, const std::vector<GridBox>& boxes) {
  DatasetState& st = *ds_;
  const Comm& comm = st.comm;
  const SeriesMeta& m = meta();
  // Pure but for the buffers' allocation: agreed on, once per series and process.
  auto w = std::make_shared<SeriesWriter>();
  comm.agree([&] {
    w->dec = decompose_series_write(m.dims, m.variables, boxes);
    if (m.planned()) {   // appending: the stored decomposition and degrees
      if (w->dec.cuts != m.cuts)
        fail(ErrorCode::kInvalidArgument, "the ranks' boxes form another decomposition than the one series '", name_,
             "' was written with (", cuts_text(m.cuts), " now ", cuts_text(w->dec.cuts), ")");
      StarSettings forced = m.settings;
      forced.d_tar = static_cast<int>(m.d_tar);
      forced.d_sar = static_cast<int>(m.d_sar);
      forced.max_window_steps = std::max(forced.max_window_steps, m.d_tar);   // a stored plan stays
      w->choice = choose_star(m.variables, boxes, w->dec, forced);
      w->choice.reason = m.reason;
    } else {
      w->choice = choose_star(m.variables, boxes, w->dec, m.settings);
    }
    w->d_tar = w->choice.d_tar;
    w->d_sar = w->choice.d_sar;
    w->sar = std::make_unique<SarPlan>(w->dec, w->d_sar);
    w->box = box;
    w->buffers.resize(m.variables.size());
    for (size_t v = 0; v < m.variables.size(); ++v) w->buffers[v].resize(chunk_bytes(m.variables[v], box, w->d_tar));
  });
  w_ = std::move(w);
}

namespace {

std::string window_tmp(const DatasetState& st, const std::string& name, int64_t first_step) {
  return join_path(join_path(st.path, name), window_file_name(first_step)) + ".tmp";
}

}  // namespace

void SeriesGroup::check_write(int64_t step, const GridBox& box, std::span<const FieldView> data,
                              std::vector<const uint8_t*>& given) const {
  DatasetState& st = *ds_;
  const SeriesMeta& m = meta();
  const size_t V = m.variables.size();
  st.require_writable();
  if (step < 0) fail(ErrorCode::kInvalidArgument, "step must be non-negative, got ", step);
  const int64_t last = w_ && !w_->buffered.empty() ? w_->buffered.back() : m.last_step();
  if (step == last || (w_ && std::count(w_->buffered.begin(), w_->buffered.end(), step)))
    fail(ErrorCode::kAlreadyExists, "series '", name_, "' already has step ", step,
         w_ && !w_->buffered.empty() && step >= w_->buffered.front() ? " (buffered, not yet flushed)" : "");
  if (step < last) {
    for (const auto& win : m.windows)
      if (std::binary_search(win.steps.begin(), win.steps.end(), step))
        fail(ErrorCode::kAlreadyExists, "series '", name_, "' already has step ", step);
    fail(ErrorCode::kInvalidArgument, "series '", name_, "' has step ", last, "; step ", step,
         " comes before it (series steps are written in increasing order)");
  }
  for (int a = 0; a < 3; ++a)
    if (box.lo[a] < 0 || box.hi[a] > m.dims[a] || box.lo[a] >= box.hi[a])
      fail(ErrorCode::kInvalidArgument, "box ", box_text(box), " is empty or outside the ", m.dims[0], " x ", m.dims[1],
           " x ", m.dims[2], " grid of series '", name_, "'");
  if (w_ && !(box == w_->box))
    fail(ErrorCode::kInvalidArgument, "box ", box_text(box), " differs from this rank's box at the first write, ",
         box_text(w_->box), " (a series keeps its domain decomposition)");
  given.assign(V, nullptr);
  for (const FieldView& f : data) {
    size_t v = 0;
    while (v < V && m.variables[v].name != f.name) ++v;
    if (v == V) fail(ErrorCode::kInvalidArgument, "series '", name_, "' has no variable '", f.name, "'");
    if (given[v]) fail(ErrorCode::kInvalidArgument, "variable '", f.name, "' is given twice");
    if (f.dtype != m.variables[v].dtype || f.components != 1)
      fail(ErrorCode::kInvalidArgument, "variable '", f.name, "' is ", dtype_name(m.variables[v].dtype), ", not ",
           dtype_name(f.dtype), f.components != 1 ? cat(" x ", f.components) : "");
    const uint64_t n = var_box(m.variables[v], box).volume();
    if (f.rows != n)
      fail(ErrorCode::kInvalidArgument, "variable '", f.name, "' has ", f.rows, " values; the box ", box_text(box),
           " holds ", n, m.variables[v].ndim == 2 ? " (y, x) points" : " (z, y, x) points");
    if (!f.data) fail(ErrorCode::kInvalidArgument, "variable '", f.name, "' has no data");
    given[v] = static_cast<const uint8_t*>(f.data);
  }
  for (size_t v = 0; v < V; ++v)
    if (!given[v]) fail(ErrorCode::kInvalidArgument, "variable '", m.variables[v].name, "' is missing");
  // A step starting a window: rank 0 clears what a failed flush of that window may have left.
  if (st.comm.rank() == 0 && (!w_ || w_->buffered.empty())) ::unlink(window_tmp(st, name_, step).c_str());
}

// A window between its aggregation and its commit: what the file writes need (on the calling
// thread for write and flush, on a helper thread for write_async: its aggregation too on the
// "helper-mpi" path, over `helper_comm`) and what the commit needs after them. `hold` points into
// the writer's window buffers or aggregates, which the next write reuses: it first completes this
// window.
struct PendingSeriesWindow {
  explicit PendingSeriesWindow(const Comm& comm) : op(comm, phase_names()) {}
  ~PendingSeriesWindow() {
    if (helper.joinable()) helper.join();   // a window never waited for is left uncommitted
  }
  CollectiveOp op;
  int64_t step = -1;             // the write that completed the window
  bool flush = false;            // it writes a window (not only buffers a step)
  std::vector<Piece> hold;       // per variable: this rank's top aggregate (data null: none)
  SeriesWindowHead head;
  std::string tmp;               // the window's temporary file
  uint32_t chunk = 0, chunks = 0;   // this rank's chunk, and the chunks of a variable
  SeriesGroup::WindowWrite ww;
  std::shared_ptr<Comm> helper_comm;   // the series' own communicator ("helper-mpi"), else null
  const char* path = "blocking";       // SeriesWriteProfile::async_path
  std::thread helper;
  std::atomic<bool> written{false};
  double blocked_s = 0;          // time the calls held the caller
};

namespace {

// ---- file_write: every top aggregator's chunks and their block checksums, into the window's
// temporary file (created by whoever opens it first; rank 0 sets its size at the commit). No MPI
// call: it may run on a helper thread ----
void write_window_files(PendingSeriesWindow& p, const DatasetState& st) {
  const SeriesWindowHead& head = p.head;
  const uint32_t C = p.chunks, my_chunk = p.chunk;
  p.op.run_locally([&] {
    File f;
    for (uint32_t v = 0; v < p.hold.size(); ++v) {
      if (!p.hold[v].data) continue;
      if (!f.is_open()) f = File(p.tmp, File::Mode::kShare);
      p.ww.writer = true;
      const SeriesChunkEntry& e = head.entries[size_t{v} * C + my_chunk];
      f.pwrite_all(p.hold[v].data, e.bytes, e.offset);
      ByteWriter sums;
      for (uint64_t at = 0; at < e.bytes; at += head.block_bytes)
        sums.put<uint64_t>(checksum64(p.hold[v].data + at, std::min<uint64_t>(head.block_bytes, e.bytes - at)));
      f.pwrite_all(sums.bytes().data(), sums.size(), head.block_table_offset() + 8 * e.first_block);
    }
    if (f.is_open() && st.options.fsync) f.sync();
  });
  p.op.times().lap(kFileWrite);
}

// ---- the last hop of a blocking window's aggregation, streamed: every variable's top chunk is
// gathered a window of (step, z-plane) slabs at a time (at most kStreamWindow bytes, at least one
// slab) into one buffer at its top aggregator, which writes it at the chunk's offset and carries
// the block checksums on; the aggregator holds a window of slabs, not the chunk. The senders and
// their aggregator walk the variables and windows in the same order, so their messages match ----
constexpr uint64_t kStreamWindow = uint64_t{256} << 10;

// The block checksums of a chunk whose bytes come in order, a window at a time.
struct ChunkSums {
  uint64_t block_bytes = kSeriesBlockBytes;
  std::vector<uint8_t> carry;   // the bytes after the last whole block
  ByteWriter sums;
  void add(const uint8_t* data, uint64_t len) {
    if (!carry.empty()) {
      const uint64_t take = std::min<uint64_t>(len, block_bytes - carry.size());
      carry.insert(carry.end(), data, data + take);
      data += take;
      len -= take;
      if (carry.size() < block_bytes) return;
      sums.put<uint64_t>(checksum64(carry.data(), carry.size()));
      carry.clear();
    }
    for (; len >= block_bytes; data += block_bytes, len -= block_bytes)
      sums.put<uint64_t>(checksum64(data, block_bytes));
    carry.assign(data, data + len);
  }
  void finish() {
    if (!carry.empty()) sums.put<uint64_t>(checksum64(carry.data(), carry.size()));
    carry.clear();
  }
};

// Level L's hop for every variable: `hold` has this rank's level-(L-1) aggregates (data null: none).
void streamed_top(PendingSeriesWindow& p, const Comm& comm, const SarPlan& sar, const std::vector<SeriesVariable>& vars,
                  const std::vector<Piece>& hold, uint32_t n, uint32_t L, bool fsync) {
  const uint32_t me = static_cast<uint32_t>(comm.rank());
  std::vector<uint8_t> window;
  File f;
  for (uint32_t v = 0; v < vars.size(); ++v) {
    const SeriesVariable& var = vars[v];
    const uint64_t sample = var.sample_bytes();
    const uint32_t top = sar.aggregator(v, L, me);
    const bool mine = top == me, sends = hold[v].data && !mine;
    if (!mine && !sends) continue;
    const GridBox gbox = var_box(var, sar.group_box(L, me));
    const uint64_t planes = static_cast<uint64_t>(gbox.hi[2] - gbox.lo[2]);
    const uint64_t slab = chunk_bytes(var, gbox, 1) / planes, slabs = n * planes;
    const uint64_t per = std::max<uint64_t>(1, kStreamWindow / slab);
    const uint64_t held_step = hold[v].data ? chunk_bytes(var, hold[v].box, 1) : 0;
    const std::vector<uint32_t> from = mine ? sar.senders(v, L, me) : std::vector<uint32_t>{};
    const SeriesChunkEntry e = mine ? p.head.entries[size_t{v} * p.chunks + p.chunk] : SeriesChunkEntry{};
    if (sends) p.ww.moved += held_step * n;
    ChunkSums sums;
    sums.block_bytes = p.head.block_bytes;
    for (uint64_t k0 = 0; k0 < slabs; k0 += per) {
      const uint64_t k1 = std::min(slabs, k0 + per);
      if (mine) window.resize((k1 - k0) * slab);
      std::map<uint32_t, std::vector<Exchange::SubBox>> recvs;
      std::vector<Exchange::SubBox> out;
      for (uint64_t t = k0 / planes; t * planes < k1; ++t) {   // the window's planes of step t
        GridBox zr = gbox;
        zr.lo[2] = gbox.lo[2] + static_cast<int64_t>(std::max(k0, t * planes) - t * planes);
        zr.hi[2] = gbox.lo[2] + static_cast<int64_t>(std::min(k1, (t + 1) * planes) - t * planes);
        uint8_t* at = window.data() + (t * planes + static_cast<uint64_t>(zr.lo[2] - gbox.lo[2]) - k0) * slab;
        if (sends) {
          const GridBox part = hold[v].box.intersect(zr);
          if (!part.empty()) out.push_back(sub_box(hold[v].data + t * held_step, hold[v].box, part, sample));
        }
        for (uint32_t s : from) {
          const GridBox part = var_box(var, sar.group_box(L - 1, s)).intersect(zr);
          if (part.empty()) continue;
          if (s == me) copy_region(hold[v].data + t * held_step, hold[v].box, at, zr, part, sample);
          else recvs[s].push_back(sub_box(at, zr, part, sample));
        }
      }
      Exchange ex(comm);
      for (auto& [s, list] : recvs) ex.irecv_boxes(list, static_cast<int>(s), kTagSar);
      if (!out.empty()) ex.isend_boxes(out, static_cast<int>(top), kTagSar);
      ex.wait_all();
      if (!mine || p.op.failed()) continue;
      p.op.run_locally([&] {
        if (!f.is_open()) f = File(p.tmp, File::Mode::kShare);
        p.ww.writer = true;
        f.pwrite_all(window.data(), window.size(), e.offset + k0 * slab);
        sums.add(window.data(), window.size());
      });
    }
    if (mine && !p.op.failed())
      p.op.run_locally([&] {
        sums.finish();
        f.pwrite_all(sums.sums.bytes().data(), sums.sums.size(), p.head.block_table_offset() + 8 * e.first_block);
      });
  }
  if (f.is_open() && fsync && !p.op.failed()) p.op.run_locally([&] { f.sync(); });
}

}  // namespace

void SeriesGroup::write(int64_t step, const GridBox& box, std::span<const FieldView> data,
                        const std::optional<Error>& input_error) {
  wait_pending();
  write_step(step, box, data, input_error, false);
}

void SeriesGroup::write_async(int64_t step, const GridBox& box, std::span<const FieldView> data,
                              const std::optional<Error>& input_error) {
  wait_pending();   // one window in flight: the next step reuses its buffers
  if (ds_->helper_mpi && !helper_comm_)   // collective: every rank makes it at the same call
    helper_comm_ = std::make_shared<Comm>(ds_->comm.duplicate());
  // The window this step may complete: its buffered steps and this one, each of this step's bytes.
  const uint64_t bytes = input_error ? 0 : view_bytes(data) * ((w_ ? w_->buffered.size() : 0) + 1);
  if (!make_room(*ds_, bytes)) {   // larger than the budget by itself: written within the call
    write_step(step, box, data, input_error, false);
    return;
  }
  const double t0 = wall_seconds();   // the waits above count in the completed windows' blocked_s
  write_step(step, box, data, input_error, true);
  if (!pending_) return;
  pending_->blocked_s = wall_seconds() - t0;
  ds_->pending.add(this, bytes, [this] { wait_pending(); });
}

void SeriesGroup::wait_pending() {
  if (!pending_) return;
  std::shared_ptr<PendingSeriesWindow> p = std::move(pending_);
  ds_->pending.remove(this);
  const double t0 = wall_seconds();
  if (p->helper.joinable()) p->helper.join();
  p->op.add_thread_time("blocked", p->blocked_s + wall_seconds() - t0);   // reduced over ranks with the rest
  try {
    finish_write(*p);   // the window's error, on every rank
  } catch (...) {
    w_->buffered.pop_back();   // the step that completed the window is lost; the earlier ones stay buffered
    throw;
  }
}

bool SeriesGroup::pending_done() const { return !pending_ || pending_->written.load(std::memory_order_acquire); }

int64_t SeriesGroup::pending_step() const { return pending_ ? pending_->step : -1; }

void SeriesGroup::write_step(int64_t step, const GridBox& box, std::span<const FieldView> data,
                             const std::optional<Error>& input_error, bool async) {
  DatasetState& st = *ds_;
  const Comm& comm = st.comm;
  auto pending = std::make_shared<PendingSeriesWindow>(comm);
  CollectiveOp& op = pending->op;
  PhaseTimes& times = op.times();
  std::vector<const uint8_t*> given;
  const std::vector<SeriesRecord> all = op.agree<SeriesRecord>(input_error, [&] {
    check_write(step, box, data, given);
    times.lap(kCheck);
    const double age = w_ && !w_->buffered.empty()
                           ? std::chrono::duration<double>(std::chrono::steady_clock::now() - w_->window_start).count()
                           : 0.0;
    SeriesRecord r{{box.lo[0], box.lo[1], box.lo[2], box.hi[0], box.hi[1], box.hi[2]}, step, age};
    return r;
  });
  times.lap(kAgree);
  std::vector<GridBox> boxes;
  for (const SeriesRecord& r : all) {
    if (r.step != all[0].step)
      fail(ErrorCode::kInvalidArgument, "ranks write different steps of series '", name_, "': rank 0 step ",
           all[0].step, ", another step ", r.step);
    boxes.push_back(GridBox{{r.box[0], r.box[1], r.box[2]}, {r.box[3], r.box[4], r.box[5]}});
  }
  if (!w_) plan_first_write(box, boxes);
  times.lap(kPlan);
  SeriesWriter& w = *w_;
  const SeriesMeta& m = meta();
  const size_t k = w.buffered.size();
  for (size_t v = 0; v < m.variables.size(); ++v) {
    const uint64_t b = chunk_bytes(m.variables[v], box, 1);
    std::memcpy(w.buffers[v].data() + k * b, given[v], b);
  }
  if (w.buffered.empty()) w.window_start = std::chrono::steady_clock::now();
  w.buffered.push_back(step);
  times.lap(kBuffer);
  // Rank 0's clock decides for every rank: a window whose first step is max_window_seconds old
  // is written now, full or not.
  const bool aged = all[0].window_age >= m.settings.max_window_seconds;
  pending->step = step;
  pending->flush = w.buffered.size() == w.d_tar || aged;
  if (async) pending->path = st.async_path();
  try {
    if (async && pending->flush && st.helper_mpi) {   // aggregated and written on the helper thread
      pending->helper_comm = helper_comm_;
      PendingSeriesWindow* raw = pending.get();
      pending->helper = std::thread([this, raw] {
        raw->op.run_locally([&] {   // its errors are the window's, raised at the commit on every rank
          aggregate_window(*raw, true, *raw->helper_comm);
          write_window_files(*raw, *ds_);
        });
        raw->written.store(true, std::memory_order_release);
      });
      pending_ = std::move(pending);
      return;
    }
    if (pending->flush) aggregate_window(*pending, !async, comm);
    if (async && pending->flush) {
      PendingSeriesWindow* raw = pending.get();
      const DatasetState* state = &st;
      pending->helper = std::thread([raw, state] {
        write_window_files(*raw, *state);   // records its errors in the window's operation
        raw->written.store(true, std::memory_order_release);
      });
      pending_ = std::move(pending);
      return;
    }
    if (pending->flush) write_window_files(*pending, st);
    finish_write(*pending);
  } catch (...) {
    w.buffered.pop_back();   // this step is not written; the earlier buffered ones stay buffered
    throw;
  }
}

void SeriesGroup::flush(const std::optional<Error>& input_error) {
  wait_pending();
  DatasetState& st = *ds_;
  auto pending = std::make_shared<PendingSeriesWindow>(st.comm);
  CollectiveOp& op = pending->op;
  op.agree<int32_t>(input_error, [&] {
    st.require_writable();
    return 0;
  });
  if (!w_ || w_->buffered.empty()) return;   // every rank agrees: writes are collective
  op.times().lap(kAgree);
  pending->step = w_->buffered.back();
  pending->flush = true;
  aggregate_window(*pending, true, st.comm);
  write_window_files(*pending, st);
  finish_write(*pending);
}

void SeriesGroup::finish_write(PendingSeriesWindow& p) {
  CollectiveOp& op = p.op;
  const int64_t step = p.step;
  const bool flush = p.flush;
  DatasetState& st = *ds_;
  SeriesWriter& w = *w_;
  SeriesMeta& m = *st.manifest.find_series(name_);
  const uint32_t n = static_cast<uint32_t>(w.buffered.size());
  const WindowWrite& ww = p.ww;
  const SeriesWindowHead& head = p.head;
  op.times().restart();   // an asynchronous window's commit comes later: the time between is the caller's
  SeriesWindowRecord rec;
  rec.file = window_file_name(w.buffered.front());
  rec.steps = w.buffered;
  rec.bytes = head.file_bytes;
  ByteWriter mine;
  mine.put<uint64_t>(ww.moved);
  mine.put<uint64_t>(ww.writer ? 1 : 0);
  uint64_t moved = 0, writers = 0;
  const std::string tmp = window_tmp(st, name_, w.buffered.front());
  const Verdict v = op.finish(
      std::move(mine.bytes()),
      [&](std::span<const RankOutcome> outcomes) {
        for (const RankOutcome& o : outcomes) {
          ByteReader r(o.payload.data(), o.payload.size(), "series write outcome");
          moved += r.get<uint64_t>("moved");
          writers += r.get<uint64_t>("writer");
        }
        if (flush) commit_window(head, rec, tmp);
        ByteWriter sum;
        sum.put<uint64_t>(moved);
        sum.put<uint64_t>(writers);
        return std::move(sum.bytes());
      },
      [&] {
        if (flush) ::unlink(tmp.c_str());
      });
  ByteReader r(v.summary.data(), v.summary.size(), "series write summary");
  moved = r.get<uint64_t>("moved");
  writers = r.get<uint64_t>("writers");
  if (flush) {
    if (st.comm.rank() != 0) {
      if (!m.planned()) record_plan(m, w);
      m.windows.push_back(rec);
    }
    w.buffered.clear();
    read_plan_.reset();
  }
  SeriesWriteProfile prof;
  prof.step = step;
  prof.ranks = st.comm.size();
  prof.flushed = flush;
  prof.window_steps = flush ? n : 0;
  prof.bytes = head.file_bytes;
  prof.aggregated_bytes = moved;
  prof.writers = static_cast<uint32_t>(writers);
  prof.total_s = v.total_s;
  prof.async_path = p.path;
  prof.blocked_s = v.total_s;   // a write holds the caller throughout
  for (const PhaseTiming& t : v.threads)
    if (t.name == "blocked") prof.blocked_s = t.max_s;   // an asynchronous window: its calls, slowest rank
  prof.phases = v.phases;
  profile_ = std::move(prof);
}

void SeriesGroup::aggregate_window(PendingSeriesWindow& p, bool stream, const Comm& comm) {
  CollectiveOp& op = p.op;
  DatasetState& st = *ds_;
  const uint32_t me = static_cast<uint32_t>(comm.rank());
  PhaseTimes& times = op.times();
  SeriesWriter& w = *w_;
  SeriesMeta& m = *st.manifest.find_series(name_);
  const SarPlan& sar = *w.sar;
  const size_t V = m.variables.size();
  const uint32_t n = static_cast<uint32_t>(w.buffered.size());
  WindowWrite& out = p.ww;

  // ---- aggregate: level by level, each hop from the level-(L−1) aggregator to the level-L one ----
  std::vector<Piece> hold(V);
  for (size_t v = 0; v < V; ++v) {
    hold[v].box = var_box(m.variables[v], w.box);
    hold[v].data = w.buffers[v].data();
  }
  w.aggregates.resize(w.d_sar);
  p.chunk = sar.chunk_of_rank(me);
  p.chunks = static_cast<uint32_t>(sar.chunks().size());
  p.head = planned_window_head(name_, m.variables, sar, w.buffered.front(), n);
  p.tmp = window_tmp(st, name_, w.buffered.front());
  const uint32_t held = stream && w.d_sar > 0 ? w.d_sar - 1 : w.d_sar;   // levels aggregated whole
  for (uint32_t L = 1; L <= held; ++L) {
    w.aggregates[L - 1].resize(V);
    std::vector<Piece> next(V);
    Exchange ex(comm);
    for (uint32_t v = 0; v < V; ++v) {
      const SeriesVariable& var = m.variables[v];
      const uint64_t sample = var.sample_bytes();
      if (sar.aggregator(v, L - 1, me) == me) {
        const uint32_t to = sar.aggregator(v, L, me);
        const uint64_t bytes = chunk_bytes(var, hold[v].box, n);
        if (to != me) {
          ex.isend_ranges({{hold[v].data, bytes}}, static_cast<int>(to), kTagSar);
          out.moved += bytes;
        }
      }
      if (sar.aggregator(v, L, me) != me) continue;
      Piece& p = next[v];
      p.box = var_box(var, sar.group_box(L, me));
      std::vector<uint8_t>& own = w.aggregates[L - 1][v];
      own.resize(chunk_bytes(var, p.box, n));
      p.data = own.data();
      const uint64_t step_bytes = chunk_bytes(var, p.box, 1);
      for (uint32_t s : sar.senders(v, L, me)) {
        const GridBox part = var_box(var, sar.group_box(L - 1, s));
        std::vector<Exchange::SubBox> slabs(n);
        for (uint32_t t = 0; t < n; ++t) slabs[t] = sub_box(p.data + t * step_bytes, p.box, part, sample);
        if (s == me) {
          const uint64_t part_step = chunk_bytes(var, part, 1);
          for (uint32_t t = 0; t < n; ++t)
            copy_region(hold[v].data + t * part_step, part, p.data + t * step_bytes, p.box, part, sample);
        } else {
          ex.irecv_boxes(slabs, static_cast<int>(s), kTagSar);
        }
      }
    }
    ex.wait_all();
    for (uint32_t v = 0; v < V; ++v)
      if (sar.aggregator(v, L, me) != me) next[v] = Piece{};
    hold = std::move(next);
  }
  if (held < w.d_sar) {   // the last hop, streamed into the file: nothing left to write after it
    std::vector<std::vector<uint8_t>>().swap(w.aggregates[w.d_sar - 1]);
    streamed_top(p, comm, sar, m.variables, hold, n, w.d_sar, st.options.fsync);
    hold.assign(V, Piece{});
    malloc_trim(0);   // its window and message lists back to the system (glibc keeps them in the heap)
  }
  times.lap(kAggregate);

  for (uint32_t v = 0; v < V; ++v)   // the chunks this rank writes: of the variables it aggregates at the top
    if (sar.aggregator(v, w.d_sar, me) != me) hold[v] = Piece{};
  p.hold = std::move(hold);
}

void SeriesGroup::commit_window(const SeriesWindowHead& head, const SeriesWindowRecord& rec, const std::string& tmp) {
  DatasetState& st = *ds_;
  SeriesMeta& m = *st.manifest.find_series(name_);
  const std::string dir = join_path(st.path, name_);
  const std::string final_path = join_path(dir, rec.file);
  const std::vector<uint8_t> bytes = encode_series_head(head);
  {
    File f(tmp, File::Mode::kShare);
    f.truncate(head.file_bytes);
    f.pwrite_all(bytes.data(), bytes.size(), 0);
    if (st.options.fsync) f.sync();
  }
  rename_file(tmp, final_path);
  if (st.options.fsync) sync_directory(dir);
  const bool first = !m.planned();
  if (first) record_plan(m, *w_);
  m.windows.push_back(rec);
  try {
    st.write_manifest();
  } catch (...) {
    m.windows.pop_back();
    if (first) m.cuts = {};
    ::unlink(final_path.c_str());
    throw;
  }
}

}  // namespace lodex
