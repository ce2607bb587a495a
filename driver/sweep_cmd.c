/* sweep_cmd.c - `mbdae sweep STUDY [--no-plots] [--out DIR]`: load the
 * study and its base scenario, run every run (split over MPI ranks when
 * started by mpirun and built with MPI), write the gathered files on rank 0. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef MBDAE_HAVE_MPI
#include <mpi.h>
#endif

#include "cli.h"
#include "interrupt.h"
#include "mbdae/status.h"
#include "output_dir.h"
#include "sweep.h"

static const char sweep_usage[] =
  "usage: mbdae sweep STUDY [--resume] [--no-plots] [--out DIR] [--plugin FILE]...\n"
  "\n"
  "Run a parameter study (sweep.md): every combination of the varied keys\n"
  "of the study's base scenario, statistics per design set, critical values,\n"
  "plots. Under `mpirun -np N` (MPI build) the runs are split over N ranks and\n"
  "gathered; the files are identical for any N. Each finished run is written\n"
  "at once to DIR/journal/: a sweep killed (or one of its ranks) or stopped by\n"
  "Ctrl-C goes on with --resume, on any number of ranks, running only the\n"
  "runs not yet journaled. --plugin FILE loads model kinds from a shared\n"
  "object first (first-model-kind.md). A STUDY that is not a file here and\n"
  "has no '/' is looked up among the shipped studies (`ravine_study_I.yaml`\n"
  "or `ravine_study_I`; `mbdae list` shows the directory, studies/ in it).\n"
  "\n"
  "  --resume        go on from DIR/journal (same study, same base scenario)\n"
  "  --out DIR       output directory (default: output.dir of the study, else\n"
  "                  out/<study file stem>)\n"
  "  --no-plots      do not render PNG plots\n"
  "  --plugin FILE   load model kinds from a shared object first (repeatable)\n"
  "  -h, --help      this help\n"
  "\n"
  "Exit codes: 0 ok, 1 the study failed (the directory in use, a journal of\n"
  "another study, a file not written), 2 bad study or usage, 130/143\n"
  "interrupted (SIGINT/SIGTERM: the journal keeps the finished runs).\n"
  "Runs that fail are recorded in runs.csv and do not fail the sweep.\n";

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Started by an MPI launcher? (Open MPI, MPICH/PMI, PMIx) */
static int under_mpirun(void) {
  return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMI_SIZE") || getenv("PMIX_RANK");
}

#ifdef MBDAE_HAVE_MPI
/* mbdae_sweep_comm over MPI_COMM_WORLD: the worst status of all ranks. */
static int mpi_agree(int status, void *data) {
  (void)data;
  int worst = status;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return worst;
}

/* mbdae_sweep_comm over MPI_COMM_WORLD: the records of every rank to rank 0. */
static int mpi_gather(const double *mine, long n, int width, double **all, long *nall,
                      void *data) {
  int rank, nranks;
  (void)data;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int count = (int)(n * width);
  int *counts = NULL, *displs = NULL;
  *all = NULL;
  *nall = 0;
  if (rank == 0) {
    counts = malloc((size_t)nranks * sizeof *counts);
    displs = malloc((size_t)nranks * sizeof *displs);
    /* rank 0 cannot receive: nothing can be gathered, end every rank (the
     * journal keeps the runs: --resume) */
    if (!counts || !displs) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int off = 0;
  if (rank == 0) {
    for (int r = 0; r < nranks; ++r) { displs[r] = off; off += counts[r]; }
    *all = malloc((size_t)(off > 0 ? off : 1) * sizeof(double));
    if (!*all) MPI_Abort(MPI_COMM_WORLD, 1);
    *nall = off / width;
  }
  MPI_Gatherv(mine, count, MPI_DOUBLE, *all, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  free(counts);
  free(displs);
  return 0;
}
#endif

int mbdae_cmd_sweep(int argc, char **argv) {
  const char *path = NULL, *out = NULL;
  int plots = 1, resume = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      fputs(sweep_usage, stdout);
      return MBDAE_EXIT_OK;
    } else if (!strcmp(argv[i], "--no-plots")) {
      plots = 0;
    } else if (!strcmp(argv[i], "--resume")) {
      resume = 1;
    } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
      out = argv[++i];
    } else if (argv[i][0] == '-' || path) {
      fprintf(stderr, "mbdae sweep: unexpected argument '%s'\n%s", argv[i], sweep_usage);
      return MBDAE_EXIT_USAGE;
    } else {
      path = argv[i];
    }
  }
  if (!path) {
    fputs(sweep_usage, stderr);
    return MBDAE_EXIT_USAGE;
  }
  int rank = 0, nranks = 1, mpi = 0;
#ifdef MBDAE_HAVE_MPI
  if (under_mpirun()) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    mpi = 1;
  }
#else
  if (under_mpirun())
    fprintf(stderr, "mbdae sweep: built without MPI: every rank runs the whole study\n");
#endif
  char err[1024] = "";
  int code = MBDAE_EXIT_OK;
  mbdae_sweep_study st;
  mbdae_scenario work;
  memset(&work, 0, sizeof work);
  int rc = mbdae_sweep_study_load(path, &st, err, sizeof err);
  if (rc) {
    if (rank == 0) fprintf(stderr, "mbdae sweep: %s\n", err);
    code = MBDAE_EXIT_USAGE;
    goto finish;
  }
  if (!out && !mbdae_out_dir_confined(st.out_dir)) {
    if (rank == 0)
      fprintf(stderr, "mbdae sweep: %s: key 'output.dir': must be a relative path without '..' "
                      "components (a study may only write below the current directory); use "
                      "--out DIR to write elsewhere\n", path);
    code = MBDAE_EXIT_USAGE;
    mbdae_sweep_study_free(&st);
    goto finish;
  }
  if (out) {
    char *d = malloc(strlen(out) + 1);
    if (d) { strcpy(d, out); free(st.out_dir); st.out_dir = d; }
  }
  rc = mbdae_scenario_load(st.base_path, (const char *const *)st.set, st.nset, &work, err,
                           sizeof err);
  if (rc) {
    if (rank == 0) fprintf(stderr, "mbdae sweep: base scenario: %s\n", err);
    code = MBDAE_EXIT_USAGE;
    mbdae_sweep_study_free(&st);
    goto finish;
  }
  if (mbdae_interrupt_install() != 0) {
    fprintf(stderr, "mbdae sweep: cannot install the signal handlers\n");
    code = MBDAE_EXIT_FAILURE;
  } else {
    double t0 = wall_now();
    mbdae_sweep_comm comm = {.rank = rank, .nranks = nranks};
#ifdef MBDAE_HAVE_MPI
    if (mpi) {
      comm.agree = mpi_agree;
      comm.gather = mpi_gather;
    }
#endif
    mbdae_sweep_tally tally;
    rc = mbdae_sweep_perform(&st, &work, &comm, resume, plots, &mbdae_interrupt_signal, &tally,
                             err, sizeof err);
    double dt = wall_now() - t0;
    if (tally.journal_errno)
      fprintf(stderr, "mbdae sweep: rank %d: cannot write its journal (%s): its later runs "
              "would run again on --resume\n", rank, strerror(tally.journal_errno));
    if (rc == MBDAE_STOPPED) {
      if (rank == 0)
        fprintf(stderr, "mbdae sweep: %s; continue with `mbdae sweep %s%s%s --resume`\n", err,
                path, out ? " --out " : "", out ? out : "");
      code = mbdae_interrupt_signal ? mbdae_interrupt_exit_code() : MBDAE_EXIT_FAILURE;
    } else if (rc) {
      char who[32] = "";
      if (nranks > 1) snprintf(who, sizeof who, "rank %d: ", rank);
      if (err[0]) fprintf(stderr, "mbdae sweep: %s%s\n", who, err);
      else if (rank == 0)
        fprintf(stderr, "mbdae sweep: another rank failed (its message says why)\n");
      code = MBDAE_EXIT_FAILURE;
    } else if (rank == 0) {
      printf("%s: %ld runs (%ld failed", st.stem, st.nruns, tally.failed);
      if (resume) printf(", %ld from the journal", tally.journaled);
      printf(") on %d rank%s in %.3f s (%.1f runs/s) -> %s\n", nranks, nranks > 1 ? "s" : "",
             dt, dt > 0 ? (double)tally.ran / dt : 0.0, st.out_dir);
    }
  }
  mbdae_scenario_free(&work);
  mbdae_sweep_study_free(&st);
finish:
#ifdef MBDAE_HAVE_MPI
  if (mpi) MPI_Finalize();
#endif
  (void)mpi;
  return code;
}
