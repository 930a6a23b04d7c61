#include "layout/particle_read_plan.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "support/expect_error.hpp"

namespace lodex {
namespace {

// The order the sampler promises, built by brute force.
std::vector<uint64_t> brute_order(uint64_t n) {
  uint32_t bits = 0;
  while ((uint64_t{1} << bits) < n) ++bits;
  std::vector<uint64_t> order;
  for (uint64_t j = 0; j < (uint64_t{1} << bits); ++j) {
    uint64_t r = 0;
    for (uint32_t i = 0; i < bits; ++i) r |= ((j >> i) & 1) << (bits - 1 - i);
    if (r < n) order.push_back(r);
  }
  return order;
}

TEST(NestedSampler, MatchesBruteForceEverywhere) {
  std::mt19937_64 rng(7);
  for (uint64_t n : {1, 2, 3, 5, 8, 17, 100, 255, 256, 257, 1000}) {
    const auto order = brute_order(n);
    ASSERT_EQ(order.size(), n);
    EXPECT_EQ(std::set<uint64_t>(order.begin(), order.end()).size(), n) << "a permutation";
    NestedSampler s(n);
    for (uint64_t t = 0; t <= n + 1; ++t) {
      const auto p = s.prefix(t);
      for (int trial = 0; trial < 8; ++trial) {
        uint64_t a = rng() % (n + 1), b = rng() % (n + 1);
        if (a > b) std::swap(a, b);
        uint64_t want = 0;
        for (uint64_t i = 0; i < std::min(t, n); ++i) want += order[i] >= a && order[i] < b;
        ASSERT_EQ(s.count(p, a, b), want) << "n " << n << " t " << t << " [" << a << "," << b << ")";
      }
      EXPECT_EQ(s.count(p, 0, n), std::min(t, n));
    }
  }
}

TEST(NestedSampler, EvenlySpreadAndNested) {
  const uint64_t n = 1'000'003;
  NestedSampler s(n);
  for (uint64_t t : {1u, 7u, 32u, 1000u, 4096u, 100'000u, 999'999u}) {
    const auto p = s.prefix(t), q = s.prefix(t + 1);
    for (uint64_t a = 0; a + 10'000 <= n; a += 37'123) {
      const double want = double(t) * 10'000 / n;
      EXPECT_LE(std::abs(double(s.count(p, a, a + 10'000)) - want), 22) << "t " << t << " a " << a;
      EXPECT_LE(s.count(p, a, a + 10'000), s.count(q, a, a + 10'000)) << "nested";
    }
  }
}

TEST(Levels, PaperExample) {
  // §3.4: 100 particles, one reader, P = 32, S = 2: levels of 32, 64 and the remaining 4.
  LodRequest r{1, 32, 2};
  EXPECT_EQ(level_prefix(r, 0), 32u);
  EXPECT_EQ(level_prefix(r, 1), 96u);
  EXPECT_EQ(level_prefix(r, 2), 224u);
  EXPECT_EQ(level_count(r, 100), 3u);
  EXPECT_EQ(level_count(r, 96), 2u);
  EXPECT_EQ(level_count(r, 0), 1u);
  // §5.4: 2^31 particles, 64 readers: levels 0..20 (21 levels) hold them all.
  EXPECT_EQ(level_count(LodRequest{64, 32, 2}, uint64_t{1} << 31), 21u);
  EXPECT_EQ(level_prefix(LodRequest{3, 10, 1.5}, 1), 30u + 45u);
  EXPECT_EQ(code_of([] { validate(LodRequest{0, 32, 2}); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(code_of([] { validate(LodRequest{1, 0, 2}); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(code_of([] { validate(LodRequest{1, 32, 1}); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(code_of([] { validate(LodRequest{1, 32, NAN}); }), ErrorCode::kInvalidArgument);
}

TEST(Levels, Fractions) {
  EXPECT_EQ(fraction_target(0.01, 1000), 10u);
  EXPECT_EQ(fraction_target(1, 1000), 1000u);
  EXPECT_EQ(fraction_target(1e-9, 1000), 1u);
  EXPECT_EQ(fraction_target(0.5, 0), 0u);
  for (double f : {0.0, -0.1, 1.5, double(NAN)})
    EXPECT_EQ(code_of([&] { fraction_target(f, 10); }), ErrorCode::kInvalidArgument) << f;
}

TEST(BrickPieces, CoverTheBrickSequenceInOrder) {
  // 3 levels, 8 bricks (b = 1), random segment sizes.
  std::mt19937_64 rng(3);
  const uint32_t levels = 3;
  const uint64_t bricks = 8;
  std::vector<uint64_t> starts{0};
  for (uint64_t s = 0; s < levels * bricks; ++s) starts.push_back(starts.back() + rng() % 5);
  for (uint32_t brick = 0; brick < bricks; ++brick) {
    const uint64_t n = brick_count(starts, levels, bricks, brick);
    std::vector<uint64_t> seq;   // the brick's rows in sequence order
    for (uint32_t k = 0; k < levels; ++k)
      for (uint64_t r = starts[k * bricks + brick]; r < starts[k * bricks + brick + 1]; ++r) seq.push_back(r);
    ASSERT_EQ(seq.size(), n);
    for (uint64_t from = 0; from <= n; ++from)
      for (uint64_t to = from; to <= n; ++to) {
        std::vector<RowPiece> pieces;
        brick_pieces(starts, levels, bricks, brick, from, to, pieces);
        std::vector<uint64_t> got;
        for (const auto& p : pieces) {
          EXPECT_LT(p.first, p.last);
          EXPECT_EQ(p.whole, p.first == starts[p.segment] && p.last == starts[p.segment + 1]);
          for (uint64_t r = p.first; r < p.last; ++r) got.push_back(r);
        }
        EXPECT_EQ(got, std::vector<uint64_t>(seq.begin() + from, seq.begin() + to));
      }
  }
}

TEST(BricksMeeting, ExactAgainstBruteForce) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-0.1, 1.1);
  for (uint32_t bits : {0u, 1u, 2u, 3u}) {
    const Box brick_box{{0, 0, 0}, {1, 1, 1}};
    const BrickGrid grid(brick_box, bits);
    std::vector<Vec3> pts(4000);
    Box bounds = Box::nothing();
    for (auto& p : pts) {
      for (int a = 0; a < 3; ++a) {
        p[a] = std::clamp(u(rng), 0.0, std::nextafter(1.0, 0.0));
        if (rng() % 8 == 0) p[a] = std::round(p[a] * 8) / 8;   // many on cell faces
        bounds.inclusive_min[a] = std::min(bounds.inclusive_min[a], p[a]);
        bounds.exclusive_max[a] = std::max(bounds.exclusive_max[a], p[a]);
      }
    }
    for (int trial = 0; trial < 200; ++trial) {
      Box q;
      for (int a = 0; a < 3; ++a) {
        double x = u(rng), y = u(rng);
        if (trial % 3 == 0) x = std::round(x * 8) / 8, y = std::round(y * 8) / 8;
        q.inclusive_min[a] = std::min(x, y);
        q.exclusive_max[a] = std::max(x, y);
      }
      if (trial % 10 == 0) q = unbounded_box();
      const auto picks = bricks_meeting(grid, bounds, q);
      std::map<uint32_t, bool> listed;
      for (const auto& p : picks) listed[p.brick] = p.inside;
      for (const auto& p : pts) {
        const uint32_t m = morton3(grid.cell(0, p[0]), grid.cell(1, p[1]), grid.cell(2, p[2]));
        if (q.contains(p)) {
          ASSERT_TRUE(listed.count(m)) << "a brick with a particle in the box is missing";
        }
        if (listed.count(m) && listed[m]) {
          ASSERT_TRUE(q.contains(p)) << "an inside brick holds a particle outside";
        }
      }
    }
  }
}

// Random points around the unit cube lie in exactly one part when inside q, in none otherwise.
void expect_parts_cover(const std::vector<Box>& parts, const Box& q, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-0.5, 1.5);
  for (int i = 0; i < 20000; ++i) {
    const Vec3 p{u(rng), u(rng), u(rng)};
    int owners = 0;
    for (const auto& b : parts) owners += b.contains(p);
    ASSERT_EQ(owners, q.contains(p) ? 1 : 0);
  }
}

TEST(SpatialSplit, DisjointCoveringAndBalanced) {
  std::vector<FileExtent> files;
  for (int i = 0; i < 8; ++i) {
    const double x = i % 2 * 0.5, y = i / 2 % 2 * 0.5, z = i / 4 * 0.5;
    files.push_back({Box{{x, y, z}, {x + 0.5, y + 0.5, z + 0.5}}, uint64_t(1000 * (i + 1))});
  }
  std::mt19937_64 rng(5);
  for (const Box& q : {unbounded_box(), Box{{0.1, 0.2, 0.3}, {0.9, 0.7, 0.8}}}) {
    for (uint32_t n : {1u, 2u, 3u, 5u, 7u, 16u}) {
      const auto parts = spatial_split(q, files, n);
      ASSERT_EQ(parts.size(), n);
      expect_parts_cover(parts, q, rng);
      // Shares of the estimate follow the reader counts.
      double total = 0;
      for (const auto& f : files) total += estimated_inside(f.bounds, f.count, q);
      for (const auto& b : parts) {
        double mine = 0;
        for (const auto& f : files) mine += estimated_inside(f.bounds, f.count, b);
        EXPECT_NEAR(mine, total / n, total * 1e-6 + 1e-9);
      }
    }
  }
  // No particles at all: still a partition.
  const auto parts = spatial_split(unbounded_box(), {}, 3);
  EXPECT_EQ(parts.size(), 3u);
}

TEST(SpatialSplit, CutsFallOnBrickFacesWithinTheTolerance) {
  std::vector<FileExtent> files;
  for (int i = 0; i < 8; ++i) {
    const double x = i % 2 * 0.5, y = i / 2 % 2 * 0.5, z = i / 4 * 0.5;
    const Box b{{x, y, z}, {x + 0.5, y + 0.5, z + 0.5}};
    // 64 bricks per axis per file: moving a cut half a brick shifts < 1% of the particles, so
    // every cut must snap.
    files.push_back({b, uint64_t(1000 * (i + 1)), b, 6});
  }
  std::mt19937_64 rng(7);
  for (const Box& q : {unbounded_box(), Box{{0.1, 0.2, 0.3}, {0.9, 0.7, 0.8}}}) {
    double total = 0;
    for (const auto& f : files) total += estimated_inside(f.bounds, f.count, q);
    for (uint32_t n : {2u, 3u, 5u, 8u}) {
      const auto parts = spatial_split(q, files, n);
      ASSERT_EQ(parts.size(), n);
      expect_parts_cover(parts, q, rng);
      int depth = 0;
      while ((1u << depth) < n) ++depth;
      for (const auto& b : parts) {
        double mine = 0;
        for (const auto& f : files) mine += estimated_inside(f.bounds, f.count, b);
        EXPECT_NEAR(mine, total / n, depth * kSnapTolerance * total);
        // Every face that is not the query's cuts no brick of any file it crosses.
        for (int a = 0; a < 3; ++a)
          for (double c : {b.inclusive_min[a], b.exclusive_max[a]}) {
            if (c == q.inclusive_min[a] || c == q.exclusive_max[a]) continue;
            for (const auto& f : files) {
              if (!(c > f.grid.inclusive_min[a] && c < f.grid.exclusive_max[a])) continue;
              const BrickGrid g(f.grid, f.grid_bits);
              EXPECT_EQ(g.face(a, g.cell(a, c)), c) << "n " << n << " axis " << a << " cut " << c;
            }
          }
      }
    }
  }
  // A brick much larger than the tolerance allows: the balanced cut stays.
  std::vector<FileExtent> one{{Box{{0, 0, 0}, {1, 1, 1}}, 1000, Box{{0, 0, 0}, {1, 1, 1}}, 1}};
  const auto parts = spatial_split(Box{{0, 0, 0}, {0.7, 0.3, 0.3}}, one, 2);   // the face at x = 0.5 is too far
  EXPECT_NEAR(parts[0].exclusive_max[0], 0.35, 1e-9);
  const auto near = spatial_split(Box{{0, 0, 0}, {1.02, 0.3, 0.3}}, one, 2);   // 0.51 snaps to 0.5
  EXPECT_EQ(near[0].exclusive_max[0], 0.5);
  // A cut just inside a file moves to the file's edge: the file then goes whole to one side.
  std::vector<FileExtent> pair;
  for (double x0 : {0.0, 0.5}) {
    const Box b{{x0, 0, 0}, {x0 + 0.5, 0.1, 0.1}};
    pair.push_back({Box{{x0, 0, 0}, {x0 + 0.4999, 0.1, 0.1}}, 1000, b, 4});
  }
  pair[1].count = 1001;   // the balanced cut falls just right of 0.5
  const auto halves = spatial_split(unbounded_box(), pair, 2);
  EXPECT_EQ(halves[0].exclusive_max[0], 0.5);
}

TEST(ByteSplit, EveryBrickHasOneOwnerThatTouchesItsFile) {
  const std::vector<uint64_t> weights{10, 1, 0, 500, 37};
  for (uint32_t n : {1u, 2u, 3u, 5u, 8u, 700u}) {
    ByteSplit split(weights, n);
    std::vector<uint64_t> load(n, 0);
    for (size_t f = 0; f < weights.size(); ++f) {
      const uint64_t total = weights[f] ? weights[f] * 3 : 5;   // exact rows differ from estimates
      for (uint64_t before = 0; before < total; ++before) {
        const uint32_t o = split.owner(f, before, total);
        ASSERT_LT(o, n);
        ASSERT_TRUE(split.reader_touches(o, f));
        ++load[o];
      }
    }
    if (n <= 3) {
      const uint64_t mx = *std::max_element(load.begin(), load.end());
      EXPECT_LE(mx, (3 * 548 + 5) / n + 3 * 10);
    }
  }
}

}  // namespace
}  // namespace lodex
