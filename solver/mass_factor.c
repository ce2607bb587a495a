/* mass_factor.c - W prepared for the one-step solves (mass_factor.h). */
#include "mass_factor.h"

#include <stdio.h>

int ns_mass_analyse(int nv, int *wp, int *wi, int *wdpos, int *w_diag, klu_symbolic **wsym,
                    klu_common *common, char *msg, size_t msglen) {
  *w_diag = wp[nv] == nv;
  for (int j = 0; j < nv; ++j) {
    wdpos[j] = -1;
    for (int k = wp[j]; k < wp[j + 1]; ++k)
      if (wi[k] == j) wdpos[j] = k;
  }
  klu_defaults(common);
  if (*w_diag) return 0;
  *wsym = klu_analyze(nv, wp, wi, common);
  if (!*wsym) {
    snprintf(msg, msglen, "KLU could not analyse the mass matrix pattern (status %d)",
             common->status);
    return -1;
  }
  return 0;
}

int ns_mass_factor(int nv, int w_diag, int *wp, int *wi, const int *wdpos, const double *Wx,
                   klu_symbolic *wsym, klu_numeric **wnum, klu_common *common, double *wdiag,
                   char *msg, size_t msglen) {
  for (int j = 0; j < nv; ++j) wdiag[j] = Wx[wdpos[j]];
  if (!w_diag) {
    if (*wnum) klu_free_numeric(wnum, common);
    *wnum = klu_factor(wp, wi, (double *)Wx, wsym, common);
    if (!*wnum || common->status != KLU_OK) {
      snprintf(msg, msglen, "the mass (iteration) matrix is singular (KLU status %d)",
               common->status);
      return -2;
    }
    return 0;
  }
  for (int j = 0; j < nv; ++j)
    if (!(wdiag[j] > 0.0)) {
      snprintf(msg, msglen, "mass matrix entry (%d, %d) is %g, not positive", j, j, wdiag[j]);
      return -2;
    }
  return 0;
}
