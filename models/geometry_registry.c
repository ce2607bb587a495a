/* geometry_registry.c - model kinds that provide 3-D geometry for animation
 * (mbdae/geometry.h). One line per built-in kind; kinds registered at run
 * time add theirs with mbdae_geometry_register. */
#include <string.h>

#include "mbdae/geometry.h"
#include "mbdae/status.h"

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

static mbdae_geometry_provider registered[MBDAE_MODEL_KINDS_MAX_REGISTERED];
static int nregistered;

const mbdae_geometry_provider *mbdae_geometry_find(const char *kind) {
  if (!kind) return NULL;
  for (const mbdae_geometry_provider *p = providers; p->kind; ++p)
    if (!strcmp(p->kind, kind)) return p;
  for (int i = 0; i < nregistered; ++i)
    if (!strcmp(registered[i].kind, kind)) return &registered[i];
  return NULL;
}

int mbdae_geometry_register(const char *kind, mbdae_geometry_fn fn) {
  const mbdae_model_kind *k = mbdae_model_kind_find(kind);
  if (!fn) return MBDAE_ERR_ARGUMENT;
  if (!k) return MBDAE_ERR_NOT_FOUND;
  const mbdae_geometry_provider *p = mbdae_geometry_find(kind);
  if (p) return p->fn == fn ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
  if (nregistered == MBDAE_MODEL_KINDS_MAX_REGISTERED) return MBDAE_ERR_ARGUMENT;
  registered[nregistered].kind = k->name; /* the kind's table outlives us */
  registered[nregistered].fn = fn;
  ++nregistered;
  return MBDAE_OK;
}
