// The window file of a series (.lsw): the chunks of every variable for one window of d_tar steps
// (layout/series_plan.hpp), written by the top-level aggregators at offsets the plan fixes, then
// headed by rank 0 with a table of every chunk's place and one checksum per slab of it: a slab
// is one z-plane of one step for a 3-D variable, one step for a 2-D one, so a read of a few steps
// or levels verifies only the slabs it reads. Byte layout: docs/formats/series.md.
// Pure: encode, and decode in bounded steps (header, then table), each checked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lodex {

inline constexpr char kSeriesFileMagic[8] = {'L', 'D', 'X', 'S', 'E', 'R', 'W', '\0'};
inline constexpr uint32_t kSeriesFileVersion = 1;
inline constexpr uint32_t kSeriesHeaderBytes = 128;
inline constexpr uint64_t kSeriesDataAlignment = 4096;

struct SeriesChunkEntry {
  uint64_t offset = 0, bytes = 0;      // absolute; bytes = steps × planes × one slab
  uint32_t planes = 1;                 // slabs per step: the chunk's z extent (3-D), 1 (2-D)
  std::vector<uint64_t> checksums;     // checksum64 of each slab, step-major: [step × planes + plane]
  uint64_t slab_bytes(uint32_t steps) const { return bytes / (uint64_t{steps} * planes); }
};

struct SeriesWindowHead {
  std::string series;
  uint64_t first_step = 0;
  uint32_t steps = 0;          // in this window (the last may hold fewer than d_tar)
  uint32_t variables = 0, chunks = 0;
  uint64_t data_offset = 0;    // where the chunks start (aligned)
  uint64_t file_bytes = 0;
  uint64_t total_planes = 0;   // sum of the entries' planes
  std::vector<SeriesChunkEntry> entries;   // [variable × chunks + chunk]
  uint64_t table_bytes() const;            // entries + their checksum
};

// Where the data of a window with this many variables, chunks, steps and planes (summed over
// the entries) starts.
uint64_t series_data_offset(uint32_t variables, uint32_t chunks, uint32_t steps, uint64_t total_planes);

// Header and table (data_offset() bytes, zero-padded); entries must be complete.
std::vector<uint8_t> encode_series_head(const SeriesWindowHead& head);
// Step 1: the header (first kSeriesHeaderBytes): everything but the entries; then read
// table_bytes() from offset kSeriesHeaderBytes. Step 2: the table into head.entries, each entry
// inside the data region, in order, and a whole number of slabs.
SeriesWindowHead decode_series_header(const uint8_t* data, size_t size, uint64_t file_size, const std::string& what);
void decode_series_table(const uint8_t* data, size_t size, SeriesWindowHead& head, const std::string& what);

}  // namespace lodex
