/* billiard_run.h - run the billiard model kind through the engine and hand
 * every collision to a callback (validation cases, tests, benchmarks). */
#ifndef BILLIARD_RUN_H
#define BILLIARD_RUN_H

#include <stddef.h>

#include "mbdae/engine.h"
#include "billiard/billiard.h"

/* Called after every collision with the event record (data = the model's
 * event columns) and the post-impact state; return 0 to go on, > 0 to stop. */
typedef int (*billiard_collision_fn)(const mbdae_event_record *ev,
                                     const double *y, void *user_data);

typedef struct billiard_run_cfg {
  mbdae_method method;    /* cvode-adams, cvode-bdf, ida or rk4 */
  double rtol, atol;
  double t_end;           /* the collision count of the parameters stops first */
  double rk4_step;
  billiard_collision_fn on_collision;
  void *user_data;
  char *msg;              /* optional: the engine's failure message */
  size_t msglen;
} billiard_run_cfg;

/* Fill cfg: CVODE Adams, rtol 1e-10, atol 1e-12, t_end 1e5 s. */
void billiard_run_cfg_default(billiard_run_cfg *cfg);

/* Build the model from p, run it, and return the engine status
 * (MBDAE_STOPPED when the collision count was reached). y_final (5 values)
 * and stats may be NULL; err receives parameter errors. */
int billiard_run(const billiard_params *p, const billiard_run_cfg *cfg,
                 double *y_final, mbdae_stats *stats, mbdae_param_error *err);

#endif
