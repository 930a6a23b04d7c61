/* The writer lock through the C API, at any rank count: while rank 0 appends to a dataset alone
 * (MPI_COMM_SELF), a second writer over every rank is refused on every rank with
 * LODEX_ERR_ALREADY_EXISTS naming the holder (host:pid since ...); reading is never refused;
 * once the first writer closes, the second appends, and every step of both is there.
 *
 *   mpiexec -n 3 ./capi_lock_test SCRATCH_DIR
 */
#include <lodex.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capi_check.h"

enum { kParticles = 16 };

/* `ranks` writers' step `step`: rank r of them its particles along x. */
static void write_step(lodex_particles* p, int64_t step, int rank, int ranks) {
  double pos[3 * kParticles], mass[kParticles];
  for (int i = 0; i < kParticles; ++i) {
    pos[3 * i] = (rank + (i + 0.5) / kParticles) / ranks;
    pos[3 * i + 1] = pos[3 * i + 2] = 0.5;
    mass[i] = step * 1000 + rank * 100 + i;
  }
  const lodex_field_data d[] = {{"position", LODEX_F8, 3, kParticles, pos}, {"mass", LODEX_F8, 1, kParticles, mass}};
  EXPECT_OK(lodex_particles_write(p, step, d, 2, NULL));
}

static lodex_particles* group(lodex_dataset* ds) {
  lodex_particles* p = NULL;
  EXPECT_OK(lodex_particles_open(ds, "p", &p));
  return p;
}

int main(int argc, char** argv) {
  char path[4200];
  capi_test_begin(&argc, &argv, "lock.lodex", path, sizeof path);

  lodex_dataset* ds = NULL;
  EXPECT_OK(lodex_dataset_create(path, MPI_COMM_WORLD, 0, &ds));
  const lodex_field_def fields[] = {{"position", LODEX_F8, 3}, {"mass", LODEX_F8, 1}};
  const double domain[6] = {0, 0, 0, 1, 1, 1};
  lodex_particles* p = NULL;
  EXPECT_OK(lodex_particles_define(ds, "p", fields, 2, domain, NULL, NULL, &p));
  write_step(p, 0, g_rank, g_size);
  EXPECT_OK(lodex_dataset_close(ds));

  /* The first writer: rank 0 alone. */
  lodex_dataset* first = NULL;
  if (g_rank == 0) EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_APPEND, MPI_COMM_SELF, 0, &first));
  int holder = (int)getpid();
  MPI_Bcast(&holder, 1, MPI_INT, 0, MPI_COMM_WORLD);
  char needle[64];
  snprintf(needle, sizeof needle, ":%d since ", holder);

  /* The second, over every rank: refused on every rank, naming the holder; nothing opened. */
  lodex_dataset* second = NULL;
  EXPECT_ERROR(lodex_dataset_open(path, LODEX_MODE_APPEND, MPI_COMM_WORLD, 0, &second), LODEX_ERR_ALREADY_EXISTS,
               "is open for writing");
  EXPECT(strstr(lodex_last_error(), needle) != NULL);
  EXPECT(second == NULL);
  /* Reading never takes the lock. */
  lodex_dataset* ro = NULL;
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_WORLD, 0, &ro));
  EXPECT_OK(lodex_dataset_close(ro));

  if (g_rank == 0) {
    write_step(group(first), 1, 0, 1);
    EXPECT_OK(lodex_dataset_close(first));   /* releases the lock */
  }
  MPI_Barrier(MPI_COMM_WORLD);
  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_APPEND, MPI_COMM_WORLD, 0, &second));
  write_step(group(second), 2, g_rank, g_size);
  EXPECT_OK(lodex_dataset_close(second));

  EXPECT_OK(lodex_dataset_open(path, LODEX_MODE_READ, MPI_COMM_WORLD, 0, &ro));
  int64_t steps[4] = {-1, -1, -1, -1};
  size_t count = 0;
  EXPECT_OK(lodex_particles_steps(group(ro), steps, 4, &count));
  EXPECT(count == 3 && steps[0] == 0 && steps[1] == 1 && steps[2] == 2);
  EXPECT_OK(lodex_dataset_close(ro));

  return capi_test_end();
}
