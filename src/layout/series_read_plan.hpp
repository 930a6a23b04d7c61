// Planning series reads collective over n ranks (docs/series.md): which steps and which part of
// the box each rank reads, so that the ranks' answers together are the whole hyperslab once.
// Pure: no MPI, no files; SeriesGroup (pipelines/) executes the plan.
#pragma once

#include <cstdint>
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

}  // namespace lodex
