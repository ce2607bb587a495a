/* capture_control.c - thrust laws of capps ch. 4 as force callbacks:
 * the closed-form minimum-thrust law for the free net (eqs. 4.12-4.23) and
 * the target of the error-stabilising law (eqs. 4.30-4.42, capture_model.c). */
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
#include "mbdae/status.h"

/* Minimising 1/2 int U^T U dt for M V' = U with R, V fixed at 0 and t_f
 * gives a thrust linear in time, U = M (alpha + beta t). The boundary
 * conditions (4.13-4.16) give, per coordinate, with dV = V_f - V_0 and
 * dR = R_f - R_0 - V_0 t_f:
 *   alpha = 6 dR / t_f^2 - 2 dV / t_f     (= nu_20 of eq. 4.23)
 *   beta  = 6 dV / t_f^2 - 12 dR / t_f^3  (= -nu_1 of eq. 4.23)
 * i.e. U = M (nu_20 - nu_1 t), the acceleration that (4.18) integrates.
 * Eq. (4.12) prints U = -M(-nu_1 t + nu_20), the opposite sign: (4.17) ->
 * (4.18) flips it, so (4.12) with (4.23) would drive the net away. */
void capture_control_setup(capture_model *m, double t0, const double *y) {
  const capture_params *p = &m->p;
  int np3 = 3 * m->np;
  m->ctrl_t0 = t0;
  for (int i = 0; i < m->np; ++i)
    for (int c = 0; c < 3; ++c) {
      m->ctrl_Rf[3 * i + c] = p->target_center[c] + m->grid[3 * i + c];
      m->ctrl_Vf[3 * i + c] = p->target_velocity[c];
    }
  double tf = p->control_tf;
  for (int i = 0; i < np3; ++i) {
    double R0 = y[i], V0 = y[np3 + i];
    double dV = m->ctrl_Vf[i] - V0, dR = m->ctrl_Rf[i] - R0 - V0 * tf;
    m->ctrl_alpha[i] = 6.0 * dR / (tf * tf) - 2.0 * dV / tf;
    m->ctrl_beta[i] = 6.0 * dV / (tf * tf) - 12.0 * dR / (tf * tf * tf);
  }
  memset(m->ctrl_last, 0, (size_t)np3 * sizeof *m->ctrl_last);
}

int capture_control_force(capture_model *m, double t, const double *y, double *U) {
  (void)y;
  int np3 = 3 * m->np;
  double tau = t - m->ctrl_t0;
  if (m->p.control == CAPTURE_CONTROL_MIN_THRUST) {
    double tend = m->p.control_t_end > 0.0 ? m->p.control_t_end : m->p.control_tf;
    if (tau < 0.0 || tau > tend) { memset(U, 0, (size_t)np3 * sizeof *U); return 0; }
    for (int i = 0; i < np3; ++i)
      U[i] = (m->ctrl_alpha[i] + m->ctrl_beta[i] * tau) / m->minv[i / 3];
    return 0;
  }
  if (m->p.control == CAPTURE_CONTROL_ERROR_STAB) {
    memcpy(U, m->ctrl_last, (size_t)np3 * sizeof *U);
    return 0;
  }
  memset(U, 0, (size_t)np3 * sizeof *U);
  return 0;
}
