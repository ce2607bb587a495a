/* output_dir.h - create a run's output directory (with its parents). */
#ifndef MBDAE_DRIVER_OUTPUT_DIR_H
#define MBDAE_DRIVER_OUTPUT_DIR_H

#include <stddef.h>

/* mkdir -p: 0, or MBDAE_ERR_IO with "cannot create DIR: reason" in err. */
int mbdae_mkdir_p(const char *dir, char *err, size_t errlen);

#endif
