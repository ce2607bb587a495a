/* bench_moreau_peers.c - mbdae's moreau method on the Siconos peer's problems
 * (/work/shared/peers/siconos): the bola and the deploying n x n net, same
 * model, same h, theta and activation rule, same metrics; one JSON line per
 * run, with the field names of the peer's results_*.jsonl.
 *
 *   bench_moreau_peers bola [h] [theta] [t_end]            (defaults 1e-3 0.5 3)
 *   bench_moreau_peers net  [n] [h] [t_end] [e] [theta]    (defaults 10 1e-3 0.7 0 0.5)
 *   option --tol T: nonsmooth_tol (default 1e-10)
 *
 * cpu_s is the CPU time of the stepping loop (first step to last; the
 * peer's computeOneStep + nextStep), cpu_run_s the whole mbdae_run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strings_moreau.h"
#include "strings_run.h"

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
