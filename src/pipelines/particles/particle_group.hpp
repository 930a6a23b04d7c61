// Particle groups (the engine's C++ interface; the dataset is in pipelines/dataset.hpp): a
// collective write of a step, reads of boxes and levels of detail, value queries over bitmap
// indexes, progressive refinements. Everything that fails throws lodex::Error.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/box.hpp"
#include "core/error.hpp"
#include "core/schema.hpp"
#include "format/manifest.hpp"
#include "format/spatial_metadata.hpp"
#include "format/truncation.hpp"
#include "layout/binning.hpp"
#include "layout/lod_order.hpp"
#include "layout/particle_plan.hpp"
#include "layout/particle_read_plan.hpp"
#include "pipelines/group_types.hpp"

namespace lodex {

// What one read cost this rank.
struct ReadStats {
  uint64_t files_opened = 0;     // data files opened
  uint64_t bytes_read = 0;       // everything read: spatial metadata, file heads, column bytes
  uint64_t bytes_returned = 0;   // bytes of the returned columns
  uint64_t particles = 0;        // particles returned
  uint64_t metadata_bytes = 0;   // of bytes_read: the spatial metadata
  uint64_t head_bytes = 0;       // of bytes_read: data file headers and tables
  uint64_t requests = 0;         // read calls issued
  uint64_t candidates = 0;       // particles of the bricks meeting the query, over all readers
                                 // (known on every rank only for level-of-detail reads)
  uint32_t levels = 0;           // level-of-detail reads: the selection's levels; a level asked
                                 // past the last (levels - 1) read the whole selection
  double seconds = 0;
};

// How a parallel read shares the query among its ranks. kSpatial: the query box is cut into one
// box per rank, each holding an equal share of the particles the spatial metadata predicts; a
// rank gets exactly the particles in its box. kBytes: the files are laid end to end and cut
// into equal spans of predicted particles; a rank gets whole bricks of its span (its particles
// are not one box, but every rank reads about the same bytes).
enum class ReadSplit { kSpatial, kBytes };

// A particle read: a box (none: everything), fields (none: all), and at most one of a level of
// detail (the paper's levels for `lod.readers` readers, 0 = the communicator's size) or a
// fraction of the particles. Levels and fractions are fair samples of the query's particles.
struct ReadRequest {
  std::optional<Box> box;
  std::vector<std::string> fields;
  std::optional<uint32_t> level;
  std::optional<double> fraction;
  LodRequest lod{0, 32, 2};
  ReadSplit split = ReadSplit::kSpatial;
};

// Bitmap indexes (Byna et al. 2012 §II-B): which fields, and how their values are binned.
struct IndexSpec {
  std::vector<std::string> fields;   // empty: every field
  BinningSpec binning;               // default: precision binning, 3 significant digits
};
// What a collective index build did, summed over ranks.
struct IndexBuildStats {
  uint64_t steps = 0, files = 0, indexes = 0;   // indexes: index files written
  uint64_t rows = 0;                            // rows indexed, over every field component
  uint64_t column_bytes = 0;                    // bytes of the indexed columns
  uint64_t index_bytes = 0;                     // bytes of the index files written
  // seconds: this rank's wall time (every rank leaves with the last step's verdict); read_s .. write_s:
  // per step the slowest rank's (summed over its threads), summed over the steps.
  double seconds = 0, read_s = 0, bin_s = 0, encode_s = 0, write_s = 0;
  std::string to_json() const;
};

// A value query (layout/query.hpp) over one step, optionally inside a box and a level of detail.
struct ValueQuery {
  std::string text;
  std::optional<Box> box;              // only particles inside it
  // Only the particles of levels 0..level of detail: exactly those a read of the step and box with
  // this level and `lod` returns (lod.readers 0 = the communicator's size), so a query at a level
  // is the read at that level filtered.
  std::optional<uint32_t> level;
  LodRequest lod{0, 32, 2};
  std::vector<std::string> fields;     // fields of the matching particles to return (none: no data)
  bool rows = true;                    // false: count only
  bool use_index = true;               // false: scan every candidate file, for comparison
};
struct ValueQueryStats {
  uint64_t files = 0;             // data files of the step
  uint64_t files_pruned = 0;      // skipped from the spatial metadata (min/max, bounds)
  uint64_t files_indexed = 0;     // answered from bitmaps (candidate checks aside)
  uint64_t files_scanned = 0;     // read as a scan (no usable index for some field)
  uint64_t rows_checked = 0;      // candidate rows checked against their values
  uint64_t sure_rows = 0;         // rows the bitmaps answered without a check
  uint64_t index_bytes = 0, data_bytes = 0, requests = 0;
  double seconds = 0, index_s = 0, check_s = 0, data_s = 0;   // this rank
};
struct FileHits {
  std::string file;               // data file name (in the step's folder)
  std::vector<uint32_t> rows;     // matching rows of that file, ascending
};
struct ValueQueryResult {
  uint64_t count = 0;             // matching particles over all ranks
  uint64_t local_count = 0;       // of this rank's files
  std::vector<FileHits> files;    // this rank's files with matches (when rows were asked for)
  std::vector<FieldColumn> columns;   // the requested fields of those rows, file after file
  std::vector<std::string> notes;     // what was scanned instead of indexed, and why (all ranks)
  ValueQueryStats stats;
};

// A box's sample less samples already held (lodex serve's zoom): the first `take` particles of
// the box's sample order (a read at level 0 with P = take, S, by one reader) that none of `held`
// holds; a held sample is the same of its box and take, only its particles inside `clip` when one
// is given (min inclusive, max exclusive).
struct HeldSample {
  Box box;
  uint64_t take = 0;
  std::optional<Box> clip;
};
struct SampleDifference {
  Box box;
  uint64_t take = 0;
  double S = 2;
  std::vector<HeldSample> held;
  std::vector<std::string> fields;   // fields of the answer's particles (none: rows only)
  bool count_sample = false;         // also count the box's sample (every face position read)
};
struct SampleDifferenceResult {
  ValueQueryResult answer;        // count, rows per file, columns
  std::optional<uint64_t> sample;   // with count_sample: the box's sample before the held go
};

class ParticleQuery;

// Progressive refinement of one query: level after level (coarse to fine), only the particles
// new at each level; all levels together are exactly the full-resolution answer. Each next()
// is collective over the communicator the refinement was made with.
class Refinement {
 public:
  explicit Refinement(std::unique_ptr<ParticleQuery> q);
  ~Refinement();
  uint32_t levels() const;        // number of levels
  uint32_t next_level() const;    // the level next() returns; levels() when done
  bool done() const { return next_level() >= levels(); }
  std::vector<FieldColumn> next();
  const ReadStats& last_read_stats() const { return stats_; }

 private:
  std::unique_ptr<ParticleQuery> query_;
  uint32_t next_ = 0;
  ReadStats stats_;
};

class Dataset;
struct DatasetState;
struct WriteScratch;
struct PendingParticleStep;
struct StepBuffers;
// Frees what a particle group's write buffers hold collectively (its node's shared window): called
// on every rank by Dataset::close.
void release_collectively(WriteScratch& scratch);

class ParticleGroup {
 public:
  const std::string& name() const;
  const Schema& schema() const;
  // The fixed domain; for a domain "auto" the union of the steps' domains (Box::nothing() before
  // the first step), each step's own from step_domain.
  Box domain() const;
  Box step_domain(int64_t step) const;
  bool auto_domain() const;
  const Periodic& periodic() const;
  const PartitionSpec& partition() const;
  std::vector<int64_t> steps() const;

  // Collective over the dataset's communicator: every rank calls it with the same step, its own
  // particles (any count, zero included) and optionally its patch. Errors are raised on every rank.
  // `input_error`: a language binding could not convert this rank's arguments; the rank still takes
  // part, and every rank raises that error.
  void write(int64_t step, std::span<const FieldView> fields, std::optional<Box> patch,
             const std::optional<Error>& input_error = std::nullopt);
  // An asynchronous step, collective like write: the exchange runs before it returns (with copy,
  // what stays on this rank is copied first, so the caller may reuse its arrays at once; without,
  // the arrays must stay unchanged until the step is done); the order, gathers, checksums and
  // file writes run on a helper thread, which makes no MPI call; the commit (collective) happens at
  // the group's next collective call: the next write, wait_pending or wait_step, an index build,
  // or the dataset's close (a later write_async commits it only to make room). Without a budget
  // (DatasetOptions::max_pending_bytes) one step is in flight at a time: the next one first
  // completes it. With a budget, up to kMaxStepsInFlight steps are, each with buffers of its own,
  // as long as the budget holds them (the oldest complete first to make room). An error of a
  // pending step is raised where it completes, on every rank, and it commits nothing.
  void write_async(int64_t step, std::span<const FieldView> fields, std::optional<Box> patch, bool copy,
                   const std::optional<Error>& input_error = std::nullopt);
  static constexpr size_t kMaxStepsInFlight = 4;
  // Collective: completes and commits every pending step, oldest first (the last one's profile
  // becomes profile()).
  void wait_pending();
  // Collective: completes and commits the pending steps up to `step`, if it is pending.
  void wait_step(int64_t step);
  // Local: whether step `step`'s files are written (true when it is not pending); it is
  // committed only by a later collective call.
  bool step_written(int64_t step) const;
  // Local: whether every pending step's files are written (true when none is pending).
  bool pending_done() const;
  int64_t pending_step() const;   // the newest pending step; -1 when none is pending
  const WriteProfile& profile() const;

  // Zero-copy input: a step's rows written where the write reads them, instead of copied there.
  // Collective like write: every rank with its own count and optionally its patch. Opens the step
  // (nothing is visible until commit_buffers): where the step can be planned before its particles
  // exist (a fixed domain without periodic axes, a factor or grid partition, a patch from every
  // rank with particles, each rank's particles going to one partition), it is planned here, and a
  // rank whose rows go to an aggregator on its node gets them in that aggregator's shared window,
  // so the exchange copies nothing; elsewhere the rows are this rank's memory, written as by
  // write. `position_components`: the positions as three arrays ("position/x", "/y", "/z").
  // While buffers are open, write, write_async and open_buffers of the group are refused (on
  // every rank) naming the open step; the dataset's close discards them.
  void open_buffers(int64_t step, uint64_t count, std::optional<Box> patch, bool position_components,
                    const std::optional<Error>& input_error = std::nullopt);
  struct Buffer {
    void* data = nullptr;   // rows x components values of dtype, row-major
    uint64_t rows = 0;
    DType dtype = DType::kF8;
    uint32_t components = 1;
    uint64_t memory = 0;   // the allocation holding the rows: the same in two steps only if not reallocated between
  };
  // Local: where this rank puts field `name`'s rows (a position component's when asked so).
  Buffer buffer(const std::string& name) const;
  bool buffers_in_window() const;   // local: some field of this rank lies in a shared window
  int64_t buffers_step() const;     // -1 when none are open
  // Collective: checks the rows (positions finite, inside the domain and inside the patch the
  // step was planned for; agreed on every rank, the step then discarded), then writes the step as
  // write (async: as write_async without a copy). The buffers are not the caller's after it.
  void commit_buffers(bool async, const std::optional<Error>& input_error = std::nullopt);
  // Local: the open step is dropped, nothing written.
  void discard_buffers();

  // A read of one step. comm == MPI_COMM_NULL: the whole answer here, no MPI. Otherwise
  // collective over comm: this rank's disjoint part; the parts together are the whole answer;
  // errors are raised on every rank. `input_error` (here, in refine and in query): a language
  // binding could not convert this rank's arguments; the rank still takes part in the read's
  // first agreement, and every rank raises that error.
  std::vector<FieldColumn> read(int64_t step, const ReadRequest& request, MPI_Comm comm = MPI_COMM_NULL,
                                const std::optional<Error>& input_error = std::nullopt) const;
  // Every particle of a step (fields empty = all fields).
  std::vector<FieldColumn> read(int64_t step, const std::vector<std::string>& fields) const;
  // The boxes a split="spatial" read of `box` (none: everything) by `readers` ranks gives each
  // rank: disjoint parts of the box, computed from the spatial metadata only.
  std::vector<Box> spatial_split(int64_t step, const std::optional<Box>& box, uint32_t readers) const;
  // Progressive refinement of a query (request.level and request.fraction must be unset).
  std::unique_ptr<Refinement> refine(int64_t step, const ReadRequest& request, MPI_Comm comm = MPI_COMM_NULL,
                                     const std::optional<Error>& input_error = std::nullopt) const;
  SpatialMetadata metadata(int64_t step) const;
  const ReadStats& last_read_stats() const;

  // Collective over the dataset's communicator (append mode): bitmap indexes of `spec.fields` for
  // `steps` (empty: every committed step), one index file per data file and field beside it; the
  // files are spread over the ranks, and each rank's threads pull (file, field) tasks from a
  // shared pool. The manifest records each step's indexes once all are written; an existing
  // index of a field is replaced. Errors are raised on every rank; data files are never touched.
  // `input_error`: a language binding could not convert this rank's arguments; the rank still takes
  // part, and every rank raises that error.
  IndexBuildStats build_index(const IndexSpec& spec, const std::vector<int64_t>& steps,
                              const std::optional<Error>& input_error = std::nullopt);
  // A value query of one step. comm == MPI_COMM_NULL: here, no MPI; otherwise collective: the
  // step's files are shared among the ranks, each returning its files' matches; count is the total.
  ValueQueryResult query(int64_t step, const ValueQuery& q, MPI_Comm comm = MPI_COMM_NULL,
                         const std::optional<Error>& input_error = std::nullopt) const;
  // A sample less the samples held (SampleDifference), here (no MPI; every rank may call it on its
  // own): the answer's rows per file (record order, rows ascending: a value query's order), their
  // fields and count. Only positions that decide (face bricks, clip boxes) and the answer are read.
  SampleDifferenceResult sample_difference(int64_t step, const SampleDifference& d) const;
  // The bitmap indexes a committed step has (ascending by field).
  std::vector<StepIndex> indexes(int64_t step) const;

  // Collective over the dataset's communicator (append mode), every rank with the same `after`:
  // removes every committed step after `after` (-1: every step), with its files and indexes,
  // after completing a pending step. Atomic: one manifest replace; a writer killed during it
  // leaves the old or the new state. Returns what went. Errors are raised on every rank, with
  // nothing removed. `input_error`: as in write.
  Truncation truncate(int64_t after, const std::optional<Error>& input_error = std::nullopt);

 private:
  friend class Dataset;
  ParticleGroup(std::shared_ptr<DatasetState> ds, std::string name);
  // One read of a box inside the step's domain (read() splits a box over periodic images).
  std::vector<FieldColumn> read_one(int64_t step, const ReadRequest& request, MPI_Comm comm,
                                    const std::optional<Error>& input_error) const;
  std::optional<Error> open_buffers_error() const;
  void start_pending(std::shared_ptr<PendingParticleStep> s, uint64_t bytes, double t0);
  void complete_oldest();   // collective: commits pending_.front()
  void complete_oldest(size_t count);   // collective: the oldest `count`, each whatever the others' errors
  // Buffers for a new step: the first of the group's not held by a pending step (the same choice on
  // every rank: the pending steps are), or new ones.
  WriteScratch& free_scratch();
  void commit_planned(StepBuffers& b, bool async, const std::optional<Error>& input_error);
  std::shared_ptr<DatasetState> ds_;
  std::string name_;
  // Buffers reused from step to step: the first for every step, more for steps in flight beside it.
  std::vector<std::shared_ptr<WriteScratch>> scratch_;
  std::deque<std::shared_ptr<PendingParticleStep>> pending_;   // asynchronous steps not yet committed, oldest first
  std::shared_ptr<StepBuffers> buffers_;            // a step opened by open_buffers, not yet committed
  WriteProfile profile_;
  mutable ReadStats read_stats_;
};

}  // namespace lodex
