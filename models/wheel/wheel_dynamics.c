/* wheel_dynamics.c - accelerations of the wheel in a fixed contact mode:
 * the equations of motion (25a) with the contact forces as the algebraic
 * part, solved in the right-hand side (ODE form for CVODE/RK4):
 *   M Xdd = Q + sum_k (N_k G_k + T_k H_k),  G = (n, 0), H = (t, r),
 *   holding contact:   a_n = G^T Xdd + gamma_n = 0        (eq. 20b, 11)
 *   sticking contact:  a_t = H^T Xdd + gamma_t = 0        (eq. 12c, 25c)
 *   slipping contact:  T = -mu sigma N, sigma = sign v_t (eq. 12b, 22a)
 * with gamma_n = kappa (t.v)^2, gamma_t = -kappa (t.v)(n.v) on the corner
 * (III) and 0 on the flat segments (derived in doc/wheel.md). Evaluated in
 * dual numbers, so the Jacobian is exact. */
#include <string.h>

#include "wheel/wheel.h"
#include "wheel/wheel_dual.h"

enum { NZ = 2 * WHEEL_NC };

/* Gaussian elimination with partial pivoting on the values (duals carry the
 * derivatives through). Returns 1 if singular. */
static int dual_solve(wd *A, wd *b, wd *z) {
  for (int c = 0; c < NZ; ++c) {
    int p = c;
    for (int i = c + 1; i < NZ; ++i)
      if (fabs(A[i * NZ + c].v) > fabs(A[p * NZ + c].v)) p = i;
    if (fabs(A[p * NZ + c].v) < 1e-14) return 1;
    if (p != c) {
      for (int j = 0; j < NZ; ++j) {
        wd t = A[c * NZ + j]; A[c * NZ + j] = A[p * NZ + j]; A[p * NZ + j] = t;
      }
      wd t = b[c]; b[c] = b[p]; b[p] = t;
    }
    for (int i = c + 1; i < NZ; ++i) {
      if (A[i * NZ + c].v == 0.0 && A[i * NZ + c].d[0] == 0.0 &&
          A[i * NZ + c].d[1] == 0.0 && A[i * NZ + c].d[2] == 0.0 &&
          A[i * NZ + c].d[3] == 0.0)
        continue;
      wd f = wd_div(A[i * NZ + c], A[c * NZ + c]);
      for (int j = c; j < NZ; ++j)
        A[i * NZ + j] = wd_sub(A[i * NZ + j], wd_mul(f, A[c * NZ + j]));
      b[i] = wd_sub(b[i], wd_mul(f, b[c]));
    }
  }
  for (int i = NZ - 1; i >= 0; --i) {
    wd s = b[i];
    for (int j = i + 1; j < NZ; ++j) s = wd_sub(s, wd_mul(A[i * NZ + j], z[j]));
    z[i] = wd_div(s, A[i * NZ + i]);
  }
  return 0;
}

int wheel_mode_accel(const wheel_params *p, const wheel_mode *mode,
                     const double *y, double *acc, double *z, double *dacc) {
  wd X = wd_var(y[WHEEL_X], 0), Y = wd_var(y[WHEEL_Y], 1);
  wd VX = wd_var(y[WHEEL_VX], 2), VY = wd_var(y[WHEEL_VY], 3);
  wd n[WHEEL_NC][2], t[WHEEL_NC][2], bn[WHEEL_NC], bt[WHEEL_NC];
  double l1 = p->l - p->r;
  for (int k = 0; k < WHEEL_NC; ++k) {
    wd kappa = wd_const(0.0);
    n[k][0] = wd_const(k == WHEEL_WALL ? 1.0 : 0.0);
    n[k][1] = wd_const(k == WHEEL_WALL ? 0.0 : 1.0);
    if (k == WHEEL_CURB && mode->curb_seg == WHEEL_SEG_III) {
      /* corner: n = (S - C)/|S - C|, curvature 1/|S - C| */
      wd dx = wd_sub(X, wd_const(l1)), dy = wd_sub(Y, wd_const(p->h));
      wd rho = wd_sqrt(wd_add(wd_mul(dx, dx), wd_mul(dy, dy)));
      n[k][0] = wd_div(dx, rho);
      n[k][1] = wd_div(dy, rho);
      kappa = wd_div(wd_const(1.0), rho);
    }
    t[k][0] = n[k][1];
    t[k][1] = wd_neg(n[k][0]);
    wd s = wd_add(wd_mul(t[k][0], VX), wd_mul(t[k][1], VY));
    wd vn = wd_add(wd_mul(n[k][0], VX), wd_mul(n[k][1], VY));
    /* b = G^T M^-1 Q + gamma: gravity Q = (0, -m g, 0) */
    bn[k] = wd_add(wd_scale(n[k][1], -p->g), wd_mul(kappa, wd_mul(s, s)));
    bt[k] = wd_sub(wd_scale(t[k][1], -p->g), wd_mul(kappa, wd_mul(s, vn)));
  }
  /* generalised directions D = [G_1..G_3, H_1..H_3] */
  wd D[NZ][3];
  for (int k = 0; k < WHEEL_NC; ++k) {
    D[k][0] = n[k][0];
    D[k][1] = n[k][1];
    D[k][2] = wd_const(0.0);
    D[WHEEL_NC + k][0] = t[k][0];
    D[WHEEL_NC + k][1] = t[k][1];
    D[WHEEL_NC + k][2] = wd_const(p->r);
  }
  wd A[NZ * NZ], rhs[NZ], zz[NZ];
  for (int i = 0; i < NZ * NZ; ++i) A[i] = wd_const(0.0);
  for (int k = 0; k < WHEEL_NC; ++k) {
    int st = mode->state[k], rn = k, rt = WHEEL_NC + k;
    if (st == WHEEL_SEP) {
      A[rn * NZ + rn] = wd_const(1.0);
      A[rt * NZ + rt] = wd_const(1.0);
      rhs[rn] = rhs[rt] = wd_const(0.0);
      continue;
    }
    int rows[2] = {rn, st == WHEEL_STICK ? rt : -1};
    for (int q = 0; q < 2; ++q) {
      int r = rows[q];
      if (r < 0) continue;
      for (int j = 0; j < NZ; ++j) /* row r of W = D^T M^-1 D */
        A[r * NZ + j] = wd_add(wd_scale(wd_add(wd_mul(D[r][0], D[j][0]),
                                               wd_mul(D[r][1], D[j][1])), 1.0 / p->m),
                               wd_scale(wd_mul(D[r][2], D[j][2]), 1.0 / p->J));
    }
    rhs[rn] = wd_neg(bn[k]);
    if (st == WHEEL_STICK) {
      rhs[rt] = wd_neg(bt[k]);
    } else {
      double sigma = st == WHEEL_SLIP_POS ? 1.0 : -1.0;
      A[rt * NZ + rt] = wd_const(1.0);
      A[rt * NZ + rn] = wd_const(p->mu * sigma);
      rhs[rt] = wd_const(0.0);
    }
  }
  if (dual_solve(A, rhs, zz)) return 1;
  wd a[3] = {wd_const(0.0), wd_const(-p->g), wd_const(0.0)};
  for (int j = 0; j < NZ; ++j) {
    a[0] = wd_add(a[0], wd_scale(wd_mul(zz[j], D[j][0]), 1.0 / p->m));
    a[1] = wd_add(a[1], wd_scale(wd_mul(zz[j], D[j][1]), 1.0 / p->m));
    a[2] = wd_add(a[2], wd_scale(wd_mul(zz[j], D[j][2]), 1.0 / p->J));
  }
  for (int i = 0; i < 3; ++i) {
    acc[i] = a[i].v;
    if (dacc)
      for (int j = 0; j < WD_N; ++j) dacc[i * WD_N + j] = a[i].d[j];
  }
  if (z)
    for (int j = 0; j < NZ; ++j) z[j] = zz[j].v;
  return 0;
}
