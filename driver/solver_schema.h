/* solver_schema.h - the driver's own schema for the `solver:` and `output:`
 * sections of a scenario (same spec type as a model's parameters). */
#ifndef MBDAE_DRIVER_SOLVER_SCHEMA_H
#define MBDAE_DRIVER_SOLVER_SCHEMA_H

#include "mbdae/engine.h"
#include "mbdae/model.h"

/* `solver:` values as the schema fills them (ints for enums and counts);
 * converted to mbdae_options by mbdae_solver_fields_apply. */
typedef struct mbdae_solver_fields {
  int method, linsol, ordering;
  double t0, t_end, dt_out, rtol, atol, rk4_step, h_init, h_max, jac_reuse_cj,
         restart_step;
  int max_steps, max_order, suppress_alg, max_events, window_events;
  double window_length, consistency_tol;
  int calcic_fallback;
  double root_band, event_window;
  double theta, moreau_step, activation, nonsmooth_tol;
  int nonsmooth_max_iter, projection;
  double projection_tol;
  int arkode_table, restart_policy;
  int arkode_reduce, arkode_newton_iters, arkode_setup_every, arkode_jac_every;
  int arkode_newton;
} mbdae_solver_fields;

/* `output:` values other than the directory (a string, handled apart). */
typedef struct mbdae_output_fields {
  int plots;
  int every;
  int event_rows;
  int format;       /* mbdae_output_format */
  int vtk;          /* VTK frames of the scene (kinds with geometry) */
  int animation;    /* the scene as PNG frames and an animated GIF (gnuplot) */
} mbdae_output_fields;

/* `output.format`: which files hold the series and the events (summary.json
 * is always written). */
typedef enum mbdae_output_format {
  MBDAE_OUTPUT_CSV = 0,  /* series.csv, events.csv (and the plots drawn from them) */
  MBDAE_OUTPUT_MAT = 1,  /* results.mat only */
  MBDAE_OUTPUT_BOTH = 2  /* both */
} mbdae_output_format;

extern const mbdae_param_spec mbdae_solver_specs[];
extern const int mbdae_solver_nspecs;
extern const mbdae_param_spec mbdae_output_specs[];
extern const int mbdae_output_nspecs;

/* The engine's defaults (mbdae_options_default) as fields. */
void mbdae_solver_fields_default(mbdae_solver_fields *f);
/* The fields of the options o (the inverse of mbdae_solver_fields_apply). */
void mbdae_solver_fields_from_options(mbdae_solver_fields *f, const mbdae_options *o);
/* Copy the fields into o (callbacks and atol_vec untouched). */
void mbdae_solver_fields_apply(const mbdae_solver_fields *f, mbdae_options *o);
/* A copy of spec whose `def` is the engine's current default (for listings). */
mbdae_param_spec mbdae_solver_spec_with_default(const mbdae_param_spec *spec);

#endif
