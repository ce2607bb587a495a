/* validation/rover_sim.h - run the rover in either formulation through the
 * engine and sample physical quantities on a fixed grid (shared by the
 * rover validation cases, tests and benchmark). */
#ifndef MBDAE_VALIDATION_ROVER_SIM_H
#define MBDAE_VALIDATION_ROVER_SIM_H

#include "mbdae/engine.h"
#include "rover/rover.h"

/* Sampled quantities (formulation independent). */
enum {
  RS_W0 = 0, RS_W1, RS_W2, RS_PHID, RS_VX, RS_VY, RS_X, RS_Y, RS_CPHI,
  RS_SPHI, RS_SBETA, RS_THP, RS_V, RS_EDISS, RS_WWIND, RS_EGEN, RS_SLIP,
  RS_FCX, RS_FCY, RS_FCZ, RS_HDRIFT, RS_NQ
};
/* The quantities compared between formulations: RS_W0 .. RS_SBETA. */
enum { RS_NCMP = RS_SBETA + 1 };

typedef struct rover_sim {
  int n, cap;
  double *t;        /* n sample times */
  double *q;        /* n x RS_NQ */
  mbdae_stats stats;
  int status;
  char msg[256];
} rover_sim;

/* Integrate p from t0 to t_end with `method` (IDA: DAE form; CVODE/RK4:
 * null-space ODE), sampling every dt_out. Returns the engine status (also in
 * sim->status); sim must be zero-initialised or freed before reuse. */
int rover_sim_run(const rover_params *p, mbdae_method method, double t0,
                  double t_end, double dt_out, double rtol, double atol,
                  double rk4_step, rover_sim *sim);
void rover_sim_free(rover_sim *sim);

/* Largest difference between two runs on the same grid over samples with
 * t <= t_max, per quantity relative to max(1, max |a_k| over the run);
 * *worst_q receives the quantity index. */
double rover_sim_compare(const rover_sim *a, const rover_sim *b, double t_max,
                         int *worst_q);
/* First time after which the two runs differ by more than tol (as above);
 * returns a->t[n-1] + 1 when they never do. */
double rover_sim_parting_time(const rover_sim *a, const rover_sim *b,
                              double tol);

#endif
