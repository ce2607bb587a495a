/** @file mbdae/model.h
 * @brief A model kind: a const table of function pointers (like SUNDIALS'
 *        N_Vector ops) through which the driver configures, builds, runs
 * and reports any model without knowing its equations.
 *
 * Parameters are declared as a schema (mbdae_param_spec[]): the driver reads
 * the scenario's `parameters:` mapping, rejects unknown keys, wrong types,
 * out-of-range and non-finite values, and fills the model's own parameter
 * struct at the declared offsets before anything runs. Cross-field physical
 * checks go in `check`. Models do no I/O. */
#ifndef MBDAE_MODEL_H
#define MBDAE_MODEL_H

#include "mbdae/export.h"

#include <stddef.h>
#include "mbdae/engine.h"
#include "mbdae/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Type of a schema entry, and how it is stored in the parameter struct. */
typedef enum {
  MBDAE_PARAM_DOUBLE = 0, /**< double at offset */
  MBDAE_PARAM_INT = 1,    /**< int at offset (min/max apply) */
  MBDAE_PARAM_BOOL = 2,   /**< int 0/1 at offset */
  MBDAE_PARAM_ENUM = 3,   /**< int index into choices[] at offset */
  MBDAE_PARAM_VEC = 4,    /**< double[len] at offset (a YAML sequence of len numbers) */
  MBDAE_PARAM_TABLE = 5   /**< double* at offset (malloc'd, row-major rows x len),
                             int row count at count_offset; YAML: a sequence of
                             sequences of len numbers. Freed by the driver. */
} mbdae_param_type;

/* Flags of mbdae_param_spec::flags. */
#define MBDAE_PARAM_REQUIRED  1 /**< no default: the key must be present */
#define MBDAE_PARAM_MIN_OPEN  2 /**< value > min (else >= min) */
#define MBDAE_PARAM_MAX_OPEN  4 /**< value < max (else <= max) */

/** One entry of a parameter schema. */
typedef struct mbdae_param_spec {
  const char *key;            /**< scenario key (under `parameters:`) */
  mbdae_param_type type;      /**< value type */
  size_t offset;              /**< where the value goes in the parameter struct */
  int flags;                  /**< MBDAE_PARAM_REQUIRED, _MIN_OPEN, _MAX_OPEN */
  double def;                 /**< default (scalars, every VEC element) */
  double min, max;            /**< bounds for every number (use -HUGE_VAL/HUGE_VAL) */
  int len;                    /**< VEC length, TABLE columns */
  const char *const *choices; /**< ENUM names, NULL-terminated */
  size_t count_offset;        /**< TABLE row count (int) */
  const char *unit;           /**< unit ("" if none) */
  const char *doc;            /**< one line, shown by `mbdae list --params` */
} mbdae_param_spec;
/** @var mbdae_param_spec::min
 *  lower bound of every number (use -HUGE_VAL for none; max: upper bound) */

/** A rejection by a model's check or create: the offending key (as in the
 *  schema, or a dotted sub-key such as "strings[3]") and why. */
typedef struct mbdae_param_error {
  const char *key;      /**< the key (a static string), NULL: the model as a whole */
  char msg[256];        /**< why, one line */
} mbdae_param_error;

/** A named output column. */
typedef struct mbdae_column {
  char name[64];        /**< column name (series.csv header) */
  char unit[24];        /**< its unit ("" if none) */
} mbdae_column;

/** A scalar result of a run. */
typedef struct mbdae_outcome {
  char name[64];        /**< name (summary.json key) */
  char unit[24];        /**< unit ("" if none) */
  double value;         /**< the value */
  int undefined;        /**< 1: not defined for this run (value NaN, written as
                             null: a mean over no collisions); a NaN or inf
                             value without it fails the run */
} mbdae_outcome;

/** A plot the driver renders with gnuplot. ycols is a comma-separated list of
 * column names or glob patterns ("phi_*"); source selects the table. */
typedef struct mbdae_plot_spec {
  const char *file;     /**< stem of the PNG file */
  const char *title;    /**< plot title */
  const char *source;   /**< "samples" (series.csv) or "events" (events.csv) */
  const char *xcol;     /**< column on the x axis */
  const char *ycols;    /**< columns on the y axis (names or glob patterns) */
  const char *xlabel, *ylabel; /**< y axis label */
  int points;           /**< 1: draw points, 0: lines */
} mbdae_plot_spec;
/** @var mbdae_plot_spec::xlabel
 *  x axis label */

/** A model instance: private to each kind. */
typedef struct mbdae_model mbdae_model;

/** Checkpoint fields: a byte cursor over the caller's buffer. With w set it
 *  saves, with r set it loads, with neither it only counts the bytes (the
 *  dry run that measures a kind's state_fields). Each put/get copies n bytes
 *  and fails (sticky) past the end. */
typedef struct mbdae_state_cursor {
  unsigned char *w;          /**< save: destination */
  const unsigned char *r;    /**< load: source */
  size_t size, pos;          /**< bytes used so far */
  int failed;                /**< 1 once a put/get went past the end */
} mbdae_state_cursor;
/** @var mbdae_state_cursor::size
 *  buffer size in bytes */
/** @brief Copy n bytes from src to the cursor's buffer (save).
 * @param c   the cursor (w set)
 * @param src the bytes
 * @param n   their count */
MBDAE_EXPORT void mbdae_state_put(mbdae_state_cursor *c, const void *src, size_t n);
/** @brief Copy n bytes from the cursor's buffer to dst (load).
 * @param c   the cursor (r set)
 * @param dst destination
 * @param n   byte count */
MBDAE_EXPORT void mbdae_state_get(mbdae_state_cursor *c, void *dst, size_t n);
/** @brief mbdae_state_put() when the cursor saves (w set),
 *         mbdae_state_get() when it loads (r set), a count when it measures:
 *         one field list serves all three.
 * @param c the cursor
 * @param p the field
 * @param n its size in bytes */
MBDAE_EXPORT void mbdae_state_io(mbdae_state_cursor *c, void *p, size_t n);
/** @brief Check that a save or load used the buffer exactly.
 * @param c the cursor
 * @return 0 when every byte was used exactly, else MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_state_done(const mbdae_state_cursor *c);

/** A model kind: its schema and the operations the driver calls. */
typedef struct mbdae_model_kind {
  const char *name;               /**< kind name (`model:` in a scenario) */
  const char *summary;            /**< one line, shown by `mbdae list` */
  size_t params_size;             /**< size of the kind's parameter struct */
  const mbdae_param_spec *params; /**< its schema */
  int nparams;                    /**< schema entries */
  /** Physical cross-field checks on filled parameters. 0 ok, else
   * MBDAE_ERR_PARAMETER with err filled. May be NULL. */
  int (*check)(const void *params, mbdae_param_error *err);
  /** Build an instance for the given solver options (the model may choose
   * its formulation from o->method, and adjust o, e.g. its default linear
   * solver). On error fill err and return < 0. */
  int (*create)(const void *params, mbdae_options *o, mbdae_model **model,
                mbdae_param_error *err);
  /** Free an instance and set *model to NULL. */
  void (*destroy)(mbdae_model **model);
  /** The instance's problem (owned by the instance). */
  mbdae_problem *(*problem)(mbdae_model *model);
  /** Consistent initial state at o->t0 (yp may be NULL for ODE form). */
  int (*initial_state)(mbdae_model *model, double t0, double *y, double *yp);
  /** Output columns: with cols NULL return the count, else fill up to max. */
  int (*columns)(mbdae_model *model, mbdae_column *cols, int max);
  /** One output row (the columns' values) at (t, y, yp): 0 ok, < 0 failure. */
  int (*output_row)(mbdae_model *model, double t, const double *y,
                    const double *yp, double *row);
  /** Names of the handler's event data values (may be NULL). */
  int (*event_columns)(mbdae_model *model, mbdae_column *cols, int max);
  /** Scalar results for summary.json and sweeps, after the run (may be NULL). */
  int (*outcomes)(mbdae_model *model, const double *y, const double *yp,
                  mbdae_outcome *out, int max);
  const mbdae_plot_spec *plots;   /**< the plots the driver renders */
  int nplots;                     /**< their number */
  /** Checkpoints (doc/checkpoint.md): the instance's internal state beyond
   * y and yp - active mode, contacts, faces, counters the outcomes report -
   * as plain bytes (no I/O). state_size: their count; state_save fills buf
   * (size bytes); state_load restores them into an instance built from the
   * same parameters and put at t0 by initial_state (MBDAE_ERR_ARGUMENT if
   * size does not match). NULL: the kind cannot be checkpointed. */
  size_t (*state_size)(const mbdae_model *model);
  /** Save the internal state into buf (state_size bytes): 0 or < 0. */
  int (*state_save)(const mbdae_model *model, void *buf, size_t size);
  /** Restore the internal state saved by state_save: 0 or < 0. */
  int (*state_load)(mbdae_model *model, const void *buf, size_t size);
  /** Checkpoints from one field list (instead of the three functions above,
   * which stay for kinds with their own byte format): call
   * mbdae_state_io(c, &field, sizeof field) for every field of the internal
   * state, always in the same order. mbdae runs it on a counting cursor for
   * the size, then to save or to load (mbdae_model_state_size/save/load), so
   * the size cannot drift from the fields. It must not change the model
   * when the cursor saves or counts. */
  void (*state_fields)(mbdae_model *model, mbdae_state_cursor *c);
  /** After a load (either form): check what was restored - modes and flags
   * in range, indices within the model's arrays, finite values - and return
   * MBDAE_OK or MBDAE_ERR_ARGUMENT. A checkpoint is trusted only past its
   * checksum, which anyone can recompute; an out-of-range face or feature
   * index would otherwise index the model's arrays (may be NULL: nothing
   * to check). */
  int (*state_check)(const mbdae_model *model);
} mbdae_model_kind;


/** @brief Whether instances of a kind can be checkpointed (state_fields, or
 *         state_size, state_save and state_load, set).
 * @param kind the kind
 * @return 1 or 0 */
MBDAE_EXPORT int mbdae_model_state_supported(const mbdae_model_kind *kind);
/** @brief Bytes of an instance's internal state (state_fields counted, or
 *         state_size).
 * @param kind  its kind (mbdae_model_state_supported)
 * @param model the instance
 * @return the byte count */
MBDAE_EXPORT size_t mbdae_model_state_size(const mbdae_model_kind *kind,
                                           const mbdae_model *model);
/** @brief Save an instance's internal state.
 * @param kind  its kind
 * @param model the instance
 * @param buf   destination of mbdae_model_state_size() bytes
 * @param size  that size
 * @return 0, MBDAE_ERR_ARGUMENT if size is not the state's size, or < 0 */
MBDAE_EXPORT int mbdae_model_state_save(const mbdae_model_kind *kind, const mbdae_model *model,
                                        void *buf, size_t size);
/** @brief Restore an internal state saved by mbdae_model_state_save() into an
 *         instance built from the same parameters and put at t0.
 * @param kind  its kind
 * @param model the instance
 * @param buf   the saved bytes
 * @param size  their count
 * @return 0, MBDAE_ERR_ARGUMENT if size does not match, or < 0 */
MBDAE_EXPORT int mbdae_model_state_load(const mbdae_model_kind *kind, mbdae_model *model,
                                        const void *buf, size_t size);

/** @brief The usual `columns`/`event_columns` answer for a fixed table.
 * @param src  the table
 * @param n    its length
 * @param cols destination, or NULL to ask for the count
 * @param max  capacity of cols
 * @return n when cols is NULL, else how many entries were copied */
MBDAE_EXPORT int mbdae_columns_copy(const mbdae_column *src, int n, mbdae_column *cols,
                                    int max);

/** @brief Fill one outcome (name and unit are cut to their fields).
 * @param o     the outcome
 * @param name  its name
 * @param unit  its unit ("" if none)
 * @param value its value */
MBDAE_EXPORT void mbdae_outcome_set(mbdae_outcome *o, const char *name, const char *unit,
                                    double value);

/** @brief For a kind's state_load: are all n values finite? A checkpoint is
 *         trusted only past its checksum; every value it restores is checked
 *         (doc/checkpoint.md, "Validation").
 * @param v values
 * @param n their number
 * @return 1 when all are finite, else 0 */
MBDAE_EXPORT int mbdae_state_finite(const double *v, size_t n);

/** @brief Check a size taken from input against memory before allocating:
 *         bytes above half of mbdae_memory_available() fail.
 * @param err   (may be NULL) gets key and "<what> needs about X GB of memory,
 *              more than half of the Y GB available"
 * @param key   the parameter that sets the size
 * @param bytes the estimated need
 * @param what  what is sized ("a chain of 10000000 points")
 * @return MBDAE_OK or MBDAE_ERR_PARAMETER */
MBDAE_EXPORT int mbdae_param_check_memory(mbdae_param_error *err, const char *key, double bytes,
                             const char *what);

/** @brief The usual `create` failure report.
 * @param err  (may be NULL) gets the key "model" and the message
 *             "cannot build the <what>: <status message>"
 * @param what what could not be built
 * @param rc   the failing status
 * @return rc */
MBDAE_EXPORT int mbdae_param_error_build_failed(mbdae_param_error *err, const char *what,
                                                int rc);

/** The built-in model kinds (NULL-terminated). Kinds registered at run time
 *  are not in it: iterate with mbdae_model_kind_count() and
 *  mbdae_model_kind_at(), look up with mbdae_model_kind_find(). */
MBDAE_EXPORT extern const mbdae_model_kind *const mbdae_model_kinds[];

/** Capacity of the registry for kinds registered at run time. */
#define MBDAE_MODEL_KINDS_MAX_REGISTERED 64

/** @brief Register a model kind defined outside the library (in a user's
 *         program or a plug-in, doc/first-model-kind.md).
 *
 * From then on scenarios name it with `model:`, and the scenario loader
 * (schema checks), `mbdae list`, the writers, sweeps and checkpoints treat it
 * like a built-in kind. Register before loading scenarios; the registry is
 * not locked (register from one thread). The table is not copied: it must
 * outlive every use (a static const table).
 * @param kind   the kind: a name [a-z][a-z0-9_]* no other kind has; create,
 *               destroy, problem, initial_state, columns and output_row set;
 *               a schema whose entries fit params_size; state_size,
 *               state_save and state_load all set or all NULL, and not
 *               together with state_fields
 * @param err    (may be NULL) why it was refused, one line
 * @param errlen size of err
 * @return MBDAE_OK (also when this very table is registered already) or
 *         MBDAE_ERR_ARGUMENT (refused: err says why) */
MBDAE_EXPORT int mbdae_model_kind_register(const mbdae_model_kind *kind, char *err,
                                           size_t errlen);
/** @brief Number of model kinds: the built-in ones, then the registered ones.
 * @return the count */
MBDAE_EXPORT int mbdae_model_kind_count(void);
/** @brief The i-th model kind (built-in first, then in registration order).
 * @param i 0 <= i < mbdae_model_kind_count()
 * @return the kind, or NULL when i is out of range */
MBDAE_EXPORT const mbdae_model_kind *mbdae_model_kind_at(int i);
/** @brief Find a model kind by name (built-in or registered).
 * @param name the kind name
 * @return the kind, or NULL when the registry has none of that name */
MBDAE_EXPORT const mbdae_model_kind *mbdae_model_kind_find(const char *name);

/** Name of the entry point every plug-in exports (`mbdae run --plugin`,
 *  mbdae_plugin_load in mbdae/simulation.h). */
#define MBDAE_PLUGIN_INIT_SYMBOL "mbdae_plugin_init"
/** The plug-in entry point: `MBDAE_EXPORT int mbdae_plugin_init(void)`,
 *  which registers the plug-in's kinds (mbdae_model_kind_register, and
 *  mbdae_geometry_register for animated ones) and returns MBDAE_OK, or a
 *  status < 0 to refuse loading. */
typedef int (*mbdae_plugin_init_fn)(void);

#ifdef __cplusplus
}
#endif
#endif
