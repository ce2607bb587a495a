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
#include "mbdae/status.h"
#include "output_dir.h"
#include "sweep.h"

static const char sweep_usage[] =
  "usage: mbdae sweep STUDY [--no-plots] [--out DIR] [--plugin FILE]...\n"
  "\n"
  "Run a parameter study (sweep.md): every combination of the varied keys\n"
  "of the study's base scenario, statistics per design set, critical values,\n"
  "plots. Under `mpirun -np N` (MPI build) the runs are split over N ranks and\n"
  "gathered; the files are identical for any N. --plugin FILE loads model\n"
  "kinds from a shared object first (first-model-kind.md). A STUDY that is\n"
  "not a file here and has no '/' is looked up among the shipped studies\n"
  "(`ravine_study_I.yaml` or `ravine_study_I`; `mbdae list` shows the\n"
  "directory, studies/ in it).\n"
  "\n"
  "  --out DIR       output directory (default: output.dir of the study, else\n"
  "                  out/<study file stem>)\n"
  "  --no-plots      do not render PNG plots\n"
  "  --plugin FILE   load model kinds from a shared object first (repeatable)\n"
  "  -h, --help      this help\n"
  "\n"
  "Exit codes: 0 ok, 1 a run or the study failed, 2 bad study or usage.\n";

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
/* mbdae_sweep_gather_fn over MPI_COMM_WORLD. */
static int mpi_gather(const double *mine, long n, int width, double **all, long nruns,
                      void *data) {
  int rank, nranks;
  (void)data;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int count = (int)(n * width);
  int *counts = NULL, *displs = NULL;
  *all = NULL;
  if (rank == 0) {
    counts = malloc((size_t)nranks * sizeof *counts);
    displs = malloc((size_t)nranks * sizeof *displs);
    *all = malloc((size_t)nruns * (size_t)width * sizeof(double));
    /* rank 0 cannot receive: nothing can be gathered, end every rank */
    if (!counts || !displs || !*all) MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Gather(&count, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int off = 0;
    for (int r = 0; r < nranks; ++r) { displs[r] = off; off += counts[r]; }
  }
  MPI_Gatherv(mine, count, MPI_DOUBLE, *all, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  free(counts);
  free(displs);
  return 0;
}
#endif

int mbdae_cmd_sweep(int argc, char **argv) {
  const char *path = NULL, *out = NULL;
  int plots = 1;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      fputs(sweep_usage, stdout);
      return MBDAE_EXIT_OK;
    } else if (!strcmp(argv[i], "--no-plots")) {
      plots = 0;
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
  mbdae_sweep_record *recs = NULL;
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
  recs = calloc((size_t)st.nruns, sizeof *recs);
  if (!recs) {
    fprintf(stderr, "mbdae sweep: out of memory for %ld records\n", st.nruns);
    code = MBDAE_EXIT_FAILURE;
  } else {
    double t0 = wall_now();
    mbdae_sweep_gather_fn gather = NULL;
#ifdef MBDAE_HAVE_MPI
    if (nranks > 1) gather = mpi_gather;
#endif
    rc = mbdae_sweep_execute(&st, &work, rank, nranks, recs, gather, NULL);
    double dt = wall_now() - t0;
    if (rc) {
      fprintf(stderr, "mbdae sweep: %s\n", mbdae_status_message(rc));
      code = MBDAE_EXIT_FAILURE;
    } else if (rank == 0) {
      long failed = 0;
      for (long i = 0; i < st.nruns; ++i) failed += recs[i].status < 0;
      rc = mbdae_sweep_write(&st, recs, plots, err, sizeof err);
      if (rc) {
        fprintf(stderr, "mbdae sweep: %s\n", err);
        code = MBDAE_EXIT_FAILURE;
      }
      printf("%s: %ld runs (%ld failed) on %d rank%s in %.3f s (%.1f runs/s) -> %s\n", st.stem,
             st.nruns, failed, nranks, nranks > 1 ? "s" : "", dt,
             dt > 0 ? (double)st.nruns / dt : 0.0, st.out_dir);
    }
  }
  free(recs);
  mbdae_scenario_free(&work);
  mbdae_sweep_study_free(&st);
finish:
#ifdef MBDAE_HAVE_MPI
  if (mpi) MPI_Finalize();
#endif
  (void)mpi;
  return code;
}
