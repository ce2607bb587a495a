/* string_net_multipliers.c - the string multipliers for a given active set:
 * A lambda = b (capps eqs. 2.20-2.21 with Baumgarte's nu, eqs. 3.1-3.2),
 * A assembled on its fixed pattern and factored with KLU. */
#include "strings/string_net_internal.h"

#include <klu.h>
#include <math.h>

#include "mbdae/status.h"

/* Assemble A over the strings with active[s] != 0 (identity elsewhere) and
 * factor it. capps eq. 2.20: A = (1/2) Phi_R^T M^-1 Phi_R. */
int sn_factor_A(sn_net *net, const double *R, const unsigned char *active) {
  sn_workspace *w = net->ws;
  for (int t = 0; t < net->ns; ++t) {
    double St[3];
    str_SW(net, t, R, NULL, St, NULL);
    for (int a = w->Ap[t]; a < w->Ap[t + 1]; ++a) {
      int s = w->Ai[a];
      if (!active[s] || !active[t]) {
        w->Ax[a] = (s == t) ? 1.0 : 0.0;
        continue;
      }
      double Ss[3];
      str_SW(net, s, R, NULL, Ss, NULL);
      double v = 0.0, sdot = dot3(Ss, St);
      for (int q = 0; q < 2; ++q) {
        int p = w->shared_p[2 * a + q];
        if (p >= 0) v += 2.0 * w->shared_sg[2 * a + q] * sdot / net->m[p];
      }
      w->Ax[a] = v;
    }
  }
  if (w->num) {
    if (klu_refactor(w->Ap, w->Ai, w->Ax, w->sym, w->num, &w->common) &&
        w->common.status == KLU_OK) {
      /* reused pivot order: check it is still sound */
      if (klu_rcond(w->sym, w->num, &w->common) && w->common.rcond > 1e-12) return 0;
    }
    klu_free_numeric(&w->num, &w->common);
  }
  w->num = klu_factor(w->Ap, w->Ai, w->Ax, w->sym, &w->common);
  if (!w->num) return w->common.status == KLU_OUT_OF_MEMORY ? MBDAE_ERR_MEMORY : 1;
  return 0;
}

int sn_solve_A(sn_net *net, double *x) {
  sn_workspace *w = net->ws;
  if (!klu_solve(w->sym, w->num, net->ns, 1, x, &w->common)) return 1;
  for (int s = 0; s < net->ns; ++s)
    if (!isfinite(x[s])) return 1;
  return 0;
}

/* lambda for the active set `active`, forces F already evaluated. */
int sn_multipliers_F(sn_net *net, const double *R, const double *V,
                     const double *F, const unsigned char *active, double *lambda) {
  if (net->ns == 0) return 0;
  int rc = sn_factor_A(net, R, active);
  if (rc) return rc;
  for (int s = 0; s < net->ns; ++s) {
    if (!active[s]) {
      lambda[s] = 0.0;
      continue;
    }
    int i = net->s[s].i, j = net->s[s].j;
    double S[3], W[3], xi, wn;
    str_SW(net, s, R, V, S, W);
    str_stab(net, s, &xi, &wn);
    double phi = dot3(S, S) - net->s[s].L * net->s[s].L;
    double sa = 0.0;
    for (int c = 0; c < 3; ++c) sa += S[c] * (F[3 * j + c] / net->m[j] - F[3 * i + c] / net->m[i]);
    /* capps eq. 2.21 with nu of eq. 3.2, halved */
    lambda[s] = -sa - dot3(W, W) - 2.0 * xi * wn * dot3(S, W) - 0.5 * wn * wn * phi;
  }
  return sn_solve_A(net, lambda);
}

