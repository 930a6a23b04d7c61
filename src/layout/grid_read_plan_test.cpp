#include "layout/grid_read_plan.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "layout/hz.hpp"
#include "support/expect_error.hpp"

namespace lodex {
namespace {

GridReadSpace space_of(const std::array<int64_t, 3>& dims, int ndims, const std::string& bitmask) {
  GridReadSpace s;
  s.box.hi = dims;
  s.ndims = ndims;
  s.bitmask = bitmask;
  s.fields = {{"rho", DType::kF4, 1}, {"v", DType::kI2, 3}};
  s.what = "grid 'g'";
  return s;
}

TEST(LatticeStride, IsTwoToTheLevelsPastTheResolutionOnTheAxis) {
  for (const std::string bitmask : {"V012012012", "V0101010", "V22100", "V0"}) {
    const HzIndex hz(bitmask);
    for (int r = 0; r <= hz.maxh(); ++r)
      for (int a = 0; a < 3; ++a)
        EXPECT_EQ(lattice_stride(bitmask, r, a), static_cast<int64_t>(hz.resolution_box(r).stride[a]))
            << bitmask << " r=" << r << " axis " << a;
  }
}

TEST(LatticeCount, CountsMultiplesOfTheStrideInTheHalfOpenRange) {
  EXPECT_EQ(lattice_count(0, 16, 4), 4u);   // 0 4 8 12
  EXPECT_EQ(lattice_count(1, 16, 4), 3u);   // 4 8 12
  EXPECT_EQ(lattice_count(1, 13, 4), 3u);   // 4 8 12
  EXPECT_EQ(lattice_count(1, 12, 4), 2u);   // 4 8
  EXPECT_EQ(lattice_count(5, 5, 1), 0u);
  EXPECT_EQ(lattice_count(6, 5, 1), 0u);
  EXPECT_EQ(lattice_count(-3, 4, 2), 3u);   // -2 0 2
  EXPECT_EQ(lattice_count(1, 3, 4), 0u);
}

// The slabs of every rank: in rank order along the axis, disjoint, each starting on a lattice
// plane, together holding every plane of the box once, shares differing by at most one plane.
void check_slabs(const GridBox& box, int axis, int64_t stride, int size) {
  const uint64_t planes = lattice_count(box.lo[axis], box.hi[axis], stride);
  uint64_t seen = 0, least = UINT64_MAX, most = 0;
  int64_t end = box.lo[axis];
  for (int r = 0; r < size; ++r) {
    const GridBox s = lattice_slab(box, axis, stride, r, size);
    for (int a = 0; a < 3; ++a)
      if (a != axis) {
        EXPECT_TRUE(s.lo[a] == box.lo[a] && s.hi[a] == box.hi[a]) << "axis " << a << " changed";
      }
    const uint64_t n = lattice_count(s.lo[axis], s.hi[axis], stride);
    least = std::min(least, n);
    most = std::max(most, n);
    seen += n;
    if (n == 0) {
      EXPECT_EQ(s.lo[axis], box.lo[axis]) << "rank " << r;
      EXPECT_EQ(s.hi[axis], box.lo[axis]) << "rank " << r;
      continue;
    }
    EXPECT_EQ(s.lo[axis] % stride, 0) << "rank " << r << " starts off the lattice";
    EXPECT_GE(s.lo[axis], end) << "rank " << r << " overlaps the one before";
    EXPECT_EQ(lattice_count(end, s.lo[axis], stride), 0u) << "rank " << r << " leaves a gap";
    EXPECT_LE(s.hi[axis], box.hi[axis]);
    end = s.hi[axis];
  }
  EXPECT_EQ(seen, planes) << "size " << size;
  EXPECT_LE(most - least, 1u) << "size " << size;
}

TEST(LatticeSlab, SharesThePlanesEvenlyForOddRankCounts) {
  const GridBox box{{3, 0, 5}, {40, 9, 37}};
  for (int size : {1, 2, 3, 4, 7})
    for (int64_t stride : {1, 2, 4, 8})
      for (int axis : {1, 2}) check_slabs(box, axis, stride, size);
}

TEST(LatticeSlab, MoreRanksThanPlanesLeavesSomeEmpty) {
  const GridBox box{{0, 0, 1}, {4, 4, 11}};   // planes 4 and 8 at stride 4
  int empty = 0;
  for (int r = 0; r < 7; ++r) empty += lattice_slab(box, 2, 4, r, 7).empty();
  EXPECT_EQ(empty, 5);
  check_slabs(box, 2, 4, 7);
  check_slabs({{0, 0, 1}, {4, 4, 3}}, 2, 4, 3);   // no plane at all: every slab empty
}

TEST(PlanGridRead, OneRankGetsTheWholeBox) {
  const GridReadSpace s = space_of({16, 16, 16}, 3, "V012012012012");
  const GridReadPart p = plan_grid_read(s, "v", std::nullopt, std::nullopt, 0, 1);
  EXPECT_EQ(p.box, s.box);
  EXPECT_EQ(p.shape, (std::array<uint64_t, 3>{16, 16, 16}));
  EXPECT_EQ(p.resolution, 12);
  EXPECT_EQ(p.dtype, DType::kI2);
  EXPECT_EQ(p.components, 3u);
  EXPECT_EQ(p.bytes(), 16u * 16 * 16 * 3 * 2);
  // A box off the lattice stays as given with one rank; its shape counts the lattice points.
  const GridBox b{{1, 2, 3}, {15, 9, 14}};
  const GridReadPart q = plan_grid_read(s, "rho", b, 9, 0, 1);   // strides 2 on every axis
  EXPECT_EQ(q.box, b);
  EXPECT_EQ(q.shape, (std::array<uint64_t, 3>{7, 4, 5}));
  EXPECT_EQ(q.bytes(), 7u * 4 * 5 * 4);
}

TEST(PlanGridRead, RanksSplitTheSlowestAxisAtTheResolution) {
  const GridReadSpace s = space_of({20, 12, 30}, 3, "V012012012012012");
  for (int r : {15, 12, 10, 7, 3})
    for (int size : {1, 2, 3, 4, 7}) {
      const int64_t zs = lattice_stride(s.bitmask, r, 2);
      const GridBox box{{1, 2, 3}, {19, 11, 29}};
      uint64_t planes = 0;
      for (int rank = 0; rank < size; ++rank) {
        const GridReadPart p = plan_grid_read(s, "rho", box, r, rank, size);
        EXPECT_EQ(p.resolution, r);
        EXPECT_EQ(p.box, size == 1 ? box : lattice_slab(box, 2, zs, rank, size));
        for (int a = 0; a < 2; ++a)
          EXPECT_EQ(p.shape[a], lattice_count(box.lo[a], box.hi[a], lattice_stride(s.bitmask, r, a)));
        planes += p.shape[2];
        EXPECT_EQ(p.bytes(), p.shape[0] * p.shape[1] * p.shape[2] * 4);
      }
      EXPECT_EQ(planes, lattice_count(3, 29, zs)) << "r=" << r << " size " << size;
    }
}

TEST(PlanGridRead, TwoDimensionalGridsSplitYAndKeepOnePlaneOfZ) {
  const GridReadSpace s = space_of({45, 30, 1}, 2, "V01010101010");   // x 64, y 32
  for (int size : {2, 3, 4, 7}) {
    uint64_t rows = 0;
    for (int rank = 0; rank < size; ++rank) {
      const GridReadPart p = plan_grid_read(s, "rho", std::nullopt, 9, rank, size);   // stride 2 on x and y
      EXPECT_EQ(p.box.lo[2], 0);
      EXPECT_EQ(p.box.hi[2], 1);
      EXPECT_EQ(p.box.lo[0], 0);
      EXPECT_EQ(p.box.hi[0], 45);
      EXPECT_EQ(p.shape[0], 23u);
      EXPECT_EQ(p.shape[2], 1u);
      rows += p.shape[1];
    }
    EXPECT_EQ(rows, 15u);
  }
}

TEST(PlanGridRead, MoreRanksThanPlanesGiveEmptyParts) {
  const GridReadSpace s = space_of({8, 8, 4}, 3, "V01201201");
  int empty = 0;
  for (int rank = 0; rank < 7; ++rank) {
    const GridReadPart p = plan_grid_read(s, "rho", std::nullopt, std::nullopt, rank, 7);
    if (p.box.empty()) {
      ++empty;
      EXPECT_EQ(p.shape[2], 0u);
      EXPECT_EQ(p.shape[0], 8u);   // the other axes keep their counts
      EXPECT_EQ(p.bytes(), 0u);
    }
  }
  EXPECT_EQ(empty, 3);
}

TEST(PlanGridRead, AnEmptyBoxIsAnEmptyRead) {
  const GridReadSpace s = space_of({16, 4, 4}, 3, "V00012012");
  const GridReadPart p = plan_grid_read(s, "rho", GridBox{{5, 0, 0}, {5, 4, 4}}, std::nullopt, 0, 1);
  EXPECT_TRUE(p.box.empty());
  EXPECT_EQ(p.shape, (std::array<uint64_t, 3>{0, 4, 4}));
}

TEST(PlanGridRead, RejectsUnknownFieldsResolutionsBoxesAndRanks) {
  const GridReadSpace s = space_of({16, 4, 4}, 3, "V00012012");
  std::string msg;
  EXPECT_EQ(code_of([&] { plan_grid_read(s, "p", std::nullopt, std::nullopt, 0, 1); }, &msg), ErrorCode::kNotFound);
  EXPECT_NE(msg.find("grid 'g' has no field 'p' (fields: rho, v)"), std::string::npos) << msg;
  EXPECT_EQ(code_of([&] { plan_grid_read(s, "rho", std::nullopt, 9, 0, 1); }, &msg), ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("resolution 9 is outside 0..8"), std::string::npos) << msg;
  EXPECT_EQ(code_of([&] { plan_grid_read(s, "rho", std::nullopt, -1, 0, 1); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(code_of([&] { plan_grid_read(s, "rho", GridBox{{0, 0, 0}, {17, 4, 4}}, std::nullopt, 0, 1); }, &msg),
            ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("outside the logic box of grid 'g' on axis x ([0, 16))"), std::string::npos) << msg;
  EXPECT_EQ(code_of([&] { plan_grid_read(s, "rho", GridBox{{0, 0, 0}, {4, 4, 5}}, std::nullopt, 0, 1); }),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(code_of([&] { plan_grid_read(s, "rho", GridBox{{5, 0, 0}, {4, 4, 4}}, std::nullopt, 0, 1); }, &msg),
            ErrorCode::kInvalidArgument);
  EXPECT_NE(msg.find("max < min on axis x"), std::string::npos) << msg;
  EXPECT_EQ(code_of([&] { plan_grid_read(s, "rho", std::nullopt, std::nullopt, 3, 3); }), ErrorCode::kInvalidArgument);
  EXPECT_EQ(code_of([&] { plan_grid_read(s, "rho", std::nullopt, std::nullopt, 0, 0); }), ErrorCode::kInvalidArgument);
}

// The partitions of a grid in the local index space, as the writer makes them.
std::vector<GridPartSpace> parts_of(const std::string& bitmask, int k, const GridBox& grid) {
  const HzIndex hz(bitmask);
  std::vector<GridPartSpace> out;
  for (uint32_t q = 0; q < (1u << k); ++q) {
    const GridBox b = grid_partition_box(hz, k, q).intersect(grid);
    if (!b.empty()) out.push_back({b, "V" + bitmask.substr(1 + k)});
  }
  return out;
}

// Every lattice point of the answer comes from exactly one partition, and the point a partition
// gives there is that lattice point: at + i along each axis is the taken sample i * take of the
// partition's answer, whose grid coordinate is the partition's origin plus its own lattice point.
void check_part_reads(const std::string& bitmask, int k, const GridBox& grid, const GridBox& box) {
  const std::vector<GridPartSpace> parts = parts_of(bitmask, k, grid);
  for (int r = 0; r < static_cast<int>(bitmask.size()); ++r) {
    std::array<int64_t, 3> stride;
    std::array<uint64_t, 3> n;
    for (int a = 0; a < 3; ++a) {
      stride[a] = lattice_stride(bitmask, r, a);
      n[a] = lattice_count(box.lo[a], box.hi[a], stride[a]);
    }
    std::vector<int> hits(n[0] * n[1] * n[2], 0);
    for (const GridPartRead& p : plan_part_reads(bitmask, k, parts, box, r)) {
      ASSERT_LT(p.part, parts.size());
      const GridPartSpace& ps = parts[p.part];
      EXPECT_EQ(p.resolution, std::max(0, r - k));
      std::array<std::vector<int64_t>, 3> coord;   // grid coordinate of each taken sample, per axis
      for (int a = 0; a < 3; ++a) {
        const int64_t ls = lattice_stride(ps.bitmask, p.resolution, a);
        EXPECT_EQ(p.samples[a], lattice_count(p.box.lo[a], p.box.hi[a], ls));
        EXPECT_GE(p.box.lo[a], 0);
        EXPECT_LE(p.box.hi[a], ps.box.hi[a] - ps.box.lo[a]);
        const int64_t first_local = (p.box.lo[a] + ls - 1) / ls * ls;
        for (uint64_t i = 0; i < p.count[a]; ++i) {
          const int64_t g = ps.box.lo[a] + first_local + static_cast<int64_t>(i * p.take[a]) * ls;
          const int64_t want =
              ((box.lo[a] + stride[a] - 1) / stride[a] + static_cast<int64_t>(p.at[a] + i)) * stride[a];
          ASSERT_EQ(g, want) << bitmask << " r=" << r << " part " << p.part << " axis " << a << " sample " << i;
        }
        ASSERT_LE(p.at[a] + p.count[a], n[a]);
      }
      for (uint64_t z = 0; z < p.count[2]; ++z)
        for (uint64_t y = 0; y < p.count[1]; ++y)
          for (uint64_t x = 0; x < p.count[0]; ++x) ++hits[((p.at[2] + z) * n[1] + p.at[1] + y) * n[0] + p.at[0] + x];
    }
    for (size_t i = 0; i < hits.size(); ++i) ASSERT_EQ(hits[i], 1) << bitmask << " r=" << r << " point " << i;
  }
}

TEST(PlanPartReads, EveryLatticePointComesFromOnePartitionAtEveryResolution) {
  const GridBox grid{{0, 0, 0}, {30, 20, 12}};
  const std::string bitmask = "V210210210210210";
  for (int k : {1, 2, 3})
    for (const GridBox& box : {grid, GridBox{{3, 1, 2}, {29, 17, 11}}, GridBox{{7, 7, 7}, {9, 8, 8}}})
      check_part_reads(bitmask, k, grid, box);
}

TEST(PlanPartReads, TwoDimensionalGrids) {
  const GridBox grid{{0, 0, 0}, {45, 30, 1}};
  for (int k : {1, 2, 4}) check_part_reads("V1010101010101", k, grid, GridBox{{2, 5, 0}, {41, 29, 1}});
}

TEST(PlanPartReads, RejectsAPartitionTemplateCoarserThanTheGrid) {
  const GridBox grid{{0, 0, 0}, {8, 8, 8}};
  std::vector<GridPartSpace> parts = parts_of("V012012012", 1, grid);
  parts[0].bitmask = "V000000";   // x split 6 times: its spacing on x is not a divisor of the grid's
  EXPECT_EQ(code_of([&] { plan_part_reads("V012012012", 1, parts, grid, 3); }), ErrorCode::kFormat);
}

}  // namespace
}  // namespace lodex
