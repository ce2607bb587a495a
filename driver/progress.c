/* progress.c - "[#####.....]  50.0 %  t = 0.5" on one terminal line. */
#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

int mbdae_progress_wanted(int quiet) {
  const char *ci = getenv("CI");
  return !quiet && !(ci && *ci) && isatty(STDERR_FILENO);
}

void mbdae_progress_bar_init(mbdae_progress_bar *b, FILE *f) {
  b->f = f;
  b->last = -1;
}

void mbdae_progress_bar_update(double t, double fraction, void *user_data) {
  mbdae_progress_bar *b = user_data;
  if (!b || !b->f) return;
  if (!(fraction >= 0)) fraction = 0; /* also NaN */
  if (fraction > 1) fraction = 1;
  int pm = (int)floor(fraction * 1000.0);
  if (pm == b->last) return;
  b->last = pm;
  char bar[41];
  int fill = pm * 40 / 1000;
  for (int i = 0; i < 40; ++i) bar[i] = i < fill ? '#' : '.';
  bar[40] = '\0';
  fprintf(b->f, "\r[%s] %5.1f %%  t = %-12.6g", bar, pm / 10.0, t);
  fflush(b->f);
}

void mbdae_progress_bar_end(mbdae_progress_bar *b) {
  if (b && b->f && b->last >= 0) {
    fprintf(b->f, "\r%76s\r", "");
    fflush(b->f);
  }
}
