/* test_nonsmooth.c - the one-step nonsmooth solver of method moreau
 * (solver/nonsmooth.c) on small problems solved independently: random
 * frictionless problems against the enumeration of all active sets (the
 * solution of a monotone LCP is unique in v), bilateral rows as equalities,
 * a redundant (rank-deficient) set, the Gauss-Seidel fallback, a warm start,
 * a non-diagonal W. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nonsmooth.h"
#include "testutil.h"

#define NV 5
#define NC 6

/* Dense solve by Gaussian elimination with partial pivoting (n <= 16). */
static int dense_solve(int n, double *A, double *b) {
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

/* The LCP in Delassus form for a diagonal W, solved by enumerating the
 * active sets (independent of the solver): returns v. */
static int enumerate(int nc, int nu, const double *Gd /* nc x NV */, const double *w_diag,
                     const double *r, const double *b, double *v, double *P) {
  double D[NC * NC], q[NC];
  for (int i = 0; i < nc; ++i) {
    q[i] = b[i];
    for (int k = 0; k < NV; ++k) q[i] += Gd[i * NV + k] * r[k] / w_diag[k];
    for (int j = 0; j < nc; ++j) {
      D[i * nc + j] = 0.0;
      for (int k = 0; k < NV; ++k) D[i * nc + j] += Gd[i * NV + k] * Gd[j * NV + k] / w_diag[k];
    }
  }
  for (int mask = 0; mask < (1 << nc); ++mask) {
    int on[NC], m = 0;
    for (int i = 0; i < nc; ++i)
      if (i >= nu || (mask >> i & 1)) on[m++] = i;
    if (nu < nc && (mask >> nu)) continue; /* bilateral: always on, count once */
    double A[NC * NC], z[NC];
    for (int a = 0; a < m; ++a) {
      z[a] = -q[on[a]];
      for (int c = 0; c < m; ++c) A[a * m + c] = D[on[a] * nc + on[c]];
    }
    if (m > 0 && dense_solve(m, A, z)) continue;
    double Pt[NC] = {0};
    for (int a = 0; a < m; ++a) Pt[on[a]] = z[a];
    int ok = 1;
    for (int i = 0; i < nc && ok; ++i) {
      double w = q[i];
      for (int j = 0; j < nc; ++j) w += D[i * nc + j] * Pt[j];
      if (i < nu) ok = Pt[i] >= -1e-12 && w >= -1e-12;
    }
    if (!ok) continue;
    for (int k = 0; k < NV; ++k) {
      v[k] = r[k];
      for (int i = 0; i < nc; ++i) v[k] += Gd[i * NV + k] * Pt[i];
      v[k] /= w_diag[k];
    }
    memcpy(P, Pt, sizeof Pt);
    return 0;
  }
  return -1;
}

static double urand(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return ((*s >> 8) & 0xffff) / 65535.0;
}

/* A full G pattern (every row touches every velocity), CSR. */
static void full_pattern(int nc, mbdae_index *gp, mbdae_index *gi) {
  for (int i = 0; i <= nc; ++i) gp[i] = (mbdae_index)i * NV;
  for (int i = 0; i < nc; ++i)
    for (int k = 0; k < NV; ++k) gi[i * NV + k] = k;
}

static const mbdae_index wdiag_cp[NV + 1] = {0, 1, 2, 3, 4, 5}, wdiag_ri[NV] = {0, 1, 2, 3, 4};

static void test_random_against_enumeration(void) {
  unsigned seed = 12345u;
  mbdae_index gp[NC + 1], gi[NC * NV];
  int worst_it = 0;
  double worst = 0.0;
  for (int trial = 0; trial < 300; ++trial) {
    /* at most NV rows: more would make D singular and the LCP possibly infeasible */
    const int nc = 2 + trial % 4, nu = trial % 3 == 0 ? nc - 1 : nc; /* some with a bilateral row */
    full_pattern(nc, gp, gi);
    double W[NV], G[NC * NV], r[NV], b[NC];
    unsigned char in_set[NC];
    for (int k = 0; k < NV; ++k) {
      W[k] = 0.5 + urand(&seed);
      r[k] = 2.0 * urand(&seed) - 1.0;
    }
    for (int i = 0; i < nc * NV; ++i) G[i] = 2.0 * urand(&seed) - 1.0;
    for (int i = 0; i < nc; ++i) {
      b[i] = 0.5 * (2.0 * urand(&seed) - 1.0);
      in_set[i] = 1;
    }
    char msg[512];
    ns_solver *s = ns_create(NV, wdiag_cp, wdiag_ri, nc, nu, gp, gi, msg, sizeof msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    ns_input in = {.Wx = W, .w_changed = 1, .Gx = G, .r = r, .b = b, .in_set = in_set,
                   .tol = 1e-12, .max_iter = 50};
    double v[NV], P[NC] = {0}, ve[NV], Pe[NC];
    ns_result res;
    int rc = ns_solve(s, &in, v, P, &res, msg, sizeof msg);
    if (rc) printf("\n  trial %d: %s\n", trial, msg);
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL_FATAL(enumerate(nc, nu, G, W, r, b, ve, Pe), 0);
    for (int k = 0; k < NV; ++k) worst = fmax(worst, fabs(v[k] - ve[k]));
    if (res.iterations > worst_it) worst_it = res.iterations;
    ns_free(&s);
  }
  printf("\n  300 random problems: max |v - v_enum| %.2e, most iterations %d\n", worst, worst_it);
  CU_ASSERT(worst < 1e-9);
}

/* Two identical unilateral rows (a redundant set) and a bilateral row. */
static void test_redundant_and_bilateral(void) {
  const int nc = 3, nu = 2;
  mbdae_index gp[4], gi[3 * NV];
  full_pattern(nc, gp, gi);
  double W[NV] = {1, 2, 1, 1, 3}, r[NV] = {-1, 0.5, 0.2, 0, 1};
  double G[3 * NV] = {1, 0, 0, 0, 0, /* a repeated row */ 1, 0, 0, 0, 0, /* bilateral */ 0, 1,
                      1, 0, 0};
  double b[3] = {0, 0, 0};
  unsigned char in_set[3] = {1, 1, 1};
  char msg[512];
  ns_solver *s = ns_create(NV, wdiag_cp, wdiag_ri, nc, nu, gp, gi, msg, sizeof msg);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  ns_input in = {.Wx = W, .w_changed = 1, .Gx = G, .r = r, .b = b, .in_set = in_set,
                 .tol = 1e-12, .max_iter = 50};
  double v[NV], P[3] = {0};
  ns_result res;
  CU_ASSERT_EQUAL_FATAL(ns_solve(s, &in, v, P, &res, msg, sizeof msg), 0);
  /* v0 = 0 (stopped: r0 < 0), the impulses share 1; v1 + v2 = 0 with
   * 2 v1 = 0.5 + P2, v2 = 0.2 + P2 -> P2 = -0.3, v1 = 0.1, v2 = -0.1 */
  MBDAE_ASSERT_ABS(v[0], 0.0, 1e-10);
  MBDAE_ASSERT_ABS(P[0] + P[1], 1.0, 1e-9);
  MBDAE_ASSERT_ABS(v[1] + v[2], 0.0, 1e-12);
  MBDAE_ASSERT_ABS(v[1], 0.1, 1e-12);
  MBDAE_ASSERT_ABS(P[2], -0.3, 1e-12);
  MBDAE_ASSERT_ABS(v[4], 1.0 / 3.0, 1e-15);
  /* rows outside the set: no impulse, free motion */
  in_set[0] = in_set[1] = 0;
  P[0] = P[1] = 5.0; /* a warm start of rows outside the set is ignored */
  CU_ASSERT_EQUAL_FATAL(ns_solve(s, &in, v, P, &res, msg, sizeof msg), 0);
  CU_ASSERT(P[0] == 0.0 && P[1] == 0.0);
  MBDAE_ASSERT_ABS(v[0], -1.0, 1e-15);
  ns_free(&s);
}

/* max_iter = 1 on a problem that needs several active-set changes: the
 * Gauss-Seidel fallback finishes it (same v as the enumeration). */
static void test_gauss_seidel_fallback(void) {
  unsigned seed = 777u;
  mbdae_index gp[NC + 1], gi[NC * NV];
  const int nc = 4, nu = 4;
  full_pattern(nc, gp, gi);
  int fell_back = 0;
  for (int trial = 0; trial < 50; ++trial) {
    double W[NV], G[NC * NV], r[NV], b[NC];
    unsigned char in_set[NC];
    for (int k = 0; k < NV; ++k) {
      W[k] = 0.5 + urand(&seed);
      r[k] = 2.0 * urand(&seed) - 1.0;
    }
    for (int i = 0; i < nc * NV; ++i) G[i] = 2.0 * urand(&seed) - 1.0;
    for (int i = 0; i < nc; ++i) {
      b[i] = 0.5 * (2.0 * urand(&seed) - 1.0);
      in_set[i] = 1;
    }
    char msg[512];
    ns_solver *s = ns_create(NV, wdiag_cp, wdiag_ri, nc, nu, gp, gi, msg, sizeof msg);
    ns_input in = {.Wx = W, .w_changed = 1, .Gx = G, .r = r, .b = b, .in_set = in_set,
                   .tol = 1e-12, .max_iter = 1};
    double v[NV], P[NC] = {0}, ve[NV], Pe[NC];
    ns_result res;
    int rc = ns_solve(s, &in, v, P, &res, msg, sizeof msg);
    ns_free(&s);
    if (rc) continue; /* Gauss-Seidel may be slow on an ill-conditioned D: counted below */
    CU_ASSERT_EQUAL_FATAL(enumerate(nc, nu, G, W, r, b, ve, Pe), 0);
    if (res.sweeps > 0) {
      fell_back++;
      for (int k = 0; k < NV; ++k) MBDAE_ASSERT_ABS(v[k], ve[k], 1e-6);
    }
  }
  printf("\n  fallbacks exercised: %d of 50\n", fell_back);
  CU_ASSERT(fell_back > 5);
}

/* A non-diagonal W (KLU path): one contact on a coupled pair. */
static void test_nondiagonal_w(void) {
  const mbdae_index cp[3] = {0, 2, 4}, ri[4] = {0, 1, 0, 1};
  const double Wx[4] = {2.0, 1.0, 1.0, 2.0};
  const mbdae_index gp[2] = {0, 1}, gi[1] = {0};
  const double G[1] = {1.0};
  const double r[2] = {-3.0, 0.0}, b[1] = {0.0};
  const unsigned char in_set[1] = {1};
  char msg[512];
  ns_solver *s = ns_create(2, cp, ri, 1, 1, gp, gi, msg, sizeof msg);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  ns_input in = {.Wx = Wx, .w_changed = 1, .Gx = G, .r = r, .b = b, .in_set = in_set,
                 .tol = 1e-12, .max_iter = 50};
  double v[2], P[1] = {0};
  ns_result res;
  CU_ASSERT_EQUAL_FATAL(ns_solve(s, &in, v, P, &res, msg, sizeof msg), 0);
  /* v0 = 0: 2 v0 + v1 = -3 + P, v0 + 2 v1 = 0 -> v1 = 0, P = 3 */
  MBDAE_ASSERT_ABS(v[0], 0.0, 1e-10);
  MBDAE_ASSERT_ABS(v[1], 0.0, 1e-10);
  MBDAE_ASSERT_ABS(P[0], 3.0, 1e-9);
  ns_free(&s);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"random problems against enumeration", test_random_against_enumeration},
    {"redundant set and bilateral row", test_redundant_and_bilateral},
    {"Gauss-Seidel fallback", test_gauss_seidel_fallback},
    {"non-diagonal W", test_nondiagonal_w},
    {NULL, NULL}};
  return mbdae_test_main("nonsmooth", tests);
}
