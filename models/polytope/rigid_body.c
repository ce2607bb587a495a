/* rigid_body.c - quaternion kinematics and Euler's equations of a rigid body
 * (capps eqs. 2.82-2.90, with the angular velocity in body axes). */
#include "polytope/rigid_body.h"

#include <math.h>

/* Rotation of the unit quaternion u (scalar first). */
static void rot_unit(const double *u, double *C) {
  double a = u[0], b = u[1], c = u[2], d = u[3];
  C[0] = a * a + b * b - c * c - d * d;
  C[1] = 2.0 * (b * c - a * d);
  C[2] = 2.0 * (b * d + a * c);
  C[3] = 2.0 * (b * c + a * d);
  C[4] = a * a - b * b + c * c - d * d;
  C[5] = 2.0 * (c * d - a * b);
  C[6] = 2.0 * (b * d - a * c);
  C[7] = 2.0 * (c * d + a * b);
  C[8] = a * a - b * b - c * c + d * d;
}

void mbdae_rb_rotation(const double *q, double *C) {
  double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  double u[4] = {q[0] / n, q[1] / n, q[2] / n, q[3] / n};
  rot_unit(u, C);
}

/* C(q/|q|) = Q(q) / |q|^2 with Q the quadratic form rot_unit(q):
 * dC/dq_k = dQ/dq_k / |q|^2 - 2 q_k Q / |q|^4. */
void mbdae_rb_rotation_dq(const double *q, double *dC) {
  double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  double Q[9];
  rot_unit(q, Q);
  double a = q[0], b = q[1], c = q[2], d = q[3];
  /* dQ/da, dQ/db, dQ/dc, dQ/dd */
  const double dQ[4][9] = {
      {2 * a, -2 * d, 2 * c, 2 * d, 2 * a, -2 * b, -2 * c, 2 * b, 2 * a},
      {2 * b, 2 * c, 2 * d, 2 * c, -2 * b, -2 * a, 2 * d, 2 * a, -2 * b},
      {-2 * c, 2 * b, 2 * a, 2 * b, 2 * c, 2 * d, -2 * a, 2 * d, -2 * c},
      {-2 * d, -2 * a, 2 * b, 2 * a, -2 * d, 2 * c, 2 * b, 2 * c, 2 * d}};
  for (int k = 0; k < 4; ++k)
    for (int i = 0; i < 9; ++i)
      dC[9 * k + i] = dQ[k][i] / n2 - 2.0 * q[k] * Q[i] / (n2 * n2);
}

void mbdae_rb_quat_rate(const double *q, const double *w, double *qdot) {
  qdot[0] = 0.5 * (-q[1] * w[0] - q[2] * w[1] - q[3] * w[2]);
  qdot[1] = 0.5 * (q[0] * w[0] + q[2] * w[2] - q[3] * w[1]);
  qdot[2] = 0.5 * (q[0] * w[1] + q[3] * w[0] - q[1] * w[2]);
  qdot[3] = 0.5 * (q[0] * w[2] + q[1] * w[1] - q[2] * w[0]);
}

void mbdae_rb_quat_rate_jacobian(const double *q, const double *w, double *dq, double *dw) {
  double e[4], col[4];
  for (int k = 0; k < 4; ++k) { /* linear in q: column k is the rate of unit q = e_k */
    for (int c = 0; c < 4; ++c) e[c] = c == k;
    mbdae_rb_quat_rate(e, w, col);
    for (int r = 0; r < 4; ++r) dq[4 * r + k] = col[r];
  }
  for (int k = 0; k < 3; ++k) { /* linear in w */
    for (int c = 0; c < 3; ++c) e[c] = c == k;
    mbdae_rb_quat_rate(q, e, col);
    for (int r = 0; r < 4; ++r) dw[3 * r + k] = col[r];
  }
}

void mbdae_rb_euler_jacobian(const double *J, const double *Jinv, const double *w,
                             double *dwdot_dw) {
  /* d(w x J w)/dw = [w]x J - [J w]x */
  double h[3], W[9], H[9], G[9];
  for (int i = 0; i < 3; ++i) h[i] = J[3 * i] * w[0] + J[3 * i + 1] * w[1] + J[3 * i + 2] * w[2];
  W[0] = 0; W[1] = -w[2]; W[2] = w[1]; W[3] = w[2]; W[4] = 0; W[5] = -w[0];
  W[6] = -w[1]; W[7] = w[0]; W[8] = 0;
  H[0] = 0; H[1] = -h[2]; H[2] = h[1]; H[3] = h[2]; H[4] = 0; H[5] = -h[0];
  H[6] = -h[1]; H[7] = h[0]; H[8] = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = -H[3 * i + j];
      for (int k = 0; k < 3; ++k) s += W[3 * i + k] * J[3 * k + j];
      G[3 * i + j] = s;
    }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double s = 0.0;
      for (int k = 0; k < 3; ++k) s -= Jinv[3 * i + k] * G[3 * k + j];
      dwdot_dw[3 * i + j] = s;
    }
}

void mbdae_rb_euler(const double *J, const double *Jinv, const double *w,
                    const double *tau_body, double *wdot) {
  double h[3], r[3];
  for (int i = 0; i < 3; ++i) h[i] = J[3 * i] * w[0] + J[3 * i + 1] * w[1] + J[3 * i + 2] * w[2];
  r[0] = tau_body[0] - (w[1] * h[2] - w[2] * h[1]);
  r[1] = tau_body[1] - (w[2] * h[0] - w[0] * h[2]);
  r[2] = tau_body[2] - (w[0] * h[1] - w[1] * h[0]);
  for (int i = 0; i < 3; ++i)
    wdot[i] = Jinv[3 * i] * r[0] + Jinv[3 * i + 1] * r[1] + Jinv[3 * i + 2] * r[2];
}

void mbdae_rb_angular_momentum(double m, const double *J, const double *s,
                               double *L) {
  const double *P = &s[MBDAE_RB_P], *U = &s[MBDAE_RB_U], *w = &s[MBDAE_RB_W];
  double C[9], h[3];
  mbdae_rb_rotation(&s[MBDAE_RB_Q], C);
  for (int i = 0; i < 3; ++i) h[i] = J[3 * i] * w[0] + J[3 * i + 1] * w[1] + J[3 * i + 2] * w[2];
  L[0] = m * (P[1] * U[2] - P[2] * U[1]);
  L[1] = m * (P[2] * U[0] - P[0] * U[2]);
  L[2] = m * (P[0] * U[1] - P[1] * U[0]);
  for (int i = 0; i < 3; ++i) L[i] += C[3 * i] * h[0] + C[3 * i + 1] * h[1] + C[3 * i + 2] * h[2];
}

double mbdae_rb_kinetic_energy(double m, const double *J, const double *s) {
  const double *U = &s[MBDAE_RB_U], *w = &s[MBDAE_RB_W];
  double e = 0.5 * m * (U[0] * U[0] + U[1] * U[1] + U[2] * U[2]);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) e += 0.5 * w[i] * J[3 * i + k] * w[k];
  return e;
}
