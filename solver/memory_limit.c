/* memory_limit.c - how much memory this process may allocate: the smaller
 * of the machine's physical memory and the address-space / data-segment
 * limits. Sizes taken from input (a dense Jacobian of n unknowns, a net of
 * N points) are checked against it before anything is allocated, so a
 * large value fails with a message naming it instead of paging the machine
 * to death or being killed by the OOM killer. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mbdae/engine.h"

double mbdae_memory_available(void) {
  double avail = HUGE_VAL;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0) avail = (double)pages * (double)page;
  static const int limits[] = {RLIMIT_AS, RLIMIT_DATA};
  for (unsigned i = 0; i < sizeof limits / sizeof limits[0]; ++i) {
    struct rlimit rl;
    if (getrlimit(limits[i], &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (double)rl.rlim_cur < avail)
      avail = (double)rl.rlim_cur;
  }
  return avail;
}
