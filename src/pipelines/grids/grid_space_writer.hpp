// One IDX dataset of one step of a grid write, collectively (Kumar et al. 2017 §III-§V, Kumar et al. 2011):
//   restructure  parts of boxes lying in other ranks' bricks go to the bricks' owners
//   hz_encode    each owned brick, field by field, into its local hz order (one pass per level)
//   aggregate    each unit (one field of one file) gathers its bricks' runs at its aggregator
//   compress     zlib per block when asked (then the units' sizes are agreed on)
//   file_write   each aggregator writes its field's table slice and blocks of the file
// Messages use MPI derived datatypes over the callers' and the bricks' memory, so nothing is
// packed by hand; a rank's messages to itself are plain copies. Internal to pipelines/grids.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "format/idx.hpp"
#include "layout/grid_plan.hpp"
#include "mpi/comm.hpp"
#include "pipelines/collective.hpp"

namespace lodex {

// A dense row-major (z, y, x) array covering `box`, one pointer per field.
struct ArrayView {
  GridBox box;
  std::vector<const uint8_t*> data;
  std::array<uint64_t, 3> stride(size_t sample) const;
  // Byte offset of grid point p inside the array.
  uint64_t offset(const std::array<int64_t, 3>& p, size_t sample) const;
  Exchange::SubBox sub(size_t field, const GridBox& part, size_t sample) const;
};

// One IDX dataset of one step, in its own coordinates: the whole grid (global index space) or
// one partition's box (local index space, Kumar et al. 2017 §IV).
struct SpaceTarget {
  GridPlanInput in;                  // dims, template, partitions, boxes of the space's ranks
  std::string idx_dir, idx_name;     // blocks under <idx_dir>/<idx_name>/<time dir>/
  std::string tdir;
  int64_t step = 0;
  std::vector<IdxField> fields;      // as the .idx header names them (the block checksums' identity)
  bool zip = false, fsync = false;
  int level_shift = 0;               // local level + shift = the grid's level
  const Comm* part = nullptr;        // global index space with partitions: this rank's partition
};

// What one rank wrote, for the profile and the step's record.
struct SpaceOutcome {
  uint64_t bytes = 0;                // tables and blocks this rank wrote
  uint64_t files = 0;                // files whose table header this rank wrote
  bool aggregator = false;
  uint64_t restructured = 0, aggregated = 0;
  int brick_bits = 0;
  std::vector<double> encode_s, write_s;          // per level of the grid
  std::vector<uint64_t> level_blocks, level_bytes;
};

// Buffers and the plan a grid keeps for the next step: pages are mapped once, and the plan is
// made again only when its input changes.
struct GridScratch {
  std::vector<std::vector<uint8_t>> dense, encoded;   // restructured bricks; encoded [brick * F + field]
  std::map<size_t, std::vector<uint8_t>> units;       // unit index -> file-sized buffer
  std::unique_ptr<GridPlanInput> plan_input;
  std::unique_ptr<GridPlan> plan;
};

// Phase indices in the caller's PhaseTimes (grid_writer.cpp).
enum GridPhase {
  kGridCheck,
  kGridAgree,
  kGridPlan,
  kGridRestructure,
  kGridEncode,
  kGridAggregate,
  kGridCompress,
  kGridFileWrite,
  kGridCommit,
  kGridPhases
};

// Writes the space's files, collectively over `comm` (and t.part). A failure on this rank is
// recorded in `op` (the rank still takes part in every collective step that follows).
// write_space = prepare_space, then write_space_files.
void write_space(const Comm& comm, const SpaceTarget& t, const ArrayView& mine, const std::vector<size_t>& sample,
                 GridScratch& scratch, CollectiveOp& op, SpaceOutcome& out);

// The collective phases, restructure to compress (and the zipped units' agreed sizes), on the
// calling thread: when it returns, the caller's arrays (`mine`) are no longer read, and what the
// file writes need is in `scratch` and the returned state, which refers to t, sample, scratch and
// out: they must outlive it. `stream` (a blocking write): raw blocks of a space without
// partitions are gathered and written here a window of blocks at a time, so an aggregator holds
// a window (256 KiB or one block), not its files; write_space_files then writes nothing.
struct SpaceWrite;
// `defer_stream` (with `stream`, an asynchronous step): the gather (streamed with the writes for
// raw blocks; aggregate and compress with the zipped units' agreed sizes for zipped ones, a space
// without partitions) is left to gather_space_files.
std::shared_ptr<SpaceWrite> prepare_space(const Comm& comm, const SpaceTarget& t, const ArrayView& mine,
                                          const std::vector<size_t>& sample, GridScratch& scratch, CollectiveOp& op,
                                          SpaceOutcome& out, bool stream, bool defer_stream = false);
// The gather prepare_space deferred (the streamed gather and writes, or a zipped grid's aggregate
// and compress), collectively over `comm` (the same ranks as prepare_space's, in the same order:
// its duplicate, on a helper thread). Failures are recorded in `op` as the blocking write does. Its waits are busy, as the blocking stream's: sleeping
// between polls (the collectives' polite waits) made a step 7-8 x slower (MPI moves a large
// message only while it is polled).
void gather_space_files(SpaceWrite& w, const Comm& comm, CollectiveOp& op);
// file_write: this rank's units, their tables and block checksums. No MPI call (it may run on a
// helper thread); skipped when the operation failed already; a failure is recorded in `op`.
void write_space_files(SpaceWrite& w, CollectiveOp& op);

}   // namespace lodex
