// Collective particle writes read back by every rank, at any rank count: factor mode (aligned)
// and grid mode (non-aligned), empty ranks, duplicate steps and errors raised on one rank only.
// Every value read is compared with what all ranks wrote (regenerated deterministically).
#include <gtest/gtest.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "support/expect_error.hpp"
#include "pipelines/dataset.hpp"

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

// A fresh directory made by rank 0 and known to every rank; removed when the test ends.
class TempDir {
 public:
  TempDir() {
    char buf[256] = {};
    if (world_rank() == 0) {
      char tmpl[] = "/tmp/lodex_mpi_test_XXXXXX";
      if (::mkdtemp(tmpl)) std::strncpy(buf, tmpl, sizeof buf - 1);
    }
    MPI_Bcast(buf, sizeof buf, MPI_CHAR, 0, MPI_COMM_WORLD);
    dir_ = buf;
  }
  ~TempDir() {
    MPI_Barrier(MPI_COMM_WORLD);
    if (world_rank() == 0 && !dir_.empty()) std::filesystem::remove_all(dir_);
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  bool ok() const { return !dir_.empty(); }

 private:
  std::string dir_;
};

// Deterministic per-(seed, index) values, independent of any library code.
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
double unit(uint64_t seed) { return static_cast<double>(mix(seed) >> 11) * 0x1.0p-53; }

const Box kDomain{{0, 0, 0}, {1, 1, 1}};
const Schema kSchema({{"position", DType::kF8, 3}, {"energy", DType::kF4, 1}, {"id", DType::kI8, 1}});

// Rank r's patch: slab r of `size` slabs along x.
Box slab(int r, int size) {
  Box b = kDomain;
  b.inclusive_min[0] = static_cast<double>(r) / size;
  b.exclusive_max[0] = r + 1 == size ? 1.0 : static_cast<double>(r + 1) / size;
  return b;
}

struct Particles {
  std::vector<double> pos;
  std::vector<float> energy;
  std::vector<int64_t> id;
  uint64_t size() const { return id.size(); }
};

// The particles rank r writes at `step` in case `scenario`; `empty_rank` writes none.
Particles generate(int r, int size, int64_t step, int scenario, int empty_rank) {
  Particles p;
  if (r == empty_rank) return p;
  const uint64_t n = 200 + 131 * r + 17 * step + 5 * scenario;
  const Box b = slab(r, size);
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t key = (uint64_t(scenario) << 48) ^ (uint64_t(step) << 40) ^ (uint64_t(r) << 24) ^ i;
    for (int a = 0; a < 3; ++a) {
      double x = b.inclusive_min[a] + unit(key * 4 + a) * (b.exclusive_max[a] - b.inclusive_min[a]);
      if (x >= b.exclusive_max[a]) x = std::nextafter(b.exclusive_max[a], b.inclusive_min[a]);
      p.pos.push_back(x);
    }
    p.energy.push_back(static_cast<float>(unit(key * 4 + 3) * 100.0 - 50.0));
    p.id.push_back(static_cast<int64_t>(step * 10000000 + r * 100000 + i));
  }
  return p;
}

std::vector<FieldView> views(const Particles& p) {
  return {{"position", DType::kF8, 3, p.size(), p.pos.data()},
          {"energy", DType::kF4, 1, p.size(), p.energy.data()},
          {"id", DType::kI8, 1, p.size(), p.id.data()}};
}

// Reads `step` with a serial handle and compares every value with what every rank wrote.
void expect_step_matches(const std::string& path, const std::string& group, int64_t step, int scenario,
                         int empty_rank) {
  const int size = world_size();
  std::map<int64_t, std::pair<const Particles*, uint64_t>> expect;
  std::vector<Particles> all;
  all.reserve(size);
  for (int r = 0; r < size; ++r) all.push_back(generate(r, size, step, scenario, empty_rank));
  for (const auto& p : all)
    for (uint64_t i = 0; i < p.size(); ++i) expect[p.id[i]] = {&p, i};

  auto ds = Dataset::open(path, OpenMode::kRead, MPI_COMM_NULL);
  ParticleGroup& g = ds->particles(group);
  EXPECT_EQ(g.schema(), kSchema);
  const std::vector<FieldColumn> cols = g.read(step, std::vector<std::string>{});
  ASSERT_EQ(cols.size(), 3u);
  EXPECT_EQ(cols[0].spec.name, "position");
  EXPECT_EQ(cols[1].spec.name, "energy");
  EXPECT_EQ(cols[2].spec.name, "id");
  const uint64_t n = cols[2].rows;
  ASSERT_EQ(n, expect.size()) << "step " << step;
  ASSERT_EQ(cols[0].rows, n);
  ASSERT_EQ(cols[1].rows, n);
  ASSERT_EQ(cols[0].bytes.size(), n * 24);
  ASSERT_EQ(cols[1].bytes.size(), n * 4);
  ASSERT_EQ(cols[2].bytes.size(), n * 8);
  std::vector<int64_t> ids(n);
  std::vector<double> pos(3 * n);
  std::vector<float> energy(n);
  if (n > 0) {   // memcpy from an empty vector's null data() is undefined
    std::memcpy(ids.data(), cols[2].bytes.data(), n * 8);
    std::memcpy(pos.data(), cols[0].bytes.data(), n * 24);
    std::memcpy(energy.data(), cols[1].bytes.data(), n * 4);
  }
  std::vector<uint64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](uint64_t a, uint64_t b) { return ids[a] < ids[b]; });
  size_t bad = 0;
  auto it = expect.begin();
  for (uint64_t k = 0; k < n; ++k, ++it) {
    const uint64_t row = order[k];
    const auto& [src, i] = it->second;
    const bool same = ids[row] == it->first && pos[3 * row] == src->pos[3 * i] &&
                      pos[3 * row + 1] == src->pos[3 * i + 1] && pos[3 * row + 2] == src->pos[3 * i + 2] &&
                      energy[row] == src->energy[i];
    if (!same && bad++ < 5)
      ADD_FAILURE() << "step " << step << " row " << row << " id " << ids[row] << " expected id " << it->first;
  }
  EXPECT_EQ(bad, 0u);

  // The spatial metadata agrees: counts add up, bounds lie in their partitions.
  const SpatialMetadata meta = g.metadata(step);
  EXPECT_EQ(meta.total_particles(), n);
  for (const auto& f : meta.files) {
    EXPECT_GT(f.count, 0u);
    for (int a = 0; a < 3; ++a) {
      EXPECT_GE(f.bounds.inclusive_min[a], f.partition_box.inclusive_min[a]) << f.file_name;
      EXPECT_LT(f.bounds.exclusive_max[a], f.partition_box.exclusive_max[a]) << f.file_name;
    }
  }
  EXPECT_EQ(g.last_read_stats().particles, n);
  EXPECT_EQ(g.last_read_stats().files_opened, meta.files.size());
}

std::vector<int64_t> ids_of(const std::vector<FieldColumn>& cols) {
  std::vector<int64_t> ids(cols[0].rows);
  if (!ids.empty()) std::memcpy(ids.data(), cols[0].bytes.data(), ids.size() * 8);
  return ids;
}

// Every rank reads its part with MPI_COMM_WORLD (both splits, a box, full resolution and a level):
// the parts are disjoint and together equal the serial answer.
void expect_parallel_reads(const std::string& path, const std::string& group, int64_t step) {
  auto ds = Dataset::open(path, OpenMode::kRead, MPI_COMM_NULL);
  ParticleGroup& g = ds->particles(group);
  const int size = world_size();
  for (ReadSplit split : {ReadSplit::kSpatial, ReadSplit::kBytes}) {
    for (bool sampled : {false, true}) {
      ReadRequest r;
      r.box = Box{{0.1, 0.0, 0.2}, {0.9, 0.7, 1.0}};
      r.fields = {"id", "position"};
      r.split = split;
      if (sampled) r.level = 1, r.lod = LodRequest{static_cast<uint64_t>(size), 8, 2};
      std::vector<int64_t> serial = ids_of(g.read(step, r, MPI_COMM_NULL));
      const auto mine_cols = g.read(step, r, MPI_COMM_WORLD);
      std::vector<int64_t> mine = ids_of(mine_cols);
      if (split == ReadSplit::kSpatial) {   // without a level every particle is in the box
        std::vector<double> pos(3 * mine.size());
        if (!pos.empty()) std::memcpy(pos.data(), mine_cols[1].bytes.data(), pos.size() * 8);
        for (size_t i = 0; i < mine.size(); ++i)
          ASSERT_TRUE(r.box->contains(Vec3{pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]}));
      }
      int n = static_cast<int>(mine.size());
      std::vector<int> counts(size), displs(size, 0);
      MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
      for (int i = 1; i < size; ++i) displs[i] = displs[i - 1] + counts[i - 1];
      std::vector<int64_t> all(displs[size - 1] + counts[size - 1]);
      MPI_Allgatherv(mine.data(), n, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T,
                     MPI_COMM_WORLD);
      std::sort(all.begin(), all.end());
      std::sort(serial.begin(), serial.end());
      EXPECT_EQ(all, serial) << "split " << static_cast<int>(split) << " sampled " << sampled;
    }
  }
}

struct Scenario {
  const char* name;
  PartitionSpec partition;
  LodParams lod;
  int empty_rank;          // -1: none
  bool pass_patch;         // give each rank's slab as its patch
};

void run_scenario(const Scenario& sc, int scenario_id) {
  TempDir tmp;
  ASSERT_TRUE(tmp.ok());
  const int rank = world_rank(), size = world_size();
  const std::string path = tmp.path("ds");
  {
    auto ds = Dataset::create(path, MPI_COMM_WORLD);
    EXPECT_EQ(ds->rank(), rank);
    EXPECT_EQ(ds->size(), size);
    ParticleGroup& g = ds->particles("electrons", kSchema, kDomain, sc.partition, sc.lod);
    for (int64_t step : {0, 3}) {
      const int empty = step == 3 ? sc.empty_rank : -1;
      const Particles mine = generate(rank, size, step, scenario_id, empty);
      const auto v = views(mine);
      std::optional<Box> patch;
      if (sc.pass_patch) patch = slab(rank, size);
      g.write(step, v, patch);
      const WriteProfile& prof = g.profile();
      uint64_t total = 0;
      for (int r = 0; r < size; ++r) total += generate(r, size, step, scenario_id, empty).size();
      EXPECT_EQ(prof.particles, total);
      EXPECT_EQ(prof.ranks, size);
      // Grid mode here always has a sender reaching several partitions, unless nobody sends.
      EXPECT_EQ(prof.aligned, sc.partition.mode == PartitionMode::kFactor || total == 0) << sc.name;
      EXPECT_EQ(prof.files > 0, total > 0);
      EXPECT_EQ(prof.phases.size(), 7u);   // check, agree, plan, exchange, reorder, file_write, commit
    }
    EXPECT_EQ(g.steps(), (std::vector<int64_t>{0, 3}));
    ds->close();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  expect_step_matches(path, "electrons", 0, scenario_id, -1);
  expect_step_matches(path, "electrons", 3, scenario_id, sc.empty_rank);
  expect_parallel_reads(path, "electrons", 0);
  expect_parallel_reads(path, "electrons", 3);
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(ParticleRoundTrip, FactorModeAligned) {
  LodParams lod;
  lod.level0_max = 16;
  lod.brick_target = 64;   // several levels and bricks per file
  lod.seed = 42;
  run_scenario({"factor", {PartitionMode::kFactor, {1, 1, 1}}, lod, -1, true}, 1);
}

TEST(ParticleRoundTrip, FactorModeWithAnEmptyRank) {
  run_scenario({"factor-empty", {PartitionMode::kFactor, {1, 1, 1}}, LodParams{}, world_size() - 1, true}, 2);
}

TEST(ParticleRoundTrip, GridModeNonAligned) {
  LodParams lod;
  lod.level0_max = 32;
  lod.brick_target = 16;
  run_scenario({"grid", {PartitionMode::kGrid, {3, 2, 1}}, lod, -1, true}, 3);
}

TEST(ParticleRoundTrip, GridModeBoundingBoxPatchesAndAnEmptyRank) {
  run_scenario({"grid-bbox", {PartitionMode::kGrid, {3, 2, 1}}, LodParams{}, 0, false}, 4);
}

TEST(ParticleErrors, SameStepTwiceFailsEverywhereAndKeepsTheFirst) {
  TempDir tmp;
  ASSERT_TRUE(tmp.ok());
  const int rank = world_rank(), size = world_size();
  const std::string path = tmp.path("dup");
  {
    auto ds = Dataset::create(path, MPI_COMM_WORLD);
    ParticleGroup& g = ds->particles("electrons", kSchema, kDomain, {PartitionMode::kFactor, {1, 1, 1}}, {});
    const Particles p0 = generate(rank, size, 0, 5, -1);
    g.write(0, views(p0), slab(rank, size));
    const Particles other = generate(rank, size, 1, 5, -1);   // different data, same step number
    const std::string msg =
        expect_error(ErrorCode::kAlreadyExists, [&] { g.write(0, views(other), slab(rank, size)); });
    EXPECT_NE(msg.find("step 0"), std::string::npos) << msg;
    EXPECT_EQ(g.steps(), std::vector<int64_t>{0});
    ds->close();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  expect_step_matches(path, "electrons", 0, 5, -1);
  MPI_Barrier(MPI_COMM_WORLD);
  {  // Also after reopening for appending.
    auto ds = Dataset::open(path, OpenMode::kAppend, MPI_COMM_WORLD);
    ParticleGroup& g = ds->particles("electrons");
    const Particles p0 = generate(rank, size, 0, 5, -1);
    expect_error(ErrorCode::kAlreadyExists, [&] { g.write(0, views(p0), slab(rank, size)); });
    ds->close();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  expect_step_matches(path, "electrons", 0, 5, -1);
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(ParticleErrors, WrongDtypeOnOneRankFailsOnEveryRank) {
  TempDir tmp;
  ASSERT_TRUE(tmp.ok());
  const int rank = world_rank(), size = world_size();
  const int culprit = size - 1;
  const std::string path = tmp.path("dtype");
  {
    auto ds = Dataset::create(path, MPI_COMM_WORLD);
    ParticleGroup& g = ds->particles("electrons", kSchema, kDomain, {PartitionMode::kGrid, {3, 2, 1}}, {});
    const Particles p = generate(rank, size, 0, 6, -1);
    std::vector<FieldView> v = views(p);
    std::vector<double> energy8(p.energy.begin(), p.energy.end());
    if (rank == culprit) {
      v[1].dtype = DType::kF8;
      v[1].data = energy8.data();
    }
    const std::string msg = expect_error(ErrorCode::kInvalidArgument, [&] { g.write(0, v, slab(rank, size)); });
    EXPECT_NE(msg.find("energy"), std::string::npos) << msg;
    if (size > 1) {
      EXPECT_NE(msg.find("rank " + std::to_string(culprit)), std::string::npos) << msg;
    }
    EXPECT_TRUE(g.steps().empty());
    // The dataset is still usable: the same step written correctly commits.
    g.write(0, views(p), slab(rank, size));
    EXPECT_EQ(g.steps(), std::vector<int64_t>{0});
    ds->close();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  expect_step_matches(path, "electrons", 0, 6, -1);
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(ParticleErrors, ParticleOutsideTheDomainOnOneRankFailsOnEveryRank) {
  TempDir tmp;
  ASSERT_TRUE(tmp.ok());
  const int rank = world_rank(), size = world_size();
  auto ds = Dataset::create(tmp.path("outside"), MPI_COMM_WORLD);
  ParticleGroup& g = ds->particles("electrons", kSchema, kDomain, {PartitionMode::kGrid, {2, 1, 1}}, {});
  Particles p = generate(rank, size, 0, 7, -1);
  if (rank == 0) p.pos[0] = 1.5;   // outside the domain
  // No patch: only the domain check can catch it.
  const std::string msg = expect_error(ErrorCode::kInvalidArgument, [&] { g.write(0, views(p), std::nullopt); });
  EXPECT_NE(msg.find("outside the domain"), std::string::npos) << msg;
  if (size > 1) EXPECT_NE(msg.find("rank 0"), std::string::npos) << msg;
  EXPECT_TRUE(g.steps().empty());
  ds->close();
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
