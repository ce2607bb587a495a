/** @file mbdae/geometry.h
 * @brief Optional 3-D geometry of a model instance for animation writers
 * (the driver's VTK time series). A built-in model kind that has geometry
 * has a provider in models/geometry_registry.c, a kind registered at run
 * time adds one with mbdae_geometry_register(); kinds without one
 * are simply not animated. The arrays belong to the model (or to the
 * provider's work, below) and stay valid until its next geometry call.
 * Coordinates are the model's own (SI units, its documented frame); planar
 * models draw in the plane z = 0. doc/paraview.md lists every scene. */
#ifndef MBDAE_GEOMETRY_H
#define MBDAE_GEOMETRY_H

#include "mbdae/export.h"

#include "mbdae/model.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A named data array over the points or over the cells of a frame (VTK
 * PointData / CellData), ncomp values per point or cell. */
typedef struct mbdae_geometry_array {
  const char *name;         /**< array name */
  int ncomp;                /**< 1 (scalar) or 3 (vector) */
  const double *values;     /**< n x ncomp */
} mbdae_geometry_array;

/** Capacity of mbdae_geometry::point_arrays and mbdae_geometry::cell_arrays. */
#define MBDAE_GEOMETRY_MAX_ARRAYS 8

/** One frame of a model's scene: points, line segments, polygons, data. */
typedef struct mbdae_geometry {
  int npoints;              /**< number of points */
  const double *points;     /**< npoints x 3 */
  int nlines;               /**< number of line segments */
  const int *lines;         /**< nlines x 2 point indices (segments) */
  int npolys;               /**< number of polygons */
  const int *poly_start;    /**< npolys + 1 offsets into poly_index */
  const int *poly_index;    /**< point indices of each polygon */
  const double *point_data; /**< npoints values (e.g. "in contact"), may be NULL */
  const char *point_data_name; /**< its name */
  /* --- optional additions (zero/NULL when unused; a provider that does
   * not know them leaves them as the caller cleared them) --- */
  double t;                 /**< in: time of the state y (set by the caller) */
  int nverts;               /**< number of vertex cells */
  const int *verts;         /**< nverts point indices, one vertex cell each */
  int npoint_arrays;        /**< more point arrays, npoints x ncomp each */
  mbdae_geometry_array point_arrays[MBDAE_GEOMETRY_MAX_ARRAYS]; /**< the point arrays */
  /** Cell arrays: one value (x ncomp) per cell in VTK's cell order: the
   * nverts vertices, then the nlines lines, then the npolys polygons. */
  int ncell_arrays;
  mbdae_geometry_array cell_arrays[MBDAE_GEOMETRY_MAX_ARRAYS]; /**< the cell arrays */
  /** Provider scratch kept by the caller between the calls of one run (the
   * VTK writer across frames): a provider that needs buffers allocates them
   * when work is NULL, stores them here with work_free, and the caller
   * calls work_free(work) once at the end. */
  void *work;
  void (*work_free)(void *work); /**< frees work (set by the provider) */
} mbdae_geometry;

/** Fill g with the scene of model in state y: 0 ok, < 0 failure. */
typedef int (*mbdae_geometry_fn)(mbdae_model *model, const double *y,
                                 mbdae_geometry *g);

/** The geometry provider of one model kind. */
typedef struct mbdae_geometry_provider {
  const char *kind;         /**< model kind name */
  mbdae_geometry_fn fn;     /**< fills a frame */
} mbdae_geometry_provider;

/** @brief The geometry provider of a model kind.
 * @param kind the model kind name
 * @return the provider, or NULL when the kind has none (not animated) */
MBDAE_EXPORT const mbdae_geometry_provider *mbdae_geometry_find(const char *kind);

/** @brief Give a registered model kind its geometry, so runs of it write VTK
 *         frames (doc/paraview.md) like the built-in kinds.
 * @param kind the kind's name (registered with mbdae_model_kind_register)
 * @param fn   fills a frame
 * @return MBDAE_OK (also for the same fn again), MBDAE_ERR_NOT_FOUND (no
 *         kind of that name), MBDAE_ERR_ARGUMENT (fn NULL, the kind has
 *         another provider, or the registry is full) */
MBDAE_EXPORT int mbdae_geometry_register(const char *kind, mbdae_geometry_fn fn);

#ifdef __cplusplus
}
#endif
#endif
