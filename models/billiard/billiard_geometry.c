/* billiard_geometry.c - the driven billiard as a VTK scene
 * (mbdae/geometry.h), lab frame of doc/billiard.md (m: n1 right, n2 up,
 * plane z = 0). The boundary at the frame's time: q2 = f(s) at
 * q1 = s + dq1(t) (HMM eqs. 9, 10), 201 points over |s| <= W, W grown until
 * the curve rises above the ball. The ball: its centre (a vertex), its rim
 * (a 48-segment circle of radius b) and a radius line at the angle theta
 * the ball has turned since the last collision, theta = u3 (t - t_c) (the
 * spin u3 is constant in flight, HMM §III; t_c = 0 before the first
 * collision), so the line turns at the true rate and starts again from
 * +n1 at every collision. The ball's absolute attitude is not a state of
 * the model. theta depends on the state and the model's collision record
 * only, so a resumed run draws the same frames. Point data: velocity (of
 * the ball's centre, at the centre point; 0 elsewhere). Cell data: part (0 boundary, 1 ball's centre
 * and rim, 2 radius line). */
#include <math.h>

#include "billiard/billiard.h"
#include "geometry_build.h"
#include "mbdae/status.h"

int billiard_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);

enum { NCURVE = 201, NRIM = 48 };

int billiard_geometry(mbdae_model *model, const double *y, mbdae_geometry *g) {
  struct mbdae_model *m = (struct mbdae_model *)model;
  if (!m || !y || !g) return MBDAE_ERR_ARGUMENT;
  geo_builder *b = geo_builder_of(g);
  if (!b) return MBDAE_ERR_MEMORY;
  geo_builder_reset(b);
  const double t = g->t, r = m->p.radius;
  const double q1 = y[0], q2 = y[1];
  const double theta = y[4] * (t - (m->have_prev ? m->t_prev : 0.0));
  int c_part = geo_cell_array(b, "part", 1);
  int a_vel = geo_point_array(b, "velocity", 3);
  const double zero = 0.0, one = 1.0, two = 2.0;

  /* boundary in the lab frame */
  double dq = billiard_drive(m, t, NULL), xi = q1 - dq;
  double scale = fmax(r, 1e-3);
  double W = fabs(xi) + 10.0 * scale;
  for (int it = 0; it < 40; ++it) {
    double lo = billiard_curve_height(&m->curve, -W), hi = billiard_curve_height(&m->curve, W);
    if (fmin(lo, hi) >= q2 + 10.0 * scale || !isfinite(lo) || !isfinite(hi)) break;
    W *= 1.5;
  }
  int first = -1;
  for (int i = 0; i < NCURVE; ++i) {
    double s = -W + 2.0 * W * i / (NCURVE - 1);
    int p = geo_point(b, s + dq, billiard_curve_height(&m->curve, s), 0.0);
    if (i == 0) first = p;
  }
  for (int i = 0; i + 1 < NCURVE; ++i)
    geo_set_line(b, c_part, geo_line(b, first + i, first + i + 1), &zero);

  /* the ball */
  const double c[3] = {q1, q2, 0.0}, v[3] = {y[2], y[3], 0.0};
  int pc = geo_point(b, q1, q2, 0.0);
  geo_set_vert(b, c_part, geo_vert(b, pc), &one);
  geo_set_point(b, a_vel, pc, v);
  if (r > 0.0) {
    int l0 = geo_nlines(b);
    int rim = geo_circle(b, c, r, NULL, theta, NRIM);
    for (int k = l0; k < geo_nlines(b); ++k) geo_set_line(b, c_part, k, &one);
    geo_set_line(b, c_part, geo_line(b, pc, rim), &two); /* rim point 0 at angle theta */
  }
  return geo_builder_export(b, g);
}
