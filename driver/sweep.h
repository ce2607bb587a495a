/* sweep.h - parameter sweeps (`mbdae sweep STUDY`): a study file names a
 * base scenario, the scenario keys to vary (grids or lists), fixed
 * overrides and the outcomes to aggregate. Runs are independent and are
 * dealt round-robin to MPI ranks (when built with MPI and started by
 * mpirun); the results are gathered in run order, so the files written are
 * identical for any number of ranks. Each finished run is journaled at
 * once, so a killed rank loses only its run in progress and `--resume`
 * goes on from the journal. Format: doc/sweep.md. */
#ifndef MBDAE_DRIVER_SWEEP_H
#define MBDAE_DRIVER_SWEEP_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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
 * model rejected the values). interrupt (may be NULL) is the run's: a
 * signal ends it early with *interrupted = 1 (its record is not a result). */
void mbdae_sweep_run_one(const mbdae_sweep_study *st, mbdae_scenario *work,
                         long i, const volatile sig_atomic_t *interrupt,
                         mbdae_sweep_record *rec, int *interrupted);

/* How the ranks of a sweep act together: MPI in `mbdae sweep` (the library
 * has no MPI), NULL for one process. */
typedef struct mbdae_sweep_comm {
  int rank, nranks;
  /* every rank's status in, the lowest (the worst error) out, on every rank */
  int (*agree)(int status, void *data);
  /* the ranks' packed records (n rows of width doubles: index, status,
   * outcome values) to rank 0: *all (malloc'd, *nall rows; NULL elsewhere).
   * 0 or an error. */
  int (*gather)(const double *mine, long n, int width, double **all, long *nall, void *data);
  void *data;
} mbdae_sweep_comm;

/* What a sweep did (rank 0's view after the gather). */
typedef struct mbdae_sweep_tally {
  long runs;       /* of the study */
  long journaled;  /* taken from the journal (--resume) */
  long ran;        /* run now */
  long failed;     /* runs whose status is an error */
  long missing;    /* without a record: interrupted before they ran */
  int journal_errno; /* a journal line could not be written (0: none) */
} mbdae_sweep_tally;

/* The journal of a sweep's finished runs (sweep_journal.c, doc/sweep.md):
 * DIR/journal/rank_<R>.csv, one line per run written as it finishes. */
typedef struct mbdae_sweep_journal {
  FILE *f;
  char path[4300];
  int failed;      /* errno of a failed write (0: none) */
} mbdae_sweep_journal;

/* What decides the runs' results (the base scenario's bytes, the fixed
 * overrides, every run's values, the outcomes): a journal records it. */
int mbdae_sweep_fingerprint(const mbdae_sweep_study *st, uint64_t *fp, char *err,
                            size_t errlen);
/* Remove DIR/journal (a new sweep). */
void mbdae_sweep_journal_clear(const mbdae_sweep_study *st);
/* Every run recorded in DIR/journal/rank_*.csv into recs[i] with done[i] = 1
 * (*ndone of them). 0 (also without a journal) or MBDAE_ERR_IO: "PATH: the
 * journal of another study ..." or "PATH:LINE: not a run of this study". */
int mbdae_sweep_journal_read(const mbdae_sweep_study *st, mbdae_sweep_record *recs,
                             unsigned char *done, long *ndone, char *err, size_t errlen);
/* Open DIR/journal/rank_<rank>.csv to append (a torn last line cut off). */
int mbdae_sweep_journal_open(const mbdae_sweep_study *st, int rank, mbdae_sweep_journal *j,
                             char *err, size_t errlen);
/* Append run i's record, flushed. 0 or MBDAE_ERR_IO (j->failed). */
int mbdae_sweep_journal_put(mbdae_sweep_journal *j, const mbdae_sweep_study *st, long i,
                            const mbdae_sweep_record *rec);
void mbdae_sweep_journal_close(mbdae_sweep_journal *j);

/* The whole sweep, on this rank: rank 0 locks DIR (one sweep or run per
 * directory) and, unless resuming, clears the journal; every rank reads the
 * journal when resuming, runs its share (round-robin) of the runs no
 * journal holds, journaling each as it finishes; the records go to rank 0,
 * which writes runs.csv, sets.csv, critical.csv and the plots once every
 * run has its record. interrupt (may be NULL): a signal ends the run in
 * progress (not recorded) and the sweep. Returns MBDAE_OK, MBDAE_STOPPED
 * (interrupted: no files written, the journal keeps the finished runs),
 * MBDAE_ERR_IO (the directory is in use, a journal of another study, a file
 * that cannot be written) or MBDAE_ERR_MEMORY; err says why on the rank
 * that failed. */
int mbdae_sweep_perform(const mbdae_sweep_study *st, mbdae_scenario *work,
                        const mbdae_sweep_comm *comm, int resume, int plots,
                        const volatile sig_atomic_t *interrupt, mbdae_sweep_tally *tally,
                        char *err, size_t errlen);

/* Write runs.csv, sets.csv, critical.csv (if asked) and the plots under
 * st->out_dir. Returns 0 or MBDAE_ERR_IO (err says which file). */
int mbdae_sweep_write(const mbdae_sweep_study *st, const mbdae_sweep_record *recs,
                      int plots, char *err, size_t errlen);

/* The `mbdae sweep STUDY` subcommand. */
int mbdae_cmd_sweep(int argc, char **argv);

#endif
