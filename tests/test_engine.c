/* test_engine.c - the engine API, backends, event location, simultaneous
 * roots, root masking, the Zeno guard, consistency checks and failure
 * reporting, on small problems with closed-form solutions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "testutil.h"

/* ---- y' = -k y (ODE) and F = y' + k y (DAE): y = y0 e^{-k t} ---------- */
typedef struct decay { double k, level; int nev, ncalls, both; double tev[8]; } decay;

static int decay_rhs(double t, const double *y, double *f, void *ud) {
  (void)t;
  decay *d = ud;
  f[0] = -d->k * y[0];
  return 0;
}
static int decay_res(double t, const double *y, const double *yp, double *r, void *ud) {
  (void)t;
  decay *d = ud;
  r[0] = yp[0] + d->k * y[0];
  return 0;
}
static int decay_jac(double t, double cj, const double *y, const double *yp, double *J,
                     void *ud) {
  (void)t, (void)y, (void)yp;
  decay *d = ud;
  J[0] = d->k + cj; /* DAE: dF/dy + cj dF/dyp; the ODE test uses its own */
  return 0;
}
static int decay_jac_ode(double t, double cj, const double *y, const double *yp,
                         double *J, void *ud) {
  (void)t, (void)cj, (void)y, (void)yp;
  J[0] = -((decay *)ud)->k;
  return 0;
}
/* two roots crossing at the same instant: y = level and 2y = 2 level */
static int decay_roots(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)t, (void)yp;
  decay *d = ud;
  g[0] = y[0] - d->level;
  g[1] = 2.0 * y[0] - 2.0 * d->level;
  return 0;
}
static int decay_event(double t, double *y, double *yp, const int *dirs,
                       mbdae_event_info *info, void *ud) {
  (void)y, (void)yp;
  decay *d = ud;
  if (d->nev < 8) d->tev[d->nev] = t;
  d->nev++;
  d->ncalls++;
  d->both += dirs[0] == -1 && dirs[1] == -1;
  info->label = "level";
  return MBDAE_EVENT_NOCHANGE;
}

static mbdae_problem *decay_problem(mbdae_form form, decay *d) {
  mbdae_problem *p = mbdae_problem_create(1, form);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  mbdae_problem_set_user_data(p, d);
  if (form == MBDAE_FORM_ODE) {
    CU_ASSERT_EQUAL(mbdae_problem_set_rhs(p, decay_rhs), MBDAE_OK);
    CU_ASSERT_EQUAL(mbdae_problem_set_jacobian_dense(p, decay_jac_ode), MBDAE_OK);
    static const mbdae_index cp[] = {0, 1}, ri[] = {0};
    CU_ASSERT_EQUAL(mbdae_problem_set_jacobian_sparse(p, 1, cp, ri, decay_jac_ode), MBDAE_OK);
  } else {
    double id = 1.0;
    CU_ASSERT_EQUAL(mbdae_problem_set_residual(p, decay_res), MBDAE_OK);
    CU_ASSERT_EQUAL(mbdae_problem_set_id(p, &id), MBDAE_OK);
    CU_ASSERT_EQUAL(mbdae_problem_set_jacobian_dense(p, decay_jac), MBDAE_OK);
    static const mbdae_index cp[] = {0, 1}, ri[] = {0};
    CU_ASSERT_EQUAL(mbdae_problem_set_jacobian_sparse(p, 1, cp, ri, decay_jac), MBDAE_OK);
  }
  CU_ASSERT_EQUAL(mbdae_problem_set_roots(p, 2, decay_roots), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_problem_set_event_handler(p, decay_event), MBDAE_OK);
  return p;
}

static void run_decay(mbdae_method m, mbdae_linsol ls, mbdae_ordering ord, double tol_y,
                      double tol_t) {
  decay d = {.k = 1.3, .level = 0.5};
  mbdae_form form = m == MBDAE_METHOD_IDA ? MBDAE_FORM_DAE : MBDAE_FORM_ODE;
  mbdae_problem *p = decay_problem(form, &d);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = m;
  o.linsol = ls;
  o.ordering = ord;
  o.t_end = 2.0;
  o.dt_out = 0.1;
  o.rtol = 1e-11;
  o.atol = 1e-13;
  o.rk4_step = 1e-3;
  double y = 1.0, yp = -d.k;
  mbdae_stats st;
  char msg[512];
  int rc = mbdae_run(p, &o, &y, &yp, &st, msg, sizeof msg);
  if (rc != MBDAE_OK) printf("\n  run failed: %s\n", msg);
  CU_ASSERT_EQUAL(rc, MBDAE_OK);
  MBDAE_ASSERT_REL(y, exp(-d.k * 2.0), tol_y);
  /* one event, both roots reported together, at t = ln(2)/k */
  CU_ASSERT_EQUAL(d.ncalls, 1);
  CU_ASSERT_EQUAL(d.both, 1);
  MBDAE_ASSERT_REL(d.tev[0], log(2.0) / d.k, tol_t);
  CU_ASSERT_EQUAL(st.events, 1);
  CU_ASSERT(st.steps > 0);
  CU_ASSERT(st.rhs_evals > 0);
  CU_ASSERT(st.wall_time >= 0);
  MBDAE_ASSERT_REL(st.t_reached, 2.0, 1e-15);
  mbdae_problem_free(&p);
  CU_ASSERT_PTR_NULL(p);
}

static void test_decay_ida_dense(void) { run_decay(MBDAE_METHOD_IDA, MBDAE_LINSOL_DENSE, 0, 1e-8, 1e-8); }
static void test_decay_ida_klu(void) { run_decay(MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU, MBDAE_ORDERING_AMD, 1e-8, 1e-8); }
static void test_decay_ida_klu_metis(void) { run_decay(MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU, MBDAE_ORDERING_METIS, 1e-8, 1e-8); }
static void test_decay_cvode_bdf(void) { run_decay(MBDAE_METHOD_CVODE_BDF, MBDAE_LINSOL_DENSE, 0, 1e-8, 1e-8); }
static void test_decay_cvode_klu(void) { run_decay(MBDAE_METHOD_CVODE_BDF, MBDAE_LINSOL_KLU, MBDAE_ORDERING_COLAMD, 1e-8, 1e-8); }
static void test_decay_cvode_adams(void) { run_decay(MBDAE_METHOD_CVODE_ADAMS, MBDAE_LINSOL_DENSE, 0, 1e-8, 1e-8); }
/* RK4, h = 1e-3: global error ~ (k h)^4 t / 120 ~ 1e-13; root by bisection */
static void test_decay_arkode(void) { run_decay(MBDAE_METHOD_ARKODE, MBDAE_LINSOL_DENSE, 0, 1e-8, 1e-8); }
static void test_decay_arkode_klu(void) { run_decay(MBDAE_METHOD_ARKODE, MBDAE_LINSOL_KLU, MBDAE_ORDERING_COLAMD, 1e-8, 1e-8); }
static void test_decay_rk4(void) { run_decay(MBDAE_METHOD_RK4, MBDAE_LINSOL_DENSE, 0, 1e-11, 1e-11); }

/* ---- a ball in free fall above a floor, restitution e ----------------- */
typedef struct ball { double g, e, vmin; int impacts, rest; double t[64]; } ball;

static int ball_rhs(double t, const double *y, double *f, void *ud) {
  (void)t;
  ball *b = ud;
  f[0] = y[1];
  f[1] = b->rest ? 0.0 : -b->g;
  return 0;
}
static int ball_root(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)t, (void)yp, (void)ud;
  g[0] = y[0];
  return 0;
}
/* with vmin = 0 there is no Zeno rule: the guard must end the run */
static int ball_event(double t, double *y, double *yp, const int *dirs,
                      mbdae_event_info *info, void *ud) {
  (void)yp;
  ball *b = ud;
  if (dirs[0] != -1) return MBDAE_EVENT_NOCHANGE;
  if (b->impacts < 64) b->t[b->impacts] = t;
  b->impacts++;
  info->label = "impact";
  info->ndata = 1;
  info->data[0] = y[1];
  y[1] = -b->e * y[1];
  if (b->vmin > 0 && y[1] < b->vmin) { /* Zeno rule: persistent contact */
    y[0] = 0.0;
    y[1] = 0.0;
    b->rest = 1;
    info->label = "rest";
  }
  return MBDAE_EVENT_CONTINUE;
}
static int ball_energy(double t, const double *y, const double *yp, double *out, void *ud) {
  (void)t, (void)yp;
  ball *b = ud;
  out[0] = 0.5 * y[1] * y[1] + b->g * y[0];
  return 0;
}
typedef struct ev_log { int n; double dE_max; } ev_log;
static int ball_observer(double t, const double *y, const double *yp,
                         const mbdae_event_record *ev, void *ud) {
  (void)t, (void)y, (void)yp;
  ev_log *l = ud;
  if (ev) {
    l->n++;
    CU_ASSERT_EQUAL(ev->ninv, 1);
    double dE = ev->inv_after[0] - ev->inv_before[0];
    if (dE > l->dE_max) l->dE_max = dE;
  }
  return 0;
}

static mbdae_problem *ball_problem(ball *b) {
  static const char *const names[] = {"energy"};
  mbdae_problem *p = mbdae_problem_create(2, MBDAE_FORM_ODE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  mbdae_problem_set_user_data(p, b);
  mbdae_problem_set_rhs(p, ball_rhs);
  mbdae_problem_set_roots(p, 1, ball_root);
  mbdae_problem_set_event_handler(p, ball_event);
  mbdae_problem_set_invariants(p, 1, names, ball_energy);
  return p;
}

/* Impact k of a ball dropped from h0 at rest: t_1 = sqrt(2 h0/g),
 * t_{k+1} = t_k + 2 e^k v_1 / g with v_1 = g t_1. */
static double ball_impact_time(double h0, double g, double e, int k) {
  double t = sqrt(2 * h0 / g), v1 = g * t;
  for (int j = 1; j < k; ++j) t += 2 * pow(e, j) * v1 / g;
  return t;
}

static void run_ball(mbdae_method m, double tol) {
  ball b = {.g = 9.81, .e = 0.8, .vmin = 0.05};
  mbdae_problem *p = ball_problem(&b);
  ev_log evl = {0, 0};
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = m;
  o.t_end = 6.0;
  o.dt_out = 0.05;
  o.rtol = 1e-12;
  o.atol = 1e-12;
  o.rk4_step = 1e-3;
  o.observer = ball_observer;
  o.observer_data = &evl;
  double y[2] = {1.0, 0.0};
  mbdae_stats st;
  char msg[512];
  int rc = mbdae_run(p, &o, y, NULL, &st, msg, sizeof msg);
  if (rc != MBDAE_OK) printf("\n  %s\n", msg);
  CU_ASSERT_EQUAL(rc, MBDAE_OK);
  /* impacts until e^k v1 < vmin: v1 = sqrt(2 g h0) */
  double v1 = sqrt(2 * b.g * 1.0);
  int expect = (int)ceil(log(b.vmin / v1) / log(b.e));
  CU_ASSERT_EQUAL(b.impacts, expect);
  CU_ASSERT_EQUAL(evl.n, b.impacts);
  CU_ASSERT(evl.dE_max <= 1e-9); /* impacts never add energy */
  for (int k = 1; k <= b.impacts && k <= 64; ++k)
    MBDAE_ASSERT_REL(b.t[k - 1], ball_impact_time(1.0, b.g, b.e, k), tol);
  CU_ASSERT(b.rest);
  MBDAE_ASSERT_ABS(y[0], 0.0, 1e-12);
  mbdae_problem_free(&p);
}
static void test_ball_cvode(void) { run_ball(MBDAE_METHOD_CVODE_ADAMS, 1e-9); }
static void test_ball_rk4(void) { run_ball(MBDAE_METHOD_RK4, 1e-10); }
static void test_ball_arkode(void) { run_ball(MBDAE_METHOD_ARKODE, 1e-9); }

/* no Zeno rule: events accumulate; the guard ends the run with a clear error */
static void test_zeno_guard(void) {
  ball b = {.g = 9.81, .e = 0.5, .vmin = 0.0};
  mbdae_problem *p = ball_problem(&b);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_ADAMS;
  o.t_end = 5.0;
  o.rtol = 1e-10;
  o.atol = 1e-14;
  o.window_events = 20;
  o.window_length = 1e-3;
  double y[2] = {1.0, 0.0};
  mbdae_stats st;
  char msg[512] = "";
  int rc = mbdae_run(p, &o, y, NULL, &st, msg, sizeof msg);
  if (rc != MBDAE_ERR_EVENT_LIMIT) printf("\n  rc=%d t=%.15g events=%ld msg=%s\n", rc, st.t_reached, st.events, msg);
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_EVENT_LIMIT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "too many events"));
  /* t_inf = t1 (1 + e)/(1 - e) = 3 t1 */
  double tinf = sqrt(2 / 9.81) * (1 + 0.5) / (1 - 0.5);
  CU_ASSERT(st.t_reached <= tinf + 1e-3); /* a few sub-resolution re-fires past t_inf */
  CU_ASSERT(st.t_reached > 0.99 * tinf);
  /* the total event limit too */
  b.impacts = 0;
  o.window_events = 1000;
  o.max_events = 5;
  y[0] = 1.0, y[1] = 0.0;
  rc = mbdae_run(p, &o, y, NULL, &st, msg, sizeof msg);
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_EVENT_LIMIT);
  CU_ASSERT_EQUAL(st.events, 6);
  mbdae_problem_free(&p);
}

/* ---- API and bad input -------------------------------------------------- */
static void test_api(void) {
  CU_ASSERT_PTR_NULL(mbdae_problem_create(0, MBDAE_FORM_ODE));
  CU_ASSERT_PTR_NULL(mbdae_problem_create(3, (mbdae_form)7));
  mbdae_problem *p = mbdae_problem_create(2, MBDAE_FORM_ODE);
  CU_ASSERT_EQUAL(mbdae_problem_size(p), 2);
  CU_ASSERT_EQUAL(mbdae_problem_set_residual(p, decay_res), MBDAE_ERR_ARGUMENT);
  double id[2] = {1, 0};
  CU_ASSERT_EQUAL(mbdae_problem_set_id(p, id), MBDAE_ERR_ARGUMENT);
  /* an ODE pattern without its diagonal is refused (CVODE forms I - gJ) */
  const mbdae_index cp[] = {0, 1, 1}, ri[] = {1};
  CU_ASSERT_EQUAL(mbdae_problem_set_jacobian_sparse(p, 1, cp, ri, decay_jac_ode),
                  MBDAE_ERR_ARGUMENT);
  const mbdae_index cp2[] = {0, 1, 3}, ri2[] = {0, 1, 0}; /* unsorted rows */
  CU_ASSERT_EQUAL(mbdae_problem_set_jacobian_sparse(p, 3, cp2, ri2, decay_jac_ode),
                  MBDAE_ERR_ARGUMENT);
  mbdae_problem_free(&p);
  CU_ASSERT_PTR_NULL(p);
  mbdae_problem_free(&p); /* freeing NULL is harmless */
  mbdae_problem_free(NULL);
  CU_ASSERT_STRING_EQUAL(mbdae_status_name(MBDAE_ERR_EVENT_LIMIT), "MBDAE_ERR_EVENT_LIMIT");
  CU_ASSERT_STRING_EQUAL(mbdae_status_name(MBDAE_STOPPED), "MBDAE_STOPPED");
  CU_ASSERT_PTR_NOT_NULL(mbdae_status_message(-999));
  for (int c = -13; c <= 1; ++c)
    CU_ASSERT(strncmp(mbdae_status_name(c), "MBDAE_", 6) == 0);
  mbdae_method m;
  CU_ASSERT_EQUAL(mbdae_method_parse("cvode-adams", &m), MBDAE_OK);
  CU_ASSERT_EQUAL(m, MBDAE_METHOD_CVODE_ADAMS);
  CU_ASSERT_EQUAL(mbdae_method_parse("euler", &m), MBDAE_ERR_NOT_FOUND);
  CU_ASSERT_STRING_EQUAL(mbdae_method_name(MBDAE_METHOD_RK4), "rk4");
}

static void test_bad_runs(void) {
  decay d = {.k = 1.0, .level = -1};
  mbdae_problem *dae = decay_problem(MBDAE_FORM_DAE, &d);
  mbdae_options o;
  mbdae_options_default(&o);
  double y = 1.0, yp = -1.0;
  char msg[512];
  o.method = MBDAE_METHOD_CVODE_BDF; /* a DAE needs IDA */
  CU_ASSERT_EQUAL(mbdae_run(dae, &o, &y, &yp, NULL, msg, sizeof msg), MBDAE_ERR_UNSUPPORTED);
  o.method = MBDAE_METHOD_IDA;
  o.t_end = -1; /* before t0 */
  CU_ASSERT_EQUAL(mbdae_run(dae, &o, &y, &yp, NULL, msg, sizeof msg), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "t_end"));
  o.t_end = 1;
  yp = 5.0; /* inconsistent: F = yp + y = 6 */
  CU_ASSERT_EQUAL(mbdae_run(dae, &o, &y, &yp, NULL, msg, sizeof msg), MBDAE_ERR_INCONSISTENT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "residual component 0"));
  y = NAN, yp = -1;
  CU_ASSERT_EQUAL(mbdae_run(dae, &o, &y, &yp, NULL, msg, sizeof msg), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_run(NULL, &o, &y, &yp, NULL, msg, sizeof msg), MBDAE_ERR_ARGUMENT);
  mbdae_problem_free(&dae);
  /* KLU without a sparse Jacobian */
  mbdae_problem *ode = mbdae_problem_create(1, MBDAE_FORM_ODE);
  mbdae_problem_set_user_data(ode, &d);
  mbdae_problem_set_rhs(ode, decay_rhs);
  o.method = MBDAE_METHOD_CVODE_BDF;
  o.linsol = MBDAE_LINSOL_KLU;
  y = 1;
  CU_ASSERT_EQUAL(mbdae_run(ode, &o, &y, NULL, NULL, msg, sizeof msg), MBDAE_ERR_UNSUPPORTED);
  mbdae_problem_free(&ode);
}

/* ---- a residual that fails fatally: clear message, last state kept ----- */
static int failing_res(double t, const double *y, const double *yp, double *r, void *ud) {
  (void)ud;
  r[0] = yp[0] + y[0];
  return t > 0.5 ? -1 : 0;
}
static void test_failure_report(void) {
  mbdae_problem *p = mbdae_problem_create(1, MBDAE_FORM_DAE);
  mbdae_problem_set_residual(p, failing_res);
  mbdae_options o;
  mbdae_options_default(&o);
  double y = 1, yp = -1;
  char msg[512];
  mbdae_stats st;
  int rc = mbdae_run(p, &o, &y, &yp, &st, msg, sizeof msg);
  CU_ASSERT(rc < 0);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "IDA failed at t="));
  CU_ASSERT(st.t_reached <= 0.5 + 1e-12);
  CU_ASSERT(st.t_reached > 0.3);
  MBDAE_ASSERT_REL(y, exp(-st.t_reached), 1e-6); /* the last good state */
  mbdae_problem_free(&p);
}

/* ---- calcic fallback: only when asked, and counted ---------------------- */
/* y0' = -y0, 0 = y1 - 2 y0 (algebraic) */
static int alg_res(double t, const double *y, const double *yp, double *r, void *ud) {
  (void)t, (void)ud;
  r[0] = yp[0] + y[0];
  r[1] = y[1] - 2.0 * y[0];
  return 0;
}
static void test_calcic_fallback(void) {
  mbdae_problem *p = mbdae_problem_create(2, MBDAE_FORM_DAE);
  mbdae_problem_set_residual(p, alg_res);
  double id[2] = {1, 0};
  mbdae_problem_set_id(p, id);
  mbdae_options o;
  mbdae_options_default(&o);
  double y[2] = {1, 0}, yp[2] = {-1, 0}; /* y1 inconsistent */
  char msg[512];
  mbdae_stats st;
  CU_ASSERT_EQUAL(mbdae_run(p, &o, y, yp, &st, msg, sizeof msg), MBDAE_ERR_INCONSISTENT);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, "residual component 1"));
  o.calcic_fallback = 1;
  y[0] = 1, y[1] = 0, yp[0] = -1, yp[1] = 0;
  CU_ASSERT_EQUAL(mbdae_run(p, &o, y, yp, &st, msg, sizeof msg), MBDAE_OK);
  CU_ASSERT_EQUAL(st.calcic_fallbacks, 1);
  MBDAE_ASSERT_REL(y[1], 2 * exp(-1.0), 1e-6);
  mbdae_problem_free(&p);
}

/* ---- Jacobian checker --------------------------------------------------- */
/* F = [y0' - y1, y1' + sin(y0) y2, y2 - y0^2] */
static int jc_res(double t, const double *y, const double *yp, double *r, void *ud) {
  (void)t, (void)ud;
  r[0] = yp[0] - y[1];
  r[1] = yp[1] + sin(y[0]) * y[2];
  r[2] = y[2] - y[0] * y[0];
  return 0;
}
static int jc_good(double t, double cj, const double *y, const double *yp, double *J, void *ud) {
  (void)t, (void)yp;
  int wrong = ud != NULL;
  J[0 * 3 + 0] = cj;                   /* dF0/dy0 */
  J[0 * 3 + 1] = cos(y[0]) * y[2];     /* dF1/dy0 */
  J[0 * 3 + 2] = -2 * y[0] * (wrong ? 0.5 : 1.0); /* dF2/dy0 */
  J[1 * 3 + 0] = -1;
  J[1 * 3 + 1] = cj;
  J[2 * 3 + 1] = sin(y[0]);
  J[2 * 3 + 2] = 1;
  return 0;
}
/* sparse values in pattern order: col0 rows {0,1,2}, col1 {0,1}, col2 {1,2} */
static int jc_sparse(double t, double cj, const double *y, const double *yp, double *v, void *ud) {
  (void)t, (void)yp, (void)ud;
  v[0] = cj, v[1] = cos(y[0]) * y[2], v[2] = -2 * y[0];
  v[3] = -1, v[4] = cj;
  v[5] = sin(y[0]), v[6] = 1;
  return 0;
}
static void test_jacobian_checker(void) {
  mbdae_problem *p = mbdae_problem_create(3, MBDAE_FORM_DAE);
  mbdae_problem_set_residual(p, jc_res);
  mbdae_problem_set_jacobian_dense(p, jc_good);
  double y[3] = {0.7, -0.3, 0.49}, yp[3] = {-0.3, 0.1, 0};
  mbdae_jac_check r;
  CU_ASSERT_EQUAL(mbdae_jacobian_check(p, 0, y, yp, 13.0, 0, 1e-8, &r), MBDAE_OK);
  CU_ASSERT(r.max_rel_err < 1e-8);
  int flag = 1;
  mbdae_problem_set_user_data(p, &flag); /* wrong dF2/dy0 */
  CU_ASSERT_EQUAL(mbdae_jacobian_check(p, 0, y, yp, 13.0, 0, 1e-8, &r), MBDAE_OK);
  CU_ASSERT_EQUAL(r.worst_row, 2);
  CU_ASSERT_EQUAL(r.worst_col, 0);
  MBDAE_ASSERT_REL(r.worst_fd, -1.4, 1e-8);
  MBDAE_ASSERT_REL(r.worst_analytic, -0.7, 1e-14);
  mbdae_problem_free(&p);
  /* sparse: complete pattern passes; a pattern without (2,0) is caught */
  p = mbdae_problem_create(3, MBDAE_FORM_DAE);
  mbdae_problem_set_residual(p, jc_res);
  const mbdae_index cp[] = {0, 3, 5, 7}, ri[] = {0, 1, 2, 0, 1, 1, 2};
  CU_ASSERT_EQUAL(mbdae_problem_set_jacobian_sparse(p, 7, cp, ri, jc_sparse), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_jacobian_check(p, 0, y, yp, 13.0, 0, 1e-8, &r), MBDAE_OK);
  CU_ASSERT(r.max_rel_err < 1e-8);
  CU_ASSERT_EQUAL(r.pattern_misses, 0);
  mbdae_problem_free(&p);
}
static int jc_sparse_short(double t, double cj, const double *y, const double *yp, double *v,
                           void *ud) {
  (void)t, (void)yp, (void)ud;
  v[0] = cj, v[1] = cos(y[0]) * y[2];
  v[2] = -1, v[3] = cj;
  v[4] = sin(y[0]), v[5] = 1;
  return 0;
}
static void test_jacobian_pattern_miss(void) {
  mbdae_problem *p = mbdae_problem_create(3, MBDAE_FORM_DAE);
  mbdae_problem_set_residual(p, jc_res);
  const mbdae_index cp[] = {0, 2, 4, 6}, ri[] = {0, 1, 0, 1, 1, 2};
  mbdae_problem_set_jacobian_sparse(p, 6, cp, ri, jc_sparse_short);
  double y[3] = {0.7, -0.3, 0.49}, yp[3] = {-0.3, 0.1, 0};
  mbdae_jac_check r;
  CU_ASSERT_EQUAL(mbdae_jacobian_check(p, 0, y, yp, 13.0, 0, 1e-8, &r), MBDAE_OK);
  CU_ASSERT_EQUAL(r.pattern_misses, 1);
  CU_ASSERT_EQUAL(r.miss_row, 2);
  CU_ASSERT_EQUAL(r.miss_col, 0);
  mbdae_problem_free(&p);
}

/* ---- a sparse 2-D diffusion ODE: KLU orderings agree with dense ---------- */
#define GRID 12
static int lap_rhs(double t, const double *y, double *f, void *ud) {
  (void)t, (void)ud;
  for (int i = 0; i < GRID; ++i)
    for (int j = 0; j < GRID; ++j) {
      int k = i * GRID + j;
      double s = -4 * y[k];
      if (i > 0) s += y[k - GRID];
      if (i < GRID - 1) s += y[k + GRID];
      if (j > 0) s += y[k - 1];
      if (j < GRID - 1) s += y[k + 1];
      f[k] = s;
    }
  return 0;
}
static mbdae_index lap_cp[GRID * GRID + 1], lap_ri[5 * GRID * GRID];
static int lap_jac(double t, double cj, const double *y, const double *yp, double *v, void *ud) {
  (void)t, (void)cj, (void)y, (void)yp, (void)ud;
  for (int c = 0; c < GRID * GRID; ++c)
    for (mbdae_index k = lap_cp[c]; k < lap_cp[c + 1]; ++k)
      v[k] = lap_ri[k] == c ? -4.0 : 1.0;
  return 0;
}
static void test_klu_orderings(void) {
  mbdae_index nnz = 0;
  for (int c = 0; c < GRID * GRID; ++c) { /* symmetric: rows of column c */
    lap_cp[c] = nnz;
    int i = c / GRID, j = c % GRID;
    if (i > 0) lap_ri[nnz++] = c - GRID;
    if (j > 0) lap_ri[nnz++] = c - 1;
    lap_ri[nnz++] = c;
    if (j < GRID - 1) lap_ri[nnz++] = c + 1;
    if (i < GRID - 1) lap_ri[nnz++] = c + GRID;
  }
  lap_cp[GRID * GRID] = nnz;
  mbdae_problem *p = mbdae_problem_create(GRID * GRID, MBDAE_FORM_ODE);
  mbdae_problem_set_rhs(p, lap_rhs);
  CU_ASSERT_EQUAL_FATAL(mbdae_problem_set_jacobian_sparse(p, nnz, lap_cp, lap_ri, lap_jac), MBDAE_OK);
  mbdae_jac_check r;
  double y0[GRID * GRID];
  for (int k = 0; k < GRID * GRID; ++k) y0[k] = sin(0.3 * k) + 1.0;
  CU_ASSERT_EQUAL(mbdae_jacobian_check(p, 0, y0, NULL, 0, 0, 1e-8, &r), MBDAE_OK);
  CU_ASSERT(r.max_rel_err < 1e-7);
  double ref[GRID * GRID];
  const mbdae_ordering ords[] = {MBDAE_ORDERING_AMD, MBDAE_ORDERING_COLAMD,
                                 MBDAE_ORDERING_NATURAL, MBDAE_ORDERING_METIS};
  for (int q = 0; q < 5; ++q) {
    mbdae_options o;
    mbdae_options_default(&o);
    o.method = MBDAE_METHOD_CVODE_BDF;
    o.linsol = q == 4 ? MBDAE_LINSOL_DENSE : MBDAE_LINSOL_KLU;
    if (q < 4) o.ordering = ords[q];
    o.t_end = 0.5;
    o.dt_out = 0.5;
    o.rtol = 1e-10;
    o.atol = 1e-12;
    double y[GRID * GRID];
    memcpy(y, y0, sizeof y);
    mbdae_stats st;
    char msg[512];
    int rc = mbdae_run(p, &o, y, NULL, &st, msg, sizeof msg);
    if (rc) printf("\n  ordering %d: %s\n", q, msg);
    CU_ASSERT_EQUAL(rc, MBDAE_OK);
    CU_ASSERT(st.jac_evals > 0 || q == 4);
    if (q == 0) memcpy(ref, y, sizeof y);
    else
      for (int k = 0; k < GRID * GRID; ++k) MBDAE_ASSERT_ABS(y[k], ref[k], 1e-8);
  }
  mbdae_problem_free(&p);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"api and status codes", test_api},
    {"bad runs are refused with a message", test_bad_runs},
    {"decay + simultaneous roots: IDA dense", test_decay_ida_dense},
    {"decay + simultaneous roots: IDA KLU", test_decay_ida_klu},
    {"decay + simultaneous roots: IDA KLU METIS", test_decay_ida_klu_metis},
    {"decay + simultaneous roots: CVODE BDF", test_decay_cvode_bdf},
    {"decay + simultaneous roots: CVODE BDF KLU", test_decay_cvode_klu},
    {"decay + simultaneous roots: CVODE Adams", test_decay_cvode_adams},
    {"decay + simultaneous roots: RK4", test_decay_rk4},
    {"decay + simultaneous roots: ARKODE", test_decay_arkode},
    {"decay + simultaneous roots: ARKODE KLU", test_decay_arkode_klu},
    {"bouncing ball impact times, masking, Zeno rule: CVODE", test_ball_cvode},
    {"bouncing ball impact times, masking, Zeno rule: RK4", test_ball_rk4},
    {"bouncing ball impact times, masking, Zeno rule: ARKODE", test_ball_arkode},
    {"Zeno guard ends an accumulating run", test_zeno_guard},
    {"fatal residual: message and last state", test_failure_report},
    {"calcic fallback only when asked", test_calcic_fallback},
    {"jacobian checker finds a wrong entry", test_jacobian_checker},
    {"jacobian checker finds a pattern miss", test_jacobian_pattern_miss},
    {"KLU orderings (AMD, COLAMD, natural, METIS) agree", test_klu_orderings},
    {NULL, NULL}};
  return mbdae_test_main("engine", tests);
}
