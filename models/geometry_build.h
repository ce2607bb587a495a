/* geometry_build.h - a growing buffer from which geometry providers
 * assemble one frame of mbdae_geometry (points, vertex/line/polygon cells,
 * named point and cell arrays), plus the usual shapes (circle, sphere,
 * box). Model layer: no I/O. A provider keeps one builder as the frame's
 * work (mbdae_geometry.work, freed with geo_builder_free), calls
 * geo_builder_reset at every frame, appends, and ends with
 * geo_builder_export. Appends never fail on the spot: an allocation
 * failure is remembered and reported by geo_builder_export. */
#ifndef MBDAE_MODELS_GEOMETRY_BUILD_H
#define MBDAE_MODELS_GEOMETRY_BUILD_H

#include "mbdae/geometry.h"

typedef struct geo_builder geo_builder;

geo_builder *geo_builder_create(void);
/* Frees a builder (the signature of mbdae_geometry.work_free). */
void geo_builder_free(void *builder);
/* The builder kept in g->work, created on the first call; NULL when out of
 * memory. */
geo_builder *geo_builder_of(mbdae_geometry *g);
/* Empty the frame (capacity and array names are kept until re-declared). */
void geo_builder_reset(geo_builder *b);

/* Append; each returns the new element's index (-1 after a failure). */
int geo_point(geo_builder *b, double x, double y, double z);
int geo_vert(geo_builder *b, int p);
int geo_line(geo_builder *b, int p, int q);
int geo_poly(geo_builder *b, const int *p, int n);

/* Declare a point or cell array for this frame (after reset); returns its
 * id. Unset values are 0. name must outlive the frame (a literal). */
int geo_point_array(geo_builder *b, const char *name, int ncomp);
int geo_cell_array(geo_builder *b, const char *name, int ncomp);
/* Set the value (ncomp numbers) of array id at a point, or at a vertex,
 * line or polygon cell (indices as returned by the appends). */
void geo_set_point(geo_builder *b, int id, int p, const double *v);
void geo_set_vert(geo_builder *b, int id, int k, const double *v);
void geo_set_line(geo_builder *b, int id, int k, const double *v);
void geo_set_poly(geo_builder *b, int id, int k, const double *v);

/* Fill g from the builder (pointers into it). 0 or MBDAE_ERR_MEMORY. */
int geo_builder_export(geo_builder *b, mbdae_geometry *g);

/* Shapes. R (row-major 3x3, may be NULL = identity) maps the shape's own
 * axes to model axes: x = centre + R local. Each returns the index of its
 * first point; the cell ranges are [first cell before, count after). */
/* Circle of radius r in the local x-y plane, n segments (lines), starting
 * at angle a0 (so a turning angle turns the rim points too). */
int geo_circle(geo_builder *b, const double c[3], double r, const double *R,
               double a0, int n);
/* Sphere of radius r: nlat bands by nlon sectors, triangles at the poles
 * (local +-z) and quadrilaterals between (polygons). */
int geo_sphere(geo_builder *b, const double c[3], double r, const double *R,
               int nlat, int nlon);
/* Box with half-sides h[3] (6 quadrilaterals). */
int geo_box(geo_builder *b, const double c[3], const double h[3], const double *R);

/* Cell counts so far (for the ranges of the shapes). */
int geo_nlines(const geo_builder *b);
int geo_npolys(const geo_builder *b);
int geo_nverts(const geo_builder *b);

#endif
