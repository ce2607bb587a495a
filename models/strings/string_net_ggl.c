/* string_net_ggl.c - the GGL form of exact taut strings (Gear, Gupta and
 * Leimkuhler 1985): a taut string holds its length and its velocity
 * constraint, phi_s = 0 and grad phi_s . V = 0, with a second multiplier
 * mu_s that projects the positions (R' = V + sum mu_s grad phi_s; mu = 0 on
 * the exact solution). Index 2: no acceleration-level row, so no drift
 * control and no omega to be stiff, and nothing of the constraint's fast
 * mode left for BDF's error test (lambda and mu are kept out of it).
 * The F_V rows and the lambda coupling are the DAE form's
 * (string_net_dae.c, string_net_dae_jacobian.c); this file adds the rest. */
#include "strings/string_net_internal.h"

#include <stdlib.h>

#include "mbdae/status.h"

void sn_ggl_residual_rows(sn_net *net, const double *y, double *res) {
  const double *R = y + net->off_r, *V = y + net->off_v;
  const double *lam = y + net->off_lam, *mu = y + net->off_mu;
  double *FR = res + net->off_r, *FL = res + net->off_lam, *FM = res + net->off_mu;
  for (int s = 0; s < net->ns; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    double S[3], W[3];
    str_SW(net, s, R, V, S, W);
    for (int c = 0; c < 3; ++c) { /* R' = V + G mu */
      FR[3 * j + c] -= 2.0 * mu[s] * S[c];
      FR[3 * i + c] += 2.0 * mu[s] * S[c];
    }
    if (!net->taut[s]) {
      FL[s] = lam[s];
      FM[s] = mu[s];
      continue;
    }
    FL[s] = dot3(S, W);                                           /* phi'/2 = 0 */
    FM[s] = 0.5 * (dot3(S, S) - net->s[s].L * net->s[s].L);      /* phi/2 = 0 */
  }
}

int sn_ggl_pattern_add(const sn_net *net, sn_pattern *p) {
  int rc = 0;
  int oR = net->off_r, oM = net->off_mu;
  for (int s = 0; s < net->ns && !rc; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    for (int c = 0; c < 3; ++c) {
      rc |= sn_pattern_add(p, oR + 3 * i + c, oR + 3 * i + c);
      rc |= sn_pattern_add(p, oR + 3 * i + c, oR + 3 * j + c);
      rc |= sn_pattern_add(p, oR + 3 * j + c, oR + 3 * i + c);
      rc |= sn_pattern_add(p, oR + 3 * j + c, oR + 3 * j + c);
      rc |= sn_pattern_add(p, oR + 3 * i + c, oM + s);
      rc |= sn_pattern_add(p, oR + 3 * j + c, oM + s);
      rc |= sn_pattern_add(p, oM + s, oR + 3 * i + c);
      rc |= sn_pattern_add(p, oM + s, oR + 3 * j + c);
    }
    rc |= sn_pattern_add(p, oM + s, oM + s);
  }
  return rc ? MBDAE_ERR_MEMORY : 0;
}

int sn_ggl_jacobian_bind(sn_net *net, const sn_pattern *p) {
  sn_workspace *w = net->ws;
  free(w->gs);
  w->gs = malloc((net->ns > 0 ? (size_t)net->ns : 1) * sizeof *w->gs);
  if (!w->gs) return MBDAE_ERR_MEMORY;
  int oR = net->off_r, oM = net->off_mu;
  for (int s = 0; s < net->ns; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    sn_ggl_slots *q = &w->gs[s];
    for (int c = 0; c < 3; ++c) {
      q->ri_ri[c] = sn_pattern_slot(p, oR + 3 * i + c, oR + 3 * i + c);
      q->ri_rj[c] = sn_pattern_slot(p, oR + 3 * i + c, oR + 3 * j + c);
      q->rj_ri[c] = sn_pattern_slot(p, oR + 3 * j + c, oR + 3 * i + c);
      q->rj_rj[c] = sn_pattern_slot(p, oR + 3 * j + c, oR + 3 * j + c);
      q->ri_mu[c] = sn_pattern_slot(p, oR + 3 * i + c, oM + s);
      q->rj_mu[c] = sn_pattern_slot(p, oR + 3 * j + c, oM + s);
      q->m_ri[c] = sn_pattern_slot(p, oM + s, oR + 3 * i + c);
      q->m_rj[c] = sn_pattern_slot(p, oM + s, oR + 3 * j + c);
      if (q->ri_ri[c] < 0 || q->ri_rj[c] < 0 || q->rj_ri[c] < 0 || q->rj_rj[c] < 0 ||
          q->ri_mu[c] < 0 || q->rj_mu[c] < 0 || q->m_ri[c] < 0 || q->m_rj[c] < 0)
        return MBDAE_ERR_ARGUMENT;
    }
    q->m_mu = sn_pattern_slot(p, oM + s, oM + s);
    if (q->m_mu < 0) return MBDAE_ERR_ARGUMENT;
  }
  return 0;
}

/* d/dR_j of S.W is W, d/dV_j is S (minus at the tail); d/dR_j of phi/2 is
 * S; F_R = ... - mu grad phi gives the -/+ 2 mu I blocks and -/+ 2S. */
void sn_ggl_jacobian(sn_net *net, const double *y, double *vals) {
  const sn_workspace *w = net->ws;
  const double *R = y + net->off_r, *V = y + net->off_v, *mu = y + net->off_mu;
  for (int s = 0; s < net->ns; ++s) {
    const sn_string_slots *q = &w->ss[s];
    const sn_ggl_slots *g = &w->gs[s];
    double S[3], W[3];
    str_SW(net, s, R, V, S, W);
    double m2 = 2.0 * mu[s];
    for (int c = 0; c < 3; ++c) {
      vals[g->rj_rj[c]] -= m2;
      vals[g->rj_ri[c]] += m2;
      vals[g->ri_rj[c]] += m2;
      vals[g->ri_ri[c]] -= m2;
      vals[g->rj_mu[c]] -= 2.0 * S[c];
      vals[g->ri_mu[c]] += 2.0 * S[c];
    }
    if (!net->taut[s]) {
      vals[q->l_l] += 1.0;
      vals[g->m_mu] += 1.0;
      continue;
    }
    for (int c = 0; c < 3; ++c) {
      vals[q->l_rj[c]] += W[c];
      vals[q->l_ri[c]] -= W[c];
      vals[q->l_vj[c]] += S[c];
      vals[q->l_vi[c]] -= S[c];
      vals[g->m_rj[c]] += S[c];
      vals[g->m_ri[c]] -= S[c];
    }
  }
}
