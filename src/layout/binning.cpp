#include "layout/binning.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <unordered_map>

#include "core/error.hpp"

namespace lodex {

void validate(const BinningSpec& spec) {
  if (spec.kind == Binning::kPrecision) {
    if (spec.param < 1 || spec.param > kMaxPrecision)
      fail(ErrorCode::kInvalidArgument, "precision must be 1 to ", kMaxPrecision, " significant digits, got ",
           spec.param);
  } else if (spec.kind == Binning::kEqualWeight) {
    if (spec.param < 1 || spec.param > kMaxEqualWeightBins)
      fail(ErrorCode::kInvalidArgument, "bins must be 1 to ", kMaxEqualWeightBins, ", got ", spec.param);
  } else {
    fail(ErrorCode::kInvalidArgument, "unknown binning ", static_cast<int>(spec.kind));
  }
}

namespace {

// The grid {±m·10^s}: s from kMinS (below the smallest subnormal for every d) to kMaxS (above the
// largest double: those edges are inf), keys 1 + (s - kMinS)·span + (m - 10^(d-1)) for positives.
constexpr int kMinS = -340;
constexpr int kMaxS = 308;

struct Grid {
  uint32_t d;
  int64_t low;    // 10^(d-1)
  int64_t span;   // 9·10^(d-1): mantissas per exponent
  int64_t inf_key;
  explicit Grid(uint32_t digits) : d(digits) {
    low = 1;
    for (uint32_t i = 1; i < d; ++i) low *= 10;
    span = 9 * low;
    inf_key = 1 + int64_t{kMaxS - kMinS + 1} * span;
  }
  int64_t key(int64_t m, int s) const { return 1 + int64_t{s - kMinS} * span + (m - low); }
};

double edge_of(const Grid& g, int64_t key) {
  if (key == 0) return 0.0;
  if (key < 0) return -edge_of(g, -key);
  if (key >= g.inf_key) return std::numeric_limits<double>::infinity();
  const int s = static_cast<int>((key - 1) / g.span) + kMinS;
  const int64_t m = (key - 1) % g.span + g.low;
  char text[48];
  std::snprintf(text, sizeof text, "%llde%d", static_cast<long long>(m), s);
  return std::strtod(text, nullptr);   // correctly rounded, as a parsed query constant is
}

// An approximate floor key of a finite v > 0 (within a few keys of the exact one).
int64_t approx_positive_key(const Grid& g, long double v) {
  int e = static_cast<int>(std::floor(std::log10(v)));
  int s = e - static_cast<int>(g.d - 1);
  if (s < kMinS) return 0;
  if (s > kMaxS) s = kMaxS;
  long double m = std::floor(v / std::pow(10.0L, s));
  const int64_t mi = std::clamp<int64_t>(static_cast<int64_t>(std::clamp(m, 0.0L, 1e18L)), g.low, 10 * g.low - 1);
  return g.key(mi, s);
}

template <class Edge>
int64_t fix_up(int64_t k, double v, Edge&& edge) {
  while (edge(k) > v) --k;
  while (edge(k + 1) <= v) ++k;
  return k;
}

int64_t exact_floor_key(const Grid& g, double v) {
  if (v == 0) return 0;
  if (v == std::numeric_limits<double>::infinity()) return g.inf_key;
  if (v == -std::numeric_limits<double>::infinity()) return -g.inf_key;
  const long double a = std::fabs(static_cast<long double>(v));
  const int64_t approx = v > 0 ? approx_positive_key(g, a) : -approx_positive_key(g, a);
  return fix_up(approx, v, [&](int64_t k) { return edge_of(g, k); });
}

// Powers of ten for the fast path (exponents -300..300, each the correctly rounded double).
const double* pow10_table() {
  static const std::vector<double> t = [] {
    std::vector<double> out(601);
    char text[16];
    for (int i = -300; i <= 300; ++i) {
      std::snprintf(text, sizeof text, "1e%d", i);
      out[i + 300] = std::strtod(text, nullptr);
    }
    return out;
  }();
  return t.data() + 300;
}

template <class T>
void to_doubles(const void* column, uint32_t comps, uint32_t c, uint64_t rows, std::vector<double>& out) {
  const T* p = static_cast<const T*>(column) + c;
  out.resize(rows);
  for (uint64_t r = 0; r < rows; ++r) out[r] = static_cast<double>(p[r * comps]);
}

void column_doubles(const void* column, DType t, uint32_t comps, uint32_t c, uint64_t rows, std::vector<double>& out) {
  switch (t) {
    case DType::kF4: return to_doubles<float>(column, comps, c, rows, out);
    case DType::kF8: return to_doubles<double>(column, comps, c, rows, out);
    case DType::kI1: return to_doubles<int8_t>(column, comps, c, rows, out);
    case DType::kU1: return to_doubles<uint8_t>(column, comps, c, rows, out);
    case DType::kI2: return to_doubles<int16_t>(column, comps, c, rows, out);
    case DType::kU2: return to_doubles<uint16_t>(column, comps, c, rows, out);
    case DType::kI4: return to_doubles<int32_t>(column, comps, c, rows, out);
    case DType::kU4: return to_doubles<uint32_t>(column, comps, c, rows, out);
    case DType::kI8: return to_doubles<int64_t>(column, comps, c, rows, out);
    case DType::kU8: return to_doubles<uint64_t>(column, comps, c, rows, out);
  }
  fail(ErrorCode::kInternal, "unknown dtype");
}

// Groups rows by bin id (ids < bins; kNan for NaN rows), keeping bins that hold rows.
constexpr uint32_t kNanBin = UINT32_MAX;

// Rows, smallest and largest value per bin id, and NaN rows.
struct Tally {
  std::vector<uint64_t> count;
  std::vector<double> lo, hi;
  uint64_t nans = 0;
  explicit Tally(size_t bins)
      : count(bins, 0),
        lo(bins, std::numeric_limits<double>::infinity()),
        hi(bins, -std::numeric_limits<double>::infinity()) {}
  void add(uint32_t b, double x) {
    ++count[b];
    lo[b] = std::min(lo[b], x);
    hi[b] = std::max(hi[b], x);
  }
};

Tally tally(const std::vector<double>& v, const std::vector<uint32_t>& id, size_t bins) {
  Tally t(bins);
  for (uint64_t r = 0; r < v.size(); ++r) {
    if (id[r] == kNanBin) ++t.nans;
    else t.add(id[r], v[r]);
  }
  return t;
}

template <class LowerEdge>
ComponentBins group_rows(const std::vector<double>& v, const std::vector<uint32_t>& id, const Tally& t,
                         LowerEdge&& lo_of) {
  const uint64_t n = v.size();
  const size_t bins = t.count.size();
  const uint64_t nans = t.nans;
  const std::vector<uint64_t>& count = t.count;
  const std::vector<double>& lo_v = t.lo;
  const std::vector<double>& hi_v = t.hi;
  // Compact: old bin -> new bin.
  std::vector<uint32_t> remap(bins, kNanBin);
  ComponentBins out;
  out.start.push_back(0);
  for (size_t b = 0; b < bins; ++b) {
    if (count[b] == 0) continue;
    remap[b] = static_cast<uint32_t>(out.vmin.size());
    out.lo.push_back(lo_of(b));
    out.vmin.push_back(lo_v[b]);
    out.vmax.push_back(hi_v[b]);
    out.start.push_back(out.start.back() + count[b]);
  }
  // Each bin id's next slot in out.rows (rows < 2^32: the cursors are 32-bit).
  std::vector<uint32_t> next(bins, 0);
  for (size_t b = 0; b < bins; ++b)
    if (remap[b] != kNanBin) next[b] = static_cast<uint32_t>(out.start[remap[b]]);
  out.rows.resize(n - nans);
  out.nan_rows.reserve(nans);
  for (uint64_t r = 0; r < n; ++r) {
    const uint32_t b = id[r];
    if (b == kNanBin) out.nan_rows.push_back(static_cast<uint32_t>(r));
    else out.rows[next[b]++] = static_cast<uint32_t>(r);
  }
  return out;
}

// `lo_of(b)`: the lower edge of bin b, asked only for bins that hold rows.
template <class LowerEdge>
ComponentBins group_rows(const std::vector<double>& v, const std::vector<uint32_t>& id, size_t bins,
                         LowerEdge&& lo_of) {
  return group_rows(v, id, tally(v, id, bins), lo_of);
}

ComponentBins precision_bins(const std::vector<double>& v, uint32_t digits) {
  const Grid g(digits);
  constexpr double kInf = std::numeric_limits<double>::infinity();
  double lo = kInf, hi = -kInf;   // over finite values; ±inf get bins of their own at the ends
  for (double x : v)
    if (std::isfinite(x)) {
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
  std::vector<uint32_t> id(v.size(), kNanBin);
  if (!(lo <= hi)) {   // no finite value
    for (size_t r = 0; r < v.size(); ++r)
      if (!std::isnan(v[r])) id[r] = v[r] < 0 ? 0 : 1;
    return group_rows(v, id, 2, [&](size_t b) { return b == 0 ? -kInf : kInf; });
  }
  const int64_t k_lo = exact_floor_key(g, lo), k_hi = exact_floor_key(g, hi);
  const uint64_t keys = static_cast<uint64_t>(k_hi - k_lo) + 1;
  if (keys > (uint64_t{1} << 22)) {
    // A range too wide for a dense table of keys: exact keys per distinct value, then sorted.
    std::unordered_map<double, int64_t> memo;
    std::vector<int64_t> key(v.size());
    std::vector<int64_t> distinct;
    for (size_t r = 0; r < v.size(); ++r) {
      if (!std::isfinite(v[r])) continue;
      auto [it, fresh] = memo.try_emplace(v[r], 0);
      if (fresh) {
        it->second = exact_floor_key(g, v[r]);
        distinct.push_back(it->second);
      }
      key[r] = it->second;
    }
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    std::vector<double> bin_lo(distinct.size() + 2);
    bin_lo.front() = -kInf;
    bin_lo.back() = kInf;
    for (size_t b = 0; b < distinct.size(); ++b) bin_lo[b + 1] = edge_of(g, distinct[b]);
    for (size_t r = 0; r < v.size(); ++r) {
      if (std::isnan(v[r])) continue;
      id[r] = std::isinf(v[r]) ? (v[r] < 0 ? 0 : static_cast<uint32_t>(distinct.size() + 1))
                               : 1 + static_cast<uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), key[r]) -
                                                           distinct.begin());
    }
    return group_rows(v, id, bin_lo.size(), [&](size_t b) { return bin_lo[b]; });
  }
  // Dense: edges of keys k_lo .. k_hi + 1, computed on first use.
  std::vector<double> edges(keys + 1, std::numeric_limits<double>::quiet_NaN());
  auto edge = [&](int64_t k) {
    if (k < k_lo) return -std::numeric_limits<double>::infinity();
    if (k > k_hi + 1) return std::numeric_limits<double>::infinity();
    double& e = edges[static_cast<size_t>(k - k_lo)];
    if (std::isnan(e)) e = edge_of(g, k);
    return e;
  };
  const double* p10 = pow10_table();
  const int shift = static_cast<int>(digits) - 1;
  Tally t(keys + 2);
  for (size_t r = 0; r < v.size(); ++r) {
    const double x = v[r];
    if (std::isnan(x)) {
      ++t.nans;
      continue;
    }
    if (std::isinf(x)) {
      id[r] = x < 0 ? 0 : static_cast<uint32_t>(keys + 1);
      t.add(id[r], x);
      continue;
    }
    int64_t k;
    const double a = std::fabs(x);
    if (a > 1e-280 && a < 1e280) {
      // floor(log10(a)) from the binary exponent (a is normal here; log10(2) = 0.30103),
      // corrected against the powers of ten; fix_up below makes the key exact either way.
      const int binary_exponent = static_cast<int>((std::bit_cast<uint64_t>(a) >> 52) & 0x7ff) - 1023;
      int e = static_cast<int>(std::floor(binary_exponent * 0.30102999566398120));
      e += a >= p10[e + 1];
      e -= a < p10[e];
      const int s = e - shift;
      const int64_t m = std::clamp<int64_t>(static_cast<int64_t>(a * p10[-s]), g.low, 10 * g.low - 1);
      k = g.key(m, s);
      if (x < 0) k = -k;
    } else {
      k = exact_floor_key(g, x);
    }
    k = std::clamp(k, k_lo, k_hi);
    k = fix_up(k, x, edge);
    id[r] = static_cast<uint32_t>(k - k_lo + 1);
    t.add(id[r], x);
  }
  return group_rows(v, id, t, [&](size_t b) {
    return b == 0 ? -kInf : b == keys + 1 ? kInf : edge(k_lo + static_cast<int64_t>(b) - 1);
  });
}

ComponentBins equal_weight_bins(const std::vector<double>& v, uint32_t bins) {
  std::vector<double> sample;
  uint64_t finite = 0;
  for (double x : v) finite += !std::isnan(x);
  const uint64_t stride = std::max<uint64_t>(1, finite / 65536);
  uint64_t seen = 0;
  for (double x : v) {
    if (std::isnan(x)) continue;
    if (seen++ % stride == 0) sample.push_back(x);
  }
  std::sort(sample.begin(), sample.end());
  std::vector<double> cuts;   // bin b > 0 starts at cuts[b - 1]
  for (uint32_t j = 1; j < bins && !sample.empty(); ++j) {
    const double q = sample[static_cast<size_t>(static_cast<double>(j) * sample.size() / bins)];
    if (q > sample.front() && (cuts.empty() || q > cuts.back())) cuts.push_back(q);
  }
  std::vector<uint32_t> id(v.size(), kNanBin);
  for (size_t r = 0; r < v.size(); ++r)
    if (!std::isnan(v[r]))
      id[r] = static_cast<uint32_t>(std::upper_bound(cuts.begin(), cuts.end(), v[r]) - cuts.begin());
  std::vector<double> bin_lo(cuts.size() + 1);
  bin_lo[0] = -std::numeric_limits<double>::infinity();
  std::copy(cuts.begin(), cuts.end(), bin_lo.begin() + 1);
  return group_rows(v, id, bin_lo.size(), [&](size_t b) { return bin_lo[b]; });
}

}  // namespace

int64_t precision_floor_key(double v, uint32_t digits) {
  validate(BinningSpec{Binning::kPrecision, digits});
  if (std::isnan(v)) fail(ErrorCode::kInvalidArgument, "NaN has no bin");
  return exact_floor_key(Grid(digits), v);
}

double precision_edge(int64_t key, uint32_t digits) {
  validate(BinningSpec{Binning::kPrecision, digits});
  return edge_of(Grid(digits), key);
}

ComponentBins bin_component(const void* column, DType dtype, uint32_t components, uint32_t component, uint64_t rows,
                            const BinningSpec& spec) {
  validate(spec);
  if (component >= components) fail(ErrorCode::kInternal, "component ", component, " of ", components);
  if (rows >= (uint64_t{1} << 32))
    fail(ErrorCode::kUnsupported, "bitmap indexes cover files of fewer than 2^32 rows; this one has ", rows);
  std::vector<double> v;
  column_doubles(column, dtype, components, component, rows, v);
  return spec.kind == Binning::kPrecision ? precision_bins(v, spec.param) : equal_weight_bins(v, spec.param);
}

}  // namespace lodex
