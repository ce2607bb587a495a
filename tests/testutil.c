/* testutil.c - CUnit runner shared by every test executable. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <CUnit/Basic.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
