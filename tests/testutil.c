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
