/* ball_mechanics.c - the bouncing ball's mechanical form (mbdae/mechanics.h)
 * for event-capturing time stepping (method moreau): q the height, v its
 * rate, M = m, f = -m g + F(t), one unilateral row g = q >= 0 with G = 1 and
 * Newton restitution e, potential m g q. The impulse observer keeps what
 * the outputs report: the mean normal force of the last step, the impacts
 * (runs of steps with an impulse) and the time the last run began (the
 * numerical accumulation time when the ball ends at rest). */
#include "ball/ball.h"
#include "mbdae/mechanics.h"
#include "mbdae/status.h"

static int ball_mass(double t, const double *q, double *values, void *user_data) {
  (void)t; (void)q;
  const ball_model *m = user_data;
  values[0] = m->p.mass;
  return 0;
}

static int ball_forces(double t, const double *q, const double *v, double *f,
                       void *user_data) {
  (void)q; (void)v;
  const ball_model *m = user_data;
  f[0] = -m->p.mass * m->p.g + ball_lift(&m->p, t);
  return 0;
}

static int ball_gap(double t, const double *q, double *g, void *user_data) {
  (void)t; (void)user_data;
  g[0] = q[0];
  return 0;
}

static int ball_gap_jacobian(double t, const double *q, double *values, void *user_data) {
  (void)t; (void)q; (void)user_data;
  values[0] = 1.0;
  return 0;
}

static int ball_potential(double t, const double *q, double *V, void *user_data) {
  (void)t;
  const ball_model *m = user_data;
  *V = m->p.mass * m->p.g * q[0];
  return 0;
}

/* An impulse after an impulse-free step starts a contact run: an impact. */
static int ball_impulses(double t, double h, const double *impulse, void *user_data) {
  ball_model *m = user_data;
  const int contact = impulse[0] > 0.0;
  if (contact && !m->step_contact) {
    m->impacts++;
    m->rest_time = t;
  }
  if (!contact && m->step_contact) m->release_time = t;
  m->step_contact = contact;
  m->step_force = impulse[0] / h;
  return 0;
}

int ball_set_mechanics(ball_model *m) {
  static const int qidx[1] = {BALL_Q}, vidx[1] = {BALL_V};
  static const mbdae_index one_colptr[2] = {0, 1}, one_rowind[1] = {0};
  mbdae_problem *pr = m->problem;
  int rc = mbdae_problem_set_mechanics(pr, 1, 1, qidx, vidx);
  if (!rc) rc = mbdae_problem_set_mass(pr, 1, one_colptr, one_rowind, 1, ball_mass);
  if (!rc) rc = mbdae_problem_set_forces(pr, ball_forces);
  if (!rc)
    rc = mbdae_problem_set_constraints(pr, 1, 0, 1, one_colptr, one_rowind, ball_gap,
                                       ball_gap_jacobian, &m->p.e);
  if (!rc) rc = mbdae_problem_set_potential(pr, ball_potential);
  if (!rc) rc = mbdae_problem_set_impulse_observer(pr, ball_impulses);
  return rc;
}
