// The dataset manifest (manifest.json at the dataset root): format version, groups with their
// schemas, domains and settings, and the committed steps. It is replaced atomically to commit a
// step, so a reader sees a step only when all its files are complete.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/box.hpp"
#include "core/schema.hpp"
#include "layout/lod_order.hpp"
#include "layout/particle_plan.hpp"

namespace lodex {

inline constexpr uint32_t kManifestVersion = 1;
inline constexpr const char* kManifestName = "manifest.json";

struct StepRecord {
  int64_t step = 0;
  uint64_t particles = 0;
  uint32_t files = 0;
  uint64_t bytes = 0;             // data + metadata bytes of the step
  std::string directory;          // relative to the dataset root, e.g. "electrons/step-000000"
  uint64_t metadata_checksum = 0; // checksum64 of the spatial metadata file
  uint32_t writer_ranks = 0;
};

struct ParticleGroupMeta {
  std::string name;
  Schema schema;
  Box domain;
  PartitionSpec partition;
  LodParams lod;                  // seed here is the group's base seed
  std::vector<StepRecord> steps;  // ascending by step

  const StepRecord* find_step(int64_t step) const;
};

struct Manifest {
  uint32_t format_version = kManifestVersion;
  std::string created_by;
  std::vector<ParticleGroupMeta> particle_groups;

  ParticleGroupMeta* find_particles(const std::string& name);
  const ParticleGroupMeta* find_particles(const std::string& name) const;
};

std::string encode_manifest(const Manifest& m);
// `what` names the file in errors; every key and value is validated.
Manifest decode_manifest(std::string_view text, const std::string& what);

// Group names become directory names: 1-64 of [A-Za-z0-9_-], not starting with '-'.
void check_group_name(const std::string& name);

}  // namespace lodex
