// Zero-copy input through the C++ API (lodex/particles.hpp: ParticleGroup::buffers, Buffers), at
// any rank count: the same steps written with write and through Buffers (rows in place, positions
// as three arrays, an asynchronous commit) give the same files byte for byte; a field asked with
// the wrong type throws lodex::Error naming both, a Buffers destroyed uncommitted discards its
// step, and a commit whose positions leave the patch throws on every rank with nothing written.
//
//   mpiexec -n 3 ./capi_buffers_cpp_test SCRATCH_DIR
#include <lodex/lodex.hpp>
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

int g_rank = 0, g_size = 1, g_failed = 0, g_passed = 0;

void expect(bool ok, const char* what, int line) {
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    std::fprintf(stderr, "rank %d: line %d: %s\n", g_rank, line, what);
  }
}
#define EXPECT(cond) expect((cond), #cond, __LINE__)

// The lodex::Error `call` throws: its code and whether its message contains `needle`.
template <class F>
void expect_error(F&& call, int code, const char* needle, int line) {
  try {
    call();
    expect(false, "no error thrown", line);
  } catch (const lodex::Error& e) {
    std::string what = std::string("code ") + e.code_name() + ", message: " + e.what() + "; wanted " + needle;
    expect(e.code() == code && std::strstr(e.what(), needle) != nullptr, what.c_str(), line);
  }
}
#define EXPECT_ERROR(call, code, needle) expect_error([&] { call; }, code, needle, __LINE__)

struct Rows {
  std::vector<double> position;
  std::vector<float> mass;
};

Rows rows_of(int64_t step, size_t n) {
  Rows r{std::vector<double>(3 * n), std::vector<float>(n)};
  const double x0 = double(g_rank) / g_size, dx = 1.0 / g_size;
  for (size_t i = 0; i < n; ++i) {
    r.position[3 * i] = x0 + dx * (double(i) + 0.5) / double(n);
    r.position[3 * i + 1] = std::fmod(0.29 * double(i) + 0.1 * double(step), 1.0);
    r.position[3 * i + 2] = std::fmod(0.53 * double(i), 1.0);
    r.mass[i] = float(step * 10000 + g_rank * 1000 + int64_t(i));
  }
  return r;
}

lodex::Box patch() {
  const double x0 = double(g_rank) / g_size;
  return lodex::Box{{x0, 0, 0}, {g_rank == g_size - 1 ? 1.0 : x0 + 1.0 / g_size, 1, 1}};
}

size_t count_of(int64_t step) { return 41 + 7 * size_t(g_rank) + size_t(step); }

enum How { kWrite, kInPlace, kComponents, kAsync };

void write_step(lodex::ParticleGroup& g, int64_t step, How how) {
  const size_t n = count_of(step);
  const Rows r = rows_of(step, n);
  if (how == kWrite) {
    g.write(step, {lodex::field("position", r.position, 3), lodex::field("mass", r.mass)}, patch());
    return;
  }
  lodex::Buffers b = g.buffers(step, n, patch(), how == kComponents);
  EXPECT(b.count() == n);
  lodex::Span<float> mass = b.field<float>("mass");
  EXPECT(mass.size() == n);
  std::copy(r.mass.begin(), r.mass.end(), mass.begin());
  if (how == kComponents) {
    lodex::Span<double> xyz[3] = {b.field<double>("position/x"), b.field<double>("position/y"),
                                  b.field<double>("position/z")};
    for (size_t i = 0; i < n; ++i)
      for (int a = 0; a < 3; ++a) xyz[a][i] = r.position[3 * i + size_t(a)];
  } else {
    lodex::Span<double> pos = b.field<double>("position", 3);
    EXPECT(pos.size() == 3 * n);
    std::copy(r.position.begin(), r.position.end(), pos.begin());
  }
  EXPECT(b.in_window() == (g_size > 1));   // one partition on one node: every rank in its window
  if (how == kAsync) {
    lodex::Pending p = b.commit_async();
    p.wait();
  } else {
    b.commit();
  }
}

void write_all(const std::string& path, bool buffers) {
  lodex::Dataset ds = lodex::Dataset::create(path, MPI_COMM_WORLD);
  lodex::ParticleGroup g =
      ds.define_particles("p", {{"position", lodex::DType::kF8, 3}, {"mass", lodex::DType::kF4, 1}},
                          lodex::Box{{0, 0, 0}, {1, 1, 1}}, lodex::Partition::grid(1, 1, 1));
  write_step(g, 0, buffers ? kInPlace : kWrite);
  write_step(g, 1, buffers ? kComponents : kWrite);
  write_step(g, 2, buffers ? kAsync : kWrite);
  ds.close();
}

void test_misuse(const std::string& path) {
  lodex::Dataset ds = lodex::Dataset::create(path, MPI_COMM_WORLD);
  lodex::ParticleGroup g =
      ds.define_particles("p", {{"position", lodex::DType::kF8, 3}, {"mass", lodex::DType::kF4, 1}},
                          lodex::Box{{0, 0, 0}, {1, 1, 1}}, lodex::Partition::grid(1, 1, 1));
  write_step(g, 0, kInPlace);
  {
    lodex::Buffers b = g.buffers(1, count_of(1), patch());
    EXPECT_ERROR(b.field<double>("mass"), LODEX_ERR_INVALID_ARGUMENT, "field 'mass' is f4");
    EXPECT_ERROR((g.buffers(2, 0)), LODEX_ERR_INVALID_ARGUMENT, "step 1 of group 'p' has buffers open");
  }   // destroyed uncommitted: step 1 discarded
  EXPECT(g.steps().size() == 1);
  lodex::Buffers b = g.buffers(1, count_of(1), patch());
  const Rows r = rows_of(1, count_of(1));
  std::copy(r.position.begin(), r.position.end(), b.field<double>("position", 3).begin());
  std::copy(r.mass.begin(), r.mass.end(), b.field<float>("mass").begin());
  if (g_rank == 0) b.field<double>("position", 3)[4] = 2.0;   // y outside the domain
  EXPECT_ERROR(b.commit(), LODEX_ERR_INVALID_ARGUMENT, "outside the domain");
  EXPECT_ERROR(b.commit(), LODEX_ERR_INVALID_ARGUMENT, "committed already");
  EXPECT(g.steps().size() == 1);
  write_step(g, 1, kComponents);
  EXPECT(g.steps().size() == 2);
  ds.close();
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const std::string dir = argc > 1 ? argv[1] : ".";
  const std::string base = dir + "/buffers_cpp";
  if (g_rank == 0) {
    const std::string cmd = "mkdir -p '" + dir + "' && rm -rf '" + base + "'.*";
    if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "could not clear %s\n", base.c_str());
  }
  MPI_Barrier(MPI_COMM_WORLD);
  try {
    write_all(base + ".write", false);
    write_all(base + ".buffers", true);
    if (g_rank == 0) {
      const std::string cmd = "diff -r -q -x manifest.json -x lodex.lock '" + base + ".write' '" + base + ".buffers'";
      expect(std::system(cmd.c_str()) == 0, cmd.c_str(), __LINE__);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    test_misuse(base + ".misuse");
  } catch (const lodex::Error& e) {
    expect(false, e.what(), __LINE__);
  }
  int failed = g_failed, passed = g_passed;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &passed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) std::printf("%d passed, %d failed\n", passed, failed);
  MPI_Finalize();
  return failed ? 1 : 0;
}
