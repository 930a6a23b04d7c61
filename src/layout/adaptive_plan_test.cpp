// Tests of the adaptive aggregation plan (paper §6) on simulated ranks: particles drawn from
// uneven distributions (occupancy of part of the domain, Gaussian clusters, a thin sheet) over a
// lattice of rank patches; every particle must reach a partition its rank sends to, partitions
// must be disjoint, the aggregators distinct and spread in rank space, and the actual particles
// per partition within the balance bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "layout/particle_plan.hpp"
#include "support/expect_error.hpp"

namespace lodex {
namespace {

const Box kUnit{{0, 0, 0}, {1, 1, 1}};

enum class Kind { kUniform, kOccupancy50, kOccupancy25, kOccupancy12, kClustered, kSheet };
const char* name(Kind k) {
  switch (k) {
    case Kind::kUniform: return "uniform";
    case Kind::kOccupancy50: return "occupancy 50%";
    case Kind::kOccupancy25: return "occupancy 25%";
    case Kind::kOccupancy12: return "occupancy 12.5%";
    case Kind::kClustered: return "clustered";
    case Kind::kSheet: return "sheet";
  }
  return "?";
}

// `n` particles of the distribution in the unit cube.
std::vector<Vec3> draw(Kind kind, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> g(0, 1);
  std::vector<Vec3> out;
  out.reserve(n);
  // Occupancy: the domain cut into 16^3 regions (paper §6.1), a seeded random share occupied.
  std::vector<uint32_t> occupied;
  const double share = kind == Kind::kOccupancy50 ? 0.5 : kind == Kind::kOccupancy25 ? 0.25 : 0.125;
  if (kind == Kind::kOccupancy50 || kind == Kind::kOccupancy25 || kind == Kind::kOccupancy12) {
    std::vector<uint32_t> all(4096);
    for (uint32_t i = 0; i < 4096; ++i) all[i] = i;
    std::shuffle(all.begin(), all.end(), rng);
    occupied.assign(all.begin(), all.begin() + static_cast<long>(4096 * share));
  }
  const Vec3 centre[3] = {{0.3, 0.3, 0.6}, {0.7, 0.6, 0.3}, {0.55, 0.8, 0.8}};
  const double sigma[3] = {0.05, 0.08, 0.03}, weight[3] = {0.6, 0.3, 0.1};
  while (out.size() < n) {
    Vec3 p{u(rng), u(rng), u(rng)};
    switch (kind) {
      case Kind::kUniform: break;
      case Kind::kOccupancy50:
      case Kind::kOccupancy25:
      case Kind::kOccupancy12: {
        const uint32_t r = occupied[static_cast<size_t>(u(rng) * occupied.size()) % occupied.size()];
        p = {(r % 16 + p[0]) / 16, (r / 16 % 16 + p[1]) / 16, (r / 256 + p[2]) / 16};
        break;
      }
      case Kind::kClustered: {
        const double x = u(rng);
        const int b = x < weight[0] ? 0 : x < weight[0] + weight[1] ? 1 : 2;
        for (int a = 0; a < 3; ++a) p[a] = centre[b][a] + sigma[b] * g(rng);
        break;
      }
      case Kind::kSheet: p[2] = 0.5 + 0.002 * g(rng); break;
    }
    if (kUnit.contains(p)) out.push_back(p);
  }
  return out;
}

struct Simulated {
  std::vector<RankInput> ranks;
  std::vector<Vec3> particles;
  std::vector<int> owner;
};

// Ranks on an s x s x s lattice; each holds the particles in its patch and reports its patch,
// count and an h^3 histogram (h = 0: none).
Simulated simulate(Kind kind, uint32_t s, size_t n, uint32_t h, uint64_t seed = 5) {
  Simulated sim;
  sim.particles = draw(kind, n, seed);
  const size_t R = size_t{s} * s * s;
  sim.ranks.resize(R);
  for (size_t r = 0; r < R; ++r) {
    const uint32_t idx[3] = {uint32_t(r % s), uint32_t(r / s % s), uint32_t(r / (size_t{s} * s))};
    for (int a = 0; a < 3; ++a) {
      sim.ranks[r].patch.inclusive_min[a] = double(idx[a]) / s;
      sim.ranks[r].patch.exclusive_max[a] = idx[a] + 1 == s ? 1.0 : double(idx[a] + 1) / s;
    }
    sim.ranks[r].patch_given = true;
    if (h > 0) sim.ranks[r].histogram.assign(size_t{h} * h * h, 0);
  }
  for (const Vec3& p : sim.particles) {
    size_t idx[3];
    for (int a = 0; a < 3; ++a) idx[a] = std::min<size_t>(static_cast<size_t>(p[a] * s), s - 1);
    const size_t r = idx[0] + s * (idx[1] + size_t{s} * idx[2]);
    RankInput& in = sim.ranks[r];
    ++in.count;
    sim.owner.push_back(static_cast<int>(r));
    if (h > 0) {
      uint32_t c[3];
      for (int a = 0; a < 3; ++a) c[a] = histogram_cell(p[a], in.patch.inclusive_min[a], in.patch.exclusive_max[a], h);
      ++in.histogram[c[0] + h * (c[1] + h * c[2])];
    }
  }
  return sim;
}

PartitionSpec adaptive(uint64_t per_file) {
  PartitionSpec s;
  s.mode = PartitionMode::kAdaptive;
  s.particles_per_file = per_file;
  return s;
}

// Checks the plan's structure against the particles; returns max / mean particles per partition.
double check_plan(const ParticlePlan& plan, const Simulated& sim, uint32_t expect_parts) {
  EXPECT_TRUE(plan.kd != nullptr);
  EXPECT_EQ(plan.num_partitions(), expect_parts);
  EXPECT_EQ(plan.tiles.size(), plan.num_partitions());
  std::vector<uint64_t> got(plan.num_partitions(), 0);
  for (size_t i = 0; i < sim.particles.size(); ++i) {
    const Vec3& p = sim.particles[i];
    const uint32_t part = plan.partition_of(p);
    EXPECT_TRUE(plan.tiles[part].contains(p));
    const auto sends = plan.sends_of(sim.owner[i]);
    if (!std::binary_search(sends.begin(), sends.end(), part)) {
      ADD_FAILURE() << "particle " << i << " of rank " << sim.owner[i] << " goes to partition " << part
                    << ", which the rank does not send to";
      break;
    }
    ++got[part];
  }
  // Ranks without particles take no part; aggregators are distinct, uniform in rank space.
  for (size_t r = 0; r < sim.ranks.size(); ++r)
    if (sim.ranks[r].count == 0) EXPECT_TRUE(plan.sends_of(static_cast<int>(r)).empty()) << r;
  // Aggregators: in place where one rank feeds a partition alone, else the uniform slot
  // floor(j R / m) or the next free rank after it; all distinct.
  std::set<int32_t> aggs;
  uint64_t m = 0, j = 0;
  const size_t R = sim.ranks.size();
  std::vector<char> taken(R, 0);
  for (uint32_t p = 0; p < plan.num_partitions(); ++p) {
    m += !plan.senders_of(p).empty();
    const auto senders = plan.senders_of(p);
    if (senders.size() == 1 && plan.sends_of(senders[0]).size() == 1) taken[senders[0]] = 1;
  }
  for (uint32_t p = 0; p < plan.num_partitions(); ++p) {
    const auto senders = plan.senders_of(p);
    if (senders.empty()) {
      EXPECT_EQ(plan.aggregator[p], -1);
      continue;
    }
    const uint64_t slot = j++ * R / m;
    if (senders.size() == 1 && plan.sends_of(senders[0]).size() == 1) {
      EXPECT_EQ(plan.aggregator[p], senders[0]) << "partition " << p << " is not aggregated in place";
    } else {
      // The first free rank at or after the slot (free: no in-place partition, no earlier one).
      size_t want = slot;
      while (taken[want]) want = (want + 1) % R;
      taken[want] = 1;
      EXPECT_EQ(plan.aggregator[p], static_cast<int32_t>(want)) << "partition " << p;
    }
    aggs.insert(plan.aggregator[p]);
  }
  EXPECT_EQ(aggs.size(), m);
  // Tiles pairwise disjoint, partition boxes inside their tiles.
  for (uint32_t p = 0; p < plan.num_partitions(); ++p) {
    EXPECT_TRUE(plan.tiles[p].contains(plan.partitions[p])) << p;
    if (plan.num_partitions() <= 64)
      for (uint32_t q = p + 1; q < plan.num_partitions(); ++q)
        EXPECT_FALSE(plan.tiles[p].intersects(plan.tiles[q])) << p << " " << q;
  }
  const uint64_t most = *std::max_element(got.begin(), got.end());
  return static_cast<double>(most) / (static_cast<double>(sim.particles.size()) / plan.num_partitions());
}

class AdaptivePlan : public ::testing::TestWithParam<Kind> {};

TEST_P(AdaptivePlan, BalancedAtEightAndTwentySevenRanks) {
  for (uint32_t s : {2u, 3u}) {
    const size_t R = size_t{s} * s * s;
    const size_t n = 400000;
    const Simulated sim = simulate(GetParam(), s, n, adaptive_histogram_side(R));
    const ParticlePlan plan = plan_particle_write(kUnit, adaptive((n + R - 1) / R), sim.ranks);
    const double imbalance = check_plan(plan, sim, static_cast<uint32_t>(R));
    EXPECT_LE(imbalance, 1.25) << name(GetParam()) << " at " << R << " ranks";
  }
}

TEST_P(AdaptivePlan, BalancedAtFourThousandRanks) {
  const uint32_t s = 16;
  const size_t R = 4096, n = 2000000;
  const Simulated sim = simulate(GetParam(), s, n, adaptive_histogram_side(R));
  const ParticlePlan plan = plan_particle_write(kUnit, adaptive((n + 511) / 512), sim.ranks);   // 512 files
  const double imbalance = check_plan(plan, sim, 512);
  EXPECT_LE(imbalance, 1.25) << name(GetParam());
}

INSTANTIATE_TEST_SUITE_P(Generators, AdaptivePlan,
                         ::testing::Values(Kind::kUniform, Kind::kOccupancy50, Kind::kOccupancy25, Kind::kOccupancy12,
                                           Kind::kClustered, Kind::kSheet),
                         [](const auto& info) {
                           std::string s = name(info.param);
                           s.erase(std::remove_if(s.begin(), s.end(), [](char c) { return !std::isalnum(c); }),
                                   s.end());
                           return s;
                         });

TEST(AdaptivePlanScale, QuarterMillionRanks) {
  const uint32_t s = 64;   // 262,144 ranks, extents and counts only (the histogram side there is 1)
  ASSERT_EQ(adaptive_histogram_side(262144), 1u);
  const size_t n = size_t{1} << 22;
  const Simulated sim = simulate(Kind::kClustered, s, n, 0);
  const auto t0 = std::chrono::steady_clock::now();
  const ParticlePlan plan = plan_particle_write(kUnit, adaptive(n / 32768), sim.ranks);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  RecordProperty("plan_seconds", std::to_string(secs));
  ASSERT_EQ(plan.num_partitions(), 32768u);
  // Estimated balance within the bound (cuts snapped to rank faces where that costs at
  // most 2 % per level); every particle reaches a partition its rank sends to.
  double most = 0;
  for (uint32_t l = 0; l < plan.kd->num_leaves(); ++l) most = std::max(most, plan.kd->weight(l));
  EXPECT_LE(most / (double(n) / 32768), 1.25);
  std::printf("262,144 ranks -> 32,768 partitions planned in %.3f s\n", secs);
  for (size_t i = 0; i < sim.particles.size(); i += 7) {
    const uint32_t part = plan.partition_of(sim.particles[i]);
    const auto sends = plan.sends_of(sim.owner[i]);
    ASSERT_TRUE(std::binary_search(sends.begin(), sends.end(), part)) << i;
  }
  std::set<int32_t> aggs(plan.aggregator.begin(), plan.aggregator.end());
  aggs.erase(-1);
  EXPECT_EQ(aggs.size(), plan.num_aggregators());
}

TEST(AdaptivePlan, DegenerateAndBadInputs) {
  // Every rank empty: one partition, nobody sends, no aggregator.
  Simulated empty = simulate(Kind::kUniform, 2, 0, 16);
  const ParticlePlan none = plan_particle_write(kUnit, adaptive(1000), empty.ranks);
  EXPECT_EQ(none.num_partitions(), 1u);
  EXPECT_TRUE(none.send_partitions.empty());
  EXPECT_EQ(none.num_aggregators(), 0u);
  // All particles at one point: one partition (it cannot be cut), whatever the target.
  std::vector<RankInput> point(8);
  const double x = 0.3;
  for (auto& r : point) r.patch_given = true;
  point[5].patch = Box{{x, x, x}, {std::nextafter(x, 1.0), std::nextafter(x, 1.0), std::nextafter(x, 1.0)}};
  point[5].count = 1000;
  const ParticlePlan one = plan_particle_write(kUnit, adaptive(10), point);
  EXPECT_EQ(one.num_partitions(), 1u);
  EXPECT_EQ(one.num_aggregators(), 1u);
  EXPECT_EQ(one.partition_of({x, x, x}), 0u);
  // More files than ranks are asked for: as many as the target says, an aggregator writing
  // several, the files spread evenly over the ranks.
  const Simulated sim = simulate(Kind::kUniform, 2, 10000, 16);
  const ParticlePlan many = plan_particle_write(kUnit, adaptive(100), sim.ranks);
  EXPECT_EQ(many.num_partitions(), 100u);
  std::vector<int> per_rank(8, 0);
  for (uint32_t p = 0; p < many.num_partitions(); ++p) {
    ASSERT_GE(many.aggregator[p], 0) << p;
    ASSERT_LT(many.aggregator[p], 8) << p;
    ++per_rank[many.aggregator[p]];
  }
  const auto [lo, hi] = std::minmax_element(per_rank.begin(), per_rank.end());
  EXPECT_GE(*lo, 11) << "ranks aggregate about 100 / 8 files each";
  EXPECT_LE(*hi, 13) << "no rank aggregates more than ceil(100 / 8)";
  // A target of one particle per file: no more files than non-empty histogram cells (the planner
  // cannot see inside a cell).
  uint64_t cells = 0;
  for (const auto& r : sim.ranks)
    for (uint32_t c : r.histogram) cells += c > 0;
  ASSERT_LT(cells, 80000u);
  EXPECT_EQ(plan_particle_write(kUnit, adaptive(1), sim.ranks).num_partitions(), cells);
  // Bad input.
  expect_error(ErrorCode::kInvalidArgument, [&] { plan_particle_write(kUnit, adaptive(0), sim.ranks); });
  auto bad = sim.ranks;
  bad[3].histogram[0] += 1;   // does not add up to the count
  const std::string m =
      expect_error(ErrorCode::kInvalidArgument, [&] { plan_particle_write(kUnit, adaptive(100), bad); });
  EXPECT_NE(m.find("rank 3"), std::string::npos) << m;
  bad = sim.ranks;
  bad[2].histogram.resize(10);   // not a cube
  expect_error(ErrorCode::kInvalidArgument, [&] { plan_particle_write(kUnit, adaptive(100), bad); });
}

TEST(AdaptivePlan, HistogramSideShrinksWithTheRankCount) {
  EXPECT_EQ(adaptive_histogram_side(1), 16u);
  EXPECT_EQ(adaptive_histogram_side(64), 16u);
  EXPECT_EQ(adaptive_histogram_side(65), 8u);
  EXPECT_EQ(adaptive_histogram_side(4096), 4u);
  EXPECT_EQ(adaptive_histogram_side(32768), 2u);
  EXPECT_EQ(adaptive_histogram_side(262144), 1u);
  EXPECT_EQ(histogram_cell(0.0, 0, 1, 4), 0u);
  EXPECT_EQ(histogram_cell(0.2499, 0, 1, 4), 0u);
  EXPECT_EQ(histogram_cell(0.25, 0, 1, 4), 1u);
  EXPECT_EQ(histogram_cell(1.0, 0, 1, 4), 3u);
  EXPECT_EQ(histogram_cell(-1.0, 0, 1, 4), 0u);
}

}  // namespace
}  // namespace lodex
