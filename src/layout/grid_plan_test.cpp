#include "layout/grid_plan.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/error.hpp"
#include "layout/rng.hpp"

namespace lodex {
namespace {

// Ranks numbered in `order` over a lattice of cells cut at `cuts` on each axis.
std::vector<GridBox> lattice(const std::array<std::vector<int64_t>, 3>& cuts, RankOrder order) {
  const std::array<size_t, 3> n{cuts[0].size() - 1, cuts[1].size() - 1, cuts[2].size() - 1};
  std::vector<GridBox> boxes(n[0] * n[1] * n[2]);
  for (size_t z = 0; z < n[2]; ++z)
    for (size_t y = 0; y < n[1]; ++y)
      for (size_t x = 0; x < n[0]; ++x) {
        size_t r = 0;
        if (order == RankOrder::kRowMajor) r = (z * n[1] + y) * n[0] + x;
        if (order == RankOrder::kColumnMajor) r = (x * n[1] + y) * n[2] + z;
        if (order == RankOrder::kMorton) {   // x, y, z bits from the least significant end
          int out = 0;
          for (int i = 0; i < 20; ++i)
            for (size_t a = 0; a < 3; ++a) {
              const size_t c = a == 0 ? x : a == 1 ? y : z;
              if ((size_t{1} << i) < n[a]) r |= ((c >> i) & 1) << out++;
            }
        }
        boxes[r] = {{cuts[0][x], cuts[1][y], cuts[2][z]}, {cuts[0][x + 1], cuts[1][y + 1], cuts[2][z + 1]}};
      }
  return boxes;
}

std::vector<int64_t> even_cuts(int64_t extent, int parts) {
  std::vector<int64_t> c;
  for (int i = 0; i <= parts; ++i) c.push_back(extent * i / parts);
  return c;
}

GridPlan plan_for(const Coord3& dims, int ndims, std::vector<GridBox> boxes, int bpb, uint64_t bpf, uint32_t fields = 1,
                  GridAggregation agg = GridAggregation::kLocalized, const std::string& bitmask = "",
                  uint32_t partitions = 1) {
  GridPlanInput in;
  in.dims = dims;
  in.tmpl = bitmask.empty() ? derive_template(dims, ndims, boxes) : user_template(bitmask, boxes);
  in.bits_per_block = bpb;
  in.blocks_per_file = bpf;
  in.fields = fields;
  in.aggregation = agg;
  in.boxes = std::move(boxes);
  in.partitions = partitions;
  return GridPlan(std::move(in));
}

// Every grid sample is in exactly one run, at the hz its point has; the brick-side and the
// file-side views list the same runs.
void check_runs(const GridPlan& plan) {
  const HzIndex& hz = plan.index();
  const HzIndex& local = plan.local_index();
  const Coord3 d = plan.input().dims;
  std::set<uint64_t> seen;
  std::map<std::tuple<uint64_t, uint64_t>, BrickRun> by_file;
  for (uint64_t f : plan.files())
    for (const BrickRun& r : plan.file_runs(f)) {
      ASSERT_EQ(r.global / plan.file_samples(), f);
      ASSERT_EQ((r.global + r.count - 1) / plan.file_samples(), f);
      by_file[{r.brick, r.global}] = r;
      const GridBox bb = plan.brick_box(r.brick);
      for (uint64_t k = 0; k < r.count; ++k) {
        const Coord3 p = hz.point_of_hz(r.global + k), q = local.point_of_hz(r.local + k);
        for (int a = 0; a < 3; ++a) ASSERT_EQ(p[a], static_cast<uint64_t>(bb.lo[a]) + q[a]);
        ASSERT_TRUE(plan.block_present((r.global + k) >> plan.bits_per_block()));
        if (p[0] < d[0] && p[1] < d[1] && p[2] < d[2]) {
          ASSERT_TRUE(seen.insert(r.global + k).second);
        }
      }
    }
  ASSERT_EQ(seen.size(), d[0] * d[1] * d[2]);
  size_t brick_side = 0;
  for (int r = 0; r < plan.ranks(); ++r)
    for (uint64_t b : plan.bricks_of(r))
      for (const BrickRun& run : plan.brick_runs(b)) {
        auto it = by_file.find({run.brick, run.global});
        ASSERT_NE(it, by_file.end());
        ASSERT_EQ(it->second.count, run.count);
        ASSERT_EQ(it->second.local, run.local);
        ++brick_side;
      }
  ASSERT_EQ(brick_side, by_file.size());
}

TEST(GridTemplate, OneRankIsOpenVisusDefault) {
  const std::vector<GridBox> one{{{0, 0, 0}, {100, 60, 7}}};
  const GridTemplate t = derive_template({100, 60, 7}, 3, one);
  EXPECT_EQ(t.bitmask, HzIndex::default_bitmask({100, 60, 7}, 3));
  EXPECT_EQ(t.brick_bits, static_cast<int>(t.bitmask.size()) - 1);
}

TEST(GridTemplate, PaperFigure14RowMajorPrefix) {
  // 4 x 4 ranks in row-major order, 8 x 8 samples each: prefix yyxx, interleaved suffix.
  const auto boxes = lattice({even_cuts(32, 4), even_cuts(32, 4), {0, 1}}, RankOrder::kRowMajor);
  const GridTemplate t = derive_template({32, 32, 1}, 2, boxes);
  EXPECT_EQ(t.bitmask,
            "V1100"
            "010101");
  EXPECT_EQ(t.brick_bits, 6);
  EXPECT_EQ(t.order, RankOrder::kRowMajor);
}

TEST(GridTemplate, DetectsColumnMajorAndMorton) {
  const auto col = lattice({even_cuts(16, 2), even_cuts(16, 4), even_cuts(16, 2)}, RankOrder::kColumnMajor);
  const GridTemplate c = derive_template({16, 16, 16}, 3, col);
  EXPECT_EQ(c.order, RankOrder::kColumnMajor);
  EXPECT_EQ(c.bitmask.substr(0, 5), "V0112");
  const auto mor = lattice({even_cuts(16, 4), even_cuts(16, 4), even_cuts(16, 4)}, RankOrder::kMorton);
  const GridTemplate m = derive_template({16, 16, 16}, 3, mor);
  EXPECT_EQ(m.order, RankOrder::kMorton);
  EXPECT_EQ(m.bitmask.substr(0, 7), "V210210");
}

TEST(GridPlan, RankConformingLayoutNeedsNoRestructuring) {
  for (RankOrder order : {RankOrder::kRowMajor, RankOrder::kColumnMajor, RankOrder::kMorton}) {
    const auto boxes = lattice({even_cuts(64, 4), even_cuts(32, 2), even_cuts(16, 2)}, order);
    const GridPlan plan = plan_for({64, 32, 16}, 3, boxes, 8, 4);
    for (int r = 0; r < plan.ranks(); ++r) {
      ASSERT_EQ(plan.bricks_of(r).size(), 1u) << rank_order_name(order);
      EXPECT_EQ(plan.brick_box(plan.bricks_of(r)[0]), boxes[r]) << rank_order_name(order);
    }
    // Rank-conforming: in every level the bricks' runs come in rank order.
    std::map<int, int> last_owner;   // level -> last owner seen
    for (uint64_t f : plan.files())
      for (const BrickRun& run : plan.file_runs(f)) {
        const int level = HzIndex::level_of(run.global);
        auto it = last_owner.find(level);
        if (it != last_owner.end()) {
          EXPECT_LE(it->second, plan.owner(run.brick)) << rank_order_name(order);
        }
        last_owner[level] = plan.owner(run.brick);
      }
    check_runs(plan);
  }
}

TEST(GridPlan, RunsCoverEveryIrregularLayout) {
  Xoshiro256 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    const int ndims = 2 + trial % 2;
    Coord3 d{3 + rng.below(30), 2 + rng.below(20), ndims == 3 ? 1 + rng.below(12) : 1};
    const int px = 1 + static_cast<int>(rng.below(3)), py = 1 + static_cast<int>(rng.below(3));
    std::array<std::vector<int64_t>, 3> cuts{even_cuts(static_cast<int64_t>(d[0]), std::min<int>(px, d[0])),
                                             even_cuts(static_cast<int64_t>(d[1]), std::min<int>(py, d[1])),
                                             {0, static_cast<int64_t>(d[2])}};
    auto boxes = lattice(cuts, RankOrder::kRowMajor);
    if (trial % 3 == 0) boxes.push_back(GridBox{});   // a rank without data
    const int bpb = 1 + static_cast<int>(rng.below(6));
    const uint64_t bpf = 1 + rng.below(5);
    const std::string bitmask = trial % 4 == 1 ? HzIndex::default_bitmask(d, ndims) : "";
    const GridPlan plan =
        plan_for(d, ndims, boxes, std::min(bpb, HzIndex(derive_template(d, ndims, boxes).bitmask).maxh()), bpf,
                 1 + trial % 3, trial % 2 ? GridAggregation::kUniform : GridAggregation::kLocalized, bitmask);
    check_runs(plan);
    for (const GridUnit& u : plan.units()) {
      ASSERT_GE(u.aggregator, 0);
      ASSERT_LT(u.aggregator, plan.ranks());
    }
  }
}

TEST(GridPlan, LocalizedAggregatorsStayInTheirGroupAndSpread) {
  // 64 ranks of 16^3 in row-major order, 2 fields: every unit's aggregator is inside the group
  // of its file, and no rank aggregates twice while idle ranks remain in the group.
  const auto boxes = lattice({even_cuts(64, 4), even_cuts(64, 4), even_cuts(64, 4)}, RankOrder::kRowMajor);
  const GridPlan plan = plan_for({64, 64, 64}, 3, boxes, 10, 8, 2);
  std::map<int, int> load;
  for (const GridUnit& u : plan.units()) {
    EXPECT_GE(u.aggregator, u.group_first);
    EXPECT_LE(u.aggregator, u.group_last);
    ++load[u.aggregator];
  }
  for (const GridUnit& u : plan.units())
    if (load[u.aggregator] > 1) {
      for (int r = u.group_first; r <= u.group_last; ++r) EXPECT_GE(load[r], 1) << "rank " << r << " idle";
    }
  EXPECT_GE(load.size(), 56u);   // 64 units over 64 ranks: groups of the finest files are small
  const GridPlan uni = plan_for({64, 64, 64}, 3, boxes, 10, 8, 2, GridAggregation::kUniform);
  std::set<int> aggs;
  for (const GridUnit& u : uni.units()) aggs.insert(u.aggregator);
  EXPECT_EQ(aggs.size(), std::min<size_t>(uni.units().size(), 64));
  EXPECT_EQ(*aggs.begin(), 0);
}

TEST(GridPlan, PartitionsAggregateInsideThemselvesAndMergeSharedFiles) {
  // 64 ranks of 16^3 in row-major order, partitions 2, 4, 8, both schemes, 1 and 3 fields: a
  // file of one partition is aggregated by a rank of it; a shared file has one collector per
  // other partition meeting it, each in its partition; every owner's runs reach a collector of
  // its own partition.
  const auto boxes = lattice({even_cuts(64, 4), even_cuts(64, 4), even_cuts(64, 4)}, RankOrder::kRowMajor);
  for (uint32_t P : {2u, 4u, 8u})
    for (auto agg : {GridAggregation::kLocalized, GridAggregation::kUniform})
      for (uint32_t F : {1u, 3u}) {
        const GridPlan plan = plan_for({64, 64, 64}, 3, boxes, 10, 4, F, agg, "", P);
        check_runs(plan);
        ASSERT_EQ(plan.partition_bits(), __builtin_ctz(P));
        std::set<uint32_t> parts;
        for (int r = 0; r < plan.ranks(); ++r) {
          const uint32_t q = plan.partition_of_rank(r);
          parts.insert(q);
          const GridBox pb = grid_partition_box(plan.index(), plan.partition_bits(), q);
          ASSERT_EQ(boxes[r].intersect(pb), boxes[r]) << "rank " << r << " partition " << q;
          for (uint64_t b : plan.bricks_of(r)) ASSERT_EQ(plan.partition_of_brick(b), q);
        }
        ASSERT_EQ(parts.size(), P);
        size_t shared = 0;
        for (const GridUnit& u : plan.units()) {
          std::set<uint32_t> in_file;
          for (const BrickRun& r : plan.file_runs(u.file)) {
            const int o = plan.owner(r.brick);
            const int c = plan.collector(u, o);
            in_file.insert(plan.partition_of_brick(r.brick));
            ASSERT_EQ(plan.partition_of_rank(c), plan.partition_of_rank(o)) << "file " << u.file;
          }
          ASSERT_EQ(u.merge.size() + 1, in_file.size()) << "file " << u.file;
          std::set<uint32_t> collected{plan.partition_of_rank(u.aggregator)};
          for (const auto& [q, c] : u.merge) {
            ASSERT_EQ(plan.partition_of_rank(c), q);
            ASSERT_TRUE(collected.insert(q).second);
          }
          ASSERT_EQ(collected, in_file) << "file " << u.file;
          shared += !u.merge.empty();
        }
        ASSERT_GE(shared, F);   // at least file 0, the coarse levels every partition holds
        ASSERT_LT(shared, plan.units().size());
      }
}

TEST(GridPlan, SharedFilesSpreadOverThePartitionsCollectors) {
  // Every rank its own partition and two big files, both shared by all partitions: the two
  // files are written by two ranks, not both by partition 0's.
  const auto boxes = lattice({even_cuts(64, 2), even_cuts(64, 2), even_cuts(64, 2)}, RankOrder::kRowMajor);
  const GridPlan plan = plan_for({64, 64, 64}, 3, boxes, 15, 4, 1, GridAggregation::kLocalized, "", 8);
  ASSERT_EQ(plan.units().size(), 2u);
  EXPECT_EQ(plan.units()[0].merge.size(), 7u);
  EXPECT_EQ(plan.units()[1].merge.size(), 7u);
  EXPECT_NE(plan.units()[0].aggregator, plan.units()[1].aggregator);
}

TEST(GridPlan, PartitionsRejectBoxesCrossingThemAndBadCounts) {
  auto message = [](auto&& fn) -> std::string {
    try {
      fn();
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  // Two ranks split along y at 8: partitions=2 follow the template's first character (y).
  std::vector<GridBox> halves{{{0, 0, 0}, {16, 8, 1}}, {{0, 8, 0}, {16, 16, 1}}};
  EXPECT_NO_THROW(plan_for({16, 16, 1}, 2, halves, 4, 4, 1, GridAggregation::kLocalized, "", 2));
  EXPECT_NE(message([&] {
              plan_for({16, 16, 1}, 2, halves, 4, 4, 1, GridAggregation::kLocalized, "", 4);
            }).find("crosses the boundary of partition"),
            std::string::npos);
  EXPECT_NE(message([&] {
              plan_for({16, 16, 1}, 2, halves, 4, 4, 1, GridAggregation::kLocalized, "", 3);
            }).find("power of two"),
            std::string::npos);
  EXPECT_NE(message([&] {
              plan_for({4, 1, 1}, 1, {GridBox{{0, 0, 0}, {4, 1, 1}}}, 1, 4, 1, GridAggregation::kLocalized, "", 4);
            }).find("too finely"),
            std::string::npos);
}

TEST(GridPlan, RejectsBadBoxesAndBlocks) {
  auto code_and_message = [](auto&& fn) -> std::string {
    try {
      fn();
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  const Coord3 d{16, 16, 1};
  std::vector<GridBox> outside{{{0, 0, 0}, {16, 8, 1}}, {{0, 8, 0}, {17, 16, 1}}};
  EXPECT_NE(code_and_message([&] { plan_for(d, 2, outside, 4, 4); }).find("rank 1's box"), std::string::npos);
  std::vector<GridBox> overlap{{{0, 0, 0}, {16, 9, 1}}, {{0, 8, 0}, {16, 16, 1}}};
  EXPECT_NE(code_and_message([&] { plan_for(d, 2, overlap, 4, 4); }).find("overlaps rank 0"), std::string::npos);
  std::vector<GridBox> gap{{{0, 0, 0}, {16, 7, 1}}, {{0, 8, 0}, {16, 16, 1}}};
  EXPECT_NE(code_and_message([&] { plan_for(d, 2, gap, 4, 4); }).find("cover 240 samples"), std::string::npos);
  std::vector<GridBox> fine{{{0, 0, 0}, {16, 8, 1}}, {{0, 8, 0}, {16, 16, 1}}};
  EXPECT_NE(code_and_message([&] { plan_for(d, 2, fine, 9, 4); }).find("bits_per_block 9"), std::string::npos);
  EXPECT_NE(code_and_message([&] {
              plan_for(d, 2, fine, 4, 4, 1, GridAggregation::kLocalized, "V0101010");
            }).find("too short"),
            std::string::npos);
  EXPECT_NE(
      code_and_message([&] { plan_for(d, 2, fine, 4, 4, 1, GridAggregation::kLocalized, "V01013101"); }).find("'3'"),
      std::string::npos);
}

TEST(GridPlan, ManyRanksPlanQuickly) {
  // 4,096 ranks of 8^3 (a 128^3 grid): one brick each, every file planned.
  const auto boxes = lattice({even_cuts(128, 16), even_cuts(128, 16), even_cuts(128, 16)}, RankOrder::kRowMajor);
  const GridPlan plan = plan_for({128, 128, 128}, 3, boxes, 9, 16);
  for (int r = 0; r < plan.ranks(); ++r) ASSERT_EQ(plan.bricks_of(r).size(), 1u);
  EXPECT_EQ(plan.units().size(), plan.files().size());
}

}  // namespace
}  // namespace lodex
