/* test_billiard_model.c - the billiard model kind: Jacobian against finite
 * differences, bad input, the event handler's contact logic, and the paper's
 * qualitative claim that the driven parabola mode-locks to period one. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "billiard/billiard.h"
#include "billiard_run.h"
#include "mbdae/jaccheck.h"
#include "mbdae/status.h"
#include "testutil.h"

static const mbdae_model_kind *K = &mbdae_model_billiard;
#define PI_TEST 3.14159265358979323846

static void jac_for(mbdae_method method) {
  billiard_params p;
  billiard_params_default(&p);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = method;
  mbdae_model *m = NULL;
  mbdae_param_error err = {0};
  CU_ASSERT_EQUAL_FATAL(K->create(&p, &o, &m, &err), MBDAE_OK);
  mbdae_problem *pr = K->problem(m);
  const double states[][5] = {{0.01, 0.03, 0.7, -1.3, 20.0},
                              {-0.02, 0.05, -2.0, 0.4, 0.0},
                              {0.0, 0.02, 0.0, 0.0, 0.0}};
  for (int i = 0; i < 3; ++i) {
    double y[5], yp[5];
    memcpy(y, states[i], sizeof y);
    for (int j = 0; j < 5; ++j) yp[j] = 0.1 * j;
    mbdae_jac_check jc;
    double cj = method == MBDAE_METHOD_IDA ? 37.0 : 0.0;
    CU_ASSERT_EQUAL(mbdae_jacobian_check(pr, 0.3, y, method == MBDAE_METHOD_IDA ? yp : NULL,
                                         cj, 0.0, 1e-6, &jc), MBDAE_OK);
    /* at |v| = 0 the quadratic drag is not differentiable: skip its rows */
    if (i < 2) CU_ASSERT(jc.max_rel_err < 1e-7);
    CU_ASSERT_EQUAL(jc.pattern_misses, 0);
  }
  K->destroy(&m);
  CU_ASSERT_PTR_NULL(m);
}
static void test_jacobian_ode(void) { jac_for(MBDAE_METHOD_CVODE_BDF); }
static void test_jacobian_dae(void) { jac_for(MBDAE_METHOD_IDA); }

static void expect_bad(billiard_params *p, const char *key) {
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_ADAMS;
  mbdae_model *m = NULL;
  mbdae_param_error err = {0};
  int st = K->create(p, &o, &m, &err);
  CU_ASSERT_EQUAL(st, MBDAE_ERR_PARAMETER);
  CU_ASSERT_PTR_NULL(m);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err.key);
  if (strcmp(err.key, key) != 0) printf("\n  key %s, expected %s (%s)\n", err.key, key, err.msg);
  CU_ASSERT_STRING_EQUAL(err.key, key);
  if (m) K->destroy(&m);
}

static void test_bad_input(void) {
  billiard_params p;
  /* a ball wider than the parabola's vertex radius of curvature 1/(2a) */
  billiard_params_default(&p);
  p.radius = 0.5 / p.parabola_a * 1.01;
  p.y0 = 0.1;
  expect_bad(&p, "radius");
  /* the hyperbola's vertex radius is 1/(sqrt(alpha) beta) = 1.97 cm */
  billiard_params_default(&p);
  p.shape = BILLIARD_HYPERBOLA;
  p.radius = 0.02;
  p.y0 = 0.2;
  expect_bad(&p, "radius");
  /* polynomial with a sharp bottom: 1/(2 p2) = 0.5 mm < b */
  billiard_params_default(&p);
  p.shape = BILLIARD_POLYNOMIAL;
  p.poly[2] = 1000.0;
  expect_bad(&p, "radius");
  /* starting below the parabola (outside) or overlapping it */
  billiard_params_default(&p);
  p.y0 = 0.005;
  expect_bad(&p, "y0");
  billiard_params_default(&p);
  p.y0 = p.parabola_c + 0.5 * p.radius;
  expect_bad(&p, "y0");
  billiard_params_default(&p);
  p.shape = BILLIARD_WEDGE;
  p.x0 = 0.03;
  p.y0 = 0.03; /* below the right arm 1.85 * 0.03 + 0.0063 */
  expect_bad(&p, "y0");
  /* non-physical constants */
  billiard_params_default(&p);
  p.mass = -1.0;
  expect_bad(&p, "mass");
  billiard_params_default(&p);
  p.restitution = NAN;
  expect_bad(&p, "restitution");
  billiard_params_default(&p);
  p.restitution = 1.2;
  expect_bad(&p, "restitution");
  billiard_params_default(&p);
  p.mu_kinetic = 0.8;
  expect_bad(&p, "mu_kinetic");
  billiard_params_default(&p);
  p.c2 = -1e-6;
  expect_bad(&p, "c2");
  billiard_params_default(&p);
  p.parabola_a = 0.0;
  expect_bad(&p, "parabola_a");
  billiard_params_default(&p);
  p.poly[3] = INFINITY;
  expect_bad(&p, "poly");
}

/* A crossing with the ball moving away (round-off) changes nothing; a
 * simultaneous touch of both wedge arms is resolved one arm after the other
 * until neither approaches. */
static void test_handler_contacts(void) {
  billiard_params p;
  billiard_params_default(&p);
  p.shape = BILLIARD_WEDGE;
  p.amplitude = 0.0;
  p.friction = 0;
  p.restitution = 1.0;
  p.low_speed_rule = BILLIARD_RULE_NONE;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_ADAMS;
  mbdae_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(K->create(&p, &o, &m, NULL), MBDAE_OK);
  double k = p.wedge_slope, s = sqrt(1 + k * k);
  /* wedged: touching both arms at the vertex of the centre's wedge */
  double y[5] = {0.0, p.wedge_c + p.radius * s, 0.0, 0.0, 0.0};
  double g[2];
  CU_ASSERT_EQUAL(billiard_gaps(m, 0.0, y, g, NULL), 0);
  MBDAE_ASSERT_ABS(g[0], 0.0, 1e-15);
  MBDAE_ASSERT_ABS(g[1], 0.0, 1e-15);
  int dirs[2] = {-1, 0};
  mbdae_event_info info;
  /* moving up: both contacts separate -> no change */
  y[3] = 0.5;
  CU_ASSERT_EQUAL(billiard_handle_event(m, 0.0, y, NULL, dirs, &info), MBDAE_EVENT_NOCHANGE);
  /* falling straight down into the vertex: with e = 1 and no friction the
   * two elastic reflections send it straight back up at the same speed */
  y[3] = -0.5;
  CU_ASSERT_EQUAL(billiard_handle_event(m, 0.0, y, NULL, dirs, &info), MBDAE_EVENT_CONTINUE);
  MBDAE_ASSERT_ABS(hypot(y[2], y[3]), 0.5, 1e-14);
  double vn0 = -(y[2] * k) + y[3], vn1 = y[2] * k + y[3]; /* unnormalised */
  CU_ASSERT(vn0 >= -1e-14 && vn1 >= -1e-14);
  CU_ASSERT_EQUAL(info.ndata, BILLIARD_EV_COUNT);
  K->destroy(&m);
}

/* A ball at the vertex of the centre's wedge (touching both arms) with the
 * drive stopped or moving: the model for the cascade tests below. */
static mbdae_model *corner_model(double slope, double e, double amplitude, double *y) {
  billiard_params p;
  billiard_params_default(&p);
  p.shape = BILLIARD_WEDGE;
  p.wedge_slope = slope;
  p.amplitude = amplitude;
  p.friction = 0;
  p.restitution = e;
  p.low_speed_rule = BILLIARD_RULE_NONE;
  p.x0 = 0.0;
  p.y0 = p.wedge_c + 2.0 * p.radius * sqrt(1 + slope * slope);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_ADAMS;
  mbdae_model *m = NULL;
  CU_ASSERT_EQUAL(K->create(&p, &o, &m, NULL), MBDAE_OK);
  if (!m) return NULL;
  y[0] = 0.0;
  y[1] = p.wedge_c + p.radius * sqrt(1 + slope * slope);
  y[2] = y[4] = 0.0;
  y[3] = -0.5;
  return m;
}

/* Elastic, frictionless, straight down into a corner of opening pi/N: the
 * unfolded corner tiles the plane with 2N copies, so the ball is reflected N
 * times and leaves straight up at the same speed (N = 10: more impacts than
 * the 8 passes the handler once stopped after, silently). */
static void test_corner_ten_reflections(void) {
  double y[5];
  mbdae_model *m = corner_model(1.0 / tan(PI_TEST / 20.0), 1.0, 0.0, y);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  double g[2];
  CU_ASSERT_EQUAL(billiard_gaps(m, 0.0, y, g, NULL), 0);
  MBDAE_ASSERT_ABS(g[0], 0.0, 1e-15);
  MBDAE_ASSERT_ABS(g[1], 0.0, 1e-15);
  int dirs[2] = {-1, -1};
  mbdae_event_info info;
  memset(&info, 0, sizeof info);
  CU_ASSERT_EQUAL(billiard_handle_event(m, 0.0, y, NULL, dirs, &info), MBDAE_EVENT_CONTINUE);
  MBDAE_ASSERT_ABS(y[2], 0.0, 1e-13);
  MBDAE_ASSERT_ABS(y[3], 0.5, 1e-13);
  /* the same with the impacts cut to 8: a loud failure naming t and the
   * contact still approaching, never a ball left moving into an arm */
  y[2] = 0.0;
  y[3] = -0.5;
  m->max_impacts = 8;
  memset(&info, 0, sizeof info);
  CU_ASSERT_EQUAL(billiard_handle_event(m, 0.25, y, NULL, dirs, &info), MBDAE_ERR_EVENT_LIMIT);
  CU_ASSERT_PTR_NOT_NULL_FATAL(info.label);
  CU_ASSERT_PTR_NOT_NULL(strstr(info.label, "t=0.25"));
  CU_ASSERT_PTR_NOT_NULL(strstr(info.label, "1 contact(s) still approach"));
  CU_ASSERT_PTR_NOT_NULL(strstr(info.label, "after 8 impacts"));
  K->destroy(&m);
}

/* Plastic and frictionless, into the paper's wedge (opening 57 deg) carried
 * by the drive: each impact projects the relative velocity onto one arm, so
 * the approach speed shrinks by cos(57 deg) per impact and never ends; its
 * limit, the simultaneous plastic impact on both arms, is the ball moving
 * with the wedge: v = (drive rate, 0). 8 impacts leave 0.55^8 = 1e-2 of the
 * approach. */
static void test_corner_plastic_limit(void) {
  double y[5];
  mbdae_model *m = corner_model(1.85, 0.0, 0.01, y);
  CU_ASSERT_PTR_NOT_NULL_FATAL(m);
  const double t = 0.013;
  double rate, shift = billiard_drive(m, t, &rate);
  y[0] += shift;
  CU_ASSERT(fabs(rate) > 0.1);
  double g[2];
  CU_ASSERT_EQUAL(billiard_gaps(m, t, y, g, NULL), 0);
  MBDAE_ASSERT_ABS(g[0], 0.0, 1e-15);
  MBDAE_ASSERT_ABS(g[1], 0.0, 1e-15);
  int dirs[2] = {-1, 0};
  mbdae_event_info info;
  memset(&info, 0, sizeof info);
  CU_ASSERT_EQUAL(billiard_handle_event(m, t, y, NULL, dirs, &info), MBDAE_EVENT_CONTINUE);
  MBDAE_ASSERT_ABS(y[2], rate, 1e-11);
  MBDAE_ASSERT_ABS(y[3], 0.0, 1e-11);
  K->destroy(&m);
}

static void test_kind_tables(void) {
  CU_ASSERT_PTR_EQUAL(mbdae_model_kind_find("billiard"), K);
  CU_ASSERT_EQUAL(K->event_columns(NULL, NULL, 0), BILLIARD_EV_COUNT);
  mbdae_column cols[BILLIARD_EV_COUNT];
  CU_ASSERT_EQUAL(K->event_columns(NULL, cols, BILLIARD_EV_COUNT), BILLIARD_EV_COUNT);
  CU_ASSERT_STRING_EQUAL(cols[BILLIARD_EV_Q2_PREV].name, "q2_prev");
  CU_ASSERT_STRING_EQUAL(cols[BILLIARD_EV_U4_NORM].name, "u4_norm");
  for (int i = 0; i < K->nplots; ++i) {
    const mbdae_plot_spec *ps = &K->plots[i];
    if (strcmp(ps->source, "events") != 0) continue;
    int fx = 0, fy = 0;
    for (int j = 0; j < BILLIARD_EV_COUNT; ++j) {
      fx |= strcmp(cols[j].name, ps->xcol) == 0;
      fy |= strcmp(cols[j].name, ps->ycols) == 0;
    }
    CU_ASSERT(fx && fy);
  }
}

/* §V: the driven parabola mode-locks onto a period-one orbit: one collision
 * per half drive period, alternating sides at equal heights. */
typedef struct lock_acc {
  long n;
  double fl[50], q1[50], q2[50];
} lock_acc;
static int lock_cb(const mbdae_event_record *ev, const double *y, void *ud) {
  lock_acc *a = ud;
  long i = a->n++ % 50;
  a->fl[i] = ev->data[BILLIARD_EV_FLIGHT];
  a->q1[i] = y[0];
  a->q2[i] = y[1];
  return 0;
}
static void test_period_one_lock(void) {
  billiard_params p;
  billiard_params_default(&p);
  p.frequency = 5.4;
  p.amplitude = 0.01;
  p.restitution = 0.75;
  p.collisions = 600;
  p.x0 = 0.05;
  p.y0 = 0.085;
  billiard_run_cfg c;
  billiard_run_cfg_default(&c);
  lock_acc a;
  memset(&a, 0, sizeof a);
  c.on_collision = lock_cb;
  c.user_data = &a;
  CU_ASSERT_EQUAL_FATAL(billiard_run(&p, &c, NULL, NULL, NULL), MBDAE_STOPPED);
  CU_ASSERT_EQUAL(a.n, 600);
  for (int i = 0; i < 50; ++i) {
    MBDAE_ASSERT_ABS(a.fl[i], 0.5 / p.frequency, 1e-7);
    MBDAE_ASSERT_ABS(a.q2[i], a.q2[0], 1e-7);
    MBDAE_ASSERT_ABS(fabs(a.q1[i]), fabs(a.q1[0]), 1e-7);
    CU_ASSERT(a.q1[i] * a.q1[(i + 1) % 50] < 0.0); /* alternating sides */
  }
}

/* Every integrator runs the conservative wedge: energy after 300 collisions
 * (flight error only: the impacts conserve it exactly). */
typedef struct energy_acc {
  double e0, worst;
} energy_acc;
static int energy_cb(const mbdae_event_record *ev, const double *y, void *ud) {
  energy_acc *a = ud;
  (void)ev;
  double e = 0.5 * (y[2] * y[2] + y[3] * y[3]) + 9.81 * y[1];
  if (fabs(e - a->e0) / a->e0 > a->worst) a->worst = fabs(e - a->e0) / a->e0;
  return 0;
}
static void test_methods(void) {
  const mbdae_method methods[] = {MBDAE_METHOD_IDA, MBDAE_METHOD_CVODE_BDF,
                                  MBDAE_METHOD_CVODE_ADAMS, MBDAE_METHOD_RK4};
  for (int i = 0; i < 4; ++i) {
    billiard_params p;
    billiard_params_default(&p);
    p.shape = BILLIARD_WEDGE;
    p.amplitude = 0.0;
    p.drag = 0;
    p.friction = 0;
    p.restitution = 1.0;
    p.low_speed_rule = BILLIARD_RULE_NONE;
    p.collisions = 300;
    p.x0 = 0.005;
    p.y0 = 0.03;
    billiard_run_cfg c;
    billiard_run_cfg_default(&c);
    c.method = methods[i];
    c.rk4_step = 1e-3;
    energy_acc a = {9.81 * p.y0, 0.0};
    c.on_collision = energy_cb;
    c.user_data = &a;
    CU_ASSERT_EQUAL(billiard_run(&p, &c, NULL, NULL, NULL), MBDAE_STOPPED);
    if (!(a.worst < 1e-6)) printf("\n  %s: energy error %.3g\n", mbdae_method_name(methods[i]), a.worst);
    CU_ASSERT(a.worst < 1e-6);
  }
}

int main(void) {
  const mbdae_test tests[] = {{"jacobian ODE form", test_jacobian_ode},
                              {"jacobian DAE form", test_jacobian_dae},
                              {"bad input names the key", test_bad_input},
                              {"handler contact logic", test_handler_contacts},
                              {"corner: ten elastic reflections, or a loud failure",
                               test_corner_ten_reflections},
                              {"corner: plastic cascade to its limit", test_corner_plastic_limit},
                              {"kind tables and plots", test_kind_tables},
                              {"driven parabola locks to period one", test_period_one_lock},
                              {"IDA, CVODE BDF/Adams, RK4 run the wedge", test_methods},
                              {NULL, NULL}};
  return mbdae_test_main("billiard_model", tests);
}
