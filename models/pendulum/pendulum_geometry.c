/* pendulum_geometry.c - the Cartesian pendulum as a VTK scene
 * (mbdae/geometry.h), its own frame (m: pivot at the origin, y up, plane
 * z = 0): the pivot and the bob as vertices, the rod as a line. Point data:
 * velocity (m/s; 0 at the pivot). Cell data: part (0 pivot, 1 bob, 2 rod),
 * tension lambda L of the rod (N; 0 on the vertices). */
#include "geometry_build.h"
#include "mbdae/status.h"
#include "pendulum/pendulum.h"

int pendulum_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);

int pendulum_geometry(mbdae_model *model, const double *y, mbdae_geometry *g) {
  const pendulum_model *m = (const pendulum_model *)model;
  if (!m || !y || !g) return MBDAE_ERR_ARGUMENT;
  geo_builder *b = geo_builder_of(g);
  if (!b) return MBDAE_ERR_MEMORY;
  geo_builder_reset(b);
  int c_part = geo_cell_array(b, "part", 1);
  int c_T = geo_cell_array(b, "tension", 1);
  int a_vel = geo_point_array(b, "velocity", 3);
  const double zero = 0.0, one = 1.0, two = 2.0;
  const double v[3] = {y[PEND_VX], y[PEND_VY], 0.0};
  const double T = pendulum_lambda(m, y) * m->p.length;
  int pivot = geo_point(b, 0.0, 0.0, 0.0);
  int bob = geo_point(b, y[PEND_X], y[PEND_Y], 0.0);
  geo_set_point(b, a_vel, bob, v);
  geo_set_vert(b, c_part, geo_vert(b, pivot), &zero);
  geo_set_vert(b, c_part, geo_vert(b, bob), &one);
  int rod = geo_line(b, pivot, bob);
  geo_set_line(b, c_part, rod, &two);
  geo_set_line(b, c_T, rod, &T);
  return geo_builder_export(b, g);
}
