/* testutil.c - CUnit runner shared by every test executable. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "testutil.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The scratch directories this process made (mbdae_test_tmpdir): removed
 * when every test passed, kept and named when one failed. */
enum { MAX_SCRATCH = 256 };
static char *scratch[MAX_SCRATCH];
static int n_scratch;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st; (void)flag; (void)ftw;
  if (remove(path) != 0) fprintf(stderr, "scratch: cannot remove %s: %s\n", path, strerror(errno));
  return 0;
}

static void settle_scratch(int passed) {
  for (int i = 0; i < n_scratch; ++i) {
    if (passed)
      nftw(scratch[i], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    else
      printf("scratch kept: %s\n", scratch[i]);
    free(scratch[i]);
  }
  n_scratch = 0;
}

int mbdae_test_main(const char *suite_name, const mbdae_test *tests) {
  if (CU_initialize_registry() != CUE_SUCCESS) return 2;
  CU_pSuite suite = CU_add_suite(suite_name, NULL, NULL);
  if (!suite) { CU_cleanup_registry(); return 2; }
  for (const mbdae_test *t = tests; t->name; ++t)
    if (!CU_add_test(suite, t->name, t->fn)) { CU_cleanup_registry(); return 2; }
  CU_basic_set_mode(CU_BRM_VERBOSE);
  CU_basic_run_tests();
  unsigned failed = CU_get_number_of_failures();
  unsigned tests_failed = CU_get_number_of_tests_failed();
  unsigned run = CU_get_number_of_tests_run();
  printf("\n%s: %u tests run, %u failed (%u failed assertions)\n", suite_name,
         run, tests_failed, failed);
  CU_cleanup_registry();
  settle_scratch(failed == 0 && run > 0);
  return (failed == 0 && run > 0) ? 0 : 1;
}

double mbdae_test_reldiff(double a, double b) {
  double s = fabs(b);
  if (s < 1e-300) return fabs(a - b);
  return fabs(a - b) / s;
}

const char *mbdae_test_source_path(const char *rel) {
  static char buf[4096];
  const char *root = getenv("MBDAE_SOURCE_DIR");
  snprintf(buf, sizeof buf, "%s/%s", root ? root : ".", rel);
  return buf;
}

const char *mbdae_test_tmpdir(const char *tag) {
  static char buf[4096];
  const char *tmp = getenv("TMPDIR");
  snprintf(buf, sizeof buf, "%s/mbdae-test-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", tag);
  if (!mkdtemp(buf)) {
    fprintf(stderr, "mkdtemp(%s): %s\n", buf, strerror(errno));
    exit(2);
  }
  if (n_scratch == MAX_SCRATCH) {
    fprintf(stderr, "mbdae_test_tmpdir: more than %d scratch directories\n", MAX_SCRATCH);
    exit(2);
  }
  if (!(scratch[n_scratch] = strdup(buf))) {
    fprintf(stderr, "mbdae_test_tmpdir: out of memory\n");
    exit(2);
  }
  ++n_scratch;
  return buf;
}

/* An independent reference for solver tests: no pivot tolerance beyond
 * exact singularity, no use of the library's linear algebra. */
int mbdae_test_dense_solve(int n, double *A, double *b) {
  for (int k = 0; k < n; ++k) {
    int p = k;
    for (int i = k + 1; i < n; ++i)
      if (fabs(A[i * n + k]) > fabs(A[p * n + k])) p = i;
    if (fabs(A[p * n + k]) < 1e-300) return -1;
    for (int j = 0; j < n; ++j) {
      double t = A[k * n + j];
      A[k * n + j] = A[p * n + j];
      A[p * n + j] = t;
    }
    double t = b[k];
    b[k] = b[p];
    b[p] = t;
    for (int i = k + 1; i < n; ++i) {
      double f = A[i * n + k] / A[k * n + k];
      for (int j = k; j < n; ++j) A[i * n + j] -= f * A[k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    for (int j = k + 1; j < n; ++j) b[k] -= A[k * n + j] * b[j];
    b[k] /= A[k * n + k];
  }
  return 0;
}
