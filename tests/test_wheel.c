/* test_wheel.c - the wheel at a curb without the integrator: parameter
 * checks, geometry of Omega (eqs. 3-5), the collision map against closed
 * forms of eqs. (43)-(55) derived here, the contact problem at the corner B
 * (eqs. 82-94) against closed forms derived here, and the exact Jacobian
 * against finite differences. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "testutil.h"
#include "wheel/wheel.h"

static wheel_params paper(void) {
  wheel_params p;
  wheel_params_default(&p); /* section 6.3 */
  return p;
}

static void test_params_check(void) {
  wheel_params p = paper();
  mbdae_param_error err;
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_OK);
  p.h = 0.1; /* = r: no rounded corner (eq. 4b) */
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "h");
  p = paper(); p.h = 0.15;
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "h");
  p = paper(); p.x0[0] = 0.05; /* x < r: behind the wall */
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "x0");
  p = paper(); p.x0[0] = 0.3; p.x0[1] = 0.12; /* inside the curb */
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "x0");
  p = paper(); p.x0[0] = 0.45; p.x0[1] = 0.12; /* the corner's circle, eq. 4c */
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "x0");
  p = paper(); p.x0[1] = 0.09; /* below the ground line y = r */
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "x0");
  p = paper(); p.mu = -0.1;
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "mu");
  p = paper(); p.beta = 1.2;
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "beta");
  p = paper(); p.beta = -0.1;
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "beta");
  p = paper(); p.l = 0.15;
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "l");
  p = paper(); p.m = NAN;
  CU_ASSERT_EQUAL(wheel_params_check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "m");
  /* through the model-kind table */
  p = paper(); p.mu = -1.0;
  CU_ASSERT_EQUAL(mbdae_model_wheel.check(&p, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "mu");
  p = paper(); p.beta = 0.3; p.mu = 0.0;
  CU_ASSERT_EQUAL(mbdae_model_wheel.check(&p, &err), MBDAE_OK);
  wheel_model *w = NULL;
  p.h = 0.2;
  CU_ASSERT_EQUAL(wheel_create(&p, MBDAE_LINSOL_DENSE, &w), MBDAE_ERR_PARAMETER);
  CU_ASSERT_PTR_NULL(w);
}

/* Geometry: eq. (4) with l1 = l - r, a = sqrt(r^2 - (r - h)^2). */
static void test_geometry(void) {
  wheel_params p = paper();
  double l1, a;
  wheel_geometry(&p, &l1, &a);
  MBDAE_ASSERT_ABS(l1, 0.4, 1e-15);
  MBDAE_ASSERT_ABS(a, sqrt(0.01 - 0.0025), 1e-15);
  wheel_frame f;
  /* on the corner circle y = f(x) (eq. 4c): gap 0, normal (S - C)/r */
  double x = l1 + 0.5 * a, y = sqrt(p.r * p.r - 0.25 * a * a) + p.h;
  wheel_frame_eval(&p, WHEEL_CURB, x, y, 0, &f);
  CU_ASSERT_EQUAL(f.seg, WHEEL_SEG_III);
  MBDAE_ASSERT_ABS(f.gap, 0.0, 1e-15);
  MBDAE_ASSERT_ABS(f.n[0], 0.5 * a / p.r, 1e-14);
  /* the unit tangent is parallel to the paper's H_III = (1, f'(x)) */
  double fp = -(x - l1) / sqrt(p.r * p.r - (x - l1) * (x - l1)); /* eq. 26e */
  MBDAE_ASSERT_ABS(f.t[1] / f.t[0], fp, 1e-13);
  MBDAE_ASSERT_ABS(f.t[0] * f.t[0] + f.t[1] * f.t[1], 1.0, 1e-15);
  MBDAE_ASSERT_ABS(f.kappa, 1.0 / p.r, 1e-12);
  /* the singular point B (eq. 27b): both curb and ground at gap 0 */
  MBDAE_ASSERT_ABS(wheel_min_gap(&p, l1 + a, p.r), 0.0, 1e-15);
  wheel_frame_eval(&p, WHEEL_CURB, l1 + a, p.r, 0, &f);
  MBDAE_ASSERT_ABS(f.gap, 0.0, 1e-15);
  /* A (eq. 27a) */
  wheel_frame_eval(&p, WHEEL_WALL, p.r, p.r + p.h, 0, &f);
  MBDAE_ASSERT_ABS(f.gap, 0.0, 1e-15);
  wheel_frame_eval(&p, WHEEL_CURB, p.r, p.r + p.h, 0, &f);
  MBDAE_ASSERT_ABS(f.gap, 0.0, 1e-15);
  CU_ASSERT_EQUAL(f.seg, WHEEL_SEG_II);
}

/* Independent closed form of a wheel landing on flat ground (segment IV),
 * eqs. (43)-(55) with eq. (46) using yd: the plastic phase takes
 * P_n = -m yd-, the friction impulse sticks if |v_t-| <= mu P_n (1/m + r^2/J)
 * (then v_t+ = 0), else P_t = -mu P_n sign v_t-; the restitution phase
 * P_n* = beta P_n with the same rule on v_t+. */
static void landing_closed_form(const wheel_params *p, const double *vm,
                                double *vs, int *stick) {
  double k = 1.0 / p->m + p->r * p->r / p->J;
  double Pn = -p->m * vm[1];
  double vt = vm[0] + p->r * vm[2];
  double Pt = fabs(vt) <= p->mu * Pn * k ? -vt / k : -p->mu * Pn * (vt > 0 ? 1 : -1);
  *stick = fabs(vt) <= p->mu * Pn * k;
  double vx = vm[0] + Pt / p->m, w = vm[2] + p->r * Pt / p->J;
  double Ps = p->beta * Pn, vtp = vx + p->r * w;
  double Pts = 0.0;
  if (Ps > 0.0)
    Pts = fabs(vtp) <= p->mu * Ps * k ? -vtp / k : -p->mu * Ps * (vtp > 0 ? 1 : -1);
  vs[0] = vx + Pts / p->m;
  vs[1] = Ps / p->m;
  vs[2] = w + p->r * Pts / p->J;
}

static void check_landing(double beta, const double *vm, int expect_stick) {
  wheel_params p = paper();
  p.beta = beta;
  double q[2] = {0.7, p.r}, v[3] = {vm[0], vm[1], vm[2]}, ref[3];
  int touching[3] = {0, 0, 1}, stick = -1;
  landing_closed_form(&p, vm, ref, &stick);
  CU_ASSERT_EQUAL(stick, expect_stick);
  wheel_collision c;
  CU_ASSERT_EQUAL(wheel_collide(&p, q, v, touching, NULL, &c), 0);
  for (int i = 0; i < 3; ++i) MBDAE_ASSERT_ABS(v[i], ref[i], 1e-12);
  CU_ASSERT_EQUAL(c.plastic.state[WHEEL_GROUND] == WHEEL_STICK, expect_stick);
  MBDAE_ASSERT_REL(c.plastic.z[WHEEL_GROUND], -p.m * vm[1], 1e-14);
  /* beta = 0: the normal velocity after the collision is zero (eq. 15a) */
  if (beta == 0.0) MBDAE_ASSERT_ABS(c.v_plus[1], 0.0, 1e-14);
  CU_ASSERT(c.energy_after <= c.energy_before * (1.0 + 1e-14));
}

static void test_landing_ground(void) {
  const double slip[3] = {-5.0, -3.3096, 0.0}; /* the paper's first landing */
  const double stick[3] = {0.5, -3.0, 2.0};
  check_landing(0.0, slip, 0);
  check_landing(0.3, slip, 0);
  check_landing(0.0, stick, 1);
  check_landing(0.3, stick, 1);
}

/* mu = 0, beta = 1: the collision conserves energy, also with the two
 * contacts at B (v* = v- + 2 M^-1 G P with P^T v+ = 0). */
static void test_elastic_frictionless(void) {
  wheel_params p = paper();
  p.mu = 0.0;
  p.beta = 1.0;
  double l1, a;
  wheel_geometry(&p, &l1, &a);
  double q[2] = {l1 + a, p.r}, v[3] = {-1.0, -1.0, 5.0};
  int touching[3] = {0, 1, 1};
  wheel_collision c;
  CU_ASSERT_EQUAL(wheel_collide(&p, q, v, touching, NULL, &c), 0);
  MBDAE_ASSERT_REL(c.energy_after, c.energy_before, 1e-13);
  CU_ASSERT(c.plastic.z[WHEEL_CURB] > 0.0 && c.plastic.z[WHEEL_GROUND] > 0.0);
  /* the same at B with beta = 0: both normal velocities vanish */
  p.beta = 0.0;
  double v2[3] = {-1.0, -1.0, 5.0};
  CU_ASSERT_EQUAL(wheel_collide(&p, q, v2, touching, NULL, &c), 0);
  MBDAE_ASSERT_ABS(v2[0], 0.0, 1e-14);
  MBDAE_ASSERT_ABS(v2[1], 0.0, 1e-14);
  MBDAE_ASSERT_ABS(v2[2], 5.0, 1e-14);
}

/* A plastic collision at A without spin, v- = (-1, -1): any spin after it
 * would need friction impulses of one sign on both contacts, which turns
 * phid against that slip, so both contacts stick, Xd+ = 0 and phid+ = 0.
 * The split of the impulses is statically indeterminate (4 unknowns, 3
 * momentum equations): check momentum balance N_W + T_K = m, N_K - T_W = m,
 * T_W + T_K = 0 and the friction cones. */
static void test_collision_at_a(void) {
  wheel_params p = paper();
  double q[2] = {p.r, p.r + p.h}, v[3] = {-1.0, -1.0, 0.0};
  int touching[3] = {1, 1, 0};
  wheel_collision c;
  CU_ASSERT_EQUAL(wheel_collide(&p, q, v, touching, NULL, &c), 0);
  for (int i = 0; i < 3; ++i) MBDAE_ASSERT_ABS(v[i], 0.0, 1e-13);
  const double *z = c.plastic.z;
  double NW = z[WHEEL_WALL], NK = z[WHEEL_CURB];
  double TW = z[WHEEL_NC + WHEEL_WALL], TK = z[WHEEL_NC + WHEEL_CURB];
  MBDAE_ASSERT_ABS(NW + TK, p.m, 1e-12);
  MBDAE_ASSERT_ABS(NK - TW, p.m, 1e-12);
  MBDAE_ASSERT_ABS(TW + TK, 0.0, 1e-12);
  CU_ASSERT(fabs(TW) <= p.mu * NW + 1e-12 && fabs(TK) <= p.mu * NK + 1e-12);
  /* several labellings describe this motion (slip at v_t+ = 0 is a tie
   * with stick): the enumeration finds more than one consistent case */
  CU_ASSERT(c.plastic.nsol >= 1);
}

/* A wheel at B with zero translational velocity and spin phid (eqs. 82-94).
 * With the unit normal n_K = (sin th, cos th), sin th = a/r, cos th =
 * (r - h)/r and unit tangent t_K = (cos th, -sin th), both contacts slip
 * with T = -mu N sign(phid). */
static void corner_b(double mu, double phid, wheel_model **out, double *acc,
                     double *z) {
  wheel_params p = paper();
  double l1, a;
  wheel_geometry(&p, &l1, &a);
  p.mu = mu;
  p.x0[0] = l1 + a; p.x0[1] = p.r; p.x0[2] = 0.0;
  p.v0[0] = 0.0; p.v0[1] = 0.0; p.v0[2] = phid;
  wheel_model *w = NULL;
  CU_ASSERT_EQUAL_FATAL(wheel_create(&p, MBDAE_LINSOL_DENSE, &w), MBDAE_OK);
  double y[WHEEL_N];
  CU_ASSERT_EQUAL(wheel_initial_state(w, 0.0, y), MBDAE_OK);
  CU_ASSERT_EQUAL(wheel_mode_accel(&w->p, &w->mode, y, acc, z, NULL), 0);
  *out = w;
}

static void test_corner_b_spin_or_climb(void) {
  wheel_params p = paper();
  double l1, a;
  wheel_geometry(&p, &l1, &a);
  double s = a / p.r, c = (p.r - p.h) / p.r, g = p.g, m = p.m;
  double fB = -a / sqrt(p.r * p.r - a * a); /* eq. (80) */
  double G2 = 1.0 + fB * fB;                /* |G_III|^2 */
  double acc[3], z[6];
  wheel_model *w = NULL;
  /* mu = 0.4: |G|^2 = 4 > gamma_1 = 1 - mu f'_B = 1.69: spinning in place (94b) */
  double mu = 0.4;
  CU_ASSERT(G2 > 1.0 - mu * fB);
  corner_b(mu, 20.0, &w, acc, z);
  double NK = m * g / (c + mu * s + (s - mu * c) / mu), NG = NK * (s - mu * c) / mu;
  CU_ASSERT_EQUAL(w->mode.state[WHEEL_CURB], WHEEL_SLIP_POS);
  CU_ASSERT_EQUAL(w->mode.state[WHEEL_GROUND], WHEEL_SLIP_POS);
  MBDAE_ASSERT_REL(z[WHEEL_CURB], NK, 1e-12);
  MBDAE_ASSERT_REL(z[WHEEL_GROUND], NG, 1e-12);
  MBDAE_ASSERT_ABS(acc[0], 0.0, 1e-12);
  MBDAE_ASSERT_ABS(acc[1], 0.0, 1e-12);
  MBDAE_ASSERT_REL(acc[2], -p.r * mu * (NK + NG) / p.J, 1e-12);
  wheel_free(&w);
  /* mu = 2: |G|^2 <= gamma_1 = 1 - mu f'_B: the wheel climbs (94c):
   * N_K = m g cos th, N_G = 0, xdd < 0, ydd > 0 */
  mu = 2.0;
  CU_ASSERT(G2 <= 1.0 - mu * fB);
  corner_b(mu, 20.0, &w, acc, z);
  CU_ASSERT_EQUAL(w->mode.state[WHEEL_CURB], WHEEL_SLIP_POS);
  CU_ASSERT_EQUAL(w->mode.state[WHEEL_GROUND], WHEEL_SEP);
  /* the ground contact left here is moved 1e-8 r off its surface (a root
   * guard, doc/wheel.md), which turns n_K by ~1e-8: tolerance 1e-6 */
  MBDAE_ASSERT_REL(z[WHEEL_CURB], m * g * c, 1e-6);
  MBDAE_ASSERT_ABS(z[WHEEL_GROUND], 0.0, 1e-12);
  MBDAE_ASSERT_REL(acc[0], g * c * (s - mu * c), 1e-6);
  MBDAE_ASSERT_REL(acc[1], -g + g * c * (c + mu * s), 1e-6);
  CU_ASSERT(acc[0] < 0.0 && acc[1] > 0.0);
  wheel_free(&w);
  /* mu = 0.9: the paper's non-unit tangent H_III = (1, f', r) would give
   * climbing (|f'_B| <= mu |G|), the unit tangent gives spinning in place */
  mu = 0.9;
  CU_ASSERT(-fB <= mu * sqrt(G2));
  corner_b(mu, 20.0, &w, acc, z);
  CU_ASSERT_EQUAL(w->mode.state[WHEEL_GROUND], WHEEL_SLIP_POS);
  MBDAE_ASSERT_ABS(acc[1], 0.0, 1e-12);
  wheel_free(&w);
  /* phid < 0 (eq. 93): lambda_1 = 0, lambda_2 = m g and, with the signs
   * corrected, xdd = +mu g, phidd = +mu m g r / J */
  mu = 0.4;
  corner_b(mu, -20.0, &w, acc, z);
  CU_ASSERT_EQUAL(w->mode.state[WHEEL_CURB], WHEEL_SEP);
  MBDAE_ASSERT_REL(z[WHEEL_GROUND], m * g, 1e-12);
  MBDAE_ASSERT_REL(acc[0], mu * g, 1e-12);
  MBDAE_ASSERT_REL(acc[2], mu * m * g * p.r / p.J, 1e-12);
  wheel_free(&w);
  /* at rest at B: standing on the ground, the corner unloaded */
  corner_b(mu, 0.0, &w, acc, z);
  CU_ASSERT_EQUAL(w->mode.state[WHEEL_GROUND], WHEEL_STICK);
  MBDAE_ASSERT_ABS(acc[0], 0.0, 1e-12);
  MBDAE_ASSERT_ABS(acc[1], 0.0, 1e-12);
  wheel_free(&w);
}

/* The singular point A (wall + raised level), zero translational velocity,
 * spin phid (the paper: "analogous to B"). Wall: n = (1, 0), t = (0, -1),
 * v_t = r phid; level: n = (0, 1), t = (1, 0), v_t = r phid.
 * phid > 0: both slip with T = -mu N: N_W = mu N_K, N_K = m g/(1 + mu^2),
 * the wheel stays at A and spins down at phidd = -r mu (N_W + N_K)/J.
 * phid < 0: the level's friction pushes away from the wall: N_W = 0,
 * N_K = m g, xdd = mu g, phidd = mu m g r/J. */
static void test_point_a(void) {
  for (int sgn = -1; sgn <= 1; sgn += 2) {
    wheel_params p = paper();
    p.x0[0] = p.r; p.x0[1] = p.r + p.h; p.x0[2] = 0.0;
    p.v0[0] = 0.0; p.v0[1] = 0.0; p.v0[2] = 15.0 * sgn;
    wheel_model *w = NULL;
    CU_ASSERT_EQUAL_FATAL(wheel_create(&p, MBDAE_LINSOL_DENSE, &w), MBDAE_OK);
    double y[WHEEL_N], acc[3], z[6];
    CU_ASSERT_EQUAL(wheel_initial_state(w, 0.0, y), MBDAE_OK);
    CU_ASSERT_EQUAL(wheel_mode_accel(&w->p, &w->mode, y, acc, z, NULL), 0);
    double mu = p.mu, m = p.m, g = p.g;
    if (sgn > 0) {
      double NK = m * g / (1.0 + mu * mu), NW = mu * NK;
      CU_ASSERT_EQUAL(w->mode.state[WHEEL_WALL], WHEEL_SLIP_POS);
      CU_ASSERT_EQUAL(w->mode.state[WHEEL_CURB], WHEEL_SLIP_POS);
      MBDAE_ASSERT_REL(z[WHEEL_WALL], NW, 1e-12);
      MBDAE_ASSERT_REL(z[WHEEL_CURB], NK, 1e-12);
      MBDAE_ASSERT_ABS(acc[0], 0.0, 1e-12);
      MBDAE_ASSERT_ABS(acc[1], 0.0, 1e-12);
      MBDAE_ASSERT_REL(acc[2], -p.r * mu * (NW + NK) / p.J, 1e-12);
    } else {
      CU_ASSERT_EQUAL(w->mode.state[WHEEL_WALL], WHEEL_SEP);
      CU_ASSERT_EQUAL(w->mode.state[WHEEL_CURB], WHEEL_SLIP_NEG);
      MBDAE_ASSERT_REL(z[WHEEL_CURB], m * g, 1e-12);
      MBDAE_ASSERT_REL(acc[0], mu * g, 1e-12);
      MBDAE_ASSERT_REL(acc[2], mu * m * g * p.r / p.J, 1e-12);
    }
    wheel_free(&w);
  }
}

/* Single contact on the corner (segment III), derived with the unit normal:
 * N = m (g cos a - |v|^2 / r), slip T = -mu N sign v_t. */
static void test_corner_single(void) {
  wheel_params p = paper();
  double l1, a;
  wheel_geometry(&p, &l1, &a);
  double th = 0.3, s = 0.8; /* angle of S - C from the vertical, speed */
  double nx = sin(th), ny = cos(th);
  double y[WHEEL_N] = {l1 + p.r * nx, p.h + p.r * ny, 0.0, s * ny, -s * nx, 30.0};
  wheel_mode md;
  memset(&md, 0, sizeof md);
  md.state[WHEEL_CURB] = WHEEL_SLIP_POS;
  md.curb_seg = WHEEL_SEG_III;
  double acc[3], z[6];
  CU_ASSERT_EQUAL(wheel_mode_accel(&p, &md, y, acc, z, NULL), 0);
  double N = p.m * (p.g * ny - s * s / p.r), T = -p.mu * N;
  MBDAE_ASSERT_REL(z[WHEEL_CURB], N, 1e-12);
  MBDAE_ASSERT_REL(z[WHEEL_NC + WHEEL_CURB], T, 1e-12);
  MBDAE_ASSERT_REL(acc[0], (N * nx + T * ny) / p.m, 1e-12);
  MBDAE_ASSERT_REL(acc[1], -p.g + (N * ny - T * nx) / p.m, 1e-12);
  MBDAE_ASSERT_REL(acc[2], T * p.r / p.J, 1e-12);
  /* the normal acceleration of the centre is the centripetal one */
  MBDAE_ASSERT_REL(acc[0] * nx + acc[1] * ny, -s * s / p.r, 1e-12);
}

/* The exact (dual-number) Jacobian against finite differences. */
static void jac_check(wheel_model *w, const double *y) {
  mbdae_jac_check jc;
  CU_ASSERT_EQUAL(mbdae_jacobian_check(w->problem, 0.0, y, NULL, 0.0, 0.0, 1e-6, &jc),
                  MBDAE_OK);
  if (jc.max_rel_err > 1e-6)
    printf("\n  jac: worst (%d,%d) %g vs %g\n", jc.worst_row, jc.worst_col,
           jc.worst_analytic, jc.worst_fd);
  CU_ASSERT(jc.max_rel_err < 1e-6);
  CU_ASSERT_EQUAL(jc.pattern_misses, 0);
}

static void test_jacobian(void) {
  wheel_params p = paper();
  double l1, a;
  wheel_geometry(&p, &l1, &a);
  double th = 0.4, s = 0.5;
  p.x0[0] = l1 + p.r * sin(th); p.x0[1] = p.h + p.r * cos(th); p.x0[2] = 0.0;
  p.v0[0] = s * cos(th); p.v0[1] = -s * sin(th); p.v0[2] = 40.0;
  for (int sparse = 0; sparse < 2; ++sparse) {
    wheel_model *w = NULL;
    CU_ASSERT_EQUAL_FATAL(wheel_create(&p, sparse ? MBDAE_LINSOL_KLU : MBDAE_LINSOL_DENSE,
                                       &w), MBDAE_OK);
    double y[WHEEL_N];
    CU_ASSERT_EQUAL(wheel_initial_state(w, 0.0, y), MBDAE_OK);
    CU_ASSERT_EQUAL(w->mode.curb_seg, WHEEL_SEG_III);
    CU_ASSERT_EQUAL(w->mode.state[WHEEL_CURB], WHEEL_SLIP_POS);
    jac_check(w, y);
    /* also sticking on the corner */
    w->mode.state[WHEEL_CURB] = WHEEL_STICK;
    jac_check(w, y);
    wheel_free(&w);
  }
  /* the two-contact mode at B */
  wheel_model *w = NULL;
  double acc[3], z[6];
  corner_b(0.4, 20.0, &w, acc, z);
  double y[WHEEL_N] = {w->p.x0[0], w->p.x0[1], 0.0, 0.0, 0.0, 20.0};
  jac_check(w, y);
  wheel_free(&w);
}

int main(void) {
  const mbdae_test tests[] = {
    {"parameter checks name the key", test_params_check},
    {"geometry of Omega (eqs. 3-5, 27)", test_geometry},
    {"landing on the ground: eqs. 43-55, stick/slip, beta 0 and 0.3",
     test_landing_ground},
    {"mu = 0, beta = 1: energy conserved, also at B", test_elastic_frictionless},
    {"corner B: spinning in place vs climbing (94b, 94c), eq. 93",
     test_corner_b_spin_or_climb},
    {"point A: spinning against the wall, both signs of phid", test_point_a},
    {"point A: plastic collision, both contacts stick (indeterminate split)",
     test_collision_at_a},
    {"corner segment III: normal force and accelerations", test_corner_single},
    {"exact Jacobian vs finite differences", test_jacobian},
    {NULL, NULL},
  };
  return mbdae_test_main("wheel", tests);
}
