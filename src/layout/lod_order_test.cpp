// Tests of the level-of-detail order: level sizes, brick bits, the permutation and segment
// table, reproducibility, level fairness, and row gathering.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "layout/lod_order.hpp"

namespace lodex {
namespace {

using U64s = std::vector<uint64_t>;

TEST(LodLevelEnds, HandComputedCases) {
  // c = 100 -> ceil(100/2) = 50 -> 25 <= 32 stops.
  EXPECT_EQ(lod_level_ends(100, 2, 32), (U64s{25, 50, 100}));
  // 1000 -> 250 -> ceil(62.5) = 63 -> 16 -> 4 <= 10.
  EXPECT_EQ(lod_level_ends(1000, 4, 10), (U64s{4, 16, 63, 250, 1000}));
  // 257 -> ceil(128.5) = 129 <= 256.
  EXPECT_EQ(lod_level_ends(257, 2, 256), (U64s{129, 257}));
  // 7 -> 3 -> 1 with S = 3, B0 = 1: ceil(7/3) = 3, ceil(3/3) = 1.
  EXPECT_EQ(lod_level_ends(7, 3, 1), (U64s{1, 3, 7}));
  EXPECT_EQ(lod_level_ends(256, 2, 256), (U64s{256}));
  EXPECT_EQ(lod_level_ends(1, 2, 1), (U64s{1}));
  EXPECT_EQ(lod_level_ends(2, 2, 1), (U64s{1, 2}));
  EXPECT_TRUE(lod_level_ends(0, 2, 256).empty());
}

TEST(LodLevelEnds, RuleHoldsForManySizes) {
  for (uint64_t n : {1ull, 3ull, 99ull, 1000ull, 65537ull, 1ull << 40}) {
    for (uint32_t s : {2u, 3u, 8u, 1024u}) {
      for (uint64_t b0 : {1ull, 16ull, 256ull}) {
        const U64s e = lod_level_ends(n, s, b0);
        ASSERT_FALSE(e.empty());
        EXPECT_EQ(lod_level_count(n, s, b0), e.size()) << n << " " << s << " " << b0;
        EXPECT_EQ(e.back(), n);
        EXPECT_LE(e.front(), b0);
        for (size_t k = 1; k < e.size(); ++k) {
          EXPECT_EQ(e[k - 1], (e[k] + s - 1) / s) << n << " " << s << " " << b0;
          EXPECT_GT(e[k], b0);   // only the first level may be <= B0
          EXPECT_LT(e[k - 1], e[k]);
        }
      }
    }
  }
}

TEST(LodLevelEnds, InvalidParameters) {
  EXPECT_THROW(lod_level_ends(10, 1, 4), Error);
  EXPECT_THROW(lod_level_ends(10, 0, 4), Error);
  EXPECT_THROW(lod_level_ends(10, 2, 0), Error);
  try {
    lod_level_ends(10, 1, 4);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalidArgument);
  }
}

TEST(LodBrickBits, LargestBWithEightToTheBTimesTargetAtMostN) {
  EXPECT_EQ(lod_brick_bits(0, 4096), 0u);
  EXPECT_EQ(lod_brick_bits(32767, 4096), 0u);
  EXPECT_EQ(lod_brick_bits(32768, 4096), 1u);         // 8 * 4096
  EXPECT_EQ(lod_brick_bits(262143, 4096), 1u);
  EXPECT_EQ(lod_brick_bits(262144, 4096), 2u);        // 64 * 4096
  EXPECT_EQ(lod_brick_bits(8, 1), 1u);
  EXPECT_EQ(lod_brick_bits(63, 1), 1u);
  EXPECT_EQ(lod_brick_bits(1ull << 30, 1), 10u);      // 8^10 = 2^30
  EXPECT_EQ(lod_brick_bits(1ull << 60, 1), 10u);      // capped at 10
  EXPECT_THROW(lod_brick_bits(100, 0), Error);
}

TEST(LodBrickBits, SizedForTheData) {
  // The largest b with (levels * 8^b + 1) * 8 <= n * row_bytes / 32, 8^b * 64 <= n, 8^b <= B0.
  auto brute = [](uint64_t n, uint32_t levels, uint64_t row_bytes, uint64_t b0) {
    uint32_t best = 0;
    for (uint32_t b = 1; b <= 10; ++b) {
      const uint64_t bricks = uint64_t{1} << (3 * b);
      if ((levels * bricks + 1) * 8 * kBrickTableShare <= n * row_bytes && bricks * kMinBrickParticles <= n &&
          bricks <= b0)
        best = b;
      else break;
    }
    return best;
  };
  for (uint64_t n : {0ull, 1ull, 511ull, 512ull, 12500ull, 125000ull, 1000000ull, 1ull << 30})
    for (uint32_t levels : {1u, 7u, 13u})
      for (uint64_t rb : {4ull, 24ull, 36ull, 1024ull})
        for (uint64_t b0 : {1ull, 256ull, 1ull << 40})
          EXPECT_EQ(lod_brick_bits_for_data(n, levels, rb, b0), brute(n, levels, rb, b0))
              << n << " " << levels << " " << rb;
  // 12,500 particles of 36 bytes (7 levels): 64 bricks of about 200; 125,000: still 64 with the
  // default level-0 size 256, 512 of about 250 with a level 0 of 1,000.
  EXPECT_EQ(lod_brick_bits_for_data(12500, 7, 36, 256), 2u);
  EXPECT_EQ(lod_brick_bits_for_data(125000, 10, 36, 256), 2u);
  EXPECT_EQ(lod_brick_bits_for_data(125000, 10, 36, 1000), 3u);
  EXPECT_EQ(lod_brick_bits_for_data(1ull << 40, 20, 36, 1ull << 40), 10u);   // capped at 10
  // brick_target 0 picks this rule with the levels of the parameters; a target fixes the count.
  LodParams p;
  EXPECT_EQ(lod_brick_bits(125000, p, 36), lod_brick_bits_for_data(125000, 10, 36, 256));
  p.brick_target = 4096;
  EXPECT_EQ(lod_brick_bits(125000, p, 36), 1u);
}

// Independent Morton brick key: x bit i -> bit 3i, y -> 3i+1, z -> 3i+2.
uint32_t morton_brick(const double* p, const Box& box, uint32_t bits) {
  const int64_t cells = int64_t{1} << bits;
  uint32_t c[3];
  for (int a = 0; a < 3; ++a) {
    const double ext = box.exclusive_max[a] - box.inclusive_min[a];
    const int64_t v = static_cast<int64_t>(std::floor((p[a] - box.inclusive_min[a]) / ext * cells));
    c[a] = static_cast<uint32_t>(std::clamp<int64_t>(v, 0, cells - 1));
  }
  uint32_t key = 0;
  for (uint32_t i = 0; i < bits; ++i)
    for (int a = 0; a < 3; ++a) key |= ((c[a] >> i) & 1u) << (3 * i + a);
  return key;
}

// Positions uniform in `box`, each kept away from brick-cell faces (at 2^bits cells per axis)
// so the independent key cannot disagree by rounding.
std::vector<double> positions_in(const Box& box, uint64_t n, uint32_t bits, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint32_t> cell(0, (1u << bits) - 1);
  std::uniform_real_distribution<double> frac(0.01, 0.99);
  std::vector<double> p(3 * n);
  for (uint64_t i = 0; i < n; ++i)
    for (int a = 0; a < 3; ++a) {
      const double w = (box.exclusive_max[a] - box.inclusive_min[a]) / (1u << bits);
      p[3 * i + a] = box.inclusive_min[a] + (cell(rng) + frac(rng)) * w;
    }
  return p;
}

void expect_valid_layout(const LodLayout& L, const std::vector<uint32_t>& perm, uint64_t n, const LodParams& params) {
  EXPECT_EQ(L.level_ends, lod_level_ends(n, params.scale, params.level0_max));
  EXPECT_EQ(L.brick_bits, lod_brick_bits(n, params.brick_target));
  ASSERT_EQ(perm.size(), n);
  std::vector<uint32_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (uint64_t i = 0; i < n; ++i) ASSERT_EQ(sorted[i], i) << "perm is not a permutation";
  const uint64_t nb = L.num_bricks();
  ASSERT_EQ(L.segment_starts.size(), L.num_levels() * nb + 1);
  EXPECT_EQ(L.segment_starts.front(), 0u);
  EXPECT_EQ(L.segment_starts.back(), n);
  EXPECT_TRUE(std::is_sorted(L.segment_starts.begin(), L.segment_starts.end()));
  for (uint32_t k = 0; k < L.num_levels(); ++k)
    EXPECT_EQ(L.segment_starts[(k + 1) * nb], L.level_ends[k]) << "level " << k;
}

TEST(LodOrder, PermutationSegmentsAndBrickKeysF8) {
  const Box box{{-1, 0, 4}, {1, 2, 8}};
  const uint64_t n = 20000;
  LodParams params;
  params.scale = 2;
  params.level0_max = 100;
  params.brick_target = 200;   // 8^2 * 200 <= 20000 < 8^3 * 200 -> b = 2
  params.seed = 1234;
  const auto pos = positions_in(box, n, 2, 5);
  std::vector<uint32_t> perm;
  const LodLayout L = lod_order(pos.data(), DType::kF8, n, box, params, perm);
  ASSERT_EQ(L.brick_bits, 2u);
  EXPECT_EQ(L.num_bricks(), 64u);
  EXPECT_EQ(L.level_ends, (U64s{79, 157, 313, 625, 1250, 2500, 5000, 10000, 20000}));
  expect_valid_layout(L, perm, n, params);
  size_t unsorted_segments = 0, big_segments = 0;
  for (uint32_t k = 0; k < L.num_levels(); ++k)
    for (uint32_t m = 0; m < L.num_bricks(); ++m) {
      const uint64_t s = L.segment_starts[k * 64 + m], e = L.segment_starts[k * 64 + m + 1];
      for (uint64_t i = s; i < e; ++i)
        ASSERT_EQ(morton_brick(&pos[3 * size_t{perm[i]}], box, 2), m)
            << "row " << i << " in segment (" << k << ", " << m << ")";
      if (e - s >= 20) {
        ++big_segments;
        unsorted_segments += !std::is_sorted(perm.begin() + s, perm.begin() + e);
      }
    }
  // Inside a brick the order is random, not input order.
  EXPECT_GT(big_segments, 50u);
  EXPECT_EQ(unsorted_segments, big_segments);
}

TEST(LodOrder, F4PositionsGiveTheSameBricks) {
  const Box box{{0, 0, 0}, {1, 1, 1}};
  const uint64_t n = 5000;
  LodParams params;
  params.brick_target = 50;   // 8^2 * 50 = 3200 <= 5000 -> b = 2
  const auto pos = positions_in(box, n, 2, 9);
  std::vector<float> pos4(pos.begin(), pos.end());
  std::vector<double> back(pos4.begin(), pos4.end());
  std::vector<uint32_t> perm4, perm8;
  const LodLayout L4 = lod_order(pos4.data(), DType::kF4, n, box, params, perm4);
  const LodLayout L8 = lod_order(back.data(), DType::kF8, n, box, params, perm8);
  expect_valid_layout(L4, perm4, n, params);
  EXPECT_EQ(L4.segment_starts, L8.segment_starts);
  EXPECT_EQ(perm4, perm8);   // same seed, same keys -> same order
  for (uint64_t k = 0; k + 1 < L4.segment_starts.size(); ++k)
    for (uint64_t i = L4.segment_starts[k]; i < L4.segment_starts[k + 1]; ++i)
      ASSERT_EQ(morton_brick(&back[3 * size_t{perm4[i]}], box, 2), k % 64);
}

TEST(LodOrder, PointsOnAndOutsideTheBoxEdgesGoToEdgeBricks) {
  const Box box{{0, 0, 0}, {1, 1, 1}};
  LodParams params;
  params.brick_target = 1;
  params.level0_max = 1000;
  std::vector<double> pos = {
      1.0,   1.0,   1.0,          // on the exclusive max: clamped into the last cell
      -1e-9, -1e-9, -1e-9,    // a rounding error below the min: first cell
      0.99,  0.01,  0.01,       // x high only
      0.01,  0.01,  0.99,       // z high only
  };
  for (int i = 0; i < 60; ++i) pos.insert(pos.end(), {0.3, 0.3, 0.3});   // 64 rows -> b = 2
  std::vector<uint32_t> perm;
  const LodLayout L = lod_order(pos.data(), DType::kF8, 64, box, params, perm);
  ASSERT_EQ(L.brick_bits, 2u);
  ASSERT_EQ(L.num_levels(), 1u);
  auto brick_of_row = [&](uint32_t row) -> uint64_t {
    const auto it = std::find(perm.begin(), perm.end(), row);
    const uint64_t at = it - perm.begin();
    return std::upper_bound(L.segment_starts.begin(), L.segment_starts.end(), at) - L.segment_starts.begin() - 1;
  };
  EXPECT_EQ(brick_of_row(0), 63u);
  EXPECT_EQ(brick_of_row(1), 0u);
  EXPECT_EQ(brick_of_row(2), 0b001001u);   // x cell 3 -> bits 0 and 3
  EXPECT_EQ(brick_of_row(3), 0b100100u);   // z cell 3 -> bits 2 and 5
  EXPECT_EQ(brick_of_row(4), 7u);          // cell (1,1,1)
}

TEST(LodOrder, SameSeedSameOrderDifferentSeedDifferentOrder) {
  const Box box{{0, 0, 0}, {1, 1, 1}};
  const uint64_t n = 3000;
  const auto pos = positions_in(box, n, 1, 2);
  LodParams a;
  a.level0_max = 64;
  a.brick_target = 100;
  a.seed = 7;
  LodParams b = a;
  b.seed = 8;
  std::vector<uint32_t> p1, p2, p3;
  const LodLayout L1 = lod_order(pos.data(), DType::kF8, n, box, a, p1);
  const LodLayout L2 = lod_order(pos.data(), DType::kF8, n, box, a, p2);
  const LodLayout L3 = lod_order(pos.data(), DType::kF8, n, box, b, p3);
  EXPECT_EQ(p1, p2);
  EXPECT_EQ(L1.segment_starts, L2.segment_starts);
  EXPECT_NE(p1, p3);
  EXPECT_EQ(L1.level_ends, L3.level_ends);
  expect_valid_layout(L3, p3, n, b);
  // The level-0 sample itself changes with the seed, not only its order.
  std::vector<uint32_t> s1(p1.begin(), p1.begin() + L1.level_ends[0]);
  std::vector<uint32_t> s3(p3.begin(), p3.begin() + L3.level_ends[0]);
  std::sort(s1.begin(), s1.end());
  std::sort(s3.begin(), s3.end());
  EXPECT_NE(s1, s3);
}

// A writer keeps the shuffle, the permutation and the placement's arrays from step to step: what
// they held before (a larger or smaller step, other positions, another seed) must not leak into
// the next order, which is exactly lod_order's.
TEST(LodOrder, ReusedArraysGiveTheFreshOrder) {
  const Box box{{0, 0, 0}, {1, 1, 1}};
  LodShuffle shuffle;
  LodPlaceScratch scratch;
  std::vector<uint32_t> perm;
  uint64_t seed = 3;
  for (const uint64_t n : {5000u, 700u, 0u, 9000u, 1u, 4096u}) {
    const auto pos = positions_in(box, n, 2, seed);
    LodParams p;
    p.level0_max = 64;
    p.seed = ++seed;
    lod_shuffle(n, p, 124, shuffle);
    const LodLayout reused = lod_place(std::move(shuffle), pos.data(), DType::kF8, box, perm, scratch);
    std::vector<uint32_t> fresh_perm;
    const LodLayout fresh = lod_order(pos.data(), DType::kF8, n, box, p, fresh_perm, 124);
    EXPECT_EQ(perm, fresh_perm) << n;
    EXPECT_EQ(reused.level_ends, fresh.level_ends) << n;
    EXPECT_EQ(reused.brick_bits, fresh.brick_bits) << n;
    EXPECT_EQ(reused.segment_starts, fresh.segment_starts) << n;
  }
}

// The placement shared by k parties (a node's writers), each over its own ranges, meeting after
// the keys and after the counts: exactly lod_order's permutation and segment table, for any k
// (more parties than rows included), either position type and bricks or none.
std::vector<uint32_t> shared_placement(const void* pos, DType type, uint64_t n, const Box& box, const LodParams& p,
                                       size_t parties, LodLayout& layout) {
  std::vector<uint32_t> shuffled(n), perm(n);
  layout = lod_shuffle_into(n, p, 124, shuffled.data());
  const uint64_t segments = layout.num_levels() * layout.num_bricks();
  auto lo = [&](size_t w) { return n * w / parties; };
  for (size_t w = 0; w < parties; ++w) lod_keys(pos, type, lo(w), lo(w + 1), box, layout.brick_bits, perm.data());
  std::vector<std::vector<uint32_t>> keys(parties);
  std::vector<uint64_t> counts(parties * segments);
  for (size_t w = 0; w < parties; ++w) {
    keys[w].resize(lo(w + 1) - lo(w));
    lod_count(layout, shuffled.data(), perm.data(), lo(w), lo(w + 1), keys[w].data(), counts.data() + w * segments);
  }
  for (size_t w = 0; w < parties; ++w) {
    LodLayout mine = layout;
    std::vector<uint64_t> fill;
    lod_fill_starts(mine, counts.data(), parties, w, fill);
    lod_scatter(mine, shuffled.data(), keys[w].data(), lo(w), lo(w + 1), fill, perm.data());
    if (w == 0) layout.segment_starts = mine.segment_starts;
    else EXPECT_EQ(mine.segment_starts, layout.segment_starts) << "party " << w;
  }
  return perm;
}

TEST(LodOrder, PlacementSharedByPartiesIsLodOrders) {
  const Box box{{-2, 0, 1}, {2, 1, 3}};
  uint64_t seed = 40;
  for (const uint64_t n : {0u, 1u, 7u, 700u, 5000u, 33333u})
    for (const uint64_t target : {0u, 1u, 50u, 100000u})
      for (const size_t parties : {1u, 2u, 3u, 5u, 8u, 13u}) {
        LodParams p;
        p.level0_max = 64;
        p.brick_target = target;
        p.seed = ++seed;
        const auto pos = positions_in(box, n, 3, seed);
        std::vector<float> pos4(pos.begin(), pos.end());
        for (const DType type : {DType::kF8, DType::kF4}) {
          const void* data = type == DType::kF8 ? static_cast<const void*>(pos.data()) : pos4.data();
          std::vector<uint32_t> expected;
          const LodLayout want = lod_order(data, type, n, box, p, expected, 124);
          LodLayout got;
          const std::vector<uint32_t> perm = shared_placement(data, type, n, box, p, parties, got);
          ASSERT_EQ(perm, expected) << n << " rows, target " << target << ", " << parties << " parties";
          EXPECT_EQ(got.segment_starts, want.segment_starts) << n << " rows, " << parties << " parties";
          EXPECT_EQ(got.brick_bits, want.brick_bits);
          EXPECT_EQ(got.level_ends, want.level_ends);
        }
      }
}

TEST(LodOrder, LevelPrefixesAreFairSamples) {
  // 100k uniform particles, stored octant by octant: a prefix that is not a random sample (say,
  // the first input rows) would hold one octant only.
  const uint64_t n = 100000;
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> h(0, 0.5);
  std::vector<double> pos(3 * n);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t oct = i * 8 / n;
    for (int a = 0; a < 3; ++a) pos[3 * i + a] = ((oct >> a) & 1) * 0.5 + h(rng);
  }
  const Box box{{0, 0, 0}, {1, 1, 1}};
  LodParams params;   // defaults: S = 2, B0 = 256
  params.brick_target = 4096;
  params.seed = 2024;
  std::vector<uint32_t> perm;
  const LodLayout L = lod_order(pos.data(), DType::kF8, n, box, params, perm);
  expect_valid_layout(L, perm, n, params);
  ASSERT_GE(L.num_levels(), 5u);
  for (uint32_t k = 0; k < L.num_levels(); ++k) {
    const uint64_t c = L.level_ends[k];
    uint64_t count[8] = {};
    for (uint64_t i = 0; i < c; ++i) ++count[perm[i] * 8 / n];
    const double expect = c / 8.0;
    // Five standard deviations of a binomial count, and a few percent once the prefix is large.
    const double tol = 5 * std::sqrt(expect);
    for (int o = 0; o < 8; ++o) {
      EXPECT_LE(std::abs(count[o] - expect), tol) << "level " << k << " octant " << o;
      if (c >= 25000) {
        EXPECT_LE(std::abs(count[o] - expect), 0.05 * expect) << "level " << k;
      }
    }
  }
}

TEST(LodOrder, EmptyAndTinyInputs) {
  const Box box{{0, 0, 0}, {1, 1, 1}};
  std::vector<uint32_t> perm = {5, 6};
  const LodLayout L0 = lod_order(nullptr, DType::kF8, 0, box, LodParams{}, perm);
  EXPECT_TRUE(perm.empty());
  EXPECT_EQ(L0.num_levels(), 0u);
  EXPECT_EQ(L0.segment_starts, (U64s{0}));
  const double one[3] = {0.5, 0.5, 0.5};
  const LodLayout L1 = lod_order(one, DType::kF8, 1, box, LodParams{}, perm);
  EXPECT_EQ(perm, (std::vector<uint32_t>{0}));
  EXPECT_EQ(L1.level_ends, (U64s{1}));
  EXPECT_EQ(L1.segment_starts, (U64s{0, 1}));
}

TEST(LodOrder, RejectsTooManyParticlesAndBadTypes) {
  const Box box{{0, 0, 0}, {1, 1, 1}};
  std::vector<uint32_t> perm;
  try {
    lod_order(nullptr, DType::kF8, uint64_t{1} << 32, box, LodParams{}, perm);
    ADD_FAILURE() << "2^32 particles accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnsupported);
  }
  const int32_t ints[3] = {0, 0, 0};
  EXPECT_THROW(lod_order(ints, DType::kI4, 1, box, LodParams{}, perm), Error);
}

TEST(BrickGrid, FaceIsTheFirstCoordinateOfItsCell) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-1e3, 1e3), w(1e-6, 1e3);
  for (int trial = 0; trial < 200; ++trial) {
    Box box;
    for (int a = 0; a < 3; ++a) {
      box.inclusive_min[a] = u(rng);
      box.exclusive_max[a] = box.inclusive_min[a] + w(rng);
    }
    const uint32_t bits = 1 + trial % 10;
    const BrickGrid g(box, bits);
    for (int a = 0; a < 3; ++a)
      for (uint32_t k = 1; k <= g.top; k += 1 + (k * 7) % 13) {
        const double f = g.face(a, k);
        ASSERT_EQ(g.cell(a, f), k) << trial << " axis " << a << " k " << k;
        ASSERT_EQ(g.cell(a, std::nextafter(f, -INFINITY)), k - 1) << trial << " axis " << a << " k " << k;
      }
  }
  // Faces at and near zero, where doubles are dense.
  for (double lo : {-1.0, -5.0, -0.3, -1e-300})
    for (uint32_t bits : {1u, 3u, 10u}) {
      const BrickGrid g(Box{{lo, lo, lo}, {-lo, -lo, -lo}}, bits);
      const uint32_t k = 1u << (bits - 1);
      const double f = g.face(1, k);
      EXPECT_EQ(g.cell(1, f), k);
      EXPECT_EQ(g.cell(1, std::nextafter(f, -INFINITY)), k - 1);
      EXPECT_LE(std::abs(f), 1e-15 * -lo);
    }
  const BrickGrid g(Box{{0, 0, 0}, {1, 1, 1}}, 2);
  EXPECT_EQ(g.face(0, 2), 0.5);
  EXPECT_THROW(g.face(0, 0), Error);
  EXPECT_THROW(g.face(0, 4), Error);
}

TEST(GatherRows, MatchesNaiveLoopForEveryRowSize) {
  std::mt19937_64 rng(17);
  for (size_t row : {1, 2, 3, 4, 8, 12, 16, 20, 24, 36, 72, 100}) {
    SCOPED_TRACE(row);
    const uint64_t n_in = 777, n_out = 1000;
    std::vector<uint8_t> in(n_in * row);
    for (auto& b : in) b = static_cast<uint8_t>(rng());
    std::vector<uint32_t> perm(n_out);
    for (auto& p : perm) p = static_cast<uint32_t>(rng() % n_in);   // repeats allowed
    std::vector<uint8_t> out(n_out * row + 1, 0xee), expect(n_out * row + 1, 0xee);
    for (uint64_t i = 0; i < n_out; ++i)
      for (size_t b = 0; b < row; ++b) expect[i * row + b] = in[perm[i] * row + b];
    gather_rows(in.data(), out.data(), row, perm.data(), n_out);
    EXPECT_EQ(out, expect);   // including the guard byte past the end
  }
  uint8_t untouched = 0x5a;
  gather_rows(nullptr, &untouched, 8, nullptr, 0);
  EXPECT_EQ(untouched, 0x5a);
}

TEST(GatherComponents, InterleavesEveryElementSizeWithAndWithoutPermutation) {
  std::mt19937_64 rng(23);
  for (size_t elem : {1, 2, 3, 4, 8, 16}) {
    for (size_t k : {1, 2, 3, 5}) {
      for (bool permuted : {false, true}) {
        SCOPED_TRACE(::testing::Message() << elem << " bytes, " << k << " components, permuted " << permuted);
        const uint64_t n_in = 501, n_out = permuted ? 800 : n_in;
        std::vector<std::vector<uint8_t>> parts(k, std::vector<uint8_t>(n_in * elem));
        std::vector<const void*> ptrs;
        for (auto& p : parts) {
          for (auto& b : p) b = static_cast<uint8_t>(rng());
          ptrs.push_back(p.data());
        }
        std::vector<uint32_t> perm(n_out);
        for (uint64_t i = 0; i < n_out; ++i)
          perm[i] = permuted ? static_cast<uint32_t>(rng() % n_in) : static_cast<uint32_t>(i);
        const size_t row = k * elem;
        std::vector<uint8_t> out(n_out * row + 1, 0xee), expect(n_out * row + 1, 0xee);
        for (uint64_t i = 0; i < n_out; ++i)
          for (size_t c = 0; c < k; ++c)
            for (size_t b = 0; b < elem; ++b) expect[i * row + c * elem + b] = parts[c][perm[i] * elem + b];
        gather_components(ptrs, elem, permuted ? perm.data() : nullptr, n_out, out.data());
        EXPECT_EQ(out, expect);   // including the guard byte past the end
      }
    }
  }
}

}  // namespace
}  // namespace lodex
