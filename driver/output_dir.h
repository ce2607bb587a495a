/* output_dir.h - create a run's output directory (with its parents). */
#ifndef MBDAE_DRIVER_OUTPUT_DIR_H
#define MBDAE_DRIVER_OUTPUT_DIR_H

#include <stddef.h>

/* mkdir -p: 0, or MBDAE_ERR_IO with "cannot create DIR: reason" in err. */
int mbdae_mkdir_p(const char *dir, char *err, size_t errlen);

/* Put a finished temporary file in place, so that a reader never sees a
 * half-written one: rename tmp to fin when ok, else (or when the rename
 * fails) remove tmp and put "cannot write FIN" in err. Frees tmp and fin.
 * 0 or MBDAE_ERR_IO. */
int mbdae_commit_file(char *tmp, char *fin, int ok, char *err, size_t errlen);

#endif
