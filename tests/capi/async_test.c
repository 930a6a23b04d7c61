/* Asynchronous grid and series steps through the C API, at any rank count: lodex_grid_write_async
 * and lodex_series_write_async with the buffers overwritten right after each call (the steps must
 * not see it), nothing committed before the next collective call, lodex_pending_wait/_done/_free
 * on grid and series handles, blocked_s in the profile, bad flags refused on every rank with
 * nothing pending, the last steps committed by lodex_dataset_close, and every step read back.
 * Then the budget of steps in flight: lodex_dataset_set_pending_budget and
 * lodex_dataset_pending_bytes (no bound, 0, a large budget; ranks that disagree; read mode).
 * The profiles name the path the steps took: "helper-mpi" under MPI_THREAD_MULTIPLE (ctest runs
 * it a second time with LODEX_TEST_THREAD_MULTIPLE=1), "caller-aggregates" after MPI_Init.
 *
 *   mpiexec -n 3 ./capi_async_test SCRATCH_DIR
 */
#include <lodex.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"

enum { kSteps = 5 };

static double value(int64_t step, int rank, int i) { return step * 1e4 + rank * 100 + i; }

static void define(lodex_dataset* ds, lodex_grid** g, lodex_series** s) {
  lodex_grid_def gd;
  EXPECT_OK(lodex_grid_def_init(&gd));
  const lodex_field_def gf = {"rho", LODEX_F8, 1};
  gd.dims[0] = 4, gd.dims[1] = 4, gd.dims[2] = 2 * (uint64_t)g_size;
  gd.fields = &gf;
  gd.num_fields = 1;
  gd.bits_per_block = 4;
  EXPECT_OK(lodex_grid_define(ds, "g", &gd, g));
  lodex_series_def sd;
  EXPECT_OK(lodex_series_def_init(&sd));
  const lodex_series_var v = {"T", LODEX_F8, 3};
  sd.dims[0] = 3, sd.dims[1] = 2 * g_size, sd.dims[2] = 2;
  sd.variables = &v;
  sd.num_variables = 1;
  sd.d_tar = 2;   /* steps 1 and 3 complete a window */
  sd.d_sar = 0;
  EXPECT_OK(lodex_series_define(ds, "s", &sd, s));
}

static size_t grid_count(lodex_grid* g) {
  size_t n = 99;
  EXPECT_OK(lodex_grid_steps(g, NULL, 0, &n));
  return n;
}

static size_t series_count(lodex_series* s) {
  size_t n = 99;
  EXPECT_OK(lodex_series_steps(s, NULL, 0, &n));
  return n;
}

/* The profile's async_path this MPI's thread level gives asynchronous steps. */
static const char* expected_path(void) {
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  return level == MPI_THREAD_MULTIPLE ? "\"async_path\": \"helper-mpi\"" : "\"async_path\": \"caller-aggregates\"";
}

static int done_of(lodex_pending* p) {
  int d = -1;
  EXPECT_OK(lodex_pending_done(p, &d));
  return d;
}

static void write_steps(lodex_grid* g, lodex_series* s) {
  double slab[32];
  const int64_t gbox[6] = {0, 0, 2 * g_rank, 4, 4, 2 * g_rank + 2};
  const int64_t sbox[6] = {0, 2 * g_rank, 0, 3, 2 * g_rank + 2, 2};
  const lodex_field_data gdata = {"rho", LODEX_F8, 1, 32, slab};
  const lodex_field_data sdata = {"T", LODEX_F8, 1, 12, slab};
  lodex_pending* pg = NULL;
  lodex_pending* ps = NULL;
  for (int64_t step = 0; step < kSteps; ++step) {
    for (int i = 0; i < 32; ++i) slab[i] = value(step, g_rank, i);
    lodex_pending_free(pg);
    pg = NULL;
    const unsigned flags = step % 2 ? LODEX_WRITE_NO_COPY : 0;
    EXPECT_OK(lodex_grid_write_async(g, step, gbox, &gdata, 1, flags, &pg));
    EXPECT(pg != NULL);
    EXPECT(grid_count(g) == (size_t)step);   /* the previous step committed, not this one */
    for (int i = 0; i < 32; ++i) slab[i] = -1;   /* reused at once: the grid's step may not see it */
    for (int i = 0; i < 32; ++i) slab[i] = value(step, g_rank, i);
    lodex_pending_free(ps);
    ps = NULL;
    EXPECT_OK(lodex_series_write_async(s, step, sbox, &sdata, 1, flags, &ps));
    for (int i = 0; i < 32; ++i) slab[i] = -1;   /* nor the series' */
    /* Windows (0, 1) and (2, 3): pending from the write completing them until the next call. */
    EXPECT(series_count(s) == (size_t)(step < 2 ? 0 : step < 4 ? 2 : 4));
    if (step % 2 == 0) EXPECT(done_of(ps) == 1);   /* buffered only: done at once */
    if (step == 2) {
      EXPECT_OK(lodex_pending_wait(pg));   /* commits the grid's step 2 */
      EXPECT(grid_count(g) == 3 && done_of(pg) == 1);
      lodex_write_profile prof;
      const char* json = NULL;
      EXPECT_OK(lodex_grid_profile(g, &prof, &json));
      EXPECT(prof.step == 2 && prof.blocked_s > 0 && prof.bytes > 0);
      EXPECT(strstr(json, expected_path()) != NULL);
      EXPECT_OK(lodex_pending_wait(pg));   /* again: nothing left to do */
    }
    if (step == 3) {
      EXPECT_OK(lodex_pending_wait(ps));   /* commits the window (2, 3) */
      EXPECT(series_count(s) == 4 && done_of(ps) == 1);
      lodex_write_profile prof;
      const char* json = NULL;
      EXPECT_OK(lodex_series_profile(s, &prof, &json));
      EXPECT(prof.step == 3 && prof.blocked_s > 0 && strstr(json, "\"blocked_s\"") != NULL);
      EXPECT(strstr(json, expected_path()) != NULL);
    }
  }
  /* Bad flags: refused on every rank, nothing pending (the grid's step 4 is still the pending one). */
  lodex_pending* bad = (lodex_pending*)1;
  EXPECT_ERROR(lodex_grid_write_async(g, kSteps, gbox, &gdata, 1, 4, &bad), LODEX_ERR_INVALID_ARGUMENT,
               "LODEX_WRITE_NO_COPY");
  EXPECT(bad == NULL);
  EXPECT(grid_count(g) == kSteps);   /* the refused call still completed step 4 first */
  EXPECT_OK(lodex_pending_free(pg));
  EXPECT_OK(lodex_pending_free(ps));
  EXPECT_OK(lodex_pending_free(NULL));
}

static int reads_back(const char* path) {
  lodex_dataset* ds = NULL;
  lodex_grid* g = NULL;
  lodex_series* s = NULL;
  if (lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_NULL, 0, &ds) != LODEX_OK) return 0;
  int ok = lodex_grid_open(ds, "g", &g) == LODEX_OK && lodex_series_open(ds, "s", &s) == LODEX_OK;
  ok &= grid_count(g) == kSteps && series_count(s) == kSteps;
  const uint64_t n = 32 * (uint64_t)g_size, m = 12 * (uint64_t)g_size;
  double* buf = malloc(n * sizeof(double));
  for (int64_t step = 0; ok && step < kSteps; ++step) {
    ok &= lodex_grid_read(g, "rho", step, NULL, -1, MPI_COMM_NULL, buf, n * sizeof(double), NULL) == LODEX_OK;
    for (uint64_t k = 0; ok && k < n; ++k) ok &= buf[k] == value(step, (int)(k / 32), (int)(k % 32));
    ok &= lodex_series_read(s, "T", &step, 1, NULL, -1, MPI_COMM_NULL, buf, m * sizeof(double)) == LODEX_OK;
    for (uint64_t k = 0; ok && k < m; ++k) {
      const int x = (int)(k % 3), y = (int)(k / 3 % (2 * (uint64_t)g_size)), z = (int)(k / (6 * (uint64_t)g_size));
      ok &= buf[k] == value(step, y / 2, (z * 2 + y % 2) * 3 + x);
    }
  }
  free(buf);
  lodex_dataset_close(ds);
  return ok;
}

static uint64_t pending_of(const lodex_dataset* ds) {
  uint64_t b = 99;
  EXPECT_OK(lodex_dataset_pending_bytes(ds, &b));
  return b;
}

static void budget(const char* path) {
  lodex_dataset* ds = NULL;
  lodex_grid* g = NULL;
  lodex_series* s = NULL;
  EXPECT_OK(lodex_dataset_create(path, MPI_COMM_WORLD, 0, &ds));
  define(ds, &g, &s);
  double slab[32];
  for (int i = 0; i < 32; ++i) slab[i] = i;
  const int64_t box[6] = {0, 0, 2 * g_rank, 4, 4, 2 * g_rank + 2};
  const lodex_field_data data = {"rho", LODEX_F8, 1, 32, slab};
  EXPECT(pending_of(ds) == 0);
  EXPECT_OK(lodex_dataset_set_pending_budget(ds, LODEX_PENDING_UNBOUNDED));
  EXPECT_OK(lodex_grid_write_async(g, 0, box, &data, 1, 0, NULL));
  EXPECT(pending_of(ds) >= sizeof slab && grid_count(g) == 0);   /* in flight */
  EXPECT_OK(lodex_dataset_set_pending_budget(ds, 0));   /* nothing may stay in flight */
  EXPECT_OK(lodex_grid_write_async(g, 1, box, &data, 1, 0, NULL));
  EXPECT(pending_of(ds) == 0 && grid_count(g) == 2);   /* step 0 completed, step 1 within the call */
  EXPECT_OK(lodex_dataset_set_pending_budget(ds, (uint64_t)1 << 30));
  EXPECT_OK(lodex_grid_write_async(g, 2, box, &data, 1, 0, NULL));
  EXPECT(pending_of(ds) >= sizeof slab && grid_count(g) == 2);
  if (g_size > 1)   /* a rank with another budget would wait alone at the next write: refused */
    EXPECT_ERROR(lodex_dataset_set_pending_budget(ds, g_rank == 0 ? 100 : 200), LODEX_ERR_INVALID_ARGUMENT,
                 "max_pending_bytes");
  EXPECT_ERROR(lodex_dataset_pending_bytes(ds, NULL), LODEX_ERR_INVALID_ARGUMENT, "bytes is NULL");
  EXPECT_ERROR(lodex_dataset_set_pending_budget(NULL, 0), LODEX_ERR_INVALID_ARGUMENT, NULL);
  EXPECT_OK(lodex_dataset_close(ds));   /* commits step 2 */
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_WORLD, 0, &ds));
  EXPECT_OK(lodex_grid_open(ds, "g", &g));
  EXPECT(grid_count(g) == 3);
  EXPECT_ERROR(lodex_dataset_set_pending_budget(ds, 0), LODEX_ERR_INVALID_ARGUMENT, "open to read");
  EXPECT_OK(lodex_dataset_close(ds));
}

int main(int argc, char** argv) {
  char path[4200];
  capi_test_begin(&argc, &argv, "async.lodex", path, sizeof path);

  lodex_dataset* ds = NULL;
  lodex_grid* g = NULL;
  lodex_series* s = NULL;
  EXPECT_OK(lodex_dataset_create(path, MPI_COMM_WORLD, 0, &ds));
  define(ds, &g, &s);
  write_steps(g, s);
  EXPECT(series_count(s) == 4);   /* step 4 is buffered */
  EXPECT_OK(lodex_dataset_close(ds));   /* commits the grid's step 4 and flushes the series' */
  EXPECT(reads_back(path));
  char budget_path[4300];   /* beside the first: capi_test_begin clears "async.lodex.*" for a rerun */
  snprintf(budget_path, sizeof budget_path, "%s.budget", path);
  budget(budget_path);

  return capi_test_end();
}
