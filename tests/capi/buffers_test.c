/* Zero-copy input through the C API, at any rank count: lodex_particles_buffers, the rows filled in
 * place, lodex_buffers_commit(_async). Every way a step goes (a partition's writers on one node
 * sharing its window, each rank its own partition, positions as three arrays, an asynchronous
 * commit, no patch, an automatic domain, point-to-point exchange, a partition spanning nodes,
 * and a plan not aligned, where a rank's patch spans two partitions) is compared byte for byte
 * with lodex_particles_write of the same rows in another dataset. Then the
 * misuses: a wrong dtype, an unknown field, a write while buffers are open, a second commit,
 * buffers freed uncommitted, a particle outside its patch or not finite (every rank refused, the
 * step discarded, earlier steps intact, the step written afterwards), a committed step, bad flags,
 * buffers left open at close.
 *
 *   mpiexec -n 3 ./capi_buffers_test SCRATCH_DIR
 */
#include <lodex.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"

/* This rank's particles of `step`: a count that differs by rank (odd ones included), positions in
 * its slab of x, [rank/size, (rank+1)/size), values of every field derived from (step, rank, i). */
static int count_of(int rank, int64_t step) { return 37 + 11 * rank + (int)step % 5; }

static void fill(int64_t step, int n, double* pos, float* mass, int32_t* id) {
  const double x0 = (double)g_rank / g_size, dx = 1.0 / g_size;
  for (int i = 0; i < n; ++i) {
    pos[3 * i] = x0 + dx * (i + 0.5) / n;
    pos[3 * i + 1] = fmod(0.37 * i + 0.01 * (double)step, 1.0);
    pos[3 * i + 2] = fmod(0.61 * i + 0.13 * g_rank, 1.0);
    mass[i] = (float)(step * 1e4 + g_rank * 1000 + i);
    id[i] = (int32_t)(g_rank * 100000 + i);
  }
}

static void my_patch(double patch[6]) {
  const double x0 = (double)g_rank / g_size, dx = 1.0 / g_size;
  const double p[6] = {x0, 0, 0, g_rank == g_size - 1 ? 1.0 : x0 + dx, 1, 1};
  memcpy(patch, p, sizeof p);
}

/* A group of three fields over the unit box; mode: a lodex_partition mode with dims (px, 1, 1),
 * or -1 for an automatic domain (grid partition). */
static lodex_particles* define(lodex_dataset* ds, const char* name, int mode, uint32_t px) {
  const lodex_field_def fields[] = {{"position", LODEX_F8, 3}, {"mass", LODEX_F4, 1}, {"id", LODEX_I4, 1}};
  lodex_partition part;
  EXPECT_OK(lodex_partition_init(&part));
  part.mode = mode < 0 ? LODEX_PARTITION_GRID : mode;
  part.dims[0] = px;
  lodex_domain dom;
  const double unit[6] = {0, 0, 0, 1, 1, 1};
  EXPECT_OK(lodex_domain_init(&dom, mode < 0 ? NULL : unit));
  lodex_lod_params lod;
  EXPECT_OK(lodex_lod_params_init(&lod));
  lod.level0_max = 16;   /* several levels and bricks at these counts */
  lodex_particles* g = NULL;
  EXPECT_OK(lodex_particles_define_domain(ds, name, fields, 3, &dom, &part, &lod, &g));
  return g;
}

enum { kNone = 0, kComponents = 1, kAsync = 2, kNoPatch = 4 };

/* Step `step` of g through lodex_particles_write (the reference) or through buffers (`how`:
 * kComponents, kAsync; kNoPatch for both). Returns this rank's lodex_buffers_in_window (-1 for the
 * reference). */
static int write_step(lodex_particles* g, int64_t step, int buffers, int how) {
  const int n = count_of(g_rank, step);
  double* pos = malloc(3 * (size_t)n * sizeof(double));
  float* mass = malloc((size_t)n * sizeof(float));
  int32_t* id = malloc((size_t)n * sizeof(int32_t));
  fill(step, n, pos, mass, id);
  double patch[6];
  my_patch(patch);
  const double* p = how & kNoPatch ? NULL : patch;
  int in_window = -1;
  if (!buffers) {
    const lodex_field_data data[] = {{"position", LODEX_F8, 3, (uint64_t)n, pos},
                                     {"mass", LODEX_F4, 1, (uint64_t)n, mass},
                                     {"id", LODEX_I4, 1, (uint64_t)n, id}};
    EXPECT_OK(lodex_particles_write(g, step, data, 3, p));
  } else {
    lodex_buffers* b = NULL;
    EXPECT_OK(lodex_particles_buffers(g, step, (uint64_t)n, p,
                                      how & kComponents ? LODEX_BUFFERS_POSITION_COMPONENTS : 0, &b));
    void *bm = NULL, *bi = NULL;
    EXPECT_OK(lodex_buffers_field(b, "mass", LODEX_F4, 1, &bm));
    EXPECT_OK(lodex_buffers_field(b, "id", LODEX_I4, 1, &bi));
    memcpy(bm, mass, (size_t)n * sizeof(float));
    memcpy(bi, id, (size_t)n * sizeof(int32_t));
    if (how & kComponents) {
      double* xyz[3] = {NULL, NULL, NULL};
      EXPECT_OK(lodex_buffers_field(b, "position/x", LODEX_F8, 1, (void**)&xyz[0]));
      EXPECT_OK(lodex_buffers_field(b, "position/y", LODEX_F8, 1, (void**)&xyz[1]));
      EXPECT_OK(lodex_buffers_field(b, "position/z", LODEX_F8, 1, (void**)&xyz[2]));
      for (int i = 0; i < n; ++i)
        for (int a = 0; a < 3; ++a) xyz[a][i] = pos[3 * i + a];
    } else {
      void* bp = NULL;
      EXPECT_OK(lodex_buffers_field(b, "position", LODEX_F8, 3, &bp));
      memcpy(bp, pos, 3 * (size_t)n * sizeof(double));
    }
    EXPECT_OK(lodex_buffers_in_window(b, &in_window));
    if (how & kAsync) {
      lodex_pending* pend = NULL;
      EXPECT_OK(lodex_buffers_commit_async(b, &pend));
      EXPECT_OK(lodex_pending_wait(pend));
      EXPECT_OK(lodex_pending_free(pend));
    } else {
      EXPECT_OK(lodex_buffers_commit(b));
    }
    EXPECT_OK(lodex_buffers_free(b));
  }
  free(pos);
  free(mass);
  free(id);
  return in_window;
}

/* Rank 0 compares the two datasets' files (all but the manifest and the writer lock). */
static void expect_same_files(const char* a, const char* b) {
  if (g_rank == 0) {
    char cmd[3 * 4096];
    snprintf(cmd, sizeof cmd, "diff -r -q -x manifest.json -x lodex.lock '%s' '%s'", a, b);
    const int rc = system(cmd);
    check_true(rc == 0, cmd, __LINE__);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* The groups and steps of every way a step goes, written through buffers (`buffers`) or not. */
static void write_all(const char* path, int buffers, unsigned flags) {
  lodex_dataset* ds = NULL;
  EXPECT_OK(lodex_dataset_create(path, MPI_COMM_WORLD, flags, &ds));
  lodex_particles* one = define(ds, "one", LODEX_PARTITION_GRID, 1);
  lodex_particles* own = define(ds, "own", LODEX_PARTITION_FACTOR, (uint32_t)g_size);
  lodex_particles* autod = define(ds, "auto", -1, 1);
  lodex_particles* halves = define(ds, "halves", LODEX_PARTITION_GRID, 2);
  int w = write_step(one, 0, buffers, kNone);
  /* One partition of every rank: on one node, every rank's rows lie in its window (1 rank: read in
     place); the point-to-point exchange and ranks on separate nodes use their own memory. */
  const int shared = !(flags & LODEX_EXCHANGE_P2P) && getenv("LODEX_RANKS_PER_NODE") == NULL;
  if (buffers) EXPECT(w == (g_size > 1 && shared));
  write_step(one, 1, buffers, kComponents);
  write_step(one, 2, buffers, kAsync);
  write_step(one, 3, buffers, kAsync | kComponents);
  w = write_step(one, 4, buffers, kNoPatch);   /* planned only with patches: this rank's memory */
  if (buffers) EXPECT(w == 0);
  write_step(own, 0, buffers, kNone);   /* each rank its own partition */
  write_step(own, 1, buffers, kComponents | kAsync);
  w = write_step(autod, 0, buffers, kComponents);   /* an automatic domain: not planned */
  if (buffers) EXPECT(w == 0);
  /* Two partitions: at 3 ranks the middle slab spans both (not aligned: not planned), at 2 ranks
     each rank has its own. */
  w = write_step(halves, 0, buffers, kNone);
  if (buffers && g_size == 3) EXPECT(w == 0);
  write_step(halves, 1, buffers, kComponents | kAsync);
  EXPECT_OK(lodex_dataset_close(ds));
}

static void test_same_bytes(const char* base, const char* tag, unsigned flags) {
  char a[4096 + 64], b[4096 + 64];
  snprintf(a, sizeof a, "%s.%s.write", base, tag);
  snprintf(b, sizeof b, "%s.%s.buffers", base, tag);
  write_all(a, 0, flags);
  write_all(b, 1, flags);
  expect_same_files(a, b);
}

static size_t step_count(lodex_particles* g) {
  size_t n = 99;
  EXPECT_OK(lodex_particles_steps(g, NULL, 0, &n));
  return n;
}

/* Opens buffers of `step` with this rank's count and patch and fills them with fill(). */
static lodex_buffers* open_filled(lodex_particles* g, int64_t step) {
  const int n = count_of(g_rank, step);
  lodex_buffers* b = NULL;
  double patch[6];
  my_patch(patch);
  EXPECT_OK(lodex_particles_buffers(g, step, (uint64_t)n, patch, 0, &b));
  double* pos = NULL;
  float* mass = NULL;
  int32_t* id = NULL;
  EXPECT_OK(lodex_buffers_field(b, "position", LODEX_F8, 3, (void**)&pos));
  EXPECT_OK(lodex_buffers_field(b, "mass", LODEX_F4, 1, (void**)&mass));
  EXPECT_OK(lodex_buffers_field(b, "id", LODEX_I4, 1, (void**)&id));
  if (pos && mass && id) fill(step, n, pos, mass, id);
  return b;
}

static void test_misuse(const char* path) {
  lodex_dataset* ds = NULL;
  EXPECT_OK(lodex_dataset_create(path, MPI_COMM_WORLD, 0, &ds));
  lodex_particles* g = define(ds, "g", LODEX_PARTITION_GRID, 1);
  lodex_buffers* b = open_filled(g, 0);
  EXPECT_OK(lodex_buffers_commit(b));
  EXPECT_ERROR(lodex_buffers_commit(b), LODEX_ERR_INVALID_ARGUMENT, "committed already");
  void* data = NULL;
  EXPECT_ERROR(lodex_buffers_field(b, "mass", LODEX_F4, 1, &data), LODEX_ERR_INVALID_ARGUMENT, "committed already");
  EXPECT_OK(lodex_buffers_free(b));
  EXPECT_ERROR(lodex_buffers_commit(b), LODEX_ERR_INVALID_ARGUMENT, "not a live");
  EXPECT(step_count(g) == 1);

  /* A committed step, bad flags: refused on every rank, no handle. */
  lodex_buffers* none = (lodex_buffers*)1;
  EXPECT_ERROR(lodex_particles_buffers(g, 0, 5, NULL, 0, &none), LODEX_ERR_ALREADY_EXISTS, "already committed");
  EXPECT(none == NULL);
  EXPECT_ERROR(lodex_particles_buffers(g, 1, 5, NULL, g_rank == g_size - 1 ? 8 : 0, &none), LODEX_ERR_INVALID_ARGUMENT,
               "LODEX_BUFFERS_POSITION_COMPONENTS");

  /* Fields asked as the schema does not have them; writes refused while buffers are open. */
  b = open_filled(g, 1);
  EXPECT_ERROR(lodex_buffers_field(b, "mass", LODEX_F8, 1, &data), LODEX_ERR_INVALID_ARGUMENT,
               "field 'mass' is f4 with 1 component per particle; asked as f8 with 1");
  EXPECT_ERROR(lodex_buffers_field(b, "position", LODEX_F8, 1, &data), LODEX_ERR_INVALID_ARGUMENT, "3 components");
  EXPECT_ERROR(lodex_buffers_field(b, "velocity", LODEX_F8, 3, &data), LODEX_ERR_INVALID_ARGUMENT,
               "no field 'velocity'");
  EXPECT_ERROR(lodex_buffers_field(b, "position/x", LODEX_F8, 1, &data), LODEX_ERR_INVALID_ARGUMENT,
               "no field 'position/x'");
  const lodex_field_data nothing[] = {
      {"position", LODEX_F8, 3, 0, NULL}, {"mass", LODEX_F4, 1, 0, NULL}, {"id", LODEX_I4, 1, 0, NULL}};
  EXPECT_ERROR(lodex_particles_write(g, 2, nothing, 3, NULL), LODEX_ERR_INVALID_ARGUMENT,
               "step 1 of group 'g' has buffers open");
  lodex_buffers* again = NULL;
  EXPECT_ERROR(lodex_particles_buffers(g, 2, 0, NULL, 0, &again), LODEX_ERR_INVALID_ARGUMENT, "has buffers open");
  EXPECT_OK(lodex_buffers_commit(b));   /* still open and intact after the refusals */
  EXPECT_OK(lodex_buffers_free(b));
  EXPECT(step_count(g) == 2);

  /* Freed uncommitted: nothing of the step, and the step is open to a write. */
  b = open_filled(g, 2);
  EXPECT_OK(lodex_buffers_free(b));
  EXPECT(step_count(g) == 2);

  /* A particle of the last rank outside its patch, then a NaN on rank 0: every rank refused, the
   * step discarded, earlier steps intact; the step is then written through buffers. */
  b = open_filled(g, 2);
  double* pos = NULL;
  EXPECT_OK(lodex_buffers_field(b, "position", LODEX_F8, 3, (void**)&pos));
  if (g_size > 1 && g_rank == g_size - 1) pos[3 * 5] = 0.5 / g_size;   /* in rank 0's slab */
  if (g_size == 1) pos[3 * 5 + 1] = 1.5;                                /* outside the domain */
  EXPECT_ERROR(lodex_buffers_commit(b), LODEX_ERR_INVALID_ARGUMENT,
               g_size > 1 ? "outside the patch" : "outside the domain");
  EXPECT_ERROR(lodex_buffers_commit(b), LODEX_ERR_INVALID_ARGUMENT, "committed already");
  EXPECT_OK(lodex_buffers_free(b));
  EXPECT(step_count(g) == 2);
  b = open_filled(g, 2);
  EXPECT_OK(lodex_buffers_field(b, "position", LODEX_F8, 3, (void**)&pos));
  if (g_rank == 0) pos[3 * 2 + 2] = NAN;
  EXPECT_ERROR(lodex_buffers_commit(b), LODEX_ERR_INVALID_ARGUMENT, "finite");
  EXPECT_OK(lodex_buffers_free(b));
  b = open_filled(g, 2);
  EXPECT_OK(lodex_buffers_commit(b));
  EXPECT_OK(lodex_buffers_free(b));
  EXPECT(step_count(g) == 3);

  /* Left open at close: discarded. */
  b = open_filled(g, 3);
  EXPECT_OK(lodex_dataset_close(ds));
  EXPECT_ERROR(lodex_buffers_commit(b), LODEX_ERR_INVALID_ARGUMENT, "not a live");
  EXPECT_OK(lodex_buffers_free(b));

  /* Every committed step reads back as the rows filled, the discarded one is not there. */
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_NULL, 0, &ds));
  EXPECT_OK(lodex_particles_open(ds, "g", &g));
  EXPECT(step_count(g) == 3);
  for (int64_t step = 0; step < 3; ++step) {
    lodex_columns* cols = NULL;
    EXPECT_OK(lodex_particles_read(g, step, NULL, MPI_COMM_NULL, &cols));
    lodex_column m;
    EXPECT_OK(lodex_columns_find(cols, "mass", &m));
    uint64_t total = 0;
    for (int r = 0; r < g_size; ++r) total += (uint64_t)count_of(r, step);
    EXPECT(m.rows == total);
    double sum = 0, want = 0;
    for (uint64_t k = 0; k < m.rows; ++k) sum += ((const float*)m.data)[k];
    for (int r = 0; r < g_size; ++r)
      for (int i = 0; i < count_of(r, step); ++i) want += (float)(step * 1e4 + r * 1000 + i);
    EXPECT(sum == want);
    EXPECT_OK(lodex_columns_free(cols));
  }
  EXPECT_OK(lodex_dataset_close(ds));
}

int main(int argc, char** argv) {
  char path[8192];
  capi_test_begin(&argc, &argv, "buffers", path, sizeof path);
  test_same_bytes(path, "node", 0);
  test_same_bytes(path, "shm", LODEX_EXCHANGE_SHM);
  test_same_bytes(path, "p2p", LODEX_EXCHANGE_P2P);
  setenv("LODEX_RANKS_PER_NODE", "1", 1);   /* each rank a node of its own: partitions span nodes */
  test_same_bytes(path, "nodes", 0);
  unsetenv("LODEX_RANKS_PER_NODE");
  char misuse[8192 + 16];
  snprintf(misuse, sizeof misuse, "%s.misuse", path);
  test_misuse(misuse);
  return capi_test_end();
}
