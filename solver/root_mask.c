/* root_mask.c - event policy for roots just handled.
 *
 * After an event the post-event state lies (to round-off) on g_i = 0 for
 * every fired root. Without care the integrator re-detects the same crossing
 * at once. A fired root is therefore masked: inside a dead band |g| <= band
 * it reads as lying on the side it came from (-dir), so no crossing is seen
 * while the state leaves the surface. If the state moves beyond the band to
 * the side it fired into (dir), the masked value jumps across zero and the
 * crossing is reported again (a genuine re-crossing, e.g. a ball sinking back
 * after a vanishing rebound - the model's Zeno rule then decides). Once g
 * has moved beyond the band to the other side the mask is released; there
 * the masked and raw values agree, so releasing changes nothing the
 * integrator has stored. */
#include <math.h>
#include <stdio.h>

#include "engine_impl.h"
#include "mbdae/status.h"

/* Root values are only ever evaluated on the accepted trajectory (step ends
 * and the interpolant inside accepted steps), so a value beyond the band on
 * the pre-crossing side proves the state has left: release the mask there,
 * where masked and raw values agree. */
static double masked_value(mbdae_root_mask *m, double g) {
  if (!m->active) return g;
  if (-m->dir * g > m->band) {
    m->active = 0;
    return g;
  }
  if (fabs(g) > m->band) return g;
  return -m->dir * m->band;
}

int mbdae_engine_roots(mbdae_engine *e, double t, const double *y,
                       const double *yp, double *g) {
  const mbdae_problem *p = e->p;
  int rc = p->roots(t, y, yp, g, p->user_data);
  if (rc != 0) return rc;
  for (int i = 0; i < p->nroots; ++i) {
    if (!isfinite(g[i])) { /* no crossing can be located on it: fatal */
      if (!e->nonfinite[0])
        snprintf(e->nonfinite, sizeof e->nonfinite,
                 "the model's root function returned %s in g[%d] at t=%.12g",
                 isnan(g[i]) ? "NaN" : "inf", i, t);
      e->nonfinite_root = 1;
      return -1;
    }
    g[i] = masked_value(&e->mask[i], g[i]);
  }
  return 0;
}

int mbdae_engine_mask_fired(mbdae_engine *e, const int *dirs) {
  const mbdae_problem *p = e->p;
  const double *yp = p->form == MBDAE_FORM_DAE ? e->yp : NULL;
  int rc = p->roots(e->t, e->y, yp, e->graw, p->user_data);
  if (rc < 0) return MBDAE_ERR_CALLBACK;
  for (int i = 0; i < p->nroots; ++i) {
    if (!dirs[i]) continue;
    mbdae_root_mask *m = &e->mask[i];
    m->refires = (m->active && m->dir == dirs[i]) ? m->refires + 1 : 0;
    if (m->refires >= MBDAE_MAX_REFIRES) {
      snprintf(e->msg, sizeof e->msg,
               "too many events: root %d fired %d times at t=%.12g in mode '%s' "
               "without the state leaving its dead band (chattering or Zeno "
               "accumulation: the model needs a Zeno/contact rule)",
               i, m->refires + 1, e->t, mbdae_engine_mode(e));
      return MBDAE_ERR_EVENT_LIMIT;
    }
    m->active = 1;
    m->dir = dirs[i];
    /* the band must contain the post-event value itself */
    double b = e->o->root_band;
    double g = fabs(e->graw[i]);
    if (g > 1e4 * b) {
      /* the handler switched this root to another function (a mode change,
       * e.g. an inactive constant): the state is not on its surface, and a
       * band around the post-event value would hide its later crossings */
      m->active = 0;
      m->refires = 0;
      continue;
    }
    m->band = (2.0 * g > b) ? 2.0 * g : b;
  }
  return MBDAE_OK;
}

int mbdae_engine_release_masks(mbdae_engine *e) {
  const mbdae_problem *p = e->p;
  int any = 0;
  for (int i = 0; i < p->nroots; ++i) any |= e->mask[i].active;
  if (!any) return MBDAE_OK;
  const double *yp = p->form == MBDAE_FORM_DAE ? e->yp : NULL;
  int rc = p->roots(e->t, e->y, yp, e->graw, p->user_data);
  if (rc < 0) return MBDAE_ERR_CALLBACK;
  for (int i = 0; i < p->nroots; ++i) {
    mbdae_root_mask *m = &e->mask[i];
    if (m->active && -m->dir * e->graw[i] > m->band) m->active = 0;
  }
  return MBDAE_OK;
}
