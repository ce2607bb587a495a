/* kind_table.c - small pieces every model kind's table uses: column tables,
 * outcomes, the build-failure report. */
#include <math.h>
#include <stdio.h>

#include "mbdae/engine.h"
#include "mbdae/model.h"
#include "mbdae/status.h"

int mbdae_columns_copy(const mbdae_column *src, int n, mbdae_column *cols,
                       int max) {
  if (!cols) return n;
  int k = n < max ? n : max;
  for (int i = 0; i < k; ++i) cols[i] = src[i];
  return k;
}

void mbdae_outcome_set(mbdae_outcome *o, const char *name, const char *unit,
                       double value) {
  snprintf(o->name, sizeof o->name, "%s", name);
  snprintf(o->unit, sizeof o->unit, "%s", unit);
  o->value = value;
  o->undefined = 0;
}

int mbdae_state_finite(const double *v, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (!isfinite(v[i])) return 0;
  return 1;
}

int mbdae_param_check_memory(mbdae_param_error *err, const char *key, double bytes,
                             const char *what) {
  double avail = mbdae_memory_available();
  if (!(bytes > 0.5 * avail)) return MBDAE_OK;
  if (err) {
    err->key = key;
    snprintf(err->msg, sizeof err->msg,
             "%s needs about %.3g GB of memory, more than half of the %.3g GB available",
             what ? what : "this size", 1e-9 * bytes, 1e-9 * avail);
  }
  return MBDAE_ERR_PARAMETER;
}

int mbdae_param_error_build_failed(mbdae_param_error *err, const char *what,
                                   int rc) {
  if (err) {
    err->key = "model";
    snprintf(err->msg, sizeof err->msg, "cannot build the %s: %s", what,
             mbdae_status_message(rc));
  }
  return rc;
}
