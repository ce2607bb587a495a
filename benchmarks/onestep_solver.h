/* onestep_solver.h - solver/nonsmooth.c's solver for a one-step problem read
 * by onestep_io.h (the benchmarks that replay saved steps). */
#ifndef MBDAE_ONESTEP_SOLVER_H
#define MBDAE_ONESTEP_SOLVER_H

#include <stdio.h>
#include <stdlib.h>

#include "nonsmooth.h"
#include "onestep_io.h"

/* ns_create on s's patterns; NULL with msg filled ("out of memory" if
 * ns_create was not reached). */
static inline ns_solver *onestep_solver(const onestep *s, char *msg, size_t msglen) {
  mbdae_index *wp = malloc(((size_t)s->nv + 1) * sizeof *wp);
  mbdae_index *wi = malloc(((size_t)s->w_nnz + 1) * sizeof *wi);
  mbdae_index *gp = malloc(((size_t)s->nc + 1) * sizeof *gp);
  mbdae_index *gi = malloc(((size_t)s->g_nnz + 1) * sizeof *gi);
  ns_solver *ns = NULL;
  if (wp && wi && gp && gi) {
    for (int j = 0; j <= s->nv; ++j) wp[j] = (mbdae_index)s->wp[j];
    for (long k = 0; k < s->w_nnz; ++k) wi[k] = (mbdae_index)s->wi[k];
    for (int i = 0; i <= s->nc; ++i) gp[i] = (mbdae_index)s->gp[i];
    for (long k = 0; k < s->g_nnz; ++k) gi[k] = (mbdae_index)s->gi[k];
    ns = ns_create(s->nv, wp, wi, s->nc, s->nu, gp, gi, msg, msglen);
  } else if (msglen > 0) {
    snprintf(msg, msglen, "out of memory");
  }
  free(wp), free(wi), free(gp), free(gi);
  return ns;
}

#endif
