/* Collective calls of the C API whose ranks disagree, and handles and communicators that are no
 * longer valid: ranks passing different (each valid) steps, query texts, open modes or paths get
 * LODEX_ERR_INVALID_ARGUMENT on every rank, naming what differs; a freed communicator is
 * LODEX_ERR_MPI (not MPI's fatal error handler); a released handle stays dead even when a new
 * handle takes its memory.
 *
 *   mpiexec -n 3 ./capi_collective_test SCRATCH_DIR
 */
#include <lodex.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"

/* Two steps of particles (mass = step * 1000 + rank * 100 + i) and of an 8 x 8 x 4*size grid (value = step + 1). */
static void write_dataset(const char* path) {
  lodex_dataset* ds = NULL;
  EXPECT_OK(lodex_dataset_create(path, MPI_COMM_WORLD, 0, &ds));
  const lodex_field_def fields[] = {{"position", LODEX_F8, 3}, {"mass", LODEX_F4, 1}};
  const double domain[6] = {0, 0, 0, 1, 1, 1};
  lodex_particles* g = NULL;
  EXPECT_OK(lodex_particles_define(ds, "p", fields, 2, domain, NULL, NULL, &g));
  lodex_grid_def def;
  EXPECT_OK(lodex_grid_def_init(&def));
  const lodex_field_def rho = {"rho", LODEX_F4, 1};
  def.dims[0] = 8, def.dims[1] = 8, def.dims[2] = 4 * (uint64_t)g_size;
  def.fields = &rho;
  def.num_fields = 1;
  lodex_grid* grid = NULL;
  EXPECT_OK(lodex_grid_define(ds, "rho", &def, &grid));
  double pos[3 * 20];
  float mass[20], values[256];
  for (int64_t step = 0; step < 2; ++step) {
    for (int i = 0; i < 20; ++i) {
      pos[3 * i] = (g_rank + (i + 0.5) / 20) / g_size;
      pos[3 * i + 1] = pos[3 * i + 2] = 0.5;
      mass[i] = (float)(step * 1000 + g_rank * 100 + i);
    }
    const lodex_field_data data[] = {{"position", LODEX_F8, 3, 20, pos}, {"mass", LODEX_F4, 1, 20, mass}};
    EXPECT_OK(lodex_particles_write(g, step, data, 2, NULL));
    for (int i = 0; i < 256; ++i) values[i] = (float)(step + 1);
    const lodex_field_data cells = {"rho", LODEX_F4, 1, 256, values};
    const int64_t box[6] = {0, 0, 4 * g_rank, 8, 8, 4 * g_rank + 4};
    EXPECT_OK(lodex_grid_write(grid, step, box, &cells, 1));
  }
  EXPECT_OK(lodex_dataset_close(ds));
}

static void test_different_arguments(const char* path) {
  const int odd = g_rank == g_size - 1 && g_size > 1;   /* the last rank differs */
  lodex_dataset* ds = NULL;
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_WORLD, 0, &ds));
  lodex_particles* g = NULL;
  lodex_grid* grid = NULL;
  EXPECT_OK(lodex_particles_open(ds, "p", &g));
  EXPECT_OK(lodex_grid_open(ds, "rho", &grid));

  lodex_query q;
  EXPECT_OK(lodex_query_init(&q));
  q.text = odd ? "mass > 1010" : "mass >= 0";
  lodex_query_result* r = NULL;
  const int want = g_size > 1 ? LODEX_ERR_INVALID_ARGUMENT : LODEX_OK;
  int rc = lodex_particles_query(g, 1, &q, MPI_COMM_WORLD, &r);
  if (g_size > 1) expect_error(rc, want, "passed different query text", __LINE__);
  else {
    EXPECT_OK(rc);
    EXPECT_OK(lodex_query_result_free(r));
  }
  q.text = "mass >= 0";
  rc = lodex_particles_query(g, odd ? 0 : 1, &q, MPI_COMM_WORLD, &r);
  if (g_size > 1) expect_error(rc, want, "passed different step", __LINE__);
  else {
    EXPECT_OK(rc);
    EXPECT_OK(lodex_query_result_free(r));
  }

  lodex_grid_part part;
  EXPECT_OK(lodex_grid_read_part(grid, NULL, 0, NULL, -1, MPI_COMM_WORLD, &part));
  float* buffer = malloc(part.bytes + 4);
  rc = lodex_grid_read(grid, "rho", odd ? 1 : 0, NULL, -1, MPI_COMM_WORLD, buffer, part.bytes, NULL);
  if (g_size > 1) expect_error(rc, want, "grid read passed different step", __LINE__);
  else EXPECT_OK(rc);
  free(buffer);
  EXPECT_OK(lodex_dataset_close(ds));

  rc = lodex_dataset_open(path, odd ? LODEX_MODE_APPEND : LODEX_MODE_READ, MPI_COMM_WORLD, 0, &ds);
  if (g_size > 1) expect_error(rc, want, "open passed different mode", __LINE__);
  else {
    EXPECT_OK(rc);
    EXPECT_OK(lodex_dataset_close(ds));
  }
  char other[4300];
  path_of(other, sizeof other, odd ? "collective.lodex.created-odd" : "collective.lodex.created");
  rc = lodex_dataset_create(other, MPI_COMM_WORLD, 0, &ds);
  if (g_size > 1) expect_error(rc, want, "create passed different path", __LINE__);
  else {
    EXPECT_OK(rc);
    EXPECT_OK(lodex_dataset_close(ds));
  }
}

static void test_freed_communicator(const char* path) {
  MPI_Comm c = MPI_COMM_NULL, stale;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  stale = c;
  MPI_Comm_free(&c);
  lodex_dataset* ds = NULL;
  EXPECT_ERROR(lodex_dataset_open(path, LODEX_MODE_READ, stale, 0, &ds), LODEX_ERR_MPI, "communicator is not valid");
  EXPECT(ds == NULL);
  /* MPI_COMM_WORLD's error handler is the caller's again: still the default (fatal) one. */
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  EXPECT(eh == MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&eh);
}

/* A released handle whose memory a new handle of the same kind takes: still refused. */
static void test_released_handles(const char* path) {
  lodex_dataset* old = NULL;
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_NULL, 0, &old));
  EXPECT_OK(lodex_dataset_close(old));
  lodex_dataset* fresh[8];
  for (int i = 0; i < 8; ++i) EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_NULL, 0, &fresh[i]));
  const char* p = NULL;
  EXPECT_ERROR(lodex_dataset_path(old, &p), LODEX_ERR_INVALID_ARGUMENT, "not a live lodex_dataset");
  EXPECT(p == NULL);
  for (int i = 0; i < 8; ++i) EXPECT(fresh[i] != old);
  for (int i = 0; i < 8; ++i) EXPECT_OK(lodex_dataset_close(fresh[i]));

  lodex_dataset* ds = NULL;
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_NULL, 0, &ds));
  lodex_particles* g = NULL;
  EXPECT_OK(lodex_particles_open(ds, "p", &g));
  lodex_read_request req;
  EXPECT_OK(lodex_read_request_init(&req));
  lodex_columns* first = NULL;
  EXPECT_OK(lodex_particles_read(g, 0, &req, MPI_COMM_NULL, &first));
  EXPECT_OK(lodex_columns_free(first));
  lodex_columns* second = NULL;
  EXPECT_OK(lodex_particles_read(g, 1, &req, MPI_COMM_NULL, &second));
  size_t count = 99;
  EXPECT_ERROR(lodex_columns_count(first, &count), LODEX_ERR_INVALID_ARGUMENT, "not a live lodex_columns");
  EXPECT(count == 99);
  EXPECT_OK(lodex_columns_count(second, &count));
  EXPECT(count == 2);
  EXPECT_OK(lodex_columns_free(second));
  EXPECT_OK(lodex_dataset_close(ds));
  /* Every call through an IDX handle (the grid's .idx). */
  char idx_path[4300];
  path_of(idx_path, sizeof idx_path, "collective.lodex/rho.idx");
  lodex_idx* idx = NULL;
  EXPECT_OK(lodex_idx_open(idx_path, &idx));
  lodex_grid_info info;
  EXPECT_OK(lodex_idx_info_get(idx, &info));
  EXPECT(info.dims[0] == 8 && info.dims[1] == 8 && info.dims[2] == 4 * (uint64_t)g_size && info.max_resolution > 0);
  lodex_field_def field;
  EXPECT_OK(lodex_idx_field(idx, 0, &field));
  EXPECT(strcmp(field.name, "rho") == 0);
  lodex_grid_part ipart;
  EXPECT_OK(lodex_idx_read_part(idx, NULL, 0, NULL, -1, MPI_COMM_NULL, &ipart));
  float* all = malloc(ipart.bytes);
  EXPECT_OK(lodex_idx_read(idx, NULL, 0, NULL, -1, MPI_COMM_NULL, all, ipart.bytes, NULL));
  EXPECT(all[0] == 1.0f);
  free(all);
  EXPECT_OK(lodex_idx_close(idx));
  EXPECT_ERROR(lodex_idx_info_get(idx, &info), LODEX_ERR_INVALID_ARGUMENT, "not a live lodex_idx");
  /* A group handle dies with its dataset, whatever is opened next. */
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_NULL, 0, &ds));
  lodex_particles* again = NULL;
  EXPECT_OK(lodex_particles_open(ds, "p", &again));
  EXPECT(again != g);
  EXPECT_ERROR(lodex_particles_steps(g, NULL, 0, &count), LODEX_ERR_INVALID_ARGUMENT, "not a live lodex_particles");
  EXPECT_OK(lodex_dataset_close(ds));
}

int main(int argc, char** argv) {
  char path[4200];
  capi_test_begin(&argc, &argv, "collective.lodex", path, sizeof path);
  write_dataset(path);
  test_different_arguments(path);
  test_freed_communicator(path);
  test_released_handles(path);
  /* Nothing was created by the create whose paths differed. */
  char created[4300];
  path_of(created, sizeof created, "collective.lodex.created-odd");
  FILE* f = fopen(created, "r");
  EXPECT(f == NULL || g_size == 1);
  if (f) fclose(f);

  return capi_test_end();
}
