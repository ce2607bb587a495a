/* run.h - run a loaded scenario: build the model, integrate with mbdae_run,
 * and write the output directory (series.csv, events.csv, summary.json,
 * PNG plots) - or write nothing at all and just return the outcomes, which
 * is what a parameter sweep calls thousands of times. */
#ifndef MBDAE_DRIVER_RUN_H
#define MBDAE_DRIVER_RUN_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "mbdae/engine.h"
#include "mbdae/model.h"
#include "mbdae/simulation.h"
#include "scenario.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MBDAE_RUN_MAX_INVARIANTS 16
#define MBDAE_RUN_MAX_OUTCOMES 64

/* An extra consumer of a run's rows and events, called whether or not there
 * is an output directory (the library API keeps them in memory,
 * driver/simulation.c). begin: once, before the first row, with the series
 * columns (cols[0] is the time), the model's event data columns and the
 * invariant names; row: one series row (ncols values) and its kind
 * (MBDAE_SERIES_SAMPLE, _PRE_EVENT, _POST_EVENT of mbdae/simulation.h); event: one event. Each returns 0, or < 0 to fail the run. */
typedef struct mbdae_run_sink {
  void *data;
  int (*begin)(void *data, int ncols, const mbdae_column *cols, int nevcols,
               const mbdae_column *evcols, int ninv, const char *const *inv_names,
               const char *const *inv_units);
  int (*row)(void *data, const double *row, int kind);
  int (*event)(void *data, const mbdae_event_record *ev);
} mbdae_run_sink;


typedef struct mbdae_run_config {
  const char *out_dir;  /* NULL: write no file at all */
  int plots;            /* render the model's plots (needs out_dir, gnuplot) */
  int every;            /* series.csv keeps every k-th sample (>= 1) */
  int event_rows;       /* series.csv also gets the pre- and post-event states */
  int format;           /* mbdae_output_format: CSV files, results.mat or both */
  int vtk;              /* VTK frames of the scene (kinds with geometry) */
  int animation;        /* the scene as PNG frames and animation.gif (gnuplot) */
  int progress;         /* draw a progress bar on stderr */
  FILE *notes;          /* where non-fatal notes go ("gnuplot not found"); NULL: nowhere */
  /* checkpoints and interruption (doc/checkpoint.md; need out_dir) */
  double checkpoint_every;              /* > 0: integrate in segments of this much
                                           simulated time (whole dt_out steps) and
                                           checkpoint at each boundary */
  const volatile sig_atomic_t *interrupt; /* set (by a signal handler): stop at the
                                           next output sample, checkpoint, "interrupted" */
  const char *scenario_text;            /* the scenario's YAML text, and ... */
  const char *const *sets;              /* ... its overrides: stored in checkpoints */
  int nsets;
  const struct mbdae_checkpoint *resume; /* continue this checkpoint (out_dir = its RUNDIR) */
  const mbdae_run_sink *sink;           /* NULL: none */
} mbdae_run_config;

typedef struct mbdae_run_invariant {
  char name[64];
  double start, end;       /* at t0 and at the last state */
  double max_drift;        /* max |I(t) - I(t0)| over samples and events */
  double max_flow_drift;   /* max |I(t) - I(segment start)| between events:
                              the integrator's drift, event jumps excluded */
} mbdae_run_invariant;

typedef struct mbdae_run_result {
  int status;              /* mbdae_run's status code */
  char message[512];       /* its failure message ("" on success) */
  mbdae_stats stats;
  long samples;            /* observer samples: t0, every dt_out, t_end and
                              each pre-event state */
  long rows;               /* rows written to series.csv */
  long events;
  char final_mode[64];
  int ninv;
  mbdae_run_invariant inv[MBDAE_RUN_MAX_INVARIANTS];
  int noutcomes;
  mbdae_outcome outcomes[MBDAE_RUN_MAX_OUTCOMES];
  int plots_written;
  char plot_note[256];     /* why plots are missing, "" if none */
  double wall_time;        /* seconds, model creation to last file */
  int interrupted;         /* stopped by cfg->interrupt (status MBDAE_STOPPED) */
  double checkpoint_t;     /* time of the newest checkpoint written or resumed (NAN: none) */
  int setup_interrupted;   /* interrupted (also set) before the first sample, during
                              the model's creation or initial state: nothing written,
                              the output directory untouched */
} mbdae_run_result;

/* out_dir NULL, plots/every from the scenario, no progress, no notes. */
void mbdae_run_config_default(mbdae_run_config *c, const mbdae_scenario *s);

/* Run s. Returns
 *   MBDAE_ERR_SCENARIO  the model or engine rejected the input before the run
 *                       started ("FILE:LINE: key ...: why" in err); nothing written;
 *   MBDAE_ERR_IO        an output file could not be written (err says which);
 *   otherwise           the engine's status (res->status): MBDAE_OK,
 *                       MBDAE_STOPPED, or a failure (err = res->message); the
 *                       files written up to the failure stay valid and
 *                       summary.json says "failed".
 * res is always filled as far as the run got. */
int mbdae_scenario_run(const mbdae_scenario *s, const mbdae_run_config *cfg,
                       mbdae_run_result *res, char *err, size_t errlen);

/* "ok", "stopped" or "failed". */
const char *mbdae_run_status_word(int status);

#ifdef __cplusplus
}
#endif
#endif
