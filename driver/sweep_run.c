/* sweep_run.c - run the runs of a study: round-robin over ranks (the
 * caller's gather brings them together: MPI in `mbdae sweep`), every
 * failure recorded, records in run order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "run.h"
#include "sweep.h"

void mbdae_sweep_run_one(const mbdae_sweep_study *st, mbdae_scenario *work, long i,
                         mbdae_sweep_record *rec) {
  int idx[MBDAE_SWEEP_MAX_KEYS];
  char text[MBDAE_SWEEP_MAX_KEYS][192];
  const char *ov[MBDAE_SWEEP_MAX_KEYS];
  mbdae_sweep_run_indices(st, i, idx);
  for (int a = 0; a < st->naxes; ++a) {
    snprintf(text[a], sizeof text[a], "%s=%.17g", st->axes[a].key,
             st->axes[a].values[idx[a]]);
    ov[a] = text[a];
  }
  for (int k = 0; k < MBDAE_SWEEP_MAX_OUTCOMES; ++k) rec->v[k] = NAN;
  char err[512];
  int rc = mbdae_scenario_override(work, ov, st->naxes, err, sizeof err);
  if (rc) {
    rec->status = rc;
    return;
  }
  mbdae_run_config cfg;
  mbdae_run_config_default(&cfg, work);
  cfg.out_dir = NULL;
  cfg.plots = 0;
  cfg.progress = 0;
  cfg.notes = NULL;
  mbdae_run_result *res = malloc(sizeof *res);
  if (!res) {
    rec->status = MBDAE_ERR_MEMORY;
    return;
  }
  rc = mbdae_scenario_run(work, &cfg, res, err, sizeof err);
  rec->status = rc == MBDAE_ERR_SCENARIO ? MBDAE_ERR_SCENARIO : res->status;
  /* outcomes of a run that failed midway describe a partial run: not kept */
  if (rec->status >= 0)
    for (int k = 0; k < st->noutcomes; ++k)
      for (int j = 0; j < res->noutcomes; ++j)
        if (!strcmp(res->outcomes[j].name, st->outcomes[k].name))
          rec->v[k] = res->outcomes[j].value;
  free(res);
}

int mbdae_sweep_execute(const mbdae_sweep_study *st, mbdae_scenario *work, int rank,
                        int nranks, mbdae_sweep_record *recs, mbdae_sweep_gather_fn gather,
                        void *gather_data) {
  const int width = 2 + MBDAE_SWEEP_MAX_OUTCOMES; /* index, status, values */
  long mine = st->nruns > rank ? (st->nruns - rank + nranks - 1) / nranks : 0;
  double *buf = malloc((size_t)(mine > 0 ? mine : 1) * (size_t)width * sizeof(double));
  if (!buf) return MBDAE_ERR_MEMORY;
  long n = 0;
  for (long i = rank; i < st->nruns; i += nranks, ++n) {
    mbdae_sweep_record r;
    mbdae_sweep_run_one(st, work, i, &r);
    double *b = buf + n * width;
    b[0] = (double)i;
    b[1] = (double)r.status;
    for (int k = 0; k < MBDAE_SWEEP_MAX_OUTCOMES; ++k) b[2 + k] = r.v[k];
  }
  int rc = MBDAE_OK;
  if (gather) { /* the records of every rank, in rank order, to rank 0 */
    double *all = NULL;
    rc = gather(buf, n, width, &all, st->nruns, gather_data);
    if (rc == MBDAE_OK && all)
      for (long j = 0; j < st->nruns; ++j) {
        const double *b = all + j * width;
        long i = (long)b[0];
        recs[i].status = (int)b[1];
        for (int k = 0; k < MBDAE_SWEEP_MAX_OUTCOMES; ++k) recs[i].v[k] = b[2 + k];
      }
    free(all);
    free(buf);
    return rc;
  }
  for (long j = 0; j < n; ++j) {
    const double *b = buf + j * width;
    long i = (long)b[0];
    recs[i].status = (int)b[1];
    for (int k = 0; k < MBDAE_SWEEP_MAX_OUTCOMES; ++k) recs[i].v[k] = b[2 + k];
  }
  free(buf);
  return rc;
}
