#include "layout/series_read_plan.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "support/expect_error.hpp"

namespace lodex {
namespace {

std::vector<int64_t> steps_of(int n) {
  std::vector<int64_t> s;
  for (int i = 0; i < n; ++i) s.push_back(3 * i + 1);
  return s;
}

TEST(SplitSeriesRead, AtLeastAsManyStepsAsRanksSplitsTheSteps) {
  const GridBox box{{1, 2, 0}, {9, 7, 5}};
  for (int size : {1, 2, 3, 4, 7})
    for (int n : {size, size + 1, 2 * size + 3, 24}) {
      const std::vector<int64_t> steps = steps_of(n);
      std::vector<int64_t> all;
      size_t least = SIZE_MAX, most = 0;
      for (int r = 0; r < size; ++r) {
        const SeriesReadShare s = split_series_read(steps, box, 3, r, size);
        EXPECT_EQ(s.box, box);
        EXPECT_FALSE(s.steps.empty()) << "rank " << r << " of " << size << ", " << n << " steps";
        least = std::min(least, s.steps.size());
        most = std::max(most, s.steps.size());
        all.insert(all.end(), s.steps.begin(), s.steps.end());
      }
      EXPECT_EQ(all, steps) << "the ranks' steps in rank order are the steps asked for";
      EXPECT_LE(most - least, 1u);
    }
}

// The boxes of every rank split `axis` of `box` into consecutive, disjoint pieces covering it.
void check_axis_split(const std::vector<int64_t>& steps, const GridBox& box, int ndim, int size, int axis) {
  int64_t at = box.lo[axis];
  for (int r = 0; r < size; ++r) {
    const SeriesReadShare s = split_series_read(steps, box, ndim, r, size);
    EXPECT_EQ(s.steps, steps);
    for (int a = 0; a < 3; ++a)
      if (a != axis) {
        EXPECT_TRUE(s.box.lo[a] == box.lo[a] && s.box.hi[a] == box.hi[a]) << "rank " << r << " axis " << a;
      }
    EXPECT_EQ(s.box.lo[axis], at) << "rank " << r << " of " << size;
    EXPECT_GE(s.box.hi[axis], s.box.lo[axis]);
    at = s.box.hi[axis];
  }
  EXPECT_EQ(at, box.hi[axis]);
}

TEST(SplitSeriesRead, FewerStepsSplitTheSlowestAxisWithAnExtent) {
  const std::vector<int64_t> two = steps_of(2);
  for (int size : {3, 4, 7}) {
    check_axis_split(two, {{0, 0, 0}, {10, 10, 8}}, 3, size, 2);   // z holds enough planes
    check_axis_split(two, {{0, 0, 3}, {10, 10, 5}}, 3, size, 1);   // z too thin: y
    check_axis_split(two, {{2, 4, 1}, {9, 6, 3}}, 3, size, 0);     // y too: x
  }
  check_axis_split(steps_of(1), {{0, 0, 0}, {10, 10, 7}}, 3, 7, 2);
}

TEST(SplitSeriesRead, TwoDimensionalVariablesNeverSplitZ) {
  for (int size : {2, 3, 4, 7}) {
    check_axis_split(steps_of(1), {{0, 0, 0}, {12, 9, 1}}, 2, size, 1);
    check_axis_split(steps_of(1), {{0, 0, 0}, {12, 1, 1}}, 2, size, 0);
  }
}

TEST(SplitSeriesRead, MoreRanksThanSamplesLeavesSomeEmpty) {
  const GridBox box{{4, 0, 0}, {7, 2, 2}};   // 3 samples on x, fewer on y and z
  int empty = 0;
  for (int r = 0; r < 7; ++r) empty += split_series_read(steps_of(1), box, 3, r, 7).box.empty();
  EXPECT_EQ(empty, 4);
  check_axis_split(steps_of(1), box, 3, 7, 0);
}

TEST(SplitSeriesRead, RejectsARankOutsideTheCommunicator) {
  for (auto [rank, size] : {std::pair{2, 2}, std::pair{-1, 2}, std::pair{0, 0}})
    expect_error(ErrorCode::kInvalidArgument, [&] { split_series_read(steps_of(3), {{0, 0, 0}, {2, 2, 2}}, 3, rank, size); });
}

TEST(MergeRanges, MergesOverTheGapAndCutsAtTheCap) {
  const std::vector<std::pair<uint64_t, uint64_t>> r{{0, 10}, {15, 20}, {40, 50}, {50, 55}};
  EXPECT_EQ(merge_ranges(r, 0), (std::vector<std::pair<uint64_t, uint64_t>>{{0, 10}, {15, 20}, {40, 55}}));
  EXPECT_EQ(merge_ranges(r, 5), (std::vector<std::pair<uint64_t, uint64_t>>{{0, 20}, {40, 55}}));
  EXPECT_EQ(merge_ranges(r, 100), (std::vector<std::pair<uint64_t, uint64_t>>{{0, 55}}));
  EXPECT_EQ(merge_ranges(r, 100, 20), (std::vector<std::pair<uint64_t, uint64_t>>{{0, 20}, {20, 40}, {40, 55}}));
  EXPECT_TRUE(merge_ranges({}, 8, 4).empty());
}

// One chunk of 8 x 4 x 2 f4 samples over 3 steps at offset 1000, blocks of 64 bytes: a column at
// (x, y) = (1, 2) across steps 0 and 2 needs one 4-byte sample per (step, z): rows of 4 bytes at
// ((k * 2 + z) * 4 + 2) * 8 + 1 samples.
TEST(PlanWindowRead, RowsAndBlocksOfAColumn) {
  SeriesDecomposition d = decompose_series({8, 4, 2}, {GridBox{{0, 0, 0}, {8, 4, 2}}});
  const SarPlan sar(d, 0);
  const SeriesVariable v{"T", DType::kF4, 3};
  const std::vector<SeriesChunkPlace> places{{1000, 8 * 4 * 2 * 3 * 4, 2, 7}};
  const GridBox col{{1, 2, 0}, {2, 3, 2}};
  const SeriesWindowRead w = plan_window_read(v, sar.chunks(), places, {{0, 0}, {1, 2}}, col, 64);
  EXPECT_EQ(w.chunks, 1u);
  ASSERT_EQ(w.rows.size(), 4u);
  std::vector<uint64_t> want_blocks;
  for (uint64_t k : {0, 2})
    for (uint64_t z = 0; z < 2; ++z) {
      const uint64_t rel = ((k * 2 + z) * 4 + 2) * 8 * 4 + 4;
      const size_t i = (k ? 2 : 0) + z;
      EXPECT_EQ(w.rows[i].offset, 1000 + rel);
      EXPECT_EQ(w.rows[i].bytes, 4u);
      EXPECT_EQ(w.rows[i].out, ((k ? 1 : 0) * 2 + z) * 4);   // answer (step i, z)
      want_blocks.push_back(rel / 64);
    }
  ASSERT_EQ(w.blocks.size(), want_blocks.size());   // 128 bytes apart: no two blocks adjacent
  for (size_t i = 0; i < w.blocks.size(); ++i) {
    EXPECT_EQ(w.blocks[i].offset, 1000 + want_blocks[i] * 64);
    EXPECT_EQ(w.blocks[i].first, 7 + want_blocks[i]);
    EXPECT_EQ(w.blocks[i].count, 1u);
  }
  // the whole of step 2: its adjacent blocks join into one run
  const SeriesWindowRead all = plan_window_read(v, sar.chunks(), places, {{0, 2}}, GridBox{{0, 0, 0}, {8, 4, 2}}, 64);
  ASSERT_EQ(all.blocks.size(), 1u);
  EXPECT_EQ(all.blocks[0].offset, 1000 + 2 * 256);
  EXPECT_EQ(all.blocks[0].bytes, 256u);
  EXPECT_EQ(all.rows.size(), 8u);
}

}  // namespace
}  // namespace lodex
