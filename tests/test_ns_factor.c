/* test_ns_factor.c - the reduced-system factorisation (solver/ns_factor.c):
 * LDL^T and KLU against an independent dense solve on a quasi-definite
 * matrix, block solves, refactorisation, the fallback to KLU when a matrix
 * is not quasi-definite, and a singular matrix refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ns_factor.h"
#include "testutil.h"

#define NP 9  /* positive definite block */
#define NQ 3  /* negative definite block */
#define N (NP + NQ)
#define NRHS 7

static double M[N * N]; /* row major */

static double rnd(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return (double)((*state >> 8) & 0xffff) / 32767.5 - 1.0;
}

/* [A B; B^T -C]: A = R R^T + shift I (tridiagonal-banded R), C = 2 I + S S^T,
 * B sparse; scale multiplies A (a negative scale makes A negative definite). */
static void build(double scale) {
  unsigned st = 11u;
  memset(M, 0, sizeof M);
  for (int i = 0; i < NP; ++i)
    for (int j = 0; j < NP; ++j) {
      if (abs(i - j) > 1) continue;
      M[i * N + j] = scale * (i == j ? 3.0 : -1.0 + 0.1 * (i + j) / NP);
    }
  for (int i = 0; i < NP; i += 2)
    for (int k = 0; k < NQ; ++k) M[i * N + NP + k] = M[(NP + k) * N + i] = rnd(&st);
  double S[NQ * NQ];
  for (int k = 0; k < NQ * NQ; ++k) S[k] = rnd(&st);
  for (int k = 0; k < NQ; ++k)
    for (int l = 0; l < NQ; ++l) {
      double w = k == l ? 2.0 : 0.0;
      for (int m = 0; m < NQ; ++m) w += S[k * NQ + m] * S[l * NQ + m];
      M[(NP + k) * N + NP + l] = -w;
    }
}

/* CSC of M's nonzeros, both triangles, rows of a column in reverse order */
static void csc(int *p, int *ri, double *x) {
  int pos = 0;
  for (int c = 0; c < N; ++c) {
    p[c] = pos;
    for (int r = N - 1; r >= 0; --r)
      if (M[r * N + c] != 0.0) ri[pos] = r, x[pos++] = M[r * N + c];
  }
  p[N] = pos;
}

/* solve NRHS right-hand sides with f and compare with the dense solve */
static void check_solves(ns_factor *f) {
  double B[N * NRHS], X[N * NRHS];
  unsigned st = 5u;
  for (int k = 0; k < N * NRHS; ++k) B[k] = X[k] = rnd(&st);
  CU_ASSERT_EQUAL_FATAL(ns_factor_solve(f, NRHS, X), 0);
  for (int c = 0; c < NRHS; ++c) {
    double A[N * N], xd[N];
    memcpy(A, M, sizeof A);
    memcpy(xd, B + c * N, sizeof xd);
    CU_ASSERT_EQUAL_FATAL(mbdae_test_dense_solve(N, A, xd), 0);
    for (int i = 0; i < N; ++i) MBDAE_ASSERT_ABS(X[c * N + i], xd[i], 1e-12);
  }
  /* one right-hand side */
  double x1[N];
  memcpy(x1, B, sizeof x1);
  CU_ASSERT_EQUAL_FATAL(ns_factor_solve(f, 1, x1), 0);
  for (int i = 0; i < N; ++i) MBDAE_ASSERT_ABS(x1[i], X[i], 1e-13);
}

static void test_quasi_definite_both(void) {
  const ns_factor_kind kinds[2] = {NS_FACTOR_KLU, NS_FACTOR_LDL};
  int p[N + 1], ri[N * N];
  double x[N * N];
  for (int q = 0; q < 2; ++q) {
    build(1.0);
    csc(p, ri, x);
    ns_factor *f = ns_factor_create(kinds[q]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(ns_factor_current(f), NS_FACTOR_AUTO);
    CU_ASSERT_EQUAL_FATAL(ns_factor_factor(f, N, NP, p, ri, x, 0), 0);
    CU_ASSERT_EQUAL(ns_factor_current(f), kinds[q]);
    check_solves(f);
    /* new values on the same pattern */
    build(2.0);
    csc(p, ri, x);
    CU_ASSERT_EQUAL_FATAL(ns_factor_refactor(f, p, ri, x), 0);
    CU_ASSERT_EQUAL(ns_factor_current(f), kinds[q]);
    check_solves(f);
    ns_factor_free(&f);
    ns_factor_free(&f);
  }
}

/* A negative definite "positive" block: not quasi-definite with NP
 * positive pivots, so LDL^T is refused and KLU factorises it. */
static void test_not_quasi_definite_falls_back(void) {
  int p[N + 1], ri[N * N];
  double x[N * N];
  build(1.0);
  csc(p, ri, x);
  ns_factor *f = ns_factor_create(NS_FACTOR_LDL);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f);
  CU_ASSERT_EQUAL_FATAL(ns_factor_factor(f, N, NP, p, ri, x, 0), 0);
  CU_ASSERT_EQUAL(ns_factor_current(f), NS_FACTOR_LDL);
  build(-1.0);
  csc(p, ri, x);
  CU_ASSERT_EQUAL(ns_factor_refactor(f, p, ri, x), 1);
  CU_ASSERT_EQUAL_FATAL(ns_factor_factor(f, N, NP, p, ri, x, 1), 0);
  CU_ASSERT_EQUAL(ns_factor_current(f), NS_FACTOR_KLU);
  check_solves(f);
  /* quasi-definite values again: LDL^T takes over */
  build(1.0);
  csc(p, ri, x);
  CU_ASSERT_EQUAL_FATAL(ns_factor_factor(f, N, NP, p, ri, x, 1), 0);
  CU_ASSERT_EQUAL(ns_factor_current(f), NS_FACTOR_LDL);
  check_solves(f);
  ns_factor_free(&f);
}

/* A singular matrix: both refuse it, and no solve is made with it. */
static void test_singular_refused(void) {
  const int p[3] = {0, 2, 4}, ri[4] = {0, 1, 0, 1};
  const double x[4] = {1.0, 1.0, 1.0, 1.0};
  const ns_factor_kind kinds[3] = {NS_FACTOR_KLU, NS_FACTOR_LDL, NS_FACTOR_AUTO};
  for (int q = 0; q < 3; ++q) {
    ns_factor *f = ns_factor_create(kinds[q]);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(ns_factor_factor(f, 2, 2, p, ri, x, 0), -2);
    CU_ASSERT_EQUAL(ns_factor_current(f), NS_FACTOR_AUTO);
    double b[2] = {1.0, 2.0};
    CU_ASSERT_EQUAL(ns_factor_solve(f, 1, b), -2);
    ns_factor_free(&f);
  }
}

int main(void) {
  static const mbdae_test tests[] = {
      {"quasi-definite by KLU and LDL^T against a dense solve", test_quasi_definite_both},
      {"not quasi-definite: LDL^T refused, KLU", test_not_quasi_definite_falls_back},
      {"singular matrix refused", test_singular_refused},
      {NULL, NULL}};
  return mbdae_test_main("ns_factor", tests);
}
