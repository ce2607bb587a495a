/* ravine_sim.h - run the ravine model directly (no scenario file) and keep
 * its event log: shared by the ravine validation cases and tests. */
#ifndef RAVINE_SIM_H
#define RAVINE_SIM_H

#include "mbdae/engine.h"
#include "ravine/ravine.h"

#define RAVINE_SIM_MAX_EVENTS 512

typedef struct ravine_sim_event {
  double t;
  char label[32];
  char mode_before[24], mode_after[24];
  double E_before, E_after;
  int ndata;
  double data[MBDAE_EVENT_DATA_MAX];
  double y[9];
} ravine_sim_event;

typedef struct ravine_sim {
  int status;
  double y[9];              /* final state */
  mbdae_stats stats;
  int nevents;              /* logged (at most RAVINE_SIM_MAX_EVENTS) */
  ravine_sim_event ev[RAVINE_SIM_MAX_EVENTS];
  int noutcomes;
  mbdae_outcome out[16];
} ravine_sim;

/* Default parameters of the thesis's sec. 4.2 example (rolling start). */
void ravine_sim_default_params(ravine_params *p);
/* Run p to t_end with method (rtol 1e-10 adaptive, or rk4_step for RK4). */
int ravine_sim_run(const ravine_params *p, mbdae_method method, double t_end,
                   double rk4_step, ravine_sim *out);
/* Value of outcome name in a finished simulation (NAN if absent). */
double ravine_sim_outcome(const ravine_sim *s, const char *name);

#endif
