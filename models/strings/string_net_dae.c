/* string_net_dae.c - the DAE form (IDA): the residual with the multipliers
 * as unknowns (capps eqs. 2.3, 2.6, 2.15, 3.2) and a consistent state; the
 * GGL form shares the F_R and F_V rows (string_net_ggl.c writes the rest). */
#include "strings/string_net_internal.h"

#include "mbdae/status.h"

int sn_net_residual(sn_net *net, double t, const double *y, const double *yp,
                    double *res) {
  if (net->form == SN_FORM_ODE) return MBDAE_ERR_UNSUPPORTED;
  const double *R = y + net->off_r, *V = y + net->off_v, *lam = y + net->off_lam;
  const double *Rp = yp + net->off_r, *Vp = yp + net->off_v;
  sn_state_modes(net, R);
  double *FR = res + net->off_r, *FV = res + net->off_v, *FL = res + net->off_lam;
  int np = net->np;
  int rc = sn_eval_forces(net, t, R, V, NULL, net->ws->F);
  if (rc) return rc;
  const double *F = net->ws->F;
  for (int q = 0; q < 3 * np; ++q) {
    FR[q] = Rp[q] - V[q];                  /* capps eq. 2.3 */
    FV[q] = net->m[q / 3] * Vp[q] - F[q];  /* capps eq. 2.6 ... */
  }
  for (int s = 0; s < net->ns; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    double S[3], W[3];
    str_SW(net, s, R, V, S, W);
    for (int c = 0; c < 3; ++c) { /* ... - Phi_R lambda */
      FV[3 * j + c] -= 2.0 * lam[s] * S[c];
      FV[3 * i + c] += 2.0 * lam[s] * S[c];
    }
    if (net->form == SN_FORM_GGL) continue;
    if (!net->taut[s]) {
      FL[s] = lam[s];
      continue;
    }
    double xi, wn, sa = 0.0;
    str_stab(net, s, &xi, &wn);
    for (int c = 0; c < 3; ++c) sa += S[c] * (Vp[3 * j + c] - Vp[3 * i + c]);
    double phi = dot3(S, S) - net->s[s].L * net->s[s].L;
    /* phi''/2 = -(xi w phi' + w^2 phi / 2): capps eqs. 2.15, 3.2 */
    FL[s] = sa + dot3(W, W) + 2.0 * xi * wn * dot3(S, W) + 0.5 * wn * wn * phi;
  }
  if (net->form == SN_FORM_GGL) sn_ggl_residual_rows(net, y, res);
  return 0;
}

int sn_net_consistent(sn_net *net, double t, double *y, double *yp,
                      const double *fext) {
  if (net->form == SN_FORM_ODE) return MBDAE_ERR_UNSUPPORTED;
  double *lam = y + net->off_lam;
  int rc = sn_net_multipliers(net, t, y + net->off_r, y + net->off_v, fext, lam);
  if (rc) return rc < 0 ? rc : MBDAE_ERR_SOLVER;
  const double *R = y + net->off_r, *V = y + net->off_v;
  double *Rp = yp + net->off_r, *Vp = yp + net->off_v;
  const double *F = net->ws->F; /* includes fext */
  for (int q = 0; q < 3 * net->np; ++q) {
    Rp[q] = V[q];
    Vp[q] = F[q];
  }
  for (int s = 0; s < net->ns; ++s) {
    yp[net->off_lam + s] = 0.0;
    if (net->form == SN_FORM_GGL) y[net->off_mu + s] = yp[net->off_mu + s] = 0.0;
    if (lam[s] == 0.0) continue;
    int i = net->s[s].i, j = net->s[s].j;
    double S[3];
    str_SW(net, s, R, NULL, S, NULL);
    for (int c = 0; c < 3; ++c) {
      Vp[3 * j + c] += 2.0 * lam[s] * S[c];
      Vp[3 * i + c] -= 2.0 * lam[s] * S[c];
    }
  }
  for (int q = 0; q < 3 * net->np; ++q) Vp[q] /= net->m[q / 3];
  return 0;
}
