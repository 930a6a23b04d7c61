// Tests of the particle aggregation planner with simulated ranks (no MPI): factor mode on
// regular lattices, grid mode on arbitrary patches checked against brute force, error cases,
// and plans for 262,144 ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "core/error.hpp"
#include "layout/particle_plan.hpp"

namespace lodex {
namespace {

const Box kUnit{{0, 0, 0}, {1, 1, 1}};

// Ranks r = i + nx*(j + ny*k) on an nx x ny x nz lattice of `domain`, every patch given.
std::vector<RankInput> lattice(const Box& domain, uint32_t nx, uint32_t ny, uint32_t nz, uint64_t count = 100) {
  const uint32_t n[3] = {nx, ny, nz};
  std::vector<RankInput> ranks(size_t{nx} * ny * nz);
  for (uint32_t k = 0; k < nz; ++k)
    for (uint32_t j = 0; j < ny; ++j)
      for (uint32_t i = 0; i < nx; ++i) {
        const uint32_t idx[3] = {i, j, k};
        RankInput& r = ranks[i + size_t{nx} * (j + size_t{ny} * k)];
        for (int a = 0; a < 3; ++a) {
          const double w = (domain.exclusive_max[a] - domain.inclusive_min[a]) / n[a];
          r.patch.inclusive_min[a] = domain.inclusive_min[a] + idx[a] * w;
          r.patch.exclusive_max[a] =
              idx[a] + 1 == n[a] ? domain.exclusive_max[a] : domain.inclusive_min[a] + (idx[a] + 1) * w;
        }
        r.count = count;
        r.patch_given = true;
      }
  return ranks;
}

double volume(const Box& b) {
  const Vec3 s = b.size();
  return s[0] * s[1] * s[2];
}

// Partitions are pairwise disjoint, inside the domain and their volumes add up to it.
void expect_partitions_tile_domain(const ParticlePlan& plan) {
  const uint32_t np = plan.num_partitions();
  ASSERT_EQ(np, plan.grid[0] * plan.grid[1] * plan.grid[2]);
  double sum = 0;
  for (uint32_t p = 0; p < np; ++p) {
    EXPECT_FALSE(plan.partitions[p].empty()) << p;
    EXPECT_TRUE(plan.domain.contains(plan.partitions[p])) << p;
    sum += volume(plan.partitions[p]);
    for (uint32_t q = p + 1; q < np; ++q)
      EXPECT_FALSE(plan.partitions[p].intersects(plan.partitions[q])) << p << " and " << q;
  }
  EXPECT_NEAR(sum, volume(plan.domain), 1e-12 * volume(plan.domain));
  // Random points of the domain lie in exactly one partition.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, 1);
  for (int t = 0; t < 2000; ++t) {
    Vec3 x;
    for (int a = 0; a < 3; ++a)
      x[a] = plan.domain.inclusive_min[a] + u(rng) * (plan.domain.exclusive_max[a] - plan.domain.inclusive_min[a]);
    int hits = 0;
    for (const Box& b : plan.partitions) hits += b.contains(x);
    EXPECT_EQ(hits, 1);
  }
}

// Recv lists are the transpose of the send lists (senders ascending); the send lists ascend.
void expect_recv_is_transpose(const ParticlePlan& plan, size_t num_ranks) {
  ASSERT_EQ(plan.send_offsets.size(), num_ranks + 1);
  ASSERT_EQ(plan.recv_offsets.size(), plan.num_partitions() + 1);
  std::vector<std::vector<int32_t>> expect(plan.num_partitions());
  for (size_t r = 0; r < num_ranks; ++r) {
    const auto s = plan.sends_of(static_cast<int>(r));
    EXPECT_TRUE(std::is_sorted(s.begin(), s.end())) << r;
    EXPECT_EQ(std::adjacent_find(s.begin(), s.end()), s.end()) << r;
    for (uint32_t p : s) expect[p].push_back(static_cast<int32_t>(r));
  }
  for (uint32_t p = 0; p < plan.num_partitions(); ++p) {
    const auto got = plan.senders_of(p);
    EXPECT_EQ(std::vector<int32_t>(got.begin(), got.end()), expect[p]) << "partition " << p;
  }
}

// aggregator[p] = floor(j * R / m) for the j-th partition that receives anything, -1 otherwise.
void expect_aggregators(const ParticlePlan& plan, size_t num_ranks) {
  uint64_t m = 0;
  for (uint32_t p = 0; p < plan.num_partitions(); ++p) m += !plan.senders_of(p).empty();
  ASSERT_EQ(plan.aggregator.size(), plan.num_partitions());
  uint64_t j = 0;
  for (uint32_t p = 0; p < plan.num_partitions(); ++p) {
    if (plan.senders_of(p).empty()) {
      EXPECT_EQ(plan.aggregator[p], -1) << p;
    } else {
      EXPECT_EQ(plan.aggregator[p], static_cast<int32_t>(j * num_ranks / m)) << p;
      ++j;
    }
  }
  EXPECT_EQ(plan.num_aggregators(), m);
}

TEST(ParticlePlanFactor, LatticeFourByFourByTwo) {
  const Box domain{{-1, 10, 0}, {3, 12, 1}};   // not the unit cube: offsets matter
  const auto ranks = lattice(domain, 4, 4, 2);
  const ParticlePlan plan = plan_particle_write(domain, {PartitionMode::kFactor, {2, 2, 1}}, ranks);
  EXPECT_EQ(plan.grid, (std::array<uint32_t, 3>{2, 2, 2}));
  EXPECT_EQ(plan.num_partitions(), 8u);
  EXPECT_TRUE(plan.aligned);
  EXPECT_EQ(plan.domain, domain);
  expect_partitions_tile_domain(plan);
  expect_recv_is_transpose(plan, ranks.size());
  expect_aggregators(plan, ranks.size());
  for (uint32_t p = 0; p < 8; ++p) {
    EXPECT_EQ(plan.senders_of(p).size(), 4u) << p;   // Px*Py*Pz
    EXPECT_EQ(plan.aggregator[p], static_cast<int32_t>(p * 32 / 8));
    EXPECT_EQ(plan.partitions_of_aggregator(plan.aggregator[p]), std::vector<uint32_t>{p});
  }
  // Partition index p = i + gx*(j + gy*k), and each rank sends to the partition holding its patch.
  EXPECT_EQ(plan.partitions[1].inclusive_min[0], 1.0);
  EXPECT_EQ(plan.partitions[2].inclusive_min[1], 11.0);
  EXPECT_EQ(plan.partitions[4].inclusive_min[2], 0.5);
  for (size_t r = 0; r < ranks.size(); ++r) {
    const auto s = plan.sends_of(static_cast<int>(r));
    ASSERT_EQ(s.size(), 1u) << r;
    EXPECT_TRUE(plan.partitions[s[0]].contains(ranks[r].patch)) << r;
  }
  std::set<int32_t> distinct(plan.aggregator.begin(), plan.aggregator.end());
  EXPECT_EQ(distinct.size(), 8u);
  EXPECT_TRUE(plan.partitions_of_aggregator(1).empty());
}

TEST(ParticlePlanFactor, AggregatedInPlaceOnlyWhenTheSoleSenderAggregates) {
  // Factor (1,1,1): every partition is one rank's patch and that rank aggregates it.
  const auto ranks = lattice(kUnit, 2, 2, 2);
  const ParticlePlan own = plan_particle_write(kUnit, {PartitionMode::kFactor, {1, 1, 1}}, ranks);
  for (uint32_t p = 0; p < own.num_partitions(); ++p) EXPECT_TRUE(own.aggregated_in_place(p)) << p;
  // Factor (2,2,2): one partition, eight senders.
  const ParticlePlan one = plan_particle_write(kUnit, {PartitionMode::kFactor, {2, 2, 2}}, ranks);
  EXPECT_FALSE(one.aggregated_in_place(0));
  // A partition whose only sender is not its aggregator: grid (2,1,1) with all particles on rank 1
  // inside the partition that rank 0 aggregates.
  std::vector<RankInput> moved(2);
  moved[1].patch = Box{{0, 0, 0}, {0.5, 1, 1}};
  moved[1].count = 10;
  moved[1].patch_given = true;
  const ParticlePlan plan = plan_particle_write(kUnit, {PartitionMode::kGrid, {2, 1, 1}}, moved);
  ASSERT_EQ(plan.aggregator[0], 0);
  EXPECT_FALSE(plan.aggregated_in_place(0));
  EXPECT_FALSE(plan.aggregated_in_place(1));   // nobody sends to it
}

TEST(ParticlePlanFactor, RanksWithoutParticlesSendNothing) {
  auto ranks = lattice(kUnit, 4, 4, 2);
  // Partition (0,0,0) of factor (2,2,1) holds ranks 0,1,4,5: empty all of them.
  for (int r : {0, 1, 4, 5}) ranks[r].count = 0;
  ranks[31].count = 0;   // one empty rank in a partition that still receives
  const ParticlePlan plan = plan_particle_write(kUnit, {PartitionMode::kFactor, {2, 2, 1}}, ranks);
  EXPECT_TRUE(plan.aligned);
  for (int r : {0, 1, 4, 5, 31}) EXPECT_TRUE(plan.sends_of(r).empty()) << r;
  EXPECT_TRUE(plan.senders_of(0).empty());
  EXPECT_EQ(plan.aggregator[0], -1);
  EXPECT_EQ(plan.senders_of(7).size(), 3u);
  EXPECT_EQ(plan.num_aggregators(), 7u);
  expect_recv_is_transpose(plan, ranks.size());
  expect_aggregators(plan, ranks.size());   // floor(j * 32 / 7) over the 7 receiving partitions
  EXPECT_EQ(plan.aggregator[1], 0);
  EXPECT_EQ(plan.aggregator[7], 6 * 32 / 7);
}

TEST(ParticlePlanFactor, NobodyHoldsAnything) {
  std::vector<RankInput> ranks(5);   // no patches, no particles
  const ParticlePlan plan = plan_particle_write(kUnit, {PartitionMode::kFactor, {1, 1, 1}}, ranks);
  EXPECT_EQ(plan.num_partitions(), 1u);
  EXPECT_EQ(plan.num_aggregators(), 0u);
  EXPECT_EQ(plan.aggregator[0], -1);
  for (int r = 0; r < 5; ++r) EXPECT_TRUE(plan.sends_of(r).empty());
}

TEST(ParticlePlanFactor, FactorThatDoesNotDivideIsRejected) {
  const auto ranks = lattice(kUnit, 4, 4, 2);
  const std::string msg = expect_error(ErrorCode::kInvalidArgument,
                                       [&] { plan_particle_write(kUnit, {PartitionMode::kFactor, {3, 1, 1}}, ranks); });
  EXPECT_NE(msg.find("does not fit"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Px=3"), std::string::npos) << msg;
  const std::string z = expect_error(ErrorCode::kInvalidArgument,
                                     [&] { plan_particle_write(kUnit, {PartitionMode::kFactor, {1, 1, 4}}, ranks); });
  EXPECT_NE(z.find("does not fit"), std::string::npos) << z;
  expect_error(ErrorCode::kInvalidArgument,
               [&] { plan_particle_write(kUnit, {PartitionMode::kFactor, {0, 1, 1}}, ranks); });
}

TEST(ParticlePlanFactor, PatchesNotGivenAreRejected) {
  auto ranks = lattice(kUnit, 2, 2, 2);
  ranks[3].patch_given = false;
  const std::string msg = expect_error(ErrorCode::kInvalidArgument,
                                       [&] { plan_particle_write(kUnit, {PartitionMode::kFactor, {1, 1, 1}}, ranks); });
  EXPECT_NE(msg.find("patch"), std::string::npos) << msg;
  // Grid mode does not need patches.
  EXPECT_NO_THROW(plan_particle_write(kUnit, {PartitionMode::kGrid, {2, 2, 2}}, ranks));
}

TEST(ParticlePlanFactor, UnequalOrMisalignedPatchesAreRejected) {
  auto ranks = lattice(kUnit, 4, 1, 1);
  ranks[1].patch.exclusive_max[0] = 0.45;   // rank 1 smaller ...
  ranks[2].patch.inclusive_min[0] = 0.45;   // ... rank 2 larger
  const std::string msg = expect_error(ErrorCode::kInvalidArgument,
                                       [&] { plan_particle_write(kUnit, {PartitionMode::kFactor, {1, 1, 1}}, ranks); });
  EXPECT_NE(msg.find("equal patches"), std::string::npos) << msg;

  auto shifted = lattice(kUnit, 4, 1, 1);   // same sizes, off the lattice
  for (auto& r : shifted) {
    r.patch.inclusive_min[1] = 0;
    r.patch.exclusive_max[1] = 1;
  }
  shifted[2].patch.inclusive_min[0] = 0.6;
  shifted[2].patch.exclusive_max[0] = 0.85;
  expect_error(ErrorCode::kInvalidArgument,
               [&] { plan_particle_write(kUnit, {PartitionMode::kFactor, {1, 1, 1}}, shifted); });

  auto odd = lattice(kUnit, 1, 1, 1);   // patch size 0.3 does not divide 1
  odd[0].patch = Box{{0, 0, 0}, {0.3, 1, 1}};
  const std::string d = expect_error(ErrorCode::kInvalidArgument,
                                     [&] { plan_particle_write(kUnit, {PartitionMode::kFactor, {1, 1, 1}}, odd); });
  EXPECT_NE(d.find("does not divide"), std::string::npos) << d;
}

TEST(ParticlePlanFactor, OverlappingPatchesAreRejected) {
  auto ranks = lattice(kUnit, 2, 2, 1);
  ranks[3].patch = ranks[1].patch;   // two ranks claim the same cell; cell 3 is left to nobody
  const std::string msg = expect_error(ErrorCode::kInvalidArgument,
                                       [&] { plan_particle_write(kUnit, {PartitionMode::kFactor, {1, 1, 1}}, ranks); });
  EXPECT_NE(msg.find("ranks 1 and 3 give the same patch"), std::string::npos) << msg;
  // The same on a sparse lattice (many more cells than ranks): the sorted path.
  std::vector<RankInput> sparse(3);
  for (auto& r : sparse) {
    r.patch = Box{{0.5, 0.25, 0}, {0.5 + 1.0 / 64, 0.25 + 1.0 / 64, 1.0 / 64}};
    r.count = 5;
    r.patch_given = true;
  }
  sparse[0].patch = Box{{0, 0, 0}, {1.0 / 64, 1.0 / 64, 1.0 / 64}};
  const std::string m2 = expect_error(ErrorCode::kInvalidArgument,
                                      [&] { plan_particle_write(kUnit, {PartitionMode::kFactor, {1, 1, 1}}, sparse); });
  EXPECT_NE(m2.find("ranks 1 and 2 give the same patch"), std::string::npos) << m2;
  // Ranks without particles and without a patch take no cell.
  auto holes = lattice(kUnit, 2, 1, 1);
  holes.push_back(RankInput{});
  EXPECT_NO_THROW(plan_particle_write(kUnit, {PartitionMode::kFactor, {1, 1, 1}}, holes));
}

TEST(ParticlePlan, InvalidInputsAreRejected) {
  auto ranks = lattice(kUnit, 2, 1, 1);
  expect_error(ErrorCode::kInvalidArgument,   // empty domain
               [&] { plan_particle_write(Box{{0, 0, 0}, {1, 0, 1}}, {}, ranks); });
  expect_error(ErrorCode::kInvalidArgument,   // no ranks
               [&] { plan_particle_write(kUnit, {}, std::span<const RankInput>{}); });
  auto outside = ranks;
  outside[1].patch.exclusive_max[0] = 1.5;
  const std::string o = expect_error(ErrorCode::kInvalidArgument,
                                     [&] { plan_particle_write(kUnit, {PartitionMode::kGrid, {2, 2, 2}}, outside); });
  EXPECT_NE(o.find("rank 1"), std::string::npos) << o;
  auto emptied = ranks;
  emptied[0].patch = Box{};   // particles but no patch
  expect_error(ErrorCode::kInvalidArgument,
               [&] { plan_particle_write(kUnit, {PartitionMode::kGrid, {2, 2, 2}}, emptied); });
}

// Random patches inside `domain`, some ranks without particles (and some of those without patch).
std::vector<RankInput> random_patches(const Box& domain, size_t n, uint64_t seed, double max_frac) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<RankInput> ranks(n);
  for (size_t r = 0; r < n; ++r) {
    RankInput& in = ranks[r];
    for (int a = 0; a < 3; ++a) {
      const double lo = domain.inclusive_min[a], ext = domain.exclusive_max[a] - lo;
      const double w = std::max(1e-6, u(rng) * max_frac) * ext;
      const double start = lo + u(rng) * (ext - w);
      in.patch.inclusive_min[a] = start;
      in.patch.exclusive_max[a] = std::min(start + w, domain.exclusive_max[a]);
    }
    in.count = r % 7 == 3 ? 0 : 1 + r % 50;
    in.patch_given = r % 2 == 0;
    if (r % 14 == 3) in.patch = Box{};   // empty rank that gave nothing
  }
  return ranks;
}

TEST(ParticlePlanGrid, SendListsMatchBruteForceOverlap) {
  const Box domain{{-2, 0, 5}, {2, 3, 6}};
  const auto ranks = random_patches(domain, 300, 42, 0.6);
  const ParticlePlan plan = plan_particle_write(domain, {PartitionMode::kGrid, {3, 4, 5}}, ranks);
  EXPECT_EQ(plan.grid, (std::array<uint32_t, 3>{3, 4, 5}));
  EXPECT_EQ(plan.num_partitions(), 60u);
  EXPECT_FALSE(plan.aligned);
  expect_partitions_tile_domain(plan);
  size_t multi = 0;
  for (size_t r = 0; r < ranks.size(); ++r) {
    std::vector<uint32_t> expect;
    if (ranks[r].count > 0)
      for (uint32_t p = 0; p < plan.num_partitions(); ++p)
        if (plan.partitions[p].intersects(ranks[r].patch)) expect.push_back(p);
    const auto got = plan.sends_of(static_cast<int>(r));
    EXPECT_EQ(std::vector<uint32_t>(got.begin(), got.end()), expect) << "rank " << r;
    multi += expect.size() > 1;
    if (ranks[r].count == 0) {
      EXPECT_TRUE(got.empty()) << r;
    }
  }
  EXPECT_GT(multi, 100u);   // the test really exercises straddling patches
  expect_recv_is_transpose(plan, ranks.size());
  expect_aggregators(plan, ranks.size());
}

TEST(ParticlePlanGrid, PatchEndingOnBoundaryStaysInside) {
  std::vector<RankInput> ranks(3);
  ranks[0] = {Box{{0.25, 0, 0}, {0.5, 0.5, 1}}, 10, true};   // exactly partition x=1, y=0
  ranks[1] = {Box{{0, 0, 0}, {0.5, 1, 1}}, 10, true};        // x 0..1, y 0..1
  ranks[2] = {Box{{0.75, 0.5, 0}, {1, 1, 1}}, 10, true};     // the last partition
  const ParticlePlan plan = plan_particle_write(kUnit, {PartitionMode::kGrid, {4, 2, 1}}, ranks);
  auto sends = [&](int r) {
    const auto s = plan.sends_of(r);
    return std::vector<uint32_t>(s.begin(), s.end());
  };
  EXPECT_EQ(sends(0), (std::vector<uint32_t>{1}));
  EXPECT_EQ(sends(1), (std::vector<uint32_t>{0, 1, 4, 5}));
  EXPECT_EQ(sends(2), (std::vector<uint32_t>{7}));
  EXPECT_FALSE(plan.aligned);
  expect_recv_is_transpose(plan, 3);
  // m = 5 receiving partitions (0, 1, 4, 5, 7) over R = 3 ranks: aggregators 0, 0, 1, 1, 2.
  expect_aggregators(plan, 3);
  EXPECT_EQ(plan.num_aggregators(), 5u);
  EXPECT_EQ(plan.partitions_of_aggregator(0), (std::vector<uint32_t>{0, 1}));

  // Patches inside one partition each give an aligned grid-mode plan.
  std::vector<RankInput> inside = {ranks[0], ranks[2]};
  EXPECT_TRUE(plan_particle_write(kUnit, {PartitionMode::kGrid, {4, 2, 1}}, inside).aligned);
}

TEST(ParticlePlanGrid, PartitionOfFollowsTheBinningRule) {
  const Box domain{{-1, 0, 2}, {1, 3, 2.5}};
  std::vector<RankInput> one(1);
  const ParticlePlan plan = plan_particle_write(domain, {PartitionMode::kGrid, {5, 3, 7}}, one);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0, 1);
  for (int t = 0; t < 20000; ++t) {
    Vec3 x;
    for (int a = 0; a < 3; ++a)
      x[a] = domain.inclusive_min[a] + u(rng) * (domain.exclusive_max[a] - domain.inclusive_min[a]);
    const uint32_t p = plan.partition_of(x);
    ASSERT_LT(p, plan.num_partitions());
    EXPECT_TRUE(plan.partitions[p].contains(x)) << x[0] << " " << x[1] << " " << x[2] << " -> " << p;
  }
  // Inclusive min, clamping at and beyond the domain edges.
  EXPECT_EQ(plan.partition_of(Vec3{-1, 0, 2}), 0u);
  EXPECT_EQ(plan.partition_of(Vec3{-0.5, 1, 2}), 1u + 5u * 1u);   // bin x=1 (w=0.4), y=1 (w=1)
  EXPECT_EQ(plan.partition_of(Vec3{1, 3, 2.5}), plan.num_partitions() - 1);
  EXPECT_EQ(plan.partition_of(Vec3{-5, -5, -5}), 0u);
  EXPECT_EQ(plan.partition_of(Vec3{5, 5, 5}), plan.num_partitions() - 1);
}

// The binner is the rule floor((x - min) / (extent / cells)), clamped, written without floor:
// the same partition for every position, cell edges and their neighbouring doubles included.
TEST(ParticlePlanGrid, BinnerIsTheFloorRuleAtEveryEdge) {
  const Box domain{{-1, 0, 2}, {1, 3, 2.5}};
  std::vector<RankInput> one(1);
  const ParticlePlan plan = plan_particle_write(domain, {PartitionMode::kGrid, {5, 3, 7}}, one);
  const PartitionBinner binner = plan.binner();
  auto rule = [&](const Vec3& x) {
    uint32_t idx[3];
    for (int a = 0; a < 3; ++a) {
      const double w = (domain.exclusive_max[a] - domain.inclusive_min[a]) / plan.grid[a];
      const double f = std::floor((x[a] - domain.inclusive_min[a]) / w);
      idx[a] = f <= 0 ? 0u : (f >= plan.grid[a] - 1 ? plan.grid[a] - 1 : static_cast<uint32_t>(f));
    }
    return idx[0] + plan.grid[0] * (idx[1] + plan.grid[1] * idx[2]);
  };
  std::vector<double> xs[3];
  for (int a = 0; a < 3; ++a) {
    const double lo = domain.inclusive_min[a], hi = domain.exclusive_max[a];
    for (uint32_t c = 0; c <= plan.grid[a] + 1; ++c) {
      const double edge = lo + (hi - lo) / plan.grid[a] * c;
      for (double x : {edge, std::nextafter(edge, -INFINITY), std::nextafter(edge, INFINITY),
                       std::nextafter(std::nextafter(edge, INFINITY), INFINITY)})
        xs[a].push_back(x);
    }
    xs[a].push_back(lo - 10);
    xs[a].push_back(hi + 10);
  }
  size_t checked = 0;
  for (double x : xs[0])
    for (double y : xs[1])
      for (double z : xs[2]) {
        const Vec3 p{x, y, z};
        ASSERT_EQ(binner(p), rule(p)) << x << " " << y << " " << z;
        ASSERT_EQ(plan.partition_of(p), rule(p));
        ++checked;
      }
  EXPECT_GT(checked, 10000u);
}

// ---------------------------------------------------------------- scale

// The cache's answer is always the plan plan_particle_write makes for the same inputs.
void expect_same_plan(const ParticlePlan& a, const ParticlePlan& b) {
  EXPECT_EQ(a.grid, b.grid);
  EXPECT_EQ(a.aligned, b.aligned);
  ASSERT_EQ(a.partitions.size(), b.partitions.size());
  for (size_t p = 0; p < a.partitions.size(); ++p) {
    EXPECT_EQ(a.partitions[p].inclusive_min, b.partitions[p].inclusive_min) << p;
    EXPECT_EQ(a.partitions[p].exclusive_max, b.partitions[p].exclusive_max) << p;
  }
  EXPECT_EQ(a.aggregator, b.aggregator);
  EXPECT_EQ(a.send_offsets, b.send_offsets);
  EXPECT_EQ(a.send_partitions, b.send_partitions);
  EXPECT_EQ(a.recv_offsets, b.recv_offsets);
  EXPECT_EQ(a.recv_ranks, b.recv_ranks);
}

TEST(ParticlePlanCache, ReusesThePlanWhileTheDecompositionHolds) {
  const PartitionSpec spec{PartitionMode::kFactor, {2, 2, 1}};
  auto ranks = lattice(kUnit, 4, 4, 2);
  ParticlePlanCache cache;
  const auto first = cache.plan(kUnit, spec, ranks);
  EXPECT_FALSE(cache.reused());
  for (auto& r : ranks) r.count += 17;   // other counts, every rank still holding some
  const auto second = cache.plan(kUnit, spec, ranks);
  EXPECT_TRUE(cache.reused());
  EXPECT_EQ(second.get(), first.get());
  expect_same_plan(*second, plan_particle_write(kUnit, spec, ranks));
}

TEST(ParticlePlanCache, AnyInputThePlanReadsMakesANewPlan) {
  const PartitionSpec spec{PartitionMode::kFactor, {2, 2, 1}};
  const auto base = lattice(kUnit, 4, 4, 2);
  std::vector<std::pair<const char*, std::function<void(std::vector<RankInput>&, PartitionSpec&, Box&)>>> changes = {
      {"a rank empties", [](auto& r, auto&, auto&) { r[5].count = 0; }},
      {"patches swap", [](auto& r, auto&, auto&) { std::swap(r[0].patch, r[1].patch); }},
      {"the factor", [](auto&, auto& s, auto&) { s.dims = {1, 2, 2}; }},
      {"the mode", [](auto&, auto& s, auto&) { s.mode = PartitionMode::kGrid; }},
      {"the domain",
       [](auto& r, auto&, auto& d) {
         d.exclusive_max[0] = 2;
         for (auto& x : r) x.patch.inclusive_min[0] *= 2, x.patch.exclusive_max[0] *= 2;
       }},
      {"one more rank", [](auto& r, auto&, auto&) { r.push_back(RankInput{}); }},
  };
  for (const auto& [what, change] : changes) {
    ParticlePlanCache cache;
    (void)cache.plan(kUnit, spec, base);
    std::vector<RankInput> ranks = base;
    PartitionSpec s = spec;
    Box domain = kUnit;
    change(ranks, s, domain);
    const auto again = cache.plan(domain, s, ranks);
    EXPECT_FALSE(cache.reused()) << what;
    expect_same_plan(*again, plan_particle_write(domain, s, ranks));
  }
}

TEST(ParticlePlanCache, AdaptivePlansAndFailedPlansAreNotKept) {
  auto ranks = lattice(kUnit, 2, 2, 2);
  ParticlePlanCache cache;
  const PartitionSpec adaptive{PartitionMode::kAdaptive, {1, 1, 1}, 250};
  (void)cache.plan(kUnit, adaptive, ranks);
  (void)cache.plan(kUnit, adaptive, ranks);
  EXPECT_FALSE(cache.reused());
  const PartitionSpec factor{PartitionMode::kFactor, {2, 1, 1}};
  (void)cache.plan(kUnit, factor, ranks);
  ranks[0].patch_given = false;   // a factor plan needs every patch: an error, and nothing kept
  EXPECT_NE(
      expect_error(ErrorCode::kInvalidArgument, [&] { (void)cache.plan(kUnit, factor, ranks); }).find("patch box"),
      std::string::npos);
  ranks[0].patch_given = true;
  (void)cache.plan(kUnit, factor, ranks);
  EXPECT_FALSE(cache.reused());
}

constexpr uint32_t kSide = 64;   // 64^3 = 262,144 simulated ranks

TEST(ParticlePlanScale, FactorModeQuarterMillionRanks) {
  const auto ranks = lattice(kUnit, kSide, kSide, kSide, 1000);
  const auto t0 = std::chrono::steady_clock::now();
  const ParticlePlan plan = plan_particle_write(kUnit, {PartitionMode::kFactor, {2, 2, 2}}, ranks);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  RecordProperty("plan_seconds", std::to_string(secs));
  const size_t R = ranks.size();
  ASSERT_EQ(R, 262144u);
  ASSERT_EQ(plan.num_partitions(), 32768u);
  EXPECT_EQ(plan.grid, (std::array<uint32_t, 3>{32, 32, 32}));
  EXPECT_TRUE(plan.aligned);
  std::vector<char> used(R, 0);
  for (uint32_t p = 0; p < plan.num_partitions(); ++p) {
    ASSERT_EQ(plan.aggregator[p], static_cast<int32_t>(uint64_t{p} * R / 32768)) << p;
    ASSERT_EQ(plan.aggregator[p], static_cast<int32_t>(8 * p));
    ASSERT_FALSE(used[plan.aggregator[p]]) << "aggregator reused: " << plan.aggregator[p];
    used[plan.aggregator[p]] = 1;
    ASSERT_EQ(plan.senders_of(p).size(), 8u) << p;
  }
  for (size_t r = 0; r < R; r += 997) {   // a sample of ranks: their one partition holds their patch
    const auto s = plan.sends_of(static_cast<int>(r));
    ASSERT_EQ(s.size(), 1u);
    EXPECT_TRUE(plan.partitions[s[0]].contains(ranks[r].patch)) << r;
  }
  EXPECT_EQ(plan.send_partitions.size(), R);
  EXPECT_EQ(plan.recv_ranks.size(), R);

  ParticlePlanCache cache;   // the next step's plan, the decomposition unchanged
  (void)cache.plan(kUnit, {PartitionMode::kFactor, {2, 2, 2}}, ranks);
  const auto t1 = std::chrono::steady_clock::now();
  (void)cache.plan(kUnit, {PartitionMode::kFactor, {2, 2, 2}}, ranks);
  RecordProperty("cached_plan_seconds",
                 std::to_string(std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count()));
  EXPECT_TRUE(cache.reused());
}

TEST(ParticlePlanScale, GridModeQuarterMillionRandomPatches) {
  // Lattice cells shifted by up to half a cell in each direction: many straddle partitions.
  auto ranks = lattice(kUnit, kSide, kSide, kSide, 1000);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  const double cell = 1.0 / kSide;
  for (auto& r : ranks)
    for (int a = 0; a < 3; ++a) {
      const double s = u(rng) * cell;
      r.patch.inclusive_min[a] = std::clamp(r.patch.inclusive_min[a] + s, 0.0, 1.0 - cell);
      r.patch.exclusive_max[a] = std::clamp(r.patch.exclusive_max[a] + s, cell, 1.0);
    }
  const auto t0 = std::chrono::steady_clock::now();
  const ParticlePlan plan = plan_particle_write(kUnit, {PartitionMode::kGrid, {16, 16, 16}}, ranks);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  RecordProperty("plan_seconds", std::to_string(secs));
  EXPECT_FALSE(plan.aligned);
  ASSERT_EQ(plan.num_partitions(), 4096u);
  EXPECT_GT(plan.send_partitions.size(), ranks.size());   // some ranks send to several partitions
  expect_aggregators(plan, ranks.size());
  for (uint32_t p = 0; p < plan.num_partitions(); ++p)
    ASSERT_EQ(plan.aggregator[p], static_cast<int32_t>(uint64_t{p} * ranks.size() / 4096)) << p;
  for (size_t r = 0; r < ranks.size(); r += 251) {   // brute force on a sample of ranks
    std::vector<uint32_t> expect;
    for (uint32_t p = 0; p < plan.num_partitions(); ++p)
      if (plan.partitions[p].intersects(ranks[r].patch)) expect.push_back(p);
    const auto got = plan.sends_of(static_cast<int>(r));
    ASSERT_EQ(std::vector<uint32_t>(got.begin(), got.end()), expect) << "rank " << r;
  }
  EXPECT_EQ(plan.recv_ranks.size(), plan.send_partitions.size());
}

}  // namespace
}  // namespace lodex
