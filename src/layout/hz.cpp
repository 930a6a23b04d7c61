#include "layout/hz.hpp"

#include <algorithm>
#include <cstring>

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
    fail(ErrorCode::kInvalidArgument, "bitmask ", text_, " is too short for a ", dims[0], " x ", dims[1], " x ", dims[2],
         " grid (it covers ", pow2_[0], " x ", pow2_[1], " x ", pow2_[2], ")");
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

void span_within(uint64_t start, uint64_t stride, uint64_t count, int64_t lo, int64_t hi, uint64_t& i0,
                 uint64_t& i1) {
  const int64_t s = static_cast<int64_t>(start), st = static_cast<int64_t>(stride);
  i0 = lo <= s ? 0 : static_cast<uint64_t>((lo - s + st - 1) / st);
  i1 = hi <= s ? 0 : std::min<uint64_t>(count, static_cast<uint64_t>((hi - s + st - 1) / st));
  if (i1 < i0) i1 = i0;
}

BlockOrder::BlockOrder(const HzIndex& index, int bpb, int level) {
  if (bpb < 0 || bpb > 31 || level <= bpb || level > index.maxh())
    fail(ErrorCode::kInvalidArgument, "no blocks of ", bpb, " bits at level ", level, " of '", index.text(), "'");
  // Walking a block's axis a from its start, step t flips the t-th free position of a counted
  // from the finest (position level-1) down; that position is hz bit level-1-p.
  std::array<std::vector<uint32_t>, 3> bit_of_step;
  for (int p = level - 1; p >= level - bpb; --p) bit_of_step[index.axis_at(p)].push_back(uint32_t{1} << (level - 1 - p));
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
void encode_rows(const StridedBox& box, const BlockOrder& order, const uint8_t* src, const std::array<uint64_t, 3>& stride,
                 const std::array<uint64_t, 3>& n, size_t sample, uint8_t* out) {
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
  switch (sample) {
    case 1: return encode_rows<1>(box, order, src, stride, n, sample, base);
    case 2: return encode_rows<2>(box, order, src, stride, n, sample, base);
    case 4: return encode_rows<4>(box, order, src, stride, n, sample, base);
    case 8: return encode_rows<8>(box, order, src, stride, n, sample, base);
    case 12: return encode_rows<12>(box, order, src, stride, n, sample, base);
    case 16: return encode_rows<16>(box, order, src, stride, n, sample, base);
    case 24: return encode_rows<24>(box, order, src, stride, n, sample, base);
    default: return encode_rows<0>(box, order, src, stride, n, sample, base);
  }
}

}  // namespace lodex
