/* mbdae/model.h - a model kind: a const table of function pointers (like
 * SUNDIALS' N_Vector ops) through which the driver configures, builds, runs
 * and reports any model without knowing its equations.
 *
 * Parameters are declared as a schema (mbdae_param_spec[]): the driver reads
 * the scenario's `parameters:` mapping, rejects unknown keys, wrong types,
 * out-of-range and non-finite values, and fills the model's own parameter
 * struct at the declared offsets before anything runs. Cross-field physical
 * checks go in `check`. Models do no I/O. */
#ifndef MBDAE_MODEL_H
#define MBDAE_MODEL_H

#include <stddef.h>
#include "mbdae/engine.h"
#include "mbdae/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  MBDAE_PARAM_DOUBLE = 0, /* double at offset */
  MBDAE_PARAM_INT = 1,    /* int at offset (min/max apply) */
  MBDAE_PARAM_BOOL = 2,   /* int 0/1 at offset */
  MBDAE_PARAM_ENUM = 3,   /* int index into choices[] at offset */
  MBDAE_PARAM_VEC = 4,    /* double[len] at offset (a YAML sequence of len numbers) */
  MBDAE_PARAM_TABLE = 5   /* double* at offset (malloc'd, row-major rows x len),
                             int row count at count_offset; YAML: a sequence of
                             sequences of len numbers. Freed by the driver. */
} mbdae_param_type;

/* Flags for bounds. */
#define MBDAE_PARAM_REQUIRED  1 /* no default: the key must be present */
#define MBDAE_PARAM_MIN_OPEN  2 /* value > min (else >= min) */
#define MBDAE_PARAM_MAX_OPEN  4 /* value < max (else <= max) */

typedef struct mbdae_param_spec {
  const char *key;
  mbdae_param_type type;
  size_t offset;
  int flags;
  double def;                 /* default (scalars, every VEC element) */
  double min, max;            /* bounds for every number (use -HUGE_VAL/HUGE_VAL) */
  int len;                    /* VEC length, TABLE columns */
  const char *const *choices; /* ENUM names, NULL-terminated */
  size_t count_offset;        /* TABLE row count (int) */
  const char *unit;
  const char *doc;            /* one line, shown by `mbdae list --params` */
} mbdae_param_spec;

/* A cross-field check names the offending key (as in the schema, or a
 * dotted sub-key such as "strings[3]") and says why. */
typedef struct mbdae_param_error {
  const char *key;
  char msg[256];
} mbdae_param_error;

typedef struct mbdae_column {
  char name[64];
  char unit[24];
} mbdae_column;

typedef struct mbdae_outcome {
  char name[64];
  char unit[24];
  double value;
} mbdae_outcome;

/* A plot the driver renders with gnuplot. ycols is a comma-separated list of
 * column names or glob patterns ("phi_*"); source selects the table. */
typedef struct mbdae_plot_spec {
  const char *file;     /* stem of the PNG file */
  const char *title;
  const char *source;   /* "samples" (series.csv) or "events" (events.csv) */
  const char *xcol;
  const char *ycols;
  const char *xlabel, *ylabel;
  int points;           /* 1: draw points, 0: lines */
} mbdae_plot_spec;

typedef struct mbdae_model mbdae_model; /* a model instance: private to each kind */

typedef struct mbdae_model_kind {
  const char *name;
  const char *summary;
  size_t params_size;
  const mbdae_param_spec *params;
  int nparams;
  /* Physical cross-field checks on filled parameters. 0 ok, else
   * MBDAE_ERR_PARAMETER with err filled. May be NULL. */
  int (*check)(const void *params, mbdae_param_error *err);
  /* Build an instance for the given solver options (the model may choose
   * its formulation from o->method, and adjust o, e.g. its default linear
   * solver). On error fill err and return < 0. */
  int (*create)(const void *params, mbdae_options *o, mbdae_model **model,
                mbdae_param_error *err);
  void (*destroy)(mbdae_model **model);
  mbdae_problem *(*problem)(mbdae_model *model);
  /* Consistent initial state at o->t0 (yp may be NULL for ODE form). */
  int (*initial_state)(mbdae_model *model, double t0, double *y, double *yp);
  /* Output columns: with cols NULL return the count, else fill up to max. */
  int (*columns)(mbdae_model *model, mbdae_column *cols, int max);
  int (*output_row)(mbdae_model *model, double t, const double *y,
                    const double *yp, double *row);
  /* Names of the handler's event data values (may be NULL). */
  int (*event_columns)(mbdae_model *model, mbdae_column *cols, int max);
  /* Scalar results for summary.json and sweeps, after the run (may be NULL). */
  int (*outcomes)(mbdae_model *model, const double *y, const double *yp,
                  mbdae_outcome *out, int max);
  const mbdae_plot_spec *plots;
  int nplots;
} mbdae_model_kind;

/* The usual `columns`/`event_columns` answer for a fixed table: with cols
 * NULL return n, else copy up to max entries and return how many. */
int mbdae_columns_copy(const mbdae_column *src, int n, mbdae_column *cols,
                       int max);

/* Fill one outcome (name and unit are cut to their fields). */
void mbdae_outcome_set(mbdae_outcome *o, const char *name, const char *unit,
                       double value);

/* The usual `create` failure report: err (may be NULL) names the key
 * "model" and says "cannot build the <what>: <status message>". Returns rc. */
int mbdae_param_error_build_failed(mbdae_param_error *err, const char *what,
                                   int rc);

/* The registry of model kinds (NULL-terminated). */
extern const mbdae_model_kind *const mbdae_model_kinds[];
const mbdae_model_kind *mbdae_model_kind_find(const char *name);

#ifdef __cplusplus
}
#endif
#endif
