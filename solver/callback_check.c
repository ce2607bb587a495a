/* callback_check.c - a model callback that returns 0 but fills its output
 * with NaN or inf (a user force gone wrong) is caught where it happens:
 * the first such value since the last advance is noted (callback, entry,
 * time) and the evaluation is reported to the integrator as a recoverable
 * failure, so a NaN at a trial point of too large a step still just cuts
 * the step; when the integrator gives up, the failure message names the
 * callback and the time (mbdae_engine_nonfinite_failure). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine_impl.h"
#include "mbdae/status.h"

int mbdae_engine_check_finite(mbdae_engine *e, const char *callback, const char *entry,
                              double t, const double *out, int rc) {
  /* every backend's model evaluations pass here: an interruption is seen
   * within one of them, however long the output interval */
  if (mbdae_options_cancelled(e->o)) {
    e->interrupted = 1;
    return -1;
  }
  if (rc != 0) return rc;
  for (int i = 0; i < e->n; ++i)
    if (!isfinite(out[i])) {
      if (!e->nonfinite[0])
        snprintf(e->nonfinite, sizeof e->nonfinite,
                 "the model's %s returned %s in %s[%d] at t=%.12g", callback,
                 isnan(out[i]) ? "NaN" : "inf", entry, i, t);
      return 1;
    }
  return 0;
}

int mbdae_engine_nonfinite_failure(mbdae_engine *e, int status) {
  if (!e->nonfinite[0] || status == MBDAE_OK) return status;
  char why[sizeof e->msg];
  snprintf(why, sizeof why, "%s", e->msg);
  snprintf(e->msg, sizeof e->msg, "%s; %.*s", e->nonfinite,
           (int)(sizeof e->msg - sizeof e->nonfinite - 3), why);
  return MBDAE_ERR_CALLBACK;
}
