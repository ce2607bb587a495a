/* bench_timing.h - the benchmark programs' CPU clock and sort order. */
#ifndef MBDAE_BENCH_TIMING_H
#define MBDAE_BENCH_TIMING_H

#include <time.h>

/* CPU seconds of this process (all its threads). */
static inline double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* qsort order of doubles, ascending. */
static inline int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#endif
