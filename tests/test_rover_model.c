/* test_rover_model.c - the rover model (models/rover): parameter checks
 * (bad input names the key), rotations, the eigenvalue routine on matrices
 * with known spectra, consistency of the initial DAE state, the projection
 * of an inconsistent state, the model kind. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "rover/rover.h"
#include "testutil.h"

static void expect_bad(rover_params p, const char *key) {
  mbdae_param_error err = {0};
  int rc = rover_params_check(&p, &err);
  CU_ASSERT_EQUAL(rc, MBDAE_ERR_PARAMETER);
  CU_ASSERT_PTR_NOT_NULL(err.key);
  if (err.key) {
    if (strcmp(err.key, key) != 0) printf("\n  expected key %s, got %s\n", key, err.key);
    CU_ASSERT_STRING_EQUAL(err.key, key);
  }
  CU_ASSERT(strlen(err.msg) > 0);
}

static void test_bad_parameters(void) {
  rover_params p, q;
  rover_params_default(&p);
  CU_ASSERT_EQUAL(rover_params_check(&p, NULL), MBDAE_OK);
  q = p; q.l = 1.2; expect_bad(q, "l");          /* longer than r */
  q = p; q.h = 0.3; expect_bad(q, "h");          /* cube pokes out */
  q = p; q.m_s = 0; expect_bad(q, "m_s");
  q = p; q.m_r = -1; expect_bad(q, "m_r");
  q = p; q.m_c = 0; expect_bad(q, "m_c");
  q = p; q.b_p = 0; expect_bad(q, "b_p");
  q = p; q.b_r = -3.5; expect_bad(q, "b_r");
  q = p; q.b_s = 0; expect_bad(q, "b_s");
  q = p; q.r = NAN; expect_bad(q, "r");
  q = p; q.omega0[2] = INFINITY; expect_bad(q, "omega0");
  rover_model *m = NULL;
  q = p; q.l = 2.0;
  CU_ASSERT_EQUAL(rover_create(&q, MBDAE_FORM_ODE, &m), MBDAE_ERR_PARAMETER);
  CU_ASSERT_PTR_NULL(m);
  /* through the model kind as the driver calls it */
  const mbdae_model_kind *k = mbdae_model_kind_find("rover");
  CU_ASSERT_PTR_NOT_NULL_FATAL(k);
  mbdae_param_error err = {0};
  q = p; q.b_p = -1;
  CU_ASSERT_EQUAL(k->check(&q, &err), MBDAE_ERR_PARAMETER);
  CU_ASSERT_STRING_EQUAL(err.key, "b_p");
}

static void test_rotations(void) {
  const double d2r = 3.14159265358979323846 / 180;
  double C[9], q[4], C2[9], g, b, a;
  rover_euler312_to_c(5 * d2r, 10 * d2r, -30 * d2r, C);
  rover_c_to_euler312(C, &g, &b, &a);
  MBDAE_ASSERT_ABS(g, 5 * d2r, 1e-14);
  MBDAE_ASSERT_ABS(b, 10 * d2r, 1e-14);
  MBDAE_ASSERT_ABS(a, -30 * d2r, 1e-14);
  /* C2(alpha) C1(beta) C3(gamma) by hand for one entry: C[1][2] = sin beta */
  MBDAE_ASSERT_ABS(C[5], sin(10 * d2r), 1e-15);
  rover_c_to_quat(C, q);
  rover_quat_to_c(q, C2);
  for (int i = 0; i < 9; ++i) MBDAE_ASSERT_ABS(C2[i], C[i], 1e-14);
  /* Poisson: for C = C2(w t), q' from w_body = (0, w, 0) matches dC/dt */
  double w[3] = {0, 0.7, 0}, qd[4], Cp[9], Cm[9], qp[4];
  rover_c2(0.3, C);
  rover_c_to_quat(C, q);
  rover_quat_rate(q, w, qd);
  for (int i = 0; i < 4; ++i) qp[i] = q[i] + 1e-6 * qd[i];
  rover_quat_to_c(qp, Cp);
  rover_c2(0.3 + 0.7e-6, Cm);
  for (int i = 0; i < 9; ++i) MBDAE_ASSERT_ABS(Cp[i], Cm[i], 1e-11);
}

/* companion matrix of (x+1)(x+2)(x+3)(x^2 - 2x + 5) */
static void test_eigenvalues(void) {
  double p[7] = {1, 0, 0, 0, 0, 0, 0}; /* coefficients, highest first */
  int deg = 0;
  double f[5][3] = {{1, 1, 0}, {1, 2, 0}, {1, 3, 0}, {1, -2, 5}};
  int fl[4] = {2, 2, 2, 3};
  for (int k = 0; k < 4; ++k) {
    double r[7] = {0};
    for (int i = 0; i <= deg; ++i)
      for (int j = 0; j < fl[k]; ++j) r[i + j] += p[i] * f[k][j];
    deg += fl[k] - 1;
    memcpy(p, r, sizeof r);
  }
  CU_ASSERT_EQUAL(deg, 5);
  double A[25] = {0}, wr[5], wi[5];
  for (int j = 0; j < 5; ++j) A[j] = -p[j + 1];
  for (int i = 1; i < 5; ++i) A[i * 5 + i - 1] = 1;
  CU_ASSERT_EQUAL_FATAL(rover_eigenvalues(5, A, wr, wi), 0);
  double want_r[5] = {-1, -2, -3, 1, 1}, want_i[5] = {0, 0, 0, 2, -2};
  for (int k = 0; k < 5; ++k) {
    int found = 0;
    for (int i = 0; i < 5; ++i)
      if (fabs(wr[i] - want_r[k]) < 1e-9 && fabs(wi[i] - want_i[k]) < 1e-9) found = 1;
    if (!found) printf("\n  eigenvalue %g%+gi not found\n", want_r[k], want_i[k]);
    CU_ASSERT(found);
  }
  /* a rotation generator: +-3i */
  double B[4] = {0, 3, -3, 0}, br[2], bi[2];
  CU_ASSERT_EQUAL(rover_eigenvalues(2, B, br, bi), 0);
  MBDAE_ASSERT_ABS(br[0], 0, 1e-14);
  MBDAE_ASSERT_ABS(fabs(bi[0]), 3, 1e-14);
}

static double max_abs(const double *v, int n) {
  double m = 0;
  for (int i = 0; i < n; ++i) if (fabs(v[i]) > m) m = fabs(v[i]);
  return m;
}

static void test_initial_state_consistent(void) {
  rover_params p;
  rover_params_default(&p);
  p.omega0[1] = 2; p.phidot0 = -1; p.euler0[0] = 5; p.euler0[1] = 10; p.phi0 = -10;
  rover_model *m = NULL;
  CU_ASSERT_EQUAL_FATAL(rover_create(&p, MBDAE_FORM_DAE, &m), MBDAE_OK);
  double y[ROVER_N_DAE], yp[ROVER_N_DAE], F[ROVER_N_DAE];
  CU_ASSERT_EQUAL(rover_initial_dae(&p, &m->mp, 0.0, y, yp), 0);
  CU_ASSERT_EQUAL(rover_residual(0.0, y, yp, F, m), 0);
  CU_ASSERT(max_abs(F, ROVER_N_DAE) < 1e-12);
  /* the centre height is r and the initial centre velocity is -r z x w_i:
   * with w_s = (0, 2, 0) and the 3-1-2 attitude, |v| = r |w_i horizontal| */
  MBDAE_ASSERT_ABS(y[ROVER_D_R + 2], p.r, 1e-15);
  double C[9], wi[3];
  const double d2r = 3.14159265358979323846 / 180;
  rover_euler312_to_c(5 * d2r, 10 * d2r, 0, C);
  rover_mattvec(C, (double[3]){0, 2, 0}, wi);
  MBDAE_ASSERT_REL(hypot(y[ROVER_D_V], y[ROVER_D_V + 1]), p.r * hypot(wi[0], wi[1]), 1e-14);
  /* perturb velocities and the hinge attitude: the projection repairs them
   * and reports the size of the change */
  double z[ROVER_N_DAE];
  memcpy(z, y, sizeof z);
  z[ROVER_D_V] += 0.3;
  z[ROVER_D_WP] += 0.2;
  z[ROVER_D_QP + 1] += 0.01;
  z[ROVER_D_R + 2] += 0.05;
  double ch = rover_project_dae(&p, &m->mp, 0.0, z, yp);
  CU_ASSERT(ch > 1e-3);
  CU_ASSERT_EQUAL(rover_residual(0.0, z, yp, F, m), 0);
  CU_ASSERT(max_abs(F, ROVER_N_DAE) < 1e-10);
  MBDAE_ASSERT_ABS(z[ROVER_D_R + 2], p.r, 1e-15);
  /* a consistent state is left as it is */
  memcpy(z, y, sizeof z);
  ch = rover_project_dae(&p, &m->mp, 0.0, z, yp);
  CU_ASSERT(ch >= 0 && ch < 1e-12);
  rover_free(&m);
  CU_ASSERT_PTR_NULL(m);
}

static void test_kind(void) {
  const mbdae_model_kind *k = mbdae_model_kind_find("rover");
  CU_ASSERT_PTR_NOT_NULL_FATAL(k);
  rover_params p;
  rover_params_default(&p);
  for (int meth = 0; meth < 2; ++meth) {
    mbdae_options o;
    mbdae_options_default(&o);
    o.method = meth ? MBDAE_METHOD_CVODE_BDF : MBDAE_METHOD_IDA;
    mbdae_model *m = NULL;
    mbdae_param_error err = {0};
    CU_ASSERT_EQUAL_FATAL(k->create(&p, &o, &m, &err), MBDAE_OK);
    mbdae_problem *pr = k->problem(m);
    int n = mbdae_problem_size(pr);
    CU_ASSERT_EQUAL(n, meth ? ROVER_N_ODE : ROVER_N_DAE);
    double y[ROVER_N_DAE], yp[ROVER_N_DAE], row[64];
    CU_ASSERT_EQUAL(k->initial_state(m, 0.0, y, yp), MBDAE_OK);
    int nc = k->columns(m, NULL, 0);
    CU_ASSERT(nc > 20 && nc <= 64);
    CU_ASSERT_EQUAL(k->output_row(m, 0.0, y, yp, row), 0);
    /* speed column = r |w| for w_s = (0, 5, 0) at zero attitude; contact
     * normal = total weight minus nothing (pendulum at rest relative) */
    MBDAE_ASSERT_REL(row[11], 5.0 * p.r, 1e-14);
    mbdae_outcome out[16];
    int no = k->outcomes(m, y, yp, out, 16);
    CU_ASSERT(no >= 5);
    k->destroy(&m);
    CU_ASSERT_PTR_NULL(m);
  }
}

/* Koenig's theorem with the parallel-axis theorem, written independently of
 * the mass matrix: T = 1/2 m_s |v|^2 + 1/2 J_s |w_s|^2 + 1/2 m_p |v_cm|^2
 * + 1/2 w_p^T J_cm w_p, v_cm = v + C_pi^T (w_p x rho), rho = c_p / m_p. */
static void test_kinetic_energy(void) {
  rover_params p;
  rover_params_default(&p);
  p.omega0[0] = 0.3; p.omega0[1] = 2; p.omega0[2] = -0.4; p.phidot0 = -1;
  p.euler0[0] = 5; p.euler0[1] = 10; p.euler0[2] = 20; p.phi0 = -10;
  rover_mass mp;
  rover_mass_properties(&p, &mp);
  double y[ROVER_N_DAE], yp[ROVER_N_DAE];
  CU_ASSERT_EQUAL_FATAL(rover_initial_dae(&p, &mp, 0.0, y, yp), 0);
  rover_state s;
  rover_state_from_dae(y, yp, &s);
  double mpend = p.m_r + p.m_c;
  double c = 0.5 * p.m_r * p.l + p.m_c * p.l; /* consistent set: cube at l */
  double rho[3] = {0, 0, -c / mpend};
  double Jd[3] = {p.m_r * (4 * p.l * p.l + p.w * p.w) / 12 + p.m_c * (p.h * p.h + 6 * p.l * p.l) / 6,
                  0, p.m_r * p.w * p.w / 6 + p.m_c * p.h * p.h / 6};
  Jd[1] = Jd[0];
  double rr = rho[2] * rho[2];
  double Jcm[3] = {Jd[0] - mpend * rr, Jd[1] - mpend * rr, Jd[2]};
  const double *w = s.w_p;
  double wx[3] = {w[1] * rho[2] - w[2] * rho[1], w[2] * rho[0] - w[0] * rho[2],
                  w[0] * rho[1] - w[1] * rho[0]};
  double wi[3], vcm[3];
  rover_mattvec(s.C_pi, wx, wi);
  for (int i = 0; i < 3; ++i) vcm[i] = s.v[i] + wi[i];
  double T = 0.5 * p.m_s * (s.v[0] * s.v[0] + s.v[1] * s.v[1] + s.v[2] * s.v[2]) +
             0.5 * 0.4 * p.m_s * p.r * p.r *
                 (s.w_s[0] * s.w_s[0] + s.w_s[1] * s.w_s[1] + s.w_s[2] * s.w_s[2]) +
             0.5 * mpend * (vcm[0] * vcm[0] + vcm[1] * vcm[1] + vcm[2] * vcm[2]) +
             0.5 * (Jcm[0] * w[0] * w[0] + Jcm[1] * w[1] * w[1] + Jcm[2] * w[2] * w[2]);
  MBDAE_ASSERT_REL(rover_kinetic(&p, &mp, &s), T, 1e-13);
  /* potential above the hanging rest: m_p g (height of the cm + |rho|) */
  double hcm[3];
  rover_mattvec(s.C_pi, rho, hcm);
  MBDAE_ASSERT_REL(rover_lyapunov(&p, &mp, &s) - rover_kinetic(&p, &mp, &s),
                   mpend * p.g * (hcm[2] + c / mpend), 1e-12);
}

static void test_wind(void) {
  rover_params p;
  rover_params_default(&p);
  double v[3] = {1.0, 0.5, 0}, F[3];
  double t = 3.0, w = p.wind_speed * (1 - exp(-t / p.wind_tau));
  rover_wind_force(&p, t, v, F);
  double rx = w - 1.0, ry = -0.5, k = 0.5 * 1.2 * 3.141592653589793 * 0.5;
  MBDAE_ASSERT_REL(F[0], k * hypot(rx, ry) * rx, 1e-14);
  MBDAE_ASSERT_REL(F[1], k * hypot(rx, ry) * ry, 1e-14);
  MBDAE_ASSERT_ABS(rover_wind(&p, 0.0), 0.0, 0.0);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"bad parameters name the key", test_bad_parameters},
    {"rotations and quaternions", test_rotations},
    {"eigenvalues of known matrices", test_eigenvalues},
    {"initial state consistent, projection", test_initial_state_consistent},
    {"model kind", test_kind},
    {"kinetic and potential energy (Koenig)", test_kinetic_energy},
    {"wind force", test_wind},
    {NULL, NULL},
  };
  return mbdae_test_main("rover_model", tests);
}
