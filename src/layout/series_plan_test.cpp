#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/error.hpp"
#include "layout/hilbert.hpp"
#include "layout/series_plan.hpp"

namespace lodex {
namespace {

ErrorCode code_of(const std::function<void()>& f, std::string* msg = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (msg) *msg = e.what();
    return e.code();
  }
  return ErrorCode::kOk;
}

TEST(Hilbert, VisitsEveryCellOnceThroughFaceNeighbours) {
  for (int dims : {1, 2, 3})
    for (int bits = 1; bits <= (dims == 3 ? 4 : 6); ++bits) {
      const uint32_t side = 1u << bits;
      const uint64_t cells = uint64_t{1} << (bits * dims);
      std::vector<std::array<uint32_t, 3>> at(cells, {UINT32_MAX, 0, 0});
      for (uint32_t z = 0; z < (dims > 2 ? side : 1); ++z)
        for (uint32_t y = 0; y < (dims > 1 ? side : 1); ++y)
          for (uint32_t x = 0; x < side; ++x) {
            const uint64_t h = hilbert_index({x, y, z}, dims, bits);
            ASSERT_LT(h, cells);
            ASSERT_EQ(at[h][0], UINT32_MAX) << "two cells at " << h;
            at[h] = {x, y, z};
          }
      for (uint64_t h = 1; h < cells; ++h) {
        int dist = 0;
        for (int a = 0; a < 3; ++a) dist += std::abs(static_cast<int>(at[h][a]) - static_cast<int>(at[h - 1][a]));
        ASSERT_EQ(dist, 1) << "dims " << dims << " bits " << bits << " at " << h;
      }
    }
  EXPECT_EQ(bits_for(1), 0);
  EXPECT_EQ(bits_for(5), 3);
  EXPECT_EQ(bits_for(8), 3);
  EXPECT_EQ(code_of([] { hilbert_index({4, 0, 0}, 2, 2); }), ErrorCode::kInternal);
}

// px x py (x pz) ranks over a grid, cuts uneven (the remainder spread over the first cells).
std::vector<GridBox> tiling(const std::array<int64_t, 3>& dims, const std::array<int64_t, 3>& parts) {
  auto cut = [](int64_t n, int64_t p, int64_t i) { return i * (n / p) + std::min(i, n % p); };
  std::vector<GridBox> out;
  for (int64_t k = 0; k < parts[2]; ++k)
    for (int64_t j = 0; j < parts[1]; ++j)
      for (int64_t i = 0; i < parts[0]; ++i) {
        const std::array<int64_t, 3> c{i, j, k};
        GridBox b;
        for (int a = 0; a < 3; ++a) {
          b.lo[a] = cut(dims[a], parts[a], c[a]);
          b.hi[a] = cut(dims[a], parts[a], c[a] + 1);
        }
        out.push_back(b);
      }
  return out;
}

TEST(SeriesPlan, DecompositionOfTheRanksBoxes) {
  const std::array<int64_t, 3> dims{144, 91, 48};
  auto boxes = tiling(dims, {4, 2, 1});
  std::swap(boxes[1], boxes[6]);   // rank order need not follow the grid
  const SeriesDecomposition d = decompose_series(dims, boxes);
  EXPECT_EQ(d.cells(0), 4u);
  EXPECT_EQ(d.cells(1), 2u);
  EXPECT_EQ(d.cells(2), 1u);
  EXPECT_EQ(d.decomposed_axes(), 2);
  for (uint32_t r = 0; r < boxes.size(); ++r) EXPECT_EQ(d.rank_box(r), boxes[r]);
  EXPECT_EQ(d.cuts[1], (std::vector<int64_t>{0, 46, 91}));
  EXPECT_EQ(max_sar_levels(d), 2u);

  std::string msg;
  auto bad = [&](std::vector<GridBox> b) { return code_of([&] { decompose_series(dims, b); }, &msg); };
  auto outside = boxes;
  outside[3].hi[0] = 145;
  EXPECT_EQ(bad(outside), ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("rank 3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("leaves the grid"), std::string::npos) << msg;
  auto same = boxes;
  same[5] = same[2];
  EXPECT_EQ(bad(same), ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("overlap"), std::string::npos) << msg;
  auto partial = boxes;
  partial[0].hi[0] += 3;   // into its neighbour
  EXPECT_EQ(bad(partial), ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("overlap"), std::string::npos) << msg;
  auto gap = boxes;
  gap.pop_back();
  EXPECT_EQ(bad(gap), ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("no rank's box covers"), std::string::npos) << msg;
  // Tiles the grid, but not as a grid of boxes (the second row is cut elsewhere).
  const std::array<int64_t, 3> small{4, 2, 1};
  std::vector<GridBox> bricks{
      {{0, 0, 0}, {2, 1, 1}}, {{2, 0, 0}, {4, 1, 1}}, {{0, 1, 0}, {1, 2, 1}}, {{1, 1, 0}, {4, 2, 1}}};
  EXPECT_EQ(code_of([&] { decompose_series(small, bricks); }, &msg), ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("do not form a grid of boxes"), std::string::npos) << msg;
  auto empty = boxes;
  empty[4].hi[2] = empty[4].lo[2];
  EXPECT_EQ(bad(empty), ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("empty"), std::string::npos) << msg;
}

// Every level's data flow for every variable: ranks send to their group's aggregator level by
// level; the top aggregators end up holding exactly their chunk's cells.
void check_plan(const std::array<int64_t, 3>& dims, const std::array<int64_t, 3>& parts, uint32_t d_sar,
                uint32_t vars) {
  const auto boxes = tiling(dims, parts);
  const SeriesDecomposition d = decompose_series(dims, boxes);
  const SarPlan sar(d, d_sar);
  const uint32_t ranks = static_cast<uint32_t>(boxes.size());
  // Chunks tile the grid, in Hilbert order.
  uint64_t volume = 0;
  for (size_t i = 0; i < sar.chunks().size(); ++i) {
    const auto& c = sar.chunks()[i];
    volume += c.box.volume();
    if (i) {
      ASSERT_LT(sar.chunks()[i - 1].hilbert, c.hilbert);
    }
    for (size_t j = 0; j < i; ++j) ASSERT_TRUE(c.box.intersect(sar.chunks()[j].box).empty());
  }
  ASSERT_EQ(volume, static_cast<uint64_t>(dims[0] * dims[1] * dims[2]));
  for (uint32_t v = 0; v < vars; ++v) {
    std::vector<std::set<uint32_t>> holds(ranks);   // cells' ranks each rank holds for v
    for (uint32_t r = 0; r < ranks; ++r) holds[r] = {r};
    for (uint32_t level = 1; level <= d_sar; ++level) {
      std::vector<std::set<uint32_t>> next(ranks);
      for (uint32_t r = 0; r < ranks; ++r) {
        const uint32_t agg = sar.aggregator(v, level, r);
        ASSERT_TRUE(sar.group_box(level, r).intersect(d.rank_box(agg)) == d.rank_box(agg));
        ASSERT_EQ(sar.aggregator(v, level - 1, agg), agg) << "an aggregator is one at the level below";
        const auto from = sar.senders(v, level, agg);
        ASSERT_TRUE(std::binary_search(from.begin(), from.end(), sar.aggregator(v, level - 1, r)));
      }
      for (uint32_t r = 0; r < ranks; ++r) {
        if (sar.aggregator(v, level, r) != r) continue;
        for (uint32_t s : sar.senders(v, level, r)) next[r].insert(holds[s].begin(), holds[s].end());
      }
      holds = std::move(next);
    }
    for (uint32_t r = 0; r < ranks; ++r) {
      const auto& c = sar.chunks()[sar.chunk_of_rank(r)];
      ASSERT_TRUE(c.box.intersect(d.rank_box(r)) == d.rank_box(r));
      const uint32_t top = sar.aggregator(v, d_sar, r);
      ASSERT_TRUE(holds[top].count(r)) << "rank " << r << "'s data misses its top aggregator " << top;
      ASSERT_EQ(holds[top].size(), [&] {
        size_t n = 0;
        for (uint32_t q = 0; q < ranks; ++q) n += sar.chunk_of_rank(q) == sar.chunk_of_rank(r);
        return n;
      }());
    }
  }
}

TEST(SeriesPlan, HierarchicalAggregationMovesEveryCellToItsChunk) {
  check_plan({144, 91, 48}, {4, 2, 1}, 0, 3);
  check_plan({144, 91, 48}, {4, 2, 1}, 1, 5);
  check_plan({144, 91, 48}, {4, 2, 1}, 2, 5);
  check_plan({144, 91, 48}, {3, 5, 1}, 1, 7);   // odd: clipped groups at the edges
  check_plan({144, 91, 48}, {3, 5, 1}, 3, 7);
  check_plan({144, 91, 48}, {1, 7, 1}, 2, 4);   // one decomposed axis
  check_plan({144, 91, 48}, {1, 1, 1}, 0, 2);   // one rank
  check_plan({40, 30, 20}, {2, 2, 2}, 1, 9);    // 3-D decomposition
  check_plan({40, 30, 20}, {4, 3, 2}, 2, 9);
}

TEST(SeriesPlan, AggregatorsRotateOverTheGroup) {
  const auto boxes = tiling({64, 64, 8}, {4, 4, 1});
  const SeriesDecomposition d = decompose_series({64, 64, 8}, boxes);
  for (uint32_t levels : {1u, 2u}) {
    const SarPlan sar(d, levels);
    const uint32_t group = 1u << (2 * levels);
    std::map<uint32_t, uint32_t> load;   // per rank: variables it aggregates at the top level
    for (uint32_t v = 0; v < 32; ++v)
      for (uint32_t r = 0; r < 16; ++r)
        if (sar.aggregator(v, levels, r) == r) ++load[r];
    ASSERT_EQ(load.size(), 16u) << "every rank aggregates some variables";
    for (auto [r, n] : load) EXPECT_EQ(n, 32u / group) << "rank " << r;
  }
  EXPECT_EQ(code_of([&] { SarPlan(d, 3); }), ErrorCode::kInvalidArgument);
}

TEST(SeriesPlan, ChunksFollowTheHilbertCurve) {
  // 8 x 8 ranks, d_sar 1: 4 x 4 chunks, consecutive ones share a face.
  const auto boxes = tiling({64, 64, 4}, {8, 8, 1});
  const SeriesDecomposition d = decompose_series({64, 64, 4}, boxes);
  const SarPlan sar(d, 1);
  ASSERT_EQ(sar.chunks().size(), 16u);
  for (size_t i = 1; i < 16; ++i) {
    const auto& a = sar.chunks()[i - 1].block;
    const auto& b = sar.chunks()[i].block;
    EXPECT_EQ(std::abs(int(a[0]) - int(b[0])) + std::abs(int(a[1]) - int(b[1])), 1) << i;
  }
  const std::vector<SeriesVariable> vars{{"T", DType::kF4, 3}, {"PS", DType::kF8, 2}};
  const WindowLayout w = window_layout(vars, sar, 5, 4096);
  EXPECT_EQ(w.offset[0][0], 4096u);
  EXPECT_EQ(w.bytes[0][0], 5u * 16 * 16 * 4 * 4);
  EXPECT_EQ(w.bytes[1][0], 5u * 16 * 16 * 8);
  EXPECT_EQ(w.offset[1][0], 4096u + 16 * w.bytes[0][0]);
  EXPECT_EQ(w.end, w.offset[1][15] + w.bytes[1][15]);
}

TEST(SeriesPlan, CoordinationFollowsEquationsThreeAndFour) {
  StarSettings s;   // OptSize = 500e6 x 6e-3 = 3 MB
  s.memory_budget = 256 << 20;
  // GEOS-5-like: 8 ranks of 36 x 46 cells; a 3-D f4 variable is 318 KB per rank per step.
  const uint64_t var = 36 * 46 * 48 * 4, step = 100 * var;
  StarChoice c = coordinate_star(step, var, 2, 2, s);
  EXPECT_EQ(c.opt_size, 3000000u);
  EXPECT_EQ(c.d_sar, 1u);
  EXPECT_EQ(c.d_tar, 3u);   // ceil(3e6 / (4 x 317,952))
  EXPECT_GE(c.chunk_bytes, c.opt_size);
  // Memory caps d_tar at 1: spatial levels make up the rest, up to what the decomposition allows.
  s.memory_budget = step + 1;
  c = coordinate_star(step, var / 64, 2, 3, s);
  EXPECT_EQ(c.d_tar, 1u);
  EXPECT_EQ(c.d_sar, 3u);
  c = coordinate_star(step, var / 64, 2, 2, s);
  EXPECT_EQ(c.d_sar, 2u);
  // Forced.
  s.memory_budget = 256 << 20;
  s.d_tar = 7;
  s.d_sar = 0;
  c = coordinate_star(step, var, 2, 2, s);
  EXPECT_EQ(c.d_tar, 7u);
  EXPECT_EQ(c.d_sar, 0u);
  std::string msg;
  s.d_sar = 3;
  EXPECT_EQ(code_of([&] { coordinate_star(step, var, 2, 2, s); }, &msg), ErrorCode::kInvalidArgument);
  s.d_sar = -1;
  s.d_tar = 1000;
  EXPECT_EQ(code_of([&] { coordinate_star(step, var, 2, 2, s); }, &msg), ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("max_window_steps 32"), std::string::npos) << msg;   // the crash bound first
  s.max_window_steps = 1000;
  EXPECT_EQ(code_of([&] { coordinate_star(step, var, 2, 2, s); }, &msg), ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("memory budget"), std::string::npos) << msg;
  s.max_window_steps = 32;
  s.d_tar = 0;
  s.memory_budget = step - 1;
  EXPECT_EQ(code_of([&] { coordinate_star(step, var, 2, 2, s); }, &msg), ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("too small for one step"), std::string::npos) << msg;
  // One rank: nothing to merge.
  s.memory_budget = 256 << 20;
  c = coordinate_star(step, var, 0, 0, s);
  EXPECT_EQ(c.d_sar, 0u);
  EXPECT_EQ(c.d_tar, 8u);   // ceil(3e6 / 317,952) = 10, but 8 steps of 31.8 MB fill 256 MiB
  EXPECT_NE(c.reason.find("memory budget"), std::string::npos) << c.reason;
  c = coordinate_star(step / 10, var, 0, 0, s);
  EXPECT_EQ(c.d_tar, 10u);
  // The window bound caps what OptSize asks for: a tiny variable would want 944 steps.
  c = coordinate_star(step / 100, var / 100, 0, 0, s);
  EXPECT_EQ(c.d_tar, 32u);
  EXPECT_NE(c.reason.find("capped by max_window_steps at 32"), std::string::npos) << c.reason;
  s.max_window_steps = 0;
  EXPECT_EQ(code_of([&] { coordinate_star(step / 100, var / 100, 0, 0, s); }, &msg), ErrorCode::kInvalidArgument);
  s.max_window_steps = 32;
  s.max_window_seconds = 0;
  EXPECT_EQ(code_of([&] { coordinate_star(step / 100, var / 100, 0, 0, s); }, &msg), ErrorCode::kInvalidArgument);
  s.max_window_seconds = 600;
}

TEST(SeriesStepBytes, LargestRankAndAverageVariable) {
  const std::vector<SeriesVariable> vars{{"T", DType::kF4, 3}, {"PS", DType::kF8, 2}};
  const std::vector<GridBox> boxes{{{0, 0, 0}, {3, 2, 4}}, {{3, 0, 0}, {5, 2, 4}}};
  const SeriesStepBytes b = series_step_bytes(vars, boxes);
  EXPECT_EQ(b.largest_rank, 3u * 2 * 4 * 4 + 3 * 2 * 8);                                   // 144
  EXPECT_EQ(b.average_variable, (3u * 2 * 4 * 4 + 3 * 2 * 8 + 2 * 2 * 4 * 4 + 2 * 2 * 8) / 4);   // 240 / 4
  EXPECT_EQ(series_step_bytes(vars, {}).average_variable, 1u);
}

// The writer's and the previews' plan: 2-D variables refuse a decomposition that cuts z; the
// choice is coordinate_star of the boxes' step sizes and the decomposition's levels.
TEST(SeriesPlan, WritePlanOfTheRanksBoxes) {
  const std::array<int64_t, 3> dims{144, 91, 48};
  const std::vector<SeriesVariable> both{{"T", DType::kF4, 3}, {"PS", DType::kF4, 2}}, three{{"T", DType::kF4, 3}};
  const auto flat = tiling(dims, {4, 2, 1}), layered = tiling(dims, {2, 2, 2});
  std::string msg;
  EXPECT_EQ(code_of([&] { decompose_series_write(dims, both, layered); }, &msg), ErrorCode::kUnsupported);
  EXPECT_NE(msg.find("cut the z axis into 2 layers"), std::string::npos) << msg;
  EXPECT_EQ(decompose_series_write(dims, three, layered).cells(2), 2u);
  const SeriesDecomposition d = decompose_series_write(dims, both, flat);
  EXPECT_EQ(d.cuts, decompose_series(dims, flat).cuts);
  StarSettings s;
  s.memory_budget = 1ull << 30;
  const SeriesStepBytes b = series_step_bytes(both, flat);
  const StarChoice want = coordinate_star(b.largest_rank, b.average_variable, 2, max_sar_levels(d), s);
  const StarChoice got = choose_star(both, flat, d, s);
  EXPECT_EQ(got.d_tar, want.d_tar);
  EXPECT_EQ(got.d_sar, want.d_sar);
  EXPECT_EQ(got.opt_size, want.opt_size);
  EXPECT_EQ(got.reason, want.reason);
}

}  // namespace
}  // namespace lodex
