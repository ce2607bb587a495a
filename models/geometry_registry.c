/* geometry_registry.c - model kinds that provide 3-D geometry for animation
 * (mbdae/geometry.h). One line per kind. */
#include <string.h>

#include "mbdae/geometry.h"

int capture_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);
int string_net_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);
int rover_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);
int ravine_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);
int billiard_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);
int wheel_scene_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);
int ball_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);
int pendulum_geometry(mbdae_model *model, const double *y, mbdae_geometry *g);

static const mbdae_geometry_provider providers[] = {
  {"net_capture", capture_geometry},
  {"string_net", string_net_geometry},
  {"rover", rover_geometry},
  {"ravine", ravine_geometry},
  {"billiard", billiard_geometry},
  {"wheel", wheel_scene_geometry},
  {"bouncing_ball", ball_geometry},
  {"pendulum", pendulum_geometry},
  {NULL, NULL}};

const mbdae_geometry_provider *mbdae_geometry_find(const char *kind) {
  if (!kind) return NULL;
  for (const mbdae_geometry_provider *p = providers; p->kind; ++p)
    if (!strcmp(p->kind, kind)) return p;
  return NULL;
}
