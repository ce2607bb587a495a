/* run.c - run a loaded scenario: create the model, take its initial state,
 * integrate with mbdae_run while an observer feeds the output writers
 * (opened lazily, so a run the engine rejects up front writes nothing), then
 * finish the writers and return the outcomes. */
#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mbdae/status.h"
#include "output_dir.h"
#include "progress.h"
#include "writer.h"
#include "writer_vtk.h"

static const mbdae_writer_ops *const writers[] = {
  &mbdae_writer_series_csv, &mbdae_writer_events_csv, &mbdae_writer_plots,
  &mbdae_writer_summary_json
};
enum { NWRITERS = (int)(sizeof writers / sizeof writers[0]) };

typedef struct run_ctx {
  const mbdae_scenario *s;
  const mbdae_run_config *cfg;
  mbdae_model *model;
  mbdae_problem *problem;
  mbdae_run_result *res;
  mbdae_output_ctx out;
  void *state[NWRITERS];
  int observed, opened, io_failed, prepend_t;
  long every;
  double *row, *inv, *inv_seg;  /* series row, invariants now / at segment start */
  double *held;                 /* last skipped sample's row (every > 1) ... */
  double held_t;                /* ... and its time: written if an event follows */
  int has_held;
  long grid_k;                  /* output-grid samples seen (pre-event states excluded) */
  double last_t;                /* time of the last ev == NULL sample, */
  int last_was_sample;          /* when it was the observer's last call */
  char io_msg[512];
  mbdae_vtk *vtk;               /* VTK frames (writer_vtk.c); NULL without geometry */
} run_ctx;

const char *mbdae_run_status_word(int status) {
  return status == MBDAE_OK ? "ok" : status == MBDAE_STOPPED ? "stopped" : "failed";
}

void mbdae_run_config_default(mbdae_run_config *c, const mbdae_scenario *s) {
  memset(c, 0, sizeof *c);
  c->plots = s ? s->plots : 1;
  c->every = s && s->every > 0 ? s->every : 1;
  c->event_rows = s ? s->event_rows : 1;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int open_writers(run_ctx *c) {
  c->opened = 1;
  int rc = mbdae_mkdir_p(c->cfg->out_dir, c->io_msg, sizeof c->io_msg);
  for (int i = 0; !rc && i < NWRITERS; ++i)
    if (writers[i]->open) rc = writers[i]->open(&c->out, &c->state[i], c->io_msg, sizeof c->io_msg);
  int vtk_failed = 0;
  if (!rc) c->vtk = mbdae_vtk_open(c->s->kind->name, c->cfg->out_dir,
                                       c->s->options.dt_out, &vtk_failed);
  if (vtk_failed) {
    rc = MBDAE_ERR_IO;
    snprintf(c->io_msg, sizeof c->io_msg, "cannot create %s/vtk", c->cfg->out_dir);
  }
  if (rc) c->io_failed = 1;
  return rc;
}

static void track_invariants(run_ctx *c, double t, const double *y, const double *yp,
                             const mbdae_event_record *ev) {
  mbdae_run_result *r = c->res;
  if (r->ninv <= 0) return;
  if (mbdae_problem_eval_invariants(c->problem, t, y, yp, c->inv) != MBDAE_OK) return;
  for (int i = 0; i < r->ninv; ++i) {
    mbdae_run_invariant *v = &r->inv[i];
    if (ev && ev->inv_before && i < ev->ninv) { /* end of the smooth segment */
      double d = fabs(ev->inv_before[i] - c->inv_seg[i]);
      if (d > v->max_flow_drift || isnan(d)) v->max_flow_drift = d;
      d = fabs(ev->inv_before[i] - v->start);
      if (d > v->max_drift || isnan(d)) v->max_drift = d;
    }
    double d = fabs(c->inv[i] - c->inv_seg[i]);
    if (ev) c->inv_seg[i] = c->inv[i]; /* a new segment starts after the event */
    else if (d > v->max_flow_drift || isnan(d)) v->max_flow_drift = d;
    d = fabs(c->inv[i] - v->start);
    if (d > v->max_drift || isnan(d)) v->max_drift = d;
    v->end = c->inv[i];
  }
}

static int make_row(run_ctx *c, double *dst, double t, const double *y, const double *yp) {
  if (c->prepend_t) dst[0] = t;
  int rc = c->s->kind->output_row(c->model, t, y, yp, dst + (c->prepend_t ? 1 : 0));
  if (rc < 0) {
    snprintf(c->io_msg, sizeof c->io_msg, "model '%s': output_row failed at t = %.10g",
             c->s->kind->name, t);
    return -1;
  }
  return 0;
}

static int put_row(run_ctx *c, const double *row) {
  if (writers[0]->sample(c->state[0], &c->out, row)) {
    c->io_failed = 1;
    snprintf(c->io_msg, sizeof c->io_msg, "cannot write %s/series.csv", c->out.dir);
    return -1;
  }
  c->res->rows++;
  return 0;
}

static int write_row(run_ctx *c, double t, const double *y, const double *yp) {
  return make_row(c, c->row, t, y, yp) ? -1 : put_row(c, c->row);
}

static int observer(double t, const double *y, const double *yp,
                    const mbdae_event_record *ev, void *user_data) {
  run_ctx *c = user_data;
  c->observed = 1;
  track_invariants(c, t, y, yp, ev);
  long k = -1;
  if (ev) {
    c->res->events++;
    if (c->last_was_sample && c->last_t == ev->t) c->grid_k--; /* a pre-event state */
    c->last_was_sample = 0;
  } else {
    c->res->samples++;
    k = c->grid_k++;
    c->last_t = t;
    c->last_was_sample = 1;
  }
  if (!c->cfg->out_dir) return 0;
  if (!c->opened && open_writers(c)) return -1;
  if (c->io_failed) return -1;
  if (ev) {
    /* the pre-event state was a skipped sample: keep it, so the jump shows */
    if (c->cfg->event_rows && c->has_held && c->held_t == ev->t && put_row(c, c->held))
      return -1;
    c->has_held = 0;
    for (int i = 0; i < NWRITERS; ++i)
      if (writers[i]->event && writers[i]->event(c->state[i], &c->out, ev)) {
        c->io_failed = 1;
        snprintf(c->io_msg, sizeof c->io_msg, "cannot write %s/%s", c->out.dir, writers[i]->name);
        return -1;
      }
    /* the post-event state, unless the series is to hold the grid only */
    return c->cfg->event_rows ? write_row(c, t, y, yp) : 0;
  }
  c->has_held = 0;
  if (!c->cfg->event_rows) {
    /* grid only: a sample off the output grid is a pre-event state */
    const mbdae_options *o = &c->s->options;
    double r = fabs(remainder(t - o->t0, o->dt_out));
    if (r > 1e-9 * o->dt_out && t < o->t_end) return 0;
  }
  if (k % c->every == 0 || t >= c->s->options.t_end) {
    if (c->vtk && mbdae_vtk_frame(c->vtk, c->model, t, y)) {
      c->io_failed = 1;
      snprintf(c->io_msg, sizeof c->io_msg, "cannot write %s/vtk", c->out.dir);
      return -1;
    }
    return write_row(c, t, y, yp);
  }
  if (make_row(c, c->held, t, y, yp)) return -1;
  c->held_t = t;
  c->has_held = 1;
  return 0;
}

static void fix_text(char *s, size_t n) { s[n - 1] = '\0'; }

static void copy_err(char *err, size_t errlen, const char *msg) {
  if (err && errlen) snprintf(err, errlen, "%s", msg);
}

int mbdae_scenario_run(const mbdae_scenario *s, const mbdae_run_config *cfg,
                       mbdae_run_result *res, char *err, size_t errlen) {
  if (err && errlen) err[0] = '\0';
  if (!res) return MBDAE_ERR_ARGUMENT;
  memset(res, 0, sizeof *res);
  if (!s || !s->kind || !s->params || !cfg) {
    res->status = MBDAE_ERR_ARGUMENT;
    return MBDAE_ERR_ARGUMENT;
  }
  const mbdae_model_kind *k = s->kind;
  double t_start = now();
  run_ctx c;
  memset(&c, 0, sizeof c);
  c.s = s;
  c.cfg = cfg;
  c.res = res;
  c.every = cfg->every > 0 ? cfg->every : 1;
  mbdae_options o = s->options;
  mbdae_param_error pe;
  memset(&pe, 0, sizeof pe);
  double *y = NULL, *yp = NULL;
  mbdae_column *cols = NULL, *evcols = NULL;
  mbdae_progress_bar bar;
  int rc = k->create(s->params, &o, &c.model, &pe);
  if (rc || !c.model) {
    char key[160];
    fix_text(pe.msg, sizeof pe.msg);
    mbdae_scenario_full_key(k, pe.key, rc == MBDAE_ERR_UNSUPPORTED ? "solver" : "parameters", key,
                            sizeof key);
    mbdae_scenario_key_error(s, key, pe.msg[0] ? pe.msg : mbdae_status_message(rc), err, errlen);
    res->status = rc ? rc : MBDAE_ERR_ARGUMENT;
    return MBDAE_ERR_SCENARIO;
  }
  c.problem = k->problem(c.model);
  int n = c.problem ? mbdae_problem_size(c.problem) : 0;
  if (!c.problem || n <= 0) {
    mbdae_scenario_key_error(s, "model", "the model built no problem", err, errlen);
    rc = MBDAE_ERR_SCENARIO;
    res->status = MBDAE_ERR_ARGUMENT;
    goto done;
  }
  y = calloc((size_t)n, sizeof *y);
  yp = calloc((size_t)n, sizeof *yp);
  int ncm = k->columns(c.model, NULL, 0);
  int nev = k->event_columns ? k->event_columns(c.model, NULL, 0) : 0;
  if (ncm < 0) ncm = 0;
  if (nev < 0) nev = 0;
  cols = calloc((size_t)ncm + 1, sizeof *cols);
  evcols = calloc((size_t)nev + 1, sizeof *evcols);
  c.row = calloc((size_t)ncm + 1, sizeof *c.row);
  c.held = calloc((size_t)ncm + 1, sizeof *c.held);
  c.inv = calloc(MBDAE_RUN_MAX_INVARIANTS, sizeof *c.inv);
  c.inv_seg = calloc(MBDAE_RUN_MAX_INVARIANTS, sizeof *c.inv_seg);
  if (!y || !yp || !cols || !evcols || !c.row || !c.held || !c.inv || !c.inv_seg) {
    copy_err(err, errlen, "out of memory");
    rc = res->status = MBDAE_ERR_MEMORY;
    goto done;
  }
  if (k->columns(c.model, cols + 1, ncm) < 0 ||
      (nev && k->event_columns(c.model, evcols, nev) < 0)) {
    mbdae_scenario_key_error(s, "model", "the model could not name its output columns", err, errlen);
    rc = MBDAE_ERR_SCENARIO;
    res->status = MBDAE_ERR_CALLBACK;
    goto done;
  }
  for (int i = 1; i <= ncm; ++i) {
    fix_text(cols[i].name, sizeof cols[i].name);
    fix_text(cols[i].unit, sizeof cols[i].unit);
  }
  for (int i = 0; i < nev; ++i) {
    fix_text(evcols[i].name, sizeof evcols[i].name);
    fix_text(evcols[i].unit, sizeof evcols[i].unit);
  }
  c.prepend_t = !(ncm > 0 && strcmp(cols[1].name, "t") == 0);
  if (c.prepend_t) {
    snprintf(cols[0].name, sizeof cols[0].name, "t");
    snprintf(cols[0].unit, sizeof cols[0].unit, "s");
  }
  rc = k->initial_state(c.model, o.t0, y, yp);
  if (rc) {
    char why[300];
    snprintf(why, sizeof why, "no consistent initial state for these parameters (%s)",
             mbdae_status_message(rc));
    mbdae_scenario_key_error(s, "parameters", why, err, errlen);
    res->status = rc;
    rc = MBDAE_ERR_SCENARIO;
    goto done;
  }
  const char *const *inv_names = NULL;
  res->ninv = mbdae_problem_invariant_count(c.problem, &inv_names);
  if (res->ninv > MBDAE_RUN_MAX_INVARIANTS) res->ninv = MBDAE_RUN_MAX_INVARIANTS;
  if (res->ninv > 0 && mbdae_problem_eval_invariants(c.problem, o.t0, y, yp, c.inv) == MBDAE_OK) {
    for (int i = 0; i < res->ninv; ++i) {
      snprintf(res->inv[i].name, sizeof res->inv[i].name, "%s", inv_names[i] ? inv_names[i] : "?");
      res->inv[i].start = res->inv[i].end = c.inv_seg[i] = c.inv[i];
    }
  } else {
    res->ninv = 0;
  }
  c.out.dir = cfg->out_dir;
  c.out.scenario = s;
  c.out.ncols = ncm + (c.prepend_t ? 1 : 0);
  c.out.cols = c.prepend_t ? cols : cols + 1;
  c.out.nevcols = nev;
  c.out.evcols = evcols;
  c.out.ninv = res->ninv;
  c.out.inv_names = inv_names;
  c.out.plots = cfg->plots;
  c.out.notes = cfg->notes;
  o.observer = observer;
  o.observer_data = &c;
  if (cfg->progress) {
    mbdae_progress_bar_init(&bar, stderr);
    o.progress = mbdae_progress_bar_update;
    o.progress_data = &bar;
  } else {
    o.progress = NULL;
    o.progress_data = NULL;
  }
  res->status = mbdae_run(c.problem, &o, y, yp, &res->stats, res->message, sizeof res->message);
  if (cfg->progress) mbdae_progress_bar_end(&bar);
  /* a run that ended early (failure, stop) keeps its last state in series.csv */
  if (c.opened && !c.io_failed && c.has_held && put_row(&c, c.held)) c.io_failed = 1;
  c.has_held = 0;
  fix_text(res->message, sizeof res->message);
  if (res->status < 0 && !res->message[0])
    snprintf(res->message, sizeof res->message, "%s", mbdae_status_message(res->status));
  snprintf(res->final_mode, sizeof res->final_mode, "%s", mbdae_problem_mode(c.problem));
  if (k->outcomes) {
    int no = k->outcomes(c.model, y, yp, res->outcomes, MBDAE_RUN_MAX_OUTCOMES);
    res->noutcomes = no < 0 ? 0 : no > MBDAE_RUN_MAX_OUTCOMES ? MBDAE_RUN_MAX_OUTCOMES : no;
    for (int i = 0; i < res->noutcomes; ++i) {
      fix_text(res->outcomes[i].name, sizeof res->outcomes[i].name);
      fix_text(res->outcomes[i].unit, sizeof res->outcomes[i].unit);
    }
  }
  if (!c.observed && (res->status == MBDAE_ERR_ARGUMENT || res->status == MBDAE_ERR_UNSUPPORTED ||
                    res->status == MBDAE_ERR_PARAMETER)) {
    /* rejected before the first sample: an input error, nothing written */
    mbdae_scenario_key_error(s, "solver", res->message, err, errlen);
    rc = MBDAE_ERR_SCENARIO;
    goto done;
  }
  if (c.io_failed) {
    copy_err(err, errlen, c.io_msg);
    rc = MBDAE_ERR_IO;
    goto done;
  }
  if (res->status == MBDAE_ERR_CALLBACK && c.io_msg[0]) /* our own observer failed */
    snprintf(res->message, sizeof res->message, "%s", c.io_msg);
  rc = res->status;
  if (res->status < 0) copy_err(err, errlen, res->message);
  if (cfg->out_dir && !c.opened && open_writers(&c)) {
    copy_err(err, errlen, c.io_msg);
    rc = MBDAE_ERR_IO;
    goto done;
  }
  if (cfg->out_dir) {
    res->wall_time = now() - t_start;
    for (int i = 0; i < NWRITERS; ++i) {
      if (!writers[i]->finish) continue;
      if (i == NWRITERS - 1) res->wall_time = now() - t_start;
      char werr[512] = "";
      int wrc = writers[i]->finish(c.state[i], &c.out, res, werr, sizeof werr);
      if (wrc) {
        copy_err(err, errlen, werr[0] ? werr : "cannot finish the output files");
        rc = MBDAE_ERR_IO;
      }
    }
  }
done:
  for (int i = 0; i < NWRITERS; ++i)
    if (c.state[i] && writers[i]->close) writers[i]->close(c.state[i]);
  mbdae_vtk_close(&c.vtk);
  if (c.model) k->destroy(&c.model);
  free(y);
  free(yp);
  free(cols);
  free(evcols);
  free(c.row);
  free(c.held);
  free(c.inv);
  free(c.inv_seg);
  res->wall_time = now() - t_start;
  return rc;
}
