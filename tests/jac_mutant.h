/* jac_mutant.h - proof that a model's Jacobian check has teeth: the same
 * equations with one analytic entry off by a small relative amount must
 * fail the check at the tolerance the model's tests use, and the checker
 * must point at that entry. Header-only (static), for the tests of the
 * elastic and compliant models (test_strings_elastic.c,
 * test_capture_compliant.c, test_tow.c).
 *
 * The mutant is a wrapper problem: its residual (right-hand side) is the
 * original's; its dense Jacobian is the original's analytic one (dense view
 * of the sparse callback) with delta added to entry (row, col). */
#ifndef MBDAE_TESTS_JAC_MUTANT_H
#define MBDAE_TESTS_JAC_MUTANT_H

#include <math.h>

#include <CUnit/CUnit.h>

#include "mbdae/jaccheck.h"
#include "mbdae/problem.h"
#include "mbdae/status.h"

typedef struct jac_mutant {
  const mbdae_problem *orig;
  int n, row, col;
  double delta;
} jac_mutant;

static int jac_mutant_res(double t, const double *y, const double *yp, double *out, void *ud) {
  return mbdae_problem_eval(((const jac_mutant *)ud)->orig, t, y, yp, out);
}

static int jac_mutant_rhs(double t, const double *y, double *out, void *ud) {
  return mbdae_problem_eval(((const jac_mutant *)ud)->orig, t, y, NULL, out);
}

static int jac_mutant_jac(double t, double cj, const double *y, const double *yp, double *J,
                          void *ud) {
  const jac_mutant *mu = ud;
  int rc = mbdae_problem_eval_jacobian_dense(mu->orig, t, cj, y, yp, J);
  J[(size_t)mu->col * (size_t)mu->n + (size_t)mu->row] += mu->delta;
  return rc;
}

/* The largest |J_ij| of the analytic Jacobian in rows [r0, r1) and
 * columns [c0, c1) (e.g. the accelerations' block against the positions:
 * the threads' stiffness), into *row, *col; returns the value. */
static double jac_mutant_pick(const mbdae_problem *p, double t, double cj, const double *y,
                              const double *yp, int r0, int r1, int c0, int c1, int *row,
                              int *col) {
  int n = mbdae_problem_size(p);
  double *J = calloc((size_t)n * (size_t)n, sizeof *J), best = 0.0;
  CU_ASSERT_FATAL(J != NULL);
  CU_ASSERT_EQUAL_FATAL(mbdae_problem_eval_jacobian_dense(p, t, cj, y, yp, J), 0);
  *row = r0, *col = c0;
  for (int j = c0; j < c1; ++j)
    for (int i = r0; i < r1; ++i) {
      double v = J[(size_t)j * (size_t)n + (size_t)i];
      if (fabs(v) > fabs(best)) best = v, *row = i, *col = j;
    }
  free(J);
  return best;
}

/* Entry (row, col) off by delta: the check with rel_step and the tolerance
 * tol must fail there (worst entry = the mutated one); delta must exceed
 * tol max(1, |J_ij|). */
static void jac_mutant_expect_caught(const mbdae_problem *p, double t, const double *y,
                                     const double *yp, double cj, double rel_step, double tol,
                                     int row, int col, double delta) {
  int n = mbdae_problem_size(p);
  mbdae_form form = mbdae_problem_form(p);
  jac_mutant mu = {p, n, row, col, delta};
  mbdae_problem *w = mbdae_problem_create(n, form);
  CU_ASSERT_FATAL(w != NULL);
  mbdae_problem_set_user_data(w, &mu);
  if (form == MBDAE_FORM_DAE)
    mbdae_problem_set_residual(w, jac_mutant_res);
  else
    mbdae_problem_set_rhs(w, jac_mutant_rhs);
  mbdae_problem_set_jacobian_dense(w, jac_mutant_jac);
  mbdae_jac_check jc;
  CU_ASSERT_EQUAL_FATAL(mbdae_jacobian_check(w, t, y, form == MBDAE_FORM_DAE ? yp : NULL, cj,
                                             rel_step, 1e-7, &jc),
                        MBDAE_OK);
  CU_ASSERT(jc.max_rel_err > tol);
  CU_ASSERT_EQUAL(jc.worst_row, row);
  CU_ASSERT_EQUAL(jc.worst_col, col);
  mbdae_problem_free(&w);
}

/* The largest entry of rows [r0, r1) x columns [c0, c1) (the first if all
 * vanish) off by 100 tol in the checker's measure: caught. */
static void jac_mutant_block(const mbdae_problem *p, double t, const double *y, const double *yp,
                             double cj, double rel_step, double tol, int r0, int r1, int c0,
                             int c1) {
  int row, col;
  double v = jac_mutant_pick(p, t, cj, y, yp, r0, r1, c0, c1, &row, &col);
  jac_mutant_expect_caught(p, t, y, yp, cj, rel_step, tol, row, col,
                           100.0 * tol * fmax(1.0, fabs(v)));
}

#endif
