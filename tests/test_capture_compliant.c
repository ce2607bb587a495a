/* test_capture_compliant.c - the compliant laws (models/compliant/) and
 * net_capture's mode: compliant: the Hunt-Crossley restitution closed form
 * against an independent integration of the 1-D impact, its small-x
 * asymptote and its inverse; the elastic thread's continuity at slack; the
 * analytic sparse Jacobian (ODE and DAE forms) against central differences
 * at slack, taut, clamped, in-contact (sliding and sticking friction, a
 * tumbling body) and free states, and a mutated entry caught (jac_mutant.h); conservation of momentum and (undamped, frictionless) energy
 * through contact. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture_compliant.h"
#include "capture_setups.h"
#include "compliant/elastic_thread.h"
#include "compliant/hunt_crossley.h"
#include "jac_mutant.h"
#include "mbdae/jaccheck.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "testutil.h"

/* e(x) against a direct RK4 integration of m d'' = -k d^p (1 + a d') */
static double impact_by_rk4(double k, double p, double a, double m, double v) {
  double d = 0.0, u = v, h = 1e-7;
  hc_law law = {k, p, a};
  for (long it = 0; it < 100000000L; ++it) {
    double k1d = u, k1u = -hc_force(&law, d, u, NULL, NULL) / m;
    double k2d = u + 0.5 * h * k1u, k2u = -hc_force(&law, d + 0.5 * h * k1d, k2d, NULL, NULL) / m;
    double k3d = u + 0.5 * h * k2u, k3u = -hc_force(&law, d + 0.5 * h * k2d, k3d, NULL, NULL) / m;
    double k4d = u + h * k3u, k4u = -hc_force(&law, d + h * k3d, k4d, NULL, NULL) / m;
    double dn = d + h / 6 * (k1d + 2 * k2d + 2 * k3d + k4d);
    double un = u + h / 6 * (k1u + 2 * k2u + 2 * k3u + k4u);
    if (it > 10 && dn <= 0.0) return -un / v; /* free flight after exit: u constant */
    d = dn;
    u = un;
  }
  return -1.0;
}

static void test_restitution(void) {
  /* independent: direct integration, several x = a v, p = 1 and 1.5 */
  double xs[3] = {0.3, 1.7, 6.0};
  for (int i = 0; i < 3; ++i) {
    double v = 0.8, a = xs[i] / v;
    double e_rk = impact_by_rk4(2e4, i == 1 ? 1.0 : 1.5, a, 0.1, v);
    MBDAE_ASSERT_REL(hc_restitution(xs[i]), e_rk, 1e-7);
  }
  /* small x: e = 1 - 2x/3 + O(x^2) (Hunt-Crossley's a = 3(1 - e)/(2 v)) */
  MBDAE_ASSERT_ABS(hc_restitution(1e-6), 1.0 - 2e-6 / 3.0, 1e-11);
  CU_ASSERT_EQUAL(hc_restitution(0.0), 1.0);
  CU_ASSERT(hc_restitution(-1.0) < 0.0);
  /* the inverse, and e independent of k, p, m at fixed a v */
  double es[4] = {0.99, 0.5, 0.15, 0.01};
  for (int i = 0; i < 4; ++i) {
    double a = 0.0;
    CU_ASSERT_EQUAL(hc_damping_for_restitution(es[i], 2.0, &a), 0);
    MBDAE_ASSERT_REL(hc_restitution(2.0 * a), es[i], 1e-12);
  }
  double a = -1.0;
  CU_ASSERT_EQUAL(hc_damping_for_restitution(1.0, 1.0, &a), 0);
  CU_ASSERT_EQUAL(a, 0.0);
  CU_ASSERT_EQUAL(hc_damping_for_restitution(0.0, 1.0, &a), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(hc_damping_for_restitution(1.2, 1.0, &a), MBDAE_ERR_ARGUMENT);
  CU_ASSERT_EQUAL(hc_damping_for_restitution(0.5, 0.0, &a), MBDAE_ERR_ARGUMENT);
  /* undamped durations: pi sqrt(m/k) and Hertz's 2.9432 d_max / v */
  MBDAE_ASSERT_REL(hc_undamped_duration(1e4, 1.0, 0.25, 3.0), 3.14159265358979 * 0.005, 1e-12);
  double dm = hc_undamped_max_depth(1e6, 1.5, 0.1, 2.0);
  MBDAE_ASSERT_REL(dm, pow(1.25 * 0.1 * 4.0 / 1e6, 0.4), 1e-12);
  MBDAE_ASSERT_REL(hc_undamped_duration(1e6, 1.5, 0.1, 2.0) * 2.0 / dm, 2.943275, 1e-6);
}

static void test_thread(void) {
  elastic_thread th = {0.5, 5e4, 30.0, 0.0};
  double S[3] = {0.3, 0.4, 0.0}, W[3] = {1.0, -2.0, 0.5}, f[3], dS[9], dW[9], diss;
  /* at rest length and just below: no force whatever the rate */
  CU_ASSERT_EQUAL(elastic_thread_force(&th, S, W, f, dS, dW, &diss), 0.0);
  /* just above: T -> 0 continuously (T = EA eps (1 + eta eps'/EA)) */
  double s = (0.5 + 1e-12) / 0.5;
  double S2[3] = {0.3 * s, 0.4 * s, 0.0};
  double T = elastic_thread_force(&th, S2, W, f, dS, dW, &diss);
  CU_ASSERT(T > 0.0 && T < 5e4 * 2e-12 * 2.0);
  /* energy balance of the law: D = (T - k delta) delta' */
  double S3[3] = {0.303, 0.404, 0.001}, W3[3] = {0.2, 0.1, -0.3};
  double len = sqrt(0.303 * 0.303 + 0.404 * 0.404 + 1e-6), delta = len - 0.5;
  double rate = (0.303 * 0.2 + 0.404 * 0.1 - 0.001 * 0.3) / len;
  T = elastic_thread_force(&th, S3, W3, f, dS, dW, &diss);
  MBDAE_ASSERT_REL(T, 5e4 * delta / 0.5 + 30.0 * (delta / 0.5) * (rate / 0.5), 1e-12);
  MBDAE_ASSERT_REL(diss, (T - 5e4 / 0.5 * delta) * rate, 1e-12);
  MBDAE_ASSERT_REL(elastic_thread_energy(&th, S3), 0.5 * 5e4 * delta * delta / 0.5, 1e-12);
  /* clamped: retracting faster than L EA / (eta eps) -> zero tension */
  double W4[3] = {-1000.0 * 0.303 / len, -1000.0 * 0.404 / len, -1000.0 * 0.001 / len};
  CU_ASSERT_EQUAL(elastic_thread_force(&th, S3, W4, f, dS, dW, &diss), 0.0);
  CU_ASSERT(diss > 0.0);
}

/* a 3 x 3 net of elastic threads around a tumbling box */
static capture_model *make(int dae, double mu, double eta) {
  capture_params p;
  small_params(&p, CAPTURE_MODE_COMPLIANT);
  p.rows = p.cols = 3;
  p.spacing = 0.5;
  p.string_ea = 2e3;
  p.string_damping = eta;
  p.contact_stiffness = 1e4;
  p.contact_exponent = 1.5;
  p.contact_restitution = 0.4;
  p.contact_reference_velocity = 0.5;
  p.friction = mu;
  p.friction_velocity = 0.05;
  set3(p.body_omega, 0.3, -0.7, 0.5);
  set3(p.body_velocity, 0.1, 0.0, -0.2);
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create_compliant(&p, dae, &m, NULL), MBDAE_OK);
  return m;
}

/* state: the net in the plane z = z0 (some points inside the box's top
 * face at z = 0.4, 0.1 or more from its edges), stretched by `stretch`,
 * jittered by 2e-3 (every thread 5e-3 or more from its rest length when
 * |stretch - 1| >= 0.02), random velocities */
static void place(capture_model *m, double *y, double z0, double stretch, unsigned seed) {
  int np = capture_npoints(m), bo = capture_body_offset(m);
  CU_ASSERT_EQUAL(capture_initial_state(m, 0.0, y), MBDAE_OK);
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      int k = 3 * a + b;
      set3(&y[3 * k], 0.1 + (a - 1) * 0.5 * stretch + 0.002 * prand(&seed),
           0.15 + (b - 1) * 0.5 * stretch + 0.002 * prand(&seed), z0 + 0.001 * prand(&seed));
      set3(&y[3 * np + 3 * k], 0.5 * prand(&seed), 0.5 * prand(&seed), 0.5 * prand(&seed));
    }
  double q[4] = {0.9, 0.1 * prand(&seed), 0.2, -0.1};
  memcpy(&y[bo + MBDAE_RB_Q], q, sizeof q); /* not unit: C uses q/|q| */
}

/* rel_step: the finite-difference step relative to |y_i| (0: the checker's
 * cbrt(eps)); a state a hair from a kink needs a step below that distance */
static void check_jac_step(capture_model *m, const double *y, int dae, const char *what,
                           double rel_step, double tol) {
  int n = capture_size(m);
  double *yp = calloc((size_t)n, sizeof *yp);
  CU_ASSERT_FATAL(yp != NULL);
  CU_ASSERT_EQUAL(capture_compliant_rhs(m, 0.3, y, yp), 0);
  mbdae_jac_check jc;
  CU_ASSERT_EQUAL_FATAL(mbdae_jacobian_check(capture_problem(m), 0.3, y, dae ? yp : NULL, 37.0,
                                             rel_step, 1e-7, &jc), MBDAE_OK);
  if (!(jc.max_rel_err < tol) || jc.pattern_misses)
    printf("\n  %s (%s): rel err %.3g at (%d, %d): %.9g vs fd %.9g; %ld misses at (%d, %d)\n",
           what, dae ? "dae" : "ode", jc.max_rel_err, jc.worst_row, jc.worst_col,
           jc.worst_analytic, jc.worst_fd, jc.pattern_misses, jc.miss_row, jc.miss_col);
  CU_ASSERT(jc.max_rel_err < tol);
  CU_ASSERT_EQUAL(jc.pattern_misses, 0);
  /* one entry of the points' accelerations off by 100 tol: caught there */
  int np = capture_npoints(m);
  jac_mutant_block(capture_problem(m), 0.3, y, dae ? yp : NULL, 37.0, rel_step, tol, 3 * np,
                   6 * np, 0, n);
  free(yp);
}

static void check_jac(capture_model *m, const double *y, int dae, const char *what) {
  check_jac_step(m, y, dae, what, 0.0, 1e-6);
}

static void test_jacobian(void) {
  for (int dae = 0; dae < 2; ++dae) {
    capture_model *m = make(dae, 0.4, 3.0);
    int n = capture_size(m);
    double *y = calloc((size_t)n, sizeof *y);
    CU_ASSERT_FATAL(y != NULL);
    int taut = 0, contacts = 0;
    /* launch state: all points at one place, every thread slack, no contact */
    CU_ASSERT_EQUAL(capture_initial_state(m, 0.0, y), MBDAE_OK);
    check_jac(m, y, dae, "slack, free");
    /* stretched 2%, above the body: taut, no contact */
    place(m, y, 1.0, 1.02, 7u);
    capture_compliant_energies(m, y, NULL, NULL, NULL, &taut, &contacts);
    CU_ASSERT(taut >= 6);
    CU_ASSERT_EQUAL(contacts, 0);
    check_jac(m, y, dae, "taut, free");
    /* stretched and sinking into the top face: contact with friction */
    place(m, y, 0.397, 1.02, 11u);
    capture_compliant_energies(m, y, NULL, NULL, NULL, &taut, &contacts);
    CU_ASSERT(contacts >= 2);
    check_jac(m, y, dae, "taut, in contact, sliding");
    /* the same, sticking: the body at rest, the points creeping at 0.01 m/s
     * or less, far below v_eps = 0.05 m/s (friction's viscous branch) */
    int np = capture_npoints(m), bo = capture_body_offset(m);
    unsigned seed = 13u;
    set3(&y[bo + MBDAE_RB_U], 0.0, 0.0, 0.0);
    set3(&y[bo + MBDAE_RB_W], 0.0, 0.0, 0.0);
    for (int k = 0; k < np; ++k)
      set3(&y[3 * np + 3 * k], 0.01 * prand(&seed), 0.01 * prand(&seed), 0.01 * prand(&seed));
    capture_compliant_energies(m, y, NULL, NULL, NULL, &taut, &contacts);
    CU_ASSERT(contacts >= 2);
    /* step 3e-6: cbrt(eps)'s truncation (1.2e-6 in the body's spin row from
     * the depth^1.5 curvature) and 1e-7's round-off both reach 1e-6 here */
    check_jac_step(m, y, dae, "taut, in contact, sticking", 3e-6, 1e-6);
    /* compressed net (threads slack) in contact */
    place(m, y, 0.397, 0.98, 5u);
    capture_compliant_energies(m, y, NULL, NULL, NULL, &taut, &contacts);
    CU_ASSERT(contacts >= 2);
    check_jac(m, y, dae, "slack, in contact");
    free(y);
    capture_free(&m);
  }
  /* near the kinks: a thread a hair above its rest length, a thread
   * retracting just slower than the clamp speed, a point a hair inside */
  capture_model *m = make(0, 0.4, 3.0);
  int n = capture_size(m), np = capture_npoints(m);
  double *y = calloc((size_t)n, sizeof *y);
  place(m, y, 1.0, 1.0, 3u);
  /* thread 0 joins points 0 and 1 (grid (0,0)-(0,1)): 1e-5 m above L, with
   * a finite-difference step of 1e-7 (not across the kink; smaller steps
   * drown in the round-off of delta = |S| - L times k/m = 8e4 s^-2) */
  int i, j;
  double L;
  capture_string_ends(m, 0, &i, &j, &L);
  double S[3];
  for (int c = 0; c < 3; ++c) S[c] = y[3 * j + c] - y[3 * i + c];
  double len = sqrt(S[0] * S[0] + S[1] * S[1] + S[2] * S[2]);
  for (int c = 0; c < 3; ++c) y[3 * j + c] = y[3 * i + c] + S[c] * (L + 1e-5) / len;
  check_jac_step(m, y, 0, "1e-5 m above rest length", 1e-7, 1e-4);
  /* retracting at 0.9 of the clamp speed L EA / eta: 1 + a delta' = 0.1 */
  double rate = -0.9 * L * 2e3 / 3.0;
  for (int c = 0; c < 3; ++c) {
    y[3 * np + 3 * j + c] = y[3 * np + 3 * i + c] + rate * S[c] / len;
  }
  check_jac_step(m, y, 0, "near the clamp", 1e-7, 1e-4);
  /* the centre point 1e-5 m inside the top face (contact onset), moving in */
  int bo = capture_body_offset(m);
  double q1[4] = {1.0, 0.0, 0.0, 0.0}, C[9];
  memcpy(&y[bo + MBDAE_RB_Q], q1, sizeof q1);
  set3(&y[bo + MBDAE_RB_P], 0.0, 0.0, 0.0);
  y[3 * 4 + 2] = 0.4 - 1e-5;
  y[3 * np + 3 * 4 + 2] = -0.3;
  mbdae_rb_rotation(q1, C);
  MBDAE_ASSERT_REL(cc_point_depth(capture_body(m), C, &y[3 * 4], &y[bo], NULL), 1e-5, 1e-9);
  check_jac_step(m, y, 0, "1e-5 m inside the body", 1e-7, 1e-4);
  free(y);
  capture_free(&m);
}

/* momentum exactly, energy (undamped, frictionless) to the tolerance, on a
 * net dropped onto a spinning box */
static void test_conservation(void) {
  capture_params p;
  small_params(&p, CAPTURE_MODE_COMPLIANT);
  p.rows = p.cols = 3;
  p.spacing = 0.4;
  p.point_mass = 0.02;
  p.string_ea = 1e3;
  p.string_damping = 0.0;
  p.contact_stiffness = 2e4;
  p.contact_restitution = 1.0;
  p.friction = 0.0;
  set3(p.launch_point, 0.05, -0.03, 1.5);
  set3(p.launch_velocity, 0.0, 0.0, -1.5);
  p.deploy_time = 0.4;
  set3(p.body_omega, 0.2, 0.4, -0.3);
  capture_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(capture_create_compliant(&p, 1, &m, NULL), MBDAE_OK);
  int n = capture_size(m);
  double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
  CU_ASSERT_EQUAL(capture_initial_state(m, 0.0, y), MBDAE_OK);
  CU_ASSERT_EQUAL(capture_compliant_rhs(m, 0.0, y, yp), 0);
  double p0[3], L0[3], E0, e0[3], p1[3], L1[3], E1, e1[3];
  capture_momenta(m, y, p0, L0, &E0);
  capture_compliant_energies(m, y, &e0[0], &e0[1], &e0[2], NULL, NULL);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.linsol = MBDAE_LINSOL_KLU;
  o.t_end = 1.5;
  o.dt_out = 0.1;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  mbdae_stats st;
  int contacts_seen = 0;
  CU_ASSERT_EQUAL(mbdae_run(capture_problem(m), &o, y, yp, &st, NULL, 0), MBDAE_OK);
  capture_momenta(m, y, p1, L1, &E1);
  capture_compliant_energies(m, y, &e1[0], &e1[1], &e1[2], NULL, &contacts_seen);
  double Etot0 = e0[0] + e0[1] + e0[2], Etot1 = e1[0] + e1[1] + e1[2];
  MBDAE_ASSERT_REL(Etot1, Etot0, 1e-7);
  for (int c = 0; c < 3; ++c) {
    MBDAE_ASSERT_ABS(p1[c], p0[c], 1e-9);
    MBDAE_ASSERT_ABS(L1[c], L0[c], 1e-9);
  }
  /* the net did hit the box: the body moved */
  int bo = capture_body_offset(m);
  CU_ASSERT(fabs(y[bo + MBDAE_RB_U + 2]) > 1e-3);
  free(y);
  free(yp);
  capture_free(&m);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"Hunt-Crossley restitution, inverse, durations", test_restitution},
    {"elastic thread: continuity at slack, clamp, energy", test_thread},
    {"compliant capture: sparse Jacobian vs central differences", test_jacobian},
    {"compliant capture: momentum and energy conserved", test_conservation},
    {NULL, NULL}};
  return mbdae_test_main("capture_compliant", tests);
}
