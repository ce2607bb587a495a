/* mbdae/geometry.h - optional 3-D geometry of a model instance for animation
 * writers (the driver's VTK time series). A model kind that has geometry
 * registers a provider in models/geometry_registry.c; kinds without one
 * are simply not animated. The arrays belong to the model and stay valid
 * until its next geometry call. */
#ifndef MBDAE_GEOMETRY_H
#define MBDAE_GEOMETRY_H

#include "mbdae/model.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mbdae_geometry {
  int npoints;
  const double *points;     /* npoints x 3 */
  int nlines;
  const int *lines;         /* nlines x 2 point indices (segments) */
  int npolys;
  const int *poly_start;    /* npolys + 1 offsets into poly_index */
  const int *poly_index;    /* point indices of each polygon */
  const double *point_data; /* npoints values (e.g. "in contact"), may be NULL */
  const char *point_data_name;
} mbdae_geometry;

typedef int (*mbdae_geometry_fn)(mbdae_model *model, const double *y,
                                 mbdae_geometry *g);

typedef struct mbdae_geometry_provider {
  const char *kind;         /* model kind name */
  mbdae_geometry_fn fn;
} mbdae_geometry_provider;

/* The provider of a model kind, or NULL. */
const mbdae_geometry_provider *mbdae_geometry_find(const char *kind);

#ifdef __cplusplus
}
#endif
#endif
