/* test_pendulum.c - the Cartesian pendulum: parameter checks, consistent
 * initial state, residuals of both formulations, the ODE form against the
 * DAE, Jacobians (dense and sparse CSC) against finite differences, and
 * short engine runs against the elliptic-integral period. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "pendulum/pendulum.h"
#include "testutil.h"

static pendulum_params params(int formulation) {
  pendulum_params p;
  pendulum_params_default(&p);
  p.length = 1.3;
  p.mass = 0.7;
  p.g = 9.81;
  p.theta0 = 0.9;
  p.omega0 = 0.4;
  p.formulation = formulation;
  p.alpha = 5.0;
  p.beta = 6.0;
  return p;
}

/* K(k) by the arithmetic-geometric mean (independent of the validation). */
static double ellip_k(double k) {
  double a = 1.0, b = sqrt(1.0 - k * k);
  for (int i = 0; i < 40; ++i) {
    double an = 0.5 * (a + b);
    b = sqrt(a * b);
    a = an;
  }
  return acos(-1.0) / (a + b);
}

static void test_params_check(void) {
  pendulum_params p = params(PEND_GGL);
  mbdae_param_error err;
  CU_ASSERT_EQUAL(pendulum_params_check(&p, &err), MBDAE_OK);
  p.length = -1.0;
  CU_ASSERT_EQUAL(pendulum_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "length");
  p = params(PEND_GGL); p.mass = 0.0;
  CU_ASSERT_EQUAL(pendulum_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  p = params(PEND_GGL); p.theta0 = INFINITY;
  CU_ASSERT_EQUAL(pendulum_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  p = params(PEND_GGL); p.formulation = 7;
  CU_ASSERT_EQUAL(pendulum_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  p = params(PEND_GGL);
  pendulum_model *m = NULL;
  CU_ASSERT_EQUAL(pendulum_create(&p, MBDAE_FORM_ODE, &m), MBDAE_ERR_UNSUPPORTED);
  CU_ASSERT_PTR_NULL(m);
  /* the kind refuses GGL with an ODE method and says why */
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_BDF;
  mbdae_model *model = NULL;
  CU_ASSERT_EQUAL(mbdae_model_pendulum.create(&p, &o, &model, &err), MBDAE_ERR_UNSUPPORTED);
  CU_ASSERT_STRING_EQUAL(err.key, "solver.method");
  CU_ASSERT_PTR_NULL(model);
}

/* The initial state solves the residual, phi = phi' = 0, and the tension
 * is the circular-motion value m (L w^2 + g cos theta). */
static void test_initial_state(void) {
  for (int f = 0; f < 2; ++f) {
    pendulum_params p = params(f);
    pendulum_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(pendulum_create(&p, MBDAE_FORM_DAE, &m), MBDAE_OK);
    double y[PEND_NMAX], yp[PEND_NMAX], r[PEND_NMAX];
    CU_ASSERT_EQUAL(pendulum_initial_state(m, 0.0, y, yp), MBDAE_OK);
    pendulum_residual(0.0, y, yp, r, m);
    for (int i = 0; i < m->n; ++i) MBDAE_ASSERT_ABS(r[i], 0.0, 1e-13);
    const double tension = p.mass * (p.length * p.omega0 * p.omega0 + p.g * cos(p.theta0));
    MBDAE_ASSERT_REL(pendulum_lambda(m, y) * p.length, tension, 1e-13);
    /* lambda' by central differences of lambda = m (v.v - g y) / L^2 along yp */
    const double h = 1e-5;
    double lam[2];
    for (int s = 0; s < 2; ++s) {
      double yh[4];
      for (int i = 0; i < 4; ++i) yh[i] = y[i] + (s ? h : -h) * yp[i];
      double v2 = yh[2] * yh[2] + yh[3] * yh[3];
      lam[s] = p.mass * (v2 - p.g * yh[1]) / (p.length * p.length);
    }
    MBDAE_ASSERT_ABS((lam[1] - lam[0]) / (2.0 * h), yp[PEND_LAMBDA], 1e-7);
    pendulum_free(&m);
  }
}

/* At a state on the manifold, the ODE right-hand side (lambda eliminated)
 * equals the DAE's consistent derivative. */
static void test_ode_matches_dae(void) {
  pendulum_params p = params(PEND_BAUMGARTE);
  pendulum_model *d = NULL, *o = NULL;
  CU_ASSERT_EQUAL_FATAL(pendulum_create(&p, MBDAE_FORM_DAE, &d), MBDAE_OK);
  CU_ASSERT_EQUAL_FATAL(pendulum_create(&p, MBDAE_FORM_ODE, &o), MBDAE_OK);
  double y[PEND_NMAX], yp[PEND_NMAX], f[4];
  pendulum_initial_state(d, 0.0, y, yp);
  pendulum_rhs(0.0, y, f, o);
  for (int i = 0; i < 4; ++i) MBDAE_ASSERT_ABS(f[i], yp[i], 1e-13);
  MBDAE_ASSERT_REL(pendulum_lambda(o, y), y[PEND_LAMBDA], 1e-13);
  /* off the manifold the Baumgarte terms act: phi'' = -2 alpha phi' - beta^2 phi */
  double z[4] = {0.9, -1.1, 0.3, 0.5};
  pendulum_rhs(0.0, z, f, o);
  double phi = 0.5 * (z[0] * z[0] + z[1] * z[1] - p.length * p.length);
  double phid = z[0] * z[2] + z[1] * z[3];
  double phidd = z[0] * f[2] + z[1] * f[3] + z[2] * z[2] + z[3] * z[3];
  MBDAE_ASSERT_ABS(phidd, -2.0 * p.alpha * phid - p.beta * p.beta * phi, 1e-12);
  pendulum_free(&d);
  pendulum_free(&o);
}

static mbdae_problem *sparse_only(pendulum_model *m) {
  mbdae_problem *pr = mbdae_problem_create(m->n, m->form);
  CU_ASSERT_PTR_NOT_NULL_FATAL(pr);
  mbdae_index nnz;
  const mbdae_index *cp, *ri;
  pendulum_sparse_pattern(m, &nnz, &cp, &ri);
  mbdae_problem_set_user_data(pr, m);
  if (m->form == MBDAE_FORM_DAE) mbdae_problem_set_residual(pr, pendulum_residual);
  else mbdae_problem_set_rhs(pr, pendulum_rhs);
  CU_ASSERT_EQUAL(mbdae_problem_set_jacobian_sparse(pr, nnz, cp, ri, pendulum_jac_sparse),
                  MBDAE_OK);
  return pr;
}

static void check_jac(const mbdae_problem *pr, const double *y, const double *yp, double cj) {
  mbdae_jac_check jc;
  CU_ASSERT_EQUAL_FATAL(mbdae_jacobian_check(pr, 0.2, y, yp, cj, 0.0, 1e-7, &jc), MBDAE_OK);
  if (jc.max_rel_err > 1e-6 || jc.pattern_misses)
    printf("\n  worst (%d,%d): %g vs fd %g; misses %ld at (%d,%d)\n", jc.worst_row,
           jc.worst_col, jc.worst_analytic, jc.worst_fd, jc.pattern_misses, jc.miss_row,
           jc.miss_col);
  CU_ASSERT(jc.max_rel_err <= 1e-6);
  CU_ASSERT_EQUAL(jc.pattern_misses, 0);
}

/* Off-manifold states with nonzero multipliers, so every entry is exercised. */
static void test_jacobians(void) {
  const double y[PEND_NMAX] = {0.8, -0.9, 0.35, -0.6, 2.1, 0.03};
  const double yp[PEND_NMAX] = {0.3, -0.5, -1.7, -7.2, 0.4, 0.0};
  struct { int f; mbdae_form form; } cfg[] = {
    {PEND_GGL, MBDAE_FORM_DAE}, {PEND_BAUMGARTE, MBDAE_FORM_DAE},
    {PEND_BAUMGARTE, MBDAE_FORM_ODE}};
  for (int c = 0; c < 3; ++c) {
    pendulum_params p = params(cfg[c].f);
    pendulum_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(pendulum_create(&p, cfg[c].form, &m), MBDAE_OK);
    mbdae_problem *sp = sparse_only(m);
    for (double cj = 0.0; cj < 5000.0; cj = cj * 10.0 + 3.0) {
      check_jac(m->problem, y, yp, cj);
      check_jac(sp, y, yp, cj);
    }
    mbdae_problem_free(&sp);
    pendulum_free(&m);
  }
}

static void test_event_and_invariants(void) {
  pendulum_params p = params(PEND_GGL);
  pendulum_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(pendulum_create(&p, MBDAE_FORM_DAE, &m), MBDAE_OK);
  double y[PEND_NMAX], yp[PEND_NMAX], g, inv[PEND_NINV];
  pendulum_initial_state(m, 0.0, y, yp);
  pendulum_roots(0.0, y, yp, &g, m);
  MBDAE_ASSERT_REL(g, p.length * sin(p.theta0), 1e-15);
  pendulum_invariants(0.0, y, yp, inv, m);
  MBDAE_ASSERT_REL(inv[PEND_INV_ENERGY],
                   0.5 * p.mass * pow(p.length * p.omega0, 2) -
                       p.mass * p.g * p.length * cos(p.theta0), 1e-14);
  MBDAE_ASSERT_ABS(inv[PEND_INV_PHI], 0.0, 1e-15);
  MBDAE_ASSERT_ABS(inv[PEND_INV_PHIDOT], 0.0, 1e-15);
  int dirs[1] = {-1};
  mbdae_event_info info;
  double ycopy[PEND_NMAX];
  memcpy(ycopy, y, sizeof y);
  CU_ASSERT_EQUAL(pendulum_event(0.5, y, yp, dirs, &info, m), MBDAE_EVENT_NOCHANGE);
  CU_ASSERT_EQUAL(memcmp(y, ycopy, sizeof y), 0);
  dirs[0] = 1;
  pendulum_event(1.0, y, yp, dirs, &info, m);
  dirs[0] = -1;
  pendulum_event(1.7, y, yp, dirs, &info, m);
  CU_ASSERT_EQUAL(m->crossings, 2);
  MBDAE_ASSERT_REL(m->last_crossing - m->first_crossing, 1.2, 1e-15);
  pendulum_free(&m);
}

static void test_kind_table(void) {
  const mbdae_model_kind *k = mbdae_model_kind_find("pendulum");
  CU_ASSERT_PTR_EQUAL_FATAL(k, &mbdae_model_pendulum);
  CU_ASSERT_EQUAL(k->params_size, sizeof(pendulum_params));
  pendulum_params d;
  pendulum_params_default(&d);
  for (int i = 0; i < k->nparams; ++i) {
    const mbdae_param_spec *s = &k->params[i];
    const char *field = (const char *)&d + s->offset;
    if (s->type == MBDAE_PARAM_DOUBLE) MBDAE_ASSERT_ABS(s->def, *(const double *)field, 0.0);
    if (s->type == MBDAE_PARAM_ENUM) {
      CU_ASSERT_EQUAL((int)s->def, *(const int *)field);
      CU_ASSERT_STRING_EQUAL(s->choices[PEND_GGL], "ggl");
      CU_ASSERT_STRING_EQUAL(s->choices[PEND_BAUMGARTE], "baumgarte");
    }
  }
  mbdae_column cols[16];
  int nc = k->columns(NULL, cols, 16);
  CU_ASSERT_EQUAL(nc, k->columns(NULL, NULL, 0));
  pendulum_params p = params(PEND_BAUMGARTE);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_RK4;
  mbdae_model *model = NULL;
  mbdae_param_error err;
  CU_ASSERT_EQUAL_FATAL(k->create(&p, &o, &model, &err), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_problem_size(k->problem(model)), PEND_N_ODE);
  double y[PEND_NMAX], row[16];
  CU_ASSERT_EQUAL(k->initial_state(model, 0.0, y, NULL), MBDAE_OK);
  CU_ASSERT_EQUAL(k->output_row(model, 0.0, y, NULL, row), 0);
  MBDAE_ASSERT_REL(row[4], p.theta0, 1e-15);                 /* theta */
  MBDAE_ASSERT_ABS(row[7], 0.0, 0.0);                        /* energy error */
  k->destroy(&model);
  CU_ASSERT_PTR_NULL(model);
  /* GGL in IDA: the kind keeps the index-2 variables out of the error test */
  p = params(PEND_GGL);
  mbdae_options_default(&o);
  CU_ASSERT_EQUAL_FATAL(k->create(&p, &o, &model, &err), MBDAE_OK);
  CU_ASSERT_EQUAL(o.suppress_alg, 1);
  CU_ASSERT(o.h_init > 0.0);
  CU_ASSERT_PTR_NOT_NULL(o.atol_vec);
  k->destroy(&model);
}

/* Two periods from rest: crossings at T/4 and 5T/4, against the exact T. */
static void run_case(int formulation, mbdae_method method, mbdae_linsol linsol,
                     double tol) {
  pendulum_params p = params(formulation);
  p.omega0 = 0.0;
  const double T = 4.0 * sqrt(p.length / p.g) * ellip_k(sin(0.5 * p.theta0));
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = method;
  o.linsol = linsol;
  o.t_end = 1.5 * T;
  o.dt_out = T / 20.0;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  o.rk4_step = 1e-3;
  const mbdae_model_kind *k = mbdae_model_kind_find("pendulum");
  CU_ASSERT_PTR_NOT_NULL_FATAL(k);
  mbdae_model *model = NULL;
  mbdae_param_error err;
  CU_ASSERT_EQUAL_FATAL(k->create(&p, &o, &model, &err), MBDAE_OK);
  double y[PEND_NMAX] = {0}, yp[PEND_NMAX] = {0};
  CU_ASSERT_EQUAL(k->initial_state(model, 0.0, y, yp), MBDAE_OK);
  mbdae_stats st;
  char msg[256];
  int rc = mbdae_run(k->problem(model), &o, y, yp, &st, msg, sizeof msg);
  if (rc) printf("\n  run failed: %s\n", msg);
  CU_ASSERT_EQUAL(rc, MBDAE_OK);
  const pendulum_model *pm = (const pendulum_model *)model;
  CU_ASSERT_EQUAL(pm->crossings, 2);
  MBDAE_ASSERT_REL(pm->first_crossing, 0.25 * T, tol);
  MBDAE_ASSERT_REL(pm->last_crossing - pm->first_crossing, T, tol);
  mbdae_outcome out[8];
  int n = k->outcomes(model, y, yp, out, 8);
  CU_ASSERT(n >= 2);
  CU_ASSERT_STRING_EQUAL(out[1].name, "period");
  MBDAE_ASSERT_REL(out[1].value, T, tol);
  k->destroy(&model);
}

static void test_run_ggl_dense(void) {
  run_case(PEND_GGL, MBDAE_METHOD_IDA, MBDAE_LINSOL_DENSE, 1e-6);
}
static void test_run_ggl_klu(void) {
  run_case(PEND_GGL, MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU, 1e-6);
}
static void test_run_baumgarte_ida_klu(void) {
  run_case(PEND_BAUMGARTE, MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU, 1e-6);
}
static void test_run_baumgarte_cvode(void) {
  run_case(PEND_BAUMGARTE, MBDAE_METHOD_CVODE_BDF, MBDAE_LINSOL_DENSE, 1e-6);
}
/* RK4 with h = 1e-3 s: global error O(h^4) ~ 1e-12 per unit time scale. */
static void test_run_baumgarte_rk4(void) {
  run_case(PEND_BAUMGARTE, MBDAE_METHOD_RK4, MBDAE_LINSOL_DENSE, 1e-6);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"parameter checks", test_params_check},
    {"consistent initial state", test_initial_state},
    {"ODE form matches the DAE; Baumgarte dynamics", test_ode_matches_dae},
    {"dense and sparse Jacobians vs finite differences", test_jacobians},
    {"crossing event and invariants", test_event_and_invariants},
    {"model-kind table", test_kind_table},
    {"GGL, IDA dense: period", test_run_ggl_dense},
    {"GGL, IDA KLU: period", test_run_ggl_klu},
    {"Baumgarte, IDA KLU: period", test_run_baumgarte_ida_klu},
    {"Baumgarte, CVODE BDF: period", test_run_baumgarte_cvode},
    {"Baumgarte, RK4: period", test_run_baumgarte_rk4},
    {NULL, NULL},
  };
  return mbdae_test_main("pendulum", tests);
}
