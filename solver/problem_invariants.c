/* problem_invariants.c - read access to a problem's invariants and mode
 * name, so drivers can log them at output times as well as around events. */
#include <stddef.h>

#include "mbdae/status.h"
#include "problem_impl.h"

int mbdae_problem_invariant_count(const mbdae_problem *p,
                                  const char *const **names) {
  if (!p) return 0;
  if (names) *names = p->ninv > 0 ? p->inv_names : NULL;
  return p->invariants ? p->ninv : 0;
}

const char *mbdae_problem_invariant_unit(const mbdae_problem *p, int i) {
  if (!p || !p->invariants || i < 0 || i >= p->ninv || !p->inv_units || !p->inv_units[i])
    return "";
  return p->inv_units[i];
}

int mbdae_problem_eval_invariants(const mbdae_problem *p, double t,
                                  const double *y, const double *yp,
                                  double *out) {
  if (!p || !y || !out) return MBDAE_ERR_ARGUMENT;
  if (!p->invariants || p->ninv <= 0) return MBDAE_OK;
  int rc = p->invariants(t, y, yp, out, p->user_data);
  return rc < 0 ? MBDAE_ERR_CALLBACK : rc;
}

const char *mbdae_problem_mode(const mbdae_problem *p) {
  if (!p || !p->mode_name) return "-";
  const char *m = p->mode_name(p->user_data);
  return m ? m : "-";
}
