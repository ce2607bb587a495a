/* sweep.h - parameter sweeps (`mbdae sweep STUDY`): a study file names a
 * base scenario, the scenario keys to vary (grids or lists), fixed
 * overrides and the outcomes to aggregate. Runs are independent and are
 * dealt round-robin to MPI ranks (when built with MPI and started by
 * mpirun); the results are gathered in run order, so the files written are
 * identical for any number of ranks. Format: doc/sweep.md. */
#ifndef MBDAE_DRIVER_SWEEP_H
#define MBDAE_DRIVER_SWEEP_H

#include <stddef.h>

#include "scenario.h"

#define MBDAE_SWEEP_MAX_KEYS 8
#define MBDAE_SWEEP_MAX_OUTCOMES 8
#define MBDAE_SWEEP_MAX_SET 16

typedef struct mbdae_sweep_axis {
  char key[128];        /* scenario key, e.g. "parameters.e" */
  int n;                /* number of values */
  double *values;
} mbdae_sweep_axis;

typedef struct mbdae_sweep_outcome {
  char name[64];        /* model outcome name */
  char label[96];       /* axis label of its plots */
  double scale;         /* statistics of scale * value (100: a fraction in %) */
  int errorbars;        /* plot mean +- std */
} mbdae_sweep_outcome;

typedef struct mbdae_sweep_study {
  char *path, *stem, *base_path, *description, *out_dir;
  int naxes;
  mbdae_sweep_axis axes[MBDAE_SWEEP_MAX_KEYS];
  int nset;
  char *set[MBDAE_SWEEP_MAX_SET];   /* fixed overrides "key=value" */
  int group_axis;       /* axis aggregated over (-1: none, each run is its own set) */
  int noutcomes;
  mbdae_sweep_outcome outcomes[MBDAE_SWEEP_MAX_OUTCOMES];
  int crit_axis, crit_outcome;      /* critical value search (-1: none) */
  double crit_tol;
  int plot_x, plot_series, plot_panel;  /* axes of the plots (-1: none) */
  long nruns;
} mbdae_sweep_study;

/* Load a study file; err gets "FILE:LINE: key 'K': why" on failure. */
int mbdae_sweep_study_load(const char *path, mbdae_sweep_study *st, char *err,
                           size_t errlen);
void mbdae_sweep_study_free(mbdae_sweep_study *st);

/* Axis indices of run i (row-major: the last axis varies fastest). */
void mbdae_sweep_run_indices(const mbdae_sweep_study *st, long i, int *idx);

/* One run's gathered record: status and the study's outcome values. */
typedef struct mbdae_sweep_record {
  int status;                       /* engine status, or < 0 setup failure */
  double v[MBDAE_SWEEP_MAX_OUTCOMES];
} mbdae_sweep_record;

/* Run run i of the study on `work`, the loaded base scenario with the
 * study's fixed overrides applied: every run overrides every axis key, so
 * one working copy serves all runs. Never fails as a whole: a failure is
 * recorded in rec->status (MBDAE_ERR_SCENARIO when the override or the
 * model rejected the values). */
void mbdae_sweep_run_one(const mbdae_sweep_study *st, mbdae_scenario *work,
                         long i, mbdae_sweep_record *rec);

/* Gather the ranks' packed records (n rows of width doubles: index,
 * status, outcome values) into *all on rank 0 (nruns rows, malloc'd; NULL
 * on the other ranks). Returns 0 or an error. */
typedef int (*mbdae_sweep_gather_fn)(const double *mine, long n, int width, double **all,
                                     long nruns, void *data);

/* Run the runs i = rank, rank + nranks, ... and, with gather (MPI: `mbdae
 * sweep` under mpirun), gather all records in run order on rank 0 (recs:
 * st->nruns entries, used on rank 0 only). gather NULL: one process (rank 0,
 * nranks 1). Returns 0 or an error. */
int mbdae_sweep_execute(const mbdae_sweep_study *st, mbdae_scenario *work, int rank,
                        int nranks, mbdae_sweep_record *recs, mbdae_sweep_gather_fn gather,
                        void *gather_data);

/* Write runs.csv, sets.csv, critical.csv (if asked) and the plots under
 * st->out_dir. Returns 0 or MBDAE_ERR_IO (err says which file). */
int mbdae_sweep_write(const mbdae_sweep_study *st, const mbdae_sweep_record *recs,
                      int plots, char *err, size_t errlen);

/* The `mbdae sweep STUDY` subcommand. */
int mbdae_cmd_sweep(int argc, char **argv);

#endif
