/* test_ida_krylov.c - IDA with SPGMR (linear_solver spgmr-jacobi and
 * spgmr, solver/ida_krylov.c) against IDA with KLU on a small elastic net
 * that snaps taut and hits a tumbling box (Kevlar threads, Hunt-Crossley
 * contact with friction): the same end state within the tolerance, the
 * Krylov path really iterating; and the bad inputs: an unknown value of
 * solver.linear_solver, spgmr with a method other than ida. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture_compliant.h"
#include "capture_setups.h"
#include "polytope/rigid_body.h"
#include "mbdae/status.h"
#include "run.h"
#include "scenario.h"
#include "testutil.h"

/* 4 x 4 net of 10 g points on 0.4 m Kevlar threads (the shipped
 * capture_elastic.yaml's thread and contact), launched at the box so that
 * the threads snap taut at 0.1 s and the net hits the box before 0.4 s */
static void krylov_params(capture_params *p) {
  small_params(p, CAPTURE_MODE_COMPLIANT);
  p->rows = p->cols = 4;
  p->spacing = 0.4;
  p->point_mass = 0.01;
  set3(p->launch_point, 0.1, -0.05, -1.2);
  set3(p->launch_velocity, 0.0, 0.0, 3.0);
  p->deploy_time = 0.1;
  set3(p->box_size, 1.0, 1.0, 1.0);
  p->body_mass = 2.0;
  set3(p->body_omega, 0.3, 0.5, 0.2);
  p->string_ea = 5.54e4;
  p->string_damping = 1.31e4;
  p->contact_stiffness = 1e6;
  p->contact_exponent = 1.5;
  p->contact_restitution = 0.3;
  p->contact_reference_velocity = 1.0;
  p->friction = 0.3;
  p->friction_velocity = 0.01;
}

/* integrate to t_end with the linear solver ls; y gets the end state */
static int run_with(mbdae_linsol ls, double *y, int n, mbdae_stats *st, double *body_w) {
  capture_params p;
  krylov_params(&p);
  capture_model *m = NULL;
  if (capture_create_compliant(&p, 1, &m, NULL) != MBDAE_OK) return -1;
  double *yp = calloc((size_t)n, sizeof *yp);
  int rc = yp && capture_size(m) == n ? MBDAE_OK : -1;
  if (rc == MBDAE_OK) rc = capture_initial_state(m, 0.0, y);
  if (rc == MBDAE_OK) rc = capture_compliant_rhs(m, 0.0, y, yp);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.linsol = ls;
  o.ordering = MBDAE_ORDERING_AMD;
  o.t_end = 0.4;
  o.dt_out = 0.1;
  o.rtol = 1e-8;
  o.atol = 1e-10;
  if (rc == MBDAE_OK) rc = mbdae_run(capture_problem(m), &o, y, yp, st, NULL, 0);
  if (rc == MBDAE_OK) *body_w = y[capture_body_offset(m) + MBDAE_RB_U + 2];
  free(yp);
  capture_free(&m);
  return rc;
}

static void test_same_solution(void) {
  capture_params p;
  krylov_params(&p);
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create_compliant(&p, 1, &m, NULL), MBDAE_OK);
  int n = capture_size(m);
  capture_free(&m);
  double *ref = calloc((size_t)n, sizeof *ref), *y = calloc((size_t)n, sizeof *y);
  CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
  CU_ASSERT_PTR_NOT_NULL_FATAL(y);
  mbdae_stats sk, s;
  double w = 0.0;
  CU_ASSERT_EQUAL_FATAL(run_with(MBDAE_LINSOL_KLU, ref, n, &sk, &w), MBDAE_OK);
  CU_ASSERT(fabs(w) > 1e-3); /* the net hit the box: the box moves along z */
  static const mbdae_linsol krylov[] = {MBDAE_LINSOL_SPGMR_JACOBI, MBDAE_LINSOL_SPGMR};
  for (int v = 0; v < 2; ++v) {
    CU_ASSERT_EQUAL_FATAL(run_with(krylov[v], y, n, &s, &w), MBDAE_OK);
    double worst = 0.0, scale = 0.0;
    for (int i = 0; i < n; ++i) {
      worst = fmax(worst, fabs(y[i] - ref[i]));
      scale = fmax(scale, fabs(ref[i]));
    }
    /* two runs at rtol 1e-8 over a taut, ringing, contacting 0.4 s agree
     * to a few hundred times the tolerance, not to rounding */
    if (!(worst <= 1e-5 * scale))
      printf("\n  %s: max |y - y_klu| = %.3e (scale %.3g)\n",
             v ? "spgmr" : "spgmr-jacobi", worst, scale);
    CU_ASSERT(worst <= 1e-5 * scale);
    CU_ASSERT(s.krylov_iters > 0);
    CU_ASSERT(s.prec_factors > 0);
    CU_ASSERT_EQUAL(s.jac_evals, 0); /* no matrix of IDA's own */
    if (krylov[v] == MBDAE_LINSOL_SPGMR) { /* the factorisation kept across set-ups */
      CU_ASSERT(s.prec_factors < s.lin_setups);
    } else {
      CU_ASSERT_EQUAL(s.prec_factors, s.lin_setups);
    }
    printf("\n  %s: %ld steps, %ld Newton, %ld Krylov iterations, %ld set-ups, %ld evaluations "
           "(klu: %ld steps, %ld factorisations)", v ? "spgmr" : "spgmr-jacobi", s.steps,
           s.newton_iters, s.krylov_iters, s.lin_setups, s.prec_factors, sk.steps, sk.jac_evals);
  }
  CU_ASSERT_EQUAL(sk.krylov_iters, 0);
  free(ref);
  free(y);
}

static void test_bad_input(void) {
  char path[4096], err[1024];
  snprintf(path, sizeof path, "%s", mbdae_test_source_path("scenarios/capture_elastic.yaml"));
  mbdae_scenario s;
  const char *bad[] = {"solver.linear_solver=gmres"};
  CU_ASSERT_NOT_EQUAL(mbdae_scenario_load(path, bad, 1, &s, err, sizeof err), MBDAE_OK);
  if (!strstr(err, "key 'solver.linear_solver'")) printf("\n  %s\n", err);
  CU_ASSERT(strstr(err, "key 'solver.linear_solver'") != NULL);
  CU_ASSERT(strstr(err, "spgmr") != NULL); /* the accepted values are listed */
  CU_ASSERT(strchr(err, '\n') == NULL);

  /* spgmr with cvode-bdf: refused before anything is written */
  const char *cvode[] = {"solver.method=cvode-bdf", "solver.linear_solver=spgmr",
                         "solver.t_end=0.01"};
  CU_ASSERT_EQUAL_FATAL(mbdae_scenario_load(path, cvode, 3, &s, err, sizeof err), MBDAE_OK);
  const char *dir = mbdae_test_tmpdir("krylov-reject");
  char out[4200];
  snprintf(out, sizeof out, "%s/never", dir);
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, &s);
  cfg.out_dir = out;
  mbdae_run_result r;
  int rc = mbdae_scenario_run(&s, &cfg, &r, err, sizeof err);
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_SCENARIO);
  if (!strstr(err, "key 'solver.linear_solver': linear_solver spgmr is available with method "
                   "ida only"))
    printf("\n  rc %d: %s\n", rc, err);
  CU_ASSERT(strstr(err, "key 'solver.linear_solver': linear_solver spgmr is available with "
                        "method ida only") != NULL);
  FILE *f = fopen(out, "r");
  CU_ASSERT_PTR_NULL(f);
  if (f) fclose(f);
  mbdae_scenario_free(&s);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"spgmr, spgmr-jacobi reproduce klu on an elastic net capture", test_same_solution},
    {"bad linear_solver refused with its key", test_bad_input},
    {NULL, NULL}};
  return mbdae_test_main("ida_krylov", tests);
}
