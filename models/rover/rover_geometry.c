/* rover_geometry.c - the tumbleweed rover as a VTK scene (mbdae/geometry.h),
 * inertial frame i (m, z up, ground z = 0): the sphere (radius r) as a
 * triangulated mesh turned with the sphere's attitude C_si^T, so its
 * rolling shows; its equator and prime meridian as line loops; the payload
 * pendulum as a rod from the centre to the cube centre C_pi^T (0, 0, -l) and
 * the cube (side h, turned with C_pi^T); a ground grid of spacing r under
 * the rover (lines at whole multiples of r, fixed while the rover moves).
 * Cell data: part (0 ground, 1 sphere, 2 rod, 3 cube). */
#include <math.h>

#include "geometry_build.h"
#include "mbdae/status.h"
#include "rover/rover.h"

int rover_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);

static void part(geo_builder *b, int id, int l0, int p0, double v) {
  for (int k = l0; k < geo_nlines(b); ++k) geo_set_line(b, id, k, &v);
  for (int k = p0; k < geo_npolys(b); ++k) geo_set_poly(b, id, k, &v);
}

int rover_geometry(mbdae_model *model, const double *y, mbdae_geometry *g) {
  rover_model *m = (rover_model *)model;
  if (!m || !y || !g) return MBDAE_ERR_ARGUMENT;
  geo_builder *b = geo_builder_of(g);
  if (!b) return MBDAE_ERR_MEMORY;
  geo_builder_reset(b);
  const rover_params *p = &m->p;
  rover_state s;
  if (m->form == MBDAE_FORM_DAE) rover_state_from_dae(y, NULL, &s);
  else rover_state_from_ode(p, y, &s);
  double Rs[9], Rp[9]; /* body components -> inertial (C^T) */
  rover_mat_t(s.C_si, Rs);
  rover_mat_t(s.C_pi, Rp);
  const double r = p->r;
  int c_part = geo_cell_array(b, "part", 1);

  /* ground grid: lines at multiples of r within 4 r of the contact point */
  int l0 = geo_nlines(b), p0 = geo_npolys(b);
  const int half = 4;
  double x0 = r * floor(s.pos[0] / r), y0 = r * floor(s.pos[1] / r);
  for (int i = -half; i <= half + 1; ++i) {
    double x = x0 + i * r, yy = y0 + i * r;
    geo_line(b, geo_point(b, x, y0 - half * r, 0.0), geo_point(b, x, y0 + (half + 1) * r, 0.0));
    geo_line(b, geo_point(b, x0 - half * r, yy, 0.0), geo_point(b, x0 + (half + 1) * r, yy, 0.0));
  }
  part(b, c_part, l0, p0, 0.0);

  /* sphere: mesh, the s1-s2 great circle and the s1-s3 one */
  l0 = geo_nlines(b);
  p0 = geo_npolys(b);
  geo_sphere(b, s.pos, r, Rs, 8, 16);
  geo_circle(b, s.pos, r, Rs, 0.0, 48);
  double Rm[9]; /* meridian: the local x-z plane of the sphere frame */
  const double swap[9] = {1, 0, 0, 0, 0, 1, 0, -1, 0};
  rover_matmul(Rs, swap, Rm);
  geo_circle(b, s.pos, r, Rm, 0.0, 48);
  part(b, c_part, l0, p0, 1.0);

  /* pendulum: rod and cube (p-frame: c_p = -c z, cube centre at -l z) */
  const double down[3] = {0.0, 0.0, -p->l};
  double d[3], cc[3];
  rover_matvec(Rp, down, d);
  for (int i = 0; i < 3; ++i) cc[i] = s.pos[i] + d[i];
  l0 = geo_nlines(b);
  p0 = geo_npolys(b);
  geo_line(b, geo_point(b, s.pos[0], s.pos[1], s.pos[2]), geo_point(b, cc[0], cc[1], cc[2]));
  part(b, c_part, l0, p0, 2.0);
  l0 = geo_nlines(b);
  p0 = geo_npolys(b);
  const double hh[3] = {0.5 * p->h, 0.5 * p->h, 0.5 * p->h};
  geo_box(b, cc, hh, Rp);
  part(b, c_part, l0, p0, 3.0);
  return geo_builder_export(b, g);
}
