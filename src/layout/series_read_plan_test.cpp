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

}  // namespace
}  // namespace lodex
