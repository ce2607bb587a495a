/* kind_helpers.c - small pieces every model kind's table uses. */
#include <stdio.h>

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
