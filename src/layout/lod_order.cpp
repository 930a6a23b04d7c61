#include "layout/lod_order.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <numeric>

#include "core/error.hpp"
#include "layout/rng.hpp"

namespace lodex {

uint32_t lod_level_count(uint64_t n, uint32_t scale, uint64_t level0_max) {
  if (scale < 2) fail(ErrorCode::kInvalidArgument, "level scale must be at least 2, got ", scale);
  if (level0_max < 1) fail(ErrorCode::kInvalidArgument, "level-0 size must be at least 1");
  uint32_t levels = n == 0 ? 0 : 1;
  for (uint64_t c = n; c > level0_max; c = (c + scale - 1) / scale) ++levels;
  return levels;
}

std::vector<uint64_t> lod_level_ends(uint64_t n, uint32_t scale, uint64_t level0_max) {
  std::vector<uint64_t> ends;
  ends.reserve(lod_level_count(n, scale, level0_max));
  if (n == 0) return ends;
  for (uint64_t c = n;; c = (c + scale - 1) / scale) {
    ends.push_back(c);
    if (c <= level0_max) break;
  }
  return {ends.rbegin(), ends.rend()};
}

uint32_t lod_brick_bits(uint64_t n, uint64_t brick_target) {
  if (brick_target < 1) fail(ErrorCode::kInvalidArgument, "brick target must be at least 1");
  uint32_t b = 0;
  while (b < 10 && (uint64_t{1} << (3 * (b + 1))) * brick_target <= n) ++b;
  return b;
}

uint32_t lod_brick_bits_for_data(uint64_t n, uint32_t levels, uint64_t row_bytes, uint64_t level0_max) {
  const uint64_t budget = n * row_bytes / kBrickTableShare;   // bytes of segment table allowed
  uint32_t b = 0;
  while (b < 10) {
    const uint64_t bricks = uint64_t{1} << (3 * (b + 1));
    if ((uint64_t{levels} * bricks + 1) * 8 > budget || bricks * kMinBrickParticles > n || bricks > level0_max) break;
    ++b;
  }
  return b;
}

uint32_t lod_brick_bits(uint64_t n, const LodParams& params, uint64_t row_bytes) {
  if (params.brick_target > 0) return lod_brick_bits(n, params.brick_target);
  return lod_brick_bits_for_data(n, lod_level_count(n, params.scale, params.level0_max), row_bytes, params.level0_max);
}

namespace {

// Spreads the low 10 bits of v to every third bit.
constexpr uint32_t spread3(uint32_t v) {
  v &= 0x3ff;
  v = (v | (v << 16)) & 0x030000ff;
  v = (v | (v << 8)) & 0x0300f00f;
  v = (v | (v << 4)) & 0x030c30c3;
  v = (v | (v << 2)) & 0x09249249;
  return v;
}

// spread3 for every 10-bit cell index, looked up instead of computed in the hot loop.
const std::array<uint32_t, 1024>& spread3_table() {
  static const std::array<uint32_t, 1024> table = [] {
    std::array<uint32_t, 1024> t{};
    for (uint32_t i = 0; i < 1024; ++i) t[i] = spread3(i);
    return t;
  }();
  return table;
}

template <typename T>
void brick_keys(const T* pos, uint64_t begin, uint64_t end, const Box& box, uint32_t bits, uint32_t* key) {
  if (bits == 0) {   // one brick: every key is 0
    std::fill(key + begin, key + end, 0u);
    return;
  }
  const BrickGrid grid(box, bits);
  const uint32_t* spread = spread3_table().data();
  for (uint64_t i = begin; i < end; ++i) {
    const uint32_t cx = grid.cell(0, static_cast<double>(pos[3 * i]));
    const uint32_t cy = grid.cell(1, static_cast<double>(pos[3 * i + 1]));
    const uint32_t cz = grid.cell(2, static_cast<double>(pos[3 * i + 2]));
    key[i] = spread[cx] | (spread[cy] << 1) | (spread[cz] << 2);
  }
}

// The levels and bricks of n particles (no segment starts yet).
LodLayout lod_layout(uint64_t n, const LodParams& params, uint64_t row_bytes) {
  if (n > UINT32_MAX)
    fail(ErrorCode::kUnsupported, "one aggregation partition holds ", n,
         " particles; at most 2^32-1 per file are supported (use more partitions)");
  LodLayout layout;
  layout.level_ends = lod_level_ends(n, params.scale, params.level0_max);
  layout.brick_bits = lod_brick_bits(n, params, row_bytes);
  return layout;
}

// Seeded Fisher-Yates shuffle: shuffled[j] is the input row at random position j.
void seeded_shuffle(uint64_t n, uint64_t seed, uint32_t* shuffled) {
  std::iota(shuffled, shuffled + n, 0u);
  Xoshiro256 rng(seed);
  for (uint64_t i = n > 0 ? n - 1 : 0; i > 0; --i) std::swap(shuffled[i], shuffled[rng.below(i + 1)]);
}

}  // namespace

BrickGrid::BrickGrid(const Box& box, uint32_t b) : bits(b) {
  const double cells = static_cast<double>(1u << b);
  top = cells - 1;
  for (int a = 0; a < 3; ++a) {
    lo[a] = box.inclusive_min[a];
    const double extent = box.exclusive_max[a] - box.inclusive_min[a];
    scale[a] = extent > 0 ? cells / extent : 0.0;
  }
}

double BrickGrid::face(int axis, uint32_t k) const {
  if (k == 0 || k > top || !(scale[axis] > 0))
    fail(ErrorCode::kInvalidArgument, "cell face ", k, " is not between two cells of a ", bits, "-bit grid");
  // Bisect between a coordinate in cell k-1 and one in cell k down to adjacent doubles (stepping
  // one ulp at a time would never end near zero, where the ulps are tiny).
  double a = lo[axis] + (k - 0.5) / scale[axis], b = lo[axis] + (k + 0.5) / scale[axis];
  if (cell(axis, a) >= k) a = lo[axis];
  if (cell(axis, b) < k) b = lo[axis] + 2 * (top + 1) / scale[axis];
  for (;;) {
    const double mid = a + 0.5 * (b - a);
    if (!(mid > a && mid < b)) return b;
    (cell(axis, mid) >= k ? b : a) = mid;
  }
}

uint32_t morton3(uint32_t x, uint32_t y, uint32_t z) {
  const uint32_t* spread = spread3_table().data();
  return spread[x & 0x3ff] | (spread[y & 0x3ff] << 1) | (spread[z & 0x3ff] << 2);
}

LodShuffle lod_shuffle(uint64_t n, const LodParams& params, uint64_t row_bytes) {
  LodShuffle s;
  lod_shuffle(n, params, row_bytes, s);
  return s;
}

void lod_shuffle(uint64_t n, const LodParams& params, uint64_t row_bytes, LodShuffle& s) {
  s.layout = lod_layout(n, params, row_bytes);
  s.shuffled.resize(n);
  seeded_shuffle(n, params.seed, s.shuffled.data());
}

LodLayout lod_shuffle_into(uint64_t n, const LodParams& params, uint64_t row_bytes, uint32_t* shuffled) {
  LodLayout layout = lod_layout(n, params, row_bytes);
  seeded_shuffle(n, params.seed, shuffled);
  return layout;
}

LodLayout lod_place(LodShuffle&& shuffle, const void* positions, DType position_type, const Box& brick_box,
                    std::vector<uint32_t>& perm) {
  LodPlaceScratch scratch;
  return lod_place(std::move(shuffle), positions, position_type, brick_box, perm, scratch);
}

LodLayout lod_place(LodShuffle&& shuffle, const void* positions, DType position_type, const Box& brick_box,
                    std::vector<uint32_t>& perm, LodPlaceScratch& scratch) {
  perm.resize(shuffle.shuffled.size());
  return lod_place(std::move(shuffle), positions, position_type, brick_box, perm.data(), scratch);
}

void lod_keys(const void* positions, DType position_type, uint64_t begin, uint64_t end, const Box& brick_box,
              uint32_t brick_bits, uint32_t* key) {
  if (position_type == DType::kF8)
    brick_keys(static_cast<const double*>(positions), begin, end, brick_box, brick_bits, key);
  else if (position_type == DType::kF4)
    brick_keys(static_cast<const float*>(positions), begin, end, brick_box, brick_bits, key);
  else fail(ErrorCode::kInternal, "positions must be f4 or f8");
}

void lod_count(const LodLayout& layout, const uint32_t* shuffled, const uint32_t* key, uint64_t begin, uint64_t end,
               uint32_t* shuffled_key, uint64_t* counts) {
  const uint64_t nb = layout.num_bricks();
  std::fill_n(counts, layout.num_levels() * nb, uint64_t{0});
  // Read twice below (the counts, then the scatter) from an array of 4 bytes per row, which stays
  // in cache where the positions (12-24 bytes per row) would not.
  for (uint64_t j = begin; j < end; ++j) shuffled_key[j - begin] = key[shuffled[j]];
  uint64_t j = begin;
  for (uint32_t k = 0; k < layout.num_levels() && j < end; ++k) {
    uint64_t* level_count = counts + k * nb;
    for (const uint64_t stop = std::min(end, layout.level_ends[k]); j < stop; ++j)
      ++level_count[shuffled_key[j - begin]];
  }
}

void lod_fill_starts(LodLayout& layout, const uint64_t* counts, size_t parties, size_t me,
                     std::vector<uint64_t>& fill) {
  const uint64_t segments = layout.num_levels() * layout.num_bricks();
  layout.segment_starts.assign(segments + 1, 0);
  fill.assign(segments, 0);
  uint64_t at = 0;
  for (uint64_t s = 0; s < segments; ++s) {
    layout.segment_starts[s] = at;
    for (size_t p = 0; p < parties; ++p) {
      if (p == me) fill[s] = at;
      at += counts[p * segments + s];
    }
  }
  layout.segment_starts[segments] = at;
}

void lod_scatter(const LodLayout& layout, const uint32_t* shuffled, const uint32_t* shuffled_key, uint64_t begin,
                 uint64_t end, std::vector<uint64_t>& fill, uint32_t* perm) {
  const uint64_t nb = layout.num_bricks();
  uint64_t j = begin;
  for (uint32_t k = 0; k < layout.num_levels() && j < end; ++k) {
    uint64_t* level_fill = fill.data() + k * nb;
    for (const uint64_t stop = std::min(end, layout.level_ends[k]); j < stop; ++j)
      perm[level_fill[shuffled_key[j - begin]]++] = shuffled[j];
  }
}

LodLayout lod_place(LodShuffle&& shuffle, const void* positions, DType position_type, const Box& brick_box,
                    uint32_t* perm, LodPlaceScratch& scratch) {
  LodLayout layout = std::move(shuffle.layout);
  const uint64_t n = shuffle.shuffled.size();
  // The keys of the input rows go in perm's room, unused until the scatter overwrites them.
  lod_keys(positions, position_type, 0, n, brick_box, layout.brick_bits, perm);
  scratch.shuffled_key.resize(n);
  std::vector<uint64_t> counts(layout.num_levels() * layout.num_bricks());
  lod_count(layout, shuffle.shuffled.data(), perm, 0, n, scratch.shuffled_key.data(), counts.data());
  std::vector<uint64_t> fill;
  lod_fill_starts(layout, counts.data(), 1, 0, fill);
  lod_scatter(layout, shuffle.shuffled.data(), scratch.shuffled_key.data(), 0, n, fill, perm);
  return layout;
}

LodLayout lod_order(const void* positions, DType position_type, uint64_t n, const Box& brick_box,
                    const LodParams& params, std::vector<uint32_t>& perm, uint64_t row_bytes) {
  return lod_place(lod_shuffle(n, params, row_bytes), positions, position_type, brick_box, perm);
}

namespace {
template <size_t kBytes>
void gather_fixed(const uint8_t* in, uint8_t* out, const uint32_t* perm, uint64_t n) {
  // The reads are random: fetch a few rows ahead so the loads overlap.
  constexpr uint64_t kAhead = 16;
  const uint64_t head = n > kAhead ? n - kAhead : 0;
  uint64_t i = 0;
  for (; i < head; ++i) {
    __builtin_prefetch(in + size_t{perm[i + kAhead]} * kBytes);
    std::memcpy(out + i * kBytes, in + size_t{perm[i]} * kBytes, kBytes);
  }
  for (; i < n; ++i) std::memcpy(out + i * kBytes, in + size_t{perm[i]} * kBytes, kBytes);
}
template <size_t kBytes>
void gather_component(const uint8_t* in, uint8_t* out, size_t stride, const uint32_t* perm, uint64_t n) {
  if (perm)
    for (uint64_t i = 0; i < n; ++i) std::memcpy(out + i * stride, in + size_t{perm[i]} * kBytes, kBytes);
  else
    for (uint64_t i = 0; i < n; ++i) std::memcpy(out + i * stride, in + i * kBytes, kBytes);
}
}  // namespace

void gather_rows(const void* in_v, void* out_v, size_t row_bytes, const uint32_t* perm, uint64_t n) {
  const auto* in = static_cast<const uint8_t*>(in_v);
  auto* out = static_cast<uint8_t*>(out_v);
  switch (row_bytes) {
    case 1: return gather_fixed<1>(in, out, perm, n);
    case 2: return gather_fixed<2>(in, out, perm, n);
    case 4: return gather_fixed<4>(in, out, perm, n);
    case 8: return gather_fixed<8>(in, out, perm, n);
    case 12: return gather_fixed<12>(in, out, perm, n);
    case 16: return gather_fixed<16>(in, out, perm, n);
    case 24: return gather_fixed<24>(in, out, perm, n);
    case 36: return gather_fixed<36>(in, out, perm, n);
    case 72: return gather_fixed<72>(in, out, perm, n);
    default:
      for (uint64_t i = 0; i < n; ++i) std::memcpy(out + i * row_bytes, in + size_t{perm[i]} * row_bytes, row_bytes);
  }
}

void gather_components(std::span<const void* const> parts, size_t elem_bytes, const uint32_t* perm, uint64_t n,
                       void* out_v) {
  const size_t stride = parts.size() * elem_bytes;
  for (size_t c = 0; c < parts.size(); ++c) {
    const auto* in = static_cast<const uint8_t*>(parts[c]);
    uint8_t* out = static_cast<uint8_t*>(out_v) + c * elem_bytes;
    switch (elem_bytes) {
      case 1: gather_component<1>(in, out, stride, perm, n); break;
      case 2: gather_component<2>(in, out, stride, perm, n); break;
      case 4: gather_component<4>(in, out, stride, perm, n); break;
      case 8: gather_component<8>(in, out, stride, perm, n); break;
      default:
        for (uint64_t i = 0; i < n; ++i)
          std::memcpy(out + i * stride, in + size_t{perm ? perm[i] : i} * elem_bytes, elem_bytes);
    }
  }
}

}  // namespace lodex
