/* test_ball.c - the bouncing ball: parameter checks, residuals and
 * right-hand sides in both modes, Jacobians (dense and sparse) against
 * finite differences, the impact / Zeno / release event maps, the model-kind
 * table, and short engine runs against the closed form. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ball/ball.h"
#include "mbdae/mbdae.h"
#include "testutil.h"

static ball_params params(void) {
  ball_params p;
  ball_params_default(&p);
  p.g = 9.81;
  p.e = 0.5;
  p.h0 = 1.0;
  p.v0 = 0.0;
  p.mass = 2.0;
  p.zeno_velocity = 1e-3;
  p.zeno_time = 0.0;
  p.lift_rate = 0.0;
  p.alpha = 10.0;
  return p;
}

static void test_params_check(void) {
  ball_params p = params();
  mbdae_param_error err;
  CU_ASSERT_EQUAL(ball_params_check(&p, &err), MBDAE_OK);
  p.e = 1.01;
  CU_ASSERT_EQUAL(ball_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "e");
  p = params(); p.e = -0.1;
  CU_ASSERT_EQUAL(ball_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  p = params(); p.mass = 0.0;
  CU_ASSERT_EQUAL(ball_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "mass");
  p = params(); p.g = NAN;
  CU_ASSERT_EQUAL(ball_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "g");
  p = params(); p.h0 = -1.0;
  CU_ASSERT_EQUAL(ball_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  p = params(); p.h0 = 0.0; p.v0 = -1.0;
  CU_ASSERT_EQUAL(ball_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "v0");
  p = params(); p.e = 0.0;
  CU_ASSERT_EQUAL(ball_params_check(&p, &err), MBDAE_OK);
  p.e = 1.0;
  CU_ASSERT_EQUAL(ball_params_check(&p, &err), MBDAE_OK);
  ball_model *m = NULL;
  p.mass = -1.0;
  CU_ASSERT_EQUAL(ball_create(&p, MBDAE_FORM_DAE, &m), MBDAE_ERR_PARAMETER);
  CU_ASSERT_PTR_NULL(m);
}

static void test_residual_and_rhs(void) {
  ball_params p = params();
  p.lift_rate = 0.5;
  ball_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(ball_create(&p, MBDAE_FORM_DAE, &m), MBDAE_OK);
  const double t = 2.0, F = 0.5 * t;
  double y[3] = {0.3, -1.2, 0.7}, yp[3] = {-1.1, 4.0, 0.0}, r[3];
  m->mode = BALL_FLIGHT;
  ball_residual(t, y, yp, r, m);
  MBDAE_ASSERT_ABS(r[0], -1.1 + 1.2, 1e-15);
  MBDAE_ASSERT_ABS(r[1], 2.0 * 4.0 + 2.0 * 9.81 - F - 0.7, 1e-13);
  MBDAE_ASSERT_ABS(r[2], 0.7, 0.0);
  m->mode = BALL_CONTACT;
  ball_residual(t, y, yp, r, m);
  MBDAE_ASSERT_ABS(r[2], 4.0 + 2.0 * 10.0 * -1.2 + 100.0 * 0.3, 1e-13);
  ball_free(&m);
  CU_ASSERT_EQUAL_FATAL(ball_create(&p, MBDAE_FORM_ODE, &m), MBDAE_OK);
  double f[2];
  m->mode = BALL_FLIGHT;
  ball_rhs(t, y, f, m);
  MBDAE_ASSERT_ABS(f[0], -1.2, 0.0);
  MBDAE_ASSERT_ABS(f[1], -9.81 + F / 2.0, 1e-15);
  m->mode = BALL_CONTACT;
  ball_rhs(t, y, f, m);
  MBDAE_ASSERT_ABS(f[0], 0.0, 0.0);
  MBDAE_ASSERT_ABS(f[1], 0.0, 0.0);
  ball_free(&m);
}

/* A problem with only the sparse Jacobian, to check the pattern too. */
static mbdae_problem *sparse_only(ball_model *m) {
  mbdae_problem *pr = mbdae_problem_create(m->n, m->form);
  CU_ASSERT_PTR_NOT_NULL_FATAL(pr);
  mbdae_index nnz;
  const mbdae_index *cp, *ri;
  ball_sparse_pattern(m->form, &nnz, &cp, &ri);
  mbdae_problem_set_user_data(pr, m);
  if (m->form == MBDAE_FORM_DAE) mbdae_problem_set_residual(pr, ball_residual);
  else mbdae_problem_set_rhs(pr, ball_rhs);
  CU_ASSERT_EQUAL(mbdae_problem_set_jacobian_sparse(pr, nnz, cp, ri, ball_jac_sparse), 0);
  return pr;
}

static void check_jac(const mbdae_problem *pr, const double *y, const double *yp, double cj) {
  mbdae_jac_check jc;
  CU_ASSERT_EQUAL_FATAL(mbdae_jacobian_check(pr, 1.3, y, yp, cj, 0.0, 1e-7, &jc), MBDAE_OK);
  if (jc.max_rel_err > 1e-6 || jc.pattern_misses)
    printf("\n  worst (%d,%d): %g vs fd %g; misses %ld\n", jc.worst_row, jc.worst_col,
           jc.worst_analytic, jc.worst_fd, jc.pattern_misses);
  CU_ASSERT(jc.max_rel_err <= 1e-6);
  CU_ASSERT_EQUAL(jc.pattern_misses, 0);
}

static void test_jacobians(void) {
  ball_params p = params();
  p.lift_rate = 0.3;
  for (int form = 0; form < 2; ++form) {
    ball_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(ball_create(&p, (mbdae_form)form, &m), MBDAE_OK);
    mbdae_problem *sp = sparse_only(m);
    const double y[3] = {0.4, -0.8, 3.0}, yp[3] = {-0.7, 1.5, 0.2};
    for (int mode = 0; mode < 2; ++mode) {
      m->mode = mode;
      for (double cj = 0.0; cj < 2000.0; cj = cj * 10.0 + 7.0) {
        check_jac(m->problem, y, yp, cj); /* the dense Jacobian */
        check_jac(sp, y, yp, cj);         /* the sparse one, with its pattern */
      }
    }
    mbdae_problem_free(&sp);
    ball_free(&m);
  }
}

static void test_impact_map(void) {
  ball_params p = params();
  ball_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(ball_create(&p, MBDAE_FORM_DAE, &m), MBDAE_OK);
  double y[3] = {1e-14, -3.0, 0.0}, yp[3] = {-3.0, -9.81, 0.0}, r[3];
  int dirs[BALL_NROOTS] = {-1, 0, 0};
  mbdae_event_info info;
  memset(&info, 0, sizeof info);
  m->mode = BALL_FLIGHT;
  CU_ASSERT_EQUAL(ball_event(0.5, y, yp, dirs, &info, m), MBDAE_EVENT_CONTINUE);
  CU_ASSERT_EQUAL(m->mode, BALL_FLIGHT);
  MBDAE_ASSERT_ABS(y[BALL_Q], 0.0, 0.0);
  MBDAE_ASSERT_REL(y[BALL_V], 1.5, 1e-15);           /* v+ = -e v- */
  MBDAE_ASSERT_REL(info.data[BALL_EV_IMPULSE], 2.0 * 4.5, 1e-15);
  CU_ASSERT_STRING_EQUAL(info.label, "impact");
  ball_residual(0.5, y, yp, r, m); /* consistent with the flight mode */
  for (int i = 0; i < 3; ++i) MBDAE_ASSERT_ABS(r[i], 0.0, 1e-14);

  /* Zeno rule, velocity: e |v-| = 5e-4 < 1e-3 -> persistent contact */
  y[BALL_V] = -1e-3;
  CU_ASSERT_EQUAL(ball_event(0.7, y, yp, dirs, &info, m), MBDAE_EVENT_CONTINUE);
  CU_ASSERT_EQUAL(m->mode, BALL_CONTACT);
  CU_ASSERT_STRING_EQUAL(info.label, "rest");
  MBDAE_ASSERT_ABS(y[BALL_V], 0.0, 0.0);
  MBDAE_ASSERT_REL(y[BALL_LAMBDA], 2.0 * 9.81, 1e-15);
  MBDAE_ASSERT_REL(m->rest_time, 0.7, 0.0);
  ball_residual(0.7, y, yp, r, m);
  for (int i = 0; i < 3; ++i) MBDAE_ASSERT_ABS(r[i], 0.0, 1e-14);

  /* Zeno rule, time: remaining 2 e |v-| / (g (1 - e)) = 0.1 / 4.905 s =
   * 0.020387 s (post-impact speed 0.05 m/s is above zeno_velocity) */
  m->mode = BALL_FLIGHT;
  m->p.zeno_time = 0.02;
  y[BALL_V] = -0.1;
  ball_event(0.9, y, yp, dirs, &info, m);
  CU_ASSERT_EQUAL(m->mode, BALL_FLIGHT);
  MBDAE_ASSERT_REL(y[BALL_V], 0.05, 1e-15);
  m->p.zeno_time = 0.021;
  y[BALL_V] = -0.1;
  ball_event(0.9, y, yp, dirs, &info, m);
  CU_ASSERT_EQUAL(m->mode, BALL_CONTACT);

  /* apex and gap opening: nothing changes */
  m->mode = BALL_FLIGHT;
  int apex[BALL_NROOTS] = {0, -1, 0}, open[BALL_NROOTS] = {1, 0, 0};
  y[BALL_Q] = 0.2; y[BALL_V] = 0.0;
  CU_ASSERT_EQUAL(ball_event(1.0, y, yp, apex, &info, m), MBDAE_EVENT_NOCHANGE);
  CU_ASSERT_STRING_EQUAL(info.label, "apex");
  CU_ASSERT_EQUAL(ball_event(1.0, y, yp, open, &info, m), MBDAE_EVENT_NOCHANGE);
  ball_free(&m);
}

static void test_release_map(void) {
  ball_params p = params();
  p.h0 = 0.0;
  p.lift_rate = 4.0;
  for (int form = 0; form < 2; ++form) {
    ball_model *m = NULL;
    CU_ASSERT_EQUAL_FATAL(ball_create(&p, (mbdae_form)form, &m), MBDAE_OK);
    double y[3], yp[3], g[BALL_NROOTS];
    CU_ASSERT_EQUAL(ball_initial_state(m, 0.0, y, yp), MBDAE_OK);
    CU_ASSERT_EQUAL(m->mode, BALL_CONTACT);
    ball_roots(0.0, y, yp, g, m);
    MBDAE_ASSERT_REL(g[BALL_ROOT_NORMAL], 2.0 * 9.81, 1e-14);
    MBDAE_ASSERT_ABS(g[BALL_ROOT_GAP], 1.0, 0.0); /* inactive in contact */
    if (form == MBDAE_FORM_ODE) /* the DAE carries lambda as a state */
      MBDAE_ASSERT_REL(ball_normal_force(m, 1.0, y), 2.0 * 9.81 - 4.0, 1e-14);
    int dirs[BALL_NROOTS] = {0, 0, -1};
    mbdae_event_info info;
    const double tr = 2.0 * 9.81 / 4.0;
    CU_ASSERT_EQUAL(ball_event(tr, y, form ? NULL : yp, dirs, &info, m),
                    MBDAE_EVENT_CONTINUE);
    CU_ASSERT_EQUAL(m->mode, BALL_FLIGHT);
    CU_ASSERT_STRING_EQUAL(info.label, "release");
    MBDAE_ASSERT_REL(m->release_time, tr, 0.0);
    if (form == MBDAE_FORM_DAE) {
      double r[3];
      ball_residual(tr, y, yp, r, m);
      for (int i = 0; i < 3; ++i) MBDAE_ASSERT_ABS(r[i], 0.0, 1e-14);
    }
    ball_free(&m);
  }
}

static void test_kind_table(void) {
  const mbdae_model_kind *k = mbdae_model_kind_find("bouncing_ball");
  CU_ASSERT_PTR_EQUAL_FATAL(k, &mbdae_model_bouncing_ball);
  CU_ASSERT_EQUAL(k->params_size, sizeof(ball_params));
  /* the schema defaults are the model's defaults */
  ball_params d;
  ball_params_default(&d);
  for (int i = 0; i < k->nparams; ++i) {
    const double *field = (const double *)((const char *)&d + k->params[i].offset);
    MBDAE_ASSERT_ABS(k->params[i].def, *field, 0.0);
  }
  int nc = k->columns(NULL, NULL, 0);
  CU_ASSERT_EQUAL(nc, 5);
  mbdae_column cols[8];
  CU_ASSERT_EQUAL(k->columns(NULL, cols, 8), 5);
  CU_ASSERT_STRING_EQUAL(cols[0].name, "height");
  for (int i = 0; i < k->nplots; ++i) CU_ASSERT_PTR_NOT_NULL(k->plots[i].file);

  ball_params p = params();
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_RK4;
  mbdae_model *model = NULL;
  mbdae_param_error err;
  CU_ASSERT_EQUAL_FATAL(k->create(&p, &o, &model, &err), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_problem_size(k->problem(model)), BALL_N_ODE);
  double y[3], row[5];
  CU_ASSERT_EQUAL(k->initial_state(model, 0.0, y, NULL), MBDAE_OK);
  CU_ASSERT_EQUAL(k->output_row(model, 0.0, y, NULL, row), 0);
  MBDAE_ASSERT_REL(row[3], 2.0 * 9.81 * 1.0, 1e-15); /* energy m g h0 */
  mbdae_outcome out[8];
  CU_ASSERT(k->outcomes(model, y, NULL, out, 8) >= 3);
  k->destroy(&model);
  CU_ASSERT_PTR_NULL(model);
  p.e = 2.0;
  CU_ASSERT_EQUAL(k->check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_EQUAL(k->create(&p, &o, &model, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_PTR_NULL(model);
}

/* Engine runs: the first three impact times from the closed form
 * t1 = sqrt(2 h0 / g), t_{k+1} = t_k + 2 e^k V1 / g, rest, then m g. */
typedef struct run_log { int n; double t[64]; } run_log;

static int observer(double t, const double *y, const double *yp,
                    const mbdae_event_record *ev, void *ud) {
  (void)y; (void)yp;
  run_log *L = ud;
  if (ev && (!strcmp(ev->label, "impact") || !strcmp(ev->label, "rest")) && L->n < 64)
    L->t[L->n++] = t;
  return 0;
}

static void run_method(mbdae_method method) {
  ball_params p = params();
  p.zeno_velocity = 0.05;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = method;
  o.t_end = 3.0;
  o.dt_out = 0.1;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  run_log L = {0, {0}};
  o.observer = observer;
  o.observer_data = &L;
  const mbdae_model_kind *k = &mbdae_model_bouncing_ball;
  mbdae_model *model = NULL;
  mbdae_param_error err;
  CU_ASSERT_EQUAL_FATAL(k->create(&p, &o, &model, &err), MBDAE_OK);
  double y[3] = {0}, yp[3] = {0};
  CU_ASSERT_EQUAL(k->initial_state(model, 0.0, y, yp), MBDAE_OK);
  mbdae_stats st;
  char msg[256];
  int rc = mbdae_run(k->problem(model), &o, y, yp, &st, msg, sizeof msg);
  if (rc) printf("\n  %s: %s\n", mbdae_method_name(method), msg);
  CU_ASSERT_EQUAL(rc, MBDAE_OK);
  const double V1 = sqrt(2.0 * 9.81), e = 0.5;
  double tk = V1 / 9.81, u = V1;
  /* rest at the first k with e^k V1 < 0.05: e^6 V1 = 0.069, e^7 V1 = 0.035 */
  CU_ASSERT_EQUAL(L.n, 7);
  for (int i = 0; i < L.n && i < 7; ++i) {
    MBDAE_ASSERT_REL(L.t[i], tk, 1e-8);
    u *= e;
    tk += 2.0 * u / 9.81;
  }
  const ball_model *bm = (const ball_model *)model;
  CU_ASSERT_EQUAL(bm->mode, BALL_CONTACT);
  MBDAE_ASSERT_REL(ball_normal_force(bm, 3.0, y), 2.0 * 9.81, 1e-12);
  MBDAE_ASSERT_ABS(y[BALL_Q], 0.0, 0.0);
  k->destroy(&model);
}

/* The accumulation-time rule alone: rest at the first impact k whose
 * remaining time 2 e w_k / (g (1 - e)) < 0.05 s, w_k = e^(k-1) V1: with
 * e = 0.5 that is w_k < 0.24525 m/s, e^5 V1 = 0.138 -> k = 6. */
static void test_run_zeno_time(void) {
  ball_params p = params();
  p.zeno_velocity = 0.0;
  p.zeno_time = 0.05;
  mbdae_options o;
  mbdae_options_default(&o);
  o.t_end = 3.0;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  ball_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(ball_create(&p, MBDAE_FORM_DAE, &m), MBDAE_OK);
  double y[3], yp[3];
  ball_initial_state(m, 0.0, y, yp);
  CU_ASSERT_EQUAL(mbdae_run(m->problem, &o, y, yp, NULL, NULL, 0), MBDAE_OK);
  const double V1 = sqrt(2.0 * 9.81), e = 0.5;
  int K = 1;
  double w = V1, tK = V1 / 9.81;
  while (!(2.0 * e * w / (9.81 * (1.0 - e)) < 0.05)) {
    w *= e;
    tK += 2.0 * w / 9.81;
    K++;
  }
  CU_ASSERT_EQUAL(K, 6);
  CU_ASSERT_EQUAL(m->impacts, K);
  CU_ASSERT_EQUAL(m->mode, BALL_CONTACT);
  MBDAE_ASSERT_REL(m->rest_time, tK, 1e-9);
  ball_free(&m);
}

static void test_run_ida(void) { run_method(MBDAE_METHOD_IDA); }
static void test_run_cvode_bdf(void) { run_method(MBDAE_METHOD_CVODE_BDF); }
static void test_run_cvode_adams(void) { run_method(MBDAE_METHOD_CVODE_ADAMS); }
static void test_run_rk4(void) { run_method(MBDAE_METHOD_RK4); }

static void test_run_ida_klu(void) {
  ball_params p = params();
  p.zeno_velocity = 0.05;
  mbdae_options o;
  mbdae_options_default(&o);
  o.linsol = MBDAE_LINSOL_KLU;
  o.t_end = 3.0;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  ball_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(ball_create(&p, MBDAE_FORM_DAE, &m), MBDAE_OK);
  double y[3], yp[3];
  ball_initial_state(m, 0.0, y, yp);
  mbdae_stats st;
  CU_ASSERT_EQUAL(mbdae_run(m->problem, &o, y, yp, &st, NULL, 0), MBDAE_OK);
  CU_ASSERT_EQUAL(m->impacts, 7);
  MBDAE_ASSERT_REL(y[BALL_LAMBDA], 2.0 * 9.81, 1e-12);
  ball_free(&m);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"parameter checks", test_params_check},
    {"residual and right-hand side", test_residual_and_rhs},
    {"dense and sparse Jacobians vs finite differences", test_jacobians},
    {"impact, Zeno and apex event maps", test_impact_map},
    {"release event map", test_release_map},
    {"model-kind table", test_kind_table},
    {"IDA run vs closed form", test_run_ida},
    {"IDA run, accumulation-time Zeno rule", test_run_zeno_time},
    {"IDA + KLU run", test_run_ida_klu},
    {"CVODE BDF run vs closed form", test_run_cvode_bdf},
    {"CVODE Adams run vs closed form", test_run_cvode_adams},
    {"RK4 run vs closed form", test_run_rk4},
    {NULL, NULL},
  };
  return mbdae_test_main("ball", tests);
}
