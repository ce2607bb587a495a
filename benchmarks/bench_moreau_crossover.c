/* bench_moreau_crossover.c - event-driven against event-capturing on one
 * family of problems whose number of events grows with its size: the n x n
 * net deploying from one point (string_net topology grid: 0.01 kg points,
 * 0.05 kg corners, L = 0.1 m, t_deploy 0.5 s, +-2% velocity jitter, common
 * velocity 5 m/s along z, no gravity) with exact strings (inextensible,
 * Newton restitution e; `mode: event` for the event-driven methods, the
 * strings' unilateral rows for moreau). The jitter makes every string reach
 * its length at its own time, so the event-driven methods locate one event
 * per impact (and per release), while moreau's cost follows its steps.
 *
 *   bench_moreau_crossover N METHOD PARAM E T_END [--save FILE] [--ref FILE]
 *     METHOD: moreau (PARAM = h), ida (PARAM = rtol, KLU), cvode-adams (rtol),
 *     rk4 (PARAM = h)
 *   --save writes the end positions (binary doubles), --ref compares with
 *   such a file: err = max_k |r_k - r_k,ref| / L.
 *   --peer: the Siconos peer's deploying net instead (/work/shared/peers/
 *   siconos, validation/strings_moreau.c: a homogeneous expansion, every
 *   string taut at the same instant t*, so the end energy is known in closed
 *   form, E_exact, and the end taut count is 2n(n-1) for e = 0, 0 for e > 0).
 * Prints one line: n,method,param,e,rc,cpu_s,steps,events,err,E_end,E_exact,
 * taut_end (cpu_s: CLOCK_PROCESS_CPUTIME_ID around mbdae_run; taut: strings
 * with L - d < 1e-3 L; E_exact NaN without --peer). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mbdae/mbdae.h"
#include "strings/string_net_model.h"
#include "strings_moreau.h"
#include "strings_run.h"
#include "bench_timing.h"

int main(int argc, char **argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: %s N moreau|ida|cvode-adams|rk4 PARAM E T_END [--save F] [--ref F]\n",
            argv[0]);
    return 2;
  }
  const char *save = NULL, *ref = NULL;
  int peer = 0;
  for (int a = 6; a < argc; ++a) {
    if (!strcmp(argv[a], "--peer")) peer = 1;
    else if (!strcmp(argv[a], "--save") && a + 1 < argc) save = argv[++a];
    else if (!strcmp(argv[a], "--ref") && a + 1 < argc) ref = argv[++a];
  }
  const int n = atoi(argv[1]);
  const char *method = argv[2];
  const double param = atof(argv[3]), e = atof(argv[4]), t_end = atof(argv[5]);
  snm_params p;
  strings_params_default(&p);
  p.max_output_columns = 0;
  p.topology = SNM_GRID;
  p.hold = SN_HOLD_EVENT;
  p.grid_n = p.grid_m = n;
  p.length = 0.1;
  p.grid_mass = 0.01;
  p.corner_mass = 0.05;
  p.t_deploy = 0.5;
  p.jitter = 0.02;
  p.v_common[2] = 5.0;
  p.e = e;
  for (int c = 0; c < 3; ++c) p.gravity[c] = 0.0;
  if (peer && strings_siconos_net(&p, n, e)) return 1;
  mbdae_options o;
  mbdae_options_default(&o);
  if (mbdae_method_parse(method, &o.method)) return 2;
  o.linsol = MBDAE_LINSOL_KLU;
  o.ordering = MBDAE_ORDERING_AMD;
  o.t_end = t_end;
  o.dt_out = t_end;
  o.rtol = param;
  o.atol = 1e-3 * param;
  o.rk4_step = param;
  o.moreau_step = param;
  o.max_steps = 100000000;
  o.window_events = 1000000;
  o.window_length = 1e-12;
  snm_model *m = NULL;
  mbdae_param_error pe;
  memset(&pe, 0, sizeof pe);
  int rc = snm_create(&p, &o, &m, &pe);
  if (rc) {
    fprintf(stderr, "create: %s %s\n", pe.key ? pe.key : "", pe.msg);
    return 1;
  }
  const int nn = m->net->n, np = m->net->np;
  double *y = calloc((size_t)nn, sizeof *y), *yp = calloc((size_t)nn, sizeof *yp);
  if (!y || !yp) return 1;
  rc = snm_initial_state(m, 0.0, y, o.method == MBDAE_METHOD_IDA ? yp : NULL);
  const double E0 = snm_energy(m, y);
  mbdae_stats st;
  memset(&st, 0, sizeof st);
  char msg[512] = "";
  double c0 = cpu_now();
  if (!rc) rc = mbdae_run(m->problem, &o, y, o.method == MBDAE_METHOD_IDA ? yp : NULL, &st, msg,
                          sizeof msg);
  double cpu = cpu_now() - c0;
  double err = NAN;
  if (save) {
    FILE *f = fopen(save, "wb");
    if (f) {
      fwrite(y + m->net->off_r, sizeof(double), 3 * (size_t)np, f);
      fclose(f);
    }
  }
  if (ref) {
    FILE *f = fopen(ref, "rb");
    double *r = malloc(3 * (size_t)np * sizeof *r);
    if (f && r && fread(r, sizeof(double), 3 * (size_t)np, f) == 3 * (size_t)np) {
      err = 0.0;
      for (int k = 0; k < np; ++k) {
        double d = 0.0;
        for (int c = 0; c < 3; ++c) {
          double x = y[m->net->off_r + 3 * k + c] - r[3 * k + c];
          d += x * x;
        }
        err = fmax(err, sqrt(d) / p.length);
      }
    }
    if (f) fclose(f);
    free(r);
  }
  int taut = 0;
  for (int s = 0; s < m->net->ns; ++s) {
    const sn_string *str = &m->net->s[s];
    double d2 = 0.0;
    for (int c = 0; c < 3; ++c) {
      double x = y[m->net->off_r + 3 * str->i + c] - y[m->net->off_r + 3 * str->j + c];
      d2 += x * x;
    }
    taut += str->L - sqrt(d2) < 1e-3 * str->L;
  }
  printf("%d,%s,%g,%g,%d,%.6g,%ld,%ld,%.3e,%.10g,%.10g,%d%s%s\n", n, method, param, e, rc, cpu,
         st.steps, st.events, err, snm_energy(m, y),
         peer ? strings_siconos_net_end_energy(n, e, E0) : NAN, taut, msg[0] ? "," : "", msg);
  free(y);
  free(yp);
  snm_free(&m);
  strings_table_free(&p);
  return rc ? 1 : 0;
}
