/* Restarts through the C API, at any rank count: a particle group, a grid and a series written
 * for 10 steps, truncated after step 4, written again from step 5 with other values and read
 * back exactly; bad truncates (a negative step, ranks disagreeing, a dataset opened for reading,
 * a series window split) fail on every rank with nothing removed; the dataset's truncate removes
 * every group's steps at once and the dataset appends again after reopening.
 *
 *   mpiexec -n 3 ./capi_truncate_test SCRATCH_DIR
 */
#include <lodex.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"

enum { kParticles = 20, kSteps = 10 };

/* The value of sample `i` of rank `rank` at `step`, written in `run` (0: the first run, 1: the
 * restart's). */
static double value(int run, int64_t step, int rank, int i) { return run * 1e6 + step * 1e4 + rank * 100 + i; }

typedef struct Groups {
  lodex_particles* p;
  lodex_grid* g;
  lodex_series* s;
} Groups;

static Groups define(lodex_dataset* ds) {
  Groups out = {NULL, NULL, NULL};
  const lodex_field_def pf[] = {{"position", LODEX_F8, 3}, {"mass", LODEX_F8, 1}};
  const double domain[6] = {0, 0, 0, 1, 1, 1};
  EXPECT_OK(lodex_particles_define(ds, "p", pf, 2, domain, NULL, NULL, &out.p));
  lodex_grid_def gd;
  EXPECT_OK(lodex_grid_def_init(&gd));
  const lodex_field_def gf = {"rho", LODEX_F8, 1};
  gd.dims[0] = 4, gd.dims[1] = 4, gd.dims[2] = 2 * (uint64_t)g_size;
  gd.fields = &gf;
  gd.num_fields = 1;
  gd.bits_per_block = 4;
  EXPECT_OK(lodex_grid_define(ds, "g", &gd, &out.g));
  lodex_series_def sd;
  EXPECT_OK(lodex_series_def_init(&sd));
  const lodex_series_var v = {"T", LODEX_F8, 3};
  sd.dims[0] = 3, sd.dims[1] = 2 * g_size, sd.dims[2] = 2;
  sd.variables = &v;
  sd.num_variables = 1;
  sd.d_tar = 5;   /* windows of steps 0-4 and 5-9 */
  sd.d_sar = 0;
  EXPECT_OK(lodex_series_define(ds, "s", &sd, &out.s));
  return out;
}

/* Step `step` of every group: each rank its slab (particles along x, the grid along z, the series
 * along y), sample i of the slab valued value(run, step, rank, i). */
static void write_step(Groups gr, int run, int64_t step) {
  double pos[3 * kParticles], mass[kParticles], slab[4 * 4 * 2];
  for (int i = 0; i < kParticles; ++i) {
    pos[3 * i] = (g_rank + (i + 0.5) / kParticles) / g_size;
    pos[3 * i + 1] = pos[3 * i + 2] = 0.5;
    mass[i] = value(run, step, g_rank, i);
  }
  const lodex_field_data pd[] = {{"position", LODEX_F8, 3, kParticles, pos}, {"mass", LODEX_F8, 1, kParticles, mass}};
  EXPECT_OK(lodex_particles_write(gr.p, step, pd, 2, NULL));
  for (int i = 0; i < 32; ++i) slab[i] = value(run, step, g_rank, i);
  const lodex_field_data gd = {"rho", LODEX_F8, 1, 32, slab};
  const int64_t gbox[6] = {0, 0, 2 * g_rank, 4, 4, 2 * g_rank + 2};
  EXPECT_OK(lodex_grid_write(gr.g, step, gbox, &gd, 1));
  const lodex_field_data sd = {"T", LODEX_F8, 1, 12, slab};
  const int64_t sbox[6] = {0, 2 * g_rank, 0, 3, 2 * g_rank + 2, 2};
  EXPECT_OK(lodex_series_write(gr.s, step, sbox, &sd, 1));
}

static int compare_doubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Every group reads `step` exactly as `run` wrote it (here, serially, on every rank). */
static int step_reads_as(Groups gr, int run, int64_t step) {
  int ok = 1;
  lodex_columns* cols = NULL;
  lodex_column mass;
  if (lodex_particles_read(gr.p, step, NULL, MPI_COMM_NULL, &cols) != LODEX_OK) return 0;
  ok &= lodex_columns_find(cols, "mass", &mass) == LODEX_OK && mass.rows == (uint64_t)(kParticles * g_size);
  if (ok) {
    double* got = malloc(mass.bytes);
    memcpy(got, mass.data, mass.bytes);
    qsort(got, mass.rows, sizeof(double), compare_doubles);
    for (int r = 0; r < g_size; ++r)
      for (int i = 0; i < kParticles; ++i) ok &= got[r * kParticles + i] == value(run, step, r, i);
    free(got);
  }
  lodex_columns_free(cols);
  const uint64_t n = 32 * (uint64_t)g_size;
  double* grid = malloc(n * sizeof(double));
  ok &= lodex_grid_read(gr.g, "rho", step, NULL, -1, MPI_COMM_NULL, grid, n * sizeof(double), NULL) == LODEX_OK;
  for (uint64_t k = 0; ok && k < n; ++k) ok &= grid[k] == value(run, step, (int)(k / 32), (int)(k % 32));
  /* The series (z, y, x): rank r's slab holds y in [2r, 2r + 2), its sample i = (z * 2 + y % 2) * 3 + x. */
  const uint64_t m = 12 * (uint64_t)g_size;
  double* series = malloc(m * sizeof(double));
  ok &= lodex_series_read(gr.s, "T", &step, 1, NULL, -1, MPI_COMM_NULL, series, m * sizeof(double)) == LODEX_OK;
  for (uint64_t k = 0; ok && k < m; ++k) {
    const int x = (int)(k % 3), y = (int)(k / 3 % (2 * (uint64_t)g_size)), z = (int)(k / (6 * (uint64_t)g_size));
    ok &= series[k] == value(run, step, y / 2, (z * 2 + y % 2) * 3 + x);
  }
  free(grid);
  free(series);
  return ok;
}

/* Every group has `count` steps, the last one `last`. */
static int last_is(Groups gr, size_t count, int64_t last) {
  int64_t s[3][kSteps];
  size_t n[3] = {0, 0, 0};
  int ok = lodex_particles_steps(gr.p, s[0], kSteps, &n[0]) == LODEX_OK &&
           lodex_grid_steps(gr.g, s[1], kSteps, &n[1]) == LODEX_OK &&
           lodex_series_steps(gr.s, s[2], kSteps, &n[2]) == LODEX_OK;
  for (int k = 0; k < 3; ++k) ok &= n[k] == count && (count == 0 || s[k][count - 1] == last);
  return ok;
}

static void test_bad_truncates(lodex_dataset* ds, Groups gr) {
  uint64_t removed = 99;
  EXPECT_ERROR(lodex_particles_truncate(gr.p, -2, &removed), LODEX_ERR_INVALID_ARGUMENT, "-2 is negative");
  EXPECT(removed == 99);
  if (g_size > 1)
    EXPECT_ERROR(lodex_grid_truncate(gr.g, g_rank == g_size - 1 ? 3 : 4, NULL), LODEX_ERR_INVALID_ARGUMENT,
                 "ranks disagree");
  EXPECT_ERROR(lodex_series_truncate(gr.s, 2, NULL), LODEX_ERR_INVALID_ARGUMENT, "splits window w-000000000000.lsw");
  EXPECT_ERROR(lodex_dataset_truncate(ds, 7, NULL), LODEX_ERR_INVALID_ARGUMENT,
               "after 4 (removing the window) or after 9 (keeping it)");
  EXPECT_ERROR(lodex_particles_truncate(NULL, 4, NULL), LODEX_ERR_INVALID_ARGUMENT, "NULL");
  EXPECT(last_is(gr, kSteps, kSteps - 1));   /* nothing was removed */
}

static void test_read_only(const char* path) {
  lodex_dataset* ro = NULL;
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_WORLD, 0, &ro));
  EXPECT_ERROR(lodex_dataset_truncate(ro, 4, NULL), LODEX_ERR_INVALID_ARGUMENT, "open for reading");
  lodex_particles* p = NULL;
  EXPECT_OK(lodex_particles_open(ro, "p", &p));
  EXPECT_ERROR(lodex_particles_truncate(p, 4, NULL), LODEX_ERR_INVALID_ARGUMENT, "open for reading");
  EXPECT_OK(lodex_dataset_close(ro));
}

int main(int argc, char** argv) {
  char path[4200];
  capi_test_begin(&argc, &argv, "truncate.lodex", path, sizeof path);

  lodex_dataset* ds = NULL;
  EXPECT_OK(lodex_dataset_create(path, MPI_COMM_WORLD, 0, &ds));
  Groups gr = define(ds);
  for (int64_t step = 0; step < kSteps; ++step) write_step(gr, 0, step);
  test_bad_truncates(ds, gr);
  test_read_only(path);

  /* The restart from the checkpoint of step 4: the later steps go, and are written again. */
  uint64_t removed = 0;
  EXPECT_OK(lodex_particles_truncate(gr.p, 4, &removed));
  EXPECT(removed == 5);
  EXPECT_OK(lodex_grid_truncate(gr.g, 4, &removed));
  EXPECT(removed == 5);
  EXPECT_OK(lodex_series_truncate(gr.s, 4, &removed));
  EXPECT(removed == 5);
  EXPECT(last_is(gr, 5, 4));
  EXPECT_OK(lodex_dataset_truncate(ds, 4, &removed));   /* nothing after 4 any more */
  EXPECT(removed == 0);
  for (int64_t step = 5; step < kSteps; ++step) write_step(gr, 1, step);
  EXPECT_OK(lodex_series_flush(gr.s));
  EXPECT(last_is(gr, kSteps, kSteps - 1));
  for (int64_t step = 0; step < kSteps; ++step) EXPECT(step_reads_as(gr, step < 5 ? 0 : 1, step));
  EXPECT_OK(lodex_dataset_close(ds));

  /* Every step of every group at once, then the dataset appends again. */
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_APPEND, MPI_COMM_WORLD, 0, &ds));
  EXPECT_OK(lodex_particles_open(ds, "p", &gr.p));
  EXPECT_OK(lodex_grid_open(ds, "g", &gr.g));
  EXPECT_OK(lodex_series_open(ds, "s", &gr.s));
  EXPECT_OK(lodex_dataset_truncate(ds, LODEX_TRUNCATE_ALL, &removed));
  EXPECT(removed == 3 * kSteps);
  EXPECT(last_is(gr, 0, 0));
  write_step(gr, 1, 0);
  EXPECT_OK(lodex_series_flush(gr.s));
  EXPECT(last_is(gr, 1, 0) && step_reads_as(gr, 1, 0));
  EXPECT_OK(lodex_dataset_close(ds));

  return capi_test_end();
}
