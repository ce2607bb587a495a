/* testutil.h - shared CUnit runner and numeric utilities for the test suite. */
#ifndef MBDAE_TESTUTIL_H
#define MBDAE_TESTUTIL_H

#include <CUnit/CUnit.h>

typedef struct mbdae_test {
  const char *name;
  void (*fn)(void);
} mbdae_test;

/* Run one suite of tests (NULL-name terminated) with CUnit's basic
 * interface, print its summary, return the process exit code (0 = all pass). */
int mbdae_test_main(const char *suite, const mbdae_test *tests);

/* Relative difference |a - b| / max(|b|, tiny). */
double mbdae_test_reldiff(double a, double b);

/* Solve A x = b (row major n x n, partial pivoting) in place: b becomes x
 * and A is overwritten; -1 if a pivot is exactly zero. */
int mbdae_test_dense_solve(int n, double *A, double *b);

/* Path of a file in the source tree (MBDAE_SOURCE_DIR) in a static buffer. */
const char *mbdae_test_source_path(const char *rel);

/* Fresh empty directory under the build tree's temp area (static buffer). */
const char *mbdae_test_tmpdir(const char *tag);

#define MBDAE_ASSERT_REL(a, b, tol)                                           \
  do {                                                                        \
    double mbdae_a_ = (a), mbdae_b_ = (b);                                    \
    double mbdae_r_ = mbdae_test_reldiff(mbdae_a_, mbdae_b_);                 \
    if (!(mbdae_r_ <= (tol)))                                                 \
      printf("\n  %s:%d: %s = %.15g vs %s = %.15g (rel %.3g > %.3g)\n",       \
             __FILE__, __LINE__, #a, mbdae_a_, #b, mbdae_b_, mbdae_r_,        \
             (double)(tol));                                                  \
    CU_ASSERT(mbdae_r_ <= (tol));                                             \
  } while (0)

#define MBDAE_ASSERT_ABS(a, b, tol)                                           \
  do {                                                                        \
    double mbdae_a_ = (a), mbdae_b_ = (b);                                    \
    double mbdae_d_ = fabs(mbdae_a_ - mbdae_b_);                              \
    if (!(mbdae_d_ <= (tol)))                                                 \
      printf("\n  %s:%d: %s = %.15g vs %s = %.15g (abs %.3g > %.3g)\n",       \
             __FILE__, __LINE__, #a, mbdae_a_, #b, mbdae_b_, mbdae_d_,        \
             (double)(tol));                                                  \
    CU_ASSERT(mbdae_d_ <= (tol));                                             \
  } while (0)

#endif
