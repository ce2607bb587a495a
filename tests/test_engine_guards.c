/* test_engine_guards.c - no silent wrong answer, for every backend (IDA,
 * CVODE BDF, CVODE Adams, RK4): an event handler's repair of the state
 * beyond the problem's stated tolerance fails the run naming t and the
 * size (mbdae_problem_report_repair); a NaN or inf in the state after an
 * event, in an invariant or in a root function fails with
 * MBDAE_ERR_NONFINITE naming t and the component. A falling point
 * y' = -1 from y = 1 hits the floor g = y at t = 1 (closed form). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "testutil.h"

typedef struct fall {
  double repair;    /* the handler puts y back up by this and reports it */
  int poison;       /* 1: the handler leaves y = inf; 2: invariant inf; 3: root NaN */
  mbdae_problem *p;
} fall;

static int fall_rhs(double t, const double *y, double *f, void *ud) {
  (void)t, (void)y, (void)ud;
  f[0] = -1.0;
  return 0;
}
static int fall_res(double t, const double *y, const double *yp, double *r, void *ud) {
  (void)t, (void)y, (void)ud;
  r[0] = yp[0] + 1.0;
  return 0;
}
static int fall_jac(double t, double cj, const double *y, const double *yp, double *J,
                    void *ud) {
  (void)t, (void)y, (void)yp, (void)ud;
  J[0] = cj; /* DAE: cj dF/dyp; ODE: df/dy = 0 (cj = 0) */
  return 0;
}
static int fall_root(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)yp;
  const fall *f = ud;
  g[0] = (f->poison == 3 && t > 0.5) ? NAN : y[0];
  return 0;
}
static int fall_event(double t, double *y, double *yp, const int *dirs,
                      mbdae_event_info *info, void *ud) {
  (void)t, (void)yp, (void)dirs;
  fall *f = ud;
  info->label = "floor";
  /* a "missed" contact put back: the size of the move is reported */
  mbdae_problem_report_repair(f->p, f->repair, "the height (m)");
  y[0] = f->poison == 1 ? INFINITY : 1.0;
  return MBDAE_EVENT_CONTINUE;
}
static int fall_inv(double t, const double *y, const double *yp, double *out, void *ud) {
  (void)t, (void)yp;
  const fall *f = ud;
  out[0] = f->poison == 2 && y[0] < 0.5 ? INFINITY : y[0];
  return 0;
}

static const char *const inv_names[] = {"height"};

static int run_fall(mbdae_method m, fall *f, mbdae_stats *st, char *msg, size_t len) {
  int dae = m == MBDAE_METHOD_IDA;
  f->p = mbdae_problem_create(1, dae ? MBDAE_FORM_DAE : MBDAE_FORM_ODE);
  CU_ASSERT_PTR_NOT_NULL_FATAL(f->p);
  mbdae_problem *p = f->p;
  mbdae_problem_set_user_data(p, f);
  if (dae) mbdae_problem_set_residual(p, fall_res);
  else mbdae_problem_set_rhs(p, fall_rhs);
  mbdae_problem_set_jacobian_dense(p, fall_jac);
  mbdae_problem_set_roots(p, 1, fall_root);
  mbdae_problem_set_event_handler(p, fall_event);
  mbdae_problem_set_invariants(p, 1, inv_names, fall_inv);
  CU_ASSERT_EQUAL(mbdae_problem_set_repair_tolerance(p, 1e-3), MBDAE_OK);
  CU_ASSERT_EQUAL(mbdae_problem_set_repair_tolerance(p, -1.0), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(mbdae_problem_repair_tolerance(p), 1e-3);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = m;
  o.t_end = 1.5;
  o.dt_out = 0.1;
  o.rk4_step = 1e-2;
  double y[1] = {1.0}, yp[1] = {-1.0};
  int rc = mbdae_run(p, &o, y, yp, st, msg, len);
  mbdae_problem_free(&f->p);
  return rc;
}

static const mbdae_method methods[] = {MBDAE_METHOD_IDA, MBDAE_METHOD_CVODE_BDF,
                                       MBDAE_METHOD_CVODE_ADAMS, MBDAE_METHOD_RK4};

static void expect(int rc, int want, const char *msg, const char *a, const char *b) {
  if (rc != want || !strstr(msg, a) || !strstr(msg, b))
    printf("\n  status %d (want %d): %s\n", rc, want, msg);
  CU_ASSERT_EQUAL(rc, want);
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, a));
  CU_ASSERT_PTR_NOT_NULL(strstr(msg, b));
}

static void test_repair_within_tolerance(void) {
  for (int i = 0; i < 4; ++i) {
    fall f = {.repair = 2e-4};
    mbdae_stats st;
    char msg[1024];
    CU_ASSERT_EQUAL(run_fall(methods[i], &f, &st, msg, sizeof msg), MBDAE_OK);
    CU_ASSERT_EQUAL(st.events, 1);
    CU_ASSERT_EQUAL(st.max_repair, 2e-4); /* the largest report, kept */
  }
}

static void test_repair_beyond_tolerance_fails(void) {
  for (int i = 0; i < 4; ++i) {
    fall f = {.repair = 0.5};
    mbdae_stats st;
    char msg[1024];
    int rc = run_fall(methods[i], &f, &st, msg, sizeof msg);
    expect(rc, MBDAE_ERR_INCONSISTENT, msg, "repaired the height (m) by 0.5", "t=1");
    CU_ASSERT_PTR_NOT_NULL(strstr(msg, "tolerance 0.001"));
    MBDAE_ASSERT_ABS(st.t_reached, 1.0, 1e-6);
  }
  fall f = {.repair = NAN}; /* a NaN size fails too */
  mbdae_stats st;
  char msg[1024];
  expect(run_fall(MBDAE_METHOD_RK4, &f, &st, msg, sizeof msg), MBDAE_ERR_INCONSISTENT, msg,
         "repaired", "nan");
}

/* every backend: the poisoned run fails with MBDAE_ERR_NONFINITE naming a, b */
static void expect_nonfinite(int poison, const char *a, const char *b, double t_max) {
  for (int i = 0; i < 4; ++i) {
    fall f = {.poison = poison};
    mbdae_stats st;
    char msg[1024];
    int rc = run_fall(methods[i], &f, &st, msg, sizeof msg);
    expect(rc, MBDAE_ERR_NONFINITE, msg, a, b);
    CU_ASSERT(st.t_reached <= t_max);
  }
}

static void test_nonfinite_state_after_event(void) {
  expect_nonfinite(1, "non-finite state after an event at t=1", "y[0] = inf", 1.0 + 1e-6);
}

static void test_nonfinite_invariant(void) {
  expect_nonfinite(2, "invariant 'height' is inf before an event", "t=1", 1.0 + 1e-6);
}

static void test_nonfinite_root(void) {
  expect_nonfinite(3, "root function returned NaN in g[0]", "t=0.", 0.6);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"a repair within the tolerance is kept in max_repair", test_repair_within_tolerance},
    {"a repair beyond the tolerance fails, naming t and its size",
     test_repair_beyond_tolerance_fails},
    {"a non-finite state after an event fails (every backend)", test_nonfinite_state_after_event},
    {"a non-finite invariant fails (every backend)", test_nonfinite_invariant},
    {"a non-finite root function fails (every backend)", test_nonfinite_root},
    {NULL, NULL},
  };
  return mbdae_test_main("engine_guards", tests);
}
