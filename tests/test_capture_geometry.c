/* test_capture_geometry.c - convex polytopes, rigid-body kinematics and
 * point-face contact kinematics of the capture model (capps sec. 2.4-2.5,
 * 3.4). References are closed forms and finite differences written here. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capture/point_contact.h"
#include "mbdae/status.h"
#include "polytope/polytope.h"
#include "polytope/rigid_body.h"
#include "testutil.h"

static const double PI = 3.14159265358979323846;

static void test_box_mass_properties(void) {
  double v[24];
  double a = 1.0, b = 2.0, c = 3.0, m = 6.0;
  mbdae_polytope_box_vertices(a, b, c, v);
  /* shift the box: the origin becomes the centroid again */
  for (int i = 0; i < 8; ++i) { v[3 * i] += 5.0; v[3 * i + 1] -= 1.0; }
  mbdae_polytope *P = NULL;
  int why = -1;
  CU_ASSERT_EQUAL_FATAL(mbdae_polytope_create(v, 8, m, NULL, &P, &why, NULL), MBDAE_OK);
  CU_ASSERT_EQUAL(P->nf, 6);
  MBDAE_ASSERT_REL(P->volume, a * b * c, 1e-13);
  MBDAE_ASSERT_REL(P->J[0], m * (b * b + c * c) / 12.0, 1e-12);
  MBDAE_ASSERT_REL(P->J[4], m * (a * a + c * c) / 12.0, 1e-12);
  MBDAE_ASSERT_REL(P->J[8], m * (a * a + b * b) / 12.0, 1e-12);
  MBDAE_ASSERT_ABS(P->J[1], 0.0, 1e-12);
  MBDAE_ASSERT_ABS(P->J[5], 0.0, 1e-12);
  /* every face vertex satisfies A_p^T X = 1 (eq. 2.44); A_p = n / d */
  for (int q = 0; q < P->nf; ++q) {
    double An = sqrt(P->A[3 * q] * P->A[3 * q] + P->A[3 * q + 1] * P->A[3 * q + 1] +
                     P->A[3 * q + 2] * P->A[3 * q + 2]);
    int ok = fabs(An - 2.0 / a) < 1e-12 || fabs(An - 2.0 / b) < 1e-12 || fabs(An - 2.0 / c) < 1e-12;
    CU_ASSERT(ok);
    for (int k = P->face_start[q]; k < P->face_start[q + 1]; ++k) {
      const double *x = &P->v[3 * P->face_vert[k]];
      MBDAE_ASSERT_ABS(P->A[3 * q] * x[0] + P->A[3 * q + 1] * x[1] + P->A[3 * q + 2] * x[2], 1.0, 1e-12);
    }
    CU_ASSERT_EQUAL(P->face_start[q + 1] - P->face_start[q], 4);
  }
  /* face of a point far along +y: the plane y = b/2 */
  double X[3] = {0.1, 10.0, 0.2}, s;
  int f = mbdae_polytope_face_of(P, X, &s);
  MBDAE_ASSERT_REL(P->A[3 * f + 1], 2.0 / b, 1e-12);
  MBDAE_ASSERT_REL(s, 10.0 * 2.0 / b, 1e-12);
  mbdae_polytope_free(&P);
  CU_ASSERT_PTR_NULL(P);
}

static void test_octagonal_prism(void) {
  /* capps sec. 3.4.1: octagon inscribed in a circle of radius 1, length 2 */
  int N = 8;
  double v[48], m = 3.0, R = 1.0, L = 2.0;
  CU_ASSERT_EQUAL(mbdae_polytope_prism_vertices(N, R, L, v), MBDAE_OK);
  mbdae_polytope *P = NULL;
  CU_ASSERT_EQUAL_FATAL(mbdae_polytope_create(v, 2 * N, m, NULL, &P, NULL, NULL), MBDAE_OK);
  CU_ASSERT_EQUAL(P->nf, N + 2);
  MBDAE_ASSERT_REL(P->volume, 0.5 * N * R * R * sin(2 * PI / N) * L, 1e-12);
  /* regular N-gon of circumradius R: polar radius of gyration^2 =
   * R^2 (1 + 2 cos^2(pi/N)) / 6 */
  double k2 = R * R * (1.0 + 2.0 * cos(PI / N) * cos(PI / N)) / 6.0;
  MBDAE_ASSERT_REL(P->J[8], m * k2, 1e-12);
  MBDAE_ASSERT_REL(P->J[0], m * (0.5 * k2 + L * L / 12.0), 1e-12);
  MBDAE_ASSERT_REL(P->J[4], m * (0.5 * k2 + L * L / 12.0), 1e-12);
  /* side faces at the apothem R cos(pi/N), end faces at L/2 */
  int nside = 0, nend = 0;
  for (int q = 0; q < P->nf; ++q) {
    const double *A = &P->A[3 * q];
    double d = 1.0 / sqrt(A[0] * A[0] + A[1] * A[1] + A[2] * A[2]);
    if (fabs(d - R * cos(PI / N)) < 1e-12) ++nside;
    if (fabs(d - 0.5 * L) < 1e-12) ++nend;
  }
  CU_ASSERT_EQUAL(nside, N);
  CU_ASSERT_EQUAL(nend, 2);
  mbdae_polytope_free(&P);
}

static void test_bad_vertex_sets(void) {
  double v[30];
  mbdae_polytope *P = NULL;
  int why = 0, bad = -1;
  mbdae_polytope_box_vertices(1, 1, 1, v);
  /* a ninth vertex at the centre: not in convex position */
  v[24] = v[25] = v[26] = 0.0;
  CU_ASSERT_EQUAL(mbdae_polytope_create(v, 9, 1.0, NULL, &P, &why, &bad), MBDAE_ERR_PARAMETER);
  CU_ASSERT_EQUAL(why, MBDAE_POLYTOPE_NONCONVEX);
  CU_ASSERT_EQUAL(bad, 8);
  CU_ASSERT_PTR_NULL(P);
  /* a vertex in the middle of an edge: a corner of no face */
  v[24] = 0.0; v[25] = -0.5; v[26] = -0.5;
  CU_ASSERT_EQUAL(mbdae_polytope_create(v, 9, 1.0, NULL, &P, &why, &bad), MBDAE_ERR_PARAMETER);
  CU_ASSERT_EQUAL(why, MBDAE_POLYTOPE_NONCONVEX);
  /* coplanar */
  double flat[15] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 3, 0};
  CU_ASSERT_EQUAL(mbdae_polytope_create(flat, 5, 1.0, NULL, &P, &why, &bad), MBDAE_ERR_PARAMETER);
  CU_ASSERT_EQUAL(why, MBDAE_POLYTOPE_FLAT);
  CU_ASSERT_EQUAL(mbdae_polytope_create(flat, 3, 1.0, NULL, &P, &why, &bad), MBDAE_ERR_PARAMETER);
  CU_ASSERT_EQUAL(why, MBDAE_POLYTOPE_TOO_FEW);
  /* duplicate */
  mbdae_polytope_box_vertices(1, 1, 1, v);
  memcpy(&v[24], &v[0], 3 * sizeof(double));
  CU_ASSERT_EQUAL(mbdae_polytope_create(v, 9, 1.0, NULL, &P, &why, &bad), MBDAE_ERR_PARAMETER);
  CU_ASSERT_EQUAL(why, MBDAE_POLYTOPE_DUPLICATE);
  /* mass and inertia */
  CU_ASSERT_EQUAL(mbdae_polytope_create(v, 8, 0.0, NULL, &P, &why, &bad), MBDAE_ERR_PARAMETER);
  CU_ASSERT_EQUAL(why, MBDAE_POLYTOPE_MASS);
  double J[9] = {1, 0, 0, 0, -1, 0, 0, 0, 1};
  CU_ASSERT_EQUAL(mbdae_polytope_create(v, 8, 1.0, J, &P, &why, &bad), MBDAE_ERR_PARAMETER);
  CU_ASSERT_EQUAL(why, MBDAE_POLYTOPE_MASS);
  /* given inertia: the origin must be inside */
  double J2[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int i = 0; i < 8; ++i) v[3 * i] += 2.0;
  CU_ASSERT_EQUAL(mbdae_polytope_create(v, 8, 1.0, J2, &P, &why, &bad), MBDAE_ERR_PARAMETER);
  CU_ASSERT_EQUAL(why, MBDAE_POLYTOPE_ORIGIN);
  CU_ASSERT_PTR_NULL(P);
}

static void test_rotation(void) {
  double c45 = cos(PI / 4), q[4] = {2 * c45, 0, 0, 2 * c45}; /* 90 deg about z, |q| = 2 */
  double C[9];
  mbdae_rb_rotation(q, C);
  MBDAE_ASSERT_ABS(C[0], 0.0, 1e-15); /* C e_x = e_y */
  MBDAE_ASSERT_ABS(C[3], 1.0, 1e-15);
  MBDAE_ASSERT_ABS(C[1], -1.0, 1e-15);
  /* dC/dq by central differences */
  double q2[4] = {0.3, -0.5, 0.7, 0.2}, dC[36];
  mbdae_rb_rotation_dq(q2, dC);
  for (int k = 0; k < 4; ++k) {
    double qp[4], qm[4], Cp[9], Cm[9], h = 1e-6;
    memcpy(qp, q2, sizeof qp);
    memcpy(qm, q2, sizeof qm);
    qp[k] += h;
    qm[k] -= h;
    mbdae_rb_rotation(qp, Cp);
    mbdae_rb_rotation(qm, Cm);
    for (int i = 0; i < 9; ++i) MBDAE_ASSERT_ABS(dC[9 * k + i], (Cp[i] - Cm[i]) / (2 * h), 1e-8);
  }
}

/* Torque-free axisymmetric body: w3 constant, (w1, w2) rotates at
 * Omega = (J3 - J1)/J1 w3 (closed form), integrated here by RK4. */
static void test_euler_precession(void) {
  double J[9] = {2, 0, 0, 0, 2, 0, 0, 0, 3}, Ji[9] = {0.5, 0, 0, 0, 0.5, 0, 0, 0, 1.0 / 3};
  double w[3] = {0.3, 0.0, 1.2}, tau[3] = {0, 0, 0};
  double h = 1e-3, T = 2.0;
  for (int s = 0; s < (int)(T / h + 0.5); ++s) {
    double k1[3], k2[3], k3[3], k4[3], wt[3];
    mbdae_rb_euler(J, Ji, w, tau, k1);
    for (int i = 0; i < 3; ++i) wt[i] = w[i] + 0.5 * h * k1[i];
    mbdae_rb_euler(J, Ji, wt, tau, k2);
    for (int i = 0; i < 3; ++i) wt[i] = w[i] + 0.5 * h * k2[i];
    mbdae_rb_euler(J, Ji, wt, tau, k3);
    for (int i = 0; i < 3; ++i) wt[i] = w[i] + h * k3[i];
    mbdae_rb_euler(J, Ji, wt, tau, k4);
    for (int i = 0; i < 3; ++i) w[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  double Om = (3.0 - 2.0) / 2.0 * 1.2;
  MBDAE_ASSERT_ABS(w[0], 0.3 * cos(Om * T), 1e-10);
  MBDAE_ASSERT_ABS(w[1], 0.3 * sin(Om * T), 1e-10);
  MBDAE_ASSERT_ABS(w[2], 1.2, 1e-14);
}

/* Exact attitude for constant body rate: q(t) = q0 (x) exp(w t / 2). */
static void quat_at(const double *q0, const double *w, double t, double *q) {
  double wn = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  double a = 0.5 * wn * t, c = cos(a), s = wn > 0 ? sin(a) / wn : 0.0;
  double e[4] = {c, s * w[0], s * w[1], s * w[2]};
  q[0] = q0[0] * e[0] - q0[1] * e[1] - q0[2] * e[2] - q0[3] * e[3];
  q[1] = q0[0] * e[1] + q0[1] * e[0] + q0[2] * e[3] - q0[3] * e[2];
  q[2] = q0[0] * e[2] - q0[1] * e[3] + q0[2] * e[0] + q0[3] * e[1];
  q[3] = q0[0] * e[3] + q0[1] * e[2] - q0[2] * e[1] + q0[3] * e[0];
}

static double psi_at(const double *A, const double *q0, const double *w, const double *r0,
                     const double *v, const double *P0, const double *U, double t,
                     mbdae_contact_kin *k) {
  double q[4], C[9], r[3], P[3];
  quat_at(q0, w, t, q);
  mbdae_rb_rotation(q, C);
  for (int i = 0; i < 3; ++i) { r[i] = r0[i] + v[i] * t; P[i] = P0[i] + U[i] * t; }
  mbdae_contact_eval(A, C, r, v, P, U, w, k);
  return k->psi;
}

/* psi' = G u and psi'' = gamma along a motion with u' = 0 (constant point
 * and body velocities, constant body rate), by finite differences. */
static void test_contact_kinematics(void) {
  double A[3] = {0.3, -0.8, 0.5}, q0[4] = {0.8, 0.2, -0.4, 0.4};
  double w[3] = {0.7, -1.1, 0.4}, r0[3] = {1.0, -2.0, 1.5}, v[3] = {-0.3, 0.5, 0.2};
  double P0[3] = {0.1, 0.2, -0.1}, U[3] = {0.05, -0.1, 0.3};
  mbdae_contact_kin k0, kp, km;
  double h = 1e-4;
  double p0 = psi_at(A, q0, w, r0, v, P0, U, 0.0, &k0);
  double pp = psi_at(A, q0, w, r0, v, P0, U, h, &kp);
  double pm = psi_at(A, q0, w, r0, v, P0, U, -h, &km);
  MBDAE_ASSERT_REL(k0.psidot, (pp - pm) / (2 * h), 1e-7);
  MBDAE_ASSERT_REL(k0.gamma, (pp - 2 * p0 + pm) / (h * h), 1e-5);
  /* G u = psi' */
  double Gu = 0.0;
  for (int i = 0; i < 3; ++i) Gu += k0.Gv[i] * v[i] + k0.GU[i] * U[i] + k0.Gw[i] * w[i];
  MBDAE_ASSERT_REL(Gu, k0.psidot, 1e-13);
  /* the reaction G^T mu is internal: zero net force, zero net moment about
   * any point (point at r, body at P, body-axes torque) */
  double C[9], rB[3], mu = -0.37;
  mbdae_rb_rotation(q0, C);
  double F_pt[3], F_b[3], tauI[3], Mtot[3];
  for (int i = 0; i < 3; ++i) { F_pt[i] = mu * k0.Gv[i]; F_b[i] = mu * k0.GU[i]; }
  for (int i = 0; i < 3; ++i) tauI[i] = C[3 * i] * mu * k0.Gw[0] + C[3 * i + 1] * mu * k0.Gw[1] + C[3 * i + 2] * mu * k0.Gw[2];
  for (int i = 0; i < 3; ++i) MBDAE_ASSERT_ABS(F_pt[i] + F_b[i], 0.0, 1e-15);
  Mtot[0] = r0[1] * F_pt[2] - r0[2] * F_pt[1] + P0[1] * F_b[2] - P0[2] * F_b[1] + tauI[0];
  Mtot[1] = r0[2] * F_pt[0] - r0[0] * F_pt[2] + P0[2] * F_b[0] - P0[0] * F_b[2] + tauI[1];
  Mtot[2] = r0[0] * F_pt[1] - r0[1] * F_pt[0] + P0[0] * F_b[1] - P0[1] * F_b[0] + tauI[2];
  for (int i = 0; i < 3; ++i) MBDAE_ASSERT_ABS(Mtot[i], 0.0, 1e-14);
  (void)rB;
}

int main(void) {
  const mbdae_test tests[] = {
    {"box mass properties and planes", test_box_mass_properties},
    {"octagonal prism (sec. 3.4.1)", test_octagonal_prism},
    {"bad vertex sets", test_bad_vertex_sets},
    {"quaternion rotation and derivative", test_rotation},
    {"Euler equations: torque-free precession", test_euler_precession},
    {"contact kinematics: psi', psi'', internal reaction", test_contact_kinematics},
    {NULL, NULL}};
  return mbdae_test_main("capture_geometry", tests);
}
