/* moreau_ledger.h - the energy ledger of an event-capturing run (method
 * moreau) as series columns: kinetic and potential energy at each row, the
 * work of the applied forces and of the impulses and the scheme's damping
 * summed from t0, the largest rise of kinetic + potential over one step and
 * the largest constraint violation since the previous row, the last step's
 * index set. Fed by the engine's step observer (doc/moreau.md). */
#ifndef MBDAE_DRIVER_MOREAU_LEDGER_H
#define MBDAE_DRIVER_MOREAU_LEDGER_H

#include "mbdae/engine.h"
#include "mbdae/model.h"

#define MBDAE_LEDGER_NCOLS 8

typedef struct mbdae_ledger {
  double work_applied, work_impulses, dissipated; /* sums from t0 */
  double max_rise, violation;  /* since the previous row */
  int index_set, fresh;        /* last step's set; 1: maxima restart at the next step */
  int steps_since_row;
} mbdae_ledger;

/* Fill cols[0..MBDAE_LEDGER_NCOLS) with the names and units. */
void mbdae_ledger_columns(mbdae_column *cols);
/* Start: sums from earlier segments (a resumed run's statistics). */
void mbdae_ledger_start(mbdae_ledger *l, const mbdae_stats *earlier);
/* The engine's step observer (user_data: the ledger). */
int mbdae_ledger_step(const mbdae_step_record *r, void *user_data);
/* The row values at (t, y): energies evaluated there, the rest as kept. */
int mbdae_ledger_row(mbdae_ledger *l, const mbdae_problem *p, double t, const double *y,
                     double *dst);

#endif
