#include "layout/hz.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/error.hpp"

namespace lodex {

HzIndex::HzIndex(const std::string& bitmask) : text_(bitmask) {
  if (bitmask.empty() || bitmask[0] != 'V')
    fail(ErrorCode::kInvalidArgument, "bitmask '", bitmask, "' must start with 'V' followed by axis digits (0 = x, ",
         "1 = y, 2 = z), e.g. V012012012");
  maxh_ = static_cast<int>(bitmask.size()) - 1;
  if (maxh_ < 1) fail(ErrorCode::kInvalidArgument, "bitmask '", bitmask, "' has no axis digits");
  if (maxh_ > kMaxBits)
    fail(ErrorCode::kInvalidArgument, "bitmask '", bitmask, "' has ", maxh_, " digits; at most ", kMaxBits,
         " are supported");
  for (int i = 1; i <= maxh_; ++i) {
    const char c = bitmask[i];
    if (c < '0' || c > '2')
      fail(ErrorCode::kInvalidArgument, "bitmask '", bitmask, "' has '", c, "' at position ", i,
           ": only axes 0 (x), 1 (y) and 2 (z) are supported");
    const int a = c - '0';
    axes_.push_back(a);
    ndims_ = std::max(ndims_, a + 1);
  }
  // Z bit j comes from position maxh - j; the k-th Z bit of axis a (from the bottom) is bit k of
  // coordinate a.
  std::array<std::vector<int>, 3> zbits;   // zbits[a][k] = Z bit holding coordinate bit k
  for (int j = 0; j < maxh_; ++j) {
    const int a = axes_[maxh_ - 1 - j];
    zbits[a].push_back(j);
    zmask_[a] |= uint64_t{1} << j;
  }
  for (int a = 0; a < 3; ++a) pow2_[a] = uint64_t{1} << zbits[a].size();
  deposit_.assign(3 * 8 * 256, 0);
  extract_.assign(8 * 256 * 3, 0);
  for (int a = 0; a < 3; ++a)
    for (size_t bit = 0; bit < zbits[a].size(); ++bit) {
      const size_t k = bit / 8, t = bit % 8;
      for (uint32_t v = 0; v < 256; ++v)
        if ((v >> t) & 1) deposit_[(a * 8 + k) * 256 + v] |= uint64_t{1} << zbits[a][bit];
    }
  for (int j = 0; j < maxh_; ++j) {
    const int a = axes_[maxh_ - 1 - j];
    const int bit = __builtin_popcountll(zmask_[a] & ((uint64_t{1} << j) - 1));   // its rank in axis a
    const int k = j / 8, t = j % 8;
    for (uint32_t v = 0; v < 256; ++v)
      if ((v >> t) & 1) extract_[(k * 256 + v) * 3 + a] |= uint64_t{1} << bit;
  }
}

std::string HzIndex::default_bitmask(const Coord3& dims, int ndims) {
  if (ndims < 1 || ndims > 3) fail(ErrorCode::kInvalidArgument, "grids have 1 to 3 dimensions, not ", ndims);
  std::array<int, 3> left{0, 0, 0};
  int total = 0;
  for (int a = 0; a < ndims; ++a) {
    if (dims[a] < 1) fail(ErrorCode::kInvalidArgument, "grid dimension ", a, " is ", dims[a]);
    while ((uint64_t{1} << left[a]) < dims[a]) ++left[a];
    total += left[a];
  }
  if (total > kMaxBits) fail(ErrorCode::kInvalidArgument, "the grid needs ", total, " index bits; at most ", kMaxBits);
  std::string s = "V";
  if (total == 0) return s + "0";
  while (total > 0)
    for (int a = 0; a < ndims; ++a)
      if (left[a] > 0) {
        s += static_cast<char>('0' + a);
        --left[a];
        --total;
      }
  return s;
}

bool HzIndex::holds(const Coord3& dims) const {
  for (int a = 0; a < 3; ++a)
    if (dims[a] < 1 || dims[a] > pow2_[a]) return false;
  return true;
}

void HzIndex::require_fits(const Coord3& dims, int ndims) const {
  if (!holds(dims))
    fail(ErrorCode::kInvalidArgument, "bitmask ", text_, " is too short for a ", dims[0], " x ", dims[1], " x ",
         dims[2], " grid (it covers ", pow2_[0], " x ", pow2_[1], " x ", pow2_[2], ")");
  if (ndims_ > ndims)
    fail(ErrorCode::kInvalidArgument, "bitmask ", text_, " splits axis ", ndims_ - 1, " of a ", ndims, "-D grid");
}

uint64_t HzIndex::z_of(const Coord3& p) const {
  uint64_t z = 0;
  for (int a = 0; a < 3; ++a) {
    uint64_t c = p[a];
    const uint64_t* t = deposit_.data() + a * 8 * 256;
    for (int k = 0; c != 0 && k < 8; ++k, c >>= 8, t += 256) z |= t[c & 255];
  }
  return z;
}

Coord3 HzIndex::point_of_z(uint64_t z) const {
  Coord3 p{0, 0, 0};
  for (int k = 0; z != 0 && k < 8; ++k, z >>= 8) {
    const uint64_t* e = extract_.data() + (k * 256 + (z & 255)) * 3;
    p[0] |= e[0];
    p[1] |= e[1];
    p[2] |= e[2];
  }
  return p;
}

uint64_t HzIndex::hz_of(const Coord3& p) const {
  const uint64_t v = z_of(p) | (uint64_t{1} << maxh_);
  return v >> (__builtin_ctzll(v) + 1);
}

Coord3 HzIndex::point_of_hz(uint64_t hz) const {
  const int L = level_of(hz);
  const uint64_t mask = (uint64_t{1} << maxh_) - 1;
  return point_of_z((((hz << 1) | 1) << (maxh_ - L)) & mask);
}

StridedBox HzIndex::resolution_box(int r) const {
  if (r < 0 || r > maxh_) fail(ErrorCode::kInvalidArgument, "resolution ", r, " is outside 0..", maxh_);
  StridedBox b;
  for (int p = r + 1; p <= maxh_; ++p) b.stride[axis_at(p)] *= 2;
  for (int a = 0; a < 3; ++a) b.count[a] = pow2_[a] / b.stride[a];
  return b;
}

StridedBox HzIndex::level_box(int H) const {
  if (H < 0 || H > maxh_) fail(ErrorCode::kInvalidArgument, "level ", H, " is outside 0..", maxh_);
  if (H == 0) return StridedBox{{0, 0, 0}, {1, 1, 1}, {1, 1, 1}};
  StridedBox b = resolution_box(H);
  const int a = axis_at(H);
  b.start[a] = b.stride[a];
  b.stride[a] *= 2;
  b.count[a] /= 2;
  return b;
}

StridedBox HzIndex::block_box(uint64_t blk, int bpb) const {
  if (bpb < 0 || bpb > maxh_) fail(ErrorCode::kInvalidArgument, "bits per block ", bpb, " is outside 0..", maxh_);
  if (blk >= (uint64_t{1} << (maxh_ - bpb)))
    fail(ErrorCode::kInvalidArgument, "block ", blk, " is beyond the ", uint64_t{1} << (maxh_ - bpb), " blocks");
  if (blk == 0) return resolution_box(bpb);
  const int H = level_of_block(blk, bpb);
  StridedBox b;
  b.start = point_of_hz(blk << bpb);
  b.count = {1, 1, 1};
  for (int p = H; p <= maxh_; ++p) b.stride[axis_at(p)] *= 2;
  for (int p = H - bpb; p <= H - 1; ++p) b.count[axis_at(p)] *= 2;
  return b;
}

void span_within(uint64_t start, uint64_t stride, uint64_t count, int64_t lo, int64_t hi, uint64_t& i0, uint64_t& i1) {
  const int64_t s = static_cast<int64_t>(start), st = static_cast<int64_t>(stride);
  i0 = lo <= s ? 0 : static_cast<uint64_t>((lo - s + st - 1) / st);
  i1 = hi <= s ? 0 : std::min<uint64_t>(count, static_cast<uint64_t>((hi - s + st - 1) / st));
  if (i1 < i0) i1 = i0;
}

namespace {

// Calls f(std::integral_constant<size_t, S>{}) with S = sample when that size has a fixed-size
// copy (1, 2, 4, 8, 12, 16 or 24 bytes: the dtypes times 1-3 components), S = 0 (any size,
// copied with its runtime length) otherwise. Every per-sample kernel below is chosen through it.
template <typename F>
decltype(auto) with_sample_size(size_t sample, F&& f) {
  switch (sample) {
    case 1: return f(std::integral_constant<size_t, 1>{});
    case 2: return f(std::integral_constant<size_t, 2>{});
    case 4: return f(std::integral_constant<size_t, 4>{});
    case 8: return f(std::integral_constant<size_t, 8>{});
    case 12: return f(std::integral_constant<size_t, 12>{});
    case 16: return f(std::integral_constant<size_t, 16>{});
    case 24: return f(std::integral_constant<size_t, 24>{});
    default: return f(std::integral_constant<size_t, 0>{});
  }
}

}  // namespace

namespace {

bool box_meets(const StridedBox& b, const std::array<int64_t, 3>& lo, const std::array<int64_t, 3>& hi) {
  for (int a = 0; a < 3; ++a) {
    uint64_t i0, i1;
    span_within(b.start[a], b.stride[a], b.count[a], lo[a], hi[a], i0, i1);
    if (i1 <= i0) return false;
  }
  return true;
}

// Blocks [first, first + n) of one level, n a power of two and first a multiple of n: their
// in-level indices share a prefix, which fixes the top bits of every coordinate, so together they
// are the box from the first block's start to the last block's end.
void meeting_in_range(const HzIndex& hz, int bpb, uint64_t first, uint64_t n, const std::array<int64_t, 3>& lo,
                      const std::array<int64_t, 3>& hi, std::vector<uint64_t>& out) {
  const StridedBox a = hz.block_box(first, bpb);
  StridedBox range = a;
  if (n > 1) {
    const StridedBox z = hz.block_box(first + n - 1, bpb);
    for (int x = 0; x < 3; ++x) range.count[x] = (z.start[x] - a.start[x]) / a.stride[x] + z.count[x];
  }
  if (!box_meets(range, lo, hi)) return;
  if (n == 1) {
    out.push_back(first);
    return;
  }
  meeting_in_range(hz, bpb, first, n / 2, lo, hi, out);
  meeting_in_range(hz, bpb, first + n / 2, n / 2, lo, hi, out);
}

}  // namespace

std::vector<uint64_t> blocks_meeting(const HzIndex& hz, int bpb, int r, const std::array<int64_t, 3>& lo,
                                     const std::array<int64_t, 3>& hi) {
  std::vector<uint64_t> out;
  if (box_meets(hz.block_box(0, bpb), lo, hi)) out.push_back(0);
  for (int level = bpb + 1; level <= r; ++level) {
    const uint64_t n = uint64_t{1} << (level - bpb - 1);
    meeting_in_range(hz, bpb, n, n, lo, hi, out);
  }
  return out;
}

BlockOrder::BlockOrder(const HzIndex& index, int bpb, int level) {
  if (bpb < 0 || bpb > 31 || level <= bpb || level > index.maxh())
    fail(ErrorCode::kInvalidArgument, "no blocks of ", bpb, " bits at level ", level, " of '", index.text(), "'");
  // Walking a block's axis a from its start, step t flips the t-th free position of a counted
  // from the finest (position level-1) down; that position is hz bit level-1-p.
  std::array<std::vector<uint32_t>, 3> bit_of_step;
  for (int p = level - 1; p >= level - bpb; --p)
    bit_of_step[index.axis_at(p)].push_back(uint32_t{1} << (level - 1 - p));
  for (int a = 0; a < 3; ++a) {
    const size_t n = size_t{1} << bit_of_step[a].size();
    table[a].assign(n, 0);
    for (size_t i = 1; i < n; ++i) {
      const int t = __builtin_ctzll(i);   // i = (i with bit t cleared) | 2^t
      table[a][i] = table[a][i & (i - 1)] | bit_of_step[a][t];
    }
  }
}

namespace {
template <size_t S>
void encode_rows(const StridedBox& box, const BlockOrder& order, const uint8_t* src,
                 const std::array<uint64_t, 3>& stride, const std::array<uint64_t, 3>& n, size_t sample, uint8_t* out) {
  const size_t sz = S ? S : sample;
  const uint32_t* t0 = order.table[0].data();
  const uint64_t step_x = box.stride[0] * stride[0];
  for (uint64_t k = 0; k < n[2]; ++k)
    for (uint64_t j = 0; j < n[1]; ++j) {
      const uint32_t jk = order.table[1][j] | order.table[2][k];
      const uint8_t* s = src + box.start[0] * stride[0] + (box.start[1] + j * box.stride[1]) * stride[1] +
                         (box.start[2] + k * box.stride[2]) * stride[2];
      for (uint64_t i = 0; i < n[0]; ++i, s += step_x) std::memcpy(out + (t0[i] | jk) * sz, s, sz);
    }
}
}  // namespace

void hz_encode_level(const HzIndex& local, int h, const uint8_t* src, const std::array<uint64_t, 3>& stride,
                     const Coord3& valid, size_t sample, uint8_t* out) {
  hz_encode_level_run(local, h, src, stride, valid, sample, h == 0 ? out : out + (uint64_t{1} << (h - 1)) * sample);
}

void hz_encode_level_run(const HzIndex& local, int h, const uint8_t* src, const std::array<uint64_t, 3>& stride,
                         const Coord3& valid, size_t sample, uint8_t* base) {
  if (h == 0) {
    std::memcpy(base, src, sample);
    return;
  }
  const StridedBox box = local.level_box(h);
  std::array<uint64_t, 3> n{};
  for (int a = 0; a < 3; ++a) {
    uint64_t i0;
    span_within(box.start[a], box.stride[a], box.count[a], 0, static_cast<int64_t>(valid[a]), i0, n[a]);
    if (n[a] == 0) return;
  }
  const BlockOrder order(local, h - 1, h);
  with_sample_size(sample, [&](auto S) { encode_rows<S()>(box, order, src, stride, n, sample, base); });
}

namespace {

// One strided box of points (a level of block 0, or a whole block), whose sample at box index
// (i, j, k) is src[at(i, j, k)], onto the lattice: a row at a time, with one output step per row.
template <size_t S, typename At>
void decode_box(const StridedBox& box, const uint64_t lo[3], const uint64_t hi[3], const uint8_t* src, size_t sample,
                const LatticeOut& out, At at) {
  const size_t sz = S ? S : sample;
  const uint64_t step = box.stride[0] / out.delta[0];   // lattice points per box step along x
  for (uint64_t k = lo[2]; k < hi[2]; ++k) {
    const uint64_t z = (box.start[2] + k * box.stride[2] - static_cast<uint64_t>(out.first[2])) / out.delta[2];
    for (uint64_t j = lo[1]; j < hi[1]; ++j) {
      const uint64_t y = (box.start[1] + j * box.stride[1] - static_cast<uint64_t>(out.first[1])) / out.delta[1];
      const uint64_t x = (box.start[0] + lo[0] * box.stride[0] - static_cast<uint64_t>(out.first[0])) / out.delta[0];
      uint8_t* dst = out.data + ((z * out.count[1] + y) * out.count[0] + x) * sz;
      for (uint64_t i = lo[0]; i < hi[0]; ++i, dst += step * sz) std::memcpy(dst, src + at(i, j, k) * sz, sz);
    }
  }
}

// The box's index range on the lattice; false when no point of it is there.
bool lattice_span(const StridedBox& box, const LatticeOut& out, uint64_t lo[3], uint64_t hi[3]) {
  for (int a = 0; a < 3; ++a) {
    span_within(box.start[a], box.stride[a], box.count[a], out.first[a], out.end(a), lo[a], hi[a]);
    if (hi[a] <= lo[a]) return false;
  }
  return true;
}

template <size_t S>
void decode_block_typed(const HzIndex& index, uint64_t b, int bpb, int resolution, bool row_major, const uint8_t* src,
                        size_t sample, const LatticeOut& out) {
  uint64_t lo[3], hi[3];
  if (b > 0) {
    const StridedBox box = index.block_box(b, bpb);
    if (!lattice_span(box, out, lo, hi)) return;
    if (row_major) {
      decode_box<S>(box, lo, hi, src, sample, out,
                    [&](uint64_t i, uint64_t j, uint64_t k) { return i + box.count[0] * (j + box.count[1] * k); });
      return;
    }
    const BlockOrder order(index, bpb, HzIndex::level_of_block(b, bpb));
    const uint32_t *t0 = order.table[0].data(), *t1 = order.table[1].data(), *t2 = order.table[2].data();
    decode_box<S>(box, lo, hi, src, sample, out,
                  [&](uint64_t i, uint64_t j, uint64_t k) { return t0[i] | t1[j] | t2[k]; });
    return;
  }
  if (row_major) {   // block 0 row-major: the resolution-bpb lattice, keeping the points on `out`'s
    const StridedBox box = index.resolution_box(bpb);
    if (!lattice_span(box, out, lo, hi)) return;
    // Where out's lattice is coarser, every e-th point of the box along that axis is on it.
    std::array<uint64_t, 3> every{};
    StridedBox coarse = box;
    uint64_t clo[3], chi[3];
    for (int a = 0; a < 3; ++a) {
      every[a] = out.delta[a] > box.stride[a] ? out.delta[a] / box.stride[a] : 1;
      coarse.stride[a] = box.stride[a] * every[a];
      clo[a] = (lo[a] + every[a] - 1) / every[a];
      chi[a] = (hi[a] - 1) / every[a] + 1;
      if (chi[a] <= clo[a]) return;
    }
    decode_box<S>(coarse, clo, chi, src, sample, out, [&](uint64_t i, uint64_t j, uint64_t k) {
      return i * every[0] + box.count[0] * (j * every[1] + box.count[1] * k * every[2]);
    });
    return;
  }
  // Block 0 in hz order: level h is hz [2^(h-1), 2^h), ordered as a block of h-1 bits at level h.
  for (int h = 0; h <= std::min(bpb, resolution); ++h) {
    const StridedBox box = index.level_box(h);
    if (!lattice_span(box, out, lo, hi)) continue;
    if (h == 0) {
      decode_box<S>(box, lo, hi, src, sample, out, [](uint64_t, uint64_t, uint64_t) { return uint64_t{0}; });
      continue;
    }
    const BlockOrder order(index, h - 1, h);
    const uint32_t *t0 = order.table[0].data(), *t1 = order.table[1].data(), *t2 = order.table[2].data();
    const uint64_t base = uint64_t{1} << (h - 1);
    decode_box<S>(box, lo, hi, src, sample, out,
                  [&](uint64_t i, uint64_t j, uint64_t k) { return base + (t0[i] | t1[j] | t2[k]); });
  }
}

}  // namespace

namespace {

// A whole block (every point inside the array) in output order: sample n of the block comes from
// src + offset(n), and offset is a sum over n's set bits, so it is two (or more) table lookups per
// sample, one per byte of n. Sequential writes; the reads stay inside the block's footprint.
template <size_t S>
void gather_block(const StridedBox& box, const BlockOrder& order, const uint8_t* src,
                  const std::array<uint64_t, 3>& stride, int bits, size_t sample, uint8_t* out) {
  const size_t sz = S ? S : sample;
  std::vector<uint64_t> bit_offset(static_cast<size_t>(bits), 0);
  for (int a = 0; a < 3; ++a)
    for (size_t t = 0; (size_t{1} << t) < order.table[a].size(); ++t)
      bit_offset[static_cast<size_t>(__builtin_ctz(order.table[a][size_t{1} << t]))] = (box.stride[a] << t) * stride[a];
  const int bytes = (bits + 7) / 8;
  std::vector<uint64_t> table(static_cast<size_t>(bytes) * 256, 0);
  for (int k = 0; k < bytes; ++k)
    for (uint32_t v = 1; v < 256; ++v) {
      const int t = __builtin_ctz(v);
      table[k * 256 + v] = table[k * 256 + (v & (v - 1))] + (8 * k + t < bits ? bit_offset[8 * k + t] : 0);
    }
  const uint8_t* base = src + box.start[0] * stride[0] + box.start[1] * stride[1] + box.start[2] * stride[2];
  const uint64_t n = uint64_t{1} << bits;
  const uint64_t* lo = table.data();
  if (bits <= 8) {
    for (uint64_t i = 0; i < n; ++i, out += sz) std::memcpy(out, base + lo[i], sz);
    return;
  }
  for (uint64_t high = 0; high < (n >> 8); ++high) {
    uint64_t off = 0;
    for (int k = 1; k < bytes; ++k) off += table[k * 256 + ((high >> (8 * (k - 1))) & 255)];
    const uint8_t* row = base + off;
    for (uint32_t i = 0; i < 256; ++i, out += sz) std::memcpy(out, row + lo[i], sz);
  }
}

}  // namespace

void hz_encode_block(const HzIndex& index, uint64_t b, int bpb, const BlockOrder* order, const uint8_t* src,
                     const std::array<uint64_t, 3>& stride, const Coord3& valid, size_t sample, uint8_t* out) {
  if (b == 0) {
    for (int h = 0; h <= bpb; ++h) hz_encode_level(index, h, src, stride, valid, sample, out);
    return;
  }
  const StridedBox box = index.block_box(b, bpb);
  std::array<uint64_t, 3> n{};
  for (int a = 0; a < 3; ++a) {
    uint64_t i0;
    span_within(box.start[a], box.stride[a], box.count[a], 0, static_cast<int64_t>(valid[a]), i0, n[a]);
    if (n[a] == 0) return;
  }
  with_sample_size(sample, [&](auto S) {
    if (n == box.count) gather_block<S()>(box, *order, src, stride, bpb, sample, out);
    else encode_rows<S()>(box, *order, src, stride, n, sample, out);
  });
}

void hz_decode_block(const HzIndex& index, uint64_t b, int bpb, int resolution, bool row_major, const uint8_t* src,
                     size_t sample, const LatticeOut& out) {
  with_sample_size(sample,
                   [&](auto S) { decode_block_typed<S()>(index, b, bpb, resolution, row_major, src, sample, out); });
}

}  // namespace lodex
