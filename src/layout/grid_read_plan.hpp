// Planning grid reads (docs/grids.md). A read of a box at resolution r returns the points of r's
// lattice inside the box (IDX levels r+1.. are missing, each doubling the spacing on its axis).
// A read collective over n ranks gives each rank an equal share of the lattice planes along the
// slowest axis, so the ranks' answers stack into the whole answer. A grid written in the local
// index space (one IDX dataset per partition, Kumar et al. 2017 §IV) is read by taking from each
// partition's dataset the lattice points it holds. Pure: no MPI, no files; IdxDataset and
// GridGroup (pipelines/) execute these plans.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/schema.hpp"
#include "layout/grid_plan.hpp"

namespace lodex {

// Spacing of resolution `resolution`'s samples along `axis` (0 = x) of an indexing template
// ("V" + one axis digit per level): 2^(levels past the resolution that split that axis).
int64_t lattice_stride(const std::string& bitmask, int resolution, int axis);
// How many lattice points k * stride lie in [lo, hi) (0 when hi <= lo).
uint64_t lattice_count(int64_t lo, int64_t hi, int64_t stride);
// Rank `rank` of `size`'s slab of `box`: an equal share (in rank order) of the lattice planes
// k * stride of `axis` inside the box, from its first plane to the next rank's. A rank left
// without planes gets [lo, lo) on that axis (an empty box).
GridBox lattice_slab(const GridBox& box, int axis, int64_t stride, int rank, int size);

// What a read sees of a grid.
struct GridReadSpace {
  GridBox box;                     // logic box: x first, exclusive max; [0, 1) on axes beyond ndims
  int ndims = 3;
  std::string bitmask;             // "V" + one axis digit per level: max resolution = length - 1
  std::vector<FieldSpec> fields;
  std::string what;                // names the grid in messages: "grid 'rho'", "'/data/a.idx'"
};

// What one rank's part of a grid read is: the box it covers (x first, exclusive max; empty when
// the rank gets nothing) and the shape of its samples at the resolution (x, y, z counts of
// lattice points; 1 on axes beyond ndims), with the field's dtype and components.
struct GridReadPart {
  GridBox box;
  std::array<uint64_t, 3> shape{0, 0, 0};
  DType dtype = DType::kF4;
  uint32_t components = 1;
  int resolution = 0;              // the resolution used (max_resolution when none was given)
  uint64_t bytes() const;          // shape product * components * dtype size
};

// Rank `rank` of `size`'s part of a read of `field` over `box` (none: the logic box) at
// `resolution` (none: full): the whole box when size == 1, else its lattice_slab along the
// slowest axis. Throws NotFound for an unknown field and InvalidArgument for a resolution outside
// 0..max, a box with max < min or outside the logic box, or a rank outside 0..size-1. A box
// without extent on some axis is an empty read (every part empty), not an error.
GridReadPart plan_grid_read(const GridReadSpace& space, const std::string& field, const std::optional<GridBox>& box,
                            std::optional<int> resolution, int rank, int size);

// One partition's IDX dataset of a grid in the local index space: where it lies in the grid (its
// own coordinates start at 0) and its template, the grid's without the first k characters.
struct GridPartSpace {
  GridBox box;
  std::string bitmask;
};

// What a read of the grid takes from one partition's dataset: its answer for `box` at
// `resolution`, of `samples` points per axis, thinned to every take[a]-th point (the partition's
// lattice is finer than the grid's below resolution k), gives `count` points that go to the
// grid's answer from lattice index `at` on.
struct GridPartRead {
  size_t part = 0;                 // index into the parts
  GridBox box;                     // in the partition's coordinates
  int resolution = 0;
  std::array<uint64_t, 3> samples{0, 0, 0}, take{1, 1, 1}, count{0, 0, 0}, at{0, 0, 0};
};

// The partition reads of a read of `box` (non-empty, inside the grid) at `resolution` of a grid
// with template `bitmask` split into 2^partition_bits partitions. Resolution r of the grid is
// resolution r - k of a partition (for r >= k; below, a partition's resolution 0 is its origin,
// one grid lattice point at most). Partitions holding no lattice point of the box are skipped.
// Throws Format when a partition's template does not refine the grid's lattice.
std::vector<GridPartRead> plan_part_reads(const std::string& bitmask, int partition_bits,
                                          const std::vector<GridPartSpace>& parts, const GridBox& box, int resolution);

}  // namespace lodex
