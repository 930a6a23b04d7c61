// Hierarchical Z (HZ) index space of IDX grids (docs: docs/formats/idx.md §1; paper
// "parallel IDX writer" §II). Pure: no files, no MPI.
//
// A bitmask "V c1 c2 ... c_maxh" (digits: axes, 0 = x) says which axis is split at each level,
// c1 the coarsest. Axis a has the power-of-two extent 2^(occurrences of a). The Z address
// interleaves the coordinate bits so that the rightmost occurrence of axis a carries bit 0 of
// coordinate a: Z bit j comes from position maxh - j. HZ = v >> (ctz(v) + 1) with
// v = Z | 2^maxh; level(hz) = bit length of hz (level 0: the origin; level H >= 1 holds
// hz in [2^(H-1), 2^H)). Resolution r is levels 0..r: the lattice with stride
// 2^(occurrences of a in positions r+1..maxh) on axis a.
//
// Blocks of 2^bpb consecutive hz: block 0 holds levels 0..bpb (the resolution-bpb lattice);
// block b >= 1 lies in level bpb + 1 + floor(log2 b) and its points form one strided box, whose
// samples in hz order follow from per-axis tables (`BlockOrder`): whole blocks at a time.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace lodex {

using Coord3 = std::array<uint64_t, 3>;

// An axis-aligned lattice: start + i * stride for i < count on each axis (count 0: empty).
struct StridedBox {
  Coord3 start{0, 0, 0};
  Coord3 stride{1, 1, 1};
  Coord3 count{0, 0, 0};
  uint64_t size() const { return count[0] * count[1] * count[2]; }
};

class HzIndex {
 public:
  static constexpr int kMaxBits = 60;

  // Parses and validates "V..." (digits 0..2, at least one and at most kMaxBits of them). An axis
  // below the highest one named may not occur: it then has extent 1, as in OpenVisus. Throws
  // InvalidArgument naming what is wrong.
  explicit HzIndex(const std::string& bitmask);
  // OpenVisus's default bitmask for grid `dims` (x first; 1 <= ndims <= 3): round-robin over the
  // axes x, y, z on the power-of-two extents, coarse to fine, skipping axes already used up.
  static std::string default_bitmask(const Coord3& dims, int ndims);

  const std::string& text() const { return text_; }
  int ndims() const { return ndims_; }
  int maxh() const { return maxh_; }
  int axis_at(int position) const { return axes_[position - 1]; }   // position 1..maxh
  const Coord3& pow2_dims() const { return pow2_; }
  // Whether the power-of-two box [0, pow2) holds a grid of `dims` (unused axes must be 1).
  bool holds(const Coord3& dims) const;
  // Throws InvalidArgument unless it holds a grid of `dims` with `ndims` axes (and splits no other).
  void require_fits(const Coord3& dims, int ndims) const;

  uint64_t z_of(const Coord3& p) const;
  Coord3 point_of_z(uint64_t z) const;
  uint64_t hz_of(const Coord3& p) const;
  Coord3 point_of_hz(uint64_t hz) const;
  static int level_of(uint64_t hz) { return hz == 0 ? 0 : 64 - __builtin_clzll(hz); }

  // Points of level H (0..maxh) and of resolution r (levels 0..r), within [0, pow2).
  StridedBox level_box(int H) const;
  StridedBox resolution_box(int r) const;
  // Points of block b of 2^bpb samples. For b >= 1 they are in hz order when walked with a
  // BlockOrder; block 0 is the resolution-bpb lattice (use hz_of for its order).
  StridedBox block_box(uint64_t b, int bpb) const;
  static int level_of_block(uint64_t b, int bpb) { return b == 0 ? bpb : bpb + level_of(b); }

 private:
  std::string text_;
  int ndims_ = 0, maxh_ = 0;
  std::vector<int> axes_;         // axes_[i] = axis split at position i + 1
  Coord3 pow2_{1, 1, 1};
  std::array<uint64_t, 3> zmask_{0, 0, 0};   // Z bits carrying each axis
  // Byte tables: deposit_[a][k][v] = the Z bits of byte k of coordinate a equal to v;
  // extract_[k][v][a] = the bits of coordinate a held by byte k of a Z address equal to v.
  std::vector<uint64_t> deposit_;   // [3][8][256]
  std::vector<uint64_t> extract_;   // [8][256][3]
};

// The indices i (i0 <= i < i1) of the points start + i * stride, i < count, that lie in [lo, hi).
void span_within(uint64_t start, uint64_t stride, uint64_t count, int64_t lo, int64_t hi, uint64_t& i0, uint64_t& i1);

// The blocks of levels 0..r (block 0, then blocks of levels bpb+1..r) holding a sample of the box
// [lo, hi), ascending. Blocks are found by halving each level's block range and dropping the
// halves whose box misses [lo, hi): the cost grows with the blocks found, not the grid's blocks.
std::vector<uint64_t> blocks_meeting(const HzIndex& hz, int bpb, int r, const std::array<int64_t, 3>& lo,
                                     const std::array<int64_t, 3>& hi);

// The hz order inside the blocks of one level H > bpb: sample k of a block sits at
// start + (i_x, i_y, i_z) * stride of its block_box with k = table[0][i_x] | table[1][i_y] |
// table[2][i_z]. The same tables serve every block of the level.
struct BlockOrder {
  BlockOrder(const HzIndex& index, int bpb, int level);
  std::array<std::vector<uint32_t>, 3> table;
};

// HZ encoding of a dense array (a brick) indexed by `local`: writes level h (0..maxh) in hz
// order, sample hz at out + hz * sample. The sample at (x, y, z) is at src + x * stride[0] +
// y * stride[1] + z * stride[2]; only points with p[a] < valid[a] are copied (the others are left
// as they are). One pass per level with the per-axis tables, no per-sample index arithmetic.
// The same, writing level h's run alone: its first sample (local hz 2^(h-1), or 0 for h = 0) at
// `level_out` (e.g. straight into the buffer of the file the run belongs to).
void hz_encode_level_run(const HzIndex& local, int h, const uint8_t* src, const std::array<uint64_t, 3>& stride,
                         const Coord3& valid, size_t sample, uint8_t* level_out);
void hz_encode_level(const HzIndex& local, int h, const uint8_t* src, const std::array<uint64_t, 3>& stride,
                     const Coord3& valid, size_t sample, uint8_t* out);

// Block b of 2^bpb samples of a dense array, in hz order: out[k] = the sample at block point k
// (block 0 level by level, blocks >= 1 with `order` = BlockOrder(index, bpb, level_of_block(b)),
// ignored for block 0). The array and `valid` are as for hz_encode_level: points past `valid` are
// left as they are in `out`.
void hz_encode_block(const HzIndex& index, uint64_t b, int bpb, const BlockOrder* order, const uint8_t* src,
                     const std::array<uint64_t, 3>& stride, const Coord3& valid, size_t sample, uint8_t* out);

// Where decoded samples go: the query's lattice (first + i * delta, count points per axis) in a
// dense row-major (z, y, x) array.
struct LatticeOut {
  uint8_t* data = nullptr;
  std::array<int64_t, 3> first{0, 0, 0};
  std::array<uint64_t, 3> delta{1, 1, 1}, count{0, 0, 0};
  int64_t end(int a) const { return first[a] + static_cast<int64_t>(count[a] * delta[a]); }
};

// The samples of block b (payload `src`, hz order, or row-major over its block box when
// `row_major`) that lie on the lattice, copied into it. Levels finer than `resolution` are
// skipped (they can only be in block 0, which holds levels 0..bpb).
void hz_decode_block(const HzIndex& index, uint64_t b, int bpb, int resolution, bool row_major, const uint8_t* src,
                     size_t sample, const LatticeOut& out);

}  // namespace lodex
