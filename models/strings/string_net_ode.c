/* string_net_ode.c - the ODE form (CVODE, RK4): the multipliers solved at
 * each evaluation and the right-hand side R' = V, V' = M^-1 (F + G lambda)
 * (capps eqs. 2.3, 2.6, 2.21). */
#include "strings/string_net_internal.h"

#include <string.h>

/* a = M^-1 (F + sum_s lambda_s grad phi_s): the points' accelerations
 * (capps eqs. 2.3, 2.6) with the forces F and the multipliers lam. */
void sn_point_accelerations(const sn_net *net, const double *R, const double *F,
                            const double *lam, double *a) {
  memcpy(a, F, 3 * (size_t)net->np * sizeof *a);
  for (int s = 0; s < net->ns; ++s) {
    if (lam[s] == 0.0) continue;
    int i = net->s[s].i, j = net->s[s].j;
    double S[3];
    str_SW(net, s, R, NULL, S, NULL);
    for (int c = 0; c < 3; ++c) {
      a[3 * j + c] += 2.0 * lam[s] * S[c];
      a[3 * i + c] -= 2.0 * lam[s] * S[c];
    }
  }
  for (int q = 0; q < 3 * net->np; ++q) a[q] /= net->m[q / 3];
}

/* The multipliers of the ODE form: the active set, or the unilateral LCP. */
int sn_multipliers_ode(sn_net *net, const double *R, const double *V,
                       const double *F, double *lambda) {
  if (net->hold == SN_HOLD_ELASTIC) return sn_elastic_multipliers(net, R, V, lambda);
  if (net->unilateral && net->hold == SN_HOLD_BAUMGARTE)
    return sn_multipliers_unilateral(net, R, V, F, lambda);
  return sn_multipliers_F(net, R, V, F, net->taut, lambda);
}

int sn_net_multipliers(sn_net *net, double t, const double *R, const double *V,
                       const double *fext, double *lambda) {
  sn_state_modes(net, R);
  int rc = sn_eval_forces(net, t, R, V, fext, net->ws->F);
  if (rc) return rc;
  return sn_multipliers_ode(net, R, V, net->ws->F, lambda);
}

int sn_net_rhs(sn_net *net, double t, const double *y, const double *fext,
               double *ydot, double *lambda_out) {
  const double *R = y + net->off_r, *V = y + net->off_v;
  sn_state_modes(net, R);
  int np = net->np;
  int rc = sn_eval_forces(net, t, R, V, fext, net->ws->F);
  if (rc) return rc;
  double *lam = lambda_out ? lambda_out : net->ws->lam;
  rc = sn_multipliers_ode(net, R, V, net->ws->F, lam);
  if (rc) return rc < 0 ? rc : 1;
  double *Rd = ydot + net->off_r;
  memcpy(Rd, V, 3 * (size_t)np * sizeof *Rd);
  sn_point_accelerations(net, R, net->ws->F, lam, ydot + net->off_v);
  return 0;
}
