// Execution of a particle read (paper §4): choose files from the spatial metadata, split the
// work among the communicator's ranks, read the heads of this rank's files, and read the rows
// of a prefix range of the query's sample (layout/particle_read_plan.hpp), verifying every
// segment it reads against its checksum. Internal to the pipelines layer.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/particle_file.hpp"
#include "format/spatial_metadata.hpp"
#include "layout/particle_read_plan.hpp"
#include "pipelines/dataset.hpp"
#include "mpi/comm.hpp"
#include "storage/file_cache.hpp"

namespace lodex {

// A refinement's partly used segments: (file, segment) -> per schema field, the verified bytes
// (empty: that field was not read).
using SegmentCache = std::map<std::pair<size_t, uint64_t>, std::vector<std::vector<uint8_t>>>;

void validate_box(const Box& b);   // no NaN, min <= max on every axis
// The records of `meta` whose particles may lie in `query`, in spatial order (Morton code of the
// partition box's centre): the files of a read, in the order of its sample line.
std::vector<size_t> candidate_order(const SpatialMetadata& meta, const Box& query);
// The boxes a spatial split gives each of n readers of those candidates; the group's `lod` and
// `row_bytes` give each file's brick grid, so cuts fall on the writer's brick faces.
std::vector<Box> spatial_parts(const SpatialMetadata& meta, const std::vector<size_t>& order, const Box& query,
                               uint32_t n, const LodParams& lod, uint64_t row_bytes);

class ParticleQuery {
 public:
  // Collective over comm (MPI_COMM_NULL: serial). `step_dir` is the step's folder, `meta` its
  // verified spatial metadata. `sampled`: the read takes a level, fraction or refinement, so the
  // candidates of every rank are counted (one more collective). `prior`: an error this rank met
  // before (loading the metadata), raised on every rank. `input_error`: the language binding could
  // not convert this rank's arguments (the others are then meaningless); every rank raises it at
  // the first agreement.
  ParticleQuery(std::string step_dir, const Confinement& confinement, const Schema& schema, const LodParams& lod,
                SpatialMetadata meta, uint64_t metadata_bytes, const ReadRequest& request, bool sampled, MPI_Comm comm,
                const std::optional<Error>& prior, const std::optional<Error>& input_error = std::nullopt);
  ~ParticleQuery();

  // Particles of the bricks meeting the query over all ranks (sampled queries only).
  uint64_t candidates() const { return candidates_; }
  const LodRequest& lod() const { return lod_; }
  uint32_t level_count() const { return ::lodex::level_count(lod_, candidates_); }
  // The sample positions of levels 0..level; a level past the last takes every candidate.
  uint64_t level_target(uint32_t level) const;
  // Collective: this rank's rows of the sample positions [t0, t1) (t1 = UINT64_MAX: everything).
  std::vector<FieldColumn> read(uint64_t t0, uint64_t t1, ReadStats& stats);
  // The rows the sample positions [0, t) take in each file this rank set up (a serial setup: every
  // candidate file), by metadata record index: ranges of file rows, `test` when their particles
  // may lie outside the box (sampled setups only).
  struct SampleRange {
    uint64_t first = 0, last = 0;
    bool test = false;
  };
  std::map<size_t, std::vector<SampleRange>> sample_ranges(uint64_t t) const;
  // Refinements: keep the segments a read uses only in part (a brick's prefix ends inside them)
  // so the next level continues there without reading them again.
  void keep_partial_segments() { keep_partial_ = true; }
  // The stats of the setup (metadata and heads), to be added to the first read's.
  const ReadStats& setup_stats() const { return setup_; }

 private:
  struct Brick {
    uint32_t brick = 0;
    uint64_t count = 0;    // particles over all levels
    uint64_t before = 0;   // candidate particles of the file before this brick
    bool mine = false;     // this rank reads it
    bool inside = false;   // all its particles are inside this rank's box: no row test
  };
  struct OpenFile {
    size_t candidate = 0;   // index into candidates_order_
    std::string path;
    ParticleFileHead head;
    std::vector<Brick> bricks;   // bricks meeting the query box
    uint64_t candidates = 0;     // their particles
  };

  struct LoadedHead {   // a data file opened and its head read and verified
    File file;
    ParticleFileHead head;
    uint64_t requests = 0, bytes_read = 0, head_bytes = 0;
  };

  void setup(const ReadRequest& request, bool sampled);
  // The phases of read() (particle_query.cpp).
  struct ReadLayout;
  ReadLayout plan_read(uint64_t t0, uint64_t t1) const;
  void fetch(size_t b0, size_t b1, ReadLayout& layout, std::vector<FieldColumn>& out, ReadStats& stats);
  std::vector<std::pair<uint64_t, uint64_t>> rows_kept(size_t fi, const ReadLayout& layout,
                                                       const std::vector<FieldColumn>& out) const;
  uint64_t compact(size_t fi, const ReadLayout& layout, const std::vector<std::pair<uint64_t, uint64_t>>& keep,
                   std::vector<FieldColumn>& out, uint64_t rows) const;
  LoadedHead load_head(size_t candidate) const;   // thread-safe
  void add_file(size_t candidate, LoadedHead loaded, const ByteSplit* split);

  std::string dir_;
  Confinement confinement_;
  Schema schema_;
  LodParams group_lod_;
  SpatialMetadata meta_;
  Comm comm_;
  Box query_;
  Box mine_;                          // this rank's box (spatial split) or the query box
  std::vector<size_t> field_index_;   // requested fields, schema indices
  LodRequest lod_;
  std::vector<size_t> candidates_order_;   // metadata records meeting the query, in spatial order
  std::vector<uint64_t> file_offset_;      // per candidate: its first position on the sample line
  uint64_t candidates_ = 0;
  std::unique_ptr<NestedSampler> sampler_;
  std::vector<OpenFile> files_;
  FileCache cache_;
  ReadStats setup_;
  SegmentCache partial_;
  bool keep_partial_ = false;
};

}  // namespace lodex
