/* ravine_geometry.c - the sphere and the terrain as a VTK scene
 * (mbdae/geometry.h), frame n of doc/ravine.md (m: x right, y up, z out of
 * the page). The sphere (radius b) is a triangulated mesh about the centre
 * c = (x, y, z) of the state; its attitude is not a state of the model, so
 * the mesh does not turn (the spin is in series.csv). The terrain is its
 * profile (a polyline in the plane z = c_z, end rays drawn 5 b or more so
 * they reach past the sphere) and the same profile extruded along z as a
 * band of quadrilaterals. Cell data: part (0 terrain, 1 sphere). */
#include <math.h>

#include "geometry_build.h"
#include "mbdae/status.h"
#include "ravine/ravine.h"

int ravine_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);

int ravine_geometry(mbdae_model *model, const double *y, mbdae_geometry *g) {
  const ravine_terrain *T = ravine_model_terrain(model);
  const ravine_sphere *sp = ravine_model_sphere(model);
  if (!T || !sp || !y || !g) return MBDAE_ERR_ARGUMENT;
  geo_builder *b = geo_builder_of(g);
  if (!b) return MBDAE_ERR_MEMORY;
  geo_builder_reset(b);
  const double r = sp->b;
  const double reach = r > 0.0 ? r : 1.0; /* drawing scale */
  int c_part = geo_cell_array(b, "part", 1);
  const double zero = 0.0, one = 1.0;

  /* profile: the rays' far ends, then the vertices */
  int nv = T->nv, last = T->nseg - 1;
  double e0 = 5.0 * reach, e1 = 5.0 * reach;
  if (T->tx[0] > 0.0) e0 = fmax(e0, (T->vx[0] - (y[0] - 3.0 * reach)) / T->tx[0]);
  if (T->tx[last] > 0.0) e1 = fmax(e1, ((y[0] + 3.0 * reach) - T->vx[nv - 1]) / T->tx[last]);
  int n = nv + 2;
  double w = fmax(2.0 * reach, fabs(y[2]) + 2.0 * reach);
  int first = -1;
  for (int i = 0; i < n; ++i) {
    double px, py;
    if (i == 0) {
      px = T->vx[0] - e0 * T->tx[0];
      py = T->vy[0] - e0 * T->ty[0];
    } else if (i == n - 1) {
      px = T->vx[nv - 1] + e1 * T->tx[last];
      py = T->vy[nv - 1] + e1 * T->ty[last];
    } else {
      px = T->vx[i - 1];
      py = T->vy[i - 1];
    }
    int p = geo_point(b, px, py, y[2]);   /* profile: first + 3 i */
    geo_point(b, px, py, -w);             /* band: first + 3 i + 1, + 2 */
    geo_point(b, px, py, w);
    if (i == 0) first = p;
  }
  for (int i = 0; i + 1 < n; ++i) {
    int a = first + 3 * i, c = first + 3 * (i + 1);
    geo_set_line(b, c_part, geo_line(b, a, c), &zero);
    int q[4] = {a + 1, c + 1, c + 2, a + 2};
    geo_set_poly(b, c_part, geo_poly(b, q, 4), &zero);
  }

  /* the sphere */
  int p0 = geo_npolys(b);
  geo_sphere(b, y, r, NULL, 8, 16);
  for (int k = p0; k < geo_npolys(b); ++k) geo_set_poly(b, c_part, k, &one);
  return geo_builder_export(b, g);
}
