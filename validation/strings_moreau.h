/* strings_moreau.h - run string nets under event capturing (method moreau)
 * and measure, at every step, what the validation cases, tests and the
 * Siconos comparison use (the metric definitions of the Siconos peer,
 * /work/shared/peers/siconos/README.md): first impulse, numerical
 * accumulation time, energy at a probe time, string stretch in a window,
 * momentum error, energy rise per step, the index sets; and the stepping
 * loop's CPU time. */
#ifndef MBDAE_STRINGS_MOREAU_H
#define MBDAE_STRINGS_MOREAU_H

#include <stddef.h>

#include "mbdae/mbdae.h"
#include "strings/string_net_model.h"

typedef struct moreau_metrics {
  /* set by the caller before the run */
  double window0, window1;  /* stretch window [s] (Siconos: [1.4, 3] for the bola) */
  double probe_t;           /* energy probe: the first step with t >= probe_t - h/2 */
  /* measured */
  long steps, lcp_steps;    /* steps, steps with a non-empty index set */
  int index_max;            /* largest index set */
  double t_first_impulse;   /* end of the first step with an impulse (-1: none) */
  double t_taut;            /* first impulse after the last run of >= 3 impulse-free steps */
  double E0, E_probe, E_end;/* kinetic + potential at t0, at the probe, at the end */
  double K_end;             /* kinetic energy at the end */
  double max_rise;          /* largest rise of kinetic + potential over one step [J] */
  double max_stretch_window;/* max |d - L| over strings and steps in the window [m] */
  double max_excess;        /* max (d - L) over strings and all steps [m] */
  double max_momentum_err;  /* max |p - p0| over steps (meaningful without external force) */
  double max_angmom_err;    /* max |H - H0| about the origin, likewise */
  int active_end;           /* index set at the end */
  int taut_end;             /* strings with L - d < 1e-3 L at the end */
  double omega_end;         /* two-point nets: |d x d'| / |d|^2 at the end [rad/s] */
  double cpu_loop;          /* CPU seconds of the stepping loop (first to last step),
                               from a second run whose step observer only counts
                               (the metrics above cost as much as a step) */
  double cpu_run;           /* CPU seconds of the whole mbdae_run with the metrics */
  mbdae_stats stats;
  int timing;               /* 1: also time the stepping loop (a second run) */
  /* optional, called after every step with the model (tools that look inside) */
  int (*hook)(const mbdae_step_record *r, const snm_model *m, void *data);
  void *hook_data;
  /* private */
  int run_free;
  double p0[3], h0[3], E_prev;
  const snm_model *model;
} moreau_metrics;

/* Run p under o (o->method is set to moreau here). Returns the mbdae_run
 * status, or a create error with msg filled. */
int strings_moreau_run(const snm_params *p, mbdae_options *o, moreau_metrics *mm,
                       char *msg, size_t msglen);

/* The Siconos peer's deploying net (net_siconos.py): n x n points 0.01 kg
 * (corners 0.05 kg) on a square grid of spacing L/2 = 0.05 m centred at the
 * origin in the x-y plane, v = 2 m/s (x, y)/r_max + (0, 0, 1) m/s, strings
 * of L = 0.1 m between 4-neighbours, restitution e, no gravity. The tables
 * are malloc'd into p (free with strings_table_free). 0 or MBDAE_ERR_MEMORY. */
int strings_siconos_net(snm_params *p, int n, double e);
void strings_table_free(snm_params *p);
/* Its analytic end energy (README): M/2 + e^2 (E0 - M/2), M = 0.01 (n^2 - 4) + 0.2. */
double strings_siconos_net_end_energy(int n, double e, double E0);

#endif
