// Collective grid and series reads at any rank count: rank 0 writes a grid, an IDX dataset and a
// series serially; then every rank reads its part (read_part) of collective reads over
// MPI_COMM_WORLD, checked value by value against the formula that wrote them, the parts
// together holding the whole answer once; empty parts, and errors raised on one rank only.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "pipelines/dataset.hpp"
#include "pipelines/grids/grid_group.hpp"
#include "pipelines/series/series_group.hpp"
#include "support/expect_error.hpp"

namespace lodex {
namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}
uint64_t sum_over_ranks(uint64_t v) {
  uint64_t out = 0;
  MPI_Allreduce(&v, &out, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return out;
}

const std::array<int64_t, 3> kGridDims{12, 10, 9};
const std::array<int64_t, 3> kSeriesDims{6, 5, 4};
constexpr int kSteps = 3;

float grid_value(int64_t x, int64_t y, int64_t z) { return static_cast<float>(x + 100 * y + 10000 * z); }
double series_value(int64_t t, int64_t x, int64_t y, int64_t z) { return t * 1000 + z * 100 + y * 10 + x; }

// Rank 0 writes the grid "g" (f4, 3-D) and the series "s" (T: f8 3-D, P: f4 2-D) serially in a
// directory every rank knows; removed when the test ends.
class Written {
 public:
  Written() {
    char buf[256] = {};
    if (world_rank() == 0) {
      char tmpl[] = "/tmp/lodex_read_test_XXXXXX";
      if (::mkdtemp(tmpl)) std::strncpy(buf, tmpl, sizeof buf - 1);
      try {
        write(std::string(buf) + "/d.lodex");
      } catch (const Error& e) {   // the other ranks must still learn that there is nothing to read
        ADD_FAILURE() << e.what();
        std::filesystem::remove_all(buf);
        buf[0] = 0;
      }
    }
    MPI_Bcast(buf, sizeof buf, MPI_CHAR, 0, MPI_COMM_WORLD);
    dir_ = buf;
    if (!dir_.empty()) ds_ = Dataset::open(dir_ + "/d.lodex", OpenMode::kRead, MPI_COMM_NULL);
  }
  ~Written() {
    ds_.reset();
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0 && !dir_.empty()) std::filesystem::remove_all(dir_);
  }
  bool ok() const { return ds_ != nullptr; }
  GridGroup& grid() { return ds_->grid("g"); }
  SeriesGroup& series() { return ds_->series("s"); }

 private:
  static void write(const std::string& path) {
    auto ds = Dataset::create(path, MPI_COMM_NULL);
    GridSpec spec;
    spec.dims = {12, 10, 9};
    spec.fields = {{"v", DType::kF4, 1}};
    spec.bits_per_block = 5;
    spec.blocks_per_file = 4;
    std::vector<float> v;
    for (int64_t z = 0; z < kGridDims[2]; ++z)
      for (int64_t y = 0; y < kGridDims[1]; ++y)
        for (int64_t x = 0; x < kGridDims[0]; ++x) v.push_back(grid_value(x, y, z));
    const FieldView fv{"v", DType::kF4, 1, v.size(), v.data()};
    ds->grid("g", spec).write(0, GridBox{{0, 0, 0}, kGridDims}, std::span(&fv, 1));
    SeriesSpec ss;
    ss.dims = kSeriesDims;
    ss.variables = {{"T", DType::kF8, 3}, {"P", DType::kF4, 2}};
    ss.settings.d_tar = 2;
    SeriesGroup& s = ds->series("s", ss);
    for (int t = 0; t < kSteps; ++t) {
      std::vector<double> T;
      std::vector<float> P;
      for (int64_t z = 0; z < kSeriesDims[2]; ++z)
        for (int64_t y = 0; y < kSeriesDims[1]; ++y)
          for (int64_t x = 0; x < kSeriesDims[0]; ++x) {
            T.push_back(series_value(t, x, y, z));
            if (z == 0) P.push_back(static_cast<float>(series_value(t, x, y, 0)));
          }
      const FieldView views[2] = {{"T", DType::kF8, 1, T.size(), T.data()}, {"P", DType::kF4, 1, P.size(), P.data()}};
      s.write(t, GridBox{{0, 0, 0}, kSeriesDims}, views);
    }
    ds->close();
  }
  std::string dir_;
  std::shared_ptr<Dataset> ds_;
};

// This rank's part of a collective read of the grid: the shape and bytes read_part promised, every
// sample the grid's value at its lattice point; returns the part's samples.
uint64_t check_grid_part(const GridArray& a, const GridReadPart& p, const std::string& bitmask) {
  EXPECT_EQ(a.shape, p.shape);
  EXPECT_EQ(a.dtype, DType::kF4);
  EXPECT_EQ(a.bytes.size(), p.bytes());
  std::array<int64_t, 3> first, stride;
  for (int ax = 0; ax < 3; ++ax) {
    stride[ax] = lattice_stride(bitmask, p.resolution, ax);
    first[ax] = (p.box.lo[ax] + stride[ax] - 1) / stride[ax] * stride[ax];
  }
  const float* f = reinterpret_cast<const float*>(a.bytes.data());
  uint64_t i = 0, wrong = 0;
  for (uint64_t k = 0; k < p.shape[2]; ++k)
    for (uint64_t j = 0; j < p.shape[1]; ++j)
      for (uint64_t x = 0; x < p.shape[0]; ++x, ++i)
        wrong += f[i] != grid_value(first[0] + x * stride[0], first[1] + j * stride[1], first[2] + k * stride[2]);
  EXPECT_EQ(wrong, 0u) << "box " << box_text(p.box) << " r=" << p.resolution;
  return p.shape[0] * p.shape[1] * p.shape[2];
}

TEST(GridRead, RanksReadDisjointSlabsThatMakeTheWholeAnswer) {
  Written w;
  ASSERT_TRUE(w.ok());
  const GridGroup& g = w.grid();
  const int rank = world_rank(), size = world_size();
  const std::string bitmask = g.meta().bitmask;
  const int maxr = static_cast<int>(bitmask.size()) - 1;
  const std::optional<GridBox> boxes[] = {std::nullopt, GridBox{{1, 2, 3}, {11, 9, 8}}};
  for (const auto& box : boxes)
    for (int r : {maxr, maxr - 2, maxr - 5}) {
      const GridReadPart whole = g.read_part("v", 0, box, r);
      const GridReadPart mine = g.read_part("v", 0, box, r, rank, size);
      IdxReadStats stats;
      const GridArray a = g.read("v", 0, box, r, MPI_COMM_WORLD, &stats);
      const uint64_t n = check_grid_part(a, mine, bitmask);
      EXPECT_EQ(stats.bytes_returned, a.bytes.size());
      if (mine.box.empty()) {
        EXPECT_EQ(stats.files_opened, 0u);
      }
      EXPECT_EQ(sum_over_ranks(n), whole.shape[0] * whole.shape[1] * whole.shape[2]) << "r=" << r;
      // The IDX dataset of the step gives each rank the same slab.
      const IdxDataset idx = g.open_step(0);
      EXPECT_EQ(idx.read_part("v", 0, box, r, rank, size).box, mine.box);
      const GridArray b = idx.read("v", 0, box, r, MPI_COMM_WORLD);
      EXPECT_TRUE(b.bytes.size() == a.bytes.size() && std::memcmp(b.bytes.data(), a.bytes.data(), a.bytes.size()) == 0);
    }
  // Serially, the whole box.
  const GridArray all = g.read("v", 0, std::nullopt, std::nullopt);
  EXPECT_EQ(check_grid_part(all, g.read_part("v", 0, std::nullopt, std::nullopt), bitmask), 12u * 10 * 9);
}

TEST(GridRead, MoreRanksThanPlanesGiveEmptyParts) {
  Written w;
  ASSERT_TRUE(w.ok());
  const GridGroup& g = w.grid();
  const GridBox one_plane{{0, 0, 4}, {12, 10, 5}};
  IdxReadStats stats;
  const GridArray a = g.read("v", 0, one_plane, std::nullopt, MPI_COMM_WORLD, &stats);
  const GridReadPart p = g.read_part("v", 0, one_plane, std::nullopt, world_rank(), world_size());
  check_grid_part(a, p, g.meta().bitmask);
  if (world_rank() < world_size() - 1) {   // the one plane is the last rank's
    EXPECT_TRUE(p.box.empty());
    EXPECT_EQ(a.shape, (std::array<uint64_t, 3>{12, 10, 0}));
    EXPECT_EQ(stats.files_opened + stats.bytes_read + stats.bytes_returned, 0u);
  }
}

TEST(GridRead, AnErrorOnOneRankIsRaisedOnEveryRank) {
  Written w;
  ASSERT_TRUE(w.ok());
  const GridGroup& g = w.grid();
  const int last = world_size() - 1;
  const std::optional<int> r = world_rank() == last ? std::optional<int>(99) : std::nullopt;
  std::string msg = expect_error(ErrorCode::kInvalidArgument, [&] { g.read("v", 0, std::nullopt, r, MPI_COMM_WORLD); });
  EXPECT_NE(msg.find("resolution 99"), std::string::npos) << msg;
  if (world_size() > 1) {
    EXPECT_NE(msg.find("rank " + std::to_string(last)), std::string::npos) << msg;
  }
  // A rank whose arguments a binding could not convert passes its error into the read: raised everywhere.
  msg = expect_error(ErrorCode::kInvalidArgument, [&] {
    std::optional<Error> input;
    if (world_rank() == 0) input = Error(ErrorCode::kInvalidArgument, "bad box");
    g.read("v", 0, std::nullopt, std::nullopt, MPI_COMM_WORLD, nullptr, input);
  });
  EXPECT_NE(msg.find("bad box"), std::string::npos) << msg;
  expect_error(ErrorCode::kNotFound, [&] { g.read("v", 5, std::nullopt, std::nullopt, MPI_COMM_WORLD); });
  // Reads still work afterwards.
  const GridArray a = g.read("v", 0, std::nullopt, std::nullopt, MPI_COMM_WORLD);
  check_grid_part(a, g.read_part("v", 0, std::nullopt, std::nullopt, world_rank(), world_size()), g.meta().bitmask);
}

// This rank's part of a collective series read: values from the formula; returns its samples.
template <typename T>
uint64_t check_series_part(const SeriesArray& a, const SeriesReadPart& p) {
  EXPECT_EQ(a.shape, p.shape);
  EXPECT_EQ(a.bytes.size(), p.bytes());
  const T* v = reinterpret_cast<const T*>(a.bytes.data());
  uint64_t i = 0, wrong = 0;
  for (size_t s = 0; s < p.steps.size(); ++s)
    for (int64_t z = p.box.lo[2]; z < p.box.hi[2]; ++z)
      for (int64_t y = p.box.lo[1]; y < p.box.hi[1]; ++y)
        for (int64_t x = p.box.lo[0]; x < p.box.hi[0]; ++x, ++i)
          wrong += v[i] != static_cast<T>(series_value(p.steps[s], x, y, z));
  EXPECT_EQ(wrong, 0u);
  return a.bytes.size() / sizeof(T);
}

TEST(SeriesRead, RanksReadDisjointPartsThatMakeTheWholeAnswer) {
  Written w;
  ASSERT_TRUE(w.ok());
  const SeriesGroup& s = w.series();
  const int rank = world_rank(), size = world_size();
  const std::vector<int64_t> every{}, one{1}, two{2, 0};
  const std::optional<GridBox> boxes[] = {std::nullopt, GridBox{{1, 0, 1}, {5, 4, 4}}};
  for (const auto* steps : {&every, &one, &two})
    for (const auto& box : boxes) {
      const SeriesReadPart mine = s.read_part("T", *steps, box, rank, size);
      const SeriesArray a = s.read("T", *steps, box, std::nullopt, MPI_COMM_WORLD);
      const uint64_t n = check_series_part<double>(a, mine);
      if (n == 0) {
        EXPECT_EQ(s.last_read_stats().bytes_read + s.last_read_stats().merge_gap, 0u);
      }
      const SeriesReadPart whole = s.read_part("T", *steps, box);
      EXPECT_EQ(sum_over_ranks(n), whole.shape[0] * whole.shape[1] * whole.shape[2] * whole.shape[3]);
      const SeriesReadPart p2 = s.read_part("P", *steps, box, rank, size);
      EXPECT_EQ(p2.box.lo[2], 0);
      EXPECT_EQ(p2.box.hi[2], 1);
      const uint64_t n2 = check_series_part<float>(s.read("P", *steps, box, std::nullopt, MPI_COMM_WORLD), p2);
      const SeriesReadPart whole2 = s.read_part("P", *steps, box);
      EXPECT_EQ(sum_over_ranks(n2), whole2.shape[0] * whole2.shape[2] * whole2.shape[3]);
    }
  // Serially: every flushed step, the whole grid.
  const SeriesArray all = s.read("T", {}, std::nullopt);
  EXPECT_EQ(all.shape, (std::array<uint64_t, 4>{3, 4, 5, 6}));
}

TEST(SeriesRead, AnErrorOnOneRankIsRaisedOnEveryRank) {
  Written w;
  ASSERT_TRUE(w.ok());
  const SeriesGroup& s = w.series();
  const int last = world_size() - 1;
  const std::vector<int64_t> steps = world_rank() == last ? std::vector<int64_t>{0, 7} : std::vector<int64_t>{0, 1};
  std::string msg =
      expect_error(ErrorCode::kNotFound, [&] { s.read("T", steps, std::nullopt, std::nullopt, MPI_COMM_WORLD); });
  EXPECT_NE(msg.find("no step 7"), std::string::npos) << msg;
  if (world_size() > 1) {
    EXPECT_NE(msg.find("rank " + std::to_string(last)), std::string::npos) << msg;
  }
  msg = expect_error(ErrorCode::kInvalidArgument, [&] {
    std::optional<Error> input;
    if (world_rank() == 0) input = Error(ErrorCode::kInvalidArgument, "bad steps");
    s.read("T", {}, std::nullopt, std::nullopt, MPI_COMM_WORLD, input);
  });
  EXPECT_NE(msg.find("bad steps"), std::string::npos) << msg;
  expect_error(ErrorCode::kInvalidArgument, [&] { s.read("T", {1, 1}, std::nullopt, std::nullopt, MPI_COMM_WORLD); });
  expect_error(ErrorCode::kNotFound, [&] { s.read("Q", {}, std::nullopt, std::nullopt, MPI_COMM_WORLD); });
}

}  // namespace
}  // namespace lodex

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  testing::InitGoogleTest(&argc, argv);
  // Every rank runs every test; a failure on any rank fails the run on all of them.
  const int local = RUN_ALL_TESTS();
  int global = 0;
  MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return global;
}
