/* bench_rover.c - the pendulum tumbleweed rover: (1) wall time and work of
 * IDA (DAE with multipliers) vs CVODE (null-space ODE) vs RK4 at equal
 * accuracy for 600 s of rolling (consistent Table 1, scenario 2), against a
 * CVODE reference at rtol 1e-13; (2) steady rolling speed vs wind speed
 * 5-60 km/h: closed form, linear stability and the simulated speed after
 * 120 s, for both Table 1 sets. Not run in CI.
 * (3) when IDA and CVODE part on the tumbling printed-set scenario 2, vs rtol.
 * Usage: bench_rover [accuracy|sweep|parting|all] */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../validation/rover_sim.h"
#include "mbdae/status.h"
#include "bench_timing.h"

static void scenario2(rover_params *p, int table) {
  rover_params_default(p);
  p->table = table;
  p->omega0[1] = 2.0;
  p->phidot0 = -1.0;
  p->euler0[0] = 5.0;
  p->euler0[1] = 10.0;
  p->phi0 = -10.0;
}

static void accuracy(void) {
  const double T = 600.0, dt = 0.5;
  rover_params p;
  rover_sim ref;
  scenario2(&p, ROVER_TABLE_CONSISTENT);
  if (rover_sim_run(&p, MBDAE_METHOD_CVODE_BDF, 0, T, dt, 1e-13, 1e-15, 0, &ref) != MBDAE_OK) {
    printf("reference failed: %s\n", ref.msg);
    rover_sim_free(&ref);
    return;
  }
  printf("# 600 s, consistent Table 1, scenario 2; error = max over samples (dt 0.5 s) and\n"
         "# compared quantities of |a - ref| / max(1, max|ref|); ref = CVODE rtol 1e-13\n");
  printf("%-6s %-10s %-10s %10s %9s %9s %10s %9s %9s\n", "method", "rtol", "rk4_step",
         "error", "wall[s]", "cpu[s]", "steps", "f_evals", "jac_evals");
  const double tols[] = {1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11};
  for (int m = 0; m < 2; ++m)
    for (size_t i = 0; i < sizeof tols / sizeof tols[0]; ++i) {
      rover_sim s;
      mbdae_method meth = m ? MBDAE_METHOD_IDA : MBDAE_METHOD_CVODE_BDF;
      double c0 = cpu_now();
      int rc = rover_sim_run(&p, meth, 0, T, dt, tols[i], tols[i] * 1e-2, 0, &s);
      double cpu = cpu_now() - c0;
      double e = rc == MBDAE_OK ? rover_sim_compare(&ref, &s, T, NULL) : NAN;
      printf("%-6s %-10.0e %-10s %10.3e %9.3f %9.3f %10ld %9ld %9ld%s\n", m ? "ida" : "cvode",
             tols[i], "-", e, s.stats.wall_time, cpu, s.stats.steps, s.stats.rhs_evals,
             s.stats.jac_evals, rc == MBDAE_OK ? "" : "  (failed)");
      rover_sim_free(&s);
    }
  const double steps[] = {2e-2, 1e-2, 5e-3, 2.5e-3, 1.25e-3};
  for (size_t i = 0; i < sizeof steps / sizeof steps[0]; ++i) {
    rover_sim s;
    double c0 = cpu_now();
    int rc = rover_sim_run(&p, MBDAE_METHOD_RK4, 0, T, dt, 1e-8, 1e-10, steps[i], &s);
    double cpu = cpu_now() - c0;
    double e = rc == MBDAE_OK ? rover_sim_compare(&ref, &s, T, NULL) : NAN;
    printf("%-6s %-10s %-10.2e %10.3e %9.3f %9.3f %10ld %9ld %9ld%s\n", "rk4", "-", steps[i], e,
           s.stats.wall_time, cpu, s.stats.steps, s.stats.rhs_evals, s.stats.jac_evals,
           rc == MBDAE_OK ? "" : "  (failed)");
    rover_sim_free(&s);
  }
  rover_sim_free(&ref);
}

static void sweep(void) {
  printf("# steady rolling vs wind (wind ramp tau 2 s, scenario 1 start, 120 s CVODE rtol 1e-10)\n");
  printf("%-10s %-10s %10s %10s %9s %9s %12s %8s %12s\n", "table", "wind[km/h]", "V[m/s]",
         "V_sim[m/s]", "theta[deg]", "P[W]", "maxRe[1/s]", "stable", "|vy|_sim");
  for (int tab = 1; tab >= 0; --tab)
    for (int kmh = 5; kmh <= 60; kmh += 5) {
      rover_params p;
      rover_steady ss;
      double wr[7], wi[7], mx = -HUGE_VAL;
      rover_params_default(&p);
      p.table = tab;
      p.wind_speed = kmh / 3.6;
      if (rover_steady_state(&p, p.wind_speed, &ss) != MBDAE_OK) {
        printf("%-10s %-10d no steady state (generator torque exceeds gravity's)\n",
               tab ? "consistent" : "printed", kmh);
        continue;
      }
      if (rover_steady_eigen(&p, p.wind_speed, wr, wi) == MBDAE_OK)
        for (int i = 0; i < 7; ++i) if (wr[i] > mx) mx = wr[i];
      p.omega0[1] = ss.omega; /* start near the steady spin, lateral tilt 1 deg */
      p.euler0[1] = 1.0;
      rover_sim s;
      int rc = rover_sim_run(&p, MBDAE_METHOD_CVODE_BDF, 0, 120, 0.5, 1e-10, 1e-12, 0, &s);
      double vs = NAN, vy = NAN;
      if (rc == MBDAE_OK && s.n > 0) {
        const double *l = s.q + (size_t)(s.n - 1) * RS_NQ;
        vs = hypot(l[RS_VX], l[RS_VY]);
        vy = fabs(l[RS_VY]);
      }
      printf("%-10s %-10d %10.5f %10.5f %9.4f %9.3f %12.5f %8s %12.3e\n",
             tab ? "consistent" : "printed", kmh, ss.speed, vs,
             ss.theta_p * 180 / 3.14159265358979323846, ss.power, mx,
             mx < 0 ? "yes" : "no", vy);
      rover_sim_free(&s);
    }
}

/* printed Table 1, scenario 2 (tumbling): when do IDA and CVODE part by
 * more than 1e-6 (relative to max(1, max|q|)), as a function of rtol */
static void parting(void) {
  const double tols[] = {1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 3e-13};
  rover_params p;
  scenario2(&p, ROVER_TABLE_PRINTED);
  printf("# printed Table 1, scenario 2, 40 s, atol = 1e-2 rtol; parting = first sample\n"
         "# where IDA and CVODE differ by more than 1e-6 (41 = never)\n");
  printf("%-10s %12s %14s\n", "rtol", "parting[s]", "max diff 40 s");
  for (size_t i = 0; i < sizeof tols / sizeof tols[0]; ++i) {
    rover_sim a, b;
    int ra = rover_sim_run(&p, MBDAE_METHOD_CVODE_BDF, 0, 40, 0.05, tols[i], tols[i] * 1e-2, 0, &a);
    int rb = rover_sim_run(&p, MBDAE_METHOD_IDA, 0, 40, 0.05, tols[i], tols[i] * 1e-2, 0, &b);
    if (ra == MBDAE_OK && rb == MBDAE_OK)
      printf("%-10.0e %12.2f %14.3e\n", tols[i], rover_sim_parting_time(&a, &b, 1e-6),
             rover_sim_compare(&a, &b, 40, NULL));
    else
      printf("%-10.0e failed: %s %s\n", tols[i], a.msg, b.msg);
    rover_sim_free(&a);
    rover_sim_free(&b);
  }
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "all";
  if (!strcmp(what, "accuracy") || !strcmp(what, "all")) accuracy();
  if (!strcmp(what, "sweep") || !strcmp(what, "all")) sweep();
  if (!strcmp(what, "parting") || !strcmp(what, "all")) parting();
  return 0;
}
