/* solver_schema.c - keys, types and bounds of the scenario's `solver:` and
 * `output:` sections; defaults come from the engine (mbdae_options_default). */
#include "solver_schema.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

static const char *const method_names[] = {"ida", "cvode-bdf", "cvode-adams", "rk4", "moreau",
                                           "arkode", NULL};
/* mbdae_arkode_table, in its order */
static const char *const arkode_table_names[] = {
  "esdirk324", "esdirk325", "esdirk32i5", "esdirk436", "esdirk43i6", "qesdirk436", "esdirk437",
  "esdirk547", "esdirk547b", "ark324", "ark436", "ark437", "ark548", "kvaerno423",
  "kvaerno534", "kvaerno745", "trbdf2", NULL};
static const char *const arkode_newton_names[] = {"full", "multiplier", NULL};
static const char *const restart_names[] = {"auto", "solver", NULL}; /* mbdae_restart_policy */
static const char *const linsol_names[] = {"dense", "klu", "spgmr", "spgmr-jacobi", NULL};
static const char *const ordering_names[] = {"amd", "colamd", "natural", "metis", NULL};
static const char *const format_names[] = {"csv", "mat", "both", NULL}; /* mbdae_output_format */

#define OFF(f) offsetof(mbdae_solver_fields, f)
#define INF HUGE_VAL
#define OPEN_LO MBDAE_PARAM_MIN_OPEN
#define OPEN_HI MBDAE_PARAM_MAX_OPEN

/* Defaults (def) are filled from mbdae_options_default at load time. */
const mbdae_param_spec mbdae_solver_specs[] = {
  {"method", MBDAE_PARAM_ENUM, OFF(method), 0, 0, 0, 0, 0, method_names, 0, "",
   "integrator: ida (DAE form), cvode-bdf, cvode-adams, rk4, arkode (ODE form), moreau (event "
   "capturing on the mechanical form)"},
  {"arkode_table", MBDAE_PARAM_ENUM, OFF(arkode_table), 0, 0, 0, 0, 0, arkode_table_names, 0,
   "", "arkode: the L-stable ESDIRK table (doc/arkode.md)"},
  {"arkode_reduce", MBDAE_PARAM_BOOL, OFF(arkode_reduce), 0, 0, 0, 1, 0, NULL, 0, "",
   "arkode, DAE form with klu: solve each Newton system without its kinematic rows q' = v "
   "(exact; doc/arkode.md)"},
  {"arkode_newton", MBDAE_PARAM_ENUM, OFF(arkode_newton), 0, 0, 0, 0, 0, arkode_newton_names, 0,
   "", "arkode, DAE form with klu and arkode_reduce: full (exact Newton matrix) or multiplier "
   "(velocities eliminated through their block's diagonal, one factorisation in the "
   "multipliers; doc/arkode.md)"},
  {"arkode_newton_iters", MBDAE_PARAM_INT, OFF(arkode_newton_iters), 0, 0, 0, 100, 0, NULL, 0,
   "", "arkode: Newton iterations per stage before a convergence failure (0: ARKODE's 3)"},
  {"arkode_setup_every", MBDAE_PARAM_INT, OFF(arkode_setup_every), 0, 0, 0, INT_MAX, 0, NULL,
   0, "", "arkode: at most this many steps between Newton matrix setups (0: ARKODE's 20)"},
  {"arkode_jac_every", MBDAE_PARAM_INT, OFF(arkode_jac_every), 0, 0, 0, INT_MAX, 0, NULL, 0,
   "", "arkode: at most this many steps between Jacobian evaluations (0: ARKODE's 51)"},
  {"linear_solver", MBDAE_PARAM_ENUM, OFF(linsol), 0, 0, 0, 0, 0, linsol_names, 0, "",
   "linear solver of the Newton iteration: dense, klu (sparse), or (ida) spgmr: GMRES "
   "preconditioned by kept KLU factors, spgmr-jacobi: by the diagonal"},
  {"ordering", MBDAE_PARAM_ENUM, OFF(ordering), 0, 0, 0, 0, 0, ordering_names, 0, "",
   "KLU fill-reducing ordering"},
  {"t0", MBDAE_PARAM_DOUBLE, OFF(t0), 0, 0, -INF, INF, 0, NULL, 0, "s", "start time"},
  {"t_end", MBDAE_PARAM_DOUBLE, OFF(t_end), 0, 0, -INF, INF, 0, NULL, 0, "s",
   "end time (> t0)"},
  {"dt_out", MBDAE_PARAM_DOUBLE, OFF(dt_out), OPEN_LO, 0, 0, INF, 0, NULL, 0, "s",
   "output interval"},
  {"rtol", MBDAE_PARAM_DOUBLE, OFF(rtol), OPEN_LO | OPEN_HI, 0, 0, 1, 0, NULL, 0, "",
   "relative tolerance"},
  {"atol", MBDAE_PARAM_DOUBLE, OFF(atol), 0, 0, 0, INF, 0, NULL, 0, "",
   "absolute tolerance"},
  {"rk4_step", MBDAE_PARAM_DOUBLE, OFF(rk4_step), OPEN_LO, 0, 0, INF, 0, NULL, 0, "s",
   "fixed step of the RK4 reference"},
  {"h_init", MBDAE_PARAM_DOUBLE, OFF(h_init), 0, 0, 0, INF, 0, NULL, 0, "s",
   "initial step (0: the solver's choice)"},
  {"h_max", MBDAE_PARAM_DOUBLE, OFF(h_max), 0, 0, 0, INF, 0, NULL, 0, "s",
   "largest step (0: unlimited)"},
  {"max_steps", MBDAE_PARAM_INT, OFF(max_steps), 0, 0, 1, INT_MAX, 0, NULL, 0, "",
   "step limit per output interval (adaptive methods)"},
  {"max_order", MBDAE_PARAM_INT, OFF(max_order), 0, 0, 0, 12, 0, NULL, 0, "",
   "largest method order (0: the solver's default)"},
  {"jac_reuse_cj", MBDAE_PARAM_DOUBLE, OFF(jac_reuse_cj), OPEN_HI, 0, 0, 1, 0, NULL, 0, "",
   "IDA: keep the factorised matrix while cj changes by less than this (0: IDA's 0.25)"},
  {"restart_step", MBDAE_PARAM_DOUBLE, OFF(restart_step), 0, 0, 0, 1, 0, NULL, 0, "",
   "implicit methods: first step after an event as this fraction of the last step (0: "
   "solver.restart decides)"},
  {"restart", MBDAE_PARAM_ENUM, OFF(restart_policy), 0, 0, 0, 0, 0, restart_names, 0, "",
   "implicit methods, restart_step 0: first step after an event of the same local error as "
   "the last (auto), bounded by the next output time, or the integrator's own (solver)"},
  {"suppress_alg", MBDAE_PARAM_BOOL, OFF(suppress_alg), 0, 0, 0, 1, 0, NULL, 0, "",
   "IDA: exclude algebraic variables from the error test"},
  {"max_events", MBDAE_PARAM_INT, OFF(max_events), 0, 0, 0, INT_MAX, 0, NULL, 0, "",
   "total events allowed (0: unlimited)"},
  {"window_events", MBDAE_PARAM_INT, OFF(window_events), 0, 0, 1, INT_MAX, 0, NULL, 0, "",
   "Zeno guard: at most this many events ..."},
  {"window_length", MBDAE_PARAM_DOUBLE, OFF(window_length), 0, 0, 0, INF, 0, NULL, 0, "s",
   "... within any interval of this length"},
  {"consistency_tol", MBDAE_PARAM_DOUBLE, OFF(consistency_tol), OPEN_LO, 0, 0, INF, 0,
   NULL, 0, "", "post-event consistency: |F_i| <= tol (1 + |y_i| + |yp_i|)"},
  {"calcic_fallback", MBDAE_PARAM_BOOL, OFF(calcic_fallback), 0, 0, 0, 1, 0, NULL, 0, "",
   "IDA: try IDACalcIC when a handler's state is inconsistent (else fail)"},
  {"root_band", MBDAE_PARAM_DOUBLE, OFF(root_band), 0, 0, 0, INF, 0, NULL, 0, "",
   "dead band of a just-handled root"},
  {"event_window", MBDAE_PARAM_DOUBLE, OFF(event_window), 0, 0, 0, 1e6, 0, NULL, 0, "",
   "ida, cvode, arkode: a root crossing within event_window * rtol * h after a located root "
   "(h its step) joins that event: one handler call, one restart (0: off)"},
  {"theta", MBDAE_PARAM_DOUBLE, OFF(theta), 0, 0, 0.5, 1, 0, NULL, 0, "",
   "moreau: theta of the scheme (1/2: no numerical damping, 1: implicit Euler)"},
  {"moreau_step", MBDAE_PARAM_DOUBLE, OFF(moreau_step), OPEN_LO, 0, 0, INF, 0, NULL, 0, "s",
   "moreau: the fixed time step h"},
  {"activation", MBDAE_PARAM_DOUBLE, OFF(activation), 0, 0, 0, 1, 0, NULL, 0, "",
   "moreau: a unilateral row enters a step when g + activation h dg/dt <= 0"},
  {"nonsmooth_tol", MBDAE_PARAM_DOUBLE, OFF(nonsmooth_tol), OPEN_LO | OPEN_HI, 0, 0, 1, 0,
   NULL, 0, "", "moreau: tolerance of the one-step problem (relative to its free velocities)"},
  {"nonsmooth_max_iter", MBDAE_PARAM_INT, OFF(nonsmooth_max_iter), 0, 0, 1, INT_MAX, 0, NULL,
   0, "", "moreau: active-set (semismooth Newton) iterations before Gauss-Seidel"},
  {"projection", MBDAE_PARAM_BOOL, OFF(projection), 0, 0, 0, 1, 0, NULL, 0, "",
   "moreau: project the positions back onto the constraints after each step"},
  {"projection_tol", MBDAE_PARAM_DOUBLE, OFF(projection_tol), OPEN_LO, 0, 0, INF, 0, NULL, 0,
   "", "moreau: largest violation the projection leaves (constraint units)"},
};
const int mbdae_solver_nspecs = (int)(sizeof mbdae_solver_specs / sizeof mbdae_solver_specs[0]);

const mbdae_param_spec mbdae_output_specs[] = {
  {"plots", MBDAE_PARAM_BOOL, offsetof(mbdae_output_fields, plots), 0, 1, 0, 1, 0, NULL,
   0, "", "render the model's PNG plots with gnuplot (when installed)"},
  {"every", MBDAE_PARAM_INT, offsetof(mbdae_output_fields, every), 0, 1, 1, INT_MAX, 0,
   NULL, 0, "", "write every k-th output sample to series.csv"},
  {"event_rows", MBDAE_PARAM_BOOL, offsetof(mbdae_output_fields, event_rows), 0, 1, 0, 1, 0,
   NULL, 0, "", "also write the pre- and post-event states to series.csv (events.csv has every event)"},
  {"format", MBDAE_PARAM_ENUM, offsetof(mbdae_output_fields, format), 0, MBDAE_OUTPUT_CSV, 0, 0,
   0, format_names, 0, "",
   "csv: series.csv + events.csv (+ plots); mat: results.mat (MATLAB/Octave); both"},
  {"vtk", MBDAE_PARAM_BOOL, offsetof(mbdae_output_fields, vtk), 0, 1, 0, 1, 0, NULL, 0, "",
   "write the scene as VTK frames for ParaView (vtk/, animation.pvd; kinds with geometry)"},
  {"animation", MBDAE_PARAM_BOOL, offsetof(mbdae_output_fields, animation), 0, 0, 0, 1, 0,
   NULL, 0, "", "render the scene as PNG frames and animation.gif with gnuplot (kinds with geometry)"},
};
const int mbdae_output_nspecs = (int)(sizeof mbdae_output_specs / sizeof mbdae_output_specs[0]);

static int clamp_long(long v) { return v > INT_MAX ? INT_MAX : v < INT_MIN ? INT_MIN : (int)v; }

void mbdae_solver_fields_from_options(mbdae_solver_fields *f, const mbdae_options *o) {
  memset(f, 0, sizeof *f);
  f->method = (int)o->method;
  f->linsol = (int)o->linsol;
  f->ordering = (int)o->ordering;
  f->t0 = o->t0;
  f->t_end = o->t_end;
  f->dt_out = o->dt_out;
  f->rtol = o->rtol;
  f->atol = o->atol;
  f->rk4_step = o->rk4_step;
  f->h_init = o->h_init;
  f->h_max = o->h_max;
  f->jac_reuse_cj = o->jac_reuse_cj;
  f->restart_step = o->restart_step;
  f->max_steps = clamp_long(o->max_steps);
  f->max_order = o->max_order;
  f->suppress_alg = o->suppress_alg;
  f->max_events = clamp_long(o->max_events);
  f->window_events = o->window_events;
  f->window_length = o->window_length;
  f->consistency_tol = o->consistency_tol;
  f->calcic_fallback = o->calcic_fallback;
  f->root_band = o->root_band;
  f->event_window = o->event_window;
  f->theta = o->theta;
  f->moreau_step = o->moreau_step;
  f->activation = o->activation;
  f->nonsmooth_tol = o->nonsmooth_tol;
  f->nonsmooth_max_iter = o->nonsmooth_max_iter;
  f->projection = o->projection;
  f->projection_tol = o->projection_tol;
  f->arkode_table = (int)o->arkode_table;
  f->restart_policy = (int)o->restart_policy;
  f->arkode_reduce = o->arkode_reduce;
  f->arkode_newton_iters = o->arkode_newton_iters;
  f->arkode_setup_every = o->arkode_setup_every;
  f->arkode_jac_every = o->arkode_jac_every;
  f->arkode_newton = (int)o->arkode_newton;
}

void mbdae_solver_fields_default(mbdae_solver_fields *f) {
  mbdae_options o;
  mbdae_options_default(&o);
  mbdae_solver_fields_from_options(f, &o);
}

void mbdae_solver_fields_apply(const mbdae_solver_fields *f, mbdae_options *o) {
  o->method = (mbdae_method)f->method;
  o->linsol = (mbdae_linsol)f->linsol;
  o->ordering = (mbdae_ordering)f->ordering;
  o->t0 = f->t0;
  o->t_end = f->t_end;
  o->dt_out = f->dt_out;
  o->rtol = f->rtol;
  o->atol = f->atol;
  o->rk4_step = f->rk4_step;
  o->h_init = f->h_init;
  o->h_max = f->h_max;
  o->jac_reuse_cj = f->jac_reuse_cj;
  o->restart_step = f->restart_step;
  o->max_steps = f->max_steps;
  o->max_order = f->max_order;
  o->suppress_alg = f->suppress_alg;
  o->max_events = f->max_events;
  o->window_events = f->window_events;
  o->window_length = f->window_length;
  o->consistency_tol = f->consistency_tol;
  o->calcic_fallback = f->calcic_fallback;
  o->root_band = f->root_band;
  o->event_window = f->event_window;
  o->theta = f->theta;
  o->moreau_step = f->moreau_step;
  o->activation = f->activation;
  o->nonsmooth_tol = f->nonsmooth_tol;
  o->nonsmooth_max_iter = f->nonsmooth_max_iter;
  o->projection = f->projection;
  o->projection_tol = f->projection_tol;
  o->arkode_table = (mbdae_arkode_table)f->arkode_table;
  o->restart_policy = (mbdae_restart_policy)f->restart_policy;
  o->arkode_reduce = f->arkode_reduce;
  o->arkode_newton_iters = f->arkode_newton_iters;
  o->arkode_setup_every = f->arkode_setup_every;
  o->arkode_jac_every = f->arkode_jac_every;
  o->arkode_newton = (mbdae_arkode_newton)f->arkode_newton;
}

mbdae_param_spec mbdae_solver_spec_with_default(const mbdae_param_spec *spec) {
  mbdae_solver_fields f;
  mbdae_solver_fields_default(&f);
  mbdae_param_spec s = *spec;
  const char *p = (const char *)&f + spec->offset;
  if (spec->type == MBDAE_PARAM_DOUBLE) {
    double d;
    memcpy(&d, p, sizeof d);
    s.def = d;
  } else {
    int i;
    memcpy(&i, p, sizeof i);
    s.def = i;
  }
  return s;
}
