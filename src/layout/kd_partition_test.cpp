// Tests of the adaptive k-d partition: tiles cover the domain once, the cuts balance the
// estimated weight, leaves_meeting matches brute force, degenerate inputs stay defined.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "core/error.hpp"
#include "layout/kd_partition.hpp"

namespace lodex {
namespace {

const Box kUnit{{0, 0, 0}, {1, 1, 1}};

// Estimated weight of `items` inside `b` (each spread evenly over its box).
double weight_in(const std::vector<WeightedBox>& items, const Box& b) {
  double sum = 0;
  for (const auto& it : items) {
    double f = 1;
    for (int a = 0; a < 3; ++a) {
      const double lo = std::max(it.box.inclusive_min[a], b.inclusive_min[a]);
      const double hi = std::min(it.box.exclusive_max[a], b.exclusive_max[a]);
      f *= hi > lo ? (hi - lo) / (it.box.exclusive_max[a] - it.box.inclusive_min[a]) : 0;
    }
    sum += it.weight * f;
  }
  return sum;
}

std::vector<WeightedBox> lattice_items(int n, const Box& region, std::mt19937_64& rng, bool random_weights) {
  std::uniform_real_distribution<double> w(1, 100);
  std::vector<WeightedBox> items;
  const Vec3 s = region.size();
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const int idx[3] = {i, j, k};
        Box b;
        for (int a = 0; a < 3; ++a) {
          b.inclusive_min[a] = region.inclusive_min[a] + s[a] * idx[a] / n;
          b.exclusive_max[a] =
              idx[a] + 1 == n ? region.exclusive_max[a] : region.inclusive_min[a] + s[a] * (idx[a] + 1) / n;
        }
        items.push_back({b, random_weights ? w(rng) : 10.0, 0});   // no snap faces: exact cuts
      }
  return items;
}

void expect_tiles_cover_once(const KdPartition& kd, const Box& domain, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  for (int t = 0; t < 5000; ++t) {
    Vec3 p;
    for (int a = 0; a < 3; ++a)
      p[a] = domain.inclusive_min[a] + u(rng) * (domain.exclusive_max[a] - domain.inclusive_min[a]);
    int hits = 0;
    uint32_t which = 0;
    for (uint32_t l = 0; l < kd.num_leaves(); ++l)
      if (kd.tile(l).contains(p)) ++hits, which = l;
    ASSERT_EQ(hits, 1);
    ASSERT_EQ(kd.leaf_of(p), which);
  }
  for (uint32_t l = 0; l < kd.num_leaves(); ++l) {
    EXPECT_TRUE(domain.contains(kd.tile(l)));
    if (!kd.hull(l).empty()) EXPECT_TRUE(kd.tile(l).contains(kd.hull(l))) << l;
  }
}

TEST(KdPartition, BalancesEvenAndUnevenWeightsForEveryPartCount) {
  std::mt19937_64 rng(1);
  for (bool random_weights : {false, true}) {
    const auto items = lattice_items(8, kUnit, rng, random_weights);
    double total = 0;
    for (const auto& it : items) total += it.weight;
    for (uint32_t parts : {1u, 2u, 3u, 5u, 7u, 8u, 13u, 64u, 100u}) {
      const KdPartition kd(kUnit, items, parts);
      ASSERT_EQ(kd.num_leaves(), parts);
      expect_tiles_cover_once(kd, kUnit, rng);
      double sum = 0;
      for (uint32_t l = 0; l < parts; ++l) {
        EXPECT_NEAR(kd.weight(l), total / parts, 1e-6 * total) << parts << " leaf " << l;
        EXPECT_NEAR(weight_in(items, kd.tile(l)), kd.weight(l), 1e-6 * total) << parts << " leaf " << l;
        sum += kd.weight(l);
      }
      EXPECT_NEAR(sum, total, 1e-9 * total);
    }
  }
}

TEST(KdPartition, PartsOnlyWhereTheWeightIs) {
  // Weight only in the octant [0, 0.5)^3 of a larger domain: every leaf's hull is in the octant
  // and the tiles outside it carry nothing.
  std::mt19937_64 rng(2);
  const Box octant{{0, 0, 0}, {0.5, 0.5, 0.5}};
  const auto items = lattice_items(4, octant, rng, true);
  double total = 0;
  for (const auto& it : items) total += it.weight;
  const KdPartition kd(kUnit, items, 8);
  ASSERT_EQ(kd.num_leaves(), 8u);
  expect_tiles_cover_once(kd, kUnit, rng);
  for (uint32_t l = 0; l < 8; ++l) {
    EXPECT_TRUE(octant.contains(kd.hull(l))) << to_string(kd.hull(l));
    EXPECT_NEAR(kd.weight(l), total / 8, 1e-6 * total);
  }
}

TEST(KdPartition, CutsSnapToExtentFacesWithinTheTolerance) {
  // A 4x4x4 lattice of "rank extents" with nearly equal weights: every cut lands on an extent
  // face (no extent is split), and each leaf stays within the snap tolerance per tree level.
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> jitter(0.995, 1.005);
  std::vector<WeightedBox> items;
  for (const auto& it : lattice_items(4, kUnit, rng, false)) items.push_back({it.box, 100 * jitter(rng)});
  double total = 0;
  for (const auto& it : items) total += it.weight;
  for (uint32_t parts : {2u, 4u, 8u, 16u, 64u}) {
    const KdPartition kd(kUnit, items, parts);
    ASSERT_EQ(kd.num_leaves(), parts);
    expect_tiles_cover_once(kd, kUnit, rng);
    std::vector<uint32_t> leaves;
    for (const auto& it : items) {
      kd.leaves_meeting(it.box, leaves);
      EXPECT_EQ(leaves.size(), 1u) << parts << " parts split the extent " << to_string(it.box);
    }
    for (uint32_t l = 0; l < parts; ++l) EXPECT_LE(kd.weight(l), total / parts * kSnapImbalance * (1 + 1e-9));
  }
  // Uneven extents: snapping would unbalance more than allowed (1.5 > 1.15), so the cut splits an extent.
  std::vector<WeightedBox> two{{Box{{0, 0, 0}, {0.5, 1, 1}}, 300}, {Box{{0.5, 0, 0}, {1, 1, 1}}, 100}};
  const KdPartition kd(kUnit, two, 2);
  EXPECT_NEAR(kd.weight(0), 200, 1e-9);
  EXPECT_NEAR(kd.tile(0).exclusive_max[0], 1.0 / 3, 1e-12);
}

TEST(KdPartition, LeavesMeetingMatchesBruteForce) {
  std::mt19937_64 rng(3);
  const Box domain{{-2, 0, 10}, {3, 1, 11}};
  const auto items = lattice_items(6, domain, rng, true);
  const KdPartition kd(domain, items, 37);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<uint32_t> got;
  for (int t = 0; t < 2000; ++t) {
    Box b;
    for (int a = 0; a < 3; ++a) {
      const double lo = domain.inclusive_min[a], s = domain.exclusive_max[a] - lo;
      double x = lo + u(rng) * s, y = lo + u(rng) * s;
      if (x > y) std::swap(x, y);
      if (t % 5 == 0) y = x + 1e-12 * s;   // thin boxes
      b.inclusive_min[a] = x;
      b.exclusive_max[a] = y;
    }
    kd.leaves_meeting(b, got);
    std::vector<uint32_t> want;
    for (uint32_t l = 0; l < kd.num_leaves(); ++l)
      if (kd.tile(l).intersects(b)) want.push_back(l);
    ASSERT_EQ(got, want) << to_string(b);
  }
  kd.leaves_meeting(Box::nothing(), got);
  EXPECT_TRUE(got.empty());
}

TEST(KdPartition, DegenerateInputsStayDefined) {
  // Every particle at one point: nothing can be cut, one part.
  const double x = 0.25;
  const Box point{{x, x, x}, {std::nextafter(x, 1.0), std::nextafter(x, 1.0), std::nextafter(x, 1.0)}};
  const KdPartition one(kUnit, {{point, 1000}, {point, 5}}, 8);
  EXPECT_EQ(one.num_leaves(), 1u);
  EXPECT_EQ(one.weight(0), 1005);
  // No weight at all: one leaf, the domain.
  const KdPartition none(kUnit, {}, 16);
  ASSERT_EQ(none.num_leaves(), 1u);
  EXPECT_TRUE(none.hull(0).empty());
  EXPECT_EQ(none.leaf_of({0.5, 0.5, 0.5}), 0u);
  // Two separate points: two parts, no more, whatever is asked.
  const double y = 0.75;
  const Box other{{y, y, y}, {std::nextafter(y, 1.0), std::nextafter(y, 1.0), std::nextafter(y, 1.0)}};
  const KdPartition two(kUnit, {{point, 10}, {other, 10}}, 8);
  EXPECT_EQ(two.num_leaves(), 2u);   // each point alone cannot be cut further
  EXPECT_NE(two.leaf_of(point.inclusive_min), two.leaf_of(other.inclusive_min));
  // A thin sheet (all weight in z = 0.5 +- 1e-9) still splits on x and y.
  const KdPartition sheet(kUnit, {{Box{{0, 0, 0.5 - 1e-9}, {1, 1, 0.5 + 1e-9}}, 800}}, 8);
  ASSERT_EQ(sheet.num_leaves(), 8u);
  for (uint32_t l = 0; l < 8; ++l) EXPECT_NEAR(sheet.weight(l), 100, 1e-6);
  // Bad input.
  EXPECT_THROW(KdPartition(kUnit, {}, 0), Error);
  EXPECT_THROW(KdPartition(kUnit, {{Box{{0, 0, 0}, {2, 1, 1}}, 1}}, 2), Error);   // outside the domain
  EXPECT_THROW(KdPartition(kUnit, {{point, -1}}, 2), Error);
  EXPECT_THROW(KdPartition(kUnit, {{point, NAN}}, 2), Error);
  EXPECT_THROW(KdPartition(Box{{0, 0, 0}, {INFINITY, 1, 1}}, {}, 2), Error);
}

}  // namespace
}  // namespace lodex
