/* event_group.c - event policy for near-simultaneous roots.
 *
 * The integrators report together only the roots located at the same time to
 * within their root-finding tolerance (SUNDIALS: about 100 uround (|t| + |h|)).
 * Two contacts closing a nanosecond apart are then two events, each with its
 * own handler call and integrator restart, separated by a tiny step. Here a
 * root that crosses within a window after the located root, in the same step,
 * joins that event: the handler sees the whole set in dirs and applies every
 * transition at once, at the located time, and the integrator restarts once.
 *
 * The window is event_window * rtol * h, h the step in which the root was
 * located, never beyond that step's end. Applying a transition early by d
 * changes the state by about d |[y']| ([y'] the jump of y' the transition
 * makes), i.e. by event_window * rtol times what the jump would change over
 * the step: at event_window <= 1 no more than the relative error the step
 * itself was accepted with. The grouped roots' values lie on their
 * pre-crossing side by at most d |g'|, which the handler must accept as it
 * accepts the located root's round-off (doc/engine.md, "Near-simultaneous
 * roots"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_impl.h"
#include "mbdae/status.h"

/* The root value the integrator sees (root_mask.c), without releasing the
 * mask: this look ahead is on a trajectory the event may discard. */
static double masked_peek(const mbdae_root_mask *m, double g) {
  if (!m->active || fabs(g) > m->band) return g;
  return -m->dir * m->band;
}

/* The model's roots at (t, y, yp), as masked; non-finite values read as no
 * sign (the integrator has reported those already). */
static int peek_roots(mbdae_engine *e, double t, const double *y, const double *yp,
                      double *g) {
  const mbdae_problem *p = e->p;
  int rc = p->roots(t, y, p->form == MBDAE_FORM_DAE ? yp : NULL, g, p->user_data);
  if (rc != 0) return rc;
  for (int i = 0; i < p->nroots; ++i)
    g[i] = isfinite(g[i]) ? masked_peek(&e->mask[i], g[i]) : 0.0;
  return 0;
}

int mbdae_engine_group_roots(mbdae_engine *e, int *dirs, double *ywin, double *ypwin,
                             double *g0, double *g1, int *grouped) {
  const mbdae_problem *p = e->p;
  const mbdae_options *o = e->o;
  *grouped = 0;
  if (!(o->event_window > 0.0) || !e->step_dense || p->nroots < 2) return MBDAE_OK;
  double t0 = 0.0, t1 = 0.0;
  int rc = e->step_dense(e, 0.0, NULL, NULL, &t0, &t1);
  if (rc != MBDAE_OK) return rc;
  const double h = t1 - t0;
  if (!(h > 0.0) || !(e->t >= t0) || !(e->t < t1)) return MBDAE_OK; /* root at the step's end */
  double tw = e->t + o->event_window * o->rtol * h;
  if (tw > t1) tw = t1;
  if (!(tw > e->t)) return MBDAE_OK; /* below the resolution of t */
  rc = e->step_dense(e, tw, ywin, ypwin, &t0, &t1);
  if (rc != MBDAE_OK) return rc;
  if (peek_roots(e, e->t, e->y, e->yp, g0) != 0 || peek_roots(e, tw, ywin, ypwin, g1) != 0) {
    snprintf(e->msg, sizeof e->msg,
             "the model's root function failed in the event window after t=%.12g in mode '%s'",
             e->t, mbdae_engine_mode(e));
    return MBDAE_ERR_CALLBACK;
  }
  for (int i = 0; i < p->nroots; ++i) {
    if (dirs[i]) continue;
    /* a crossing (or a zero reached) from the located state to the window's end */
    if (g0[i] < 0.0 && g1[i] >= 0.0) dirs[i] = 1;
    else if (g0[i] > 0.0 && g1[i] <= 0.0) dirs[i] = -1;
    else continue;
    ++*grouped;
  }
  return MBDAE_OK;
}
