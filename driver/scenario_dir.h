/* scenario_dir.h - the shipped scenarios' directory (mbdae_scenario_dir in
 * mbdae/simulation.h) and bare scenario names resolved there. */
#ifndef MBDAE_DRIVER_SCENARIO_DIR_H
#define MBDAE_DRIVER_SCENARIO_DIR_H

#include <stddef.h>

/* path itself when it has a '/' or exists here; else DIR/path or
 * DIR/path.yaml in the shipped scenarios' directory when one is a file
 * (written to buf); else path (the loader then reports it missing). */
const char *mbdae_scenario_resolve(const char *path, char *buf, size_t len);

/* The same for a study file, in the shipped scenarios' studies/. */
const char *mbdae_study_resolve(const char *path, char *buf, size_t len);

/* When path (as resolve returned it) is a bare name that is nowhere: writes
 * "NAME: cannot open: no such file here, nor among the shipped WHAT in DIR"
 * ("scenarios" or "studies") to err and returns 1; else 0. */
int mbdae_scenario_name_missing(const char *path, const char *what, char *err, size_t errlen);

#endif
