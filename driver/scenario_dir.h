/* scenario_dir.h - the shipped scenarios' directory (mbdae_scenario_dir in
 * mbdae/simulation.h) and bare scenario names resolved there. */
#ifndef MBDAE_DRIVER_SCENARIO_DIR_H
#define MBDAE_DRIVER_SCENARIO_DIR_H

#include <stddef.h>

/* path itself when it has a '/' or exists here; else DIR/path or
 * DIR/path.yaml in the shipped scenarios' directory when one is a file
 * (written to buf); else path (the loader then reports it missing). */
const char *mbdae_scenario_resolve(const char *path, char *buf, size_t len);

#endif
