/* compliant_impact.h - one point hitting the centre of a box face through
 * net_capture's compliant contact (mode: compliant), measured: contact
 * duration, deepest penetration, normal restitution and tangential velocity
 * change. Shared by the validation cases and the tests. */
#ifndef MBDAE_VALIDATION_COMPLIANT_IMPACT_H
#define MBDAE_VALIDATION_COMPLIANT_IMPACT_H

#include "mbdae/engine.h"

typedef struct compliant_impact_setup {
  double point_mass, body_mass;  /* kg (body: unit cube) */
  double k, p, e, v_ref;         /* normal law */
  double mu, v_eps;              /* friction */
  double v_in, v_t;              /* normal approach and tangential speeds (m/s) */
  mbdae_method method;           /* ida, cvode-bdf (klu), rk4 (step t_c / 4000) */
  double rtol;
} compliant_impact_setup;

typedef struct compliant_impact_result {
  double duration;   /* s, entry to exit (crossings interpolated on a grid of t_c/4000) */
  double max_depth;  /* m */
  double e;          /* -(relative normal velocity after) / v_in */
  double dv_t;       /* change of the point's tangential velocity relative to the body (m/s) */
  double reduced_mass; /* m M / (m + M) */
  long steps;
} compliant_impact_result;

/* Run one impact; 0 or a negative status. */
int compliant_impact_run(const compliant_impact_setup *s, compliant_impact_result *r);

#endif
