/* double_pendulum_wall.h - the example model kind of
 * examples/plugin/double_pendulum_wall.c, for a program that registers it
 * itself (examples/double_pendulum_wall_run.c); the plug-in needs no header. */
#ifndef DOUBLE_PENDULUM_WALL_H
#define DOUBLE_PENDULUM_WALL_H

#include <stddef.h>

#include "mbdae/geometry.h"
#include "mbdae/model.h"

/* The kind's table: name "double_pendulum_wall". */
extern const mbdae_model_kind double_pendulum_wall_kind;

/* Its VTK scene (mbdae_geometry_fn). */
int double_pendulum_wall_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);

/* Register the kind and its geometry: MBDAE_OK or a status < 0 (err says
 * why; may be NULL). */
int double_pendulum_wall_register(char *err, size_t errlen);

#endif
