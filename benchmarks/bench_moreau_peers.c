/* bench_moreau_peers.c - mbdae's moreau method on the Siconos peer's problems
 * (/work/shared/peers/siconos): the bola and the deploying n x n net, same
 * model, same h, theta and activation rule, same metrics; one JSON line per
 * run, with the field names of the peer's results_*.jsonl.
 *
 *   bench_moreau_peers bola [h] [theta] [t_end]            (defaults 1e-3 0.5 3)
 *   bench_moreau_peers net  [n] [h] [t_end] [e] [theta]    (defaults 10 1e-3 0.7 0 0.5)
 *   bench_moreau_peers dump net|spin N h T FILE [e]
 *       write the one-step problem of the step that ends at T (onestep_io.h)
 *       of the deploying net (e, default 0) or of a spinning grid (N x N,
 *       L = 0.1 m, 2 rad/s, every string taut and pulling) to FILE
 *   option --tol T: nonsmooth_tol (default 1e-10)
 *
 * cpu_s is the CPU time of the stepping loop (first step to last; the
 * peer's computeOneStep + nextStep), measured in a second run whose step
 * observer only counts; cpu_run_s the whole mbdae_run of the first run,
 * with the per-step metrics (as costly as a step on the nets). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onestep_io.h"
#include "strings_moreau.h"
#include "strings_run.h"

typedef struct dump_ctx {
  const mbdae_options *o;
  double t_start;   /* start of the step to dump */
  const char *path;
  int done, rc;
} dump_ctx;

/* At the end of the step before the one to dump: form that one and write it. */
static int dump_hook(const mbdae_step_record *r, const snm_model *m, void *data) {
  dump_ctx *d = data;
  if (d->done || fabs(r->t - d->t_start) > 0.5 * r->h) return 0;
  const int ns = m->net->ns;
  double *P0 = malloc((size_t)(ns + 1) * sizeof *P0);
  if (!P0) return -1;
  for (int s = 0; s < ns; ++s) P0[s] = m->impulse_tension[s] * r->h;
  onestep os;
  d->rc = onestep_build(m->problem, d->o, r->t, r->h, r->y, P0, &os);
  free(P0);
  if (!d->rc) d->rc = onestep_write(d->path, &os);
  int in = 0;
  for (int i = 0; !d->rc && i < os.nc; ++i) in += os.in_set[i];
  if (!d->rc) fprintf(stderr, "%s: step [%g, %g], %d rows in the set of %d\n", d->path, os.t,
                      os.t + os.h, in, os.nc);
  onestep_free(&os);
  d->done = 1;
  return d->rc ? -1 : 1; /* stop the run */
}

static int dump_main(int na, char **args) {
  if (na < 6) return 2;
  int n = atoi(args[2]);
  double h = atof(args[3]), T = atof(args[4]);
  snm_params p;
  strings_params_default(&p);
  if (!strcmp(args[1], "net")) {
    if (strings_siconos_net(&p, n, na > 6 ? atof(args[6]) : 0.0)) return 1;
  } else {
    p.topology = SNM_SPINNING_GRID;
    p.grid_n = p.grid_m = n;
    p.grid_mass = 0.01;
    p.corner_mass = 0.05;
    p.length = 0.1;
    p.grid_spin = 2.0;
    p.grid_wave = 0.5;
    for (int c = 0; c < 3; ++c) p.gravity[c] = 0.0;
  }
  mbdae_options o;
  mbdae_options_default(&o);
  o.moreau_step = h;
  o.t_end = T;
  o.dt_out = T;
  dump_ctx d = {.o = &o, .t_start = T - h, .path = args[5]};
  moreau_metrics mm;
  memset(&mm, 0, sizeof mm);
  mm.window1 = T;
  mm.probe_t = T;
  mm.hook = dump_hook;
  mm.hook_data = &d;
  char msg[512] = "";
  int rc = strings_moreau_run(&p, &o, &mm, msg, sizeof msg);
  strings_table_free(&p);
  if (!d.done || d.rc || (rc != MBDAE_OK && rc != MBDAE_STOPPED)) {
    fprintf(stderr, "dump failed: %s\n", msg[0] ? msg : mbdae_status_message(d.rc ? d.rc : rc));
    return 1;
  }
  return 0;
}

static double arg(int argc, char **argv, int i, double def) {
  return i < argc ? atof(argv[i]) : def;
}

static void common(const moreau_metrics *mm, const mbdae_options *o, int rc) {
  printf("\"h\": %.10g, \"theta\": %g, \"t_end\": %g, \"tol\": %g, \"status\": %d, "
         "\"steps\": %ld, \"cpu_s\": %.6g, \"cpu_per_sim_s\": %.6g, \"cpu_run_s\": %.6g, "
         "\"nonsmooth_iters\": %ld, \"fallbacks\": %ld, \"max_energy_rise\": %.3e",
         o->moreau_step, o->theta, o->t_end, o->nonsmooth_tol, rc, mm->steps, mm->cpu_loop,
         mm->cpu_loop / (o->t_end - o->t0), mm->cpu_run, mm->stats.nonsmooth_iters,
         mm->stats.nonsmooth_fallbacks, mm->max_rise);
}

int main(int argc, char **argv) {
  double tol = 1e-10;
  int na = 0;
  char *args[16];
  for (int i = 1; i < argc && na < 16; ++i) {
    if (!strcmp(argv[i], "--tol") && i + 1 < argc) tol = atof(argv[++i]);
    else args[na++] = argv[i];
  }
  if (na >= 1 && !strcmp(args[0], "dump")) {
    int rc = dump_main(na, args);
    if (rc == 2) fprintf(stderr, "usage: bench_moreau_peers dump net|spin N h T FILE [e]\n");
    return rc;
  }
  if (na < 1 || (strcmp(args[0], "bola") && strcmp(args[0], "net"))) {
    fprintf(stderr, "usage: bench_moreau_peers bola [h] [theta] [t_end] | net [n] [h] [t_end] "
                    "[e] [theta]  [--tol T]\n");
    return 2;
  }
  mbdae_options o;
  mbdae_options_default(&o);
  o.nonsmooth_tol = tol;
  moreau_metrics mm;
  memset(&mm, 0, sizeof mm);
  mm.timing = 1;
  char msg[1024] = "";
  if (!strcmp(args[0], "bola")) {
    snm_params p;
    strings_seed_bola(&p);
    o.moreau_step = arg(na, args, 1, 1e-3);
    o.theta = arg(na, args, 2, 0.5);
    o.t_end = arg(na, args, 3, 3.0);
    o.dt_out = o.t_end;
    mm.window0 = 1.4;
    mm.window1 = 3.0;
    mm.probe_t = 2.0;
    int rc = strings_moreau_run(&p, &o, &mm, msg, sizeof msg);
    printf("{\"problem\": \"bola\", \"code\": \"mbdae moreau\", ");
    common(&mm, &o, rc);
    printf(", \"t_first_impulse\": %.10g, \"t_taut\": %.10g, \"E0\": %.10g, \"E_t2\": %.12g, "
           "\"E_t2_err\": %.6e, \"E_end\": %.12g, \"dist_err_max_abs_1.4_3\": %.6e, "
           "\"omega_end\": %.8g, \"message\": \"%s\"}\n",
           mm.t_first_impulse, mm.t_taut, mm.E0, mm.E_probe, mm.E_probe - 120.608125, mm.E_end,
           mm.max_stretch_window, mm.omega_end, msg);
    return rc ? 1 : 0;
  }
  int n = (int)arg(na, args, 1, 10);
  double e = arg(na, args, 4, 0.0);
  o.moreau_step = arg(na, args, 2, 1e-3);
  o.t_end = arg(na, args, 3, 0.7);
  o.theta = arg(na, args, 5, 0.5);
  o.dt_out = o.t_end;
  snm_params p;
  strings_params_default(&p);
  if (strings_siconos_net(&p, n, e)) return 1;
  mm.window0 = 0.0;
  mm.window1 = o.t_end;
  mm.probe_t = o.t_end;
  int rc = strings_moreau_run(&p, &o, &mm, msg, sizeof msg);
  strings_table_free(&p);
  printf("{\"problem\": \"net\", \"code\": \"mbdae moreau\", \"n\": %d, \"e\": %g, ", n, e);
  common(&mm, &o, rc);
  printf(", \"lcp_steps\": %ld, \"lcp_max\": %d, \"active_end\": %d, \"taut_end\": %d, "
         "\"viol_max\": %.6e, \"E_end\": %.10g, \"E_end_exact\": %.10g, \"P_err_max\": %.3e, "
         "\"H_err_max\": %.3e, \"message\": \"%s\"}\n",
         mm.lcp_steps, mm.index_max, mm.active_end, mm.taut_end, mm.max_excess, mm.K_end,
         strings_siconos_net_end_energy(n, e, mm.E0), mm.max_momentum_err, mm.max_angmom_err,
         msg);
  return rc ? 1 : 0;
}
