/* writer.h - output writers of a run, each a const table of function
 * pointers (like SUNDIALS' N_Vector ops) driven by run.c: series.csv,
 * events.csv, the PNG plots and summary.json, one concept per file. */
#ifndef MBDAE_DRIVER_WRITER_H
#define MBDAE_DRIVER_WRITER_H

#include <stddef.h>
#include <stdio.h>

#include "mbdae/engine.h"
#include "mbdae/model.h"
#include "run.h"
#include "scenario.h"

/* What every writer may read about the run. */
typedef struct mbdae_output_ctx {
  const char *dir;               /* existing output directory */
  const mbdae_scenario *scenario;
  int ncols;                     /* series columns; cols[0] is the time */
  const mbdae_column *cols;
  int nevcols;                   /* the model's event data columns */
  const mbdae_column *evcols;
  int ninv;
  const char *const *inv_names;
  const char *const *inv_units;  /* ninv units ("" for none) */
  int plots;                     /* render plots */
  FILE *notes;
  int row_kind;                  /* MBDAE_SERIES_* kind of the row being written */
} mbdae_output_ctx;

typedef struct mbdae_writer_ops {
  const char *name;
  /* Create the writer's files. 0 or MBDAE_ERR_IO/MEMORY with err filled. */
  int (*open)(const mbdae_output_ctx *c, void **state, char *err, size_t errlen);
  /* One series row (ncols values), complete on disk when this returns. */
  int (*sample)(void *state, const mbdae_output_ctx *c, const double *row);
  /* One event, complete on disk when this returns. */
  int (*event)(void *state, const mbdae_output_ctx *c, const mbdae_event_record *ev);
  /* After the run (also a failed one): flush, render, summarise. Writers are
   * finished in table order, so later ones see the earlier files complete;
   * they may add notes to res. */
  int (*finish)(void *state, const mbdae_output_ctx *c, mbdae_run_result *res,
                char *err, size_t errlen);
  void (*close)(void *state);
  /* Checkpoints (doc/checkpoint.md); both NULL for writers without a file
   * open during the run. sync: everything written so far on disk (fsync),
   * *length = the file's byte length. reopen: instead of open on resume,
   * keep the file's first length bytes and append to it. A writer with open
   * but no sync/reopen makes --checkpoint-every refuse to start. */
  int (*sync)(void *state, long long *length);
  int (*reopen)(const mbdae_output_ctx *c, void **state, long long length, char *err,
                size_t errlen);
} mbdae_writer_ops;

extern const mbdae_writer_ops mbdae_writer_series_csv;
extern const mbdae_writer_ops mbdae_writer_events_csv;
extern const mbdae_writer_ops mbdae_writer_plots;
extern const mbdae_writer_ops mbdae_writer_summary_json;
/* results.mat (MATLAB/Octave): samples and events are kept in memory (sync
 * appends them to DIR/.results.mat.part) and the file is written whole by
 * finish() (temporary name, then renamed). */
extern const mbdae_writer_ops mbdae_writer_mat;

/* The text of summary.json for a finished run of s (what the summary writer
 * writes). 0, or -1 when f reports a write error. */
int mbdae_summary_json_print(FILE *f, const mbdae_scenario *s, const mbdae_run_result *res);

/* Open DIR/NAME for writing (plots.gp). NULL with err filled on failure. */
FILE *mbdae_output_open(const mbdae_output_ctx *c, const char *name, char *err,
                        size_t errlen);

#endif
