/* problem_repair.c - repairs of the state an event handler reports (a
 * penetration removed, a projection onto held constraints). The engine
 * resets the record before each handler call and fails the event when the
 * largest report exceeds the problem's stated tolerance, so no model can
 * silently "put a body back" after a missed contact (doc/engine.md). */
#include <math.h>
#include <stddef.h>

#include "mbdae/status.h"
#include "problem_impl.h"

int mbdae_problem_set_repair_tolerance(mbdae_problem *p, double tol) {
  if (!p || !(tol >= 0.0) || !isfinite(tol)) return MBDAE_ERR_ARGUMENT;
  p->repair_tol = tol;
  return MBDAE_OK;
}

double mbdae_problem_repair_tolerance(const mbdae_problem *p) {
  return p ? p->repair_tol : 0.0;
}

int mbdae_problem_report_repair(mbdae_problem *p, double size, const char *what) {
  if (!p) return MBDAE_ERR_ARGUMENT;
  double a = fabs(size);
  /* NaN compares false: it is kept (and fails) */
  if (!isnan(p->repair_max) && !(a <= p->repair_max)) {
    p->repair_max = isnan(size) ? size : a;
    p->repair_what = what ? what : "the state";
  }
  return a <= p->repair_tol ? MBDAE_OK : MBDAE_ERR_INCONSISTENT;
}

void mbdae_problem_repair_reset(mbdae_problem *p) {
  p->repair_max = 0.0;
  p->repair_what = NULL;
}
