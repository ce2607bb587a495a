/* gnuplot_run.h - find gnuplot in PATH and run a script with it (the
 * model's plots, the scene animation). gnuplot is found at run time: its
 * absence is a note, never a failure of the run. */
#ifndef MBDAE_DRIVER_GNUPLOT_RUN_H
#define MBDAE_DRIVER_GNUPLOT_RUN_H

#include <stddef.h>

/* The first executable "gnuplot" in PATH, into buf; 0 if found. */
int mbdae_gnuplot_find(char *buf, size_t len);

/* Run `gnuplot SCRIPT` in dir, stdin /dev/null, stdout and stderr to LOG
 * there. gnuplot's exit status, or -1 if it could not be run. */
int mbdae_gnuplot_run(const char *gnuplot, const char *dir, const char *script, const char *log);

#endif
