/* registry.c - the table of model kinds known to the driver. */
#include <string.h>

#include "mbdae/model.h"

/* One line per model kind (each defined in its own models/<name>/ file). */
/* MODEL-KIND-DECLARATIONS (keep this marker) */
extern const mbdae_model_kind mbdae_model_net_capture;
extern const mbdae_model_kind mbdae_model_wheel;
extern const mbdae_model_kind mbdae_model_string_net;
extern const mbdae_model_kind mbdae_model_rover;
extern const mbdae_model_kind mbdae_model_ravine;
extern const mbdae_model_kind mbdae_model_billiard;
extern const mbdae_model_kind mbdae_model_bouncing_ball;
extern const mbdae_model_kind mbdae_model_pendulum;

const mbdae_model_kind *const mbdae_model_kinds[] = {
  /* MODEL-KIND-ENTRIES (keep this marker) */
  &mbdae_model_net_capture,
  &mbdae_model_wheel,
  &mbdae_model_string_net,
  &mbdae_model_rover,
  &mbdae_model_ravine,
  &mbdae_model_billiard,
  &mbdae_model_bouncing_ball,
  &mbdae_model_pendulum,
  NULL
};

const mbdae_model_kind *mbdae_model_kind_find(const char *name) {
  if (!name) return NULL;
  for (int i = 0; mbdae_model_kinds[i]; ++i)
    if (strcmp(mbdae_model_kinds[i]->name, name) == 0) return mbdae_model_kinds[i];
  return NULL;
}
