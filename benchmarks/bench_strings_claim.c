/* bench_strings_claim.c - the seed's Baumgarte claim (capps 2021 sec. 3.3)
 * over a small (xi, omega_n) grid: the compliant bola against the exact
 * e = 0.15 solution (validation/strings_bola_exact.c). Prints one line per
 * grid point: max |dr_k|/L, max |x - x_ex|/|x_ex|, max |v - v_ex|/|v_ex|
 * over samples every 1 ms on [0, 3] s, and the effective restitution
 * exp(-pi xi / sqrt(1 - xi^2)) of the damped-spring string.
 * Usage: bench_strings_claim [t_end] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "../validation/strings_run.h" /* validation/ is not on the benchmarks include path */

static strings_log g_log;

int main(int argc, char **argv) {
  double t_end = argc > 1 ? atof(argv[1]) : 3.0;
  const double xis[] = {0.3, 0.4, 0.5, 0.5169, 0.6, 0.7};
  const double ws[] = {5.0, 10.0, 20.0, 50.0, 100.0, 200.0};
  const double pi = 3.14159265358979323846;
  double le = log(0.15);
  printf("# xi matching e = 0.15 exactly: -ln e / sqrt(pi^2 + ln^2 e) = %.6f\n",
         -le / sqrt(pi * pi + le * le));
  printf("# %-7s %-7s %-8s %-12s %-12s %-12s %-8s\n", "xi", "w_n", "e_eff", "max|dr|/L",
         "max|dx|/|x|", "max|dv|/|v|", "events");
  for (size_t a = 0; a < sizeof xis / sizeof xis[0]; ++a)
    for (size_t c = 0; c < sizeof ws / sizeof ws[0]; ++c) {
      snm_params p;
      strings_seed_bola(&p);
      p.hold = SN_HOLD_BAUMGARTE;
      p.xi = xis[a];
      p.omega_n = ws[c];
      bola_exact b;
      strings_seed_bola_exact(&b, &p);
      if (bola_exact_solve(&b, t_end)) return 1;
      mbdae_options o;
      mbdae_options_default(&o);
      o.method = MBDAE_METHOD_IDA;
      o.linsol = MBDAE_LINSOL_KLU;
      o.t_end = t_end;
      o.dt_out = 1e-3;
      o.rtol = 1e-9;
      o.atol = 1e-11;
      o.window_events = 100000;
      memset(&g_log, 0, sizeof g_log);
      g_log.ref = &b;
      char msg[512] = "";
      int rc = strings_run(&p, &o, &g_log, NULL, msg, sizeof msg);
      double ee = exp(-pi * xis[a] / sqrt(1.0 - xis[a] * xis[a]));
      if (rc) {
        printf("  %-7.4g %-7.4g failed: %s\n", xis[a], ws[c], msg);
        continue;
      }
      printf("  %-7.4g %-7.4g %-8.4f %-12.4e %-12.4e %-12.4e %d\n", xis[a], ws[c], ee,
             g_log.max_dev_pos, g_log.max_dev_rel, g_log.max_dev_vel, g_log.nev);
    }
  return 0;
}
