/* registry.c - the tables of validation cases (one table per model family). */
#include <string.h>

#include "mbdae/validation.h"

/* VALIDATION-TABLE-DECLARATIONS (keep this marker) */
extern const mbdae_validation_case mbdae_validation_capture[];
extern const mbdae_validation_case mbdae_validation_capture_moreau[];
extern const mbdae_validation_case mbdae_validation_wheel[];
extern const mbdae_validation_case mbdae_validation_strings[];
extern const mbdae_validation_case mbdae_validation_ravine[];
extern const mbdae_validation_case mbdae_validation_rover[];
extern const mbdae_validation_case mbdae_validation_billiard[];
extern const mbdae_validation_case mbdae_validation_ball[];
extern const mbdae_validation_case mbdae_validation_pendulum[];
extern const mbdae_validation_case mbdae_validation_compliant[];
extern const mbdae_validation_case mbdae_validation_strings_elastic[];
extern const mbdae_validation_case mbdae_validation_tow[];
extern const mbdae_validation_case mbdae_validation_moreau[];

const mbdae_validation_case *const mbdae_validation_tables[] = {
  /* VALIDATION-TABLE-ENTRIES (keep this marker) */
  mbdae_validation_capture,
  mbdae_validation_capture_moreau,
  mbdae_validation_wheel,
  mbdae_validation_strings,
  mbdae_validation_ravine,
  mbdae_validation_rover,
  mbdae_validation_billiard,
  mbdae_validation_ball,
  mbdae_validation_pendulum,
  mbdae_validation_compliant,
  mbdae_validation_strings_elastic,
  mbdae_validation_tow,
  mbdae_validation_moreau,
  NULL
};

const mbdae_validation_case *mbdae_validation_find(const char *name) {
  if (!name) return NULL;
  for (int i = 0; mbdae_validation_tables[i]; ++i)
    for (const mbdae_validation_case *c = mbdae_validation_tables[i]; c->name; ++c)
      if (strcmp(c->name, name) == 0) return c;
  return NULL;
}
