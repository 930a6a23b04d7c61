/* VPIC-like electrons from C: every rank writes its particles into one lodex dataset, the ranks
 * build a bitmap index of the energy together, and a value query finds the hot particles, first
 * collectively, then on one process without MPI.
 *
 *   mpiexec -n 4 ./vpic_particles OUT_DIR [PARTICLES_PER_RANK]
 *
 * Particles are generated from a hash of (rank, index), so anyone can regenerate them: rank r
 * holds the cell (cx, cy, cz) of an MPI_Dims_create grid, its patch is [16 c, 16 (c + 1)) on
 * each axis, and every value is exact in float32 (a test reads the dataset back and compares).
 * Output lines are "key value ..." for scripts. */
#include <lodex.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define PATCH 16.0

/* Stops every rank with the library's message when a lodex call fails. */
#define CHECK(call)                                                                               \
  do {                                                                                            \
    int rc_ = (call);                                                                             \
    if (rc_ != LODEX_OK) {                                                                        \
      fprintf(stderr, "%s failed: %s (%s)\n", #call, lodex_last_error(), lodex_status_name(rc_)); \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                               \
    }                                                                                             \
  } while (0)

static uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* The k-th hash of particle `id`: 24 random bits as a float in [0, 1), exact in float32. */
static float unit(uint64_t id, uint64_t k) { return (float)(splitmix64(id * 8 + k) >> 40) / 16777216.0f; }

typedef struct {
  size_t n;
  float *position, *ux, *uy, *uz, *energy;
  uint64_t* id;
} Electrons;

static Electrons generate(int rank, const int cell[3], size_t n) {
  Electrons e = {n,
                 malloc(3 * n * sizeof(float)),
                 malloc(n * sizeof(float)),
                 malloc(n * sizeof(float)),
                 malloc(n * sizeof(float)),
                 malloc(n * sizeof(float)),
                 malloc(n * sizeof(uint64_t))};
  for (size_t i = 0; i < n; ++i) {
    const uint64_t id = ((uint64_t)rank << 40) | i;
    e.id[i] = id;
    for (int a = 0; a < 3; ++a) e.position[3 * i + a] = (float)(PATCH * cell[a]) + (float)PATCH * unit(id, a);
    e.ux[i] = unit(id, 3) - 0.5f;
    e.uy[i] = unit(id, 4) - 0.5f;
    e.uz[i] = unit(id, 5) - 0.5f;
    /* About 1% accelerated particles: energies up to 64 against below 1 for the rest. */
    const float hot = unit(id, 6) < 0.01f ? 64.0f : 1.0f;
    e.energy[i] = hot * unit(id, 7);
  }
  return e;
}

static void release(Electrons* e) {
  free(e->position), free(e->ux), free(e->uy), free(e->uz), free(e->energy), free(e->id);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2) {
    if (rank == 0) fprintf(stderr, "usage: %s OUT_DIR [PARTICLES_PER_RANK]\n", argv[0]);
    MPI_Finalize();
    return 1;
  }
  const size_t n = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 20000;
  int dims[3] = {0, 0, 0}, cell[3];
  MPI_Dims_create(size, 3, dims);
  cell[0] = rank % dims[0], cell[1] = rank / dims[0] % dims[1], cell[2] = rank / (dims[0] * dims[1]);
  if (rank == 0) printf("dims %d %d %d\n", dims[0], dims[1], dims[2]);

  /* Define the group: position plus momentum, energy and id, one file per rank's patch. */
  lodex_dataset* ds;
  CHECK(lodex_dataset_create(argv[1], MPI_COMM_WORLD, 0, &ds));
  const lodex_field_def fields[] = {{"position", LODEX_F4, 3}, {"ux", LODEX_F4, 1},     {"uy", LODEX_F4, 1},
                                    {"uz", LODEX_F4, 1},       {"energy", LODEX_F4, 1}, {"id", LODEX_U8, 1}};
  const double domain[6] = {0, 0, 0, PATCH * dims[0], PATCH * dims[1], PATCH * dims[2]};
  lodex_partition partition;   /* the paper's factor (1,1,1): a file per rank patch */
  CHECK(lodex_partition_init(&partition));
  partition.mode = LODEX_PARTITION_FACTOR;
  lodex_particles* electrons;
  CHECK(lodex_particles_define(ds, "electrons", fields, 6, domain, &partition, NULL, &electrons));

  /* Write step 0: each rank its own particles and patch. */
  Electrons e = generate(rank, cell, n);
  const lodex_field_data data[] = {{"position", LODEX_F4, 3, n, e.position},
                                   {"ux", LODEX_F4, 1, n, e.ux},
                                   {"uy", LODEX_F4, 1, n, e.uy},
                                   {"uz", LODEX_F4, 1, n, e.uz},
                                   {"energy", LODEX_F4, 1, n, e.energy},
                                   {"id", LODEX_U8, 1, n, e.id}};
  double patch[6];
  for (int a = 0; a < 3; ++a) patch[a] = PATCH * cell[a], patch[3 + a] = PATCH * (cell[a] + 1);
  CHECK(lodex_particles_write(electrons, 0, data, 6, patch));
  lodex_write_profile profile;
  CHECK(lodex_particles_profile(electrons, &profile, NULL));
  if (rank == 0)
    printf("write particles %llu files %u seconds %.6f\n", (unsigned long long)profile.particles, profile.files,
           profile.total_s);

  /* Index the energy (3 significant digits), every rank building a share of the files. */
  const char* indexed[] = {"energy"};
  lodex_index_stats stats;
  CHECK(lodex_particles_build_index(electrons, indexed, 1, LODEX_BINNING_PRECISION, 3, NULL, 0, &stats));
  if (rank == 0)
    printf("index files %llu bytes %llu\n", (unsigned long long)stats.indexes, (unsigned long long)stats.index_bytes);

  /* The hot particles, collectively: each rank gets the matches of its share of the files. */
  uint64_t mine = 0, expected = 0;
  for (size_t i = 0; i < n; ++i) mine += e.energy[i] > 8.0f;
  MPI_Allreduce(&mine, &expected, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  lodex_query q;
  CHECK(lodex_query_init(&q));
  q.text = "energy > 8";
  const char* wanted[] = {"id", "energy"};
  q.fields = wanted;
  q.num_fields = 2;
  lodex_query_result* result;
  CHECK(lodex_particles_query(electrons, 0, &q, MPI_COMM_WORLD, &result));
  uint64_t count, local;
  CHECK(lodex_query_result_count(result, &count, &local));
  const lodex_columns* columns;
  lodex_column energy;
  CHECK(lodex_query_result_columns(result, &columns));
  CHECK(lodex_columns_find(columns, "energy", &energy));
  int ok = count == expected && energy.rows == local;
  for (uint64_t i = 0; i < energy.rows; ++i) ok &= ((const float*)energy.data)[i] > 8.0f;
  if (rank == 0) printf("query count %llu expected %llu\n", (unsigned long long)count, (unsigned long long)expected);
  CHECK(lodex_query_result_free(result));

  /* The same query on one process, as an analyst would run it: no communicator. */
  CHECK(lodex_dataset_close(ds));
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (rank == 0) {
    lodex_dataset* reader;
    lodex_particles* group;
    CHECK(lodex_dataset_open(argv[1], LODEX_MODE_READ, MPI_COMM_NULL, 0, &reader));
    CHECK(lodex_particles_open(reader, "electrons", &group));
    q.num_fields = 0;
    CHECK(lodex_particles_query(group, 0, &q, MPI_COMM_NULL, &result));
    CHECK(lodex_query_result_count(result, &count, NULL));
    lodex_query_stats qs;
    CHECK(lodex_query_result_stats(result, &qs));
    printf("serial query count %llu files_indexed %llu\n", (unsigned long long)count,
           (unsigned long long)qs.files_indexed);
    ok &= count == expected && qs.files_indexed > 0;
    CHECK(lodex_query_result_free(result));
    CHECK(lodex_dataset_close(reader));
    printf("%s\n", ok ? "ok" : "MISMATCH");
  }
  release(&e);
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return ok ? 0 : 1;
}
