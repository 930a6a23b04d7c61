#include "layout/series_read_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

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

// A plane one sample thick in x read by more ranks than any axis has samples: the longest axis is
// cut, so as many ranks as it has samples read (x would leave every rank but one idle).
TEST(SplitSeriesRead, NoAxisLongEnoughCutsTheLongest) {
  check_axis_split(steps_of(2), {{3, 0, 0}, {4, 5, 3}}, 3, 7, 1);    // y: 5 samples, z 3, x 1
  check_axis_split(steps_of(2), {{3, 0, 0}, {4, 3, 5}}, 3, 7, 2);    // z
  check_axis_split(steps_of(2), {{3, 0, 0}, {4, 4, 4}}, 3, 7, 2);    // y and z equal: the slower
  check_axis_split(steps_of(1), {{0, 0, 0}, {2, 6, 1}}, 2, 9, 1);    // 2-D: y, never z
  int busy = 0;
  for (int r = 0; r < 7; ++r) busy += !split_series_read(steps_of(2), {{3, 0, 0}, {4, 5, 3}}, 3, r, 7).box.empty();
  EXPECT_EQ(busy, 5);
}

TEST(SplitSeriesRead, RejectsARankOutsideTheCommunicator) {
  for (auto [rank, size] : {std::pair{2, 2}, std::pair{-1, 2}, std::pair{0, 0}})
    expect_error(ErrorCode::kInvalidArgument,
                 [&] { split_series_read(steps_of(3), {{0, 0, 0}, {2, 2, 2}}, 3, rank, size); });
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

namespace lodex {
namespace {

// A window of `steps` steps over chunks tiling an 8 x 6 x 5 grid (cut at x = 3, y = 4, z = 2), u32
// samples, each sample's value naming (step, x, y, z); the chunks laid out one after another in
// a file image as the writer lays them out (step, z, y, x), in blocks of `B` bytes.
struct Window {
  std::vector<SeriesChunk> chunks;
  std::vector<SeriesChunkPlace> places;
  std::vector<uint8_t> file;
};

uint32_t value_of(uint64_t k, int64_t x, int64_t y, int64_t z) {
  return static_cast<uint32_t>(((k * 100 + z) * 100 + y) * 100 + x);
}

Window make_window(uint64_t steps, uint64_t B) {
  Window w;
  const int64_t xs[] = {0, 3, 8}, ys[] = {0, 4, 6}, zs[] = {0, 2, 5};
  uint64_t offset = 64, block = 0;   // a head before the first chunk
  w.file.resize(offset);
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i) {
        SeriesChunk c;
        c.box = GridBox{{xs[i], ys[j], zs[k]}, {xs[i + 1], ys[j + 1], zs[k + 1]}};
        SeriesChunkPlace pl;
        pl.planes = static_cast<uint32_t>(zs[k + 1] - zs[k]);
        pl.offset = offset;
        pl.first_block = block;
        for (uint64_t t = 0; t < steps; ++t)
          for (int64_t z = c.box.lo[2]; z < c.box.hi[2]; ++z)
            for (int64_t y = c.box.lo[1]; y < c.box.hi[1]; ++y)
              for (int64_t x = c.box.lo[0]; x < c.box.hi[0]; ++x) {
                const uint32_t v = value_of(t, x, y, z);
                const auto* p = reinterpret_cast<const uint8_t*>(&v);
                w.file.insert(w.file.end(), p, p + 4);
              }
        pl.bytes = w.file.size() - offset;
        offset = w.file.size();
        block += (pl.bytes + B - 1) / B;
        w.chunks.push_back(c);
        w.places.push_back(pl);
      }
  return w;
}

// Brute force: the rows copied out of the window image give every sample of the box at the
// steps asked for, and the blocks (sorted, disjoint, whole blocks of one chunk) hold every row.
TEST(PlanWindowRead, RowsFillTheAnswerAndBlocksHoldEveryRow) {
  const uint64_t B = 16;
  const Window w = make_window(3, B);
  const SeriesVariable var{"T", DType::kU4, 3};
  for (const GridBox& box : {GridBox{{0, 0, 0}, {8, 6, 5}}, GridBox{{2, 3, 1}, {5, 6, 4}},
                             GridBox{{4, 0, 0}, {5, 1, 1}}, GridBox{{0, 5, 4}, {8, 6, 5}}}) {
    // Steps 2 and 0 of the window, at positions 0 and 1 of the answer.
    const std::vector<std::pair<uint64_t, uint64_t>> steps = {{0, 2}, {1, 0}};
    const SeriesWindowRead plan = plan_window_read(var, w.chunks, w.places, steps, box, B);
    const uint64_t nx = box.hi[0] - box.lo[0], ny = box.hi[1] - box.lo[1], nz = box.hi[2] - box.lo[2];
    std::vector<uint32_t> got(2 * nx * ny * nz, 0xFFFFFFFFu);
    for (const SeriesRowCopy& r : plan.rows) {
      ASSERT_LE(r.offset + r.bytes, w.file.size());
      ASSERT_LE(r.out + r.bytes, got.size() * 4);
      std::memcpy(reinterpret_cast<uint8_t*>(got.data()) + r.out, w.file.data() + r.offset, r.bytes);
    }
    for (uint64_t i = 0; i < 2; ++i)
      for (int64_t z = box.lo[2]; z < box.hi[2]; ++z)
        for (int64_t y = box.lo[1]; y < box.hi[1]; ++y)
          for (int64_t x = box.lo[0]; x < box.hi[0]; ++x)
            ASSERT_EQ(got[((i * nz + (z - box.lo[2])) * ny + (y - box.lo[1])) * nx + (x - box.lo[0])],
                      value_of(steps[i].second, x, y, z))
                << box_text(box) << " step " << i << " at " << x << "," << y << "," << z;
    uint64_t met = 0;
    for (const SeriesChunk& c : w.chunks) met += !c.box.intersect(box).empty();
    EXPECT_EQ(plan.chunks, met);
    for (size_t b = 0; b < plan.blocks.size(); ++b) {
      const SeriesBlockRun& x = plan.blocks[b];
      if (b) {
        EXPECT_LE(plan.blocks[b - 1].offset + plan.blocks[b - 1].bytes, x.offset);
      }
      const auto c = std::find_if(w.places.begin(), w.places.end(), [&](const SeriesChunkPlace& c) {
        return c.offset <= x.offset && x.offset < c.offset + c.bytes;
      });
      ASSERT_NE(c, w.places.end());
      EXPECT_EQ((x.offset - c->offset) % B, 0u);
      EXPECT_EQ(x.first, c->first_block + (x.offset - c->offset) / B);
      EXPECT_LE(x.offset + x.bytes, c->offset + c->bytes);
      EXPECT_EQ(x.count, (x.bytes + B - 1) / B);
    }
    for (const SeriesRowCopy& r : plan.rows)
      EXPECT_TRUE(std::any_of(plan.blocks.begin(), plan.blocks.end(), [&](const SeriesBlockRun& x) {
        return x.offset <= r.offset && r.offset + r.bytes <= x.offset + x.bytes;
      })) << r.offset;
  }
}

TEST(PlanWindowRead, ABoxMeetingNoChunkReadsNothing) {
  const Window w = make_window(2, 16);
  const SeriesWindowRead plan = plan_window_read(SeriesVariable{"T", DType::kU4, 3}, w.chunks, w.places, {{0, 0}},
                                                 GridBox{{8, 0, 0}, {9, 1, 1}}, 16);
  EXPECT_TRUE(plan.rows.empty());
  EXPECT_TRUE(plan.blocks.empty());
  EXPECT_EQ(plan.chunks, 0u);
}

}  // namespace
}  // namespace lodex
