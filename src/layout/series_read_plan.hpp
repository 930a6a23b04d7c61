// Planning series reads collective over n ranks (docs/series.md): which steps and which part of
// the box each rank reads, so that the ranks' answers together are the whole hyperslab once.
// Pure: no MPI, no files; SeriesGroup (pipelines/) executes the plan.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "layout/grid_plan.hpp"
#include "layout/series_plan.hpp"

namespace lodex {

struct SeriesReadShare {
  std::vector<int64_t> steps;   // a contiguous run of the steps asked for, in their order
  GridBox box;                  // x first, exclusive max; empty when the rank gets nothing
};

// Rank `rank` of `size`'s share of a read of `steps` over `box` of a variable with `ndim` (2 or
// 3) axes: an equal share of the steps when there are at least `size` of them (each rank then
// reads whole planes, the cheapest cut of a window file); else every step over an equal share of
// the slowest spatial axis with at least `size` samples (z, then y; for a 2-D variable y), else
// of the axis with the most samples (the slower of equals), where ranks past its extent get an
// empty box. Throws InvalidArgument for a rank outside 0..size-1.
SeriesReadShare split_series_read(const std::vector<int64_t>& steps, const GridBox& box, int ndim, int rank, int size);

// Where one variable's chunk lies in a window file (absolute offset, bytes, slabs per step, index
// of its first block checksum): the window head's entry, as the reader and previews see it.
struct SeriesChunkPlace {
  uint64_t offset = 0, bytes = 0;
  uint32_t planes = 1;
  uint64_t first_block = 0;
};
// A row of the answer: `bytes` at file `offset`, copied to byte `out` of the answer.
struct SeriesRowCopy {
  uint64_t offset = 0, bytes = 0, out = 0;
};
// Consecutive blocks of one chunk holding needed rows: file bytes, and block-table indices.
struct SeriesBlockRun {
  uint64_t offset = 0, bytes = 0;
  uint64_t first = 0, count = 0;
};
struct SeriesWindowRead {
  std::vector<SeriesRowCopy> rows;
  std::vector<SeriesBlockRun> blocks;   // ascending by offset
  uint64_t chunks = 0;                  // chunks the box meets

  // The file byte ranges [lo, hi) a reader fetches: the blocks, and their checksums in the block
  // table at `block_table_offset` (ascending too: a chunk's checksums follow its blocks' order).
  std::vector<std::pair<uint64_t, uint64_t>> data_ranges() const;
  std::vector<std::pair<uint64_t, uint64_t>> checksum_ranges(uint64_t block_table_offset) const;
};
// What a read of `obox` (on the variable's axes) needs from one window: `places[c]` is the
// variable's chunk c of `chunks` (SarPlan::chunks()), `steps` the (answer step i, step k inside
// the window) pairs this window gives, `block_bytes` the window's block size. Rows are x-runs of
// the box inside a chunk; blocks are the chunk's blocks holding them, runs of adjacent blocks
// joined. Pure: the reader (pipelines/series) executes it, lodex.planning previews it.
SeriesWindowRead plan_window_read(const SeriesVariable& variable, const std::vector<SeriesChunk>& chunks,
                                  const std::vector<SeriesChunkPlace>& places,
                                  const std::vector<std::pair<uint64_t, uint64_t>>& steps, const GridBox& obox,
                                  uint64_t block_bytes);
// Sorted byte ranges [lo, hi) as requests: ranges at most `gap` bytes apart are one request (the
// gap read too, data sieving); with `max_bytes` > 0 a merged range longer than that is cut into
// requests of at most `max_bytes` (a sieve buffer's size, as HDF5 reads contiguous data).
std::vector<std::pair<uint64_t, uint64_t>> merge_ranges(const std::vector<std::pair<uint64_t, uint64_t>>& ranges,
                                                        uint64_t gap, uint64_t max_bytes = 0);

}  // namespace lodex
