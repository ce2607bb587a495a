/* tow_jacobian.c - exact sparse Jacobian of the tow: ODE df/dy (cvode-bdf
 * + klu) or DAE cj I - df/dy (ida). The pattern holds slack or taut: per
 * point its r rows' diagonal and v column, its v rows x (r, v) of itself
 * and its tether neighbours (block tridiagonal), the last node's v rows x
 * the body, the body's U and w rows x (r, v) of the last node, the body's
 * 13 x 13 block, W' x v of the chaser, D' x every point and the body. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "polytope/rigid_body.h"
#include "tow/tow.h"

/* slot layout: per point k (PT entries): rr[3] rv[3] vb[3][3][6] (the v rows
 * x (r, v) of the points k-1, k, k+1) dr[6] (D row x (r, v)); then
 * vN x body (39), (U, w) x (r_N, v_N) (36), body x body (169), W row (4:
 * diagonal, v_0), D row (14: diagonal, body) */
enum { PT = 3 + 3 + 54 + 6, X_VNB = 0, X_BPT = 39, X_BB = 75, X_W = 244, X_D = 248, X_N = 262 };

static mbdae_index *pt_slots(const tow_model *m, int k) { return &m->slot[PT * k]; }
static mbdae_index *extra_slots(const tow_model *m) { return &m->slot[PT * m->npt]; }

static int add(sn_pattern *p, int r, int c) { return sn_pattern_add(p, r, c) ? MBDAE_ERR_MEMORY : 0; }

int tow_jacobian_setup(tow_model *m) {
  int np = m->npt, ov = 3 * np, b = m->boff, N = m->N;
  m->pat = sn_pattern_create(m->n);
  m->slot = malloc(((size_t)PT * np + X_N) * sizeof *m->slot);
  if (!m->pat || !m->slot) return MBDAE_ERR_MEMORY;
  sn_pattern *p = m->pat;
  int rc = 0;
  for (int k = 0; k < np && !rc; ++k)
    for (int c = 0; c < 3 && !rc; ++c) {
      rc = add(p, 3 * k + c, 3 * k + c) || add(p, 3 * k + c, ov + 3 * k + c) ||
           add(p, m->id, 3 * k + c) || add(p, m->id, ov + 3 * k + c);
      for (int j = k - 1; j <= k + 1 && !rc; ++j) {
        if (j < 0 || j >= np) continue;
        for (int e = 0; e < 3 && !rc; ++e)
          rc = add(p, ov + 3 * k + c, 3 * j + e) || add(p, ov + 3 * k + c, ov + 3 * j + e);
      }
    }
  for (int c = 0; c < 3 && !rc; ++c)
    for (int e = 0; e < MBDAE_RB_N && !rc; ++e) rc = add(p, ov + 3 * N + c, b + e);
  for (int r = 0; r < 6 && !rc; ++r) {
    int row = b + (r < 3 ? MBDAE_RB_U + r : MBDAE_RB_W + r - 3);
    for (int e = 0; e < 3 && !rc; ++e) rc = add(p, row, 3 * N + e) || add(p, row, ov + 3 * N + e);
  }
  for (int r = 0; r < MBDAE_RB_N && !rc; ++r)
    for (int e = 0; e < MBDAE_RB_N && !rc; ++e) rc = add(p, b + r, b + e);
  rc = rc || add(p, m->iw, m->iw) || add(p, m->id, m->id);
  for (int c = 0; c < 3 && !rc; ++c) rc = add(p, m->iw, ov + c);
  for (int e = 0; e < MBDAE_RB_N && !rc; ++e) rc = add(p, m->id, b + e);
  if (rc) return MBDAE_ERR_MEMORY;
  rc = sn_pattern_finalize(p);
  if (rc) return rc;
  for (int k = 0; k < np; ++k) {
    mbdae_index *s = pt_slots(m, k);
    for (int c = 0; c < 3; ++c) {
      s[c] = sn_pattern_slot(p, 3 * k + c, 3 * k + c);
      s[3 + c] = sn_pattern_slot(p, 3 * k + c, ov + 3 * k + c);
      s[60 + c] = sn_pattern_slot(p, m->id, 3 * k + c);
      s[63 + c] = sn_pattern_slot(p, m->id, ov + 3 * k + c);
      for (int jj = 0; jj < 3; ++jj) {
        int j = k - 1 + jj;
        for (int e = 0; e < 3; ++e) {
          int ok = j >= 0 && j < np;
          s[6 + 18 * jj + 6 * c + e] = ok ? sn_pattern_slot(p, ov + 3 * k + c, 3 * j + e) : -1;
          s[6 + 18 * jj + 6 * c + 3 + e] = ok ? sn_pattern_slot(p, ov + 3 * k + c, ov + 3 * j + e) : -1;
        }
      }
    }
  }
  mbdae_index *x = extra_slots(m);
  for (int c = 0; c < 3; ++c)
    for (int e = 0; e < MBDAE_RB_N; ++e) x[X_VNB + MBDAE_RB_N * c + e] = sn_pattern_slot(p, ov + 3 * N + c, b + e);
  for (int r = 0; r < 6; ++r) {
    int row = b + (r < 3 ? MBDAE_RB_U + r : MBDAE_RB_W + r - 3);
    for (int e = 0; e < 3; ++e) {
      x[X_BPT + 6 * r + e] = sn_pattern_slot(p, row, 3 * N + e);
      x[X_BPT + 6 * r + 3 + e] = sn_pattern_slot(p, row, ov + 3 * N + e);
    }
  }
  for (int r = 0; r < MBDAE_RB_N; ++r)
    for (int e = 0; e < MBDAE_RB_N; ++e) x[X_BB + MBDAE_RB_N * r + e] = sn_pattern_slot(p, b + r, b + e);
  x[X_W] = sn_pattern_slot(p, m->iw, m->iw);
  for (int c = 0; c < 3; ++c) x[X_W + 1 + c] = sn_pattern_slot(p, m->iw, ov + c);
  x[X_D] = sn_pattern_slot(p, m->id, m->id);
  for (int e = 0; e < MBDAE_RB_N; ++e) x[X_D + 1 + e] = sn_pattern_slot(p, m->id, b + e);
  return 0;
}

/* v rows of point k x (r or v) of point j (j within 1 of k): 3 x 3 block M
 * scaled by a, added */
static void add_vblock(const tow_model *m, double *vals, int k, int j, int vcol,
                       const double *M, double a) {
  const mbdae_index *s = pt_slots(m, k);
  int jj = j - k + 1;
  for (int c = 0; c < 3; ++c)
    for (int e = 0; e < 3; ++e) vals[s[6 + 18 * jj + 6 * c + 3 * vcol + e]] += a * M[3 * c + e];
}

int tow_jacobian_values(tow_model *m, double t, double cj, const double *y, double *vals) {
  int np = m->npt, N = m->N, dae = m->dae;
  double sg = dae ? -1.0 : 1.0;
  const double *R = y, *V = &y[3 * np], *bs = &y[m->boff];
  const mbdae_index *x = extra_slots(m);
  for (int k = 0; k < np; ++k) {
    const mbdae_index *s = pt_slots(m, k);
    for (int c = 0; c < 3; ++c) {
      vals[s[3 + c]] += sg;
      if (dae) {
        vals[s[c]] += cj;
        vals[s[6 + 18 + 6 * c + 3 + c]] += cj; /* v_k x v_k diagonal */
      }
    }
  }
  /* the tether threads between points */
  for (int k = 0; k < N; ++k) {
    int h = k + 1;
    double S[3], W[3], fS[9], fW[9], DS[3], DW[3];
    for (int c = 0; c < 3; ++c) {
      S[c] = R[3 * h + c] - R[3 * k + c];
      W[c] = V[3 * h + c] - V[3 * k + c];
    }
    double T = elastic_thread_force(&m->th, S, W, NULL, fS, fW, NULL);
    double D = elastic_thread_dissipation(&m->th, S, W, DS, DW);
    if (T == 0.0 && D == 0.0 && DS[0] == 0.0 && DS[1] == 0.0 && DS[2] == 0.0) continue;
    double ah = sg / m->m[h], ak = sg / m->m[k];
    add_vblock(m, vals, h, h, 0, fS, ah);
    add_vblock(m, vals, h, k, 0, fS, -ah);
    add_vblock(m, vals, h, h, 1, fW, ah);
    add_vblock(m, vals, h, k, 1, fW, -ah);
    add_vblock(m, vals, k, h, 0, fS, -ak);
    add_vblock(m, vals, k, k, 0, fS, ak);
    add_vblock(m, vals, k, h, 1, fW, -ak);
    add_vblock(m, vals, k, k, 1, fW, ak);
    const mbdae_index *sh = pt_slots(m, h), *sk = pt_slots(m, k);
    for (int c = 0; c < 3; ++c) {
      vals[sh[60 + c]] += sg * DS[c];
      vals[sk[60 + c]] -= sg * DS[c];
      vals[sh[63 + c]] += sg * DW[c];
      vals[sk[63 + c]] -= sg * DW[c];
    }
  }
  /* the attachment thread: S = P + C rho - r_N, W = U + C (w x rho) - v_N */
  double C[9], dC[36], xa[3], va[3];
  const double *ra = m->p.attachment, *w = &bs[MBDAE_RB_W];
  mbdae_rb_rotation(&bs[MBDAE_RB_Q], C);
  mbdae_rb_rotation_dq(&bs[MBDAE_RB_Q], dC);
  tow_attachment(m, y, xa, va);
  double S[3], W[3], fS[9], fW[9], DS[3], DW[3], f[3];
  for (int c = 0; c < 3; ++c) {
    S[c] = xa[c] - R[3 * N + c];
    W[c] = va[c] - V[3 * N + c];
  }
  elastic_thread_force(&m->th, S, W, f, fS, fW, NULL);
  elastic_thread_dissipation(&m->th, S, W, DS, DW);
  /* dS/dbody, dW/dbody (3 x 13) */
  double dSb[3 * MBDAE_RB_N], dWb[3 * MBDAE_RB_N], wr[3];
  memset(dSb, 0, sizeof dSb);
  memset(dWb, 0, sizeof dWb);
  wr[0] = w[1] * ra[2] - w[2] * ra[1];
  wr[1] = w[2] * ra[0] - w[0] * ra[2];
  wr[2] = w[0] * ra[1] - w[1] * ra[0];
  double Rx[9] = {0, -ra[2], ra[1], ra[2], 0, -ra[0], -ra[1], ra[0], 0}; /* [rho]x */
  for (int c = 0; c < 3; ++c) {
    dSb[MBDAE_RB_N * c + MBDAE_RB_P + c] = 1.0;
    dWb[MBDAE_RB_N * c + MBDAE_RB_U + c] = 1.0;
    for (int e = 0; e < 3; ++e) { /* d(C (w x rho))/dw = -C [rho]x */
      double s = 0.0;
      for (int l = 0; l < 3; ++l) s -= C[3 * c + l] * Rx[3 * l + e];
      dWb[MBDAE_RB_N * c + MBDAE_RB_W + e] = s;
    }
    for (int j = 0; j < 4; ++j) {
      const double *D = &dC[9 * j];
      dSb[MBDAE_RB_N * c + MBDAE_RB_Q + j] = D[3 * c] * ra[0] + D[3 * c + 1] * ra[1] + D[3 * c + 2] * ra[2];
      dWb[MBDAE_RB_N * c + MBDAE_RB_Q + j] = D[3 * c] * wr[0] + D[3 * c + 1] * wr[1] + D[3 * c + 2] * wr[2];
    }
  }
  double dfb[3 * MBDAE_RB_N]; /* df/dbody */
  for (int c = 0; c < 3; ++c)
    for (int e = 0; e < MBDAE_RB_N; ++e) {
      double s = 0.0;
      for (int l = 0; l < 3; ++l) s += fS[3 * c + l] * dSb[MBDAE_RB_N * l + e] + fW[3 * c + l] * dWb[MBDAE_RB_N * l + e];
      dfb[MBDAE_RB_N * c + e] = s;
    }
  double aN = sg / m->m[N], aM = sg / m->body->mass;
  add_vblock(m, vals, N, N, 0, fS, aN);
  add_vblock(m, vals, N, N, 1, fW, aN);
  const mbdae_index *sN = pt_slots(m, N);
  for (int c = 0; c < 3; ++c) {
    for (int e = 0; e < MBDAE_RB_N; ++e) {
      vals[x[X_VNB + MBDAE_RB_N * c + e]] -= aN * dfb[MBDAE_RB_N * c + e];
      vals[x[X_BB + MBDAE_RB_N * (MBDAE_RB_U + c) + e]] += aM * dfb[MBDAE_RB_N * c + e];
    }
    for (int e = 0; e < 3; ++e) {
      vals[x[X_BPT + 6 * c + e]] -= aM * fS[3 * c + e];
      vals[x[X_BPT + 6 * c + 3 + e]] -= aM * fW[3 * c + e];
    }
    vals[sN[60 + c]] -= sg * DS[c];
    vals[sN[63 + c]] -= sg * DW[c];
  }
  for (int e = 0; e < MBDAE_RB_N; ++e) {
    double s = 0.0;
    for (int l = 0; l < 3; ++l) s += DS[l] * dSb[MBDAE_RB_N * l + e] + DW[l] * dWb[MBDAE_RB_N * l + e];
    vals[x[X_D + 1 + e]] += sg * s;
  }
  /* torque tau = [rho]x C^T f: Jinv dtau for the w rows */
  double RCt[9]; /* [rho]x C^T */
  for (int c = 0; c < 3; ++c)
    for (int e = 0; e < 3; ++e) {
      double s = 0.0;
      for (int l = 0; l < 3; ++l) s += Rx[3 * c + l] * C[3 * e + l];
      RCt[3 * c + e] = s;
    }
  double dtau_pt[18], dtau_b[3 * MBDAE_RB_N]; /* (r_N, v_N) and body columns */
  for (int c = 0; c < 3; ++c) {
    for (int e = 0; e < 3; ++e) {
      double sr = 0.0, sv = 0.0;
      for (int l = 0; l < 3; ++l) {
        sr -= RCt[3 * c + l] * fS[3 * l + e];
        sv -= RCt[3 * c + l] * fW[3 * l + e];
      }
      dtau_pt[6 * c + e] = sr;
      dtau_pt[6 * c + 3 + e] = sv;
    }
    for (int e = 0; e < MBDAE_RB_N; ++e) {
      double s = 0.0;
      for (int l = 0; l < 3; ++l) s += RCt[3 * c + l] * dfb[MBDAE_RB_N * l + e];
      dtau_b[MBDAE_RB_N * c + e] = s;
    }
    for (int j = 0; j < 4; ++j) { /* [rho]x dC_j^T f */
      const double *D = &dC[9 * j];
      double g[3];
      for (int l = 0; l < 3; ++l) g[l] = D[l] * f[0] + D[3 + l] * f[1] + D[6 + l] * f[2];
      dtau_b[MBDAE_RB_N * c + MBDAE_RB_Q + j] += Rx[3 * c] * g[0] + Rx[3 * c + 1] * g[1] + Rx[3 * c + 2] * g[2];
    }
  }
  const double *Jinv = m->body->Jinv;
  for (int c = 0; c < 3; ++c) {
    for (int e = 0; e < 6; ++e) {
      double s = Jinv[3 * c] * dtau_pt[e] + Jinv[3 * c + 1] * dtau_pt[6 + e] + Jinv[3 * c + 2] * dtau_pt[12 + e];
      vals[x[X_BPT + 6 * (3 + c) + e]] += sg * s;
    }
    for (int e = 0; e < MBDAE_RB_N; ++e) {
      double s = Jinv[3 * c] * dtau_b[e] + Jinv[3 * c + 1] * dtau_b[MBDAE_RB_N + e] +
                 Jinv[3 * c + 2] * dtau_b[2 * MBDAE_RB_N + e];
      vals[x[X_BB + MBDAE_RB_N * (MBDAE_RB_W + c) + e]] += sg * s;
    }
  }
  /* the body's own kinematics and Euler's equations */
  double dq[16], dqw[12], dww[9];
  mbdae_rb_quat_rate_jacobian(&bs[MBDAE_RB_Q], w, dq, dqw);
  mbdae_rb_euler_jacobian(m->body->J, Jinv, w, dww);
  for (int c = 0; c < 3; ++c) vals[x[X_BB + MBDAE_RB_N * (MBDAE_RB_P + c) + MBDAE_RB_U + c]] += sg;
  for (int r = 0; r < 4; ++r) {
    for (int k = 0; k < 4; ++k) vals[x[X_BB + MBDAE_RB_N * (MBDAE_RB_Q + r) + MBDAE_RB_Q + k]] += sg * dq[4 * r + k];
    for (int k = 0; k < 3; ++k) vals[x[X_BB + MBDAE_RB_N * (MBDAE_RB_Q + r) + MBDAE_RB_W + k]] += sg * dqw[3 * r + k];
  }
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) vals[x[X_BB + MBDAE_RB_N * (MBDAE_RB_W + r) + MBDAE_RB_W + k]] += sg * dww[3 * r + k];
  /* W' = F(t) . v_0 */
  double F[3];
  tow_thrust(&m->p, t, F);
  for (int c = 0; c < 3; ++c) vals[x[X_W + 1 + c]] += sg * F[c];
  if (dae) {
    for (int k = 0; k < MBDAE_RB_N; ++k) vals[x[X_BB + MBDAE_RB_N * k + k]] += cj;
    vals[x[X_W]] += cj;
    vals[x[X_D]] += cj;
  }
  return 0;
}
