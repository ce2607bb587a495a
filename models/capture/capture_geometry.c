/* capture_geometry.c - net points, strings and the body's faces as 3-D
 * geometry for animation (mbdae/geometry.h). */
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
  if (!m->geo_points) {
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
  g->npoints = np + nv;
  g->points = m->geo_points;
  g->nlines = m->ns;
  g->lines = m->geo_lines;
  g->npolys = b->nf;
  g->poly_start = m->geo_start;
  g->poly_index = m->geo_index;
  g->point_data = m->geo_data;
  g->point_data_name = "in_contact";
  return MBDAE_OK;
}
