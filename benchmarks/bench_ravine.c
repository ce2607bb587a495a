/* bench_ravine.c - the ravine model (hartl sec. 4.2 example, rolling spin)
 * with CVODE Adams, CVODE BDF (analytic Jacobian) and the thesis's fixed-step
 * RK4 (appendix B) at two steps: wall time per run and the outcomes, the RK4
 * h = 0.1 ms run serving as the reference. Usage: bench_ravine [repeats] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mbdae/engine.h"
#include "ravine/ravine.h"

static double now(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct { double h, t_cross; long steps, events; int status; } result;

static int run(mbdae_method m, double rtol, double h, result *r) {
  ravine_params p;
  memset(&p, 0, sizeof p);
  p.b = 1.0; p.m = 1.0; p.J_over_m = 0.4; p.e = 0.92; p.mu = 1.0; p.mu_k = 0.8; p.g = 3.71;
  p.terrain = 0; p.beta_deg = 30; p.theta_deg = 30; p.dh = -10; p.pl = 30;
  p.start = 1; p.q[1] = 1.0; p.u[2] = -5.0; p.u[3] = 5.0; p.stop_on_rebound = 1; p.v_rest = 1e-2;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = m; o.t_end = 100; o.dt_out = 100; o.rtol = rtol; o.atol = rtol * 1e-2;
  o.rk4_step = h; o.max_steps = 10000000;
  mbdae_model *mm = NULL;
  mbdae_param_error err = {0};
  if (mbdae_model_ravine.create(&p, &o, &mm, &err)) return -1;
  o.method = m; /* keep the requested method (create maps only IDA) */
  double y[9];
  mbdae_model_ravine.initial_state(mm, 0.0, y, NULL);
  mbdae_stats st;
  r->status = mbdae_run(mbdae_model_ravine.problem(mm), &o, y, NULL, &st, NULL, 0);
  mbdae_outcome out[16];
  int n = mbdae_model_ravine.outcomes(mm, y, NULL, out, 16);
  for (int i = 0; i < n; ++i) {
    if (!strcmp(out[i].name, "max_height")) r->h = out[i].value;
    if (!strcmp(out[i].name, "t_cross")) r->t_cross = out[i].value;
  }
  r->steps = st.steps;
  r->events = st.events;
  mbdae_model_ravine.destroy(&mm);
  return 0;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 20;
  struct { const char *name; mbdae_method m; double rtol, h; int reps; } cases[] = {
    {"cvode-adams rtol 1e-8", MBDAE_METHOD_CVODE_ADAMS, 1e-8, 0, reps},
    {"cvode-bdf rtol 1e-8", MBDAE_METHOD_CVODE_BDF, 1e-8, 0, reps},
    {"rk4 h = 1 ms", MBDAE_METHOD_RK4, 1e-8, 1e-3, reps},
    {"rk4 h = 0.1 ms (reference)", MBDAE_METHOD_RK4, 1e-8, 1e-4, 1},
  };
  result ref;
  if (run(MBDAE_METHOD_RK4, 1e-8, 1e-4, &ref)) return 1;
  printf("%-28s %10s %8s %6s %14s %14s %12s\n", "method", "ms/run", "steps", "events",
         "max_height", "t_cross", "|dh| vs ref");
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    result r = {0};
    double t0 = now();
    for (int k = 0; k < cases[c].reps; ++k)
      if (run(cases[c].m, cases[c].rtol, cases[c].h, &r)) return 1;
    double ms = 1e3 * (now() - t0) / cases[c].reps;
    printf("%-28s %10.3f %8ld %6ld %14.9f %14.9f %12.3e\n", cases[c].name, ms, r.steps, r.events,
           r.h, r.t_cross, fabs(r.h - ref.h));
  }
  return 0;
}
