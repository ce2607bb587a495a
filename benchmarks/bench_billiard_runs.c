/* bench_billiard_runs.c - wall and CPU time of the paper's five 25,000-
 * collision runs (hartl-miller-mazzoleni §VI) with the parameters of
 * scenarios/billiard_*.yaml (A = 20 mm, e = 0.4968, start at rest at
 * (0.02, 0.05) m), through the engine without file output.
 *
 * usage: bench_billiard_runs [collisions=25000] [method: cvode-adams|cvode-bdf|ida|rk4]
 *        [rtol=1e-8] [A=0.020] [e=0.4968]
 * Besides the timings it prints the largest collision height, the fraction
 * of collisions with q2 > 2 cm and of low-speed (|vn| < v_elastic) ones. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../validation/billiard_run.h"
#include "mbdae/status.h"

typedef struct summary {
  long n, high, slow;
  double q2max;
} summary;

static int on_collision(const mbdae_event_record *ev, const double *y, void *ud) {
  summary *s = ud;
  s->n++;
  if (y[1] > s->q2max) s->q2max = y[1];
  if (y[1] > 0.02) s->high++;
  if (fabs(ev->data[BILLIARD_EV_VN_IN]) < 0.01) s->slow++;
  return 0;
}

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
  double A = argc > 4 ? atof(argv[4]) : 0.020, e = argc > 5 ? atof(argv[5]) : 0.4968;
  const struct { const char *name; int shape; double f; } runs[] = {
    {"wedge 6.6 Hz", BILLIARD_WEDGE, 6.6},       {"hyperbola 4.5 Hz", BILLIARD_HYPERBOLA, 4.5},
    {"hyperbola 5.8 Hz", BILLIARD_HYPERBOLA, 5.8}, {"parabola 4.5 Hz", BILLIARD_PARABOLA, 4.5},
    {"parabola 5.4 Hz", BILLIARD_PARABOLA, 5.4}};
  printf("# %d collisions, %s, rtol %.1e, atol %.1e, A = %g m, e = %g\n", n,
         mbdae_method_name(method), rtol, rtol * 1e-2, A, e);
  printf("# run status collisions t_reached_s steps rhs_evals root_evals wall_s cpu_s"
         " q2max_m frac_q2>2cm frac_slow\n");
  for (int i = 0; i < 5; ++i) {
    billiard_params p;
    billiard_params_default(&p);
    p.shape = runs[i].shape;
    p.frequency = runs[i].f;
    p.amplitude = A;
    p.restitution = e;
    p.collisions = n;
    p.x0 = 0.02;
    p.y0 = 0.05;
    billiard_run_cfg c;
    billiard_run_cfg_default(&c);
    c.method = method;
    c.rtol = rtol;
    c.atol = rtol * 1e-2;
    summary sm = {0, 0, 0, 0.0};
    c.on_collision = on_collision;
    c.user_data = &sm;
    mbdae_stats st;
    double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_PROCESS_CPUTIME_ID);
    int rc = billiard_run(&p, &c, NULL, &st, NULL);
    double w1 = now(CLOCK_MONOTONIC), c1 = now(CLOCK_PROCESS_CPUTIME_ID);
    printf("%-17s %s %ld %.1f %ld %ld %ld %.3f %.3f %.4f %.3f %.3f\n", runs[i].name,
           mbdae_status_name(rc), st.events, st.t_reached, st.steps, st.rhs_evals,
           st.root_evals, w1 - w0, c1 - c0, sm.q2max, sm.n ? (double)sm.high / sm.n : 0.0,
           sm.n ? (double)sm.slow / sm.n : 0.0);
    fflush(stdout);
  }
  return 0;
}
