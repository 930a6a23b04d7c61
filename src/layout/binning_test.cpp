// Binning (precision and equal-weight), bin choice for comparisons, file pruning and the
// (sure, check) row-set algebra, each against brute force over random data.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>

#include "core/error.hpp"
#include "layout/binning.hpp"
#include "layout/query.hpp"
#include "layout/rng.hpp"
#include "layout/value_query_plan.hpp"

namespace lodex {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// A number with at most `d` significant digits parses back from its %.{d-1}e text.
bool has_digits(double e, uint32_t d) {
  if (e == 0 || std::isinf(e)) return true;
  char text[64];
  std::snprintf(text, sizeof text, "%.*e", static_cast<int>(d) - 1, e);
  return std::strtod(text, nullptr) == e;
}

TEST(Binning, PrecisionEdgesAreDigitNumbersAroundEveryValue) {
  Xoshiro256 rng(5);
  for (uint32_t d = 1; d <= 7; ++d) {
    for (int i = 0; i < 3000; ++i) {
      const double mant = static_cast<double>(rng.below(1u << 30)) / (1u << 30) * 10;
      const int exp = static_cast<int>(rng.below(80)) - 40;
      double v = mant * std::pow(10.0, exp);
      if (rng.below(2)) v = -v;
      const int64_t k = precision_floor_key(v, d);
      const double lo = precision_edge(k, d), hi = precision_edge(k + 1, d);
      ASSERT_LE(lo, v) << v << " d=" << d;
      ASSERT_LT(v, hi) << v << " d=" << d;
      ASSERT_TRUE(has_digits(lo, d)) << lo;
      ASSERT_TRUE(has_digits(hi, d)) << hi;
      // A d-digit constant is its own edge.
      ASSERT_EQ(precision_edge(precision_floor_key(lo, d), d), lo);
    }
  }
  EXPECT_EQ(precision_floor_key(0.0, 3), 0);
  EXPECT_EQ(precision_edge(precision_floor_key(1.3, 2), 2), 1.3);
  EXPECT_EQ(precision_edge(precision_floor_key(157.654, 3), 3), 157.0);
  EXPECT_EQ(precision_edge(precision_floor_key(-157.654, 3), 3), -158.0);
  EXPECT_EQ(precision_edge(precision_floor_key(0.000999, 3), 3), 0.000999);
  EXPECT_EQ(precision_edge(precision_floor_key(1e-320, 3), 3) <= 1e-320, true);
  EXPECT_EQ(precision_edge(precision_floor_key(1.7e308, 3), 3), 1.7e308);
  EXPECT_EQ(precision_edge(precision_floor_key(kInf, 3), 3), kInf);
  EXPECT_THROW(precision_floor_key(1.0, 0), Error);
  EXPECT_THROW(precision_floor_key(1.0, kMaxPrecision + 1), Error);
}

void check_bins(const ComponentBins& b, const std::vector<double>& v) {
  ASSERT_EQ(b.start.size(), b.bins() + 1);
  ASSERT_EQ(b.start.back(), b.rows.size());
  std::vector<int> seen(v.size(), 0);
  for (size_t k = 0; k < b.bins(); ++k) {
    ASSERT_LT(b.start[k], b.start[k + 1]) << "empty bin " << k;
    if (k) {
      ASSERT_LT(b.vmax[k - 1], b.vmin[k]);
    }
    double lo = kInf, hi = -kInf;
    for (uint64_t i = b.start[k]; i < b.start[k + 1]; ++i) {
      const uint32_t r = b.rows[i];
      if (i > b.start[k]) {
        ASSERT_LT(b.rows[i - 1], r);
      }
      ++seen[r];
      lo = std::min(lo, v[r]);
      hi = std::max(hi, v[r]);
      ASSERT_LE(b.lo[k], v[r]);
    }
    ASSERT_EQ(lo, b.vmin[k]);
    ASSERT_EQ(hi, b.vmax[k]);
  }
  for (uint32_t r : b.nan_rows) {
    ASSERT_TRUE(std::isnan(v[r]));
    ++seen[r];
  }
  for (size_t r = 0; r < v.size(); ++r) ASSERT_EQ(seen[r], 1) << "row " << r;
}

std::vector<double> random_values(Xoshiro256& rng, size_t n, bool specials) {
  std::vector<double> v(n);
  for (auto& x : v) {
    const uint64_t pick = rng.below(20);
    if (specials && pick == 0) {
      x = kNan;
    } else if (specials && pick == 1) {
      x = rng.below(2) ? kInf : -kInf;
    } else if (pick == 2) {
      x = 0;
    } else {
      x = (static_cast<double>(rng.below(1u << 24)) / (1u << 20) - 4) *
          std::pow(10.0, static_cast<int>(rng.below(6)) - 3);
    }
  }
  return v;
}

TEST(Binning, EveryRowInExactlyOneBinForEveryDtypeAndBinning) {
  Xoshiro256 rng(9);
  for (int trial = 0; trial < 16; ++trial) {
    const std::vector<double> v = random_values(rng, 3000, trial % 2 == 0);
    const BinningSpec specs[] = {{Binning::kPrecision, 1 + static_cast<uint32_t>(trial % 5)},
                                 {Binning::kEqualWeight, 1 + static_cast<uint32_t>(rng.below(100))}};
    for (const BinningSpec& spec : specs) {
      // f8 directly; f4 and i4 through their own conversions.
      check_bins(bin_component(v.data(), DType::kF8, 1, 0, v.size(), spec), v);
      std::vector<float> f(v.size());
      std::vector<double> fv(v.size());
      for (size_t i = 0; i < v.size(); ++i) fv[i] = f[i] = static_cast<float>(v[i]);
      check_bins(bin_component(f.data(), DType::kF4, 1, 0, f.size(), spec), fv);
      std::vector<int32_t> iv(2 * v.size());
      std::vector<double> id(v.size());
      for (size_t i = 0; i < v.size(); ++i) {
        iv[2 * i] = static_cast<int32_t>(rng.below(1000)) - 500;
        id[i] = iv[2 * i + 1] = static_cast<int32_t>(rng.below(70000)) - 35000;
      }
      check_bins(bin_component(iv.data(), DType::kI4, 2, 1, v.size(), spec), id);
    }
  }
}

TEST(Binning, EqualWeightBinsHoldSimilarCounts) {
  Xoshiro256 rng(3);
  std::vector<double> v(100000);
  for (auto& x : v) x = std::exp(static_cast<double>(rng.below(1u << 20)) / (1u << 16));   // skewed
  const ComponentBins b = bin_component(v.data(), DType::kF8, 1, 0, v.size(), {Binning::kEqualWeight, 50});
  check_bins(b, v);
  ASSERT_EQ(b.bins(), 50u);
  for (size_t k = 0; k < b.bins(); ++k) {
    const double share = static_cast<double>(b.start[k + 1] - b.start[k]) / v.size();
    EXPECT_NEAR(share, 0.02, 0.006) << "bin " << k;
  }
  // All values equal: one bin.
  std::vector<double> same(1000, 2.5);
  EXPECT_EQ(bin_component(same.data(), DType::kF8, 1, 0, same.size(), {Binning::kEqualWeight, 16}).bins(), 1u);
  EXPECT_THROW(bin_component(same.data(), DType::kF8, 1, 0, same.size(), {Binning::kEqualWeight, 0}), Error);
}

BinChoice choose(const ComponentBins& b, CmpOp op, double c) {
  return choose_bins(
      static_cast<uint32_t>(b.bins()), [&](uint32_t k) { return std::pair{b.vmin[k], b.vmax[k]}; }, b.nan_rows.size(),
      op, c);
}

// choose_bins against classifying every bin on its own.
TEST(ValueQueryPlan, ChooseBinsMatchesBinByBin) {
  Xoshiro256 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<double> v(1 + rng.below(300));
    for (auto& x : v) x = static_cast<double>(rng.below(200)) / 8 - 10;
    const ComponentBins b = bin_component(v.data(), DType::kF8, 1, 0, v.size(),
                                          {Binning::kPrecision, 1 + static_cast<uint32_t>(trial % 3)});
    const double consts[] = {static_cast<double>(rng.below(240)) / 8 - 15,
                             v[rng.below(v.size())],
                             b.vmin[0],
                             b.vmax[b.bins() - 1],
                             kNan,
                             -INFINITY,
                             INFINITY};
    for (double c : consts)
      for (CmpOp op : {CmpOp::kLt, CmpOp::kLe, CmpOp::kGt, CmpOp::kGe, CmpOp::kEq, CmpOp::kNe}) {
        const BinChoice got = choose(b, op, c);
        std::vector<uint32_t> sure, check, want_sure, want_check;
        for (const auto& [x, y] : got.sure)
          for (uint32_t k = x; k < y; ++k) sure.push_back(k);
        for (uint32_t k = 0; k < b.bins(); ++k) {
          const Tri t = classify_range(op, c, b.vmin[k], b.vmax[k]);
          if (t == Tri::kSure) want_sure.push_back(k);
          if (t == Tri::kCheck) want_check.push_back(k);
        }
        ASSERT_EQ(sure, want_sure) << trial << " c=" << c << " op=" << static_cast<int>(op);
        ASSERT_EQ(got.check, want_check) << trial << " c=" << c;
        ASSERT_EQ(got.sure_bins(), want_sure.size());
        for (size_t i = 1; i < got.sure.size(); ++i) ASSERT_LT(got.sure[i - 1].second, got.sure[i].first);
      }
  }
}

TEST(Binning, DigitConstantsNeedNoCandidateCheck) {
  Xoshiro256 rng(21);
  std::vector<double> v(20000);
  for (auto& x : v)
    x = static_cast<double>(static_cast<float>(static_cast<double>(rng.below(1u << 30)) / (1u << 20) * 0.37));
  for (uint32_t d = 1; d <= 4; ++d) {
    const ComponentBins b = bin_component(v.data(), DType::kF8, 1, 0, v.size(), {Binning::kPrecision, d});
    for (int i = 0; i < 200; ++i) {
      char text[32];
      std::snprintf(text, sizeof text, "%.*e", static_cast<int>(d) - 1, v[rng.below(v.size())] * 1.0001);
      const double c = std::strtod(text, nullptr);
      bool equal = false;
      for (double x : v) equal = equal || x == c;
      if (equal) continue;
      for (CmpOp op : {CmpOp::kLt, CmpOp::kLe, CmpOp::kGt, CmpOp::kGe})
        ASSERT_TRUE(choose(b, op, c).check.empty()) << text << " d=" << d;
    }
  }
}

TEST(ValueQueryPlan, ClassifyFileIsSoundWithUnknownNaNs) {
  // x in [1, 5] (maybe NaN rows too).
  auto verdict = [](const char* text) {
    QueryNode q = parse_query(text);
    bind_query(q, Schema({{"position", DType::kF4, 3}, {"e", DType::kF4, 1}}));
    return classify_file(q, [](size_t f, uint32_t) { return f == 1 ? std::pair{1.0, 5.0} : std::pair{kNan, kNan}; });
  };
  EXPECT_EQ(verdict("e > 6"), Tri::kNone);
  EXPECT_EQ(verdict("e < 6"), Tri::kCheck);   // a NaN row would fail
  EXPECT_EQ(verdict("e != 6"), Tri::kSure);   // NaN rows match != too
  EXPECT_EQ(verdict("!(e > 6)"), Tri::kSure);
  EXPECT_EQ(verdict("e > 6 || e < 0"), Tri::kNone);
  EXPECT_EQ(verdict("e > 2 && e > 6"), Tri::kNone);
  EXPECT_EQ(verdict("x > 0"), Tri::kNone);    // x has no non-NaN value in this file
  EXPECT_EQ(verdict("x != 0"), Tri::kSure);
}

// The whole evaluation: bins of random columns, a leaf from choose_bins, the algebra, then the
// candidate check by the scan evaluator: exactly the scan's answer.
TEST(ValueQueryPlan, RowSetsPlusCheckEqualTheScan) {
  const Schema schema({{"position", DType::kF8, 3}, {"e", DType::kF8, 1}, {"k", DType::kI4, 1}});
  Xoshiro256 rng(77);
  const uint32_t rows = 2000;
  std::vector<double> pos(rows * 3), e(rows);
  std::vector<int32_t> k(rows);
  for (uint32_t r = 0; r < rows; ++r) {
    for (int a = 0; a < 3; ++a) pos[3 * r + a] = static_cast<double>(rng.below(10000)) / 100;
    e[r] = r % 53 == 0 ? kNan : static_cast<double>(rng.below(1u << 20)) / (1u << 18);
    k[r] = static_cast<int32_t>(rng.below(11)) - 5;
  }
  const void* data[] = {pos.data(), e.data(), k.data()};
  const ColumnOf column = [&](size_t f) { return data[f]; };
  const char* names[] = {"x", "position[1]", "z", "e", "k"};
  const double scale[] = {100, 100, 100, 4, 5};
  const char* ops[] = {"<", "<=", ">", ">=", "==", "!="};
  std::function<std::string(int)> gen = [&](int depth) -> std::string {
    const uint64_t pick = depth > 3 ? 0 : rng.below(5);
    if (pick <= 1) {
      const int f = static_cast<int>(rng.below(5));
      const double v =
          std::round(static_cast<double>(rng.below(2001)) / 1000.0 * scale[f] * 100) / 100 - (f == 4 ? scale[f] : 0);
      if (rng.below(4) == 0) return cat(v - scale[f] / 4, " < ", names[f], " <= ", v + scale[f] / 4);
      return cat(names[f], " ", ops[rng.below(6)], " ", f == 4 ? std::round(v) : v);
    }
    if (pick == 2) return "!(" + gen(depth + 1) + ")";
    return "(" + gen(depth + 1) + (pick == 3 ? " && " : " || ") + gen(depth + 1) + ")";
  };
  for (int trial = 0; trial < 100; ++trial) {
    const BinningSpec spec = trial % 2 ? BinningSpec{Binning::kPrecision, 1 + static_cast<uint32_t>(trial % 4)}
                                       : BinningSpec{Binning::kEqualWeight, 1 + static_cast<uint32_t>(rng.below(64))};
    // Bins per (field, component); field k sometimes unindexed.
    std::vector<ComponentBins> bins;
    for (int c = 0; c < 3; ++c) bins.push_back(bin_component(pos.data(), DType::kF8, 3, c, rows, spec));
    bins.push_back(bin_component(e.data(), DType::kF8, 1, 0, rows, spec));
    bins.push_back(bin_component(k.data(), DType::kI4, 1, 0, rows, spec));
    const bool k_indexed = trial % 3 != 0;
    const std::string text = gen(0);
    QueryNode q = parse_query(text);
    bind_query(q, schema);
    auto leaf = [&](const QueryNode& n) {
      const size_t slot = n.field_index == 0 ? n.bound_component : n.field_index + 2;
      RowSets s;
      if (slot == 4 && !k_indexed) {
        s.check = row_range(0, rows);
        return s;
      }
      const ComponentBins& b = bins[slot];
      const BinChoice choice = choose(b, n.op, n.value);
      for (const auto& [first, last] : choice.sure)
        for (uint32_t i = first; i < last; ++i) s.sure.addMany(b.start[i + 1] - b.start[i], b.rows.data() + b.start[i]);
      for (uint32_t i : choice.check) s.check.addMany(b.start[i + 1] - b.start[i], b.rows.data() + b.start[i]);
      if (choice.nan_sure) s.sure.addMany(b.nan_rows.size(), b.nan_rows.data());
      return s;
    };
    const RowSets sets = combine_row_sets(q, rows, leaf);
    ASSERT_EQ((sets.sure & sets.check).cardinality(), 0u) << text;
    std::vector<uint8_t> want;
    eval_query_scan(q, schema, column, rows, want);
    for (uint32_t r = 0; r < rows; ++r) {
      const bool sure = sets.sure.contains(r), check = sets.check.contains(r);
      if (want[r]) ASSERT_TRUE(sure || check) << text << " misses row " << r;
      else ASSERT_FALSE(sure) << text << " wrongly takes row " << r;
    }
  }
}

}  // namespace
}  // namespace lodex

namespace lodex {
namespace {

// Largest first to the least loaded rank: every file once, and the small files go where the
// big ones left room.
TEST(ValueQueryPlan, ShareFilesBalancesLargestFirst) {
  const std::vector<uint64_t> work{5, 100, 7, 0, 60, 40, 3};
  const auto shared = share_files(work, 3);
  ASSERT_EQ(shared.size(), 3u);
  std::vector<size_t> all;
  std::vector<uint64_t> load;
  for (const auto& r : shared) {
    EXPECT_TRUE(std::is_sorted(r.begin(), r.end()));
    uint64_t l = 0;
    for (size_t i : r) {
      all.push_back(i);
      l += work[i];
    }
    load.push_back(l);
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(shared[0], (std::vector<size_t>{1}));          // 100 alone
  EXPECT_EQ(shared[1], (std::vector<size_t>{4}));             // 60
  EXPECT_EQ(shared[2], (std::vector<size_t>{0, 2, 3, 5, 6}));  // 40, then 7, 5, 3 and 0 (as 1): still least
  EXPECT_EQ(share_files({}, 2), (std::vector<std::vector<size_t>>{{}, {}}));
  EXPECT_EQ(share_files(work, 1)[0].size(), work.size());
  EXPECT_THROW(share_files(work, 0), Error);
}

}  // namespace
}  // namespace lodex
