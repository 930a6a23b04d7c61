// Grid variables of a lodex dataset: multiresolution IDX datasets (<name>.idx beside the
// manifest) written collectively by MPI ranks, each passing its box of the grid, and read by any
// number of processes (pipelines/grids/grid_reader.cpp) or by OpenVisus. Everything that fails throws
// lodex::Error.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "layout/grid_plan.hpp"
#include "layout/grid_read_plan.hpp"
#include "pipelines/grids/idx_dataset.hpp"
#include "pipelines/dataset.hpp"

namespace lodex {

// What a grid definition says (Dataset::grid). bits_per_block 0: 15, or the grid's whole index
// if that is shorter.
struct GridSpec {
  std::array<uint64_t, 3> dims{1, 1, 1};
  int ndims = 3;
  std::vector<FieldSpec> fields;
  std::string bitmask;             // "": derived from the rank layout at the first write
  int bits_per_block = 0;
  uint64_t blocks_per_file = 256;
  std::string aggregation = "localized";
  uint32_t partitions = 1;          // a power of two (Kumar et al. 2017 §IV)
  std::string index_space = "global";   // or "local": one IDX dataset per partition
  bool zip = false;
};

// One partition's IDX dataset of a grid written in the local index space.
struct GridPartDataset {
  uint32_t partition = 0;
  GridBox box;                     // where it lies in the grid (its own coordinates start at 0)
  std::string idx_path;
};

// Per-phase timings of one collective grid write, reduced over ranks, with the per-level
// breakdown of Table III of Kumar et al. 2011.
struct GridWriteProfile {
  int64_t step = -1;
  int ranks = 0;
  uint32_t aggregators = 0, files = 0;
  uint64_t bytes = 0;                 // binary files written
  uint64_t restructured_bytes = 0;    // moved to brick owners
  uint64_t aggregated_bytes = 0;      // moved to aggregators (self copies included)
  std::string bitmask, rank_order;
  int brick_bits = 0;
  uint32_t partitions = 1;
  std::string index_space = "global";
  bool fsync = false;
  double total_s = 0;
  double blocked_s = 0;               // the time the step's calls held the caller, slowest rank: total_s
                                      // for write; write_async plus the wait for its files otherwise
  // Where an asynchronous step was aggregated: "helper-mpi" (streamed on the helper thread, over
  // the grid's own communicator) or "caller-aggregates" (in the call); "blocking" for write.
  std::string async_path = "blocking";
  std::vector<PhaseTiming>
      phases;    // check, agree, plan, restructure, hz_encode, aggregate, compress, file_write, commit
  struct Level {
    int level = 0;
    uint64_t blocks = 0, bytes = 0;   // blocks of this level written, their payload bytes
    double encode_s = 0;              // slowest rank's HZ encoding of this level
    double write_s = 0;               // slowest rank's write time, apportioned to levels by bytes
  };
  std::vector<Level> levels;          // block 0 (levels 0..bits_per_block) counts as level bits_per_block
  std::string to_json() const;
};

struct GridScratch;
struct PendingGridStep;
class Comm;

class GridGroup {
 public:
  const std::string& name() const { return name_; }
  const GridMeta& meta() const;
  // The .idx of the global index space (throws Unsupported for a grid in the local index space:
  // see part_datasets).
  std::string idx_path() const;
  // Local index space: the partitions' IDX datasets (those holding samples), once the first
  // write has fixed the template; empty otherwise.
  std::vector<GridPartDataset> part_datasets() const;
  std::vector<int64_t> steps() const;

  // Collective over the dataset's communicator: every rank passes the same step and its box
  // (x first, exclusive max; empty when it holds nothing) with every field as a row-major
  // (z, y, x, components) array of the box's samples. The boxes must tile the grid.
  // `input_error`: a language binding could not convert this rank's arguments; the rank still
  // takes part, and every rank raises that error.
  void write(int64_t step, const GridBox& box, std::span<const FieldView> fields,
             const std::optional<Error>& input_error = std::nullopt);
  // An asynchronous step, collective like write: the check, the agreement, the plan, the
  // restructure and the hz encoding run before it returns, so the caller's arrays are no longer
  // read then (their samples are in the encoded bricks). Raw blocks of a grid without partitions
  // are then gathered and written on a helper thread as write streams them, a window at a time,
  // over a duplicate of the dataset's communicator made at the grid's first such step
  // ("helper-mpi"). Without MPI_THREAD_MULTIPLE (or with LODEX_ASYNC_PATH=caller-aggregates), and
  // for zipped or partitioned grids, the call aggregates (and compresses) into the files' unit
  // buffers and the helper, which then makes no MPI call, writes them ("caller-aggregates"). The commit
  // (collective) happens at the grid's next collective call: the next write or write_async,
  // wait_pending, truncate, or the dataset's close, truncate or group definitions. One step is in
  // flight at a time: the next one first completes it. An error of the pending step is raised
  // there, on every rank, and it commits nothing.
  void write_async(int64_t step, const GridBox& box, std::span<const FieldView> fields,
                   const std::optional<Error>& input_error = std::nullopt);
  // Collective: completes and commits the pending step, if any (its profile becomes profile()).
  void wait_pending();
  // Collective: wait_pending when `step` is the pending one (one step in flight per group).
  void wait_step(int64_t step) {
    if (pending_step() == step) wait_pending();
  }
  // Local: whether step `step`'s files are written (true when it is not pending).
  bool step_written(int64_t step) const { return pending_step() != step || pending_done(); }
  // Local: whether this rank's files of the pending step are written (true when none is pending).
  bool pending_done() const;
  int64_t pending_step() const;   // -1 when none is pending
  const GridWriteProfile& profile() const { return profile_; }
  // Collective (append mode): removes every committed step after `after` (-1: all), as
  // ParticleGroup::truncate (a pending step commits first); the .idx time range then ends at the last step kept.
  Truncation truncate(int64_t after, const std::optional<Error>& input_error = std::nullopt);

  // A committed step's IDX dataset, for reads (time = step); global index space only.
  IdxDataset open_step(int64_t step) const;
  // Local index space: every partition's IDX dataset, for reads of a committed step.
  std::vector<std::pair<GridPartDataset, IdxDataset>> open_parts(int64_t step) const;

  // The part rank `rank` of `size` reads of `field` at `step` over `box` (none: the whole grid) at
  // `resolution` (none: full): the whole box when size == 1, else an equal share of the
  // resolution's lattice planes along the slowest axis (GridReadPart and plan_grid_read:
  // layout/grid_read_plan.hpp). Validates step (NotFound when not committed), field (NotFound
  // naming the fields), resolution (InvalidArgument, 0..max) and box (InvalidArgument: max < min
  // or outside the grid; a box without extent on some axis is an empty read). Local, no MPI.
  GridReadPart read_part(const std::string& field, int64_t step, const std::optional<GridBox>& box,
                         std::optional<int> resolution, int rank = 0, int size = 1) const;
  // The samples of that part, row-major (z, y, x, components); an empty part gives a zero-size
  // array of the part's dtype and shape. comm == MPI_COMM_NULL: serial, the whole box. Otherwise
  // collective over comm: each rank reads read_part(..., rank, size) and an error on any rank is
  // raised on every rank. Either index space: the local one gathers each partition's samples.
  // `input_error`: a language binding could not convert this rank's arguments; the rank still
  // takes part, and every rank raises that error.
  GridArray read(const std::string& field, int64_t step, const std::optional<GridBox>& box,
                 std::optional<int> resolution, MPI_Comm comm = MPI_COMM_NULL, IdxReadStats* stats = nullptr,
                 const std::optional<Error>& input_error = std::nullopt) const;

 private:
  friend class Dataset;
  void require_step(int64_t step) const;
  GridReadSpace read_space() const;
  GridArray read_parts(const GridReadPart& part, const std::string& field, int64_t step, IdxReadStats& stats) const;
  std::shared_ptr<PendingGridStep> begin_step(int64_t step, const GridBox& box, std::span<const FieldView> fields,
                                              const std::optional<Error>& input_error, bool stream,
                                              bool defer_stream = false);
  GridGroup(std::shared_ptr<DatasetState> ds, std::string name) : ds_(std::move(ds)), name_(std::move(name)) {}
  std::shared_ptr<DatasetState> ds_;
  std::string name_;
  GridWriteProfile profile_;
  std::shared_ptr<GridScratch> scratch_;   // brick and unit buffers kept from step to step
  std::shared_ptr<Comm> part_comm_;          // this rank's partition (partitions > 1)
  std::vector<uint32_t> part_of_rank_;       // every rank's partition when part_comm_ was made
  std::shared_ptr<PendingGridStep> pending_;   // an asynchronous step not yet committed
  // The helper thread's duplicate of the dataset's communicator ("helper-mpi"; made at the first
  // step that takes that path): only the helper uses it, and only while a step is pending.
  std::shared_ptr<Comm> helper_comm_;
};

// After a truncate commits (rank 0; pipelines/truncate.cpp): the grid's .idx header(s) say the
// time range of the steps left (removed when none is), then the folders of every step after
// `after` go, blocks and checksums, leftovers of uncommitted writes included.
void truncate_grid_files(const GridMeta& g, const std::string& root, int64_t after, bool fsync);
// On opening for append, with the writer lock held (rank 0): removes the step folders of steps
// the manifest does not list, which only a write that failed or was killed leaves.
void remove_uncommitted_grid_steps(const GridMeta& g, const std::string& root);

}  // namespace lodex
