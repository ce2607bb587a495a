/* bench_strings.c - cost of string networks: a spinning chain of N points
 * (all strings taut: exact bilateral constraints, event mode), an n x n net
 * spinning flat about its normal (all strings taut likewise) and an n x n
 * net deploying from one point (Baumgarte strings, capps eqs. 3.1-3.2),
 * with IDA + KLU (DAE form, analytic sparse Jacobian) or RK4 (ODE form, the
 * multipliers from a sparse KLU solve inside every right-hand side).
 *
 * Usage: bench_strings chain|spin|net SIZE ida|rk4 amd|colamd|metis T_END
 *                      RTOL_OR_STEP [--save FILE] [--ref FILE]
 *   SIZE: chain points, or n of the n x n net. RTOL_OR_STEP: rtol for IDA
 *   (atol = 1e-3 rtol), the fixed step for RK4. --save writes the final
 *   positions (binary doubles); --ref compares with such a file and prints
 *   the end-point error max_k |r_k - r_k,ref| / L.
 * Environment: BENCH_SWITCHING=state (deploying net: the seed's
 * unlocated switching, doc/strings.md), BENCH_FORCES=unilateral (deploying
 * net: strings only pull, doc/strings.md), BENCH_JAC_REUSE_CJ=x (IDA's
 * jac_reuse_cj, default the engine's 0.9), BENCH_RESTART_STEP=x (IDA's
 * first step after an event as x times the last step; default 0, IDA's own).
 * Prints one line: problem, unknowns, wall and user-CPU time (the whole
 * process, getrusage) per simulated second, steps,
 * right-hand-side/residual evaluations, factorizations (linear-solver
 * setups), events, peak resident memory (getrusage), end-point error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "mbdae/mbdae.h"
#include "param_schema.h"
#include "strings/string_net_model.h"

extern const mbdae_model_kind mbdae_model_string_net;


int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: %s chain|spin|net SIZE ida|rk4 amd|colamd|metis T_END RTOL_OR_STEP "
                    "[--save FILE] [--ref FILE]\n", argv[0]);
    return 2;
  }
  const char *save = NULL, *ref = NULL;
  for (int a = 7; a + 1 < argc; a += 2) {
    if (strcmp(argv[a], "--save") == 0) save = argv[a + 1];
    else if (strcmp(argv[a], "--ref") == 0) ref = argv[a + 1];
  }
  int chain = strcmp(argv[1], "chain") == 0;
  int spin = strcmp(argv[1], "spin") == 0;
  int size = atoi(argv[2]);
  int ida = strcmp(argv[3], "ida") == 0;
  double t_end = atof(argv[5]), tol = atof(argv[6]);
  snm_params p;
  memset(&p, 0, sizeof p);
  mbdae_params_set_defaults(mbdae_model_string_net.params, mbdae_model_string_net.nparams, &p);
  p.max_output_columns = 0;
  double L;
  if (chain) {
    /* 1 m, 1 kg chain spinning at 2 rad/s with a transverse half-sine */
    p.topology = SNM_CHAIN;
    p.hold = SN_HOLD_EVENT;
    p.chain_points = size;
    p.length = L = 1.0 / (size - 1);
    p.chain_mass = 1.0 / size;
    p.chain_spin = 2.0;
    p.chain_wave = 0.2;
  } else if (spin) {
    /* n x n net, 1 m wide, 1 kg, spinning at 2 rad/s with an out-of-plane
     * bump (0.2 m/s): all strings taut (exact event mode, no events) */
    p.topology = SNM_SPINNING_GRID;
    p.hold = SN_HOLD_EVENT;
    p.grid_n = p.grid_m = size;
    p.length = L = 1.0 / (size - 1);
    p.grid_mass = p.corner_mass = 1.0 / ((double)size * size);
    p.grid_spin = 2.0;
    p.grid_wave = 0.2;
  } else {
    p.topology = SNM_GRID;
    p.hold = SN_HOLD_BAUMGARTE;
    p.grid_n = p.grid_m = size;
    p.length = L = 0.1;
    p.grid_mass = 0.01;
    p.corner_mass = 0.05;
    p.t_deploy = 0.5;
    p.jitter = 0.02;
    p.v_common[2] = 5.0;
    p.xi = 0.5;
    p.omega_n = 40.0;
    p.switching = getenv("BENCH_SWITCHING") && strcmp(getenv("BENCH_SWITCHING"), "state") == 0;
    p.forces = getenv("BENCH_FORCES") && strcmp(getenv("BENCH_FORCES"), "unilateral") == 0;
  }
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = ida ? MBDAE_METHOD_IDA : MBDAE_METHOD_RK4;
  o.linsol = MBDAE_LINSOL_KLU;
  o.ordering = strcmp(argv[4], "metis") == 0    ? MBDAE_ORDERING_METIS
               : strcmp(argv[4], "colamd") == 0 ? MBDAE_ORDERING_COLAMD
                                                : MBDAE_ORDERING_AMD;
  o.t_end = t_end;
  o.dt_out = t_end;
  o.rtol = ida ? tol : 1e-8;
  o.atol = ida ? 1e-3 * tol : 1e-10;
  o.rk4_step = ida ? 1e-3 : tol;
  o.max_steps = 100000000;
  const char *rc_cj = getenv("BENCH_JAC_REUSE_CJ");
  if (rc_cj) o.jac_reuse_cj = atof(rc_cj);
  const char *rs = getenv("BENCH_RESTART_STEP");
  if (rs) o.restart_step = atof(rs);
  o.window_events = 1000000;
  o.window_length = 1e-12;
  mbdae_model *m = NULL;
  mbdae_param_error err;
  int rc = mbdae_model_string_net.create(&p, &o, &m, &err);
  if (rc) {
    fprintf(stderr, "create: %s %s\n", err.key ? err.key : "", err.msg);
    return 1;
  }
  mbdae_problem *pr = mbdae_model_string_net.problem(m);
  int n = mbdae_problem_size(pr);
  double *y = calloc((size_t)n, sizeof(double)), *yp = calloc((size_t)n, sizeof(double));
  if (!y || !yp) return 1;
  rc = mbdae_model_string_net.initial_state(m, 0.0, y, yp);
  mbdae_stats st;
  memset(&st, 0, sizeof st);
  char msg[512] = "";
  if (!rc) rc = mbdae_run(pr, &o, y, yp, &st, msg, sizeof msg);
  int np = ((snm_model *)m)->net->np;
  double errmax = NAN;
  if (save) {
    FILE *f = fopen(save, "wb");
    if (f) {
      fwrite(y, sizeof(double), 3 * (size_t)np, f);
      fclose(f);
    }
  }
  if (ref) {
    FILE *f = fopen(ref, "rb");
    double *r = malloc(3 * (size_t)np * sizeof(double));
    if (f && r && fread(r, sizeof(double), 3 * (size_t)np, f) == 3 * (size_t)np) {
      errmax = 0.0;
      for (int k = 0; k < np; ++k) {
        double d = 0.0;
        for (int c = 0; c < 3; ++c) d += pow(y[3 * k + c] - r[3 * k + c], 2);
        if (sqrt(d) / L > errmax) errmax = sqrt(d) / L;
      }
    }
    if (f) fclose(f);
    free(r);
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  double cpu = ru.ru_utime.tv_sec + 1e-6 * ru.ru_utime.tv_usec;
  printf("%s %s n=%d points=%d unknowns=%d %s %s tol=%g rc=%d wall/sim_s=%.4g "
         "cpu/sim_s=%.4g steps=%ld rhs=%ld factorizations=%ld events=%ld peak_rss_MB=%.1f "
         "end_err=%.3e %s\n",
         argv[1], argv[2], size, np, n, argv[3], argv[4], tol, rc, st.wall_time / t_end,
         cpu / t_end,
         st.steps, st.rhs_evals, st.lin_setups, st.events, ru.ru_maxrss / 1024.0, errmax,
         rc ? msg : "");
  free(y);
  free(yp);
  mbdae_model_string_net.destroy(&m);
  return rc ? 1 : 0;
}
