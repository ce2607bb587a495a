/* report.c - accumulate validation rows (reference, computed, tolerance). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "mbdae/validation.h"

int mbdae_validation_add(mbdae_validation_report *rep, const char *quantity,
                         double reference, double computed, double tol,
                         int rel) {
  if (!rep || !quantity) return MBDAE_ERR_ARGUMENT;
  if (rep->nrows == rep->cap) {
    int cap = rep->cap ? 2 * rep->cap : 16;
    mbdae_validation_row *rows = realloc(rep->rows, (size_t)cap * sizeof *rows);
    if (!rows) return MBDAE_ERR_MEMORY;
    rep->rows = rows;
    rep->cap = cap;
  }
  mbdae_validation_row *r = &rep->rows[rep->nrows++];
  snprintf(r->quantity, sizeof r->quantity, "%s", quantity);
  r->reference = reference;
  r->computed = computed;
  double d = fabs(computed - reference);
  r->relative = rel != 0;
  r->error = (rel && reference != 0.0) ? d / fabs(reference) : d;
  r->tolerance = tol;
  r->pass = isfinite(computed) && r->error <= tol; /* NaN never passes */
  return MBDAE_OK;
}

void mbdae_validation_report_clear(mbdae_validation_report *rep) {
  if (!rep) return;
  free(rep->rows);
  memset(rep, 0, sizeof *rep);
}
