/** @file mbdae/simulation.h
 * @brief Scenario files run from a program: what `mbdae run`, `mbdae resume`,
 *        `mbdae sweep` and `mbdae list` do, as a library (the Python package
 *        python/mbdae is built on it).
 *
 * A simulation is a scenario file (YAML, doc/scenario-format.md) loaded and
 * checked against its model's schema, with overrides ("parameters.e=0.5").
 * Running it writes the same output directory as `mbdae run` (series.csv,
 * events.csv, summary.json, results.mat, plots, VTK frames, checkpoints) and,
 * with MBDAE_SIM_KEEP, keeps the series and the events in memory. Model kinds
 * registered with mbdae_model_kind_register() (mbdae/model.h) or loaded from
 * a plug-in with mbdae_plugin_load() are run like the built-in ones.
 *
 * Errors in the input come back as one line "FILE:LINE: key 'KEY': why"
 * (overrides: "FILE: --set KEY=VALUE: key 'KEY': why") with
 * MBDAE_ERR_SCENARIO, and nothing is written.
 *
 *     mbdae_simulation *sim = NULL;
 *     const char *set[] = {"parameters.e=0.5"};
 *     if (mbdae_simulation_load("ball.yaml", set, 1, &sim, err, sizeof err)) ...
 *     int rc = mbdae_simulation_run(sim, "out/ball", MBDAE_SIM_KEEP, err, sizeof err);
 *     const double *rows; long nrows; int ncols;
 *     mbdae_simulation_series(sim, &rows, &nrows, &ncols);
 *     mbdae_simulation_free(&sim);
 */
#ifndef MBDAE_SIMULATION_H
#define MBDAE_SIMULATION_H

#include "mbdae/export.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A loaded, checked scenario and the results of its last run (opaque). */
typedef struct mbdae_simulation mbdae_simulation;

/* Flags of mbdae_simulation_run() and mbdae_simulation_resume(). */
#define MBDAE_SIM_NO_PLOTS 1 /**< do not render the model's PNG plots */
#define MBDAE_SIM_PROGRESS 2 /**< draw a progress bar on stderr (when it is a terminal) */
#define MBDAE_SIM_KEEP 4     /**< keep the series and the events in memory */
#define MBDAE_SIM_NOTES 8    /**< print notes ("gnuplot not found") on stderr */
#define MBDAE_SIM_RESUME 16  /**< mbdae_sweep_study_run: go on from the study's journal */

/** What a series row is (mbdae_simulation_series_kinds(), the row_kind
 *  column of series.csv). */
enum {
  MBDAE_SERIES_SAMPLE = 0,    /**< t0, the output grid t0 + k dt_out, the final state */
  MBDAE_SERIES_PRE_EVENT = 1, /**< the state just before an event */
  MBDAE_SERIES_POST_EVENT = 2 /**< the state just after it (same t) */
};

/** @brief Load and check a scenario file.
 * @param path      the file; a bare name that is not a file here
 *                  ("ball.yaml" or "ball") is looked up among the shipped
 *                  scenarios (mbdae_scenario_dir())
 * @param overrides "KEY=VALUE" strings applied before the checks (may be
 *                  NULL when n is 0)
 * @param n         their number
 * @param sim       receives the simulation (NULL on failure)
 * @param err       (may be NULL) the one-line reason of a failure
 * @param errlen    size of err
 * @return MBDAE_OK, MBDAE_ERR_SCENARIO (bad content), MBDAE_ERR_IO (cannot
 *         read), MBDAE_ERR_MEMORY or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_simulation_load(const char *path, const char *const *overrides, int n,
                                       mbdae_simulation **sim, char *err, size_t errlen);
/** @brief Load and check a scenario given as YAML text.
 * @param name      stands for the file in messages and summary.json (and
 *                  gives the default output directory out/<stem>)
 * @param text      the YAML text
 * @param overrides as for mbdae_simulation_load()
 * @param n         their number
 * @param sim       receives the simulation
 * @param err       (may be NULL) the one-line reason of a failure
 * @param errlen    size of err
 * @return as mbdae_simulation_load() */
MBDAE_EXPORT int mbdae_simulation_load_text(const char *name, const char *text,
                                            const char *const *overrides, int n,
                                            mbdae_simulation **sim, char *err, size_t errlen);
/** @brief Free a simulation and its results; set *sim to NULL.
 * @param sim address of the handle (NULL or *sim NULL: nothing to do) */
MBDAE_EXPORT void mbdae_simulation_free(mbdae_simulation **sim);
/** @brief Apply more overrides and check everything again (all or nothing).
 * @param sim       the simulation
 * @param overrides "KEY=VALUE" strings
 * @param n         their number
 * @param err       (may be NULL) the reason of a failure
 * @param errlen    size of err
 * @return MBDAE_OK or MBDAE_ERR_SCENARIO (sim unchanged) */
MBDAE_EXPORT int mbdae_simulation_override(mbdae_simulation *sim, const char *const *overrides,
                                           int n, char *err, size_t errlen);
/** @brief The model kind a simulation runs.
 * @param sim the simulation
 * @return its name ("" for NULL) */
MBDAE_EXPORT const char *mbdae_simulation_model(const mbdae_simulation *sim);
/** @brief Where `mbdae run` would write: the scenario's output.dir, else
 *         out/<file stem>.
 * @param sim the simulation
 * @return the directory (valid while sim lives) */
MBDAE_EXPORT const char *mbdae_simulation_default_dir(const mbdae_simulation *sim);
/** @brief Checkpoint every T simulated seconds in the next runs
 *         (`mbdae run --checkpoint-every T`, doc/checkpoint.md).
 * @param sim the simulation
 * @param T   > 0, or 0 for none
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_simulation_set_checkpoint_every(mbdae_simulation *sim, double T);

/** @brief Run the simulation: write out_dir like `mbdae run --out out_dir`
 *         and (MBDAE_SIM_KEEP) keep the series and events in memory.
 *
 * Earlier results of sim are dropped first. A run may be repeated (each
 * starts from the scenario's initial state).
 * @param sim     the simulation
 * @param out_dir the output directory, or NULL to write no file at all
 * @param flags   MBDAE_SIM_* flags
 * @param err     (may be NULL) the one-line reason of a failure
 * @param errlen  size of err
 * @return MBDAE_ERR_SCENARIO: the model or engine rejected the input before
 *         the run started (nothing written); MBDAE_ERR_IO: an output file
 *         could not be written; otherwise the engine's status (MBDAE_OK,
 *         MBDAE_STOPPED or a failure whose message is in err and in
 *         mbdae_simulation_message()); the results hold what was computed */
MBDAE_EXPORT int mbdae_simulation_run(mbdae_simulation *sim, const char *out_dir, int flags,
                                      char *err, size_t errlen);
/** @brief Continue a checkpointed or interrupted run (`mbdae resume RUNDIR`).
 * @param rundir  its output directory (holds checkpoint.bin)
 * @param flags   MBDAE_SIM_* flags (MBDAE_SIM_KEEP keeps the resumed part)
 * @param sim     receives the simulation with its results (also when the
 *                run failed; NULL when the checkpoint could not be used)
 * @param err     (may be NULL) the one-line reason of a failure
 * @param errlen  size of err
 * @return as mbdae_simulation_run(); MBDAE_ERR_NOT_FOUND or MBDAE_ERR_IO
 *         when there is no usable checkpoint */
MBDAE_EXPORT int mbdae_simulation_resume(const char *rundir, int flags, mbdae_simulation **sim,
                                         char *err, size_t errlen);

/** @brief Status of the last run.
 * @param sim the simulation
 * @return the engine's status (MBDAE_OK, MBDAE_STOPPED, < 0 failure);
 *         MBDAE_ERR_NOT_FOUND before any run */
MBDAE_EXPORT int mbdae_simulation_status(const mbdae_simulation *sim);
/** @brief The failure message of the last run ("" on success).
 * @param sim the simulation
 * @return the message (valid while sim lives) */
MBDAE_EXPORT const char *mbdae_simulation_message(const mbdae_simulation *sim);
/** @brief The summary of the last run: the text summary.json holds.
 * @param sim the simulation
 * @return a JSON object (malloc'd: free with mbdae_free()), NULL before any
 *         run or out of memory */
MBDAE_EXPORT char *mbdae_simulation_summary_json(const mbdae_simulation *sim);

/** @brief The series kept by the last run (MBDAE_SIM_KEEP).
 * @param sim   the simulation
 * @param rows  receives nrows x ncols values, row-major (column 0 is t)
 * @param nrows receives the row count
 * @param ncols receives the column count
 * @return MBDAE_OK, MBDAE_ERR_NOT_FOUND (nothing kept) */
MBDAE_EXPORT int mbdae_simulation_series(const mbdae_simulation *sim, const double **rows,
                                         long *nrows, int *ncols);
/** @brief The kind of each kept series row (MBDAE_SERIES_*).
 * @param sim the simulation
 * @return nrows values, NULL when nothing was kept */
MBDAE_EXPORT const int *mbdae_simulation_series_kinds(const mbdae_simulation *sim);
/** @brief Name and unit of a series column.
 * @param sim  the simulation
 * @param j    0 <= j < ncols
 * @param unit (may be NULL) receives its unit ("" if none)
 * @return its name, NULL when j is out of range or nothing was kept */
MBDAE_EXPORT const char *mbdae_simulation_series_column(const mbdae_simulation *sim, int j,
                                                        const char **unit);
/** @brief The numbers of the events kept by the last run, one row per event:
 *         index, t, then for each invariant I its value before and after
 *         the event map, then the model's event data (the numeric columns
 *         of events.csv, in its order).
 * @param sim     the simulation
 * @param values  receives nevents x ncols values, row-major
 * @param nevents receives the event count
 * @param ncols   receives the column count
 * @return MBDAE_OK, MBDAE_ERR_NOT_FOUND (nothing kept) */
MBDAE_EXPORT int mbdae_simulation_events(const mbdae_simulation *sim, const double **values,
                                         long *nevents, int *ncols);
/** @brief Name and unit of an event column (as mbdae_simulation_series_column()).
 * @param sim  the simulation
 * @param j    0 <= j < ncols
 * @param unit (may be NULL) receives its unit
 * @return its name, NULL when out of range */
MBDAE_EXPORT const char *mbdae_simulation_event_column(const mbdae_simulation *sim, int j,
                                                       const char **unit);
/** @brief The words of event i: its label, the mode before and the mode
 *         after it, and the action ("continue", "stop", "nochange").
 * @param sim  the simulation
 * @param i    0 <= i < nevents
 * @param what 0 label, 1 mode before, 2 mode after, 3 action
 * @return the text, NULL when out of range */
MBDAE_EXPORT const char *mbdae_simulation_event_text(const mbdae_simulation *sim, long i,
                                                     int what);

/** @brief Run a parameter study (`mbdae sweep STUDY`, doc/sweep.md) in this
 *         process and write its files.
 * @param path    the study file (its base scenario is relative to it)
 * @param out_dir where runs.csv, sets.csv, critical.csv and the plots go;
 *                NULL: the study's output.dir, else out/<study stem>
 * @param flags   MBDAE_SIM_NO_PLOTS, MBDAE_SIM_RESUME (run only the runs the
 *                journal in out_dir/journal does not hold: a sweep that was
 *                killed goes on), or 0 (a new sweep: the journal is cleared)
 * @param err     (may be NULL) the one-line reason of a failure
 * @param errlen  size of err
 * @return MBDAE_OK (single runs may still have failed: runs.csv says which),
 *         MBDAE_ERR_SCENARIO (the study or its base scenario is bad),
 *         MBDAE_ERR_IO (out_dir in use by another sweep or run, a journal of
 *         another study, a file not written), MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_sweep_study_run(const char *path, const char *out_dir, int flags,
                                       char *err, size_t errlen);

/** @brief Load a plug-in: a shared object that registers model kinds
 *         (`mbdae run --plugin FILE`, doc/first-model-kind.md).
 *
 * dlopen()s path and calls its entry point MBDAE_PLUGIN_INIT_SYMBOL
 * (mbdae/model.h), which registers its kinds. Loading the same file again
 * is harmless.
 * @param path   the .so (a path with a '/', else searched like dlopen does)
 * @param err    (may be NULL) the reason of a failure
 * @param errlen size of err
 * @return MBDAE_OK, MBDAE_ERR_IO (cannot be loaded), MBDAE_ERR_NOT_FOUND (no
 *         entry point) or the entry point's own status */
MBDAE_EXPORT int mbdae_plugin_load(const char *path, char *err, size_t errlen);

/** @brief The directory of the shipped scenarios: $MBDAE_SCENARIO_DIR when
 *         set, else the installed share/mbdae/scenarios next to the library
 *         or the command, else the source tree's (a build tree).
 * @return the directory (a static string) */
MBDAE_EXPORT const char *mbdae_scenario_dir(void);

/** @brief Every model kind (built-in and registered) with its parameter
 *         schema, and the solver: and output: keys, as JSON (what `mbdae
 *         list --params` and `--solver` print, for programs):
 *         {"models": [{"name", "summary", "parameters": [SPEC...]}...],
 *         "solver": [SPEC...], "output": [SPEC...]}, where SPEC is {"key",
 *         "type" (double int bool enum vec table), "default" (null when
 *         required), "default_text", "min", "max" (null: unbounded),
 *         "min_open", "max_open", "required", "len", "choices", "unit", "doc"}.
 * @return the text (malloc'd: free with mbdae_free()), NULL out of memory */
MBDAE_EXPORT char *mbdae_model_kinds_json(void);

/** @brief Free memory the library returned (summary and schema texts).
 * @param p the pointer (NULL: nothing) */
MBDAE_EXPORT void mbdae_free(void *p);

/** @brief The library's version, "MAJOR.MINOR.PATCH".
 * @return a static string */
MBDAE_EXPORT const char *mbdae_version(void);

#ifdef __cplusplus
}
#endif
#endif
