/* compliant_impact.c - a single compliant impact of a point on a box face
 * through the real net_capture model and engine (compliant_impact.h). */
#include "compliant_impact.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/compliant_contact.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"

typedef struct watch {
  capture_model *m;
  double t_prev, d_prev;
  double t_in, t_out, dmax;
} watch;

static double depth_of(capture_model *m, const double *y) {
  int bo = capture_body_offset(m);
  double C[9];
  mbdae_rb_rotation(&y[bo + MBDAE_RB_Q], C);
  return cc_point_depth(capture_body(m), C, y, &y[bo + MBDAE_RB_P], NULL);
}

/* depth crossings of 0 at the output samples, linearly interpolated */
static int observe(double t, const double *y, const double *yp, const mbdae_event_record *ev,
                   void *ud) {
  (void)yp;
  watch *w = ud;
  if (ev) return 0;
  double d = depth_of(w->m, y);
  if (w->t_prev >= 0.0) {
    if (w->d_prev <= 0.0 && d > 0.0 && w->t_in < 0.0)
      w->t_in = w->t_prev + (t - w->t_prev) * (-w->d_prev) / (d - w->d_prev);
    if (w->d_prev > 0.0 && d <= 0.0 && w->t_out < 0.0)
      w->t_out = w->t_prev + (t - w->t_prev) * w->d_prev / (w->d_prev - d);
  }
  if (d > w->dmax) w->dmax = d;
  w->t_prev = t;
  w->d_prev = d;
  return 0;
}

int compliant_impact_run(const compliant_impact_setup *s, compliant_impact_result *r) {
  memset(r, 0, sizeof *r);
  capture_params p;
  capture_params_default(&p);
  p.mode = CAPTURE_MODE_COMPLIANT;
  p.rows = p.cols = 1;
  p.strings_on = 0;
  p.point_mass = s->point_mass;
  p.shape = CAPTURE_SHAPE_BOX;
  p.box_size[0] = p.box_size[1] = p.box_size[2] = 1.0;
  p.body_mass = s->body_mass;
  p.contact_stiffness = s->k;
  p.contact_exponent = s->p;
  p.contact_restitution = s->e;
  p.contact_reference_velocity = s->v_ref;
  p.friction = s->mu;
  p.friction_velocity = s->v_eps;
  /* the contact starts after 0.1 t_c of free flight, on the face x = -1/2 */
  double mu_red = s->point_mass * s->body_mass / (s->point_mass + s->body_mass);
  double tc = hc_undamped_duration(s->k, s->p, mu_red, s->v_in);
  p.launch_point[0] = -0.5 - 0.1 * tc * s->v_in;
  p.launch_velocity[0] = s->v_in;
  p.launch_velocity[1] = s->v_t;
  int dae = s->method == MBDAE_METHOD_IDA;
  capture_model *m = NULL;
  int rc = capture_create_compliant(&p, dae, &m, NULL);
  if (rc) return rc;
  int n = capture_size(m), bo = capture_body_offset(m);
  double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
  if (!y || !yp) rc = MBDAE_ERR_MEMORY;
  if (!rc) rc = capture_initial_state(m, 0.0, y);
  if (!rc) rc = capture_compliant_rhs(m, 0.0, y, yp);
  watch w = {m, -1.0, 0.0, -1.0, -1.0, 0.0};
  mbdae_stats st;
  if (!rc) {
    mbdae_options o;
    mbdae_options_default(&o);
    o.method = s->method;
    o.linsol = s->method == MBDAE_METHOD_RK4 ? MBDAE_LINSOL_DENSE : MBDAE_LINSOL_KLU;
    o.t_end = 2.0 * tc;
    o.dt_out = tc / 4000.0;
    o.rtol = s->rtol;
    o.atol = s->rtol * 1e-3 * s->v_in * tc;
    o.rk4_step = tc / 4000.0;
    o.max_steps = 1000000;
    o.observer = observe;
    o.observer_data = &w;
    rc = mbdae_run(capture_problem(m), &o, y, dae ? yp : NULL, &st, NULL, 0);
  }
  if (!rc && (w.t_in < 0.0 || w.t_out < 0.0)) rc = MBDAE_ERR_SOLVER; /* no contact seen */
  if (!rc) {
    r->duration = w.t_out - w.t_in;
    r->max_depth = w.dmax;
    r->e = -(y[3] - y[bo + MBDAE_RB_U]) / s->v_in;
    r->dv_t = (y[4] - y[bo + MBDAE_RB_U + 1]) - s->v_t;
    r->reduced_mass = mu_red;
    r->steps = st.steps;
  }
  free(y);
  free(yp);
  capture_free(&m);
  return rc;
}
