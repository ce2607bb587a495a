/* progress.h - a one-line progress bar on stderr, fed by the engine's
 * progress callback (mbdae_options.progress). */
#ifndef MBDAE_DRIVER_PROGRESS_H
#define MBDAE_DRIVER_PROGRESS_H

#include <stdio.h>

typedef struct mbdae_progress_bar {
  FILE *f;
  int last;   /* last drawn per-mille, -1 before the first draw */
} mbdae_progress_bar;

/* Whether a bar is wanted: stderr is a terminal, not quiet, env CI unset. */
int mbdae_progress_wanted(int quiet);

void mbdae_progress_bar_init(mbdae_progress_bar *b, FILE *f);
/* An mbdae_progress_fn: user_data is the bar. Redraws at most 1000 times. */
void mbdae_progress_bar_update(double t, double fraction, void *user_data);
/* Clear the line after the run. */
void mbdae_progress_bar_end(mbdae_progress_bar *b);

#endif
