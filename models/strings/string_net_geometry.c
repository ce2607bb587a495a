/* string_net_geometry.c - the string net as a VTK scene (mbdae/geometry.h):
 * every point a vertex, every string a line, in the model's frame (m).
 * Point data: mass (kg), velocity (m/s). Cell data (vertices, then lines):
 * tension T = -2 lambda |S| (N), phi_rel = phi / L^2 (capps eq. 2.7), taut
 * (1 while the string is held), part (0 point, 1 string); 0 on vertices
 * for the string quantities. */
#include "geometry_build.h"
#include "mbdae/status.h"
#include "strings/string_net_model.h"

int string_net_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);

int string_net_geometry(mbdae_model *model, const double *y, mbdae_geometry *g) {
  snm_model *m = (snm_model *)model;
  if (!m || !y || !g) return MBDAE_ERR_ARGUMENT;
  geo_builder *b = geo_builder_of(g);
  if (!b) return MBDAE_ERR_MEMORY;
  geo_builder_reset(b);
  sn_net *net = m->net;
  const double *R = y + net->off_r, *V = y + net->off_v;
  int ntaut;
  int rc = snm_tensions(m, g->t, y, m->tension, &ntaut); /* as the output rows */
  if (rc) return rc;
  int a_mass = geo_point_array(b, "mass", 1);
  int a_vel = geo_point_array(b, "velocity", 3);
  int c_T = geo_cell_array(b, "tension", 1);
  int c_phi = geo_cell_array(b, "phi_rel", 1);
  int c_taut = geo_cell_array(b, "taut", 1);
  int c_part = geo_cell_array(b, "part", 1);
  for (int k = 0; k < net->np; ++k) {
    int p = geo_point(b, R[3 * k], R[3 * k + 1], R[3 * k + 2]);
    geo_set_point(b, a_mass, p, &net->m[k]);
    geo_set_point(b, a_vel, p, &V[3 * k]);
    geo_vert(b, p);
  }
  const double one = 1.0;
  for (int s = 0; s < net->ns; ++s) {
    double L = net->s[s].L;
    double T = m->tension[s];
    double phi = sn_phi(net, s, R) / (L * L);
    double taut = m->event_capturing ? m->impulse_tension[s] > 0.0 : net->taut[s];
    int c = geo_line(b, net->s[s].i, net->s[s].j);
    geo_set_line(b, c_T, c, &T);
    geo_set_line(b, c_phi, c, &phi);
    geo_set_line(b, c_taut, c, &taut);
    geo_set_line(b, c_part, c, &one);
  }
  return geo_builder_export(b, g);
}
