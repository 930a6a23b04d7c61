/* The checks of the C API tests (errors_test.c, truncate_test.c): each counts a pass or prints the
 * failing line with this rank's number; main() reports the counts and fails on any failure. */
#ifndef LODEX_TESTS_CAPI_CHECK_H
#define LODEX_TESTS_CAPI_CHECK_H

#include <lodex.h>
#include <stdio.h>
#include <string.h>

static int g_rank, g_size, g_failed, g_passed;

static void check_true(int ok, const char* what, int line) {
  if (ok) {
    ++g_passed;
  } else {
    ++g_failed;
    fprintf(stderr, "rank %d: line %d: %s\n", g_rank, line, what);
  }
}
#define EXPECT(cond) check_true((cond) != 0, #cond, __LINE__)

/* `status` is `code` on this rank, with a message containing `needle` (NULL: any message). */
static void expect_error(int status, int code, const char* needle, int line) {
  char what[1024];
  snprintf(what, sizeof what, "status %d (%s) message \"%s\"; wanted %d containing \"%s\"", status,
           lodex_status_name(status), lodex_last_error(), code, needle ? needle : "");
  check_true(status == code && strlen(lodex_last_error()) > 0 && (!needle || strstr(lodex_last_error(), needle)),
             what, line);
}
#define EXPECT_ERROR(call, code, needle) expect_error((call), (code), (needle), __LINE__)
#define EXPECT_OK(call)                                                                        \
  do {                                                                                         \
    int rc_ = (call);                                                                          \
    check_true(rc_ == LODEX_OK, rc_ == LODEX_OK ? #call : lodex_last_error(), __LINE__);       \
  } while (0)

#endif
