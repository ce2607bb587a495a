/* bench_driver.c - cost of the driver layer around the engine, as a sweep
 * sees it: (1) loading and checking a scenario file, (2) override + run with
 * no output files, compared with the engine's own wall time, (3) the same
 * run writing series.csv, events.csv and summary.json (no plots).
 * Usage: bench_driver SCENARIO [RUNS] [TMPDIR] (defaults: 500 runs, /tmp). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "run.h"
#include "scenario.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_driver SCENARIO [RUNS] [TMPDIR]\n");
    return 2;
  }
  int runs = argc > 2 ? atoi(argv[2]) : 500;
  const char *tmp = argc > 3 ? argv[3] : "/tmp";
  if (runs < 1) runs = 1;
  char err[1024];
  mbdae_scenario s;
  double t = now();
  for (int i = 0; i < runs; ++i) {
    if (mbdae_scenario_load(argv[1], NULL, 0, &s, err, sizeof err)) {
      fprintf(stderr, "%s\n", err);
      return 2;
    }
    if (i + 1 < runs) mbdae_scenario_free(&s);
  }
  double t_load = (now() - t) / runs;

  mbdae_run_config cfg;
  mbdae_run_result *r = malloc(sizeof *r);
  if (!r) return 1;
  double engine = 0;
  mbdae_run_config_default(&cfg, &s);
  t = now();
  for (int i = 0; i < runs; ++i) {
    char set[64];
    snprintf(set, sizeof set, "solver.rtol=%g", 1e-8 * (1.0 + (double)i / runs));
    const char *sets[] = {set};
    if (mbdae_scenario_override(&s, sets, 1, err, sizeof err) ||
        mbdae_scenario_run(&s, &cfg, r, err, sizeof err) < 0) {
      fprintf(stderr, "%s\n", err);
      return 1;
    }
    engine += r->stats.wall_time;
  }
  double t_run = (now() - t) / runs;
  engine /= runs;

  char dir[4096];
  snprintf(dir, sizeof dir, "%s/bench_driver_out", tmp);
  cfg.out_dir = dir;
  cfg.plots = 0;
  int nfiles = runs < 50 ? runs : 50;
  double engine_f = 0;
  long rows = 0;
  t = now();
  for (int i = 0; i < nfiles; ++i) {
    if (mbdae_scenario_run(&s, &cfg, r, err, sizeof err) < 0) {
      fprintf(stderr, "%s\n", err);
      return 1;
    }
    engine_f += r->stats.wall_time;
    rows = r->rows;
  }
  double t_files = (now() - t) / nfiles;
  engine_f /= nfiles;
  printf("scenario %s (%s, %ld steps, %ld events per run)\n", argv[1], s.kind->name,
         r->stats.steps, r->events);
  printf("load + check          %9.3f ms\n", 1e3 * t_load);
  printf("override + run, no files %6.3f ms (engine %.3f ms, driver %.3f ms) over %d runs\n",
         1e3 * t_run, 1e3 * engine, 1e3 * (t_run - engine), runs);
  printf("run writing files     %9.3f ms (engine incl. observer %.3f ms, %ld rows) over %d runs\n",
         1e3 * t_files, 1e3 * engine_f, rows, nfiles);
  free(r);
  mbdae_scenario_free(&s);
  return 0;
}
