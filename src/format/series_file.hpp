// The window file of a series (.lsw): the chunks of every variable for one window of d_tar steps
// (layout/series_plan.hpp), written by the top-level aggregators at offsets the plan fixes, then
// headed by rank 0 with a table of every chunk's place and one checksum per step of it (a read
// of some steps verifies only the step slabs it reads). Byte layout: docs/formats/series.md.
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
  uint64_t offset = 0, bytes = 0;      // absolute; bytes = steps × one step's slab
  std::vector<uint64_t> step_checksums;   // checksum64 of each step's slab (bytes / steps each)
};

struct SeriesWindowHead {
  std::string series;
  uint64_t first_step = 0;
  uint32_t steps = 0;          // in this window (the last may hold fewer than d_tar)
  uint32_t variables = 0, chunks = 0;
  uint64_t data_offset = 0;    // where the chunks start (aligned)
  uint64_t file_bytes = 0;
  std::vector<SeriesChunkEntry> entries;   // [variable × chunks + chunk]
  uint64_t table_bytes() const;            // entries + their checksum
};

// Where the data of a window with this many variables, chunks and steps starts.
uint64_t series_data_offset(uint32_t variables, uint32_t chunks, uint32_t steps);

// Header and table (data_offset() bytes, zero-padded); entries must be complete.
std::vector<uint8_t> encode_series_head(const SeriesWindowHead& head);
// Step 1: the header (first kSeriesHeaderBytes): everything but the entries; then read
// table_bytes() from offset kSeriesHeaderBytes. Step 2: the table into head.entries, each entry
// inside the data region, in order, and a whole number of step slabs.
SeriesWindowHead decode_series_header(const uint8_t* data, size_t size, uint64_t file_size, const std::string& what);
void decode_series_table(const uint8_t* data, size_t size, SeriesWindowHead& head, const std::string& what);

}  // namespace lodex
