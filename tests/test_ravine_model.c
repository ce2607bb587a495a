/* test_ravine_model.c - the ravine model against closed forms: rolling and
 * sliding down an incline, sliding-to-rolling transition, bouncing sequence
 * and accumulation time, energy never increasing, analytic Jacobian versus
 * finite differences in every mode, and rejected input naming its key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/jaccheck.h"
#include "ravine/ravine.h"
#include "ravine_sim.h"
#include "testutil.h"

static ravine_sim *sim_new(void) {
  ravine_sim *s = malloc(sizeof *s);
  CU_ASSERT_PTR_NOT_NULL_FATAL(s);
  return s;
}

static const double DEG = 3.14159265358979323846 / 180.0;

/* a straight slope of angle th (down to the right for th > 0) */
static void slope_params(ravine_params *p, double th, double *pts) {
  ravine_sim_default_params(p);
  pts[0] = -1000.0; pts[1] = 1000.0 * tan(th);
  pts[2] = 1000.0;  pts[3] = -1000.0 * tan(th);
  p->terrain = 1;
  p->points = pts;
  p->npoints = 2;
  p->stop_on_rebound = 0;
}

static void test_rolling_incline(void) {
  /* hartl eq. 3.16: a = g sin(theta) / (1 + J/(m b^2)) */
  double pts[4];
  ravine_params p;
  double th = 25.0 * DEG;
  slope_params(&p, th, pts);
  p.g = 9.81; p.J_ratio = 0.3; p.b = 2.0; p.x0 = 0.0; p.speed = 0.0;
  double T = 3.0, a = p.g * sin(th) / (1.0 + p.J_ratio);
  mbdae_method methods[2] = {MBDAE_METHOD_CVODE_ADAMS, MBDAE_METHOD_RK4};
  for (int k = 0; k < 2; ++k) {
    ravine_sim *s = sim_new();
    CU_ASSERT_EQUAL(ravine_sim_run(&p, methods[k], T, 1e-3, s), MBDAE_OK);
    double vt = s->y[3] * cos(th) - s->y[4] * sin(th);
    MBDAE_ASSERT_REL(vt, a * T, 1e-8);
    /* rolling without slip: omega_z = -v/b */
    MBDAE_ASSERT_REL(s->y[8], -a * T / p.b, 1e-8);
    CU_ASSERT_EQUAL(s->nevents, 0);
    free(s);
  }
}

static void test_sliding_incline(void) {
  /* mu below mu_min = tan(theta) k/(1+k) (hartl 3.2): the sphere slides with
   * a = g (sin th - mu' cos th) and omega_z' = -mu' g b cos th / (J/m) */
  double pts[4];
  ravine_params p;
  double th = 30.0 * DEG;
  slope_params(&p, th, pts);
  p.mu = 0.1; p.mu_k = 0.08; p.J_ratio = 0.4; p.speed = 0.0;
  CU_ASSERT(p.mu < tan(th) * 0.4 / 1.4);
  double T = 2.0;
  ravine_sim *s = sim_new();
  CU_ASSERT_EQUAL(ravine_sim_run(&p, MBDAE_METHOD_CVODE_ADAMS, T, 0, s), MBDAE_OK);
  double vt = s->y[3] * cos(th) - s->y[4] * sin(th);
  MBDAE_ASSERT_REL(vt, p.g * (sin(th) - p.mu_k * cos(th)) * T, 1e-8);
  MBDAE_ASSERT_REL(s->y[8], -p.mu_k * p.g * cos(th) * p.b / (p.J_ratio * p.b * p.b) * T, 1e-8);
  free(s);
}

static void test_slide_to_roll(void) {
  /* flat ground, pure sliding start (v0, omega 0): slip s = v + b omega_z
   * decays at mu' g (1 + m b^2/J); rolling starts at t* = v0/(mu' g (1 + 1/k))
   * with v* = v0/(1 + k), k = J/(m b^2) (hartl eqs. 3.2-3.3) */
  double pts[4] = {-1000.0, 0.0, 1000.0, 0.0};
  ravine_params p;
  ravine_sim_default_params(&p);
  p.terrain = 1; p.points = pts; p.npoints = 2; p.stop_on_rebound = 0;
  p.start = 1; p.b = 0.7; p.J_ratio = 0.25; p.mu_k = 0.3; p.mu = 0.5; p.g = 9.81;
  double v0 = 4.0;
  memset(p.q, 0, sizeof p.q);
  memset(p.u, 0, sizeof p.u);
  p.q[1] = p.b; p.u[3] = v0;
  double k = p.J_ratio;
  double ts = v0 / (p.mu_k * p.g * (1.0 + 1.0 / k)), vs = v0 / (1.0 + k);
  ravine_sim *s = sim_new();
  CU_ASSERT_EQUAL(ravine_sim_run(&p, MBDAE_METHOD_CVODE_ADAMS, 2.0 * ts, 0, s), MBDAE_OK);
  int found = 0;
  for (int i = 0; i < s->nevents; ++i)
    if (strcmp(s->ev[i].label, "roll-onset") == 0) {
      found = 1;
      MBDAE_ASSERT_REL(s->ev[i].t, ts, 1e-7);
      MBDAE_ASSERT_REL(s->ev[i].y[3], vs, 1e-7);
      CU_ASSERT_STRING_EQUAL(s->ev[i].mode_after, "roll");
    }
  CU_ASSERT(found);
  MBDAE_ASSERT_REL(s->y[3], vs, 1e-7); /* then constant (hartl 3.7-3.8) */
  free(s);
}

/* vertical drop from h0 on flat ground: impacts at t1 = sqrt(2 h0/g),
 * t_{k+1} = t_k + 2 e^k v1/g; they accumulate at t1 + 2 e v1/(g (1 - e)).
 * The Zeno rule ends bouncing at the first separation speed below
 * v_stop = max(v_rest, sqrt(2 g RAVINE_GAP_RESOLUTION b)). */
static void bounce_sequence(double v_rest) {
  double pts[4] = {-10.0, 0.0, 10.0, 0.0};
  ravine_params p;
  ravine_sim_default_params(&p);
  p.terrain = 1; p.points = pts; p.npoints = 2; p.stop_on_rebound = 0;
  p.start = 1; p.b = 0.5; p.e = 0.8; p.g = 9.81; p.v_rest = v_rest;
  double v_stop = fmax(p.v_rest, sqrt(2.0 * p.g * RAVINE_GAP_RESOLUTION * p.b));
  double h0 = 2.0;
  memset(p.q, 0, sizeof p.q);
  memset(p.u, 0, sizeof p.u);
  p.q[1] = p.b + h0;
  double t1 = sqrt(2.0 * h0 / p.g), v1 = sqrt(2.0 * p.g * h0);
  double tinf = t1 + 2.0 * p.e * v1 / (p.g * (1.0 - p.e));
  ravine_sim *s = sim_new();
  CU_ASSERT_EQUAL(ravine_sim_run(&p, MBDAE_METHOD_CVODE_ADAMS, tinf + 1.0, 0, s), MBDAE_OK);
  double tk = t1, vk = v1;
  int nimp = 0;
  double t_rest = -1.0;
  for (int i = 0; i < s->nevents; ++i) {
    if (strncmp(s->ev[i].label, "impact", 6) != 0) continue;
    if (nimp < 20) {
      MBDAE_ASSERT_REL(s->ev[i].t, tk, 1e-8);
      MBDAE_ASSERT_ABS(-s->ev[i].data[3], vk, 1e-7); /* approach speed */
    }
    nimp++;
    tk += 2.0 * p.e * vk / p.g;
    vk *= p.e;
    if (strcmp(s->ev[i].mode_after, "roll") == 0) t_rest = s->ev[i].t;
  }
  /* the number of bounces before the rule: e^n v1 < v_stop */
  int nexp = (int)ceil(log(v_stop / v1) / log(p.e));
  CU_ASSERT(abs(nimp - nexp) <= 1);
  CU_ASSERT(t_rest > 0.0);
  double slack = 2.0 * v_stop / (p.g * (1.0 - p.e));
  CU_ASSERT(tinf - t_rest >= -1e-9);
  CU_ASSERT(tinf - t_rest <= slack + 1e-9);
  MBDAE_ASSERT_ABS(s->y[4], 0.0, 1e-12);
  MBDAE_ASSERT_ABS(s->y[1], p.b, 1e-9);
  free(s);
}

static void test_bounce_sequence(void) {
  bounce_sequence(1e-2); /* v_rest decides (above 3.1e-3 m/s) */
  bounce_sequence(0.0);  /* the gap resolution decides: a hop below it ends */
}

static void test_energy_valley(void) {
  /* every event of the sec. 4.2 example (both spin signs) keeps or loses energy */
  double spins[3] = {-5.0, 5.0, 5.0};
  for (int k = 0; k < 3; ++k) {
    ravine_params p;
    ravine_sim_default_params(&p);
    if (k == 2) { p.mu = 0.2; p.mu_k = 0.15; } /* low friction: slip impacts and sliding */
    p.start = 1;
    memset(p.q, 0, sizeof p.q);
    memset(p.u, 0, sizeof p.u);
    p.q[1] = 1.0; p.u[2] = spins[k]; p.u[3] = 5.0;
    p.stop_on_rebound = 0;
    ravine_sim *s = sim_new();
    int rc = ravine_sim_run(&p, MBDAE_METHOD_CVODE_ADAMS, 60.0, 0, s);
    CU_ASSERT(rc == MBDAE_OK);
    CU_ASSERT(s->nevents > 5);
    for (int i = 0; i < s->nevents; ++i) {
      double Eb = s->ev[i].E_before, Ea = s->ev[i].E_after;
      if (!(Ea <= Eb + 1e-6 * (1.0 + fabs(Eb))))
        printf("\n  event %d '%s' at t=%g: E %.12g -> %.12g\n", i, s->ev[i].label,
               s->ev[i].t, Eb, Ea);
      CU_ASSERT(Ea <= Eb + 1e-6 * (1.0 + fabs(Eb)));
    }
    if (k == 2) CU_ASSERT(ravine_sim_outcome(s, "impacts_slip") > 0.0);
    free(s);
  }
}

/* Jacobian of the ODE at a state in a given mode (set by initial_state). */
static void check_jac_at(ravine_params *p, const double *ydelta, const char *mode) {
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_BDF;
  mbdae_model *m = NULL;
  mbdae_param_error err = {0};
  CU_ASSERT_EQUAL_FATAL(mbdae_model_ravine.create(p, &o, &m, &err), MBDAE_OK);
  double y[9];
  CU_ASSERT_EQUAL(mbdae_model_ravine.initial_state(m, 0.0, y, NULL), MBDAE_OK);
  mbdae_problem *pr = mbdae_model_ravine.problem(m);
  mbdae_outcome out[16];
  (void)out;
  for (int i = 0; i < 9; ++i) y[i] += ydelta[i];
  mbdae_jac_check jc;
  CU_ASSERT_EQUAL(mbdae_jacobian_check(pr, 0.0, y, NULL, 0.0, 0.0, 1e-6, &jc), MBDAE_OK);
  if (!(jc.max_rel_err < 1e-6))
    printf("\n  %s: worst (%d,%d) analytic %g fd %g\n", mode, jc.worst_row, jc.worst_col,
           jc.worst_analytic, jc.worst_fd);
  CU_ASSERT(jc.max_rel_err < 1e-6);
  mbdae_model_ravine.destroy(&m);
}

static void test_jacobian(void) {
  ravine_params p;
  double d0[9] = {0};
  double d3[9] = {0.01, -0.005, 0.1, 0.3, 0.01, 0.4, 0.2, -0.3, 0.5};
  /* flight */
  ravine_sim_default_params(&p);
  p.start = 1; memset(p.u, 0, sizeof p.u);
  p.q[0] = -5.0; p.q[1] = 4.0; p.u[3] = 2.0; p.u[2] = 1.0;
  check_jac_at(&p, d3, "flight");
  /* rolling on the decline */
  ravine_sim_default_params(&p);
  p.x0 = 5.0; p.speed = 3.0;
  check_jac_at(&p, d0, "roll");
  check_jac_at(&p, d3, "roll 3D");
  /* sliding on the decline, 3D slip */
  ravine_sim_default_params(&p);
  p.start = 1; memset(p.u, 0, sizeof p.u);
  p.q[0] = 5.0 + 0.5; p.q[1] = -5.0 * tan(30 * DEG) + 0.5 / cos(30 * DEG) + 0.0;
  {
    /* place the centre at distance b from the decline through (0,0) */
    double nx = sin(30 * DEG), ny = cos(30 * DEG);
    double px = 5.0, py = -5.0 * tan(30 * DEG);
    p.q[0] = px + nx; p.q[1] = py + ny;
    p.u[3] = 3.0 * cos(30 * DEG); p.u[4] = -3.0 * sin(30 * DEG);
    p.u[2] = 1.0; p.u[0] = 0.5; p.u[5] = 0.7;
  }
  check_jac_at(&p, d3, "slide");
  /* pivoting over the convex rim (slow: N > 0 at the edge) */
  ravine_sim_default_params(&p);
  p.x0 = 0.0; p.speed = 0.5;
  double dr[9] = {0.2, -0.02, 0.1, 0.1, -0.05, 0.2, 0.1, 0.2, 0.3};
  check_jac_at(&p, dr, "roll-corner");
  ravine_sim_default_params(&p);
  p.start = 1; memset(p.u, 0, sizeof p.u);
  p.q[0] = 0.0; p.q[1] = 1.0; p.u[3] = 0.5; p.u[2] = 2.0; p.u[5] = 0.1;
  check_jac_at(&p, dr, "slide-corner");
}

static void expect_reject(ravine_params *p, const char *key) {
  mbdae_param_error err = {0};
  int rc = mbdae_model_ravine.check(p, &err);
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_PARAMETER);
  CU_ASSERT_PTR_NOT_NULL_FATAL(err.key);
  if (strcmp(err.key, key) != 0) printf("\n  expected key %s, got %s (%s)\n", key, err.key, err.msg);
  CU_ASSERT_STRING_EQUAL(err.key, key);
  CU_ASSERT(strlen(err.msg) > 0);
}

static void test_bad_input(void) {
  ravine_params p;
  ravine_sim_default_params(&p);
  mbdae_param_error err = {0};
  CU_ASSERT_EQUAL(mbdae_model_ravine.check(&p, &err), MBDAE_OK);
  double cross[8] = {0, 0, 4, 0, 2, 1, 2, -1};
  p.terrain = 1; p.points = cross; p.npoints = 4;
  expect_reject(&p, "terrain_points");
  double back[6] = {0, 0, 1, 1, 0.5, 2};
  p.points = back; p.npoints = 3;
  expect_reject(&p, "terrain_points");
  ravine_sim_default_params(&p); p.e = 1.2; expect_reject(&p, "e");
  ravine_sim_default_params(&p); p.mu = -0.1; p.mu_k = -0.2; expect_reject(&p, "mu");
  ravine_sim_default_params(&p); p.mu = 0.5; p.mu_k = 0.6; expect_reject(&p, "mu_k");
  ravine_sim_default_params(&p); p.dh = 2.0; expect_reject(&p, "dh");
  ravine_sim_default_params(&p);
  p.start = 1; memset(p.u, 0, sizeof p.u); p.q[0] = -5.0; p.q[1] = 0.5;
  expect_reject(&p, "q");
  ravine_sim_default_params(&p);
  p.start = 1; memset(p.u, 0, sizeof p.u); p.q[0] = 20.0; p.q[1] = -20.0;
  expect_reject(&p, "q");
  ravine_sim_default_params(&p); p.J_ratio = 0.0; expect_reject(&p, "J_ratio");
}

int main(void) {
  static const mbdae_test tests[] = {
    {"rolling down an incline: g sin(th)/(1 + J/(m b^2))", test_rolling_incline},
    {"sliding down an incline below mu_min", test_sliding_incline},
    {"sliding to rolling: time and speed", test_slide_to_roll},
    {"bouncing: impact sequence and accumulation", test_bounce_sequence},
    {"energy never increases across events", test_energy_valley},
    {"analytic Jacobian = finite differences in every mode", test_jacobian},
    {"bad input names its key", test_bad_input},
    {NULL, NULL},
  };
  return mbdae_test_main("ravine_model", tests);
}
