/* test_event_group.c - near-simultaneous roots handled as one event
 * (solver/event_group.c): two independent balls dropped from heights whose
 * first impacts are d apart, by construction. Inside the event window both
 * impacts are one handler call (dirs holds both) and one restart, applied at
 * the first impact's time; outside it they stay two events at their own times.
 * Every time and state is checked against the closed form of free fall. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "testutil.h"

enum { NB = 2 };

typedef struct balls {
  double g, e;
  int calls;            /* handler calls */
  int fired[4][NB];     /* dirs of the first calls */
  double t[4];          /* their times */
} balls;

/* y = [x0, x1, v0, v1] */
static void balls_f(const balls *b, const double *y, double *f) {
  f[0] = y[2];
  f[1] = y[3];
  f[2] = -b->g;
  f[3] = -b->g;
}
static int balls_rhs(double t, const double *y, double *f, void *ud) {
  (void)t;
  balls_f(ud, y, f);
  return 0;
}
static int balls_res(double t, const double *y, const double *yp, double *r, void *ud) {
  (void)t;
  balls_f(ud, y, r);
  for (int i = 0; i < 2 * NB; ++i) r[i] = yp[i] - r[i];
  return 0;
}
static int balls_jac(double t, double cj, const double *y, const double *yp, double *J,
                     void *ud) {
  (void)t, (void)y, (void)yp, (void)ud;
  for (int i = 0; i < 2 * NB; ++i) J[i * 2 * NB + i] = cj; /* column-major */
  J[2 * 2 * NB + 0] = -1.0;                                /* dF0/dv0 */
  J[3 * 2 * NB + 1] = -1.0;                                /* dF1/dv1 */
  return 0;
}
static int balls_roots(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)t, (void)yp, (void)ud;
  for (int i = 0; i < NB; ++i) g[i] = -y[i];
  return 0;
}
/* Each fired ball falling is reversed (restitution e); its height is left as
 * it is (a grouped ball is still a little above the floor). */
static int balls_event(double t, double *y, double *yp, const int *dirs,
                       mbdae_event_info *info, void *ud) {
  (void)info;
  balls *b = ud;
  if (b->calls < 4) {
    b->t[b->calls] = t;
    memcpy(b->fired[b->calls], dirs, sizeof b->fired[0]);
  }
  b->calls++;
  for (int i = 0; i < NB; ++i)
    if (dirs[i] > 0 && y[NB + i] < 0.0) y[NB + i] = -b->e * y[NB + i];
  if (yp) balls_f(b, y, yp);
  return MBDAE_EVENT_CONTINUE;
}

typedef struct outcome {
  int rc;
  balls b;
  mbdae_stats st;
  double y[2 * NB];
} outcome;

/* Drop ball 0 from h0 and ball 1 from the height whose impact is d later;
 * run to t_end with the given method, event_window and rtol. */
static outcome drop(mbdae_method m, double h0, double d, double t_end, double window,
                    double rtol) {
  outcome out;
  memset(&out, 0, sizeof out);
  out.b.g = 9.81;
  out.b.e = 0.8;
  const double g = out.b.g, t0 = sqrt(2.0 * h0 / g), t1 = t0 + d;
  const int dae = m == MBDAE_METHOD_IDA;
  mbdae_problem *p = mbdae_problem_create(2 * NB, dae ? MBDAE_FORM_DAE : MBDAE_FORM_ODE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  const double id[2 * NB] = {1, 1, 1, 1};
  mbdae_problem_set_user_data(p, &out.b);
  if (dae) {
    mbdae_problem_set_residual(p, balls_res);
    mbdae_problem_set_id(p, id);
    mbdae_problem_set_jacobian_dense(p, balls_jac);
  } else {
    mbdae_problem_set_rhs(p, balls_rhs);
  }
  mbdae_problem_set_roots(p, NB, balls_roots);
  mbdae_problem_set_event_handler(p, balls_event);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = m;
  o.t_end = t_end;
  o.dt_out = t_end;
  o.rtol = rtol;
  o.atol = 1e-12;
  o.h_max = 1e-3; /* the window's step: between 1e-4 and 1e-3 near the impacts */
  o.event_window = window;
  double y[2 * NB] = {h0, 0.5 * g * t1 * t1, 0.0, 0.0}, yp[2 * NB];
  balls_f(&out.b, y, yp);
  char msg[512];
  out.rc = mbdae_run(p, &o, y, dae ? yp : NULL, &out.st, msg, sizeof msg);
  if (out.rc) printf("\n  %s run: %s\n", mbdae_method_name(m), msg);
  memcpy(out.y, y, sizeof y);
  mbdae_problem_free(&p);
  return out;
}

/* Height and velocity at T of a ball dropped at rest to hit at tc, reversed
 * (restitution e) at tau <= T, where it is at height x_tau falling at -g tc'
 * (tc' = tau: the ball's own time of fall to tau). */
static void after_impact(double g, double e, double tc, double tau, double T, double *x,
                         double *v) {
  double x_tau = 0.5 * g * (tc * tc - tau * tau), v_up = e * g * tau, s = T - tau;
  *x = x_tau + v_up * s - 0.5 * g * s * s;
  *v = v_up - g * s;
}

static const mbdae_method methods[] = {MBDAE_METHOD_IDA, MBDAE_METHOD_CVODE_BDF,
                                       MBDAE_METHOD_ARKODE};
/* Impact times (relative) and states (absolute) at rtol 1e-8: CVODE's BDF
 * trajectory reaches the floor 3.5e-9 s early here (measured), every impact
 * alike. */
static double tol_t(mbdae_method m) { return m == MBDAE_METHOD_CVODE_BDF ? 2e-8 : 1e-9; }
static double tol_x(mbdae_method m) { return m == MBDAE_METHOD_CVODE_BDF ? 2e-7 : 1e-8; }

/* Impacts 1e-8 s apart, window 1e5 rtol h (1e-7 ... 1e-6 s at rtol 1e-8, h
 * in [1e-4, 1e-3]): one handler call with both roots, one restart, at the
 * first impact; the second ball's state is the closed form of a reversal at
 * that time, within (1 + e) g t1 d of the exact one. */
static void test_grouped(void) {
  const double h0 = 1.0, d = 1e-8, g = 9.81, e = 0.8;
  const double t0 = sqrt(2.0 * h0 / g), t1 = t0 + d, T = t1 + 0.1;
  for (size_t k = 0; k < sizeof methods / sizeof methods[0]; ++k) {
    outcome a = drop(methods[k], h0, d, T, 1e5, 1e-8);
    outcome s = drop(methods[k], h0, d, T, 0.0, 1e-8); /* grouping off */
    CU_ASSERT_EQUAL_FATAL(a.rc, MBDAE_OK);
    CU_ASSERT_EQUAL_FATAL(s.rc, MBDAE_OK);
    printf("\n  %s, impacts %.0e s apart: window 1e5: %d calls, %ld restarts, %ld grouped; "
           "window 0: %d calls, %ld restarts", mbdae_method_name(methods[k]), d, a.b.calls,
           a.st.restarts, a.st.grouped_roots, s.b.calls, s.st.restarts);
    CU_ASSERT_EQUAL(a.b.calls, 1);
    CU_ASSERT_EQUAL(a.st.events, 1);
    CU_ASSERT_EQUAL(a.st.grouped_roots, 1);
    CU_ASSERT_EQUAL(a.b.fired[0][0], 1);
    CU_ASSERT_EQUAL(a.b.fired[0][1], 1);
    CU_ASSERT_EQUAL(s.b.calls, 2);
    CU_ASSERT_EQUAL(s.st.grouped_roots, 0);
    CU_ASSERT_EQUAL(a.st.restarts + 1, s.st.restarts);
    const double tt = tol_t(methods[k]), tx = tol_x(methods[k]);
    MBDAE_ASSERT_REL(a.b.t[0], t0, tt);
    MBDAE_ASSERT_REL(s.b.t[1], t1, tt);
    double x0, v0, x1, v1, x1e, v1e;
    after_impact(g, e, t0, t0, T, &x0, &v0);
    after_impact(g, e, t1, t0, T, &x1, &v1);  /* reversed at t0: the grouped law */
    after_impact(g, e, t1, t1, T, &x1e, &v1e); /* at its own impact */
    MBDAE_ASSERT_ABS(a.y[0], x0, tx);
    MBDAE_ASSERT_ABS(a.y[2], v0, tx);
    MBDAE_ASSERT_ABS(a.y[1], x1, tx);
    MBDAE_ASSERT_ABS(a.y[3], v1, tx);
    MBDAE_ASSERT_ABS(a.y[1], x1e, (1 + e) * g * t1 * d + tx);
    MBDAE_ASSERT_ABS(s.y[1], x1e, tx);
    MBDAE_ASSERT_ABS(s.y[3], v1e, tx);
    /* the grouping's own effect, with the method's error common to both runs */
    printf("; grouped - separate: x1 %.3e (closed form %.3e), v1 %.3e (%.3e)",
           a.y[1] - s.y[1], x1 - x1e, a.y[3] - s.y[3], v1 - v1e);
    MBDAE_ASSERT_ABS(a.y[1] - s.y[1], x1 - x1e, 0.1 * fabs(x1 - x1e));
    MBDAE_ASSERT_ABS(a.y[3] - s.y[3], v1 - v1e, 0.1 * fabs(v1 - v1e));
  }
}

/* The window event_window 1 (rtol h) groups impacts 1e-12 s apart at
 * rtol 1e-8 (window 1e-12 ... 1e-11 s), far above the root finder's own
 * tolerance (~1e-14 s here): one event. */
static void test_default_window(void) {
  const double h0 = 1.0, d = 1e-12, g = 9.81;
  for (size_t k = 0; k < sizeof methods / sizeof methods[0]; ++k) {
    outcome a = drop(methods[k], h0, d, sqrt(2.0 * h0 / g) + 0.1, 1.0, 1e-8);
    CU_ASSERT_EQUAL_FATAL(a.rc, MBDAE_OK);
    CU_ASSERT_EQUAL(a.b.calls, 1);
    CU_ASSERT_EQUAL(a.st.grouped_roots, 1);
  }
}

/* Impacts 1e-5 s apart, beyond the window (at most 1e-6 s) though inside one
 * step (h_max 1e-3): two events, each at its own closed-form time; and
 * exactly simultaneous impacts are one event without grouping (the root
 * finder reports both). */
static void test_separate(void) {
  const double h0 = 1.0, g = 9.81, e = 0.8;
  for (size_t k = 0; k < sizeof methods / sizeof methods[0]; ++k) {
    const double d = 1e-5, t0 = sqrt(2.0 * h0 / g), t1 = t0 + d, T = t1 + 0.1;
    outcome a = drop(methods[k], h0, d, T, 1e5, 1e-8);
    CU_ASSERT_EQUAL_FATAL(a.rc, MBDAE_OK);
    CU_ASSERT_EQUAL(a.b.calls, 2);
    CU_ASSERT_EQUAL(a.st.grouped_roots, 0);
    CU_ASSERT_EQUAL(a.b.fired[0][0], 1);
    CU_ASSERT_EQUAL(a.b.fired[0][1], 0);
    CU_ASSERT_EQUAL(a.b.fired[1][0], 0);
    CU_ASSERT_EQUAL(a.b.fired[1][1], 1);
    MBDAE_ASSERT_REL(a.b.t[0], t0, tol_t(methods[k]));
    MBDAE_ASSERT_REL(a.b.t[1], t1, tol_t(methods[k]));
    double x1, v1;
    after_impact(g, e, t1, t1, T, &x1, &v1);
    MBDAE_ASSERT_ABS(a.y[1], x1, tol_x(methods[k]));
    MBDAE_ASSERT_ABS(a.y[3], v1, tol_x(methods[k]));

    outcome z = drop(methods[k], h0, 0.0, T, 1e5, 1e-8);
    CU_ASSERT_EQUAL_FATAL(z.rc, MBDAE_OK);
    CU_ASSERT_EQUAL(z.b.calls, 1);
    CU_ASSERT_EQUAL(z.st.grouped_roots, 0);
    CU_ASSERT_EQUAL(z.b.fired[0][0], 1);
    CU_ASSERT_EQUAL(z.b.fired[0][1], 1);
  }
}

/* A negative or non-finite event_window is refused before the run. */
static void test_bad_window(void) {
  balls b = {.g = 9.81, .e = 0.8};
  mbdae_problem *p = mbdae_problem_create(2 * NB, MBDAE_FORM_ODE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(p);
  mbdae_problem_set_user_data(p, &b);
  mbdae_problem_set_rhs(p, balls_rhs);
  mbdae_problem_set_roots(p, NB, balls_roots);
  mbdae_problem_set_event_handler(p, balls_event);
  const double bad[] = {-1.0, NAN, INFINITY};
  for (int k = 0; k < 3; ++k) {
    mbdae_options o;
    mbdae_options_default(&o);
    o.method = MBDAE_METHOD_CVODE_BDF;
    o.event_window = bad[k];
    double y[2 * NB] = {1.0, 1.0, 0.0, 0.0};
    char msg[512] = "";
    CU_ASSERT_EQUAL(mbdae_run(p, &o, y, NULL, NULL, msg, sizeof msg), MBDAE_ERR_ARGUMENT);
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "event_window"));
    CU_ASSERT_EQUAL(b.calls, 0);
  }
  mbdae_problem_free(&p);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"impacts inside the window: one call, one restart, closed form", test_grouped},
    {"the default window groups impacts rtol h apart", test_default_window},
    {"impacts beyond the window stay two events; simultaneous stay one", test_separate},
    {"a negative or non-finite event_window is refused", test_bad_window},
    {NULL, NULL},
  };
  return mbdae_test_main("event_group", tests);
}
