#include "layout/particle_read_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace lodex {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr uint64_t kSaturated = uint64_t{1} << 62;

uint64_t reverse_bits(uint64_t v) {
  v = ((v >> 1) & 0x5555555555555555ull) | ((v & 0x5555555555555555ull) << 1);
  v = ((v >> 2) & 0x3333333333333333ull) | ((v & 0x3333333333333333ull) << 2);
  v = ((v >> 4) & 0x0f0f0f0f0f0f0f0full) | ((v & 0x0f0f0f0f0f0f0f0full) << 4);
  return __builtin_bswap64(v);
}
}  // namespace

Box unbounded_box() { return Box{{-kInf, -kInf, -kInf}, {kInf, kInf, kInf}}; }

bool bounds_meet(const Box& bounds, const Box& query) {
  for (int a = 0; a < 3; ++a)
    if (!(bounds.exclusive_max[a] >= query.inclusive_min[a] && bounds.inclusive_min[a] < query.exclusive_max[a] &&
          query.inclusive_min[a] < query.exclusive_max[a]))
      return false;
  return true;
}

double estimated_inside(const Box& bounds, uint64_t count, const Box& query) {
  if (count == 0 || !bounds_meet(bounds, query)) return 0;
  double share = 1;
  for (int a = 0; a < 3; ++a) {
    const double lo = bounds.inclusive_min[a], hi = bounds.exclusive_max[a];
    if (!(hi > lo)) continue;   // zero extent: bounds_meet already placed it inside
    const double overlap = std::min(hi, query.exclusive_max[a]) - std::max(lo, query.inclusive_min[a]);
    share *= std::clamp(overlap / (hi - lo), 0.0, 1.0);
  }
  return share * static_cast<double>(count);
}

std::vector<BrickPick> bricks_meeting(const BrickGrid& grid, const Box& bounds, const Box& query) {
  std::vector<BrickPick> out;
  if (!bounds_meet(bounds, query)) return out;
  const uint32_t top = static_cast<uint32_t>(grid.top);
  uint32_t first[3], last[3];
  bool all_above[3], all_below[3];
  for (int a = 0; a < 3; ++a) {
    // The writer's cell() is monotone, so the particles in [qmin, qmax) have exactly the cells
    // cell(qmin) .. cell(largest double below qmax).
    all_above[a] = query.inclusive_min[a] <= bounds.inclusive_min[a];
    all_below[a] = query.exclusive_max[a] > bounds.exclusive_max[a];
    first[a] = all_above[a] ? 0 : grid.cell(a, query.inclusive_min[a]);
    last[a] = all_below[a] ? top : grid.cell(a, std::nextafter(query.exclusive_max[a], -kInf));
  }
  out.reserve(size_t{last[0] - first[0] + 1} * (last[1] - first[1] + 1) * (last[2] - first[2] + 1));
  for (uint32_t z = first[2]; z <= last[2]; ++z) {
    const bool iz = (all_above[2] || z > first[2]) && (all_below[2] || z < last[2]);
    for (uint32_t y = first[1]; y <= last[1]; ++y) {
      const bool iy = (all_above[1] || y > first[1]) && (all_below[1] || y < last[1]);
      for (uint32_t x = first[0]; x <= last[0]; ++x) {
        const bool ix = (all_above[0] || x > first[0]) && (all_below[0] || x < last[0]);
        out.push_back({morton3(x, y, z), ix && iy && iz});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const BrickPick& p, const BrickPick& q) { return p.brick < q.brick; });
  return out;
}

NestedSampler::NestedSampler(uint64_t n) : n_(n) {
  if (n > kSaturated) fail(ErrorCode::kUnsupported, "a read over ", n, " particles is beyond the sampler's 2^62");
  while ((uint64_t{1} << bits_) < n) ++bits_;
}

uint64_t NestedSampler::below(uint64_t k, uint64_t x) const {
  if (bits_ == 0) return std::min(k, x);
  // Split [0, k) into aligned blocks [p, p + 2^m), one per set bit m of k. Inside a block the
  // reversed values are r + q·2^(M-m), q < 2^m, with r = reverse(p) < 2^(M-m).
  uint64_t total = 0;
  for (int m = static_cast<int>(bits_); m >= 0; --m) {
    if (!((k >> m) & 1)) continue;
    const uint64_t p = m + 1 >= 64 ? 0 : (k >> (m + 1)) << (m + 1);
    const uint64_t r = p == 0 ? 0 : reverse_bits(p) >> (64 - bits_);
    if (x <= r) continue;
    const uint64_t step = uint64_t{1} << (bits_ - m);
    total += std::min(uint64_t{1} << m, (x - r + step - 1) / step);
  }
  return total;
}

NestedSampler::Prefix NestedSampler::prefix(uint64_t t) const {
  const uint64_t end = uint64_t{1} << bits_;
  if (t >= n_) return {end};
  uint64_t lo = 0, hi = end;   // below(lo, N) < t <= below(hi, N) once t > 0
  if (t == 0) return {0};
  while (hi - lo > 1) {
    const uint64_t mid = lo + (hi - lo) / 2;
    (below(mid, n_) >= t ? hi : lo) = mid;
  }
  return {hi};
}

void validate(const LodRequest& r) {
  if (r.readers < 1) fail(ErrorCode::kInvalidArgument, "readers must be at least 1, got ", r.readers);
  if (r.P < 1) fail(ErrorCode::kInvalidArgument, "P (particles per reader in level 0) must be at least 1, got ", r.P);
  if (!(r.S > 1) || !std::isfinite(r.S))
    fail(ErrorCode::kInvalidArgument, "S (the level scale) must be a finite number above 1, got ", r.S);
}

namespace {
// floor(n·P·S^l), saturating.
uint64_t level_size(const LodRequest& r, uint32_t level) {
  const long double x = static_cast<long double>(r.readers) * static_cast<long double>(r.P) *
                        std::pow(static_cast<long double>(r.S), static_cast<long double>(level));
  return x >= static_cast<long double>(kSaturated) ? kSaturated : static_cast<uint64_t>(x);
}
constexpr uint32_t kMaxLevel = 1u << 20;
}  // namespace

uint64_t level_prefix(const LodRequest& r, uint32_t level) {
  uint64_t sum = 0;
  for (uint32_t l = 0; l <= level && sum < kSaturated; ++l) sum = std::min(kSaturated, sum + level_size(r, l));
  return sum;
}

uint32_t level_count(const LodRequest& r, uint64_t candidates) {
  uint64_t sum = 0;
  for (uint32_t l = 0; l < kMaxLevel; ++l) {
    sum = std::min(kSaturated, sum + level_size(r, l));
    if (sum >= candidates) return l + 1;
  }
  fail(ErrorCode::kInvalidArgument, "S = ", r.S, " makes more than ", kMaxLevel, " levels; use a larger S");
}

void validate_fraction(double f) {
  if (!(f > 0 && f <= 1)) fail(ErrorCode::kInvalidArgument, "fraction must be in (0, 1], got ", f);
}

uint64_t fraction_target(double f, uint64_t candidates) {
  validate_fraction(f);
  if (candidates == 0) return 0;
  const long double t = std::llround(static_cast<long double>(f) * static_cast<long double>(candidates));
  return std::clamp<uint64_t>(static_cast<uint64_t>(t), 1, candidates);
}

void brick_pieces(const std::vector<uint64_t>& starts, uint32_t num_levels, uint64_t num_bricks, uint32_t brick,
                  uint64_t from, uint64_t to, std::vector<RowPiece>& out) {
  uint64_t offset = 0;   // position of this level's segment in the brick's sequence
  for (uint32_t k = 0; k < num_levels && offset < to; ++k) {
    const uint64_t s = uint64_t{k} * num_bricks + brick;
    const uint64_t size = starts[s + 1] - starts[s];
    const uint64_t a = std::max(from, offset), b = std::min(to, offset + size);
    if (a < b) out.push_back({s, starts[s] + (a - offset), starts[s] + (b - offset), b - a == size});
    offset += size;
  }
}

uint64_t brick_count(const std::vector<uint64_t>& starts, uint32_t num_levels, uint64_t num_bricks, uint32_t brick) {
  uint64_t n = 0;
  for (uint32_t k = 0; k < num_levels; ++k) {
    const uint64_t s = uint64_t{k} * num_bricks + brick;
    n += starts[s + 1] - starts[s];
  }
  return n;
}

uint64_t spatial_key(const Box& box, const Box& domain) {
  constexpr double kCells = double(1u << 21);
  uint64_t key = 0;
  for (int a = 0; a < 3; ++a) {
    const double extent = domain.exclusive_max[a] - domain.inclusive_min[a];
    const double centre = 0.5 * (box.inclusive_min[a] + box.exclusive_max[a]);
    double u = extent > 0 && std::isfinite(extent) ? (centre - domain.inclusive_min[a]) / extent : 0;
    if (!(u >= 0)) u = 0;
    const uint64_t q = static_cast<uint64_t>(std::min(u * kCells, kCells - 1));
    for (int i = 0; i < 21; ++i) key |= ((q >> i) & 1) << (3 * i + a);
  }
  return key;
}

namespace {
double estimate(const std::vector<FileExtent>& files, const Box& region) {
  double sum = 0;
  for (const auto& f : files) sum += estimated_inside(f.bounds, f.count, region);
  return sum;
}

// The face of the dominant crossed file's brick grid nearest `cut`, if strictly inside the region
// and within tolerance of the target; else `cut`.
double snap_to_brick_face(const Box& region, const std::vector<FileExtent>& files, int axis, double cut, double target,
                          double total) {
  const FileExtent* dominant = nullptr;
  double weight = 0;
  for (const auto& f : files) {
    if (f.grid.empty() || f.grid_bits == 0 || !bounds_meet(f.bounds, region)) continue;
    if (!(cut > f.grid.inclusive_min[axis] && cut < f.grid.exclusive_max[axis])) continue;
    const double w = estimated_inside(f.bounds, f.count, region);
    if (w > weight) weight = w, dominant = &f;
  }
  if (!dominant) return cut;
  const BrickGrid grid(dominant->grid, dominant->grid_bits);
  const double lo = dominant->grid.inclusive_min[axis];
  const double k = std::round((cut - lo) * grid.scale[axis]);
  if (!(k >= 0 && k <= grid.top + 1)) return cut;
  // Faces 0 and top + 1 are the grid's own bounds: the file then lies wholly on one side.
  const double face = k == 0              ? lo
                      : k == grid.top + 1 ? dominant->grid.exclusive_max[axis]
                                          : grid.face(axis, static_cast<uint32_t>(k));
  if (!(face > region.inclusive_min[axis] && face < region.exclusive_max[axis])) return cut;
  Box left = region;
  left.exclusive_max[axis] = face;
  return std::abs(estimate(files, left) - target) <= kSnapTolerance * total ? face : cut;
}

void split_into(const Box& region, const std::vector<FileExtent>& files, uint32_t n, std::vector<Box>& out) {
  if (n == 1) {
    out.push_back(region);
    return;
  }
  // The finite hull of the particles that may lie in the region.
  Box hull = Box::nothing();
  for (const auto& f : files)
    if (bounds_meet(f.bounds, region)) hull.extend(intersection(f.bounds, region));
  int axis = 0;
  double best = -1;
  for (int a = 0; a < 3; ++a) {
    double extent = hull.exclusive_max[a] - hull.inclusive_min[a];
    if (!(extent >= 0)) extent = 0;   // no particles: fall back to the region's own extent
    if (!std::isfinite(hull.inclusive_min[a])) {
      extent = region.exclusive_max[a] - region.inclusive_min[a];
      if (!std::isfinite(extent)) extent = 0;
    }
    if (extent > best) best = extent, axis = a;
  }
  const uint32_t left_n = n / 2;
  const double share = static_cast<double>(left_n) / n;
  double lo = hull.inclusive_min[axis], hi = hull.exclusive_max[axis];
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi >= lo)) {   // no particles in the region
    lo = region.inclusive_min[axis], hi = region.exclusive_max[axis];
    if (!std::isfinite(lo) || !std::isfinite(hi)) lo = hi = std::isfinite(lo) ? lo : (std::isfinite(hi) ? hi : 0);
  }
  double cut = lo + share * (hi - lo);   // by volume when nothing is known
  const double total = estimate(files, region);
  if (total > 0 && hi > lo) {
    Box left = region;
    double a = lo, b = hi;
    for (int it = 0; it < 100; ++it) {
      const double mid = a + 0.5 * (b - a);
      if (mid <= a || mid >= b) break;
      left.exclusive_max[axis] = mid;
      (estimate(files, left) >= share * total ? b : a) = mid;
    }
    cut = b;
  }
  cut = std::clamp(cut, region.inclusive_min[axis], region.exclusive_max[axis]);
  if (total > 0) cut = snap_to_brick_face(region, files, axis, cut, share * total, total);
  Box left = region, right = region;
  left.exclusive_max[axis] = cut;
  right.inclusive_min[axis] = cut;
  split_into(left, files, left_n, out);
  split_into(right, files, n - left_n, out);
}
}  // namespace

std::vector<Box> spatial_split(const Box& query, const std::vector<FileExtent>& files, uint32_t n) {
  if (n < 1) fail(ErrorCode::kInvalidArgument, "a read needs at least one reader");
  std::vector<Box> out;
  out.reserve(n);
  split_into(query, files, n, out);
  return out;
}

ByteSplit::ByteSplit(const std::vector<uint64_t>& weights, uint32_t n) {
  if (n < 1) fail(ErrorCode::kInvalidArgument, "a read needs at least one reader");
  start_.assign(1, 0);
  for (uint64_t w : weights) start_.push_back(start_.back() + std::max<uint64_t>(w, 1));
  const unsigned __int128 total = start_.back();
  cut_.resize(n + 1);
  for (uint32_t r = 0; r <= n; ++r) cut_[r] = static_cast<uint64_t>(total * r / n);
}

bool ByteSplit::reader_touches(uint32_t reader, size_t file) const {
  return std::max(start_[file], cut_[reader]) < std::min(start_[file + 1], cut_[reader + 1]);
}

uint32_t ByteSplit::owner(size_t file, uint64_t before, uint64_t total) const {
  const unsigned __int128 width = start_[file + 1] - start_[file];
  const uint64_t point = start_[file] + (total ? static_cast<uint64_t>(width * before / total) : 0);
  return static_cast<uint32_t>(std::upper_bound(cut_.begin(), cut_.end(), point) - cut_.begin() - 1);
}

}  // namespace lodex
