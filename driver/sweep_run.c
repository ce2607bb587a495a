/* sweep_run.c - run the runs of a study: the directory locked, the runs
 * no journal holds dealt round-robin over ranks (the caller's gather brings
 * them together: MPI in `mbdae sweep`), each journaled as it finishes,
 * every failure recorded, records in run order. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/status.h"
#include "output_dir.h"
#include "run.h"
#include "sweep.h"

void mbdae_sweep_run_one(const mbdae_sweep_study *st, mbdae_scenario *work, long i,
                         const volatile sig_atomic_t *interrupt, mbdae_sweep_record *rec,
                         int *interrupted) {
  *interrupted = 0;
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
  cfg.interrupt = interrupt;
  mbdae_run_result *res = malloc(sizeof *res);
  if (!res) {
    rec->status = MBDAE_ERR_MEMORY;
    return;
  }
  rc = mbdae_scenario_run(work, &cfg, res, err, sizeof err);
  rec->status = rc == MBDAE_ERR_SCENARIO ? MBDAE_ERR_SCENARIO : res->status;
  *interrupted = res->interrupted;
  /* outcomes of a run that failed midway describe a partial run: not kept */
  if (rec->status >= 0)
    for (int k = 0; k < st->noutcomes; ++k)
      for (int j = 0; j < res->noutcomes; ++j)
        if (!strcmp(res->outcomes[j].name, st->outcomes[k].name))
          rec->v[k] = res->outcomes[j].value;
  free(res);
}

static void put_record(double *b, long i, const mbdae_sweep_record *r) {
  b[0] = (double)i;
  b[1] = (double)r->status;
  for (int k = 0; k < MBDAE_SWEEP_MAX_OUTCOMES; ++k) b[2 + k] = r->v[k];
}

static void take_record(const double *b, long nruns, mbdae_sweep_record *recs,
                        unsigned char *done) {
  long i = (long)b[0];
  if (i < 0 || i >= nruns) return;
  recs[i].status = (int)b[1];
  for (int k = 0; k < MBDAE_SWEEP_MAX_OUTCOMES; ++k) recs[i].v[k] = b[2 + k];
  done[i] = 1;
}

/* The worst status of all ranks: a failure anywhere ends the sweep on
 * every rank together (err is set on the rank that failed only). */
static int agree(const mbdae_sweep_comm *comm, int status) {
  return comm && comm->agree ? comm->agree(status, comm->data) : status;
}

/* This rank's share of the runs not done: the k-th of them for k = rank
 * mod nranks (cheap and expensive runs interleave along the grid), each
 * journaled as it finishes; packed into *buf. */
static int run_share(const mbdae_sweep_study *st, mbdae_scenario *work, int rank, int nranks,
                     const unsigned char *done, mbdae_sweep_journal *journal,
                     const volatile sig_atomic_t *interrupt, double **buf, long *n) {
  const int width = 2 + MBDAE_SWEEP_MAX_OUTCOMES;
  long todo = 0;
  for (long i = 0; i < st->nruns; ++i) todo += !done[i];
  long mine = todo > rank ? (todo - rank + nranks - 1) / nranks : 0;
  *n = 0;
  *buf = malloc((size_t)(mine > 0 ? mine : 1) * (size_t)width * sizeof(double));
  if (!*buf) return MBDAE_ERR_MEMORY;
  for (long i = 0, k = 0; i < st->nruns; ++i) {
    if (done[i] || k++ % nranks != rank) continue;
    if (interrupt && *interrupt) break;
    mbdae_sweep_record r;
    int stopped;
    mbdae_sweep_run_one(st, work, i, interrupt, &r, &stopped);
    if (stopped) break; /* a partial run is no result: it runs again on --resume */
    mbdae_sweep_journal_put(journal, st, i, &r);
    put_record(*buf + *n * width, i, &r);
    ++*n;
  }
  return MBDAE_OK;
}

int mbdae_sweep_perform(const mbdae_sweep_study *st, mbdae_scenario *work,
                        const mbdae_sweep_comm *comm, int resume, int plots,
                        const volatile sig_atomic_t *interrupt, mbdae_sweep_tally *tally,
                        char *err, size_t errlen) {
  const int width = 2 + MBDAE_SWEEP_MAX_OUTCOMES;
  const int rank = comm ? comm->rank : 0, nranks = comm ? comm->nranks : 1;
  memset(tally, 0, sizeof *tally);
  tally->runs = st->nruns;
  err[0] = '\0';
  int lock = -1, rc = MBDAE_OK;
  if (rank == 0) { /* one writer per directory, as for runs */
    rc = mbdae_mkdir_p(st->out_dir, err, errlen);
    if (!rc) rc = mbdae_dir_lock(st->out_dir, &lock, err, errlen);
    if (!rc && !resume) mbdae_sweep_journal_clear(st);
  }
  rc = agree(comm, rc); /* also: nobody reads before the clear */
  mbdae_sweep_record *recs = calloc((size_t)st->nruns, sizeof *recs);
  unsigned char *done = calloc((size_t)st->nruns, 1);
  mbdae_sweep_journal journal;
  memset(&journal, 0, sizeof journal);
  double *buf = NULL, *all = NULL;
  long n = 0, nall = 0;
  if (!rc && (!recs || !done)) {
    snprintf(err, errlen, "out of memory for %ld records", st->nruns);
    rc = MBDAE_ERR_MEMORY;
  }
  if (!rc && resume) rc = mbdae_sweep_journal_read(st, recs, done, &tally->journaled, err, errlen);
  /* every rank has read the journals before any cuts a torn line off */
  rc = agree(comm, rc);
  if (!rc) rc = agree(comm, mbdae_sweep_journal_open(st, rank, &journal, err, errlen));
  if (!rc)
    rc = agree(comm, run_share(st, work, rank, nranks, done, &journal, interrupt, &buf, &n));
  mbdae_sweep_journal_close(&journal);
  tally->journal_errno = journal.failed;
  if (!rc && comm && comm->gather) {
    rc = comm->gather(buf, n, width, &all, &nall, comm->data);
  } else if (!rc) {
    all = buf;
    nall = n;
    buf = NULL;
  }
  if (!rc && rank == 0) {
    for (long j = 0; j < nall; ++j) take_record(all + j * width, st->nruns, recs, done);
    tally->ran = nall;
    for (long i = 0; i < st->nruns; ++i) {
      tally->missing += !done[i];
      tally->failed += done[i] && recs[i].status < 0;
    }
    if (tally->missing) {
      snprintf(err, errlen, "interrupted: %ld of %ld runs done, in %s/journal; a resumed "
               "sweep runs the other %ld", st->nruns - tally->missing, st->nruns, st->out_dir,
               tally->missing);
      rc = MBDAE_STOPPED;
    } else {
      rc = mbdae_sweep_write(st, recs, plots, err, errlen);
    }
  }
  free(all);
  free(buf);
  free(done);
  free(recs);
  mbdae_dir_unlock(&lock);
  return rc;
}
