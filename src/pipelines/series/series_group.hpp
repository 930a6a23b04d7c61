// Series of a lodex dataset (Tian et al. 2013, STAR): many small 2-D and 3-D variables of a regular grid
// written every step by ranks that each hold one box of a 2-D or 3-D domain decomposition. Steps
// are buffered per rank for d_tar steps (temporal aggregation), merged level by level in groups
// of 2^n neighbouring ranks (d_sar levels of spatial aggregation), and written as one window
// file per d_tar steps (docs/formats/series.md). Readers take any hyperslab of a variable and
// read only the checksummed blocks holding it. Everything that fails throws lodex::Error.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "layout/series_plan.hpp"
#include "layout/series_read_plan.hpp"
#include "pipelines/dataset.hpp"

namespace lodex {

struct SeriesWindowHead;
struct SeriesWindowRecord;
class CollectiveOp;
class Comm;
class File;
struct PendingSeriesWindow;   // a window between its aggregation and its commit (series_writer.cpp)
struct SeriesWriter;     // this rank's plan and window buffers (pipelines/series/series_writer.cpp)
struct SeriesReadPlan;   // the chunks of the written decomposition (pipelines/series/series_reader.cpp)

// What a series definition says (Dataset::series): the grid (x, y, z), the variables, and the
// coordination settings (memory budget, forced degrees, file system costs).
struct SeriesSpec {
  std::array<int64_t, 3> dims{1, 1, 1};
  std::vector<SeriesVariable> variables;
  StarSettings settings;
};

// One collective series write, reduced over ranks. A write that completes a window flushes it.
struct SeriesWriteProfile {
  int64_t step = -1;
  int ranks = 0;
  bool flushed = false;          // this write wrote a window
  uint32_t window_steps = 0;     // steps in that window
  uint64_t bytes = 0;            // its file's bytes
  uint64_t aggregated_bytes = 0; // moved between ranks by spatial aggregation (all levels)
  uint32_t writers = 0;          // ranks that wrote chunks
  double total_s = 0;            // slowest rank
  double blocked_s = 0;          // the time the step's calls held the caller, slowest rank: total_s
                                 // for write; write_async plus the wait for its window otherwise
  // Where an asynchronous window was aggregated: "helper-mpi" (on the helper thread, over the
  // series' own communicator) or "caller-aggregates" (in the call); "blocking" for write and flush.
  std::string async_path = "blocking";
  std::vector<PhaseTiming> phases;   // check, agree, plan, buffer, aggregate, file_write, commit
  std::string to_json() const;
};

// What one read cost.
struct SeriesReadStats {
  uint64_t windows = 0;          // window files opened
  uint64_t chunks = 0;           // (window, chunk) pairs read from
  uint64_t blocks = 0;           // data blocks verified and used
  uint64_t requests = 0;         // read calls, heads and checksums included
  uint64_t head_requests = 0;    // of requests: window headers and the variable's chunk-table entries
  uint64_t checksum_requests = 0;   // of requests: block checksums
  uint64_t bytes_read = 0;       // everything read, heads and checksums included
  uint64_t head_bytes = 0;       // of bytes_read: headers and the variable's chunk-table entries
  uint64_t checksum_bytes = 0;   // of bytes_read: block checksums
  uint64_t merge_gap = 0;        // the gap the read merged over (see read)
  uint64_t bytes_returned = 0;
  double seconds = 0;
};

// A hyperslab of one variable: shape (steps, z, y, x), z = 1 for a 2-D variable, C order.
struct SeriesArray {
  DType dtype = DType::kF4;
  std::array<uint64_t, 4> shape{0, 0, 0, 0};
  HeapBytes bytes;
};

// What one rank reads of a series read: its steps and its box (split_series_read,
// layout/series_read_plan.hpp), the shape and dtype of its answer.
struct SeriesReadPart {
  std::vector<int64_t> steps;    // this rank's steps
  GridBox box;                   // this rank's box (x first, exclusive max; z = [0,1) for 2-D vars)
  std::array<uint64_t, 4> shape{0, 0, 0, 0};   // (steps, z, y, x); z = 1 for 2-D variables
  DType dtype = DType::kF4;
  uint64_t bytes() const;
};

class SeriesGroup {
 public:
  const std::string& name() const { return name_; }
  const SeriesMeta& meta() const;
  std::vector<int64_t> steps() const;            // flushed: readable by anyone
  std::vector<int64_t> buffered_steps() const;   // written here, not yet flushed
  // The degrees this writer chose at its first write (before the first window is in the
  // manifest), or nullptr before it.
  const StarChoice* planned_choice() const;

  // Collective over the dataset's communicator: every rank passes the same step, its box (x
  // first, exclusive max; the same box at every step) and every variable over its box, row-major
  // (z, y, x) — (y, x) for 2-D variables. Steps increase. The write that completes d_tar steps
  // writes them as one window file. Errors are raised on every rank.
  // `input_error`: a language binding could not convert this rank's arguments; the rank still
  // takes part, and every rank raises that error.
  void write(int64_t step, const GridBox& box, std::span<const FieldView> data,
             const std::optional<Error>& input_error = std::nullopt);
  // An asynchronous step, collective like write: the step is copied into this rank's window
  // buffers before it returns (the caller's arrays are not read after). A write that completes a
  // window hands it to a helper thread, which aggregates it as write does (the last hop streamed
  // into the file) over a duplicate of the dataset's communicator made at the series' first
  // asynchronous write, and writes its chunks and block checksums ("helper-mpi"). Without
  // MPI_THREAD_MULTIPLE (or with LODEX_ASYNC_PATH=caller-aggregates) the call aggregates it (the
  // exchanges, the top aggregates kept whole) and the helper, which then makes no MPI call, only
  // writes the files ("caller-aggregates"). The window commits (collective) at
  // the series' next collective call: the next write or write_async, wait_pending, flush,
  // truncate, or the dataset's close, truncate or group definitions. A step that completes no
  // window is done when the call returns. One window is in flight at a time. An error of the
  // pending window is raised there, on every rank; it commits nothing and, as with write, the step
  // that completed it is lost and the window's earlier steps stay buffered.
  void write_async(int64_t step, const GridBox& box, std::span<const FieldView> data,
                   const std::optional<Error>& input_error = std::nullopt);
  // Collective: completes and commits the pending window, if any (its profile becomes profile()).
  void wait_pending();
  // Collective: wait_pending when `step` is the pending one (one step in flight per group).
  void wait_step(int64_t step) {
    if (pending_step() == step) wait_pending();
  }
  // Local: whether step `step`'s files are written (true when it is not pending).
  bool step_written(int64_t step) const { return pending_step() != step || pending_done(); }
  // Local: whether this rank's files of the pending window are written (true when none is pending).
  bool pending_done() const;
  int64_t pending_step() const;   // the step whose write completed the pending window; -1: none
  // Collective: writes the buffered steps (fewer than d_tar) as one window. Dataset::close calls it.
  void flush(const std::optional<Error>& input_error = std::nullopt);
  const SeriesWriteProfile& profile() const { return profile_; }
  // Collective (append mode): removes every flushed step after `after` (-1: all) and drops the
  // buffered ones after it. Windows go whole: `after` inside a window (steps of it on both sides)
  // is an InvalidArgument naming the window and the steps a truncate may keep, nothing removed.
  Truncation truncate(int64_t after, const std::optional<Error>& input_error = std::nullopt);

  // Rank `rank` of `size`'s part of a read of `var` at `steps` (ascending or not, no repeats;
  // empty: every flushed step) over `box` (none: the whole grid; z ignored for 2-D variables): a
  // share of the steps when there are at least `size` of them, else of the slowest spatial axis
  // with an extent (split_series_read). Validates the box (InvalidArgument: empty or outside the
  // grid), var (NotFound) and steps (InvalidArgument for repeats, NotFound for steps not
  // flushed). Local, no MPI.
  SeriesReadPart read_part(const std::string& var, const std::vector<int64_t>& steps, const std::optional<GridBox>& box,
                           int rank = 0, int size = 1) const;
  // Serial: read(var, steps, box, merge_gap, MPI_COMM_NULL).
  SeriesArray read(const std::string& var, const std::vector<int64_t>& steps, const std::optional<GridBox>& box,
                   std::optional<uint64_t> merge_gap = std::nullopt) const;
  // The samples of read_part(var, steps, box, rank, size), shape (steps, z, y, x); an empty part
  // gives a zero-size array. comm == MPI_COMM_NULL: serial, the whole read. Otherwise collective
  // over comm, an error on any rank raised on every rank. Only the chunks the box meets are
  // read, and of each only the blocks holding rows it needs, each checked against its checksum.
  // Two needed byte ranges at most `merge_gap` apart in a file are one request (the gap is read
  // and dropped); none: the break-even of the series' settings, bw_io × ts (a request costs ts,
  // a byte 1 / bw_io), at most kMaxMergeGap. `input_error`: a language binding could not convert
  // this rank's arguments; the rank still takes part, and every rank raises that error.
  SeriesArray read(const std::string& var, const std::vector<int64_t>& steps, const std::optional<GridBox>& box,
                   std::optional<uint64_t> merge_gap, MPI_Comm comm,
                   const std::optional<Error>& input_error = std::nullopt) const;
  static constexpr uint64_t kMaxMergeGap = uint64_t{1} << 20;
  uint64_t default_merge_gap() const;
  // This rank's last read (zeros when its part was empty).
  const SeriesReadStats& last_read_stats() const { return read_stats_; }

 private:
  friend class Dataset;
  SeriesGroup(std::shared_ptr<DatasetState> ds, std::string name);
  struct WindowWrite {
    uint64_t moved = 0;    // bytes this rank sent in the spatial aggregation
    bool writer = false;   // it wrote chunks
  };
  void check_write(int64_t step, const GridBox& box, std::span<const FieldView> data,
                   std::vector<const uint8_t*>& given) const;
  void plan_first_write(const GridBox& box, const std::vector<GridBox>& boxes);
  friend struct PendingSeriesWindow;
  void write_step(int64_t step, const GridBox& box, std::span<const FieldView> data,
                  const std::optional<Error>& input_error, bool async);
  // The window's spatial aggregation (collective over `comm`: the dataset's, or on the helper
  // thread the series' own), then what its file writes need into `p`. `stream`: its last hop is
  // gathered and written a window of slabs at a time (no top aggregate held; the file writes are
  // done then).
  void aggregate_window(PendingSeriesWindow& p, bool stream, const Comm& comm);
  // Gathers the outcomes, commits the window when `p` writes one, and sets the profile.
  void finish_write(PendingSeriesWindow& p);
  void commit_window(const SeriesWindowHead& head, const SeriesWindowRecord& rec, const std::string& tmp);
  // After a truncate committed: buffered steps after `after` dropped, cached window heads forgotten
  // (a window written again under the same file name is another file).
  void forget_after(int64_t after);
  // The plan's head of a window, its header checked on the window's first read and variable v's
  // chunk-table entries on v's first read in it (series_reader.cpp).
  const SeriesWindowHead& window_head(size_t window, uint32_t v, const File& f, const std::string& path,
                                      uint64_t gap) const;
  const SeriesReadPlan& read_plan() const;
  uint32_t variable_index(const std::string& var) const;
  // (window, slot in the window) of each step; NotFound for a step not flushed.
  std::vector<std::pair<size_t, uint32_t>> locate_steps(const std::vector<int64_t>& steps) const;
  SeriesArray read_part_data(const SeriesReadPart& part, uint32_t v, std::optional<uint64_t> merge_gap) const;
  void read_window(const File& f, const std::string& path, const SeriesWindowHead& head, const SeriesVariable& variable,
                   const SeriesWindowRead& plan, uint64_t gap, uint8_t* out, std::vector<uint8_t>& data,
                   std::vector<uint8_t>& sums) const;

  std::shared_ptr<DatasetState> ds_;
  std::string name_;
  std::shared_ptr<SeriesWriter> w_;
  std::shared_ptr<PendingSeriesWindow> pending_;   // an asynchronous window not yet committed
  // The helper thread's duplicate of the dataset's communicator ("helper-mpi"; made at the first
  // asynchronous write): only the helper uses it, and only while a window is pending.
  std::shared_ptr<Comm> helper_comm_;
  SeriesWriteProfile profile_;
  mutable SeriesReadStats read_stats_;
  mutable std::shared_ptr<SeriesReadPlan> read_plan_;
  // Heads of committed windows (the plan's), by file: their files never change, so a window's
  // header is checked once and each variable's chunk-table entries once.
  struct CheckedHead {
    std::shared_ptr<const SeriesWindowHead> head;
    std::vector<bool> checked;   // by variable
  };
  mutable std::map<std::string, CheckedHead> heads_;
  // The plan's head of a window of so many steps (its first step 0): the same for every window
  // of that length, so computed once per length, not per window.
  std::shared_ptr<const SeriesWindowHead> planned_head(uint32_t steps) const;
  mutable std::map<uint32_t, std::shared_ptr<const SeriesWindowHead>> planned_heads_;

 public:
  ~SeriesGroup();
};

}  // namespace lodex
