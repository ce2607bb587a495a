/* capture_geometry.c - net points, strings and the body's faces as 3-D
 * geometry for animation (mbdae/geometry.h): the net points as vertex cells
 * (visible in ParaView's Surface mode) with point data in_contact, the
 * strings as lines, the faces as polygons; cell data part (0 net point,
 * 1 string, 2 body face) and taut (1: the string is held taut). */
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
#include "mbdae/geometry.h"
#include "mbdae/status.h"

int capture_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);

int capture_geometry(mbdae_model *model, const double *y, mbdae_geometry *g) {
  capture_model *m = (capture_model *)model;
  if (!m || !y || !g) return MBDAE_ERR_ARGUMENT;
  const mbdae_polytope *b = m->body;
  int np = m->np, nv = b->nv, nfv = b->face_start[b->nf];
  const int ncells = np + m->ns + b->nf;
  if (!m->geo_points) {
    m->geo_verts = malloc((size_t)(np > 0 ? np : 1) * sizeof(int));
    m->geo_part = malloc((size_t)ncells * sizeof(double));
    m->geo_taut = calloc((size_t)ncells, sizeof(double));
    if (!m->geo_verts || !m->geo_part || !m->geo_taut) return MBDAE_ERR_MEMORY;
    for (int j = 0; j < np; ++j) m->geo_verts[j] = j;
    for (int c = 0; c < ncells; ++c) m->geo_part[c] = c < np ? 0.0 : c < np + m->ns ? 1.0 : 2.0;
    m->geo_points = malloc((size_t)(np + nv) * 3 * sizeof(double));
    m->geo_lines = malloc((size_t)(m->ns > 0 ? m->ns : 1) * 2 * sizeof(int));
    m->geo_start = malloc((size_t)(b->nf + 1) * sizeof(int));
    m->geo_index = malloc((size_t)nfv * sizeof(int));
    m->geo_data = malloc((size_t)(np + nv) * sizeof(double));
    if (!m->geo_points || !m->geo_lines || !m->geo_start || !m->geo_index || !m->geo_data)
      return MBDAE_ERR_MEMORY;
    for (int k = 0; k < m->ns; ++k) {
      m->geo_lines[2 * k] = m->net->s[k].i;
      m->geo_lines[2 * k + 1] = m->net->s[k].j;
    }
    for (int q = 0; q <= b->nf; ++q) m->geo_start[q] = b->face_start[q];
    for (int i = 0; i < nfv; ++i) m->geo_index[i] = np + b->face_vert[i];
  }
  memcpy(m->geo_points, y, (size_t)np * 3 * sizeof(double));
  capture_body_vertices(m, y, &m->geo_points[3 * np]);
  for (int j = 0; j < np; ++j) m->geo_data[j] = m->active[m->ns + j];
  for (int i = 0; i < nv; ++i) m->geo_data[np + i] = 0.0;
  for (int k = 0; k < m->ns; ++k) m->geo_taut[np + k] = m->active[k] ? 1.0 : 0.0;
  g->npoints = np + nv;
  g->points = m->geo_points;
  g->nlines = m->ns;
  g->lines = m->geo_lines;
  g->npolys = b->nf;
  g->poly_start = m->geo_start;
  g->poly_index = m->geo_index;
  g->point_data = m->geo_data;
  g->point_data_name = "in_contact";
  g->nverts = np;
  g->verts = m->geo_verts;
  g->ncell_arrays = 2;
  g->cell_arrays[0] = (mbdae_geometry_array){"part", 1, m->geo_part};
  g->cell_arrays[1] = (mbdae_geometry_array){"taut", 1, m->geo_taut};
  return MBDAE_OK;
}
