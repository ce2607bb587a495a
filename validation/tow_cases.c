/* tow_cases.c - validation of the tethered tow (models/tow/, doc/tow.md):
 * the energy ledger and the momentum balance against the thrust impulse in
 * closed form, over a thrust pulse with slack-taut cycles. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/engine.h"
#include "mbdae/status.h"
#include "mbdae/validation.h"
#include "tow/tow.h"

static int case_ledger(mbdae_validation_report *rep) {
  static double pulse[] = {0, 0, 0, 0, 0.5, 40, 2, -1, 8, 40, 2, -1, 8.5, 0, 0, 0};
  tow_params p;
  tow_params_default(&p);
  p.tether_length = 20.0;
  p.tether_nodes = 8;
  p.tether_ea = 2e4;
  p.tether_damping = 5e3;
  p.chaser_mass = 50.0;
  p.body_mass = 100.0;
  p.body_omega[0] = 0.05;
  p.body_omega[1] = -0.1;
  p.body_omega[2] = 0.2;
  p.thrust = pulse;
  p.nthrust = 4;
  p.thrust_period = 16.0;
  tow_model *m = NULL;
  int rc = tow_create(&p, 1, &m, NULL);
  if (rc) return rc;
  double *y = calloc((size_t)m->n, sizeof *y), *yp = calloc((size_t)m->n, sizeof *yp);
  if (!y || !yp) rc = MBDAE_ERR_MEMORY;
  if (!rc) rc = tow_initial_state(m, 0.0, y, yp);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.linsol = MBDAE_LINSOL_KLU;
  o.t_end = 16.0;
  o.dt_out = 1.0;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  o.max_steps = 1000000;
  if (!rc) rc = mbdae_run(m->problem, &o, y, yp, NULL, NULL, 0);
  if (!rc) {
    tow_ledger L;
    tow_ledger_eval(m, o.t_end, y, &L);
    double I[3];
    tow_impulse(&m->p, o.t_end, I);
    mbdae_validation_add(rep, "tow, 16 s pulse, IDA rtol 1e-10: energy ledger residual (rel)", 0.0,
                         L.residual_rel, 1e-8, 0);
    mbdae_validation_add(rep, "tow: momentum - thrust impulse (rel)", 0.0,
                         L.momentum_residual_rel, 1e-8, 0);
    mbdae_validation_add(rep, "tow: thrust impulse in x, closed form 8 x 40 (N s)", 320.0, I[0],
                         1e-14, 1);
  }
  free(y);
  free(yp);
  tow_free(&m);
  return rc;
}

const mbdae_validation_case mbdae_validation_tow[] = {
  {"tow_ledger",
   "tethered tow (8 nodes, thrust pulse, slack and taut again): kinetic + elastic - (thrust "
   "work - damping loss) and momentum - impulse closed to 1e-8 (ida rtol 1e-10)", case_ledger},
  {NULL, NULL, NULL}};
