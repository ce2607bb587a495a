/* string_net_dae_jacobian.c - the DAE form's analytic sparse Jacobian
 * dF/dy + cj dF/dyp: the core's pattern, its value slots, and the values. */
#include "strings/string_net_internal.h"

#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"

/* Calls add(row, col) for every core entry; used for both the pattern and
 * the slot binding so the two can never disagree. */
static int shape_has(sn_jac_shape sh, int a, int b) {
  return sh == SN_JAC_FULL || (sh == SN_JAC_DIAG && a == b);
}

int sn_net_pattern_add(const sn_net *net, sn_pattern *p) {
  if (net->form == SN_FORM_ODE) return MBDAE_ERR_UNSUPPORTED;
  int rc = 0;
  int oR = net->off_r, oV = net->off_v, oL = net->off_lam;
  sn_jac_shape jr = net->force.fn ? net->force.jac_r : SN_JAC_NONE;
  sn_jac_shape jv = net->force.fn ? net->force.jac_v : SN_JAC_NONE;
  for (int k = 0; k < net->np && !rc; ++k)
    for (int a = 0; a < 3 && !rc; ++a) {
      rc |= sn_pattern_add(p, oR + 3 * k + a, oR + 3 * k + a);
      rc |= sn_pattern_add(p, oR + 3 * k + a, oV + 3 * k + a);
      for (int b = 0; b < 3; ++b) {
        if (shape_has(jr, a, b)) rc |= sn_pattern_add(p, oV + 3 * k + a, oR + 3 * k + b);
        if (a == b || shape_has(jv, a, b))
          rc |= sn_pattern_add(p, oV + 3 * k + a, oV + 3 * k + b);
      }
    }
  for (int s = 0; s < net->ns && !rc; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    for (int c = 0; c < 3; ++c) {
      rc |= sn_pattern_add(p, oV + 3 * i + c, oR + 3 * i + c);
      rc |= sn_pattern_add(p, oV + 3 * i + c, oR + 3 * j + c);
      rc |= sn_pattern_add(p, oV + 3 * j + c, oR + 3 * i + c);
      rc |= sn_pattern_add(p, oV + 3 * j + c, oR + 3 * j + c);
      rc |= sn_pattern_add(p, oV + 3 * i + c, oL + s);
      rc |= sn_pattern_add(p, oV + 3 * j + c, oL + s);
      rc |= sn_pattern_add(p, oL + s, oR + 3 * i + c);
      rc |= sn_pattern_add(p, oL + s, oR + 3 * j + c);
      rc |= sn_pattern_add(p, oL + s, oV + 3 * i + c);
      rc |= sn_pattern_add(p, oL + s, oV + 3 * j + c);
    }
    rc |= sn_pattern_add(p, oL + s, oL + s);
  }
  if (!rc && net->form == SN_FORM_GGL) return sn_ggl_pattern_add(net, p);
  return rc ? MBDAE_ERR_MEMORY : 0;
}

int sn_net_jacobian_bind(sn_net *net, const sn_pattern *p) {
  if (net->form == SN_FORM_ODE) return MBDAE_ERR_UNSUPPORTED;
  sn_workspace *w = net->ws;
  free(w->ps);
  free(w->ss);
  w->ps = malloc((size_t)net->np * sizeof *w->ps);
  w->ss = malloc((net->ns > 0 ? (size_t)net->ns : 1) * sizeof *w->ss);
  if (!w->ps || !w->ss) return MBDAE_ERR_MEMORY;
  int oR = net->off_r, oV = net->off_v, oL = net->off_lam;
  for (int k = 0; k < net->np; ++k) {
    sn_point_slots *q = &w->ps[k];
    for (int a = 0; a < 3; ++a) {
      q->rr[a] = sn_pattern_slot(p, oR + 3 * k + a, oR + 3 * k + a);
      q->rv[a] = sn_pattern_slot(p, oR + 3 * k + a, oV + 3 * k + a);
      if (q->rr[a] < 0 || q->rv[a] < 0) return MBDAE_ERR_ARGUMENT;
      for (int b = 0; b < 3; ++b) {
        q->vr[3 * a + b] = sn_pattern_slot(p, oV + 3 * k + a, oR + 3 * k + b);
        q->vv[3 * a + b] = sn_pattern_slot(p, oV + 3 * k + a, oV + 3 * k + b);
      }
    }
  }
  for (int s = 0; s < net->ns; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    sn_string_slots *q = &w->ss[s];
    for (int c = 0; c < 3; ++c) {
      q->vi_ri[c] = sn_pattern_slot(p, oV + 3 * i + c, oR + 3 * i + c);
      q->vi_rj[c] = sn_pattern_slot(p, oV + 3 * i + c, oR + 3 * j + c);
      q->vj_ri[c] = sn_pattern_slot(p, oV + 3 * j + c, oR + 3 * i + c);
      q->vj_rj[c] = sn_pattern_slot(p, oV + 3 * j + c, oR + 3 * j + c);
      q->vi_l[c] = sn_pattern_slot(p, oV + 3 * i + c, oL + s);
      q->vj_l[c] = sn_pattern_slot(p, oV + 3 * j + c, oL + s);
      q->l_ri[c] = sn_pattern_slot(p, oL + s, oR + 3 * i + c);
      q->l_rj[c] = sn_pattern_slot(p, oL + s, oR + 3 * j + c);
      q->l_vi[c] = sn_pattern_slot(p, oL + s, oV + 3 * i + c);
      q->l_vj[c] = sn_pattern_slot(p, oL + s, oV + 3 * j + c);
      if (q->vi_ri[c] < 0 || q->vi_rj[c] < 0 || q->vj_ri[c] < 0 || q->vj_rj[c] < 0 ||
          q->vi_l[c] < 0 || q->vj_l[c] < 0 || q->l_ri[c] < 0 || q->l_rj[c] < 0 ||
          q->l_vi[c] < 0 || q->l_vj[c] < 0)
        return MBDAE_ERR_ARGUMENT;
    }
    q->l_l = sn_pattern_slot(p, oL + s, oL + s);
    if (q->l_l < 0) return MBDAE_ERR_ARGUMENT;
  }
  if (net->form == SN_FORM_GGL) {
    int rc = sn_ggl_jacobian_bind(net, p);
    if (rc) return rc;
  }
  w->bound = 1;
  return 0;
}

int sn_net_jacobian(sn_net *net, double t, double cj, const double *y,
                    const double *yp, double *vals) {
  sn_workspace *w = net->ws;
  if (net->form == SN_FORM_ODE || !w->bound) return MBDAE_ERR_ARGUMENT;
  const double *R = y + net->off_r, *V = y + net->off_v, *lam = y + net->off_lam;
  const double *Vp = yp + net->off_v;
  sn_state_modes(net, R);
  for (int k = 0; k < net->np; ++k) {
    const sn_point_slots *q = &w->ps[k];
    double f[3], dfdr[9], dfdv[9];
    memset(dfdr, 0, sizeof dfdr);
    memset(dfdv, 0, sizeof dfdv);
    if (net->force.fn) {
      int rc = net->force.fn(k, t, R + 3 * k, V + 3 * k, f, dfdr, dfdv, net->force.user);
      if (rc) return rc;
    }
    for (int a = 0; a < 3; ++a) {
      vals[q->rr[a]] += cj;   /* F_R = R' - V */
      vals[q->rv[a]] -= 1.0;
      vals[q->vv[4 * a]] += cj * net->m[k];
      for (int b = 0; b < 3; ++b) {
        if (q->vr[3 * a + b] >= 0) vals[q->vr[3 * a + b]] -= dfdr[3 * a + b];
        if (q->vv[3 * a + b] >= 0) vals[q->vv[3 * a + b]] -= dfdv[3 * a + b];
      }
    }
  }
  for (int s = 0; s < net->ns; ++s) {
    const sn_string_slots *q = &w->ss[s];
    int i = net->s[s].i, j = net->s[s].j;
    double S[3], W[3];
    str_SW(net, s, R, V, S, W);
    double l2 = 2.0 * lam[s];
    for (int c = 0; c < 3; ++c) {
      vals[q->vj_rj[c]] -= l2;
      vals[q->vj_ri[c]] += l2;
      vals[q->vi_rj[c]] += l2;
      vals[q->vi_ri[c]] -= l2;
      vals[q->vj_l[c]] -= 2.0 * S[c];
      vals[q->vi_l[c]] += 2.0 * S[c];
    }
    if (net->form == SN_FORM_GGL) continue; /* its rows: sn_ggl_jacobian */
    if (!net->taut[s]) {
      vals[q->l_l] += 1.0;
      continue;
    }
    double xi, wn;
    str_stab(net, s, &xi, &wn);
    for (int c = 0; c < 3; ++c) {
      double dr = (Vp[3 * j + c] - Vp[3 * i + c]) + 2.0 * xi * wn * W[c] + wn * wn * S[c];
      double dv = 2.0 * W[c] + 2.0 * xi * wn * S[c] + cj * S[c];
      vals[q->l_rj[c]] += dr;
      vals[q->l_ri[c]] -= dr;
      vals[q->l_vj[c]] += dv;
      vals[q->l_vi[c]] -= dv;
    }
  }
  if (net->form == SN_FORM_GGL) sn_ggl_jacobian(net, y, vals);
  return 0;
}
