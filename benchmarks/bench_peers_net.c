/* bench_peers_net.c - the n x n deploying net with Baumgarte strings (capps
 * eqs. 2.39, 3.1-3.2) as mbdae runs it, for the side-by-side comparison with
 * the Octave peer in benchmarks/octave/ (issue 9). Same problem as
 * benchmarks/octave/net_setup.m: n x n points leaving one point (0.01 kg,
 * 0.05 kg corners, L = 0.1 m, t_deploy 0.5 s, +-2% velocity pattern, common
 * velocity 5 m/s along z), xi = 0.5, omega_n given, no gravity, no drag.
 *
 * Usage: bench_peers_net N OMEGA_N METHOD TOL_OR_STEP T_END
 *                        [--save FILE] [--ref FILE] [--switching located|state]
 *                        [--ordering amd|colamd|metis] [--dt-sample DT]
 *   METHOD: ida (DAE form, KLU), cvode-bdf (ODE form, dense difference-quotient
 *   Jacobian), cvode-adams, rk4. TOL_OR_STEP: rtol (atol = 1e-3 rtol) or the
 *   RK4 step.
 *   Positions are sampled every DT (default 0.05 s) from DT to T_END; --save
 *   writes them as text (one line per sample: t x_0 y_0 z_0 x_1 ...; the same
 *   format as run_net.m's), --ref reads such a file and reports the error
 *   max over samples and points of |r_k - r_k,ref| / L.
 * Prints one CSV line:
 *   tool,solver,n,omega_n,tol,rc,cpu_s,wall_s,steps,fevals,jevals,
 *   factorizations,events,peak_rss_mb,err
 * cpu_s: CLOCK_PROCESS_CPUTIME_ID around mbdae_run only (model creation and
 * file I/O excluded); wall_s: the engine's wall_time. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "mbdae/mbdae.h"
#include "param_schema.h"
#include "strings/string_net_model.h"
#include "bench_timing.h"

extern const mbdae_model_kind mbdae_model_string_net;

typedef struct {
  int np;
  double dt, t_end;
  int nsamp;
  double *samp; /* nsamp x 3 np */
  int *have;
} sampler;


/* Output times are k dt; events (ev != NULL) are skipped. */
static int observe(double t, const double *y, const double *yp, const mbdae_event_record *ev,
                   void *ud) {
  (void)yp;
  sampler *s = ud;
  if (ev) return 0;
  double q = t / s->dt;
  long k = lround(q);
  if (k < 1 || k > s->nsamp || fabs(q - (double)k) > 1e-6) return 0;
  memcpy(s->samp + (size_t)(k - 1) * 3 * (size_t)s->np, y, 3 * (size_t)s->np * sizeof(double));
  s->have[k - 1] = 1;
  return 0;
}

/* max over samples and points of |r - r_ref| / L; NAN if the file does not
 * match (sample count, times, sizes). */
static double compare_ref(const char *path, const sampler *s, double L) {
  FILE *f = fopen(path, "r");
  if (!f) return NAN;
  double err = 0.0;
  for (int k = 0; k < s->nsamp; ++k) {
    double t;
    if (fscanf(f, "%lf", &t) != 1 || fabs(t - (k + 1) * s->dt) > 1e-9 || !s->have[k]) {
      err = NAN;
      break;
    }
    const double *r = s->samp + (size_t)k * 3 * (size_t)s->np;
    for (int p = 0; p < s->np && !isnan(err); ++p) {
      double d2 = 0.0;
      for (int c = 0; c < 3; ++c) {
        double v;
        if (fscanf(f, "%lf", &v) != 1) {
          err = NAN;
          break;
        }
        d2 += (r[3 * p + c] - v) * (r[3 * p + c] - v);
      }
      if (!isnan(err) && sqrt(d2) / L > err) err = sqrt(d2) / L;
    }
    if (isnan(err)) break;
  }
  fclose(f);
  return err;
}

static int save_samples(const char *path, const sampler *s) {
  FILE *f = fopen(path, "w");
  if (!f) return 1;
  for (int k = 0; k < s->nsamp; ++k) {
    fprintf(f, "%.17g", (k + 1) * s->dt);
    const double *r = s->samp + (size_t)k * 3 * (size_t)s->np;
    for (int p = 0; p < 3 * s->np; ++p) fprintf(f, " %.17g", r[p]);
    fputc('\n', f);
  }
  return fclose(f) ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr,
            "usage: %s N OMEGA_N ida|cvode-bdf|cvode-adams|rk4 TOL_OR_STEP T_END "
            "[--save FILE] [--ref FILE] [--switching located|state] "
            "[--ordering amd|colamd|metis] [--dt-sample DT]\n",
            argv[0]);
    return 2;
  }
  const char *save = NULL, *ref = NULL, *ord = "amd";
  int state_switching = 0;
  double dt = 0.05;
  for (int a = 6; a + 1 < argc; a += 2) {
    if (strcmp(argv[a], "--save") == 0) save = argv[a + 1];
    else if (strcmp(argv[a], "--ref") == 0) ref = argv[a + 1];
    else if (strcmp(argv[a], "--switching") == 0) state_switching = strcmp(argv[a + 1], "state") == 0;
    else if (strcmp(argv[a], "--ordering") == 0) ord = argv[a + 1];
    else if (strcmp(argv[a], "--dt-sample") == 0) dt = atof(argv[a + 1]);
    else {
      fprintf(stderr, "unknown option %s\n", argv[a]);
      return 2;
    }
  }
  int n = atoi(argv[1]);
  double omega = atof(argv[2]), tol = atof(argv[4]), t_end = atof(argv[5]);
  mbdae_method method;
  if (n < 2 || !(omega > 0.0) || !(tol > 0.0) || !(t_end > 0.0) || !(dt > 0.0) ||
      mbdae_method_parse(argv[3], &method) != MBDAE_OK) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  snm_params p;
  memset(&p, 0, sizeof p);
  mbdae_params_set_defaults(mbdae_model_string_net.params, mbdae_model_string_net.nparams, &p);
  p.max_output_columns = 0;
  p.topology = SNM_GRID;
  p.hold = SN_HOLD_BAUMGARTE;
  p.grid_n = p.grid_m = n;
  p.length = 0.1;
  p.grid_mass = 0.01;
  p.corner_mass = 0.05;
  p.t_deploy = 0.5;
  p.jitter = 0.02;
  p.v_common[0] = p.v_common[1] = 0.0;
  p.v_common[2] = 5.0;
  p.gravity[0] = p.gravity[1] = p.gravity[2] = 0.0;
  p.drag = 0.0;
  p.xi = 0.5;
  p.omega_n = omega;
  p.switching = state_switching;

  mbdae_options o;
  mbdae_options_default(&o);
  o.method = method;
  o.linsol = method == MBDAE_METHOD_IDA ? MBDAE_LINSOL_KLU : MBDAE_LINSOL_DENSE;
  o.ordering = strcmp(ord, "metis") == 0    ? MBDAE_ORDERING_METIS
               : strcmp(ord, "colamd") == 0 ? MBDAE_ORDERING_COLAMD
                                            : MBDAE_ORDERING_AMD;
  o.t_end = t_end;
  o.dt_out = dt;
  int rk4 = method == MBDAE_METHOD_RK4;
  o.rtol = rk4 ? 1e-8 : tol;
  o.atol = rk4 ? 1e-10 : 1e-3 * tol;
  o.rk4_step = rk4 ? tol : 1e-3;
  o.max_steps = 100000000;
  o.window_events = 1000000;
  o.window_length = 1e-12;

  sampler s = {0};
  s.dt = dt;
  s.t_end = t_end;
  s.nsamp = (int)floor(t_end / dt + 1e-9);
  mbdae_model *m = NULL;
  mbdae_param_error err;
  int rc = mbdae_model_string_net.create(&p, &o, &m, &err);
  if (rc) {
    fprintf(stderr, "create: %s %s\n", err.key ? err.key : "", err.msg);
    return 1;
  }
  s.np = ((snm_model *)m)->net->np;
  mbdae_problem *pr = mbdae_model_string_net.problem(m);
  int nn = mbdae_problem_size(pr);
  double *y = calloc((size_t)nn, sizeof(double)), *yp = calloc((size_t)nn, sizeof(double));
  s.samp = calloc((size_t)s.nsamp * 3 * (size_t)s.np + 1, sizeof(double));
  s.have = calloc((size_t)s.nsamp + 1, sizeof(int));
  if (!y || !yp || !s.samp || !s.have) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  o.observer = observe;
  o.observer_data = &s;
  rc = mbdae_model_string_net.initial_state(m, 0.0, y, yp);
  mbdae_stats st;
  memset(&st, 0, sizeof st);
  char msg[512] = "";
  double c0 = cpu_now();
  if (!rc) rc = mbdae_run(pr, &o, y, yp, &st, msg, sizeof msg);
  double cpu = cpu_now() - c0;
  double e = NAN;
  if (!rc && save && save_samples(save, &s)) fprintf(stderr, "cannot write %s\n", save);
  if (!rc && ref) e = compare_ref(ref, &s, p.length);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("mbdae,%s%s,%d,%g,%g,%d,%.4f,%.4f,%ld,%ld,%ld,%ld,%ld,%.1f,%.4e\n", argv[3],
         state_switching ? "-state" : "", n, omega, tol, rc, cpu, st.wall_time, st.steps,
         st.rhs_evals, st.jac_evals, st.lin_setups, st.events, ru.ru_maxrss / 1024.0, e);
  if (rc) fprintf(stderr, "run failed: %s\n", msg);
  free(y);
  free(yp);
  free(s.samp);
  free(s.have);
  mbdae_model_string_net.destroy(&m);
  return rc ? 1 : 0;
}
