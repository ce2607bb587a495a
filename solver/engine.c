/* engine.c - the hybrid event loop shared by every backend: output sampling,
 * root handling, event maps, consistency checks, the Zeno guard and the
 * event log. */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine_impl.h"
#include "mbdae/mechanics.h"
#include "mbdae/status.h"

int mbdae_options_cancelled(const mbdae_options *o) {
  if (!o) return 0;
  if (o->interrupt && *o->interrupt) return 1;
  return o->cancel && o->cancel(o->cancel_data) ? 1 : 0;
}

void mbdae_options_default(mbdae_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->method = MBDAE_METHOD_IDA;
  o->linsol = MBDAE_LINSOL_DENSE;
  o->ordering = MBDAE_ORDERING_COLAMD;
  o->t0 = 0.0;
  o->t_end = 1.0;
  o->dt_out = 0.01;
  o->rtol = 1e-8;
  o->atol = 1e-10;
  o->rk4_step = 1e-3;
  o->max_steps = 100000;
  o->max_events = 0;
  o->window_events = 1000;
  o->window_length = 1e-9;
  o->consistency_tol = 1e-6;
  o->calcic_fallback = 0;
  o->root_band = 1e-10;
  o->jac_reuse_cj = 0.9;
  o->restart_step = 0.0;
  o->theta = 0.5;
  o->moreau_step = 1e-3;
  o->activation = 0.5;
  o->nonsmooth_tol = 1e-10;
  o->nonsmooth_max_iter = 50;
  o->projection = 0;
  o->projection_tol = 1e-10;
  o->arkode_table = MBDAE_ARKODE_ESDIRK43I6; /* doc/arkode.md "Tables": the measured choice */
  o->restart_policy = MBDAE_RESTART_AUTO;
  o->event_window = 0.0; /* grouping on request: doc/engine.md "Near-simultaneous roots" */
  o->arkode_reduce = 1; /* doc/arkode.md "Kinematic rows" */
}

static const char *const method_names[] = {"ida", "cvode-bdf", "cvode-adams", "rk4",
                                           "moreau", "arkode"};
enum { NMETHODS = (int)(sizeof method_names / sizeof method_names[0]) };

const char *mbdae_method_name(mbdae_method m) {
  if ((int)m < 0 || (int)m >= NMETHODS) return "unknown";
  return method_names[m];
}

int mbdae_method_parse(const char *s, mbdae_method *m) {
  if (!s || !m) return MBDAE_ERR_ARGUMENT;
  for (int i = 0; i < NMETHODS; ++i)
    if (strcmp(s, method_names[i]) == 0) {
      *m = (mbdae_method)i;
      return MBDAE_OK;
    }
  return MBDAE_ERR_NOT_FOUND;
}

const char *mbdae_engine_mode(const mbdae_engine *e) {
  const char *s = e->p->mode_name ? e->p->mode_name(e->p->user_data) : NULL;
  return s ? s : "-";
}

int mbdae_engine_worst_residual(mbdae_engine *e, double t, const double *y,
                                const double *yp, double *value) {
  const mbdae_problem *p = e->p;
  double *r = malloc((size_t)e->n * sizeof *r);
  if (!r) return -1;
  int worst = -1;
  double big = -1.0;
  if (mbdae_problem_eval(p, t, y, yp, r) == 0)
    for (int i = 0; i < e->n; ++i)
      if (fabs(r[i]) > big || isnan(r[i])) {
        big = fabs(r[i]);
        worst = i;
        if (isnan(r[i])) break;
      }
  free(r);
  if (value) *value = big;
  return worst;
}

static double now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int check_options(const mbdae_problem *p, const mbdae_options *o,
                         char *msg, size_t n) {
#define BAD(...) do { snprintf(msg, n, __VA_ARGS__); return MBDAE_ERR_ARGUMENT; } while (0)
  if (!(isfinite(o->t0) && isfinite(o->t_end) && o->t_end > o->t0))
    BAD("t_end (%g) must be finite and greater than t0 (%g)", o->t_end, o->t0);
  if (!(o->dt_out > 0.0 && isfinite(o->dt_out))) BAD("dt_out must be positive");
  /* every loop over output times is bounded: a dt_out below the resolution
   * of t (1e-300) or 1e302 intervals (t_end 1e300) never ended */
  const double tmag = fmax(fabs(o->t0), fabs(o->t_end));
  if (o->dt_out <= 4.0 * DBL_EPSILON * tmag)
    BAD("dt_out (%g) is below the resolution of t near %g: successive output times would "
        "be equal", o->dt_out, tmag);
  if ((o->t_end - o->t0) / o->dt_out > MBDAE_MAX_OUTPUT_INTERVALS)
    BAD("dt_out (%g) makes %.3g output intervals over [t0, t_end] = [%g, %g], more than "
        "%.0e: raise dt_out or shorten the run", o->dt_out, (o->t_end - o->t0) / o->dt_out,
        o->t0, o->t_end, MBDAE_MAX_OUTPUT_INTERVALS);
  if (!(o->rtol > 0.0 && o->atol > 0.0)) BAD("rtol and atol must be positive");
  if (o->method == MBDAE_METHOD_RK4 && !(o->rk4_step > 0.0))
    BAD("rk4_step must be positive");
  if (o->method == MBDAE_METHOD_RK4 && o->rk4_step <= 4.0 * DBL_EPSILON * tmag)
    BAD("rk4_step (%g) is below the resolution of t near %g", o->rk4_step, tmag);
  if (o->window_events < 1 || !(o->window_length >= 0.0))
    BAD("window_events must be >= 1 and window_length >= 0");
  /* sizes from input, against memory before anything is allocated */
  if (16.0 * o->window_events > 0.5 * mbdae_memory_available())
    BAD("window_events (%d) needs %.3g GB for the Zeno window, more than half the memory "
        "available (%.3g GB)", o->window_events, 16e-9 * o->window_events,
        1e-9 * mbdae_memory_available());
  const int newton = o->method == MBDAE_METHOD_IDA || o->method == MBDAE_METHOD_CVODE_BDF;
  const double dense_bytes = 2.0 * 8.0 * (double)p->n * (double)p->n;
  if (newton && o->linsol == MBDAE_LINSOL_DENSE && dense_bytes > 0.5 * mbdae_memory_available())
    BAD("linear_solver dense with n = %d unknowns needs %.3g GB for its matrices, more than "
        "half the memory available (%.3g GB): use linear_solver klu", p->n,
        1e-9 * dense_bytes, 1e-9 * mbdae_memory_available());
  if (!(o->root_band > 0.0)) BAD("root_band must be positive");
  if (!(o->event_window >= 0.0 && o->event_window <= 1e6))
    BAD("event_window (%g) must be in [0, 1e6]", o->event_window);
  if (p->weights && (o->method == MBDAE_METHOD_RK4 || o->method == MBDAE_METHOD_MOREAU ||
                     (o->method == MBDAE_METHOD_ARKODE && p->form == MBDAE_FORM_DAE))) {
    snprintf(msg, n, "the model's error weights need an error-controlled integrator on its "
                     "form (ida, cvode-bdf, cvode-adams, arkode on an ODE form), not %s",
             mbdae_method_name(o->method));
    return MBDAE_ERR_UNSUPPORTED;
  }
  if (o->method == MBDAE_METHOD_MOREAU) {
    if (!(o->theta >= 0.5 && o->theta <= 1.0)) BAD("theta (%g) must be in [1/2, 1]", o->theta);
    if (!(o->moreau_step > 0.0 && isfinite(o->moreau_step)))
      BAD("moreau_step must be positive");
    if (!(o->activation >= 0.0 && o->activation <= 1.0))
      BAD("activation (%g) must be in [0, 1]", o->activation);
    if (!(o->nonsmooth_tol > 0.0 && o->nonsmooth_tol < 1.0))
      BAD("nonsmooth_tol must be in (0, 1)");
    if (o->nonsmooth_max_iter < 1) BAD("nonsmooth_max_iter must be >= 1");
    if (o->projection && !(o->projection_tol > 0.0 && isfinite(o->projection_tol)))
      BAD("projection_tol must be positive");
    if (!mbdae_problem_has_mechanics(p)) {
      snprintf(msg, n, "method moreau needs the model's mechanical form (positions, "
                       "velocities, mass, forces: mbdae/mechanics.h), which it does not supply");
      return MBDAE_ERR_UNSUPPORTED;
    }
    return MBDAE_OK;
  }
  if ((int)o->method < 0 || (int)o->method >= NMETHODS) BAD("unknown method %d", (int)o->method);
  if (o->method == MBDAE_METHOD_ARKODE &&
      ((int)o->arkode_table < 0 || (int)o->arkode_table > (int)MBDAE_ARKODE_TRBDF2))
    BAD("unknown arkode_table %d", (int)o->arkode_table);
  if (o->arkode_reduce != 0 && o->arkode_reduce != 1)
    BAD("arkode_reduce (%d) must be 0 or 1", o->arkode_reduce);
  if ((int)o->arkode_newton < 0 || (int)o->arkode_newton > (int)MBDAE_ARKODE_NEWTON_MULTIPLIER)
    BAD("unknown arkode_newton %d", (int)o->arkode_newton);
  if (o->arkode_newton_iters < 0 || o->arkode_setup_every < 0 || o->arkode_jac_every < 0)
    BAD("arkode_newton_iters, arkode_setup_every and arkode_jac_every must be >= 0 (0: "
        "ARKODE's default)");
  if (!(o->restart_step >= 0.0 && o->restart_step <= 1.0))
    BAD("restart_step (%g) must be in [0, 1]", o->restart_step);
  int dae = p->form == MBDAE_FORM_DAE;
  if (o->method == MBDAE_METHOD_ARKODE && o->arkode_newton == MBDAE_ARKODE_NEWTON_MULTIPLIER &&
      (!dae || o->linsol != MBDAE_LINSOL_KLU || !o->arkode_reduce))
    BAD("arkode_newton multiplier applies to a DAE form with linear_solver klu and "
        "arkode_reduce true (doc/arkode.md)");
  if (dae && o->method == MBDAE_METHOD_ARKODE) {
    if (!p->completion) {
      snprintf(msg, n, "method arkode takes a DAE-form problem only when it is declared "
                       "semi-explicit of index 1 (mbdae_problem_set_completion); this one is not: "
                       "use method ida");
      return MBDAE_ERR_UNSUPPORTED;
    }
    if (!p->residual) BAD("DAE problem without a residual");
    if (o->linsol == MBDAE_LINSOL_DENSE && !p->jac_dense) {
      snprintf(msg, n, "method arkode on a DAE form needs the model's analytic Jacobian");
      return MBDAE_ERR_UNSUPPORTED;
    }
  } else if (dae && o->method != MBDAE_METHOD_IDA) {
    snprintf(msg, n, "a DAE-form problem needs method ida, not %s",
             mbdae_method_name(o->method));
    return MBDAE_ERR_UNSUPPORTED;
  }
  if (!dae && o->method == MBDAE_METHOD_IDA) {
    snprintf(msg, n, "an ODE-form problem needs method cvode-bdf, cvode-adams, rk4 or arkode");
    return MBDAE_ERR_UNSUPPORTED;
  }
  if (dae && !p->residual) BAD("DAE problem without a residual");
  if (!dae && !p->rhs) BAD("ODE problem without a right-hand side");
  if (o->linsol == MBDAE_LINSOL_KLU && !p->jac_sparse &&
      (o->method == MBDAE_METHOD_IDA || o->method == MBDAE_METHOD_CVODE_BDF ||
       o->method == MBDAE_METHOD_ARKODE)) {
    snprintf(msg, n, "linear_solver klu needs the model's sparse Jacobian");
    return MBDAE_ERR_UNSUPPORTED;
  }
  if ((o->linsol == MBDAE_LINSOL_SPGMR || o->linsol == MBDAE_LINSOL_SPGMR_JACOBI) &&
      o->method != MBDAE_METHOD_IDA && o->method != MBDAE_METHOD_RK4 &&
      o->method != MBDAE_METHOD_CVODE_ADAMS) {
    snprintf(msg, n, "linear_solver %s is available with method ida only, not %s",
             o->linsol == MBDAE_LINSOL_SPGMR ? "spgmr" : "spgmr-jacobi",
             mbdae_method_name(o->method));
    return MBDAE_ERR_UNSUPPORTED;
  }
  if ((o->linsol == MBDAE_LINSOL_SPGMR || o->linsol == MBDAE_LINSOL_SPGMR_JACOBI) &&
      !p->jac_sparse && o->method == MBDAE_METHOD_IDA) {
    snprintf(msg, n, "linear_solver %s needs the model's sparse Jacobian",
             o->linsol == MBDAE_LINSOL_SPGMR ? "spgmr" : "spgmr-jacobi");
    return MBDAE_ERR_UNSUPPORTED;
  }
  if ((int)o->linsol < 0 || (int)o->linsol > (int)MBDAE_LINSOL_SPGMR_JACOBI)
    BAD("unknown linear_solver %d", (int)o->linsol);
  if (p->nroots > 0 && !p->event) BAD("root functions without an event handler");
#undef BAD
  return MBDAE_OK;
}

/* |F_i| <= tol (1 + |y_i| + |yp_i|) for all i: the state solves the residual. */
static int check_consistency(mbdae_engine *e, char *what, size_t n) {
  const mbdae_problem *p = e->p;
  if (p->form != MBDAE_FORM_DAE) return MBDAE_OK;
  double *r = malloc((size_t)e->n * sizeof *r);
  if (!r) return MBDAE_ERR_MEMORY;
  int rc = mbdae_problem_eval(p, e->t, e->y, e->yp, r);
  int bad = -1;
  if (rc == 0)
    for (int i = 0; i < e->n; ++i) {
      double lim = e->o->consistency_tol * (1.0 + fabs(e->y[i]) + fabs(e->yp[i]));
      if (!(fabs(r[i]) <= lim)) {
        bad = i;
        break;
      }
    }
  if (rc != 0)
    snprintf(what, n, "residual evaluation failed (status %d)", rc);
  else if (bad >= 0)
    snprintf(what, n, "residual component %d is %.3e (y=%.6g, yp=%.6g)", bad,
             r[bad], e->y[bad], e->yp[bad]);
  free(r);
  if (rc != 0) return MBDAE_ERR_CALLBACK;
  return bad >= 0 ? MBDAE_ERR_INCONSISTENT : MBDAE_OK;
}

/* A restart from a state the integrator left (segment boundary, checkpoint)
 * that fails the consistency check: the model's restart completion, as its
 * event handler would set it (an index-2 form IDACalcIC cannot repair), then
 * the check again. A failed or non-finite completion leaves y, yp as they were
 * and the first inconsistency stands. */
static int restart_state(mbdae_engine *e, char *what, size_t n) {
  size_t bytes = (size_t)e->n * sizeof(double);
  double *keep = malloc(2 * bytes);
  if (!keep) return MBDAE_ERR_MEMORY;
  memcpy(keep, e->y, bytes);
  memcpy(keep + e->n, e->yp, bytes);
  int cb = e->p->restart_state(e->t, e->y, e->yp, e->p->user_data);
  int finite = 1;
  for (int i = 0; i < e->n && finite; ++i) finite = isfinite(e->y[i]) && isfinite(e->yp[i]);
  int rc = MBDAE_ERR_INCONSISTENT;
  if (cb == 0 && finite) {
    rc = check_consistency(e, what, n); /* names the completed state's worst row */
  }
  if (rc != MBDAE_OK) {
    memcpy(e->y, keep, bytes);
    memcpy(e->yp, keep + e->n, bytes);
  }
  free(keep);
  return rc == MBDAE_OK ? MBDAE_OK : MBDAE_ERR_INCONSISTENT;
}

/* ODE form: keep e->yp = f(t, y) for observers (moreau keeps its own: the
 * last step's mean rates, since its steps hold impulses). */
static int refresh_ydot(mbdae_engine *e) {
  if (e->p->form != MBDAE_FORM_ODE || e->o->method == MBDAE_METHOD_MOREAU) return MBDAE_OK;
  int rc = e->p->rhs(e->t, e->y, e->yp, e->p->user_data);
  return rc < 0 ? MBDAE_ERR_CALLBACK : MBDAE_OK;
}

static int observe(mbdae_engine *e, const mbdae_event_record *ev) {
  if (!e->o->observer) return MBDAE_OK;
  int rc = refresh_ydot(e);
  if (rc != MBDAE_OK) return rc;
  rc = e->o->observer(e->t, e->y, e->yp, ev, e->o->observer_data);
  if (rc > 0) return MBDAE_STOPPED;
  if (rc < 0) return MBDAE_ERR_CALLBACK;
  return MBDAE_OK;
}

static int eval_invariants(mbdae_engine *e, double *out) {
  const mbdae_problem *p = e->p;
  if (p->ninv == 0) return MBDAE_OK;
  const double *yp = p->form == MBDAE_FORM_DAE ? e->yp : NULL;
  int rc = p->invariants(e->t, e->y, yp, out, p->user_data);
  return rc < 0 ? MBDAE_ERR_CALLBACK : MBDAE_OK;
}

/* No silent wrong answer: a NaN or inf in the state (after a step or an
 * event map) or in an invariant ends the run, naming t and the component,
 * whichever backend produced it. */
static int check_finite_state(mbdae_engine *e, const char *where) {
  const int dae = e->p->form == MBDAE_FORM_DAE;
  for (int i = 0; i < e->n; ++i) {
    const double *v = !isfinite(e->y[i]) ? e->y : dae && !isfinite(e->yp[i]) ? e->yp : NULL;
    if (!v) continue;
    snprintf(e->msg, sizeof e->msg,
             "non-finite state %s at t=%.12g in mode '%s': %s[%d] = %g", where, e->t,
             mbdae_engine_mode(e), v == e->y ? "y" : "yp", i, v[i]);
    return MBDAE_ERR_NONFINITE;
  }
  return MBDAE_OK;
}

static int check_finite_invariants(mbdae_engine *e, const double *inv, const char *where) {
  const mbdae_problem *p = e->p;
  for (int i = 0; i < p->ninv; ++i)
    if (!isfinite(inv[i])) {
      snprintf(e->msg, sizeof e->msg, "invariant '%s' is %g %s at t=%.12g in mode '%s'",
               p->inv_names && p->inv_names[i] ? p->inv_names[i] : "?", inv[i], where,
               e->t, mbdae_engine_mode(e));
      return MBDAE_ERR_NONFINITE;
    }
  return MBDAE_OK;
}

/* The largest repair the handler reported (problem_repair.c) against the
 * problem's stated tolerance. */
static int check_repair(mbdae_engine *e, mbdae_stats *stats, const char *label,
                        const char *mode) {
  const mbdae_problem *p = e->p;
  double r = p->repair_max;
  if (r > stats->max_repair) stats->max_repair = r;
  if (r <= p->repair_tol) return MBDAE_OK;
  snprintf(e->msg, sizeof e->msg,
           "event '%s' at t=%.12g in mode '%s' repaired %s by %.6g, more than the "
           "model's tolerance %.3g: a contact or constraint was missed, not located "
           "(no silent repair)", label, e->t, mode,
           p->repair_what ? p->repair_what : "the state", r, p->repair_tol);
  stats->max_repair = isnan(r) ? r : stats->max_repair;
  return MBDAE_ERR_INCONSISTENT;
}

typedef struct event_state {
  int *dirs;
  double *inv_before, *inv_after;
  double *ywin, *ypwin, *g0, *g1; /* the event window's look ahead (event_group.c) */
  double *ring;      /* times of the last window_events events */
  long nring;
  char mode_before[64], mode_after[64];
} event_state;

/* Zeno guard: more than window_events events within window_length. */
static int event_rate_exceeded(event_state *s, const mbdae_options *o, long count,
                               double t) {
  long w = o->window_events;
  if (count >= w) {
    double oldest = s->ring[count % w];
    if (t - oldest <= o->window_length) return 1;
  }
  s->ring[count % w] = t;
  return 0;
}

static int handle_event(mbdae_engine *e, event_state *s, mbdae_stats *stats,
                        int *stop) {
  const mbdae_problem *p = e->p;
  const mbdae_options *o = e->o;
  int rc = e->ops->root_info(e, s->dirs);
  if (rc != MBDAE_OK) return rc;
  int any = 0;
  for (int i = 0; i < p->nroots; ++i) any |= s->dirs[i] != 0;
  if (!any) return MBDAE_OK;
  int grouped = 0;
  rc = mbdae_engine_group_roots(e, s->dirs, s->ywin, s->ypwin, s->g0, s->g1, &grouped);
  if (rc != MBDAE_OK) return rc;
  stats->grouped_roots += grouped;

  rc = observe(e, NULL); /* the pre-event state, so plots show the jump */
  if (rc != MBDAE_OK) return rc;
  rc = eval_invariants(e, s->inv_before);
  if (rc == MBDAE_OK) rc = check_finite_invariants(e, s->inv_before, "before an event");
  if (rc != MBDAE_OK) return rc;
  snprintf(s->mode_before, sizeof s->mode_before, "%s", mbdae_engine_mode(e));

  mbdae_event_info info;
  memset(&info, 0, sizeof info);
  double *yp = p->form == MBDAE_FORM_DAE ? e->yp : NULL;
  mbdae_problem_repair_reset(e->p);
  int action = p->event(e->t, e->y, yp, s->dirs, &info, p->user_data);
  rc = check_repair(e, stats, info.label ? info.label : "root", s->mode_before);
  if (rc != MBDAE_OK) return rc;
  if (action < 0) {
    snprintf(e->msg, sizeof e->msg,
             "event handler failed (status %d) at t=%.12g in mode '%s'%s%s", action,
             e->t, s->mode_before, info.label ? ": " : "", info.label ? info.label : "");
    return MBDAE_ERR_CALLBACK;
  }
  rc = check_finite_state(e, "after an event");
  if (rc != MBDAE_OK) return rc;
  if (info.ndata < 0 || info.ndata > MBDAE_EVENT_DATA_MAX) info.ndata = 0;
  stats->events++;
  /* events of earlier segments count too (mbdae_carry) */
  const long total = stats->events + (o->carry ? o->carry->events : 0);
  if (o->max_events > 0 && total > o->max_events) {
    snprintf(e->msg, sizeof e->msg,
             "too many events: %ld events, more than max_events = %ld at t=%.12g in mode '%s'",
             total, o->max_events, e->t, mbdae_engine_mode(e));
    return MBDAE_ERR_EVENT_LIMIT;
  }
  if (event_rate_exceeded(s, o, total - 1, e->t)) {
    snprintf(e->msg, sizeof e->msg,
             "too many events: %ld events, more than %d within %.3g at t=%.12g "
             "in mode '%s' (Zeno accumulation or an event loop)",
             total, o->window_events, o->window_length, e->t,
             mbdae_engine_mode(e));
    return MBDAE_ERR_EVENT_LIMIT;
  }
  if (action == MBDAE_EVENT_CONTINUE) {
    char what[256];
    mbdae_engine_note_restart(e);
    rc = check_consistency(e, what, sizeof what);
    if (rc == MBDAE_ERR_INCONSISTENT && o->calcic_fallback && e->ops->calcic) {
      /* a checked, logged fallback: never a silent change of the state */
      rc = e->ops->reinit(e);
      if (rc == MBDAE_OK) rc = e->ops->calcic(e);
      if (rc == MBDAE_OK) stats->calcic_fallbacks++;
    } else if (rc != MBDAE_OK) {
      snprintf(e->msg, sizeof e->msg,
               "inconsistent state after event '%s' at t=%.12g, mode '%s': %s",
               info.label ? info.label : "root", e->t, mbdae_engine_mode(e), what);
      return rc;
    }
    if (rc == MBDAE_OK) rc = mbdae_engine_mask_fired(e, s->dirs);
    if (rc == MBDAE_OK) rc = e->ops->reinit(e);
    if (rc != MBDAE_OK) return rc;
  }
  rc = eval_invariants(e, s->inv_after);
  if (rc == MBDAE_OK) rc = check_finite_invariants(e, s->inv_after, "after an event");
  if (rc != MBDAE_OK) return rc;
  snprintf(s->mode_after, sizeof s->mode_after, "%s", mbdae_engine_mode(e));

  mbdae_event_record rec = {
    .index = total - 1, .t = e->t, .nroots = p->nroots, .dirs = s->dirs,
    .label = info.label ? info.label : "root", .mode_before = s->mode_before,
    .mode_after = s->mode_after, .ninv = p->ninv, .inv_names = p->inv_names,
    .inv_before = s->inv_before, .inv_after = s->inv_after, .ndata = info.ndata,
    .data = info.data, .action = action};
  rc = observe(e, &rec);
  if (rc == MBDAE_STOPPED || action == MBDAE_EVENT_STOP) *stop = 1;
  return rc == MBDAE_STOPPED ? MBDAE_OK : rc;
}

static const mbdae_backend_ops *backend_for(mbdae_method m) {
  switch (m) {
  case MBDAE_METHOD_IDA: return &mbdae_backend_ida;
  case MBDAE_METHOD_CVODE_BDF:
  case MBDAE_METHOD_CVODE_ADAMS: return &mbdae_backend_cvode;
  case MBDAE_METHOD_RK4: return &mbdae_backend_rk4;
  case MBDAE_METHOD_MOREAU: return &mbdae_backend_moreau;
  case MBDAE_METHOD_ARKODE: return &mbdae_backend_arkode;
  }
  return NULL;
}

static int run_loop(mbdae_engine *e, mbdae_stats *stats) {
  const mbdae_options *o = e->o;
  const mbdae_problem *p = e->p;
  event_state s;
  memset(&s, 0, sizeof s);
  int nr = p->nroots > 0 ? p->nroots : 1, ni = p->ninv > 0 ? p->ninv : 1;
  s.dirs = calloc((size_t)nr, sizeof *s.dirs);
  s.inv_before = calloc((size_t)ni, sizeof *s.inv_before);
  s.inv_after = calloc((size_t)ni, sizeof *s.inv_after);
  s.ring = calloc((size_t)o->window_events, sizeof *s.ring);
  s.ywin = calloc((size_t)e->n, sizeof *s.ywin);
  s.ypwin = calloc((size_t)e->n, sizeof *s.ypwin);
  s.g0 = calloc((size_t)nr, sizeof *s.g0);
  s.g1 = calloc((size_t)nr, sizeof *s.g1);
  int rc = (s.dirs && s.inv_before && s.inv_after && s.ring && s.ywin && s.ypwin && s.g0 &&
            s.g1) ? MBDAE_OK : MBDAE_ERR_MEMORY;
  mbdae_carry *carry = o->carry;
  if (rc == MBDAE_OK && carry && carry->window)
    memcpy(s.ring, carry->window, (size_t)o->window_events * sizeof *s.ring);

  const double span = o->t_end - o->t0;
  /* output times grid + k dt_out, computed from k (never accumulated), so a
   * run cut into segments samples the same times as one run */
  const double grid = carry ? carry->grid_t0 : o->t0;
  long k = 1; /* next output index */
  if (carry) {
    k = (long)floor((o->t0 - grid) / o->dt_out);
    if (k < 0) k = 0;
    while (grid + (double)k * o->dt_out <= o->t0 + 1e-12 * span) k++;
  }
  int stop = 0;
  if (rc == MBDAE_OK) rc = observe(e, NULL);
  if (rc == MBDAE_STOPPED) stop = 1, rc = MBDAE_OK;
  while (rc == MBDAE_OK && !stop && e->t < o->t_end) {
    double tout = grid + (double)k * o->dt_out;
    if (tout > o->t_end || o->t_end - tout < 1e-12 * span) tout = o->t_end;
    int root = 0;
    e->tout = tout;
    rc = e->ops->advance(e, tout, &root);
    if (e->interrupted || mbdae_options_cancelled(o)) {
      /* the backend's state is its last accepted step's */
      e->interrupted = 1;
      snprintf(e->msg, sizeof e->msg, "interrupted at t=%.12g", e->t);
      rc = MBDAE_STOPPED;
      break;
    }
    if (rc < 0 && e->nonfinite_root) /* whichever backend: the root's note first */
      rc = mbdae_engine_nonfinite_failure(e, rc) < 0 ? MBDAE_ERR_NONFINITE : rc;
    if (rc == MBDAE_OK) rc = check_finite_state(e, "after a step");
    if (rc != MBDAE_OK) break;
    if (root) {
      rc = handle_event(e, &s, stats, &stop);
      if (rc != MBDAE_OK || stop) break;
    }
    if (e->t >= tout) {
      k++;
      rc = observe(e, NULL);
      if (rc == MBDAE_STOPPED) stop = 1, rc = MBDAE_OK;
      if (o->progress) o->progress(e->t, (e->t - o->t0) / span, o->progress_data);
    }
    if (rc == MBDAE_OK) rc = mbdae_engine_release_masks(e);
  }
  if (rc == MBDAE_STOPPED) rc = MBDAE_OK, stop = 1;
  if (carry && carry->window && s.ring)
    memcpy(carry->window, s.ring, (size_t)o->window_events * sizeof *s.ring);
  free(s.dirs);
  free(s.inv_before);
  free(s.inv_after);
  free(s.ring);
  free(s.ywin);
  free(s.ypwin);
  free(s.g0);
  free(s.g1);
  if (rc == MBDAE_OK && stop) return MBDAE_STOPPED;
  return rc;
}

int mbdae_run(mbdae_problem *p, const mbdae_options *o, double *y, double *yp,
              mbdae_stats *stats, char *msg, size_t msglen) {
  char local[512];
  if (!msg || msglen == 0) msg = local, msglen = sizeof local;
  msg[0] = '\0';
  mbdae_stats st_local;
  if (!stats) stats = &st_local;
  memset(stats, 0, sizeof *stats);
  if (!p || !o || !y || (p->form == MBDAE_FORM_DAE && !yp)) {
    snprintf(msg, msglen, "mbdae_run: NULL problem, options or state");
    return MBDAE_ERR_ARGUMENT;
  }
  int rc = check_options(p, o, msg, msglen);
  if (rc != MBDAE_OK) return rc;
  const double t_start = now_seconds();

  mbdae_engine e;
  memset(&e, 0, sizeof e);
  e.p = p;
  e.o = o;
  e.n = p->n;
  e.t = o->t0;
  e.ops = backend_for(o->method);
  e.y = malloc((size_t)e.n * sizeof *e.y);
  e.yp = calloc((size_t)e.n, sizeof *e.yp);
  int nr = p->nroots > 0 ? p->nroots : 1;
  e.mask = calloc((size_t)nr, sizeof *e.mask);
  e.graw = calloc((size_t)nr, sizeof *e.graw);
  if (!e.y || !e.yp || !e.mask || !e.graw) {
    rc = MBDAE_ERR_MEMORY;
    snprintf(msg, msglen, "out of memory allocating the state (n=%d)", e.n);
    goto done;
  }
  memcpy(e.y, y, (size_t)e.n * sizeof *y);
  if (p->form == MBDAE_FORM_DAE) memcpy(e.yp, yp, (size_t)e.n * sizeof *yp);
  mbdae_carry *carry = o->carry;
  if (carry && carry->events < 0) { /* the Zeno ring is indexed by it */
    rc = MBDAE_ERR_ARGUMENT;
    snprintf(msg, msglen, "carried event count %ld is negative", carry->events);
    goto done;
  }
  if (carry && carry->masks && carry->nroots != p->nroots) {
    rc = MBDAE_ERR_ARGUMENT;
    snprintf(msg, msglen, "carried root masks for %d roots, the problem has %d",
             carry->nroots, p->nroots);
    goto done;
  }
  if (carry && carry->masks && p->nroots > 0)
    memcpy(e.mask, carry->masks, (size_t)p->nroots * sizeof *e.mask);
  for (int i = 0; i < e.n; ++i)
    if (!isfinite(e.y[i]) || !isfinite(e.yp[i])) {
      rc = MBDAE_ERR_ARGUMENT;
      snprintf(msg, msglen, "initial state component %d is not finite", i);
      goto done;
    }

  char what[256];
  rc = check_consistency(&e, what, sizeof what);
  /* a restart the model completes itself is completed always, consistent or
   * not: an index-2 form passes the check with the integrator's mu != 0 and y'
   * of its interpolant, from which IDA's first Newton iterations fail */
  if (rc == MBDAE_OK || rc == MBDAE_ERR_INCONSISTENT)
    if (carry && carry->calcic_start && p->restart_state)
      rc = restart_state(&e, what, sizeof what);
  int need_calcic = 0;
  if (rc == MBDAE_ERR_INCONSISTENT &&
      (o->calcic_fallback || (carry && carry->calcic_start))) {
    need_calcic = 1;
    rc = MBDAE_OK;
  } else if (rc != MBDAE_OK) {
    snprintf(msg, msglen, "inconsistent initial state at t=%.12g, mode '%s': %s",
             e.t, mbdae_engine_mode(&e), what);
    goto done;
  }
  rc = e.ops->create(&e);
  if (rc == MBDAE_OK && need_calcic && e.ops->calcic) {
    rc = e.ops->calcic(&e);
    if (rc == MBDAE_OK) stats->calcic_fallbacks++;
  }
  if (rc == MBDAE_OK) rc = run_loop(&e, stats);

  mbdae_stats bs;
  memset(&bs, 0, sizeof bs);
  if (e.backend) e.ops->stats(&e, &bs);
  bs.events = stats->events;
  bs.calcic_fallbacks = stats->calcic_fallbacks;
  bs.max_repair = stats->max_repair;
  bs.grouped_roots = stats->grouped_roots;
  bs.interrupted = e.interrupted;
  memcpy(bs.steps_by_order, e.steps_by_order, sizeof bs.steps_by_order);
  bs.restarts = e.restarts;
  bs.ramp_steps = e.ramp_steps;
  *stats = bs;
  if (rc < 0 && msg[0] == '\0')
    snprintf(msg, msglen, "%s", e.msg[0] ? e.msg : mbdae_status_message(rc));
  memcpy(y, e.y, (size_t)e.n * sizeof *y);
  if (yp) memcpy(yp, e.yp, (size_t)e.n * sizeof *yp);
  if (carry) {
    carry->events += bs.events;
    if (carry->masks && p->nroots > 0)
      memcpy(carry->masks, e.mask, (size_t)p->nroots * sizeof *e.mask);
  }
done:
  if (e.backend) e.ops->destroy(&e);
  stats->t_reached = e.t;
  stats->wall_time = now_seconds() - t_start;
  free(e.y);
  free(e.yp);
  free(e.mask);
  free(e.graw);
  return rc;
}
