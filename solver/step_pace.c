/* step_pace.c - the pace of an adaptive integrator's steps: the order of
 * each step, the climb back after an event's restart, and the first step
 * an implicit method takes after one (doc/engine.md, "Restarts"). */
#include <math.h>

#include "engine_impl.h"

void mbdae_engine_note_steps(mbdae_engine *e, long count, double h, int order) {
  if (count <= 0) return;
  h = fabs(h);
  int q = order < 1 ? 1 : order > MBDAE_STATS_ORDERS ? MBDAE_STATS_ORDERS : order;
  e->steps_by_order[q - 1] += count;
  /* the ramp: the first step after a restart and every later one that grows
   * (IDA doubles) while below half the step before the event; a step that
   * shrinks ends it (the new mode's own pace), one of equal size neither
   * counts nor ends it (IDA repeats its first step, ARKODE keeps h within
   * its fixed-step bounds) */
  if (e->ramp_h > 0.0) {
    if (h >= e->ramp_h || h < e->ramp_prev) {
      e->ramp_h = 0.0;
    } else if (h > e->ramp_prev) {
      e->ramp_steps += count;
      e->ramp_prev = h;
    }
  }
  e->last_h = h;
  e->last_order = order;
}

void mbdae_engine_note_restart(mbdae_engine *e) {
  e->restarts++;
  e->ramp_h = 0.5 * e->last_h;
  e->ramp_prev = 0.0;
}

/* A method of order q whose last step h had a local error at the
 * tolerance, C (h/T)^(q+1) ~ rtol for a solution varying on the time scale
 * T, restarts at order p: the step of the same local error is
 * h rtol^(1/(p+1)) / rtol^(1/(q+1)). BDF restarts at p = 1 (x = rtol^(1/2 -
 * 1/(q+1)): 1 after an order-1 step, 0.03 after order 3 at rtol 1e-6); a
 * one-step method keeps its order, p = q, and its pace (x = 1). */
static double restart_fraction(const mbdae_engine *e, int p) {
  const mbdae_options *o = e->o;
  if (o->restart_step > 0.0) return o->restart_step;
  if (o->restart_policy != MBDAE_RESTART_AUTO) return 0.0;
  int q = e->last_order > 0 ? e->last_order : 1;
  if (p < 1) p = 1;
  double x = pow(o->rtol, 1.0 / (p + 1) - 1.0 / (q + 1));
  return x < 1.0 ? x : 1.0;
}

/* That fraction of the last step; a restart at order 1 (BDF) is bounded by
 * the distance to the output time the run is heading for: an event just
 * before an output does not start with a step reaching far past it (the
 * output would be interpolated linearly over it). A one-step method keeps
 * its order and its dense output: its step is not cut. */
double mbdae_engine_restart_step(const mbdae_engine *e, int p) {
  if (!(e->last_h > 0.0)) return 0.0;
  double h = restart_fraction(e, p) * e->last_h;
  double left = e->tout - e->t;
  if (p <= 1 && h > 0.0 && left > 0.0 && h > left) h = left;
  return h;
}
