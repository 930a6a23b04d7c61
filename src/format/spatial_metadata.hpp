// The spatial metadata file (.lsm) of one particle step (paper §3.5, Figure 4): for every data
// file its partition box, the bounds of its particles, count, name, per-component min/max and
// checksums. Written last by rank 0; readers choose files from it. Layout: docs/formats/particles.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/box.hpp"

namespace lodex {

inline constexpr char kSpatialMetaMagic[8] = {'L', 'D', 'X', 'S', 'M', 'E', 'T', 'A'};
inline constexpr uint32_t kSpatialMetaVersion = 1;
inline constexpr size_t kFileNameBytes = 64;

struct DataFileRecord {
  std::string file_name;        // relative to the step directory
  uint32_t partition = 0;
  int32_t aggregator_rank = -1;
  Box partition_box;
  Box bounds;                   // of the particles; max is inclusive here (the largest coordinate)
  uint64_t count = 0;
  uint64_t file_bytes = 0;
  uint64_t head_checksum = 0;   // checksum64 of the data file's header + tables
  std::vector<double> min, max; // per component over all fields, in schema order; rounded outward
};

struct SpatialMetadata {
  int64_t step = 0;
  uint32_t num_components = 0;  // sum of the schema's component counts
  std::vector<DataFileRecord> files;
  uint64_t total_particles() const;
};

std::vector<uint8_t> encode_spatial_metadata(const SpatialMetadata& m);
SpatialMetadata decode_spatial_metadata(const uint8_t* data, size_t size, const std::string& what);

// Fixed-size record encoding used to gather records from aggregators to rank 0.
size_t data_file_record_bytes(uint32_t num_components);
void encode_data_file_record(const DataFileRecord& r, uint32_t num_components, std::vector<uint8_t>& out);
DataFileRecord decode_data_file_record(const uint8_t* data, size_t size, uint32_t num_components,
                                       const std::string& what);

}  // namespace lodex
