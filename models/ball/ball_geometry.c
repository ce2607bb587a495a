/* ball_geometry.c - the bouncing ball as a VTK scene (mbdae/geometry.h):
 * the plane q = 0 as a 1 m line along x (y = 0) and the ball, a point mass
 * at height q (m), as a vertex at (0, q, 0). Point data: velocity (0, v, 0)
 * (m/s). Cell data: part (0 plane, 1 ball). */
#include "ball/ball.h"
#include "geometry_build.h"
#include "mbdae/status.h"

int ball_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);

int ball_geometry(mbdae_model *model, const double *y, mbdae_geometry *g) {
  if (!model || !y || !g) return MBDAE_ERR_ARGUMENT;
  geo_builder *b = geo_builder_of(g);
  if (!b) return MBDAE_ERR_MEMORY;
  geo_builder_reset(b);
  int c_part = geo_cell_array(b, "part", 1);
  int a_vel = geo_point_array(b, "velocity", 3);
  const double zero = 0.0, one = 1.0, v[3] = {0.0, y[BALL_V], 0.0};
  geo_set_line(b, c_part, geo_line(b, geo_point(b, -0.5, 0.0, 0.0), geo_point(b, 0.5, 0.0, 0.0)),
               &zero);
  int p = geo_point(b, 0.0, y[BALL_Q], 0.0);
  geo_set_point(b, a_vel, p, v);
  geo_set_vert(b, c_part, geo_vert(b, p), &one);
  return geo_builder_export(b, g);
}
