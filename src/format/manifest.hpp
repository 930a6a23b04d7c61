// The dataset manifest (manifest.json at the dataset root): format version, groups with their
// schemas, domains and settings, and the committed steps. It is replaced atomically to commit a
// step, so a reader sees a step only when all its files are complete.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/box.hpp"
#include "core/schema.hpp"
#include "layout/binning.hpp"
#include "layout/lod_order.hpp"
#include "layout/particle_domain.hpp"
#include "layout/particle_plan.hpp"
#include "layout/series_plan.hpp"

namespace lodex {

inline constexpr uint32_t kManifestVersion = 1;
inline constexpr const char* kManifestName = "manifest.json";

// A record's text in the manifest, kept beside it while the record is unchanged: a commit encodes
// its own step, not every step again (the manifest grows by a step per commit). manifest.cpp.
// encode_manifest fills these caches: one thread at a time may encode a given manifest.
struct EncodedStep;
struct EncodedGridStep;

// A bitmap index of one field over every data file of a step (<file stem>.<field>.lbx).
struct StepIndex {
  std::string field;
  BinningSpec binning;
  uint64_t bytes = 0;             // index files of the step for this field
};

struct StepRecord {
  int64_t step = 0;
  uint64_t particles = 0;
  uint32_t files = 0;
  uint64_t bytes = 0;             // data + metadata bytes of the step
  std::string directory;          // relative to the dataset root, e.g. "electrons/step-000000"
  uint64_t metadata_checksum = 0; // checksum64 of the spatial metadata file
  uint32_t writer_ranks = 0;
  std::vector<StepIndex> indexes; // ascending by field name
  Box domain{};                   // groups of domain "auto": this step's (the bounds of its particles)
  const StepIndex* find_index(const std::string& field) const;
  mutable std::shared_ptr<const EncodedStep> encoded;   // a cache, checked against the fields
};

struct ParticleGroupMeta {
  std::string name;
  Schema schema;
  // The fixed domain, maximum inclusive; unused by a group of domain "auto", whose steps each
  // have their own (extent() is their union).
  Box domain;
  bool auto_domain = false;
  Periodic periodic{false, false, false};   // wrapped on write (fixed domains only)
  PartitionSpec partition;
  LodParams lod;                  // seed here is the group's base seed
  std::vector<StepRecord> steps;  // ascending by step

  const StepRecord* find_step(int64_t step) const;
  // The domain step `step` was written in (the group's, or the step's own for "auto").
  const Box& step_domain(const StepRecord& s) const { return auto_domain ? s.domain : domain; }
  bool any_periodic() const { return periodic[0] || periodic[1] || periodic[2]; }
  // The box every step lies in: the fixed domain, or the union of the steps' own (Box::nothing()
  // before the first step of an "auto" group).
  Box extent() const;
};

struct GridStepRecord {
  int64_t step = 0;
  uint32_t files = 0;
  uint64_t bytes = 0;             // binary files of the step
  uint32_t writer_ranks = 0;
  bool block_checksums = false;   // its IDX blocks have a checksum file (format/idx_sums.hpp)
  mutable std::shared_ptr<const EncodedGridStep> encoded;   // a cache, checked against the fields
};

// A grid variable: one IDX dataset (<name>.idx and <name>/) with one or more fields.
struct GridMeta {
  std::string name;
  std::array<uint64_t, 3> dims{1, 1, 1};
  int ndims = 3;
  std::vector<FieldSpec> fields;
  std::string bitmask;            // "" until the first write derives it from the rank layout
  bool bitmask_derived = true;
  int bits_per_block = 15;
  uint64_t blocks_per_file = 256;
  std::string aggregation = "localized";
  uint32_t partitions = 1;
  // "global": one IDX dataset (<name>.idx); "local": one per partition (<name>/p%04u.idx), each
  // of its partition's box (Kumar et al. 2017 §IV).
  std::string index_space = "global";
  bool zip = false;
  std::vector<GridStepRecord> steps;   // ascending

  const GridStepRecord* find_step(int64_t step) const;
  std::string idx_name() const { return name + ".idx"; }
  bool split_into_parts() const { return index_space == "local" && partitions > 1; }
};

// A series (Tian et al. 2013, STAR): variables of a regular grid written every step; windows of
// d_tar steps, one file each (<name>/w-<first step>.lsw, docs/formats/series.md).
struct SeriesWindowRecord {
  std::string file;               // relative to the series' directory
  std::vector<int64_t> steps;     // ascending
  uint64_t bytes = 0;
};
struct SeriesMeta {
  std::string name;
  std::array<int64_t, 3> dims{1, 1, 1};
  std::vector<SeriesVariable> variables;
  StarSettings settings;          // what the definition asked for (forced degrees, budget, costs)
  // Fixed by the first write: the decomposition's cuts and the degrees (empty cuts before).
  std::array<std::vector<int64_t>, 3> cuts;
  uint32_t d_tar = 0, d_sar = 0;
  uint64_t opt_size = 0, chunk_bytes = 0;
  std::string reason;
  uint32_t writer_ranks = 0;
  std::vector<SeriesWindowRecord> windows;   // ascending by step

  bool planned() const { return !cuts[0].empty(); }
  int64_t last_step() const { return windows.empty() ? -1 : windows.back().steps.back(); }
  const SeriesVariable* find_variable(const std::string& v) const;
};

struct Manifest {
  uint32_t format_version = kManifestVersion;
  std::string created_by;
  std::vector<ParticleGroupMeta> particle_groups;
  std::vector<GridMeta> grids;
  std::vector<SeriesMeta> series;

  ParticleGroupMeta* find_particles(const std::string& name);
  const ParticleGroupMeta* find_particles(const std::string& name) const;
  GridMeta* find_grid(const std::string& name);
  const GridMeta* find_grid(const std::string& name) const;
  SeriesMeta* find_series(const std::string& name);
  const SeriesMeta* find_series(const std::string& name) const;
  // The kind of the group called `name` ("particle group", "grid", "series"), or nullptr.
  const char* kind_of(const std::string& name) const;
};

// How an existing group's definition differs from one asked for again: `existing` and `asked`
// each hold one group (particles, grid or series, the same kind and name). Compared as the
// manifest records them, leaving out what writes add (steps, a series' plan); each difference as
// "<key> <existing value>, not <asked value>" ("periodic axes" for "periodic"). Empty: the same.
std::vector<std::string> definition_differences(const Manifest& existing, const Manifest& asked);

std::string encode_manifest(const Manifest& m);
void encode_manifest(const Manifest& m, std::string& out);   // into `out`, reusing its buffer
// `what` names the file in errors; every key and value is validated.
Manifest decode_manifest(std::string_view text, const std::string& what);

// Group names become directory names: 1-64 of [A-Za-z0-9_-], not starting with '-'.
void check_group_name(const std::string& name);

}  // namespace lodex
