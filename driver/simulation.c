/* simulation.c - the library API of scenario runs (mbdae/simulation.h): a
 * loaded scenario with its text and overrides (kept for checkpoints), run
 * through run.c like `mbdae run`, and a sink that keeps the series and
 * the events in memory for the caller. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "mbdae/simulation.h"
#include "mbdae/status.h"
#include "run.h"
#include "scenario.h"
#include "scenario_dir.h"
#include "text_input.h"
#include "writer.h"

/* The series and events of a run, kept in memory (MBDAE_SIM_KEEP). */
typedef struct kept {
  int ncols;
  mbdae_column *cols;
  long nrows, rowcap;
  double *rows;
  int *kinds;
  int nevcols;         /* index, t, invariants before/after, event data */
  int ninv;
  mbdae_column *evcols;
  long nev, evcap;
  double *ev;
  char **evtext;       /* 4 per event: label, mode before, mode after, action */
} kept;

struct mbdae_simulation {
  mbdae_scenario s;
  char *text;          /* the YAML text (NULL: only the file was loaded) */
  int nsets;
  char **sets;         /* every override applied, in order */
  char *default_dir;
  double checkpoint_every;
  int ran;
  mbdae_run_result res;
  kept keep;
};

static void kept_free(kept *k) {
  for (long i = 0; i < 4 * k->nev; ++i) free(k->evtext[i]);
  free(k->cols);
  free(k->rows);
  free(k->kinds);
  free(k->evcols);
  free(k->ev);
  free(k->evtext);
  memset(k, 0, sizeof *k);
}

static int keep_begin(void *data, int ncols, const mbdae_column *cols, int nevcols,
                      const mbdae_column *evcols, int ninv, const char *const *inv_names,
                      const char *const *inv_units) {
  kept *k = data;
  kept_free(k);
  k->ncols = ncols;
  k->nevcols = 2 + 2 * ninv + nevcols;
  k->ninv = ninv;
  k->cols = calloc((size_t)ncols + 1, sizeof *k->cols);
  k->evcols = calloc((size_t)k->nevcols, sizeof *k->evcols);
  if (!k->cols || !k->evcols) return -1;
  memcpy(k->cols, cols, (size_t)ncols * sizeof *cols);
  snprintf(k->evcols[0].name, sizeof k->evcols[0].name, "index");
  snprintf(k->evcols[1].name, sizeof k->evcols[1].name, "t");
  snprintf(k->evcols[1].unit, sizeof k->evcols[1].unit, "%s", ncols > 0 ? cols[0].unit : "s");
  for (int i = 0; i < ninv; ++i)
    for (int a = 0; a < 2; ++a) {
      mbdae_column *c = &k->evcols[2 + 2 * i + a];
      snprintf(c->name, sizeof c->name, "%.50s_%s", inv_names[i], a ? "after" : "before");
      snprintf(c->unit, sizeof c->unit, "%s", inv_units ? inv_units[i] : "");
    }
  memcpy(k->evcols + 2 + 2 * ninv, evcols, (size_t)nevcols * sizeof *evcols);
  return 0;
}

/* Grow an array of n used, *cap allocated elements of size sz to hold one more. */
static int grow(void **p, long n, long *cap, size_t sz) {
  if (n < *cap) return 0;
  long nc = *cap ? 2 * *cap : 256;
  void *q = realloc(*p, (size_t)nc * sz);
  if (!q) return -1;
  *p = q;
  *cap = nc;
  return 0;
}

static int keep_row(void *data, const double *row, int kind) {
  kept *k = data;
  if (k->nrows == k->rowcap) {
    long cap = k->rowcap;
    void *rows = k->rows, *kinds = k->kinds;
    if (grow(&rows, k->nrows, &cap, (size_t)k->ncols * sizeof(double))) return -1;
    k->rows = rows;
    cap = k->rowcap;
    if (grow(&kinds, k->nrows, &cap, sizeof(int))) return -1;
    k->kinds = kinds;
    k->rowcap = cap;
  }
  memcpy(k->rows + (size_t)k->nrows * (size_t)k->ncols, row, (size_t)k->ncols * sizeof *row);
  k->kinds[k->nrows++] = kind;
  return 0;
}

static char *dup_text(const char *s) {
  s = s ? s : "";
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d) memcpy(d, s, n);
  return d;
}

static const char *action_word(int action) {
  return action == MBDAE_EVENT_STOP ? "stop" : action == MBDAE_EVENT_NOCHANGE ? "nochange"
                                                                              : "continue";
}

static int keep_event(void *data, const mbdae_event_record *ev) {
  kept *k = data;
  if (k->nev == k->evcap) {
    long cap = k->evcap;
    void *v = k->ev, *t = k->evtext;
    if (grow(&v, k->nev, &cap, (size_t)k->nevcols * sizeof(double))) return -1;
    k->ev = v;
    cap = k->evcap;
    if (grow(&t, k->nev, &cap, 4 * sizeof(char *))) return -1;
    k->evtext = t;
    k->evcap = cap;
  }
  double *r = k->ev + (size_t)k->nev * (size_t)k->nevcols;
  int ninv = k->ninv;
  r[0] = (double)ev->index;
  r[1] = ev->t;
  for (int i = 0; i < ninv; ++i) {
    r[2 + 2 * i] = i < ev->ninv ? ev->inv_before[i] : NAN;
    r[3 + 2 * i] = i < ev->ninv ? ev->inv_after[i] : NAN;
  }
  for (int j = 2 + 2 * ninv; j < k->nevcols; ++j) {
    int d = j - 2 - 2 * ninv;
    r[j] = d < ev->ndata ? ev->data[d] : NAN;
  }
  char **txt = k->evtext + 4 * k->nev;
  txt[0] = dup_text(ev->label);
  txt[1] = dup_text(ev->mode_before);
  txt[2] = dup_text(ev->mode_after);
  txt[3] = dup_text(action_word(ev->action));
  k->nev++; /* counted now, so kept_free frees what was allocated */
  return txt[0] && txt[1] && txt[2] && txt[3] ? 0 : -1;
}

static int add_sets(mbdae_simulation *sim, const char *const *sets, int n) {
  if (n <= 0) return 0;
  char **more = realloc(sim->sets, (size_t)(sim->nsets + n) * sizeof *more);
  if (!more) return -1;
  sim->sets = more;
  for (int i = 0; i < n; ++i) {
    if (!(sim->sets[sim->nsets] = dup_text(sets[i]))) return -1;
    sim->nsets++;
  }
  return 0;
}

static int set_default_dir(mbdae_simulation *sim) {
  const char *d = sim->s.out_dir;
  size_t n = d ? strlen(d) + 1 : strlen(sim->s.stem) + 5;
  free(sim->default_dir);
  sim->default_dir = malloc(n);
  if (!sim->default_dir) return -1;
  if (d) memcpy(sim->default_dir, d, n);
  else snprintf(sim->default_dir, n, "out/%s", sim->s.stem);
  return 0;
}

static int msg(char *err, size_t errlen, int rc, const char *text) {
  if (err && errlen) snprintf(err, errlen, "%s", text);
  return rc;
}

/* A new simulation holding text (taken over; may be NULL), loaded from it
 * (or from path when text is NULL). */
static int make(const char *name, char *text, const char *const *overrides, int n,
                mbdae_simulation **out, char *err, size_t errlen) {
  mbdae_simulation *sim = calloc(1, sizeof *sim);
  if (!sim) {
    free(text);
    return msg(err, errlen, MBDAE_ERR_MEMORY, "out of memory");
  }
  sim->text = text;
  int rc = text ? mbdae_scenario_load_string(NULL, name, text, overrides, n, &sim->s, err, errlen)
                : mbdae_scenario_load(name, overrides, n, &sim->s, err, errlen);
  if (!rc && (add_sets(sim, overrides, n) || set_default_dir(sim)))
    rc = msg(err, errlen, MBDAE_ERR_MEMORY, "out of memory");
  if (rc) {
    mbdae_simulation_free(&sim);
    return rc;
  }
  *out = sim;
  return MBDAE_OK;
}

int mbdae_simulation_load(const char *path, const char *const *overrides, int n,
                          mbdae_simulation **sim, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!sim) return msg(err, errlen, MBDAE_ERR_ARGUMENT, "no simulation handle");
  *sim = NULL;
  if (!path || n < 0 || (n > 0 && !overrides))
    return msg(err, errlen, MBDAE_ERR_ARGUMENT, "bad arguments to mbdae_simulation_load");
  char buf[4096];
  path = mbdae_scenario_resolve(path, buf, sizeof buf);
  if (mbdae_scenario_name_missing(path, "scenarios", err, errlen)) return MBDAE_ERR_IO;
  /* the text itself is run and kept (checkpoints must not depend on the
   * file staying as it was); if it cannot be read, the loader says why */
  char *text = NULL;
  size_t len = 0;
  char ignored[256];
  if (mbdae_text_file_read(path, &text, &len, ignored, sizeof ignored)) text = NULL;
  return make(path, text, overrides, n, sim, err, errlen);
}

int mbdae_simulation_load_text(const char *name, const char *text, const char *const *overrides,
                               int n, mbdae_simulation **sim, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!sim) return msg(err, errlen, MBDAE_ERR_ARGUMENT, "no simulation handle");
  *sim = NULL;
  if (!text || n < 0 || (n > 0 && !overrides))
    return msg(err, errlen, MBDAE_ERR_ARGUMENT, "bad arguments to mbdae_simulation_load_text");
  char *copy = dup_text(text);
  if (!copy) return msg(err, errlen, MBDAE_ERR_MEMORY, "out of memory");
  return make(name ? name : "scenario", copy, overrides, n, sim, err, errlen);
}

void mbdae_simulation_free(mbdae_simulation **sim) {
  if (!sim || !*sim) return;
  mbdae_simulation *s = *sim;
  mbdae_scenario_free(&s->s);
  kept_free(&s->keep);
  for (int i = 0; i < s->nsets; ++i) free(s->sets[i]);
  free(s->sets);
  free(s->text);
  free(s->default_dir);
  free(s);
  *sim = NULL;
}

int mbdae_simulation_override(mbdae_simulation *sim, const char *const *overrides, int n,
                              char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!sim || n < 0 || (n > 0 && !overrides))
    return msg(err, errlen, MBDAE_ERR_ARGUMENT, "bad arguments to mbdae_simulation_override");
  int rc = mbdae_scenario_override(&sim->s, overrides, n, err, errlen);
  if (!rc && (add_sets(sim, overrides, n) || set_default_dir(sim)))
    rc = msg(err, errlen, MBDAE_ERR_MEMORY, "out of memory");
  return rc;
}

const char *mbdae_simulation_model(const mbdae_simulation *sim) {
  return sim && sim->s.kind ? sim->s.kind->name : "";
}

const char *mbdae_simulation_default_dir(const mbdae_simulation *sim) {
  return sim ? sim->default_dir : NULL;
}

int mbdae_simulation_set_checkpoint_every(mbdae_simulation *sim, double T) {
  if (!sim || !(T >= 0.0) || !isfinite(T)) return MBDAE_ERR_ARGUMENT;
  sim->checkpoint_every = T;
  return MBDAE_OK;
}

static void config(mbdae_simulation *sim, mbdae_run_config *cfg, mbdae_run_sink *sink,
                   const char *out_dir, int flags) {
  mbdae_run_config_default(cfg, &sim->s);
  cfg->out_dir = out_dir;
  cfg->plots = sim->s.plots && !(flags & MBDAE_SIM_NO_PLOTS);
  cfg->progress = (flags & MBDAE_SIM_PROGRESS) != 0;
  cfg->notes = (flags & MBDAE_SIM_NOTES) ? stderr : NULL;
  cfg->scenario_text = sim->text;
  cfg->sets = (const char *const *)sim->sets;
  cfg->nsets = sim->nsets;
  if (out_dir) cfg->checkpoint_every = sim->checkpoint_every;
  sink->data = &sim->keep;
  sink->begin = keep_begin;
  sink->row = keep_row;
  sink->event = keep_event;
  cfg->sink = (flags & MBDAE_SIM_KEEP) ? sink : NULL;
}

int mbdae_simulation_run(mbdae_simulation *sim, const char *out_dir, int flags, char *err,
                         size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!sim) return msg(err, errlen, MBDAE_ERR_ARGUMENT, "no simulation");
  if (out_dir && !*out_dir) return msg(err, errlen, MBDAE_ERR_ARGUMENT, "empty output directory");
  kept_free(&sim->keep);
  memset(&sim->res, 0, sizeof sim->res);
  mbdae_run_config cfg;
  mbdae_run_sink sink;
  config(sim, &cfg, &sink, out_dir, flags);
  int rc = mbdae_scenario_run(&sim->s, &cfg, &sim->res, err, errlen);
  sim->ran = 1;
  if (rc == MBDAE_ERR_SCENARIO && sim->res.status >= 0) sim->res.status = MBDAE_ERR_SCENARIO;
  return rc;
}

int mbdae_simulation_resume(const char *rundir, int flags, mbdae_simulation **out, char *err,
                            size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!out) return msg(err, errlen, MBDAE_ERR_ARGUMENT, "no simulation handle");
  *out = NULL;
  if (!rundir || !*rundir) return msg(err, errlen, MBDAE_ERR_ARGUMENT, "no run directory");
  mbdae_checkpoint cp;
  int rc = mbdae_checkpoint_read(rundir, &cp, err, errlen);
  if (rc) return rc;
  mbdae_simulation *sim = NULL;
  char *text = dup_text(cp.scenario_text);
  rc = text ? make(cp.scenario_name, text, (const char *const *)cp.sets, cp.nsets, &sim, err,
                   errlen)
            : msg(err, errlen, MBDAE_ERR_MEMORY, "out of memory");
  if (rc) {
    mbdae_checkpoint_free(&cp);
    return rc == MBDAE_ERR_MEMORY ? rc : MBDAE_ERR_IO;
  }
  mbdae_run_config cfg;
  mbdae_run_sink sink;
  config(sim, &cfg, &sink, rundir, flags);
  cfg.plots = cp.plots && !(flags & MBDAE_SIM_NO_PLOTS);
  cfg.every = cp.every;
  cfg.event_rows = cp.event_rows;
  cfg.checkpoint_every = cp.every_t;
  cfg.resume = &cp;
  rc = mbdae_scenario_run(&sim->s, &cfg, &sim->res, err, errlen);
  sim->ran = 1;
  mbdae_checkpoint_free(&cp);
  *out = sim;
  return rc;
}

int mbdae_simulation_status(const mbdae_simulation *sim) {
  return sim && sim->ran ? sim->res.status : MBDAE_ERR_NOT_FOUND;
}

const char *mbdae_simulation_message(const mbdae_simulation *sim) {
  return sim && sim->ran ? sim->res.message : "";
}

char *mbdae_simulation_summary_json(const mbdae_simulation *sim) {
  if (!sim || !sim->ran) return NULL;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  int bad = mbdae_summary_json_print(f, &sim->s, &sim->res) != 0;
  bad |= fclose(f) != 0;
  if (bad) {
    free(buf);
    return NULL;
  }
  return buf;
}

int mbdae_simulation_series(const mbdae_simulation *sim, const double **rows, long *nrows,
                            int *ncols) {
  if (!sim || !sim->keep.cols) return MBDAE_ERR_NOT_FOUND;
  if (rows) *rows = sim->keep.rows;
  if (nrows) *nrows = sim->keep.nrows;
  if (ncols) *ncols = sim->keep.ncols;
  return MBDAE_OK;
}

const int *mbdae_simulation_series_kinds(const mbdae_simulation *sim) {
  return sim && sim->keep.cols ? sim->keep.kinds : NULL;
}

static const char *column(const mbdae_column *cols, int n, int j, const char **unit) {
  if (!cols || j < 0 || j >= n) return NULL;
  if (unit) *unit = cols[j].unit;
  return cols[j].name;
}

const char *mbdae_simulation_series_column(const mbdae_simulation *sim, int j, const char **unit) {
  return sim ? column(sim->keep.cols, sim->keep.ncols, j, unit) : NULL;
}

int mbdae_simulation_events(const mbdae_simulation *sim, const double **values, long *nevents,
                            int *ncols) {
  if (!sim || !sim->keep.evcols) return MBDAE_ERR_NOT_FOUND;
  if (values) *values = sim->keep.ev;
  if (nevents) *nevents = sim->keep.nev;
  if (ncols) *ncols = sim->keep.nevcols;
  return MBDAE_OK;
}

const char *mbdae_simulation_event_column(const mbdae_simulation *sim, int j, const char **unit) {
  return sim ? column(sim->keep.evcols, sim->keep.nevcols, j, unit) : NULL;
}

const char *mbdae_simulation_event_text(const mbdae_simulation *sim, long i, int what) {
  if (!sim || i < 0 || i >= sim->keep.nev || what < 0 || what > 3) return NULL;
  return sim->keep.evtext[4 * i + what];
}

void mbdae_free(void *p) { free(p); }

const char *mbdae_version(void) { return MBDAE_VERSION_STRING; }
