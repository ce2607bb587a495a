/* bench_billiard_runs.c - wall and CPU time of the paper's five 25,000-
 * collision runs (hartl-miller-mazzoleni §VI) with the parameters of
 * scenarios/billiard_*.yaml (A = 12 mm, e = 0.709, start at rest at
 * (0.02, 0.05) m), through the engine without file output.
 *
 * usage: bench_billiard_runs [collisions=25000] [method: cvode-adams|cvode-bdf|ida|rk4]
 *        [rtol=1e-8] */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../validation/billiard_run.h"
#include "mbdae/status.h"

static double now(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 25000;
  mbdae_method method = MBDAE_METHOD_CVODE_ADAMS;
  if (argc > 2 && mbdae_method_parse(argv[2], &method) != MBDAE_OK) {
    fprintf(stderr, "unknown method %s\n", argv[2]);
    return 2;
  }
  double rtol = argc > 3 ? atof(argv[3]) : 1e-8;
  const struct { const char *name; int shape; double f; } runs[] = {
    {"wedge 6.6 Hz", BILLIARD_WEDGE, 6.6},       {"hyperbola 4.5 Hz", BILLIARD_HYPERBOLA, 4.5},
    {"hyperbola 5.8 Hz", BILLIARD_HYPERBOLA, 5.8}, {"parabola 4.5 Hz", BILLIARD_PARABOLA, 4.5},
    {"parabola 5.4 Hz", BILLIARD_PARABOLA, 5.4}};
  printf("# %d collisions, %s, rtol %.1e, atol %.1e\n", n, mbdae_method_name(method), rtol,
         rtol * 1e-2);
  printf("# run status collisions t_reached_s steps rhs_evals root_evals wall_s cpu_s\n");
  for (int i = 0; i < 5; ++i) {
    billiard_params p;
    billiard_params_default(&p);
    p.shape = runs[i].shape;
    p.frequency = runs[i].f;
    p.amplitude = 0.012;
    p.restitution = 0.709;
    p.collisions = n;
    p.x0 = 0.02;
    p.y0 = 0.05;
    billiard_run_cfg c;
    billiard_run_cfg_default(&c);
    c.method = method;
    c.rtol = rtol;
    c.atol = rtol * 1e-2;
    mbdae_stats st;
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    int rc = billiard_run(&p, &c, NULL, &st, NULL);
    double w1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
    printf("%-17s %s %ld %.1f %ld %ld %ld %.3f %.3f\n", runs[i].name, mbdae_status_name(rc),
           st.events, st.t_reached, st.steps, st.rhs_evals, st.root_evals, w1 - w0, c1 - c0);
    fflush(stdout);
  }
  return 0;
}
