/* The C API's error paths, in C, at any rank count: bad handles, NULL pointers, wrong dtypes,
 * bad boxes, a step written twice, and argument errors on one rank only. Every failing call must
 * return the same non-zero status on every rank with a message, nobody may hang, and what was
 * committed before must read back intact.
 *
 *   mpiexec -n 3 ./capi_errors_test SCRATCH_DIR
 */
#include <lodex.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capi_check.h"

static void test_version_and_names(void) {
  EXPECT(strcmp(lodex_version(), LODEX_VERSION) == 0);
  EXPECT(strcmp(lodex_status_name(LODEX_OK), "ok") == 0);
  EXPECT(strcmp(lodex_status_name(99), "unknown status") == 0);
  EXPECT(lodex_dtype_size(LODEX_F8) == 8 && lodex_dtype_size(LODEX_U2) == 2 && lodex_dtype_size(42) == 0);
}

static void test_bad_handles(lodex_dataset* ds, lodex_particles* g) {
  const char* path;
  EXPECT_ERROR(lodex_dataset_path(NULL, &path), LODEX_ERR_INVALID_ARGUMENT, "NULL");
  EXPECT_ERROR(lodex_dataset_path((const lodex_dataset*)g, &path), LODEX_ERR_INVALID_ARGUMENT,
               "is a lodex_particles handle");
  int not_a_handle = 7;
  EXPECT_ERROR(lodex_dataset_path((const lodex_dataset*)&not_a_handle, &path), LODEX_ERR_INVALID_ARGUMENT,
               "not a live lodex_dataset");
  size_t count;
  EXPECT_ERROR(lodex_particles_steps((const lodex_particles*)ds, NULL, 0, &count), LODEX_ERR_INVALID_ARGUMENT,
               "is a lodex_dataset handle");
  EXPECT_ERROR(lodex_columns_free((lodex_columns*)&not_a_handle), LODEX_ERR_INVALID_ARGUMENT, "not a live");
  EXPECT_OK(lodex_columns_free(NULL));
  EXPECT_ERROR(lodex_particles_steps(g, NULL, 0, NULL), LODEX_ERR_INVALID_ARGUMENT, "count is NULL");
  EXPECT_ERROR(lodex_particles_steps(g, NULL, 4, &count), LODEX_ERR_INVALID_ARGUMENT, "steps is NULL");
}

static lodex_particles* define(lodex_dataset* ds, const char* name, int bad_rank, int* status) {
  lodex_field_def fields[] = {{"position", LODEX_F8, 3}, {"mass", LODEX_F4, 1}};
  if (g_rank == bad_rank) fields[1].dtype = 42;
  const double domain[6] = {0, 0, 0, 1, 1, 1};
  lodex_particles* g = NULL;
  *status = lodex_particles_define(ds, name, fields, 2, domain, NULL, NULL, &g);
  return g;
}

/* Each rank writes n particles of its slab of the unit cube along x; `fault` damages one input
 * on rank `bad_rank`. With `pending`, asynchronously (lodex_particles_write_async with `flags`): the
 * arrays are freed right after the call, so only a copied step may be written so. */
enum Fault { kNone, kDtype, kNullData, kNanPatch, kNullName };
static int write_step_as(lodex_particles* g, int64_t step, int n, int bad_rank, enum Fault fault,
                         lodex_pending** pending, unsigned flags) {
  double* pos = malloc(3 * (size_t)n * sizeof(double));
  float* mass = malloc((size_t)n * sizeof(float));
  const double x0 = (double)g_rank / g_size, dx = 1.0 / g_size;
  for (int i = 0; i < n; ++i) {
    pos[3 * i] = x0 + dx * (i + 0.5) / n;
    pos[3 * i + 1] = pos[3 * i + 2] = (i + 0.5) / n;
    mass[i] = (float)(step * 1000 + g_rank * 100 + i);
  }
  lodex_field_data data[] = {{"position", LODEX_F8, 3, (uint64_t)n, pos}, {"mass", LODEX_F4, 1, (uint64_t)n, mass}};
  double patch[6] = {x0, 0, 0, x0 + dx, 1, 1};
  if (g_rank == bad_rank) {
    if (fault == kDtype) data[1].dtype = 0;
    if (fault == kNullData) data[0].data = NULL;
    if (fault == kNanPatch) patch[4] = NAN;
    if (fault == kNullName) data[1].name = NULL;
  }
  const int rc = pending ? lodex_particles_write_async(g, step, data, 2, patch, flags, pending)
                         : lodex_particles_write(g, step, data, 2, patch);
  free(pos);
  free(mass);
  return rc;
}

static int write_step(lodex_particles* g, int64_t step, int n, int bad_rank, enum Fault fault) {
  return write_step_as(g, step, n, bad_rank, fault, NULL, 0);
}

static void test_definitions(lodex_dataset* ds) {
  int status;
  define(ds, "bad_everywhere", -2, &status);  /* no bad rank: control */
  EXPECT_OK(status);
  define(ds, "bad_on_last", g_size - 1, &status);
  EXPECT_ERROR(status, LODEX_ERR_INVALID_ARGUMENT, "42 is not a dtype");
  lodex_particles* g;
  EXPECT_ERROR(lodex_particles_open(ds, "bad_on_last", &g), LODEX_ERR_NOT_FOUND, "bad_on_last");
  EXPECT_ERROR(lodex_particles_define(ds, "p", NULL, 2, NULL, NULL, NULL, &g), LODEX_ERR_INVALID_ARGUMENT,
               "fields is NULL");
}

static void test_writes(lodex_particles* g) {
  const int n = 50;
  EXPECT_OK(write_step(g, 0, n, -1, kNone));
  /* Faults on one rank (the last): every rank fails with that rank's message. */
  const int last = g_size - 1;
  char rank_prefix[32];
  snprintf(rank_prefix, sizeof rank_prefix, g_size > 1 ? "rank %d: " : "", last);
  EXPECT_ERROR(write_step(g, 1, n, last, kDtype), LODEX_ERR_INVALID_ARGUMENT, rank_prefix);
  EXPECT_ERROR(write_step(g, 1, n, last, kNullData), LODEX_ERR_INVALID_ARGUMENT, "data is NULL");
  EXPECT_ERROR(write_step(g, 1, n, last, kNanPatch), LODEX_ERR_INVALID_ARGUMENT, "not finite");
  EXPECT_ERROR(write_step(g, 1, n, last, kNullName), LODEX_ERR_INVALID_ARGUMENT, "name is NULL");
  EXPECT_ERROR(write_step(g, 0, n, -1, kNone), LODEX_ERR_ALREADY_EXISTS, NULL);
  EXPECT_OK(write_step(g, 1, n, -1, kNone));
  size_t count = 0;
  int64_t steps[4];
  EXPECT_OK(lodex_particles_steps(g, steps, 4, &count));
  EXPECT(count == 2 && steps[0] == 0 && steps[1] == 1);

  /* Asynchronous steps: bad flags and inputs refused at the call on every rank; a copied step
   * survives its arrays freed at once and commits at lodex_pending_wait. */
  lodex_pending* p = NULL;
  EXPECT_ERROR(write_step_as(g, 2, n, -1, kNone, &p, 6), LODEX_ERR_INVALID_ARGUMENT, "LODEX_WRITE_NO_COPY");
  EXPECT(p == NULL);
  EXPECT_ERROR(write_step_as(g, 2, n, last, kNullData, &p, 0), LODEX_ERR_INVALID_ARGUMENT, "data is NULL");
  EXPECT_OK(write_step_as(g, 2, n, -1, kNone, &p, 0));
  EXPECT_OK(lodex_particles_steps(g, steps, 4, &count));
  EXPECT(count == 2);   /* pending: not committed yet */
  int done = -1;
  EXPECT_OK(lodex_pending_done(p, &done));
  EXPECT(done == 0 || done == 1);
  EXPECT_ERROR(lodex_pending_done(p, NULL), LODEX_ERR_INVALID_ARGUMENT, "done is NULL");
  EXPECT_OK(lodex_pending_wait(p));
  EXPECT_OK(lodex_pending_done(p, &done));
  EXPECT(done == 1);
  EXPECT_OK(lodex_pending_wait(p));   /* again: nothing to do */
  EXPECT_OK(lodex_particles_steps(g, steps, 4, &count));
  EXPECT(count == 3 && steps[2] == 2);
  EXPECT_OK(lodex_pending_free(p));
  EXPECT_ERROR(lodex_pending_wait(p), LODEX_ERR_INVALID_ARGUMENT, "not a live");
  EXPECT_ERROR(lodex_pending_wait(NULL), LODEX_ERR_INVALID_ARGUMENT, NULL);
  EXPECT_OK(lodex_pending_free(NULL));
  lodex_write_profile prof;
  EXPECT_OK(lodex_particles_profile(g, &prof, NULL));
  EXPECT(prof.step == 2 && prof.blocked_s > 0 && prof.particles == (uint64_t)(n * g_size));
}

/* Positions as three arrays (fields "position/x", "position/y", "position/z"): step 5 of a fresh
 * group reads back as the rows the arrays describe, asynchronously without a copy too; a missing
 * component is refused by name on every rank, and the group takes the step afterwards. */
static void test_component_writes(lodex_dataset* ds) {
  int status;
  lodex_particles* g = define(ds, "components", -1, &status);
  EXPECT_OK(status);
  const int n = 40;
  double* xyz = malloc(3 * (size_t)n * sizeof(double));
  float* mass = malloc((size_t)n * sizeof(float));
  const double x0 = (double)g_rank / g_size, dx = 1.0 / g_size;
  for (int i = 0; i < n; ++i) {
    xyz[i] = x0 + dx * (i + 0.5) / n;          /* x */
    xyz[n + i] = (i + 0.25) / n;               /* y */
    xyz[2 * n + i] = 1.0 - (i + 0.5) / n;      /* z */
    mass[i] = (float)(g_rank * 1000 + i);
  }
  const double patch[6] = {x0, 0, 0, x0 + dx, 1, 1};
  lodex_field_data data[] = {{"position/x", LODEX_F8, 1, (uint64_t)n, xyz},
                             {"position/y", LODEX_F8, 1, (uint64_t)n, xyz + n},
                             {"position/z", LODEX_F8, 1, (uint64_t)n, xyz + 2 * n},
                             {"mass", LODEX_F4, 1, (uint64_t)n, mass}};
  data[2].name = "position/w";
  EXPECT_ERROR(lodex_particles_write(g, 5, data, 4, patch), LODEX_ERR_INVALID_ARGUMENT, "named x, y, z");
  data[2].name = "position/z";
  EXPECT_ERROR(lodex_particles_write(g, 5, data, 3, patch), LODEX_ERR_INVALID_ARGUMENT, "missing field 'mass'");
  lodex_field_data no_z[] = {data[0], data[1], data[3]};
  EXPECT_ERROR(lodex_particles_write(g, 5, no_z, 3, patch), LODEX_ERR_INVALID_ARGUMENT,
               "without component 2 (position/z)");
  EXPECT_OK(lodex_particles_write(g, 5, data, 4, patch));
  lodex_pending* p = NULL;
  EXPECT_OK(lodex_particles_write_async(g, 6, data, 4, patch, LODEX_WRITE_NO_COPY, &p));
  EXPECT_OK(lodex_pending_wait(p));
  EXPECT_OK(lodex_pending_free(p));
  for (int64_t step = 5; step <= 6; ++step) {
    lodex_columns* cols = NULL;
    EXPECT_OK(lodex_particles_read(g, step, NULL, MPI_COMM_NULL, &cols));
    lodex_column pos, m;
    EXPECT_OK(lodex_columns_find(cols, "position", &pos));
    EXPECT_OK(lodex_columns_find(cols, "mass", &m));
    EXPECT(pos.rows == (uint64_t)(n * g_size) && pos.components == 3 && m.rows == pos.rows);
    int bad = 0;
    for (uint64_t k = 0; k < pos.rows && k < m.rows; ++k) {   /* every row against its formula, by its mass */
      const float mk = ((const float*)m.data)[k];
      const int r = (int)mk / 1000, i = (int)mk % 1000;
      const double* q = (const double*)pos.data + 3 * k;
      if (q[0] != (double)r / g_size + dx * (i + 0.5) / n || q[1] != (i + 0.25) / n || q[2] != 1.0 - (i + 0.5) / n)
        ++bad;
    }
    EXPECT(bad == 0);
    EXPECT_OK(lodex_columns_free(cols));
  }
  free(xyz);
  free(mass);
}

/* Domains as simulations have them: a periodic group wraps positions on write (an atom a hair
 * below the minimum, one on the maximum), reads them inside [min, max), and returns the images of
 * a box across the periodic face; an automatic domain records each step's bounds; a particle
 * outside a fixed domain is refused with the count and the ways out, in no language's syntax. */
static void test_domains(lodex_dataset* ds) {
  const lodex_field_def fields[] = {{"position", LODEX_F8, 3}, {"mass", LODEX_F4, 1}};
  const double box[6] = {0, 0, 0, 10, 10, 10};
  lodex_domain d;
  EXPECT_OK(lodex_domain_init(&d, box));
  d.periodic[0] = d.periodic[2] = 1;
  lodex_particles* g = NULL;
  EXPECT_OK(lodex_particles_define_domain(ds, "periodic", fields, 2, &d, NULL, NULL, &g));
  int32_t periodic[3], automatic = -1;
  EXPECT_OK(lodex_particles_domain_kind(g, periodic, &automatic));
  EXPECT(periodic[0] == 1 && periodic[1] == 0 && periodic[2] == 1 && automatic == 0);
  double xyz[4][3] = {{-0.01, 5, 5}, {10, 10, 10}, {12.5, 1, -3}, {5, 5, 5}};
  float mass[4];
  for (int i = 0; i < 4; ++i) mass[i] = (float)(g_rank * 10 + i);
  lodex_field_data data[] = {{"position", LODEX_F8, 3, 4, xyz}, {"mass", LODEX_F4, 1, 4, mass}};
  EXPECT_OK(lodex_particles_write(g, 0, data, 2, NULL));
  EXPECT(xyz[0][0] == -0.01 && xyz[2][2] == -3);   /* the caller's arrays stay as given */
  lodex_columns* cols = NULL;
  EXPECT_OK(lodex_particles_read(g, 0, NULL, MPI_COMM_NULL, &cols));
  lodex_column pos, m;
  EXPECT_OK(lodex_columns_find(cols, "position", &pos));
  EXPECT_OK(lodex_columns_find(cols, "mass", &m));
  EXPECT(pos.rows == (uint64_t)(4 * g_size));
  int bad = 0;
  for (uint64_t k = 0; k < pos.rows; ++k) {
    const int i = (int)((const float*)m.data)[k] % 10;
    const double* q = (const double*)pos.data + 3 * k;
    const double want[4][3] = {{10 - 0.01, 5, 5}, {0, 10, 0}, {2.5, 1, 7}, {5, 5, 5}};
    for (int a = 0; a < 3; ++a) bad += fabs(q[a] - want[i][a]) > 1e-12;
  }
  EXPECT(bad == 0);
  EXPECT_OK(lodex_columns_free(cols));
  /* A box across the x face: the atom at 9.99 is read as its image at -0.01. */
  const double across[6] = {-1, 4, 4, 1, 6, 6};
  lodex_read_request r;
  EXPECT_OK(lodex_read_request_init(&r));
  r.box = across;
  EXPECT_OK(lodex_particles_read(g, 0, &r, MPI_COMM_NULL, &cols));
  EXPECT_OK(lodex_columns_find(cols, "position", &pos));
  EXPECT(pos.rows == (uint64_t)g_size && fabs(((const double*)pos.data)[0] + 0.01) < 1e-12);
  EXPECT_OK(lodex_columns_free(cols));

  lodex_domain a;
  EXPECT_OK(lodex_domain_init(&a, NULL));
  EXPECT(a.automatic == 1);
  lodex_particles* ga = NULL;
  EXPECT_OK(lodex_particles_define_domain(ds, "automatic", fields, 2, &a, NULL, NULL, &ga));
  double far[4][3] = {{-100, 0, 0}, {0, 50, 0}, {0, 0, 7}, {1, 1, 1}};
  data[0].data = far;
  EXPECT_OK(lodex_particles_write(ga, 3, data, 2, NULL));
  double sd[6];
  EXPECT_OK(lodex_particles_step_domain(ga, 3, sd));
  EXPECT(sd[0] == -100 && sd[1] == 0 && sd[2] == 0 && sd[3] == 1 && sd[4] == 50 && sd[5] == 7);
  EXPECT_ERROR(lodex_particles_step_domain(ga, 4, sd), LODEX_ERR_NOT_FOUND, "step 4");
  /* A level past the last reads the whole selection; the stats give the selection's levels. */
  lodex_read_request lr;
  EXPECT_OK(lodex_read_request_init(&lr));
  lr.level = 40;
  EXPECT_OK(lodex_particles_read(ga, 3, &lr, MPI_COMM_NULL, &cols));
  EXPECT_OK(lodex_columns_find(cols, "position", &pos));
  lodex_read_stats stats;
  EXPECT_OK(lodex_particles_read_stats(ga, &stats));
  EXPECT(pos.rows == (uint64_t)(4 * g_size) && stats.levels >= 1 && stats.levels < 40);
  EXPECT_OK(lodex_columns_free(cols));
  EXPECT_OK(lodex_particles_read(ga, 3, NULL, MPI_COMM_NULL, &cols));
  EXPECT_OK(lodex_particles_read_stats(ga, &stats));
  EXPECT(stats.levels == 0);   /* not a level-of-detail read */
  EXPECT_OK(lodex_columns_free(cols));

  lodex_particles* gf = NULL;
  EXPECT_OK(lodex_particles_define(ds, "fixed", fields, 2, box, NULL, NULL, &gf));
  EXPECT_ERROR(lodex_particles_write(gf, 0, data, 2, NULL), LODEX_ERR_INVALID_ARGUMENT,
               "particles of this rank's 4 are outside the domain");
  d.automatic = 1;
  EXPECT_ERROR(lodex_particles_define_domain(ds, "bad", fields, 2, &d, NULL, NULL, &gf), LODEX_ERR_INVALID_ARGUMENT,
               "needs a fixed domain");
}

/* One default partition in every language: a NULL partition is the whole domain as one partition
 * (no patches needed, NULL patches written at any rank count); a factor written without patches
 * is refused in words a C caller can act on, except by one writer, whose patch is the domain. */
static void test_default_partition(lodex_dataset* ds) {
  const lodex_field_def fields[] = {{"position", LODEX_F8, 3}, {"mass", LODEX_F4, 1}};
  const double domain[6] = {0, 0, 0, 1, 1, 1};
  lodex_particles* g = NULL;
  EXPECT_OK(lodex_particles_define(ds, "defaults", fields, 2, domain, NULL, NULL, &g));
  lodex_partition part;
  EXPECT_OK(lodex_partition_init(&part));
  EXPECT(part.mode == LODEX_PARTITION_GRID && part.dims[0] == 1 && part.dims[1] == 1 && part.dims[2] == 1);
  const int n = 30;
  double pos[3 * 30];
  float mass[30];
  for (int i = 0; i < n; ++i) {
    pos[3 * i] = (g_rank + (i + 0.5) / n) / g_size;
    pos[3 * i + 1] = pos[3 * i + 2] = (i + 0.5) / n;
    mass[i] = (float)i;
  }
  const lodex_field_data data[] = {{"position", LODEX_F8, 3, (uint64_t)n, pos},
                                   {"mass", LODEX_F4, 1, (uint64_t)n, mass}};
  EXPECT_OK(lodex_particles_write(g, 0, data, 2, NULL));
  lodex_columns* cols = NULL;
  EXPECT_OK(lodex_particles_read(g, 0, NULL, MPI_COMM_NULL, &cols));
  lodex_column m;
  EXPECT_OK(lodex_columns_find(cols, "mass", &m));
  EXPECT(m.rows == (uint64_t)(n * g_size));
  EXPECT_OK(lodex_columns_free(cols));

  part.mode = LODEX_PARTITION_FACTOR;
  lodex_particles* f = NULL;
  EXPECT_OK(lodex_particles_define(ds, "factor_no_patch", fields, 2, domain, &part, NULL, &f));
  if (g_size == 1) {
    EXPECT_OK(lodex_particles_write(f, 0, data, 2, NULL));
  } else {
    EXPECT_ERROR(lodex_particles_write(f, 0, data, 2, NULL), LODEX_ERR_INVALID_ARGUMENT,
                 "give every rank's patch to the write");
    char message[512];
    snprintf(message, sizeof message, "%s", lodex_last_error());
    EXPECT(strstr(message, "patch=") == NULL);
    /* Every rank giving the whole domain as its patch: overlapping patches, refused by name. */
    EXPECT_ERROR(lodex_particles_write(f, 0, data, 2, domain), LODEX_ERR_INVALID_ARGUMENT,
                 "ranks 0 and 1 give the same patch");
  }
}

static void test_reads(lodex_particles* g) {
  /* What was committed reads back exactly, on one process, through every result call. */
  lodex_columns* cols = NULL;
  EXPECT_OK(lodex_particles_read(g, 1, NULL, MPI_COMM_NULL, &cols));
  lodex_column mass;
  EXPECT_OK(lodex_columns_find(cols, "mass", &mass));
  EXPECT(mass.rows == (uint64_t)(50 * g_size) && mass.dtype == LODEX_F4 && mass.bytes == mass.rows * 4);
  double sum = 0, want = 0;
  for (uint64_t i = 0; i < mass.rows; ++i) sum += ((const float*)mass.data)[i];
  for (int r = 0; r < g_size; ++r)
    for (int i = 0; i < 50; ++i) want += 1000 + r * 100 + i;
  EXPECT(sum == want);
  float small[1];
  EXPECT_ERROR(lodex_columns_copy(cols, "mass", small, sizeof small), LODEX_ERR_INVALID_ARGUMENT, "buffer holds 4");
  EXPECT_ERROR(lodex_columns_find(cols, "nope", &mass), LODEX_ERR_NOT_FOUND, "columns: position, mass");
  EXPECT_OK(lodex_columns_free(cols));
  EXPECT_ERROR(lodex_columns_free(cols), LODEX_ERR_INVALID_ARGUMENT, "already released");

  /* Collective reads: a bad request on one rank fails everywhere; a missing step too. */
  lodex_read_request req;
  EXPECT_OK(lodex_read_request_init(&req));
  if (g_rank == 0) req.split = 9;
  EXPECT_ERROR(lodex_particles_read(g, 1, &req, MPI_COMM_WORLD, &cols), LODEX_ERR_INVALID_ARGUMENT, "split 9");
  EXPECT_OK(lodex_read_request_init(&req));
  const double inverted[6] = {0.5, 0, 0, 0.25, 1, 1};
  req.box = inverted;
  EXPECT(lodex_particles_read(g, 1, &req, MPI_COMM_WORLD, &cols) != LODEX_OK);
  EXPECT_ERROR(lodex_particles_read(g, 7, NULL, MPI_COMM_WORLD, &cols), LODEX_ERR_NOT_FOUND, NULL);
  const char* unknown[] = {"temperature"};
  EXPECT_OK(lodex_read_request_init(&req));
  req.fields = unknown;
  req.num_fields = 1;
  EXPECT_ERROR(lodex_particles_read(g, 1, &req, MPI_COMM_NULL, &cols), LODEX_ERR_NOT_FOUND, "temperature");
  EXPECT_ERROR(lodex_particles_read(g, 1, NULL, MPI_COMM_WORLD, g_rank == 0 ? NULL : &cols), LODEX_ERR_INVALID_ARGUMENT,
               "out is NULL");
  /* And the collective read itself still works afterwards: the parts add up. */
  EXPECT_OK(lodex_particles_read(g, 1, NULL, MPI_COMM_WORLD, &cols));
  EXPECT_OK(lodex_columns_find(cols, "mass", &mass));
  uint64_t total = 0;
  MPI_Allreduce(&mass.rows, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT(total == (uint64_t)(50 * g_size));
  EXPECT_OK(lodex_columns_free(cols));
}

static void test_queries(lodex_particles* g) {
  lodex_query q;
  EXPECT_OK(lodex_query_init(&q));
  q.text = "mass >";
  lodex_query_result* r = NULL;
  EXPECT_ERROR(lodex_particles_query(g, 1, &q, MPI_COMM_WORLD, &r), LODEX_ERR_INVALID_ARGUMENT, NULL);
  q.text = g_rank == g_size - 1 ? NULL : "mass > 1020";
  EXPECT_ERROR(lodex_particles_query(g, 1, &q, MPI_COMM_WORLD, &r), LODEX_ERR_INVALID_ARGUMENT, "query text is NULL");
  q.text = "mass > 1020";
  EXPECT_OK(lodex_particles_query(g, 1, &q, MPI_COMM_WORLD, &r));
  uint64_t count = 0;
  EXPECT_OK(lodex_query_result_count(r, &count, NULL));
  uint64_t want = 0;
  for (int rk = 0; rk < g_size; ++rk)
    for (int i = 0; i < 50; ++i) want += 1000 + rk * 100 + i > 1020;
  EXPECT(count == want);
  const lodex_columns* cols;
  EXPECT_OK(lodex_query_result_columns(r, &cols));
  EXPECT_ERROR(lodex_columns_free((lodex_columns*)cols), LODEX_ERR_INVALID_ARGUMENT, "belong to a query result");
  EXPECT_OK(lodex_query_result_free(r));
  const char* fields[] = {"mass"};
  EXPECT_ERROR(lodex_particles_build_index(g, fields, 1, 7, 3, NULL, 0, NULL), LODEX_ERR_INVALID_ARGUMENT, "binning 7");
}

static void test_grids(lodex_dataset* ds) {
  lodex_grid_def def;
  EXPECT_OK(lodex_grid_def_init(&def));
  const lodex_field_def f = {"rho", LODEX_F4, 1};
  def.dims[0] = 8, def.dims[1] = 8, def.dims[2] = 4 * (uint64_t)g_size;
  def.fields = &f;
  def.num_fields = 1;
  lodex_grid* grid;
  EXPECT_OK(lodex_grid_define(ds, "rho", &def, &grid));
  float values[8 * 8 * 4];
  for (int i = 0; i < 256; ++i) values[i] = (float)(g_rank * 256 + i);
  const lodex_field_data data = {"rho", LODEX_F4, 1, 256, values};
  int64_t box[6] = {0, 0, 4 * g_rank, 8, 8, 4 * g_rank + 4};
  int64_t overlapping[6] = {0, 0, 0, 8, 8, 4};
  EXPECT(lodex_grid_write(grid, 0, g_size > 1 ? overlapping : box, &data, 1) ==
         (g_size > 1 ? LODEX_ERR_INVALID_ARGUMENT : LODEX_OK));
  if (g_size > 1) EXPECT_OK(lodex_grid_write(grid, 0, box, &data, 1));
  EXPECT_ERROR(lodex_grid_write(grid, 0, box, &data, 1), LODEX_ERR_ALREADY_EXISTS, NULL);
  lodex_grid_part part;
  EXPECT_OK(lodex_grid_read_part(grid, NULL, 0, NULL, -1, MPI_COMM_WORLD, &part));
  float* buffer = malloc(part.bytes + 4);
  EXPECT_ERROR(lodex_grid_read(grid, "rho", 0, NULL, -1, MPI_COMM_WORLD, buffer, g_rank == 0 ? 0 : part.bytes, NULL),
               LODEX_ERR_INVALID_ARGUMENT, "buffer holds 0");
  EXPECT_OK(lodex_grid_read(grid, "rho", 0, NULL, -1, MPI_COMM_WORLD, buffer, part.bytes, NULL));
  /* Each rank's slab holds the values the rank that wrote those planes gave them. */
  int ok = 1;
  const uint64_t plane = part.shape[0] * part.shape[1];
  for (uint64_t z = 0; z < part.shape[2]; ++z)
    for (uint64_t i = 0; i < plane; ++i) {
      const int64_t gz = part.box[2] + (int64_t)z, writer = gz / 4;
      ok &= buffer[z * plane + i] == (float)(writer * 256 + (gz % 4) * 64 + (int64_t)i);
    }
  EXPECT(ok);
  free(buffer);
  int64_t outside[6] = {0, 0, 0, 9, 8, 1};
  EXPECT_ERROR(lodex_grid_read_part(grid, "rho", 0, outside, -1, MPI_COMM_NULL, &part), LODEX_ERR_INVALID_ARGUMENT,
               NULL);
  EXPECT_ERROR(lodex_grid_read_part(grid, "nope", 0, NULL, -1, MPI_COMM_NULL, &part), LODEX_ERR_NOT_FOUND, "nope");
  /* The grid's .idx through the IDX calls: flags other than LODEX_ALLOW_OUTSIDE are refused. */
  char idx_path[4300];
  path_of(idx_path, sizeof idx_path, "capi_errors.lodex/rho.idx");
  lodex_idx* idx = NULL;
  EXPECT_ERROR(lodex_idx_open_flags(idx_path, 8, &idx), LODEX_ERR_INVALID_ARGUMENT, "flags 8");
  EXPECT_OK(lodex_idx_open_flags(idx_path, LODEX_ALLOW_OUTSIDE, &idx));
  EXPECT_OK(lodex_idx_close(idx));
}

static void test_series(lodex_dataset* ds) {
  lodex_series_def def;
  EXPECT_OK(lodex_series_def_init(&def));
  const lodex_series_var v = {"T", LODEX_F8, 3};
  def.dims[0] = 4, def.dims[1] = 2 * g_size, def.dims[2] = 3;
  def.variables = &v;
  def.num_variables = 1;
  def.d_tar = 2;
  lodex_series* s;
  EXPECT_OK(lodex_series_define(ds, "T", &def, &s));
  double values[4 * 2 * 3];
  const int64_t box[6] = {0, 2 * g_rank, 0, 4, 2 * g_rank + 2, 3};
  const lodex_field_data data = {"T", LODEX_F8, 1, 24, values};
  for (int64_t step = 0; step < 3; ++step) {
    for (int i = 0; i < 24; ++i) values[i] = (double)(step * 1000 + g_rank * 24 + i);
    EXPECT_OK(lodex_series_write(s, step, box, &data, 1));
  }
  EXPECT_ERROR(lodex_series_write(s, 1, box, &data, 1), LODEX_ERR_ALREADY_EXISTS, "already has step 1");
  lodex_field_data wrong = data;
  if (g_rank == 0) wrong.dtype = LODEX_F4;
  EXPECT(lodex_series_write(s, 3, box, &wrong, 1) != LODEX_OK);
  EXPECT_OK(lodex_series_flush(s));
  size_t count = 0;
  EXPECT_OK(lodex_series_steps(s, NULL, 0, &count));
  EXPECT(count == 3);
  lodex_series_part part;
  int64_t mine[3];
  EXPECT_OK(lodex_series_read_part(s, "T", NULL, 0, NULL, MPI_COMM_WORLD, &part, mine, 3));
  double* out = malloc(part.bytes + 8);
  EXPECT_OK(lodex_series_read(s, "T", NULL, 0, NULL, -1, MPI_COMM_WORLD, out, part.bytes));
  /* Rank r wrote y in [2r, 2r + 2): T(step, x, y, z) = 1000 step + 24 (y / 2) + 8 z + 4 (y % 2) + x. */
  int ok = part.num_steps <= 3 && part.shape[0] == part.num_steps;
  uint64_t i = 0;
  for (uint64_t t = 0; ok && t < part.shape[0]; ++t)
    for (int64_t z = part.box[2]; z < part.box[5]; ++z)
      for (int64_t y = part.box[1]; y < part.box[4]; ++y)
        for (int64_t x = part.box[0]; x < part.box[3]; ++x)
          ok &= out[i++] == (double)(mine[t] * 1000 + 24 * (y / 2) + 8 * z + 4 * (y % 2) + x);
  EXPECT(ok && i * 8 == part.bytes);
  uint64_t total = 0, here = part.bytes;
  MPI_Allreduce(&here, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT(total == 3 * 4 * 2 * (uint64_t)g_size * 3 * 8);
  free(out);
  EXPECT_ERROR(lodex_series_read(s, "T", NULL, 0, NULL, -5, MPI_COMM_WORLD, NULL, 0), LODEX_ERR_INVALID_ARGUMENT,
               "merge_gap");
}

int main(int argc, char** argv) {
  char path[4200];
  capi_test_begin(&argc, &argv, "capi_errors.lodex", path, sizeof path);

  test_version_and_names();
  lodex_dataset* ds = NULL;
  EXPECT_ERROR(lodex_dataset_create(g_rank == 0 ? NULL : path, MPI_COMM_WORLD, 0, &ds), LODEX_ERR_INVALID_ARGUMENT,
               "path is NULL");
  EXPECT_ERROR(lodex_dataset_create(path, MPI_COMM_WORLD, 64, &ds), LODEX_ERR_INVALID_ARGUMENT, "flags 64");
  EXPECT_OK(lodex_dataset_create(path, MPI_COMM_WORLD, 0, &ds));
  lodex_dataset* twice = NULL;
  EXPECT_ERROR(lodex_dataset_create(path, MPI_COMM_WORLD, 0, &twice), LODEX_ERR_ALREADY_EXISTS, NULL);
  int status;
  lodex_particles* g = define(ds, "particles", -1, &status);
  EXPECT_OK(status);
  test_bad_handles(ds, g);
  test_definitions(ds);
  test_writes(g);
  test_component_writes(ds);
  test_default_partition(ds);
  test_domains(ds);
  test_reads(g);
  test_queries(g);
  test_grids(ds);
  test_series(ds);
  EXPECT_OK(lodex_dataset_close(ds));
  EXPECT_ERROR(lodex_dataset_close(ds), LODEX_ERR_INVALID_ARGUMENT, "already released");
  EXPECT_ERROR(lodex_particles_steps(g, NULL, 0, NULL), LODEX_ERR_INVALID_ARGUMENT, "not a live");

  return capi_test_end();
}
