/* scenario.h - load a scenario file (YAML) into a checked, ready-to-run
 * description: model kind, its filled parameter struct, solver options and
 * output settings. Everything is checked against the schemas before anything
 * runs; a rejection is ONE line "FILE:LINE: key 'parameters.e': <why>" in
 * the caller's buffer (overrides: "FILE: --set KEY=VALUE: key 'KEY': <why>").
 *
 * Typical use (a sweep loads once, then overrides copies):
 *   mbdae_scenario base, s;
 *   if (mbdae_scenario_load(path, NULL, 0, &base, err, sizeof err)) ...
 *   mbdae_scenario_copy(&s, &base);
 *   const char *set[] = {"parameters.e=0.5"};
 *   if (mbdae_scenario_override(&s, set, 1, err, sizeof err)) ...
 *   mbdae_scenario_run(&s, &cfg, &result, err, sizeof err);   (run.h)
 *   mbdae_scenario_free(&s); ... mbdae_scenario_free(&base);
 */
#ifndef MBDAE_DRIVER_SCENARIO_H
#define MBDAE_DRIVER_SCENARIO_H

#include <stddef.h>

#include "mbdae/engine.h"
#include "mbdae/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mbdae_scenario_priv mbdae_scenario_priv;

typedef struct mbdae_scenario {
  char *path;                     /* as given (messages, summary.json) */
  char *stem;                     /* file name without directory and .yaml */
  char *description;              /* "" when absent */
  const mbdae_model_kind *kind;
  void *params;                   /* kind->params_size bytes, schema-filled */
  mbdae_options options;          /* engine defaults + `solver:` (no callbacks) */
  char *out_dir;                  /* `output.dir`, NULL when absent */
  int plots;                      /* `output.plots` (default true) */
  int every;                      /* `output.every` (default 1) */
  int event_rows;                 /* `output.event_rows` (default true) */
  int format;                     /* `output.format` (mbdae_output_format, default csv) */
  int vtk;                        /* `output.vtk` (default true) */
  int animation;                  /* `output.animation` (default false) */
  mbdae_scenario_priv *priv;      /* key lines, raw solver fields */
} mbdae_scenario;

/* Load and check a scenario file against the model registry, then apply
 * overrides ("parameters.e=0.5", "solver.t_end=3"; n may be 0) and run every
 * check. Returns 0, MBDAE_ERR_SCENARIO (bad content), MBDAE_ERR_IO (cannot
 * read) or MBDAE_ERR_MEMORY, with the one-line message in err. On failure *s
 * is left empty (safe to free). */
int mbdae_scenario_load(const char *path, const char *const *overrides, int n,
                        mbdae_scenario *s, char *err, size_t errlen);

/* The same against an explicit NULL-terminated kind table (tests, plugins). */
int mbdae_scenario_load_registry(const mbdae_model_kind *const *registry,
                                 const char *path, const char *const *overrides,
                                 int n, mbdae_scenario *s, char *err,
                                 size_t errlen);

/* The same from YAML text; name stands for the file in messages. registry
 * NULL means the built-in one. */
int mbdae_scenario_load_string(const mbdae_model_kind *const *registry,
                               const char *name, const char *text,
                               const char *const *overrides, int n,
                               mbdae_scenario *s, char *err, size_t errlen);

/* Apply overrides to a loaded scenario and re-run every check. All or
 * nothing: on failure s is unchanged. */
int mbdae_scenario_override(mbdae_scenario *s, const char *const *overrides,
                            int n, char *err, size_t errlen);

/* Deep copy (dst must not hold a scenario; free it first). */
int mbdae_scenario_copy(mbdae_scenario *dst, const mbdae_scenario *src);

void mbdae_scenario_free(mbdae_scenario *s);

/* Format "FILE:LINE: key 'KEY': why" for a key of s: the line where KEY was
 * given, else that of its base key ("parameters.tab" for
 * "parameters.tab[3][1]"), else that of its section, else 1. */
void mbdae_scenario_key_error(const mbdae_scenario *s, const char *key,
                              const char *why, char *err, size_t errlen);

/* The scenario key a model's mbdae_param_error.key names: schema keys and
 * sub-keys ("e", "strings[3]") are under parameters.; keys that already name
 * a section ("solver.linear_solver", "model") stay; a bare solver key that is
 * not one of kind's parameters ("method") is under solver.; NULL gives
 * fallback. */
void mbdae_scenario_full_key(const mbdae_model_kind *kind, const char *key,
                             const char *fallback, char *out, size_t len);

#ifdef __cplusplus
}
#endif
#endif
