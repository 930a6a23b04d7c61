// Planning series reads collective over n ranks (docs/series.md): which steps and which part of
// the box each rank reads, so that the ranks' answers together are the whole hyperslab once.
// Pure: no MPI, no files; SeriesGroup (pipelines/) executes the plan.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "layout/grid_plan.hpp"

namespace lodex {

struct SeriesReadShare {
  std::vector<int64_t> steps;   // a contiguous run of the steps asked for, in their order
  GridBox box;                  // x first, exclusive max; empty when the rank gets nothing
};

// Rank `rank` of `size`'s share of a read of `steps` over `box` of a variable with `ndim` (2 or
// 3) axes: an equal share of the steps when there are at least `size` of them (each rank then
// reads whole planes, the cheapest cut of a window file); else every step over an equal share of
// the slowest spatial axis with at least `size` samples (z, then y; for a 2-D variable y), else
// of x, where ranks past its extent get an empty box. Throws InvalidArgument for a rank outside
// 0..size-1.
SeriesReadShare split_series_read(const std::vector<int64_t>& steps, const GridBox& box, int ndim, int rank, int size);

// One variable's chunk in a window file (docs/formats/series.md): `box` on the variable's axes;
// its bytes hold the window's steps one after another, each `planes` z-slabs of box's x-y rows
// (x fastest); blocks of the file's block size start at `offset`, the first being block-table
// entry `first_block`.
struct WindowChunk {
  GridBox box;
  uint64_t offset = 0, bytes = 0;
  uint32_t planes = 1;
  uint64_t first_block = 0;
};
// One x-row of the read: `bytes` at file `offset` go to byte `out` of the answer.
struct WindowRow {
  uint64_t offset = 0, bytes = 0, out = 0;
};
// Blocks read and verified together: `count` blocks from block-table entry `first`, at file
// `offset` (the last may be short: a chunk's end).
struct WindowBlocks {
  uint64_t offset = 0, bytes = 0;
  uint64_t first = 0, count = 0;
};
struct WindowReadPlan {
  std::vector<WindowRow> rows;         // chunk by chunk, step by step, z then y
  std::vector<WindowBlocks> blocks;    // sorted by offset, disjoint; every row inside one
  uint32_t chunks = 0;                 // chunks the box meets
};
// What a read of `box` (the answer's box, on the variable's axes) takes from one window file:
// `steps` lists (position of the step in the answer, the step's index in the window); the answer
// is (steps, z, y, x) of `sample_bytes` samples. The blocks are those holding the rows, those of
// one chunk no more than a block apart merged. Pure.
WindowReadPlan plan_window_read(const std::vector<WindowChunk>& chunks, const GridBox& box, uint64_t sample_bytes,
                                const std::vector<std::pair<uint64_t, uint64_t>>& steps, uint64_t block_bytes);

}  // namespace lodex
