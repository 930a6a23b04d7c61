// The window file of a series (.lsw): the chunks of every variable for one window of d_tar steps
// (layout/series_plan.hpp), written by the top-level aggregators at offsets the plan fixes. Each
// chunk is cut into fixed-size blocks (4 KiB; the last one of a chunk may be shorter) with one
// checksum each, kept in a block table between the chunk table and the data: each aggregator
// writes its own chunks' block checksums there, and rank 0 writes the header and chunk table.
// A read fetches only the blocks holding the rows it needs (a point across steps: one block per
// step) and the checksums of those blocks, and verifies each block before using it.
// Byte layout: docs/formats/series.md. Pure: encode, and decode in bounded steps (header, then
// chunk table), each checked.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "layout/series_plan.hpp"
#include "layout/series_read_plan.hpp"

namespace lodex {

inline constexpr char kSeriesFileMagic[8] = {'L', 'D', 'X', 'S', 'E', 'R', 'W', '\0'};
inline constexpr uint32_t kSeriesFileVersion = 2;
inline constexpr uint32_t kSeriesHeaderBytes = 128;
inline constexpr uint64_t kSeriesDataAlignment = 4096;
inline constexpr uint32_t kSeriesBlockBytes = 4096;   // what writers use; readers take the header's

struct SeriesChunkEntry {
  uint64_t offset = 0, bytes = 0;   // absolute; bytes = steps × planes × one slab (a z-plane of a step)
  uint32_t planes = 1;              // slabs per step: the chunk's z extent (3-D), 1 (2-D)
  uint64_t first_block = 0;         // index of its first block checksum in the block table (derived)
};

// Blocks of a chunk of this many bytes.
inline uint64_t series_blocks(uint64_t bytes, uint32_t block_bytes) { return (bytes + block_bytes - 1) / block_bytes; }

struct SeriesWindowHead {
  std::string series;
  uint64_t first_step = 0;
  uint32_t steps = 0;          // in this window (the last may hold fewer than d_tar)
  uint32_t variables = 0, chunks = 0;
  uint32_t block_bytes = kSeriesBlockBytes;
  uint64_t data_offset = 0;    // where the chunks start (aligned)
  uint64_t file_bytes = 0;
  uint64_t total_planes = 0;   // sum of the entries' planes
  uint64_t total_blocks = 0;   // sum of the entries' blocks: the block table's length
  std::vector<SeriesChunkEntry> entries;   // [variable × chunks + chunk]
  uint64_t table_bytes() const;            // the chunk table: entries + their checksum
  uint64_t block_table_offset() const { return kSeriesHeaderBytes + table_bytes(); }
};

// Where the data of a window with this many variables, chunks per variable and blocks (summed
// over the chunks) starts.
uint64_t series_data_offset(uint32_t variables, uint32_t chunks, uint64_t total_blocks);
// Numbers the entries' blocks from their bytes: each entry's first_block, and total_blocks.
void number_series_blocks(SeriesWindowHead& head);

// Header and chunk table (block_table_offset() bytes); entries must be complete. The block
// table and the data are the aggregators'.
std::vector<uint8_t> encode_series_head(const SeriesWindowHead& head);
// Step 1: the header (first kSeriesHeaderBytes): everything but the entries; then read
// table_bytes() from offset kSeriesHeaderBytes. Step 2: the whole chunk table into head.entries,
// its checksum checked, each entry inside the data region, in order, a whole number of slabs,
// first_block filled in. (Reads take only their variable's entries: series_head_ranges.)
SeriesWindowHead decode_series_header(const uint8_t* data, size_t size, uint64_t file_size, const std::string& what);
void decode_series_table(const uint8_t* data, size_t size, SeriesWindowHead& head, const std::string& what);

// The head the plan gives a window of `steps` steps from `first_step`: every chunk's place,
// bytes, planes and blocks, and where the data starts. The writer writes it; the reader checks
// a window file's head against it; lodex.planning previews it.
SeriesWindowHead planned_window_head(const std::string& series, const std::vector<SeriesVariable>& vars,
                                     const SarPlan& sar, int64_t first_step, uint32_t steps);
// What a read of variable v reads of a window's head: the header (when `header`, the window's
// first read) and v's entries of the chunk table, [lo, hi) in file order. A read checks those
// entries against the series' plan; the other variables' entries and the table's checksum are
// left to decode_series_table, which decodes a window without its plan (format tests, fuzzing).
std::vector<std::pair<uint64_t, uint64_t>> series_head_ranges(const SeriesWindowHead& head, uint32_t v, bool header);
// Variable v's entries from the bytes of its range (series_head_ranges, without the header);
// first_block is left 0 (the plan has it).
std::vector<SeriesChunkEntry> decode_series_entries(const uint8_t* data, size_t size, const SeriesWindowHead& head,
                                                    uint32_t v, const std::string& what);
// Variable v's chunks in a window head, as plan_window_read takes them.
std::vector<SeriesChunkPlace> chunk_places(const SeriesWindowHead& head, uint32_t v);

}  // namespace lodex
