/* capture_compliant_jacobian.c - the exact sparse Jacobian of net_capture's
 * compliant form: ODE df/dy (cvode-bdf + klu) or DAE cj I - df/dy (ida).
 *
 * Pattern (valid at every state, slack or taut, in contact or not): per
 * point the r rows' diagonal and v column; the v rows x (r, v) of the point
 * (3 x 6: thread and contact directions couple the components), x (r, v) of
 * every point it shares a thread with, x the body's 13 coordinates
 * (contact); the body's U and w rows x (r, v) of every point; the body's
 * 13 x 13 block. The body couples to every point (an arrow matrix); its
 * rows and columns are few (13), so KLU's fill stays O(points). */
#include "capture/capture_compliant.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "polytope/rigid_body.h"

static int add_block(sn_pattern *p, int r0, int nr, int c0, int nc) {
  for (int r = 0; r < nr; ++r)
    for (int c = 0; c < nc; ++c)
      if (sn_pattern_add(p, r0 + r, c0 + c)) return MBDAE_ERR_MEMORY;
  return 0;
}

static void slots(const sn_pattern *p, int r0, int nr, int c0, int nc, mbdae_index *out) {
  for (int r = 0; r < nr; ++r)
    for (int c = 0; c < nc; ++c) out[nc * r + c] = sn_pattern_slot(p, r0 + r, c0 + c);
}

int capcomp_jacobian_setup(capture_model *m) {
  capture_compliant *cc = m->comp;
  int np = m->np, ov = 3 * np, b = m->boff;
  cc->pat = sn_pattern_create(m->n);
  cc->ps = calloc((size_t)np, sizeof *cc->ps);
  cc->ss = calloc(m->ns > 0 ? 36 * (size_t)m->ns : 1, sizeof *cc->ss);
  if (!cc->pat || !cc->ps || !cc->ss) return MBDAE_ERR_MEMORY;
  sn_pattern *p = cc->pat;
  int rc = 0;
  for (int i = 0; i < np && !rc; ++i) {
    for (int c = 0; c < 3 && !rc; ++c)
      rc = sn_pattern_add(p, 3 * i + c, 3 * i + c) || sn_pattern_add(p, 3 * i + c, ov + 3 * i + c);
    rc = rc ? rc : add_block(p, ov + 3 * i, 3, 3 * i, 3);
    rc = rc ? rc : add_block(p, ov + 3 * i, 3, ov + 3 * i, 3);
    rc = rc ? rc : add_block(p, ov + 3 * i, 3, b, MBDAE_RB_N);
    rc = rc ? rc : add_block(p, b + MBDAE_RB_U, 3, 3 * i, 3);
    rc = rc ? rc : add_block(p, b + MBDAE_RB_U, 3, ov + 3 * i, 3);
    rc = rc ? rc : add_block(p, b + MBDAE_RB_W, 3, 3 * i, 3);
    rc = rc ? rc : add_block(p, b + MBDAE_RB_W, 3, ov + 3 * i, 3);
  }
  for (int s = 0; s < m->ns && !rc; ++s) {
    int i = m->net->s[s].i, j = m->net->s[s].j;
    rc = add_block(p, ov + 3 * i, 3, 3 * j, 3);
    rc = rc ? rc : add_block(p, ov + 3 * i, 3, ov + 3 * j, 3);
    rc = rc ? rc : add_block(p, ov + 3 * j, 3, 3 * i, 3);
    rc = rc ? rc : add_block(p, ov + 3 * j, 3, ov + 3 * i, 3);
  }
  rc = rc ? rc : add_block(p, b, MBDAE_RB_N, b, MBDAE_RB_N);
  if (rc) return MBDAE_ERR_MEMORY;
  rc = sn_pattern_finalize(p);
  if (rc) return rc;
  for (int i = 0; i < np; ++i) {
    capcomp_point_slots *ps = &cc->ps[i];
    for (int c = 0; c < 3; ++c) {
      ps->rr[c] = sn_pattern_slot(p, 3 * i + c, 3 * i + c);
      ps->rv[c] = sn_pattern_slot(p, 3 * i + c, ov + 3 * i + c);
      for (int k = 0; k < 3; ++k) {
        ps->vs[6 * c + k] = sn_pattern_slot(p, ov + 3 * i + c, 3 * i + k);
        ps->vs[6 * c + 3 + k] = sn_pattern_slot(p, ov + 3 * i + c, ov + 3 * i + k);
        ps->bp[6 * c + k] = sn_pattern_slot(p, b + MBDAE_RB_U + c, 3 * i + k);
        ps->bp[6 * c + 3 + k] = sn_pattern_slot(p, b + MBDAE_RB_U + c, ov + 3 * i + k);
        ps->bp[6 * (3 + c) + k] = sn_pattern_slot(p, b + MBDAE_RB_W + c, 3 * i + k);
        ps->bp[6 * (3 + c) + 3 + k] = sn_pattern_slot(p, b + MBDAE_RB_W + c, ov + 3 * i + k);
      }
    }
    slots(p, ov + 3 * i, 3, b, MBDAE_RB_N, ps->vb);
  }
  for (int s = 0; s < m->ns; ++s) {
    int i = m->net->s[s].i, j = m->net->s[s].j;
    mbdae_index *ss = &cc->ss[36 * s];
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) {
        ss[6 * c + k] = sn_pattern_slot(p, ov + 3 * i + c, 3 * j + k);
        ss[6 * c + 3 + k] = sn_pattern_slot(p, ov + 3 * i + c, ov + 3 * j + k);
        ss[18 + 6 * c + k] = sn_pattern_slot(p, ov + 3 * j + c, 3 * i + k);
        ss[18 + 6 * c + 3 + k] = sn_pattern_slot(p, ov + 3 * j + c, ov + 3 * i + k);
      }
  }
  slots(p, b, MBDAE_RB_N, b, MBDAE_RB_N, cc->bb);
  return 0;
}

int capcomp_jacobian_values(capture_model *m, double t, double cj, const double *y,
                            double *vals) {
  (void)t; /* the thrust laws allowed here depend on t only */
  capture_compliant *cc = m->comp;
  int np = m->np, dae = cc->dae;
  double sg = dae ? -1.0 : 1.0; /* DAE: cj I - df/dy */
  const double *R = y, *V = &y[3 * np], *bs = &y[m->boff];
  for (int i = 0; i < np; ++i) {
    const capcomp_point_slots *ps = &cc->ps[i];
    for (int c = 0; c < 3; ++c) {
      vals[ps->rv[c]] += sg;
      if (dae) {
        vals[ps->rr[c]] += cj;
        vals[ps->vs[6 * c + 3 + c]] += cj;
      }
    }
  }
  /* threads: the head's force f(S, W), the tail's -f */
  for (int s = 0; s < m->ns; ++s) {
    int i = m->net->s[s].i, j = m->net->s[s].j;
    double S[3], W[3], fS[9], fW[9];
    for (int c = 0; c < 3; ++c) {
      S[c] = R[3 * j + c] - R[3 * i + c];
      W[c] = V[3 * j + c] - V[3 * i + c];
    }
    if (elastic_thread_force(&cc->th[s], S, W, NULL, fS, fW, NULL) == 0.0) continue;
    const mbdae_index *ss = &cc->ss[36 * s];
    const capcomp_point_slots *pi = &cc->ps[i], *pj = &cc->ps[j];
    double ai = sg * m->minv[i], aj = sg * m->minv[j];
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 3; ++k) {
        double dS = fS[3 * c + k], dW = fW[3 * c + k];
        vals[pj->vs[6 * c + k]] += aj * dS;      /* v_j x r_j */
        vals[pj->vs[6 * c + 3 + k]] += aj * dW;  /* v_j x v_j */
        vals[ss[18 + 6 * c + k]] -= aj * dS;     /* v_j x r_i */
        vals[ss[18 + 6 * c + 3 + k]] -= aj * dW; /* v_j x v_i */
        vals[pi->vs[6 * c + k]] += ai * dS;      /* v_i x r_i: -f, d/dr_i = +dS */
        vals[pi->vs[6 * c + 3 + k]] += ai * dW;
        vals[ss[6 * c + k]] -= ai * dS;          /* v_i x r_j */
        vals[ss[6 * c + 3 + k]] -= ai * dW;      /* v_i x v_j */
      }
  }
  /* contact */
  double C[9], dC[36];
  mbdae_rb_rotation(&bs[MBDAE_RB_Q], C);
  mbdae_rb_rotation_dq(&bs[MBDAE_RB_Q], dC);
  const double *Jinv = m->body->Jinv;
  double aM = sg / m->body->mass;
  for (int j = 0; j < np; ++j) {
    cc_result cr;
    if (!cc_point_contact(&cc->contact, m->body, cc->rmax, C, dC, &R[3 * j], &V[3 * j], bs, 1,
                          &cr) || cr.fn == 0.0)
      continue;
    const capcomp_point_slots *ps = &cc->ps[j];
    double aj = sg * m->minv[j];
    double jt[3 * CC_NCOL]; /* Jinv dtau */
    for (int r = 0; r < 3; ++r)
      for (int k = 0; k < CC_NCOL; ++k)
        jt[r * CC_NCOL + k] = Jinv[3 * r] * cr.dtau[k] + Jinv[3 * r + 1] * cr.dtau[CC_NCOL + k] +
                              Jinv[3 * r + 2] * cr.dtau[2 * CC_NCOL + k];
    for (int r = 0; r < 3; ++r) {
      for (int k = 0; k < 6; ++k) {
        double dF = cr.dF[r * CC_NCOL + k];
        vals[ps->vs[6 * r + k]] += aj * dF;
        vals[ps->bp[6 * r + k]] -= aM * dF;
        vals[ps->bp[6 * (3 + r) + k]] += sg * jt[r * CC_NCOL + k];
      }
      for (int k = 0; k < MBDAE_RB_N; ++k) {
        double dF = cr.dF[r * CC_NCOL + 6 + k];
        vals[ps->vb[MBDAE_RB_N * r + k]] += aj * dF;
        vals[cc->bb[MBDAE_RB_N * (MBDAE_RB_U + r) + k]] -= aM * dF;
        vals[cc->bb[MBDAE_RB_N * (MBDAE_RB_W + r) + k]] += sg * jt[r * CC_NCOL + 6 + k];
      }
    }
  }
  /* the body's own: P' = U, q' = q (x) w / 2, Euler */
  const mbdae_index *bb = cc->bb;
  double dq[16], dqw[12], dww[9];
  mbdae_rb_quat_rate_jacobian(&bs[MBDAE_RB_Q], &bs[MBDAE_RB_W], dq, dqw);
  mbdae_rb_euler_jacobian(m->body->J, Jinv, &bs[MBDAE_RB_W], dww);
  for (int c = 0; c < 3; ++c) vals[bb[MBDAE_RB_N * (MBDAE_RB_P + c) + MBDAE_RB_U + c]] += sg;
  for (int r = 0; r < 4; ++r) {
    for (int k = 0; k < 4; ++k) vals[bb[MBDAE_RB_N * (MBDAE_RB_Q + r) + MBDAE_RB_Q + k]] += sg * dq[4 * r + k];
    for (int k = 0; k < 3; ++k) vals[bb[MBDAE_RB_N * (MBDAE_RB_Q + r) + MBDAE_RB_W + k]] += sg * dqw[3 * r + k];
  }
  for (int r = 0; r < 3; ++r)
    for (int k = 0; k < 3; ++k) vals[bb[MBDAE_RB_N * (MBDAE_RB_W + r) + MBDAE_RB_W + k]] += sg * dww[3 * r + k];
  if (dae)
    for (int k = 0; k < MBDAE_RB_N; ++k) vals[bb[MBDAE_RB_N * k + k]] += cj;
  return 0;
}
