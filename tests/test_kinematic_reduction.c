/* test_kinematic_reduction.c - the Newton solve of method arkode through the
 * Schur complement on the kinematic rows (solver/kinematic_reduction.c)
 * against a dense LU solve of the whole matrix, and the end state of a net
 * integrated with and without it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sundials/sundials_context.h>

#include "engine_impl.h"
#include "kinematic_reduction.h"
#include "multiplier_newton.h"
#include "mbdae/mbdae.h"
#include "run.h"
#include "scenario.h"
#include "testutil.h"

/* A chain of M points on a line: positions q (rows q' - v = 0), velocities v
 * (m v' - forces - multipliers), multipliers of the M - 1 links (rows at the
 * acceleration level), as in the nets' DAE form; the last position row holds
 * one more entry, so it must stay. */
enum { M = 5, NL = M - 1, N = 2 * M + NL, ND = 2 * M };

static double Fy[N][N], Fyp[N][N];
static int pat[N][N];

static void put(int i, int j, double fy, double fyp) {
  pat[i][j] = 1;
  Fy[i][j] = fy;
  Fyp[i][j] = fyp;
}

/* coupled 0: each velocity row depends on its own position only and every
 * position row is kinematic, so the velocity block of the reduced matrix is
 * diagonal (multiplier_newton.c is then exact) */
static void build_chain(int coupled) {
  unsigned s = 12345u;
#define RND() ((s = s * 1103515245u + 12345u), ((double)(s >> 8) / 16777216.0 - 0.5))
  memset(pat, 0, sizeof pat);
  memset(Fy, 0, sizeof Fy);
  memset(Fyp, 0, sizeof Fyp);
  for (int i = 0; i < M; ++i) put(i, i, 0.0, 1.0), put(i, M + i, -1.0, 0.0);
  if (coupled) put(M - 1, 0, 0.5, 0.0); /* not a kinematic row any more */
  for (int i = 0; i < M; ++i) {
    put(M + i, M + i, 0.3 * RND(), 1.0 + 0.1 * i); /* damping, mass */
    for (int j = i - coupled; j <= i + coupled; ++j)
      if (j >= 0 && j < M) put(M + i, j, 10.0 * RND(), 0.0);
  }
  for (int l = 0; l < NL; ++l) {
    int r = ND + l;
    put(M + l, r, -1.0, 0.0), put(M + l + 1, r, 1.0, 0.0); /* G^T lambda */
    put(r, M + l, 100.0 * RND(), -1.0), put(r, M + l + 1, 100.0 * RND(), 1.0);
    put(r, l, 1e4 * RND(), 0.0), put(r, l + 1, 1e4 * RND(), 0.0);
    put(r, r, 0.0, 0.0); /* a structural zero, as the nets' slack rows */
  }
#undef RND
}

static int dummy_jac(double t, double cj, const double *y, const double *yp, double *J,
                     void *ud) {
  (void)t, (void)cj, (void)y, (void)yp, (void)J, (void)ud;
  return 0;
}

/* x = K^-1 b by a dense LU (tests/testutil.c) */
static void dense_solve(double cj, const double *b, double *x) {
  static double A[N * N];
  for (int i = 0; i < N; ++i) {
    for (int j = 0; j < N; ++j) A[i * N + j] = Fy[i][j] + cj * Fyp[i][j];
    x[i] = b[i];
  }
  CU_ASSERT_EQUAL(mbdae_test_dense_solve(N, A, x), 0);
}

static void check_solve(mbdae_ordering ordering, int multipliers) {
  build_chain(!multipliers);
  mbdae_index colptr[N + 1], rowind[N * N];
  double fy[N * N], fyp[N * N], kv[N * N];
  mbdae_index nnz = 0;
  for (int j = 0; j < N; ++j) {
    colptr[j] = nnz;
    for (int i = 0; i < N; ++i)
      if (pat[i][j]) rowind[nnz] = i, fy[nnz] = Fy[i][j], fyp[nnz] = Fyp[i][j], nnz++;
  }
  colptr[N] = nnz;
  mbdae_problem *p = mbdae_problem_create(N, MBDAE_FORM_DAE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  CU_ASSERT_EQUAL_FATAL(mbdae_problem_set_jacobian_sparse(p, nnz, colptr, rowind, dummy_jac), 0);
  mbdae_options o;
  mbdae_options_default(&o);
  o.linsol = MBDAE_LINSOL_KLU;
  o.ordering = ordering;
  mbdae_engine e;
  memset(&e, 0, sizeof e);
  e.p = p;
  e.o = &o;
  e.n = N;
  SUNContext ctx = NULL;
  CU_ASSERT_EQUAL_FATAL(SUNContext_Create(NULL, &ctx), 0);
  int rc = -1;
  mbdae_kin_reduction *r = mbdae_kin_reduction_create(&e, ctx, ND, fy, fyp, &rc);
  CU_ASSERT_EQUAL(rc, MBDAE_OK);
  CU_ASSERT_PTR_NOT_NULL_FATAL(r);
  if (multipliers) { /* every position row goes; S in the NL multipliers */
    CU_ASSERT_EQUAL(mbdae_kin_reduction_rows(r), M);
    CU_ASSERT_EQUAL_FATAL(mbdae_kin_reduction_multiplier_newton(r, &e, ctx, ND), MBDAE_OK);
    CU_ASSERT_EQUAL(mbdae_kin_reduction_multiplier_unknowns(r), NL);
  } else {
    CU_ASSERT_EQUAL(mbdae_kin_reduction_rows(r), M - 1); /* the last position row stays */
  }
  const double cjs[] = {2.0, 50.0, 1e4};
  for (int c = 0; c < 3; ++c) {
    double cj = cjs[c];
    for (mbdae_index k = 0; k < nnz; ++k) kv[k] = fy[k] + cj * fyp[k];
    CU_ASSERT_EQUAL_FATAL(mbdae_kin_reduction_setup(r, kv), 0);
    double b[N], x[N], xr[N], scale = 0.0, err = 0.0;
    for (int i = 0; i < N; ++i) b[i] = sin(1.0 + i) + (i < ND ? 0.0 : 3.0);
    dense_solve(cj, b, xr);
    CU_ASSERT_EQUAL_FATAL(mbdae_kin_reduction_solve(r, kv, b, x), 0);
    for (int i = 0; i < N; ++i) {
      scale = fmax(scale, fabs(xr[i]));
      err = fmax(err, fabs(x[i] - xr[i]));
    }
    if (!(err <= 1e-12 * scale)) printf("\n  cj %g: |x - x_dense| %.3g of %.3g\n", cj, err, scale);
    CU_ASSERT(err <= 1e-12 * scale);
  }
  /* cj = 0.5: the pivot 1/2 of a row q' - v is smaller than its -1: refused,
   * so the caller factors the whole matrix */
  for (mbdae_index k = 0; k < nnz; ++k) kv[k] = fy[k] + 0.5 * fyp[k];
  CU_ASSERT_EQUAL(mbdae_kin_reduction_setup(r, kv), 1);
  mbdae_kin_reduction_free(&r);
  CU_ASSERT_PTR_NULL(r);
  SUNContext_Free(&ctx);
  mbdae_problem_free(&p);
}

static void test_solve_colamd(void) { check_solve(MBDAE_ORDERING_COLAMD, 0); }
static void test_solve_metis(void) { check_solve(MBDAE_ORDERING_METIS, 0); }
static void test_solve_multipliers(void) { check_solve(MBDAE_ORDERING_METIS, 1); }

/* a 6 x 6 spinning net, stiff Baumgarte strings, ARKODE + KLU on the DAE
 * form, with one more solver key (`key: value`) */
static void run_small_net(const char *solver_key, mbdae_run_result *res) {
  const char *base =
      "model: string_net\n"
      "solver: {method: arkode, linear_solver: klu, t_end: 0.05, dt_out: 0.05, rtol: 1.0e-5,\n"
      "         atol: 1.0e-9, %s}\n"
      "parameters: {topology: spinning_grid, mode: baumgarte, xi: 0.5, omega_n: 1.0e4,\n"
      "             grid_n: 6, grid_m: 6, length: 0.2, grid_mass: 0.03, corner_mass: 0.03,\n"
      "             grid_spin: 2.0, grid_wave: 0.2, release_band: 1.0e-3}\n";
  char yaml[1024], err[1024];
  snprintf(yaml, sizeof yaml, base, solver_key);
  mbdae_scenario s;
  CU_ASSERT_EQUAL_FATAL(
      mbdae_scenario_load_string(NULL, "kinred", yaml, NULL, 0, &s, err, sizeof err), 0);
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  CU_ASSERT_EQUAL(mbdae_scenario_run(&s, &cfg, res, err, sizeof err), MBDAE_OK);
  mbdae_scenario_free(&s);
}

/* the net: the same steps, Newton iterations and end invariants with the
 * reduction on and off (the Newton steps are equal up to round-off) */
static void test_net_same_run(void) {
  mbdae_run_result res[2];
  run_small_net("arkode_reduce: false", &res[0]);
  run_small_net("arkode_reduce: true", &res[1]);
  CU_ASSERT(res[0].stats.steps > 5);
  CU_ASSERT_EQUAL(res[0].stats.steps, res[1].stats.steps);
  CU_ASSERT_EQUAL(res[0].stats.newton_iters, res[1].stats.newton_iters);
  CU_ASSERT_EQUAL_FATAL(res[0].ninv, res[1].ninv);
  CU_ASSERT(res[0].ninv > 0);
  for (int i = 0; i < res[0].ninv; ++i)
    CU_ASSERT(fabs(res[0].inv[i].end - res[1].inv[i].end) <=
              1e-10 * (1.0 + fabs(res[0].inv[i].end)));
}

/* the same 6 x 6 net with the Newton systems solved in the multipliers
 * (solver/multiplier_newton.c): a modified Newton that drops only the
 * tension coupling between the velocities, (gamma h) 2 lambda I per string
 * against m / (gamma h), so the same steps and Newton iterations as the
 * exact matrix, and the end invariants within the run's tolerance */
static void test_net_multiplier_newton(void) {
  mbdae_run_result res[2];
  run_small_net("arkode_newton: full", &res[0]);
  run_small_net("arkode_newton: multiplier", &res[1]);
  CU_ASSERT(res[0].stats.steps > 5);
  CU_ASSERT(labs(res[0].stats.steps - res[1].stats.steps) <= 1);
  CU_ASSERT(labs(res[0].stats.newton_iters - res[1].stats.newton_iters) <=
            res[0].stats.newton_iters / 10);
  CU_ASSERT_EQUAL_FATAL(res[0].ninv, res[1].ninv);
  CU_ASSERT(res[0].ninv > 0);
  for (int i = 0; i < res[0].ninv; ++i) {
    double d = fabs(res[0].inv[i].end - res[1].inv[i].end);
    if (!(d <= 1e-5 * (1e-3 + fabs(res[0].inv[i].end))))
      printf("\n  invariant %d: %.10g full, %.10g multiplier\n", i, res[0].inv[i].end,
             res[1].inv[i].end);
    CU_ASSERT(d <= 1e-5 * (1e-3 + fabs(res[0].inv[i].end)));
  }
}

int main(void) {
  static const mbdae_test tests[] = {
    {"reduced solve = dense LU (colamd)", test_solve_colamd},
    {"reduced solve = dense LU (metis)", test_solve_metis},
    {"solve in the multipliers = dense LU (diagonal velocity block)", test_solve_multipliers},
    {"6 x 6 net: the same run with and without the reduction", test_net_same_run},
    {"6 x 6 net: the same run with the Newton systems in the multipliers",
     test_net_multiplier_newton},
    {NULL, NULL}};
  return mbdae_test_main("kinematic_reduction", tests);
}
