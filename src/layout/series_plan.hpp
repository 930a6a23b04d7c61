// Series (Tian et al. 2013, STAR): many small 2-D and 3-D variables on a regular grid, written every
// step by ranks that each hold one box of a 2-D or 3-D domain decomposition. Pure planning: the
// decomposition the ranks' boxes form, the coordination of temporal and spatial aggregation
// (§III-D), the hierarchical aggregation groups with their round-robin aggregators (§III-C), and
// where each chunk of a window of steps lies in the window's file (Hilbert order, §III).
//
// Grid axes are x (fastest), y, z ("level" in GEOS-5 terms). A 3-D variable covers (z, y, x), a
// 2-D one (y, x). A chunk holds one variable over a box for the steps of one window, stored
// (t, z, y, x) in C order (x fastest).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.hpp"
#include "layout/grid_plan.hpp"

namespace lodex {

struct SeriesVariable {
  std::string name;
  DType dtype = DType::kF4;
  int ndim = 3;   // 3: (z, y, x); 2: (y, x)
  uint64_t sample_bytes() const { return dtype_size(dtype); }
  bool operator==(const SeriesVariable&) const = default;
};

// The part of `box` a variable has: 2-D variables have no z axis (z = [0, 1)).
GridBox var_box(const SeriesVariable& v, GridBox box);
// Slabs per step of a variable's chunk over `box` (the unit a checksum covers): its z-planes for
// a 3-D variable, one for a 2-D one.
uint32_t var_planes(const SeriesVariable& v, const GridBox& box);

// The ranks' boxes as a tensor grid of cells, one rank per cell: cuts[a] = {0 = c_0 < c_1 < ...
// < c_k = dims[a]} and rank r holds cell `cell[r]`.
struct SeriesDecomposition {
  std::array<int64_t, 3> dims{0, 0, 0};
  std::array<std::vector<int64_t>, 3> cuts;
  std::vector<std::array<uint32_t, 3>> cell;   // per rank
  std::vector<uint32_t> rank_at;               // per cell (x fastest): the rank holding it
  uint32_t cells(int axis) const { return static_cast<uint32_t>(cuts[axis].size() - 1); }
  // Axes cut into more than one cell: 2 for GEOS-5's (x, y) decomposition.
  int decomposed_axes() const;
  GridBox cell_box(const std::array<uint32_t, 3>& c) const;
  GridBox rank_box(uint32_t rank) const { return cell_box(cell[rank]); }
};

// The decomposition formed by `boxes` (rank r: boxes[r]) of a grid of `dims`. InvalidArgument
// naming the rank(s) when a box is empty or leaves the grid, two boxes overlap, or the boxes do
// not tile the grid as a tensor grid (every rank's box one cell of per-axis cuts).
SeriesDecomposition decompose_series(const std::array<int64_t, 3>& dims, const std::vector<GridBox>& boxes);

// What the coordination takes from the ranks' boxes: the largest rank's bytes of one step over
// all variables, and the average variable's bytes per rank and step (DataSize_ts, at least 1).
struct SeriesStepBytes {
  uint64_t largest_rank = 0;
  uint64_t average_variable = 1;
};
SeriesStepBytes series_step_bytes(const std::vector<SeriesVariable>& vars, const std::vector<GridBox>& boxes);

// §III-D: OptSize = BW_io × (CC + Ts), and OptSize = d_tar × DataSize_ts × (2^n)^d_sar (eq. 3).
struct StarSettings {
  double bw_io = 500e6;   // bytes per second of one storage target
  double cc = 1e-3;       // communication cost unit, seconds
  double ts = 5e-3;       // time of one seek (request), seconds
  uint64_t memory_budget = 256ull << 20;   // bytes a rank may hold for temporal aggregation
  int d_tar = 0, d_sar = -1;               // forced when >= 1 (d_tar) or >= 0 (d_sar)
  // What a crash may cost: a window holds at most this many steps, and is written once its
  // first step is this many seconds old (inf: no time bound) even if it is not full.
  uint32_t max_window_steps = 32;
  double max_window_seconds = 600;
  bool operator==(const StarSettings&) const = default;
};
struct StarChoice {
  uint32_t d_tar = 1, d_sar = 0;
  uint64_t opt_size = 0;        // bytes
  uint64_t chunk_bytes = 0;     // a full window's chunk of the average variable
  uint64_t buffer_bytes = 0;    // what the largest rank buffers for d_tar steps
  std::string reason;           // how d_tar and d_sar were chosen, for `lodex info`
};
// `step_bytes`: the largest rank's bytes of one step over all variables; `var_step_bytes`: the
// average variable's bytes per rank per step (DataSize_ts); `max_d_sar`: the levels the
// decomposition allows. InvalidArgument when one step does not fit the memory budget, or a forced
// degree is out of range. Without forcing: d_sar = 1 (the paper's default) when the decomposition
// allows it; d_tar the steps that make a chunk OptSize, at most what memory allows; when memory
// caps d_tar below that, more spatial levels make up the rest (eq. 4: d_sar = floor(log_{2^n}
// (OptSize / (d_tar × DataSize_ts)))). d_tar is at most max_window_steps (a forced d_tar above it
// is an InvalidArgument).
StarChoice coordinate_star(uint64_t step_bytes, uint64_t var_step_bytes, int decomposed_axes, uint32_t max_d_sar,
                           const StarSettings& settings);

// The levels of spatial aggregation a decomposition allows: until one group holds every rank.
uint32_t max_sar_levels(const SeriesDecomposition& d);

// A write's plan from the ranks' boxes, as the writer makes it and the previews show it: the
// decomposition (decompose_series; Unsupported when a variable is 2-D and the boxes cut z), then
// STAR's choice for it under `settings` (series_step_bytes, max_sar_levels, coordinate_star).
SeriesDecomposition decompose_series_write(const std::array<int64_t, 3>& dims, const std::vector<SeriesVariable>& vars,
                                           const std::vector<GridBox>& boxes);
StarChoice choose_star(const std::vector<SeriesVariable>& vars, const std::vector<GridBox>& boxes,
                       const SeriesDecomposition& dec, const StarSettings& settings);

// Spatial aggregation: level-L groups are blocks of 2^L × 2^L (× 2^L) cells on the decomposed
// axes (clipped at the grid's edge); the level-d_sar blocks are the chunks written. The aggregator
// of variable v in a level-L group is, recursively, the level-(L−1) aggregator of its sub-group
// number floor(v / (2^n)^(L−1)) mod (sub-groups): round robin, so the variables' aggregation
// work spreads over all the ranks of a group, and every level's aggregator is one of the level
// below's (data moves up the hierarchy, one hop per level).
struct SeriesChunk {
  std::array<uint32_t, 3> block{0, 0, 0};   // block coordinates at level d_sar
  std::array<uint32_t, 3> first_cell{0, 0, 0}, end_cell{0, 0, 0};   // the cells it merges
  GridBox box;                               // their union (z: the whole grid for 2-D decompositions)
  uint64_t hilbert = 0;                      // position of the block on the Hilbert curve
};
class SarPlan {
 public:
  SarPlan(const SeriesDecomposition& d, uint32_t d_sar);
  uint32_t levels() const { return d_sar_; }
  // The chunks in Hilbert order of their blocks: the order they are stored in a window's file.
  const std::vector<SeriesChunk>& chunks() const { return chunks_; }
  // The chunk holding rank r's cell.
  uint32_t chunk_of_rank(uint32_t rank) const;
  // The rank aggregating variable v for rank r's level-L group (L = 0: r itself).
  uint32_t aggregator(uint32_t v, uint32_t level, uint32_t rank) const;
  // The level-L group box containing rank r's cell.
  GridBox group_box(uint32_t level, uint32_t rank) const;
  // The ranks whose level-(L−1) aggregate for variable v arrives at rank r at level L (r must be
  // the level-L aggregator of its group; its own contribution included), ascending.
  std::vector<uint32_t> senders(uint32_t v, uint32_t level, uint32_t rank) const;

 private:
  std::array<uint32_t, 3> group_first(uint32_t level, const std::array<uint32_t, 3>& cell) const;
  std::array<uint32_t, 3> group_end(uint32_t level, const std::array<uint32_t, 3>& first) const;
  SeriesDecomposition d_;
  uint32_t d_sar_;
  std::array<bool, 3> cut_{false, false, false};   // decomposed axes
  int n_ = 0;
  std::vector<SeriesChunk> chunks_;
  std::vector<uint32_t> chunk_of_block_;   // block (x fastest) -> index in chunks_
  std::array<uint32_t, 3> blocks_{1, 1, 1};
};

// Bytes of variable v over `box` for `steps` steps (2-D variables ignore z).
uint64_t chunk_bytes(const SeriesVariable& v, const GridBox& box, uint64_t steps);

// Where each (variable, chunk) of a window of `steps` steps lies in the window's file: variable
// after variable, each variable's chunks in Hilbert order, back to back from offset `start`.
struct WindowLayout {
  std::vector<std::vector<uint64_t>> offset;   // [variable][chunk]
  std::vector<std::vector<uint64_t>> bytes;
  uint64_t end = 0;
};
WindowLayout window_layout(const std::vector<SeriesVariable>& vars, const SarPlan& sar, uint64_t steps, uint64_t start);
// Slabs per step of every (variable, chunk), [variable × chunks + chunk] (var_planes).
std::vector<uint32_t> chunk_planes(const std::vector<SeriesVariable>& vars, const SarPlan& sar);

}  // namespace lodex
