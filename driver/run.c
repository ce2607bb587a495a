/* run.c - run a loaded scenario: create the model, take its initial state,
 * integrate with mbdae_run while an observer feeds the output writers
 * (opened lazily, so a run the engine rejects up front writes nothing), then
 * finish the writers and return the outcomes. */
#define _POSIX_C_SOURCE 200809L
#include "run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "checkpoint.h"
#include "interrupt_poll.h"
#include "moreau_ledger.h"
#include "mbdae/mechanics.h"
#include "mbdae/status.h"
#include "output_dir.h"
#include "progress.h"
#include "solver_schema.h"
#include "writer.h"
#include "writer_events_columns.h"
#include "writer_vtk.h"

static const mbdae_writer_ops *const writers[] = {
  &mbdae_writer_series_csv, &mbdae_writer_events_csv, &mbdae_writer_plots,
  &mbdae_writer_mat, &mbdae_writer_summary_json
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
  int nonfinite;                /* an output or invariant was NaN/inf (io_msg says which) */
  int lock_fd;                  /* the output directory's lock (mbdae_dir_lock), or -1 */
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
  char inv_unit[MBDAE_RUN_MAX_INVARIANTS][24]; /* the invariants' units (copies: a */
  const char *inv_unit_of[MBDAE_RUN_MAX_INVARIANTS]; /* rebuilt model frees its own) */
  /* checkpoints and interruption (doc/checkpoint.md) */
  int n;                        /* state size */
  long q;                       /* checkpoint interval in output steps (0: none) */
  mbdae_carry carry;            /* engine state across segments */
  mbdae_stats acc;              /* statistics summed over segments */
  int skip_first;               /* a segment's first sample repeats the last one */
  int interrupted;
  mbdae_progress_bar *bar;
  mbdae_options *run_opts;      /* the options the model's create adjusted (+ callbacks) */
  int ledger_on;                /* moreau: energy ledger columns after the model's */
  int ledger_col;               /* their first column in a row */
  mbdae_ledger ledger;
} run_ctx;

const char *mbdae_run_status_word(int status) {
  return status == MBDAE_OK ? "ok" : status == MBDAE_STOPPED ? "stopped" : "failed";
}

void mbdae_run_config_default(mbdae_run_config *c, const mbdae_scenario *s) {
  memset(c, 0, sizeof *c);
  c->plots = s ? s->plots : 1;
  c->every = s && s->every > 0 ? s->every : 1;
  c->event_rows = s ? s->event_rows : 1;
  c->format = s ? s->format : MBDAE_OUTPUT_CSV;
  c->vtk = s ? s->vtk : 1;
  c->animation = s ? s->animation : 0;
}

/* output.format: the CSV writers (and the plots drawn from the CSV files)
 * and/or results.mat; summary.json always. A writer that is off is never
 * opened, fed or finished (nor asked for checkpoints). */
static int writer_on(const run_ctx *c, int i) {
  if (!c->cfg->out_dir) return 0; /* only a sink */
  int f = c->cfg->format;
  if (writers[i] == &mbdae_writer_mat) return f == MBDAE_OUTPUT_MAT || f == MBDAE_OUTPUT_BOTH;
  if (writers[i] == &mbdae_writer_summary_json) return 1;
  return f != MBDAE_OUTPUT_MAT;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The file of a writer that is off, left by an earlier run into the same
 * directory (series.csv next to a new results.mat): removed, so the
 * directory holds one run. */
static void remove_stale(const run_ctx *c, const char *name) {
  if (!strchr(name, '.')) return; /* "plots": no single file */
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s", c->cfg->out_dir, name);
  if (n > 0 && (size_t)n < sizeof path) remove(path);
}

/* "cannot write DIR/NAME: <errno's text>" (disk full, a file size limit) */
static void write_failed_msg(run_ctx *c, const char *name) {
  int e = errno;
  snprintf(c->io_msg, sizeof c->io_msg, "cannot write %s/%s: %s", c->out.dir, name,
           e ? strerror(e) : "write error");
}

static int open_sink(run_ctx *c) {
  const mbdae_run_sink *k = c->cfg->sink;
  if (!k || !k->begin ||
      k->begin(k->data, c->out.ncols, c->out.cols, c->out.nevcols, c->out.evcols, c->out.ninv,
               c->out.inv_names, c->out.inv_units) == 0)
    return 0;
  snprintf(c->io_msg, sizeof c->io_msg, "cannot keep the results (out of memory?)");
  return MBDAE_ERR_MEMORY;
}

/* The scene files a run writes (output.vtk, output.animation). */
static int scene_flags(const mbdae_run_config *cfg) {
  return (cfg->vtk ? MBDAE_SCENE_VTK : 0) | (cfg->animation ? MBDAE_SCENE_ANIMATION : 0);
}

static int open_writers(run_ctx *c) {
  c->opened = 1;
  if (!c->cfg->out_dir) {
    int rc = open_sink(c);
    if (rc) c->io_failed = 1;
    return rc;
  }
  int rc = mbdae_mkdir_p(c->cfg->out_dir, c->io_msg, sizeof c->io_msg);
  if (!rc && c->lock_fd < 0) rc = mbdae_dir_lock(c->cfg->out_dir, &c->lock_fd, c->io_msg,
                                                 sizeof c->io_msg);
  if (!rc) mbdae_checkpoint_remove_partial(c->cfg->out_dir); /* of a killed run */
  errno = 0;
  for (int i = 0; !rc && i < NWRITERS; ++i)
    if (!writer_on(c, i)) remove_stale(c, writers[i]->name);
    else if (writers[i]->open &&
             (rc = writers[i]->open(&c->out, &c->state[i], c->io_msg, sizeof c->io_msg)) &&
             !c->io_msg[0])
      write_failed_msg(c, writers[i]->name); /* its header could not be written */
  int vtk_failed = 0;
  if (!rc) c->vtk = mbdae_vtk_open(c->s->kind->name, c->cfg->out_dir, c->s->options.dt_out,
                                   scene_flags(c->cfg) | MBDAE_SCENE_FRESH, &vtk_failed);
  if (vtk_failed) {
    rc = MBDAE_ERR_IO;
    snprintf(c->io_msg, sizeof c->io_msg, "cannot create %s/vtk", c->cfg->out_dir);
  }
  if (!rc) rc = open_sink(c);
  if (rc) c->io_failed = 1;
  return rc;
}

/* No silent wrong answer (doc/engine.md): a NaN or inf that reaches an
 * output fails the run with t and the column, whatever the writer. */
static int nonfinite_fail(run_ctx *c, const char *what, const char *name, double v, double t) {
  snprintf(c->io_msg, sizeof c->io_msg, "%s '%s' is %g at t = %.12g (model '%s')", what, name,
           v, t, c->s->kind->name);
  c->nonfinite = 1;
  return -1;
}

static int track_invariants(run_ctx *c, double t, const double *y, const double *yp,
                            const mbdae_event_record *ev) {
  mbdae_run_result *r = c->res;
  if (r->ninv <= 0) return 0;
  if (mbdae_problem_eval_invariants(c->problem, t, y, yp, c->inv) != MBDAE_OK) return 0;
  for (int i = 0; i < r->ninv; ++i)
    if (!isfinite(c->inv[i])) return nonfinite_fail(c, "invariant", r->inv[i].name, c->inv[i], t);
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
  return 0;
}

static int make_row(run_ctx *c, double *dst, double t, const double *y, const double *yp) {
  if (c->prepend_t) dst[0] = t;
  int rc = c->s->kind->output_row(c->model, t, y, yp, dst + (c->prepend_t ? 1 : 0));
  if (rc < 0) {
    snprintf(c->io_msg, sizeof c->io_msg, "model '%s': output_row failed at t = %.10g",
             c->s->kind->name, t);
    return -1;
  }
  if (c->ledger_on && mbdae_ledger_row(&c->ledger, c->problem, t, y, dst + c->ledger_col)) {
    snprintf(c->io_msg, sizeof c->io_msg,
             "model '%s': the energy ledger's mass or potential failed at t = %.10g",
             c->s->kind->name, t);
    return -1;
  }
  for (int i = 0; i < c->out.ncols; ++i)
    if (!isfinite(dst[i])) {
      char name[96];
      snprintf(name, sizeof name, "%s [%s]", c->out.cols[i].name, c->out.cols[i].unit);
      return nonfinite_fail(c, "output column", name, dst[i], t);
    }
  return 0;
}

static int put_row(run_ctx *c, const double *row, int kind) {
  c->out.row_kind = kind;
  const mbdae_run_sink *k = c->cfg->sink;
  if (k && k->row && k->row(k->data, row, kind)) {
    c->io_failed = 1;
    snprintf(c->io_msg, sizeof c->io_msg, "cannot keep the results (out of memory?)");
    return -1;
  }
  errno = 0; /* a writer's failure leaves its errno (write_failed_msg) */
  for (int i = 0; i < NWRITERS; ++i)
    if (writers[i]->sample && writer_on(c, i) && writers[i]->sample(c->state[i], &c->out, row)) {
      c->io_failed = 1;
      write_failed_msg(c, writers[i]->name);
      return -1;
    }
  c->res->rows++;
  return 0;
}

static int write_row(run_ctx *c, double t, const double *y, const double *yp, int kind) {
  return make_row(c, c->row, t, y, yp) ? -1 : put_row(c, c->row, kind);
}

/* A sample (ev == NULL) off the output grid t0 + k dt_out that is not the
 * final one is the state just before an event (the engine observes it so
 * the jump shows). One exactly on the grid counts as a sample. */
static int off_grid(const run_ctx *c, double t) {
  const mbdae_options *o = &c->s->options;
  double r = fabs(remainder(t - o->t0, o->dt_out));
  return r > 1e-9 * o->dt_out && t < o->t_end;
}

static int observer(double t, const double *y, const double *yp,
                    const mbdae_event_record *ev, void *user_data) {
  run_ctx *c = user_data;
  c->observed = 1;
  if (track_invariants(c, t, y, yp, ev)) return -1;
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
  if (!c->cfg->out_dir && !c->cfg->sink) return 0;
  if (!c->opened && open_writers(c)) return -1;
  if (c->io_failed) return -1;
  if (ev) {
    /* the pre-event state was a skipped sample: keep it, so the jump shows */
    if (c->cfg->event_rows && c->has_held && c->held_t == ev->t &&
        put_row(c, c->held, MBDAE_SERIES_PRE_EVENT))
      return -1;
    c->has_held = 0;
    errno = 0;
    for (int i = 0; i < NWRITERS; ++i)
      if (writers[i]->event && writer_on(c, i) && writers[i]->event(c->state[i], &c->out, ev)) {
        c->io_failed = 1;
        write_failed_msg(c, writers[i]->name);
        return -1;
      }
    const mbdae_run_sink *sink = c->cfg->sink;
    if (sink && sink->event && sink->event(sink->data, ev)) {
      c->io_failed = 1;
      snprintf(c->io_msg, sizeof c->io_msg, "cannot keep the results (out of memory?)");
      return -1;
    }
    /* the post-event state, unless the series is to hold the grid only */
    return c->cfg->event_rows ? write_row(c, t, y, yp, MBDAE_SERIES_POST_EVENT) : 0;
  }
  c->has_held = 0;
  int kind = off_grid(c, t) ? MBDAE_SERIES_PRE_EVENT : MBDAE_SERIES_SAMPLE;
  /* grid only: a sample off the output grid is a pre-event state */
  if (!c->cfg->event_rows && kind == MBDAE_SERIES_PRE_EVENT) return 0;
  if (k % c->every == 0 || t >= c->s->options.t_end) {
    errno = 0;
    if (c->vtk && mbdae_vtk_frame(c->vtk, c->model, t, y)) {
      c->io_failed = 1;
      write_failed_msg(c, "vtk");
      return -1;
    }
    return write_row(c, t, y, yp, kind);
  }
  if (make_row(c, c->held, t, y, yp)) return -1;
  c->held_t = t;
  c->has_held = 1;
  return 0;
}

/* ---- checkpoints and interruption (doc/checkpoint.md) ---- */

/* mbdae_options::cancel of the run: the model's create, the set-up here and
 * the engine ask whether SIGINT/SIGTERM arrived (the flag, or the driver's
 * poll, which a test may replace). */
static int run_cancel(void *data) {
  const run_ctx *c = data;
  return (c->cfg->interrupt && *c->cfg->interrupt) || mbdae_interrupt_poll();
}


/* a sample on the output grid t0 + k dt_out, or the final one: where an
 * interruption may stop the run (never at a pre-event state) */
static int on_grid(const run_ctx *c, double t) {
  const mbdae_options *o = &c->s->options;
  return t >= o->t_end || fabs(remainder(t - o->t0, o->dt_out)) <= 1e-9 * o->dt_out;
}

/* A writer that is on and keeps a file open during the run. */
static int writer_has_file(const run_ctx *c, int i) {
  return writers[i]->open && writer_on(c, i);
}

/* Why this run cannot be checkpointed, or NULL. */
static const char *checkpoint_refusal(const run_ctx *c, char *buf, size_t len) {
  const mbdae_model_kind *k = c->s->kind;
  if (!mbdae_model_state_supported(k)) {
    snprintf(buf, len,
             "model kind '%s' cannot be checkpointed yet (its kind table has no "
             "state_fields nor state_size/state_save/state_load)", k->name);
    return buf;
  }
  for (int i = 0; i < NWRITERS; ++i)
    if (writer_has_file(c, i) && (!writers[i]->sync || !writers[i]->reopen)) {
      snprintf(buf, len, "the %s writer cannot be resumed (no sync/reopen)", writers[i]->name);
      return buf;
    }
  return NULL;
}

/* Save the model's internal state into a fresh buffer (*size bytes). */
static unsigned char *model_state_bytes(run_ctx *c, size_t *size) {
  const mbdae_model_kind *k = c->s->kind;
  *size = mbdae_model_state_size(k, c->model);
  unsigned char *b = malloc(*size ? *size : 1);
  if (b && mbdae_model_state_save(k, c->model, b, *size) != MBDAE_OK) {
    free(b);
    b = NULL;
  }
  return b;
}

/* Write RUNDIR/checkpoint.bin for a restart at t (segment index, first
 * sample already written or not). model: the state bytes (NULL: save now). */
static int checkpoint_at(run_ctx *c, long segment, int skip_first, double t, const double *y,
                         const double *yp, const unsigned char *model, size_t model_size) {
  const mbdae_run_config *cfg = c->cfg;
  unsigned char *own = NULL;
  if (!model) {
    model = own = model_state_bytes(c, &model_size);
    if (!own) {
      snprintf(c->io_msg, sizeof c->io_msg, "model '%s': cannot save its state",
               c->s->kind->name);
      c->io_failed = 1;
      return -1;
    }
  }
  mbdae_checkpoint cp;
  memset(&cp, 0, sizeof cp);
  cp.scenario_name = c->s->path;
  cp.scenario_text = (char *)(cfg->scenario_text ? cfg->scenario_text : "");
  cp.nsets = cfg->nsets;
  cp.sets = (char **)cfg->sets;
  cp.every_t = cfg->checkpoint_every;
  cp.plots = cfg->plots;
  cp.every = cfg->every;
  cp.event_rows = cfg->event_rows;
  cp.segment = segment;
  cp.skip_first = skip_first;
  cp.t = t;
  cp.n = c->n;
  cp.y = (double *)y;
  cp.yp = (double *)yp;
  cp.model_size = model_size;
  cp.model_state = (unsigned char *)model;
  cp.events = c->carry.events;
  cp.window_n = c->s->options.window_events;
  cp.window = c->carry.window;
  cp.nroots = c->carry.nroots;
  cp.masks = c->carry.masks;
  cp.grid_t0 = c->carry.grid_t0;
  cp.stats = c->acc;
  cp.samples = c->res->samples;
  cp.rows = c->res->rows;
  cp.grid_k = c->grid_k;
  cp.last_t = c->last_t;
  cp.last_was_sample = c->last_was_sample;
  cp.has_held = c->has_held;
  cp.held_t = c->held_t;
  cp.nrow = c->out.ncols;
  cp.held = c->held;
  cp.ninv = c->res->ninv;
  memcpy(cp.inv, c->res->inv, sizeof cp.inv);
  memcpy(cp.inv_seg, c->inv_seg, sizeof cp.inv_seg);
  const double *times = NULL;
  cp.nframes = mbdae_vtk_frames(c->vtk, &times);
  cp.frame_times = (double *)times;
  int rc = 0;
  errno = 0;
  for (int i = 0; !rc && i < NWRITERS; ++i) {
    if (!writer_has_file(c, i) || !c->state[i]) continue;
    if (cp.nfiles == MBDAE_CHECKPOINT_MAX_FILES ||
        writers[i]->sync(c->state[i], &cp.file_length[cp.nfiles])) {
      write_failed_msg(c, writers[i]->name);
      rc = -1;
      break;
    }
    snprintf(cp.file_name[cp.nfiles], sizeof cp.file_name[0], "%s", writers[i]->name);
    cp.nfiles++;
  }
  if (!rc && mbdae_checkpoint_write(c->out.dir, &cp, c->io_msg, sizeof c->io_msg)) rc = -1;
  if (rc) c->io_failed = 1;
  else c->res->checkpoint_t = t;
  free(own);
  return rc;
}

/* Build a fresh instance of the model in the state given by its bytes, as
 * `mbdae resume` does: create, initial_state at t0 (the set-up every run
 * does there), state_load. */
static int model_rebuild(run_ctx *c, const unsigned char *state, size_t size, char *why,
                         size_t whylen) {
  const mbdae_model_kind *k = c->s->kind;
  mbdae_options o = c->s->options;
  mbdae_param_error pe;
  memset(&pe, 0, sizeof pe);
  mbdae_model *m = NULL;
  int rc = k->create(c->s->params, &o, &m, &pe);
  mbdae_problem *p = (rc == MBDAE_OK && m) ? k->problem(m) : NULL;
  int n = p ? mbdae_problem_size(p) : 0;
  double *y = NULL, *yp = NULL;
  if (p && n == c->n) {
    y = calloc((size_t)n, sizeof *y);
    yp = calloc((size_t)n, sizeof *yp);
  }
  if (!y || !yp) rc = rc ? rc : MBDAE_ERR_MEMORY;
  else rc = k->initial_state(m, c->s->options.t0, y, yp);
  if (rc == MBDAE_OK) rc = mbdae_model_state_load(k, m, state, size);
  free(y);
  free(yp);
  if (rc != MBDAE_OK || !p) {
    snprintf(why, whylen, "model '%s': cannot rebuild its state from the checkpoint (%s)",
             k->name, mbdae_status_message(rc ? rc : MBDAE_ERR_ARGUMENT));
    if (m) k->destroy(&m);
    return rc ? rc : MBDAE_ERR_ARGUMENT;
  }
  if (c->model) k->destroy(&c->model);
  c->model = m;
  c->problem = p;
  const char *const *inv_names = NULL; /* may live in the instance */
  if (mbdae_problem_invariant_count(p, &inv_names) >= c->out.ninv) c->out.inv_names = inv_names;
  /* what create set in the options may point into the instance (atol_vec) */
  mbdae_options keep = *c->run_opts;
  *c->run_opts = o;
  c->run_opts->observer = keep.observer;
  c->run_opts->observer_data = keep.observer_data;
  c->run_opts->progress = keep.progress;
  c->run_opts->progress_data = keep.progress_data;
  c->run_opts->carry = keep.carry;
  c->run_opts->step_observer = keep.step_observer;
  c->run_opts->step_data = keep.step_data;
  c->run_opts->cancel = keep.cancel;
  c->run_opts->cancel_data = keep.cancel_data;
  return MBDAE_OK;
}

/* A segment boundary of --checkpoint-every: checkpoint, then carry on with
 * a model rebuilt from the checkpoint's bytes, exactly what a resumed run
 * starts from - so both take the same steps from here. */
static int segment_boundary(run_ctx *c, long segment, double t, const double *y,
                            const double *yp) {
  size_t size = 0;
  unsigned char *state = model_state_bytes(c, &size);
  if (!state) {
    snprintf(c->io_msg, sizeof c->io_msg, "model '%s': cannot save its state", c->s->kind->name);
    c->io_failed = 1;
    return MBDAE_ERR_CALLBACK;
  }
  int rc = checkpoint_at(c, segment, 1, t, y, yp, state, size) ? MBDAE_ERR_IO : MBDAE_OK;
  if (rc == MBDAE_OK) rc = model_rebuild(c, state, size, c->res->message, sizeof c->res->message);
  free(state);
  return rc;
}

static void add_stats(mbdae_stats *a, const mbdae_stats *b) {
  /* moreau: maxima and the step-weighted mean over segments */
  if (b->steps > 0) {
    a->max_energy_rise = a->steps > 0 ? fmax(a->max_energy_rise, b->max_energy_rise)
                                      : b->max_energy_rise;
    a->index_set_mean = (a->index_set_mean * (double)a->steps +
                         b->index_set_mean * (double)b->steps) / (double)(a->steps + b->steps);
  }
  if (b->index_set_max > a->index_set_max) a->index_set_max = b->index_set_max;
  a->max_violation = fmax(a->max_violation, b->max_violation);
  a->nonsmooth_iters += b->nonsmooth_iters;
  a->nonsmooth_fallbacks += b->nonsmooth_fallbacks;
  a->work_impulses += b->work_impulses;
  a->dissipated_scheme += b->dissipated_scheme;
  a->work_applied += b->work_applied;
  a->projections += b->projections;
  a->max_violation_before = fmax(a->max_violation_before, b->max_violation_before);
  a->steps += b->steps;
  for (int q = 0; q < MBDAE_STATS_ORDERS; ++q) a->steps_by_order[q] += b->steps_by_order[q];
  a->restarts += b->restarts;
  a->ramp_steps += b->ramp_steps;
  a->reuse_refactors += b->reuse_refactors;
  a->grouped_roots += b->grouped_roots;
  a->krylov_iters += b->krylov_iters;
  a->prec_factors += b->prec_factors;
  a->rhs_evals += b->rhs_evals;
  a->jac_evals += b->jac_evals;
  a->lin_setups += b->lin_setups;
  a->newton_iters += b->newton_iters;
  a->newton_fails += b->newton_fails;
  a->err_test_fails += b->err_test_fails;
  a->root_evals += b->root_evals;
  a->events += b->events;
  a->calcic_fallbacks += b->calcic_fallbacks;
  a->wall_time += b->wall_time;
  a->t_reached = b->t_reached;
  a->last_step = b->last_step;
  if (b->max_repair > a->max_repair || isnan(b->max_repair)) a->max_repair = b->max_repair;
}

/* The observer the engine sees: drops the repeated first sample of a
 * segment, writes the first checkpoint once the files exist, and stops the
 * run at an output sample after SIGINT/SIGTERM. */
static int observer_segmented(double t, const double *y, const double *yp,
                              const mbdae_event_record *ev, void *user_data) {
  run_ctx *c = user_data;
  if (c->skip_first) {
    c->skip_first = 0;
    if (!ev) return 0;
  }
  int was_open = c->opened;
  int rc = observer(t, y, yp, ev, user_data);
  if (rc == 0 && !was_open && c->opened && c->cfg->out_dir)
    mbdae_checkpoint_remove(c->cfg->out_dir); /* a stale one of an earlier run */
  if (rc == 0 && !was_open && c->opened && c->q > 0 &&
      checkpoint_at(c, 0, 1, t, y, yp, NULL, 0))
    return -1;
  if (rc == 0 && !ev && on_grid(c, t) && run_cancel(c)) {
    c->interrupted = 1;
    return 1;
  }
  return rc;
}

static void progress_segmented(double t, double fraction, void *user_data) {
  (void)fraction;
  run_ctx *c = user_data;
  const mbdae_options *o = &c->s->options;
  if (c->bar) mbdae_progress_bar_update(t, (t - o->t0) / (o->t_end - o->t0), c->bar);
}

/* Integrate from t to t_end: one mbdae_run, or segments ending at
 * t0 + (m + 1) q dt_out with a checkpoint at each boundary. */
static int run_segments(run_ctx *c, double t, long m, double *y, double *yp) {
  const mbdae_options *o = c->run_opts; /* re-read each segment: a rebuild renews it */
  const mbdae_options *so = &c->s->options;
  const double span = so->t_end - so->t0;
  int status;
  for (;;) {
    mbdae_options seg = *o;
    seg.t0 = t;
    seg.t_end = so->t_end;
    if (c->q > 0) {
      double b = c->carry.grid_t0 + (double)((m + 1) * c->q) * so->dt_out;
      if (b < so->t_end - 1e-12 * span) seg.t_end = b;
    }
    seg.carry = &c->carry;
    mbdae_stats st;
    seg.interrupt = c->cfg->interrupt;
    status = mbdae_run(c->problem, &seg, y, yp, &st, c->res->message, sizeof c->res->message);
    add_stats(&c->acc, &st);
    if (st.interrupted) c->interrupted = 1; /* within an output interval */
    if (status != MBDAE_OK || seg.t_end >= so->t_end) break;
    t = seg.t_end;
    ++m;
    c->skip_first = 1;
    c->carry.calcic_start = 1; /* a DAE restart may need consistent algebraic parts */
    if (c->q > 0 && c->cfg->out_dir) {
      status = segment_boundary(c, m, t, y, yp);
      if (status != MBDAE_OK) break;
    }
  }
  c->res->stats = c->acc;
  return status;
}

/* Continue from a checkpoint: the model's state, y and y', the engine's
 * carry, the observer's counters; the output files cut back to their
 * lengths at the checkpoint and opened for appending. */
static int resume_setup(run_ctx *c, const mbdae_checkpoint *cp, double *y, double *yp,
                        char *err, size_t errlen) {
  const mbdae_model_kind *k = c->s->kind;
  const mbdae_options *o = &c->s->options;
  if (cp->n != c->n || cp->nroots != c->carry.nroots || cp->window_n != o->window_events ||
      cp->nrow != c->out.ncols || cp->ninv != c->res->ninv) {
    snprintf(err, errlen,
             "the checkpoint does not match the model built from its scenario "
             "(state size %d vs %d, roots %d vs %d, columns %d vs %d)",
             cp->n, c->n, cp->nroots, c->carry.nroots, cp->nrow, c->out.ncols);
    return MBDAE_ERR_ARGUMENT;
  }
  char why[256];
  int rc = mbdae_checkpoint_validate(cp, o, why, sizeof why);
  if (rc != MBDAE_OK) {
    snprintf(err, errlen, "%s/%s: %s", c->cfg->out_dir, MBDAE_CHECKPOINT_FILE, why);
    return rc;
  }
  rc = mbdae_model_state_load(k, c->model, cp->model_state, cp->model_size);
  if (rc != MBDAE_OK) {
    snprintf(err, errlen, "model '%s' rejected the state in the checkpoint (%s)", k->name,
             mbdae_status_message(rc));
    return rc;
  }
  /* everything that can fail is checked before a file is cut back: a
   * failed resume changes nothing */
  for (int i = 0; i < NWRITERS; ++i) {
    if (!writer_has_file(c, i)) continue;
    int f = 0;
    while (f < cp->nfiles && strcmp(cp->file_name[f], writers[i]->name) != 0) ++f;
    char path[4200]; /* the file the writer resumes (results.mat keeps a part file) */
    snprintf(path, sizeof path, "%s/%s%s%s", c->cfg->out_dir,
             writers[i] == &mbdae_writer_mat ? "." : "", writers[i]->name,
             writers[i] == &mbdae_writer_mat ? ".part" : "");
    struct stat fst;
    if (f == cp->nfiles || !writers[i]->reopen) {
      snprintf(err, errlen, "the checkpoint has no position for %s", writers[i]->name);
      return MBDAE_ERR_IO;
    }
    if (lstat(path, &fst) != 0 || !S_ISREG(fst.st_mode) ||
        (long long)fst.st_size < cp->file_length[f]) {
      snprintf(err, errlen, "cannot resume %s: missing, not a regular file or shorter than at "
               "the checkpoint (%lld bytes); nothing changed", path, cp->file_length[f]);
      return MBDAE_ERR_IO;
    }
  }
  char vdir[4200];
  struct stat vst;
  snprintf(vdir, sizeof vdir, "%s/vtk", c->cfg->out_dir);
  int vtk_failed = 0;
  if (cp->nframes > 0 && (scene_flags(c->cfg) & MBDAE_SCENE_VTK) &&
      (lstat(vdir, &vst) != 0 || !S_ISDIR(vst.st_mode)))
    rc = MBDAE_ERR_NOT_FOUND; /* not even recreated: nothing changes */
  else c->vtk = mbdae_vtk_open(k->name, c->cfg->out_dir, o->dt_out, scene_flags(c->cfg),
                               &vtk_failed);
  if (!rc) rc = vtk_failed ? MBDAE_ERR_IO : mbdae_vtk_restore(c->vtk, cp->frame_times, cp->nframes);
  if (rc) {
    snprintf(err, errlen, rc == MBDAE_ERR_NOT_FOUND
                              ? "cannot resume %s/vtk: frames the checkpoint lists are missing "
                                "(the pvd would list them); nothing changed"
                              : "cannot resume %s/vtk",
             c->cfg->out_dir);
    return MBDAE_ERR_IO;
  }
  memcpy(y, cp->y, (size_t)cp->n * sizeof *y);
  memcpy(yp, cp->yp, (size_t)cp->n * sizeof *yp);
  c->carry.events = cp->events;
  if (cp->window_n) memcpy(c->carry.window, cp->window, (size_t)cp->window_n * sizeof *cp->window);
  if (cp->nroots) memcpy(c->carry.masks, cp->masks, (size_t)cp->nroots * sizeof *cp->masks);
  c->carry.grid_t0 = cp->grid_t0;
  c->acc = cp->stats;
  c->res->samples = cp->samples;
  c->res->rows = cp->rows;
  c->res->events = cp->events;
  c->grid_k = cp->grid_k;
  c->last_t = cp->last_t;
  c->last_was_sample = cp->last_was_sample;
  c->has_held = cp->has_held;
  c->held_t = cp->held_t;
  if (cp->nrow) memcpy(c->held, cp->held, (size_t)cp->nrow * sizeof *cp->held);
  memcpy(c->res->inv, cp->inv, sizeof cp->inv);
  memcpy(c->inv_seg, cp->inv_seg, sizeof cp->inv_seg);
  c->skip_first = cp->skip_first;
  c->carry.calcic_start = cp->segment > 0 || cp->every_t <= 0.0;
  c->observed = 1;
  c->opened = 1;
  c->res->checkpoint_t = cp->t;
  for (int i = 0; i < NWRITERS; ++i) {
    if (!writer_has_file(c, i)) continue;
    int f = 0;
    while (f < cp->nfiles && strcmp(cp->file_name[f], writers[i]->name) != 0) ++f;
    rc = writers[i]->reopen(&c->out, &c->state[i], cp->file_length[f], err, errlen);
    if (rc) return rc;
  }
  return MBDAE_OK;
}

static void fix_text(char *s, size_t n) { s[n - 1] = '\0'; }


/* Interrupted before the first sample: nothing was written, the output
 * directory is as it was (a resumed run's files are opened before its
 * integrator starts: it always reaches its first sample). */
static int setup_interrupted(run_ctx *c, const char *phase) {
  c->res->interrupted = 1;
  c->res->setup_interrupted = 1;
  c->res->status = MBDAE_STOPPED;
  snprintf(c->res->message, sizeof c->res->message,
           "interrupted by a signal during the set-up (%s), before t = %.9g; nothing written",
           phase, c->cfg->resume ? c->cfg->resume->t : c->s->options.t0);
  return MBDAE_STOPPED;
}

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
  c.lock_fd = -1;
  res->checkpoint_t = NAN;
  if (cfg->out_dir && (cfg->checkpoint_every > 0 || cfg->resume)) {
    char why[256];
    if (checkpoint_refusal(&c, why, sizeof why)) {
      if (err && errlen) snprintf(err, errlen, "%s: --checkpoint-every: %s", s->path, why);
      res->status = MBDAE_ERR_UNSUPPORTED;
      return MBDAE_ERR_SCENARIO;
    }
    if (cfg->checkpoint_every > 0) {
      double r = cfg->checkpoint_every / s->options.dt_out;
      c.q = r < 1.0 ? 1 : (long)llround(r);
    }
  }
  mbdae_options o = s->options;
  mbdae_param_error pe;
  memset(&pe, 0, sizeof pe);
  double *y = NULL, *yp = NULL;
  mbdae_column *cols = NULL, *evcols = NULL;
  mbdae_progress_bar bar;
  o.cancel = run_cancel;
  o.cancel_data = &c;
  int rc = run_cancel(&c) ? MBDAE_STOPPED : k->create(s->params, &o, &c.model, &pe);
  if (rc && run_cancel(&c)) {
    if (c.model) k->destroy(&c.model); /* a create that finished all the same */
    rc = setup_interrupted(&c, "model creation");
    goto done;
  }
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
  if (o.method == MBDAE_METHOD_MOREAU && !mbdae_problem_has_mechanics(c.problem)) {
    char why[256];
    snprintf(why, sizeof why, "model '%s' does not supply the mechanical form (mass, forces, "
             "constraints) that method moreau needs", k->name);
    mbdae_scenario_key_error(s, "solver.method", why, err, errlen);
    rc = MBDAE_ERR_SCENARIO;
    res->status = MBDAE_ERR_UNSUPPORTED;
    goto done;
  }
  /* ida takes the DAE form, arkode also a semi-explicit index-1 one, the others the ODE form */
  const int dae = mbdae_problem_form(c.problem) == MBDAE_FORM_DAE;
  const int form_ok = dae ? o.method == MBDAE_METHOD_IDA ||
                                (o.method == MBDAE_METHOD_ARKODE &&
                                 mbdae_problem_completion_size(c.problem) > 0)
                          : o.method != MBDAE_METHOD_IDA;
  if (!form_ok && o.method != MBDAE_METHOD_MOREAU) {
    char why[256];
    snprintf(why, sizeof why, "model '%s' built its %s form, which method %s cannot integrate "
             "(ida takes the DAE form; cvode-bdf, cvode-adams, rk4 and arkode the ODE form)",
             k->name, dae ? "DAE" : "ODE",
             mbdae_method_name(o.method));
    mbdae_scenario_key_error(s, "solver.method", why, err, errlen);
    rc = MBDAE_ERR_SCENARIO;
    res->status = MBDAE_ERR_UNSUPPORTED;
    goto done;
  }
  y = calloc((size_t)n, sizeof *y);
  yp = calloc((size_t)n, sizeof *yp);
  int ncm = k->columns(c.model, NULL, 0);
  int nev = k->event_columns ? k->event_columns(c.model, NULL, 0) : 0;
  if (ncm < 0) ncm = 0;
  if (nev < 0) nev = 0;
  c.ledger_on = o.method == MBDAE_METHOD_MOREAU;
  const int nled = c.ledger_on ? MBDAE_LEDGER_NCOLS : 0;
  cols = calloc((size_t)(ncm + nled) + 1, sizeof *cols);
  evcols = calloc((size_t)nev + 1, sizeof *evcols);
  c.row = calloc((size_t)(ncm + nled) + 1, sizeof *c.row);
  c.held = calloc((size_t)(ncm + nled) + 1, sizeof *c.held);
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
  if (c.ledger_on) mbdae_ledger_columns(cols + 1 + ncm);
  c.ledger_col = ncm + (c.prepend_t ? 1 : 0);
  if (c.prepend_t) {
    snprintf(cols[0].name, sizeof cols[0].name, "t");
    snprintf(cols[0].unit, sizeof cols[0].unit, "s");
  }
  rc = k->initial_state(c.model, o.t0, y, yp);
  if (run_cancel(&c)) {
    rc = setup_interrupted(&c, "initial state");
    goto done;
  }
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
  c.out.ncols = ncm + nled + (c.prepend_t ? 1 : 0);
  c.out.cols = c.prepend_t ? cols : cols + 1;
  c.out.nevcols = nev;
  c.out.evcols = evcols;
  c.out.ninv = res->ninv;
  c.out.inv_names = inv_names;
  for (int i = 0; i < res->ninv; ++i) {
    snprintf(c.inv_unit[i], sizeof c.inv_unit[i], "%s", mbdae_problem_invariant_unit(c.problem, i));
    c.inv_unit_of[i] = c.inv_unit[i];
  }
  c.out.inv_units = c.inv_unit_of;
  char twice[64];
  if (mbdae_events_name_repeated(&c.out, twice, sizeof twice)) {
    /* events.csv, results.mat and DataFrames need one name per column */
    char why[160];
    snprintf(why, sizeof why, "model kind '%s' names two event columns '%s'", k->name, twice);
    mbdae_scenario_key_error(s, "model", why, err, errlen);
    rc = MBDAE_ERR_SCENARIO;
    res->status = MBDAE_ERR_ARGUMENT;
    goto done;
  }
  c.out.plots = cfg->plots;
  c.out.notes = cfg->notes;
  c.n = n;
  c.carry.grid_t0 = s->options.t0;
  c.carry.stop_at_end = c.q > 0;
  c.carry.nroots = mbdae_problem_root_count(c.problem);
  c.carry.masks = calloc((size_t)c.carry.nroots + 1, sizeof *c.carry.masks);
  c.carry.window = calloc((size_t)s->options.window_events + 1, sizeof *c.carry.window);
  if (!c.carry.masks || !c.carry.window) {
    copy_err(err, errlen, "out of memory");
    rc = res->status = MBDAE_ERR_MEMORY;
    goto done;
  }
  double t_begin = s->options.t0;
  long segment = 0;
  if (cfg->resume && cfg->out_dir) {
    rc = mbdae_dir_lock(cfg->out_dir, &c.lock_fd, err, errlen);
    if (!rc) mbdae_checkpoint_remove_partial(cfg->out_dir); /* of a killed run */
    if (!rc) rc = resume_setup(&c, cfg->resume, y, yp, err, errlen);
    if (rc) {
      res->status = rc;
      rc = rc == MBDAE_ERR_MEMORY ? rc : MBDAE_ERR_IO;
      goto done;
    }
    t_begin = cfg->resume->t;
    segment = cfg->resume->segment;
  }
  if (c.ledger_on) {
    mbdae_ledger_start(&c.ledger, cfg->resume ? &c.acc : NULL);
    o.step_observer = mbdae_ledger_step;
    o.step_data = &c.ledger;
  }
  o.observer = observer_segmented;
  o.observer_data = &c;
  if (cfg->progress) {
    mbdae_progress_bar_init(&bar, stderr);
    c.bar = &bar;
    o.progress = progress_segmented;
    o.progress_data = &c;
  } else {
    o.progress = NULL;
    o.progress_data = NULL;
  }
  c.run_opts = &o;
  res->status = run_segments(&c, t_begin, segment, y, yp);
  if (cfg->progress) mbdae_progress_bar_end(&bar);
  if (c.interrupted && !c.opened) { /* in the integrator's set-up (KLU's analysis) */
    rc = setup_interrupted(&c, "integrator set-up");
    goto done;
  }
  if (c.interrupted) {
    /* without segments the interruption time itself is the restart point;
     * with them, the last boundary's checkpoint is (doc/checkpoint.md) */
    char why[256] = "";
    res->interrupted = 1;
    if (cfg->out_dir && c.opened && !c.io_failed && c.q == 0 &&
        !checkpoint_refusal(&c, why, sizeof why))
      checkpoint_at(&c, 0, 1, res->stats.t_reached, y, yp, NULL, 0);
    else if (!cfg->out_dir)
      snprintf(why, sizeof why, "no output directory");
    if (!c.io_failed) {
      if (!isnan(res->checkpoint_t))
        snprintf(res->message, sizeof res->message,
                 "interrupted by a signal at t = %.9g; continue with `mbdae resume %s` "
                 "(from the checkpoint at t = %.9g)", res->stats.t_reached, cfg->out_dir,
                 res->checkpoint_t);
      else
        snprintf(res->message, sizeof res->message,
                 "interrupted by a signal at t = %.9g; no checkpoint: %s", res->stats.t_reached,
                 why);
    }
  }
  /* a run that ended early (failure, stop) keeps its last state in series.csv */
  if (c.opened && !c.io_failed && c.has_held && put_row(&c, c.held, MBDAE_SERIES_SAMPLE))
    c.io_failed = 1;
  c.has_held = 0;
  fix_text(res->message, sizeof res->message);
  if (res->status < 0 && !res->message[0])
    snprintf(res->message, sizeof res->message, "%s", mbdae_status_message(res->status));
  snprintf(res->final_mode, sizeof res->final_mode, "%s", mbdae_problem_mode(c.problem));
  if (k->outcomes) {
    int no = k->outcomes(c.model, y, yp, res->outcomes, MBDAE_RUN_MAX_OUTCOMES);
    res->noutcomes = no < 0 ? 0 : no > MBDAE_RUN_MAX_OUTCOMES ? MBDAE_RUN_MAX_OUTCOMES : no;
    for (int i = 0; i < res->noutcomes; ++i) {
      mbdae_outcome *oc = &res->outcomes[i];
      fix_text(oc->name, sizeof oc->name);
      fix_text(oc->unit, sizeof oc->unit);
      if (isfinite(oc->value) || (oc->undefined && isnan(oc->value))) continue;
      if (res->status == MBDAE_OK || res->status == MBDAE_STOPPED) {
        res->status = MBDAE_ERR_NONFINITE;
        snprintf(res->message, sizeof res->message,
                 "outcome '%s' is %g at the end of the run (t = %.12g, model '%s')", oc->name,
                 oc->value, res->stats.t_reached, k->name);
      }
    }
  }
  if (!c.observed && (res->status == MBDAE_ERR_ARGUMENT || res->status == MBDAE_ERR_UNSUPPORTED ||
                    res->status == MBDAE_ERR_PARAMETER)) {
    /* rejected before the first sample: an input error, nothing written;
     * the engine's message starts with the option it rejects */
    char key[80] = "solver";
    size_t w = strspn(res->message, "abcdefghijklmnopqrstuvwxyz_");
    for (int i = 0; w > 0 && w < 40 && i < mbdae_solver_nspecs; ++i)
      if (strlen(mbdae_solver_specs[i].key) == w &&
          !strncmp(mbdae_solver_specs[i].key, res->message, w))
        snprintf(key, sizeof key, "solver.%s", mbdae_solver_specs[i].key);
    mbdae_scenario_key_error(s, key, res->message, err, errlen);
    rc = MBDAE_ERR_SCENARIO;
    goto done;
  }
  if (c.io_failed) {
    copy_err(err, errlen, c.io_msg);
    rc = MBDAE_ERR_IO;
    /* refused the directory's lock, or never opened it: nothing written */
    if (!cfg->out_dir || c.lock_fd < 0) goto done;
    /* a write failed mid-run (disk full, a file size limit): the files hold
     * whole rows up to it; summary.json says what failed, if it can */
    res->status = MBDAE_ERR_IO;
    snprintf(res->message, sizeof res->message, "%s", c.io_msg);
    mbdae_vtk_close(&c.vtk);
    char werr[512] = "";
    if (mbdae_writer_summary_json.finish(NULL, &c.out, res, werr, sizeof werr) && err && errlen) {
      size_t used = strlen(err);
      snprintf(err + used, errlen - used, "; and %s", werr);
    }
    goto done;
  }
  if (res->status == MBDAE_ERR_CALLBACK && c.io_msg[0]) /* our own observer failed */
    snprintf(res->message, sizeof res->message, "%s", c.io_msg);
  if (res->status == MBDAE_ERR_CALLBACK && c.nonfinite) res->status = MBDAE_ERR_NONFINITE;
  rc = res->status;
  if (res->status < 0) copy_err(err, errlen, res->message);
  if (cfg->out_dir && !c.opened && open_writers(&c)) {
    copy_err(err, errlen, c.io_msg);
    rc = MBDAE_ERR_IO;
    goto done;
  }
  if (cfg->out_dir && c.vtk && !res->interrupted) { /* the scene as pictures */
    char note[256];
    mbdae_vtk_render(c.vtk, s->stem, note, sizeof note);
    if (note[0]) {
      if (!res->plot_note[0]) snprintf(res->plot_note, sizeof res->plot_note, "%s", note);
      if (cfg->notes) fprintf(cfg->notes, "mbdae: note: %s\n", note);
    }
  }
  if (cfg->out_dir) {
    if (cfg->plots && cfg->format == MBDAE_OUTPUT_MAT)
      snprintf(res->plot_note, sizeof res->plot_note,
               "no plots: they are drawn from series.csv (output.format csv or both)");
    res->wall_time = now() - t_start;
    errno = 0;
    int vrc = c.vtk ? mbdae_vtk_close(&c.vtk) : MBDAE_OK;
    if (vrc) { /* before summary.json, which then says so */
      if (vrc == MBDAE_ERR_NOT_FOUND)
        snprintf(c.io_msg, sizeof c.io_msg, "cannot write %s/animation.pvd: frames it would "
                 "list are missing from %s/vtk (deleted during the run?)", c.out.dir, c.out.dir);
      else
        write_failed_msg(&c, "animation.pvd");
      copy_err(err, errlen, c.io_msg);
      rc = MBDAE_ERR_IO;
      if (res->status >= 0) {
        res->status = MBDAE_ERR_IO;
        snprintf(res->message, sizeof res->message, "%s", c.io_msg);
      }
    }
    for (int i = 0; i < NWRITERS; ++i) {
      if (!writers[i]->finish || !writer_on(&c, i)) continue;
      if (i == NWRITERS - 1) res->wall_time = now() - t_start;
      char werr[512] = "";
      int wrc = writers[i]->finish(c.state[i], &c.out, res, werr, sizeof werr);
      if (wrc) {
        copy_err(err, errlen, werr[0] ? werr : "cannot finish the output files");
        rc = MBDAE_ERR_IO;
      }
    }
  }
  /* a finished run needs no checkpoint (a failed one keeps its last) */
  if (cfg->out_dir && !res->interrupted && (rc == MBDAE_OK || rc == MBDAE_STOPPED) &&
      (c.q > 0 || cfg->resume))
    mbdae_checkpoint_remove(cfg->out_dir);
done:
  for (int i = 0; i < NWRITERS; ++i)
    if (c.state[i] && writers[i]->close) writers[i]->close(c.state[i]);
  mbdae_vtk_close(&c.vtk);
  mbdae_dir_unlock(&c.lock_fd);
  if (c.model) k->destroy(&c.model);
  free(y);
  free(yp);
  free(cols);
  free(evcols);
  free(c.row);
  free(c.held);
  free(c.inv);
  free(c.inv_seg);
  free(c.carry.masks);
  free(c.carry.window);
  res->wall_time = now() - t_start;
  return rc;
}
