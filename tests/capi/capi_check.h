/* What the C API tests share: their start and end (MPI, a clean scratch path, the counts) and
 * their checks, each counting a pass or printing the failing line with this rank's number. */
#ifndef LODEX_TESTS_CAPI_CHECK_H
#define LODEX_TESTS_CAPI_CHECK_H

#include <lodex.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_rank, g_size, g_failed, g_passed;
static char g_dir[4096];   /* the scratch folder: argv[1], default "." */

static inline void path_of(char* out, size_t n, const char* name) { snprintf(out, n, "%s/%s", g_dir, name); }

/* MPI_Init (MPI_Init_thread asking for MPI_THREAD_MULTIPLE when the environment variable
 * LODEX_TEST_THREAD_MULTIPLE is set), g_rank, g_size and g_dir; `path` = g_dir/`name`, which rank
 * 0 removes before the test with everything named `name`.* beside it (a rerun starts clean). */
static void capi_test_begin(int* argc, char*** argv, const char* name, char* path, size_t n) {
  const char* multiple = getenv("LODEX_TEST_THREAD_MULTIPLE");
  int provided = MPI_THREAD_SINGLE;
  if (multiple && *multiple) MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  else MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  snprintf(g_dir, sizeof g_dir, "%s", *argc > 1 ? (*argv)[1] : ".");
  path_of(path, n, name);
  if (g_rank == 0) {
    char cmd[4096 + 2 * 8192 + 64];   /* g_dir and twice a path of at most 8192 */
    snprintf(cmd, sizeof cmd, "mkdir -p '%s' && rm -rf '%s' '%s'.*", g_dir, path, path);
    if (system(cmd) != 0) fprintf(stderr, "could not clear %s\n", path);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* Every rank's counts summed, printed by rank 0; MPI_Finalize. Returns the exit status. */
static int capi_test_end(void) {
  int failed = g_failed, passed = g_passed;
  MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &passed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (g_rank == 0) printf("%d passed, %d failed\n", passed, failed);
  MPI_Finalize();
  return failed ? 1 : 0;
}

static inline void check_true(int ok, const char* what, int line) {
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    fprintf(stderr, "rank %d: line %d: %s\n", g_rank, line, what);
  }
}
#define EXPECT(cond) check_true((cond) != 0, #cond, __LINE__)

/* `status` is `code` on this rank, with a message containing `needle` (NULL: any message). */
static inline void expect_error(int status, int code, const char* needle, int line) {
  char what[1024];
  snprintf(what, sizeof what, "status %d (%s) message \"%s\"; wanted %d containing \"%s\"", status,
           lodex_status_name(status), lodex_last_error(), code, needle ? needle : "");
  check_true(status == code && strlen(lodex_last_error()) > 0 && (!needle || strstr(lodex_last_error(), needle)), what,
             line);
}
#define EXPECT_ERROR(call, code, needle) expect_error((call), (code), (needle), __LINE__)
#define EXPECT_OK(call)                                                                  \
  do {                                                                                   \
    int rc_ = (call);                                                                    \
    check_true(rc_ == LODEX_OK, rc_ == LODEX_OK ? #call : lodex_last_error(), __LINE__); \
  } while (0)

#endif
