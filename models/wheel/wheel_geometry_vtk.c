/* wheel_geometry_vtk.c - the wheel at the curb as a VTK scene
 * (mbdae/geometry.h), the frame of doc/wheel.md (m: x right, y up, plane
 * z = 0). Obstacles (eqs. 3-5): the wall x = 0, the curb block
 * 0 <= x <= l1 = l - r, y <= h (its outline and a filled quadrilateral) and
 * the ground y = 0 for x > l1, drawn out past the wheel. The wheel: centre
 * S = (x, y) (a vertex), rim (a 48-segment circle of radius r whose points
 * turn with phi) and a spoke from S to S + r (cos phi, sin phi). Point
 * data: velocity (of S, at the centre point; 0 elsewhere). Cell data:
 * part (0 obstacles, 1 rim and centre, 2 spoke). */
#include <math.h>

#include "geometry_build.h"
#include "mbdae/status.h"
#include "wheel/wheel.h"

int wheel_scene_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);

int wheel_scene_geometry(mbdae_model *model, const double *y, mbdae_geometry *g) {
  wheel_model *w = (wheel_model *)model;
  if (!w || !y || !g) return MBDAE_ERR_ARGUMENT;
  geo_builder *b = geo_builder_of(g);
  if (!b) return MBDAE_ERR_MEMORY;
  geo_builder_reset(b);
  const wheel_params *p = &w->p;
  const double r = p->r, h = p->h, l1 = w->l1;
  const double x = y[WHEEL_X], yy = y[WHEEL_Y], phi = y[WHEEL_PHI];
  int c_part = geo_cell_array(b, "part", 1);
  int a_vel = geo_point_array(b, "velocity", 3);
  const double zero = 0.0, one = 1.0, two = 2.0;

  /* obstacles */
  double top = fmax(h + 3.0 * r, yy + 2.0 * r), right = fmax(p->l + 4.0 * r, x + 3.0 * r);
  int o = geo_point(b, 0.0, 0.0, 0.0);
  int wt = geo_point(b, 0.0, top, 0.0);
  int ch = geo_point(b, 0.0, h, 0.0);
  int cc = geo_point(b, l1, h, 0.0);   /* the curb's corner C */
  int cb = geo_point(b, l1, 0.0, 0.0);
  int ge = geo_point(b, right, 0.0, 0.0);
  geo_set_line(b, c_part, geo_line(b, o, wt), &zero);  /* wall */
  geo_set_line(b, c_part, geo_line(b, ch, cc), &zero); /* curb top (II) */
  geo_set_line(b, c_part, geo_line(b, cc, cb), &zero); /* curb face */
  geo_set_line(b, c_part, geo_line(b, cb, ge), &zero); /* ground (IV) */
  int q[4] = {o, cb, cc, ch};
  geo_set_poly(b, c_part, geo_poly(b, q, 4), &zero);

  /* the wheel */
  const double c[3] = {x, yy, 0.0}, v[3] = {y[WHEEL_VX], y[WHEEL_VY], 0.0};
  int pc = geo_point(b, x, yy, 0.0);
  geo_set_point(b, a_vel, pc, v);
  geo_set_vert(b, c_part, geo_vert(b, pc), &one);
  int l0 = geo_nlines(b);
  int rim = geo_circle(b, c, r, NULL, phi, 48);
  for (int k = l0; k < geo_nlines(b); ++k) geo_set_line(b, c_part, k, &one);
  geo_set_line(b, c_part, geo_line(b, pc, rim), &two); /* rim point 0 at angle phi */
  return geo_builder_export(b, g);
}
