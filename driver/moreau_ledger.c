/* moreau_ledger.c - energy ledger columns of a moreau run (moreau_ledger.h). */
#include "moreau_ledger.h"

#include <stdio.h>
#include <string.h>

#include "mbdae/mechanics.h"
#include "mbdae/status.h"

void mbdae_ledger_columns(mbdae_column *cols) {
  static const mbdae_column c[MBDAE_LEDGER_NCOLS] = {
    {"energy_kinetic", "J"},    {"energy_potential", "J"}, {"work_applied", "J"},
    {"work_impulses", "J"},     {"dissipated_scheme", "J"}, {"max_step_energy_rise", "J"},
    {"max_violation", "-"},     {"index_set", "-"}};
  memcpy(cols, c, sizeof c);
}

void mbdae_ledger_start(mbdae_ledger *l, const mbdae_stats *earlier) {
  memset(l, 0, sizeof *l);
  if (earlier) {
    l->work_applied = earlier->work_applied;
    l->work_impulses = earlier->work_impulses;
    l->dissipated = earlier->dissipated_scheme;
  }
  l->fresh = 1;
}

int mbdae_ledger_step(const mbdae_step_record *r, void *user_data) {
  mbdae_ledger *l = user_data;
  l->work_applied += r->work_applied;
  l->work_impulses += r->work_impulses;
  l->dissipated += r->dissipated_scheme;
  if (l->fresh || r->energy_rise > l->max_rise) l->max_rise = r->energy_rise;
  if (l->fresh || r->violation > l->violation) l->violation = r->violation;
  l->fresh = 0;
  l->index_set = r->index_set;
  l->steps_since_row++;
  return 0;
}

int mbdae_ledger_row(mbdae_ledger *l, const mbdae_problem *p, double t, const double *y,
                     double *dst) {
  double K = 0.0, V = 0.0;
  int rc = mbdae_mechanics_energy(p, t, y, &K, &V);
  if (rc) return rc;
  dst[0] = K;
  dst[1] = V;
  dst[2] = l->work_applied;
  dst[3] = l->work_impulses;
  dst[4] = l->dissipated;
  dst[5] = l->steps_since_row ? l->max_rise : 0.0; /* no step since the last row */
  dst[6] = l->steps_since_row ? l->violation : 0.0;
  dst[7] = l->index_set;
  l->fresh = 1;
  l->steps_since_row = 0;
  return MBDAE_OK;
}
