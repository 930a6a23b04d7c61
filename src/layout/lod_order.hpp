// Level-of-detail order of one aggregator's particles (paper §3.4; docs/formats/particles.md,
// "Row order").
//
// Given N particles, level scale S >= 2 and a level-0 cap B0:
//   levels: prefix counts c_{L-1} = N, c_{k-1} = ceil(c_k / S), stopping at the first c_0 <= B0;
//           level k is rows [c_{k-1}, c_k) (c_{-1} = 0), so levels 0..k are one contiguous prefix
//           and each level is about (S-1)x the size of everything before it.
//   bricks: the brick box (the partition box) cut into 2^b cells per axis, b the largest value
//           with 8^b * brick_target <= N (b <= 10), or with brick_target 0 the size for the data
//           (lod_brick_bits_for_data); a brick's key is the Morton code of its cell.
//   order:  a seeded uniform random permutation decides which particles form each level; inside
//           a level, particles are grouped by brick key (ascending), keeping the random order
//           inside a brick. A prefix of any brick of any level is therefore a uniform random
//           sample of that brick's particles in that level.
// The result is the permutation (output row i takes input row perm[i]) and the segment table:
// segment (k, m) = rows of level k in brick m, stored as start rows, size L * 8^b + 1.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/box.hpp"
#include "core/dtype.hpp"

namespace lodex {

struct LodParams {
  uint32_t scale = 2;             // S
  uint64_t level0_max = 256;      // B0
  uint64_t brick_target = 0;      // particles per brick over all levels, roughly; 0: sized for the data
  uint64_t seed = 0;
};

struct LodLayout {
  std::vector<uint64_t> level_ends;       // c_k, size L
  uint32_t brick_bits = 0;                // b
  std::vector<uint64_t> segment_starts;   // size L * 8^b + 1
  uint64_t num_bricks() const { return uint64_t{1} << (3 * brick_bits); }
  uint32_t num_levels() const { return static_cast<uint32_t>(level_ends.size()); }
};

// The brick cells of a brick box cut into 2^bits cells per axis. cell() is the one expression
// the writer uses to place particles, so readers choosing bricks for a box use it too: it is
// monotone in p, so the cells of [lo, hi) are exactly cell(lo) .. cell(largest double < hi).
struct BrickGrid {
  BrickGrid(const Box& brick_box, uint32_t bits);
  uint32_t cell(int axis, double p) const {
    // Clamping also places particles a rounding error outside the box in the edge brick.
    return static_cast<uint32_t>(std::min(std::max((p - lo[axis]) * scale[axis], 0.0), top));
  }
  // The smallest coordinate whose cell() on `axis` is k (0 < k <= top): the exact face between
  // cells k-1 and k in this arithmetic, so a cut there splits no brick.
  double face(int axis, uint32_t k) const;
  uint32_t bits = 0;
  double lo[3] = {0, 0, 0};
  double scale[3] = {0, 0, 0};
  double top = 0;   // 2^bits - 1
};

// Morton code of a cell: bit i of x goes to bit 3i, y to 3i+1, z to 3i+2 (cells < 1024).
uint32_t morton3(uint32_t x, uint32_t y, uint32_t z);

// Level prefix counts for N particles (the rule above); empty for N = 0.
std::vector<uint64_t> lod_level_ends(uint64_t n, uint32_t scale, uint64_t level0_max);
// lod_level_ends(n, scale, level0_max).size(), without building the list (readers ask per file).
uint32_t lod_level_count(uint64_t n, uint32_t scale, uint64_t level0_max);
uint32_t lod_brick_bits(uint64_t n, uint64_t brick_target);
// Bricks sized for the data (brick_target 0): the largest b <= 10 whose segment table (levels x 8^b
// + 1 starts of 8 bytes) is at most 1/kBrickTableShare of the file's row bytes, whose bricks hold
// at least kMinBrickParticles particles on average, and with no more bricks than level 0 has
// particles (level0_max). Small files get bricks of a few hundred particles, so a box read reads
// little more than the box; the last bound keeps coarse reads cheap: a sample smaller than the
// brick count takes a brick's first rows from deeper levels, and the rows read reach down to
// about as many as there are bricks.
inline constexpr uint64_t kBrickTableShare = 32;
inline constexpr uint64_t kMinBrickParticles = 64;
uint32_t lod_brick_bits_for_data(uint64_t n, uint32_t levels, uint64_t row_bytes, uint64_t level0_max);
// The brick bits of a file of n particles of `row_bytes` bytes under `params` (either rule).
uint32_t lod_brick_bits(uint64_t n, const LodParams& params, uint64_t row_bytes);

// positions: N rows of 3 values of type `position_type` (f4 or f8), row-major. `row_bytes`: bytes
// of one particle over all fields, for bricks sized for the data (default: f8 positions alone).
LodLayout lod_order(const void* positions, DType position_type, uint64_t n, const Box& brick_box,
                    const LodParams& params, std::vector<uint32_t>& perm, uint64_t row_bytes = 24);

// lod_order in two steps, for a writer that knows N before the positions arrive: the levels, the
// brick bits and the seeded shuffle depend on N and the parameters only.
struct LodShuffle {
  LodLayout layout;                // segment_starts not yet filled
  std::vector<uint32_t> shuffled;  // shuffled[j]: the input row at random position j
};
LodShuffle lod_shuffle(uint64_t n, const LodParams& params, uint64_t row_bytes);
// The same into `out`, whose arrays are reused: a writer that orders every step touches no fresh
// pages (a page fault and a cleared page per 4 KiB otherwise).
void lod_shuffle(uint64_t n, const LodParams& params, uint64_t row_bytes, LodShuffle& out);
// lod_place's working array (the brick key of every shuffled position: 4 bytes per row), kept by a
// caller that orders again.
struct LodPlaceScratch {
  std::vector<uint32_t> shuffled_key;
};
// Then the bricks of the positions and the counting sort: the same permutation as lod_order.
// `shuffle.shuffled` is left as it was (its array may be reused).
LodLayout lod_place(LodShuffle&& shuffle, const void* positions, DType position_type, const Box& brick_box,
                    std::vector<uint32_t>& perm);
LodLayout lod_place(LodShuffle&& shuffle, const void* positions, DType position_type, const Box& brick_box,
                    std::vector<uint32_t>& perm, LodPlaceScratch& scratch);
// The same into `perm`, room for the shuffle's n entries that the caller provides (a node's shared
// window, where the writers of the file read it: no copy of it in the aggregator's own memory).
LodLayout lod_place(LodShuffle&& shuffle, const void* positions, DType position_type, const Box& brick_box,
                    uint32_t* perm, LodPlaceScratch& scratch);

// The placement in pieces, for writers that share it (pipelines/particles/node_file_write.hpp):
// k parties each take a range of the input rows, then a range of the shuffled positions, and
// meet twice. Run over one range each, these are lod_place; over k ranges in order, with the
// counts summed as lod_fill_starts says, they give exactly its permutation (the sort is stable).
//   1. lod_keys: the brick key of input rows [begin, end) into key[begin, end) (key has n entries);
//   2. lod_count: for shuffled positions [begin, end): their keys into shuffled_key[0, end - begin)
//      (read from key[], which every party must have finished) and the rows per segment (level,
//      brick) into counts (num_levels x num_bricks, zeroed first);
//   3. lod_fill_starts: from every party's counts (in range order), the segment starts and where
//      party `me` places its first row of each segment;
//   4. lod_scatter: perm[fill[segment]++] = shuffled[j] over the party's range. perm may be key's
//      room: once every party counted, the keys are no longer read.
void lod_keys(const void* positions, DType position_type, uint64_t begin, uint64_t end, const Box& brick_box,
              uint32_t brick_bits, uint32_t* key);
void lod_count(const LodLayout& layout, const uint32_t* shuffled, const uint32_t* key, uint64_t begin, uint64_t end,
               uint32_t* shuffled_key, uint64_t* counts);
// counts: `parties` tables of num_levels x num_bricks; fills layout.segment_starts and `fill`.
void lod_fill_starts(LodLayout& layout, const uint64_t* counts, size_t parties, size_t me, std::vector<uint64_t>& fill);
void lod_scatter(const LodLayout& layout, const uint32_t* shuffled, const uint32_t* shuffled_key, uint64_t begin,
                 uint64_t end, std::vector<uint64_t>& fill, uint32_t* perm);
// The seeded shuffle into `shuffled` (n entries the caller provides) and the layout without its
// segment starts: lod_shuffle's, into a node's shared window.
LodLayout lod_shuffle_into(uint64_t n, const LodParams& params, uint64_t row_bytes, uint32_t* shuffled);

// out[i] = in[perm[i]] for rows of `row_bytes` bytes.
void gather_rows(const void* in, void* out, size_t row_bytes, const uint32_t* perm, uint64_t n);

// Rows of a field given one array per component (structure of arrays), interleaved into rows:
// out[i * k + c] = parts[c][perm ? perm[i] : i] for the k = parts.size() components, each
// element `elem_bytes` bytes.
void gather_components(std::span<const void* const> parts, size_t elem_bytes, const uint32_t* perm, uint64_t n,
                       void* out);

}  // namespace lodex
