// Uintah-like particles from C++: every rank owns one patch of the unit cube (an MPI_Dims_create
// grid of patches), writes its particles for two steps into one lodex dataset with the
// aggregation partition factor (Px, Py, Pz), then the program reads back
//   - the lower-left octant on one process (no communicator), compared with what the ranks
//     generated there, and
//   - levels of detail 0 and 1 collectively over every rank.
//
//   mpiexec -n 8 ./uintah_particles OUT_DIR [PX PY PZ] [PARTICLES_PER_RANK]
//
// PX PY PZ default to 2 2 2, each 1 along an axis with an odd number of patches; factors that
// do not divide the patches along their axis are reported by lodex (an invalid argument). Output lines are "key value ..." for scripts; the exit code
// is non-zero when a check fails.
#include <lodex/lodex.hpp>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// A 64-bit linear congruential generator (Knuth's MMIX constants), seeded by rank and step.
struct Lcg {
  uint64_t state;
  Lcg(int rank, int64_t step) : state(0x9E3779B97F4A7C15ull * (uint64_t(rank) + 1) ^ (uint64_t(step) << 32)) {
    for (int i = 0; i < 4; ++i) next();   // leave the seed's neighbourhood
  }
  uint64_t next() { return state = state * 6364136223846793005ull + 1442695040888963407ull; }
  double unit() { return double(next() >> 11) * 0x1.0p-53; }   // [0, 1)
};

// One rank's particles, as Uintah keeps them: positions, velocities, masses, ids.
struct Particles {
  std::vector<double> position;   // (n, 3)
  std::vector<float> velocity;   // (n, 3)
  std::vector<double> mass;
  std::vector<int64_t> id;
  size_t size() const { return mass.size(); }
};

Particles generate(int rank, int64_t step, const lodex::Box& patch, size_t n) {
  Lcg rng(rank, step);
  Particles p;
  for (size_t i = 0; i < n; ++i) {
    for (int a = 0; a < 3; ++a) {
      const double x = patch.lo[a] + rng.unit() * (patch.hi[a] - patch.lo[a]);
      p.position.push_back(std::min(x, std::nextafter(patch.hi[a], patch.lo[a])));   // hi is exclusive
    }
    for (int a = 0; a < 3; ++a) p.velocity.push_back(float(rng.unit() - 0.5));
    p.mass.push_back(1e-3 * (1.0 + rng.unit()));
    p.id.push_back(int64_t(rank) * (int64_t(1) << 32) + int64_t(i));
  }
  return p;
}

bool inside(const double* x, const lodex::Box& box) {
  for (int a = 0; a < 3; ++a) {
    if (x[a] < box.lo[a] || x[a] >= box.hi[a]) return false;
  }
  return true;
}

uint64_t sum_over_ranks(uint64_t local) {
  uint64_t total = 0;
  MPI_Allreduce(&local, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

// Prints a failed check on rank 0 and counts it.
void expect(bool ok, int rank, const std::string& what, int& failures) {
  if (ok) return;
  ++failures;
  if (rank == 0) std::printf("FAILED %s\n", what.c_str());
}

int run(int argc, char** argv, int rank, int size) {
  const std::string path = argv[1];
  int dims[3] = {0, 0, 0};
  MPI_Dims_create(size, 3, dims);
  const int cell[3] = {rank % dims[0], rank / dims[0] % dims[1], rank / (dims[0] * dims[1])};
  lodex::Box patch;
  for (int a = 0; a < 3; ++a) {
    patch.lo[a] = double(cell[a]) / dims[a];
    patch.hi[a] = double(cell[a] + 1) / dims[a];
  }
  std::array<uint32_t, 3> factor{};
  for (int a = 0; a < 3; ++a) {
    // Default: 2 where the patches along the axis come in pairs, else 1 (a factor must divide them).
    factor[a] = argc > 4 ? uint32_t(std::atoi(argv[2 + a])) : (dims[a] % 2 == 0 ? 2u : 1u);
  }
  const size_t n = argc > 5 ? size_t(std::strtoull(argv[5], nullptr, 10)) : 10000 + 100 * size_t(rank);
  if (rank == 0) {
    std::printf("ranks %d dims %d %d %d factor %u %u %u\n", size, dims[0], dims[1], dims[2], factor[0], factor[1],
                factor[2]);
  }
  int failures = 0;

  // Write: two steps, every rank its patch.
  lodex::Dataset ds = lodex::Dataset::create(path, MPI_COMM_WORLD);
  const std::vector<lodex::FieldDef> schema = {{"position", lodex::DType::kF8, 3},
                                               {"velocity", lodex::DType::kF4, 3},
                                               {"mass", lodex::DType::kF8, 1},
                                               {"id", lodex::DType::kI8, 1}};
  lodex::ParticleGroup group = ds.define_particles("particles", schema, lodex::Box{{0, 0, 0}, {1, 1, 1}},
                                                   lodex::Partition::factor(factor[0], factor[1], factor[2]));
  for (int64_t step = 0; step < 2; ++step) {
    Particles p = generate(rank, step, patch, n);
    const std::initializer_list<lodex::FieldData> fields = {lodex::field("position", p.position, 3),
                                                            lodex::field("velocity", p.velocity, 3),
                                                            lodex::field("mass", p.mass), lodex::field("id", p.id)};
    if (step == 0) {
      group.write(step, fields, patch);
    } else {   // asynchronous: the files are written while the simulation computes
      lodex::ParticleGroup::Pending pending = group.write_async(step, fields, patch);
      const Particles kept = p;
      std::fill(p.position.begin(), p.position.end(), -1.0);   // the arrays may be reused at once (copied)
      pending.wait();   // collective: the step commits
      p = kept;
    }
    const lodex::WriteProfile profile = group.profile();
    const uint64_t expected = sum_over_ranks(p.size());
    if (rank == 0) {
      std::printf("step %lld particles %llu files %u\n", (long long)step, (unsigned long long)profile.particles,
                  profile.files);
      std::printf("write_profile %s\n", profile.json.c_str());
    }
    expect(profile.particles == expected, rank, "write of step " + std::to_string(step), failures);
  }
  ds.close();

  // Box read on one process: the lower-left octant of step 0.
  const lodex::Box octant{{0, 0, 0}, {0.5, 0.5, 0.5}};
  const Particles mine = generate(rank, 0, patch, n);
  uint64_t local_in_box = 0;
  for (size_t i = 0; i < mine.size(); ++i) local_in_box += inside(&mine.position[3 * i], octant);
  uint64_t expected_in_box = 0;
  MPI_Reduce(&local_in_box, &expected_in_box, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    lodex::Dataset serial = lodex::Dataset::open(path);   // MPI_COMM_NULL: no other rank involved
    lodex::ReadRequest request;
    request.box = octant;
    request.fields = {"position", "id"};
    const lodex::Columns box = serial.particles("particles").read(0, request);
    const lodex::Span<const double> pos = box.column("position").values<double>();
    uint64_t outside = 0;
    for (size_t i = 0; i < pos.size(); i += 3) outside += !inside(&pos[i], octant);
    std::printf("box_count %llu expected %llu\n", (unsigned long long)box.rows(), (unsigned long long)expected_in_box);
    expect(box.rows() == expected_in_box && outside == 0, rank, "box read", failures);
    serial.close();
  }

  // Level-of-detail reads, collective: each rank gets a disjoint part of levels 0..L.
  lodex::Dataset shared = lodex::Dataset::open(path, lodex::Mode::kRead, MPI_COMM_WORLD);
  const lodex::ParticleGroup readers = shared.particles("particles");
  const uint64_t total = sum_over_ranks(n);
  uint64_t previous = 0;
  for (uint32_t level = 0; level <= 1; ++level) {
    lodex::ReadRequest request;
    request.level = level;
    request.fields = {"id"};
    const uint64_t count = sum_over_ranks(readers.read(0, request, MPI_COMM_WORLD).rows());
    if (rank == 0) std::printf("lod level %u count %llu\n", level, (unsigned long long)count);
    expect(count > 0 && count >= previous && count <= total, rank, "level " + std::to_string(level), failures);
    previous = count;
  }
  shared.close();

  int any_failures = 0;
  MPI_Allreduce(&failures, &any_failures, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%s\n", any_failures ? "result FAILED" : "result ok");
  return any_failures ? 1 : 0;
}

}   // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2 && argc != 5 && argc != 6) {
    if (rank == 0) std::fprintf(stderr, "usage: %s OUT_DIR [PX PY PZ [PARTICLES_PER_RANK]]\n", argv[0]);
    MPI_Finalize();
    return 2;
  }
  int status = 0;
  try {
    status = run(argc, argv, rank, size);
  } catch (const lodex::Error& e) {
    // Collective calls fail on every rank alike; print once per rank that saw it, then stop all.
    std::fprintf(stderr, "rank %d: lodex error (%s): %s\n", rank, e.code_name(), e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  MPI_Finalize();
  return status;
}
