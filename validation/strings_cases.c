/* strings_cases.c - validation of the string network (models/strings)
 * against the closed-form bola of capps 2021 App. I (strings_bola_exact.c,
 * independent of the model) and against the closed form of the Baumgarte
 * string's effective restitution:
 *   while active, phi'' + 2 xi w phi' + w^2 phi = 0 exactly (eq. 3.2), so a
 *   contact entered at phi = 0 with phi' = p0 > 0 ends at phi = 0 after
 *   t_c = pi / (w sqrt(1 - xi^2)) with phi' = -p0 exp(-pi xi / sqrt(1 - xi^2));
 *   |S| = L at both ends, so the normal relative velocity S.W/L is reversed
 *   and scaled by e_eff = exp(-pi xi / sqrt(1 - xi^2)) (xi < 1). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/mbdae.h"
#include "strings_run.h"

#define STR_PI 3.14159265358979323846

static strings_log g_log; /* large: keep it off the stack */

/* Mean order of the steps an adaptive method took (IDA's own counts). */
static double mean_order(const mbdae_stats *st) {
  double n = 0.0, q = 0.0;
  for (int a = 0; a < MBDAE_STATS_ORDERS; ++a) {
    n += (double)st->steps_by_order[a];
    q += (a + 1.0) * (double)st->steps_by_order[a];
  }
  return n > 0.0 ? q / n : 0.0;
}

/* Event-mode bola (the seed's sec. 3.3 set-up, e = 0.15) with one method;
 * formulation 1: ggl (IDA), with its constraint drift in the taut phase;
 * newton: method arkode's Newton system on the DAE form. */
static int bola_event_case_newton(mbdae_validation_report *rep, mbdae_method method,
                                  mbdae_linsol linsol, double rtol, const char *tag,
                                  int formulation, mbdae_arkode_newton newton) {
  snm_params p;
  strings_seed_bola(&p);
  p.hold = SN_HOLD_EVENT;
  p.formulation = formulation;
  const double t_end = 3.0;
  bola_exact b;
  strings_seed_bola_exact(&b, &p);
  if (bola_exact_solve(&b, t_end) || !b.accumulates) return -1;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = method;
  o.linsol = linsol;
  o.t_end = t_end;
  o.dt_out = 0.01;
  o.rtol = rtol;
  o.atol = 1e-12;
  o.rk4_step = 1e-4;
  o.arkode_newton = newton;
  memset(&g_log, 0, sizeof g_log);
  g_log.ref = &b;
  const double probes[] = {0.3, 1.0, 1.3, 2.0, 3.0};
  g_log.nprobe = 5;
  memcpy(g_log.probe_t, probes, sizeof probes);
  char msg[512] = "";
  mbdae_stats st;
  int rc = strings_run(&p, &o, &g_log, &st, msg, sizeof msg);
  if (rc) return -1;
  char q[96];
  if (formulation == 1) {
    /* no drift control: phi and S.W are held by the Newton solves, i.e. at
     * the tolerance's level relative to the coordinates, which reach 30 m
     * (the pair flies at 10 m/s): rtol |R| / L ~ 3e-9 (measured 7.8e-9
     * and 1.5e-9 over the taut phase, 1.35 ... 3 s, samples every 10 ms) */
    snprintf(q, sizeof q, "%s: taut max |phi|/L^2 over samples", tag);
    mbdae_validation_add(rep, q, 0.0, g_log.max_taut_phi, 1e3 * rtol, 0);
    snprintf(q, sizeof q, "%s: taut max |S.W|/(L |W|) over samples", tag);
    mbdae_validation_add(rep, q, 0.0, g_log.max_taut_sw, 1e3 * rtol, 0);
    snprintf(q, sizeof q, "%s: mean BDF order > 2", tag);
    mbdae_validation_add(rep, q, 1.0, mean_order(&st) > 2.0 ? 1.0 : 0.0, 0.0, 0);
  }
  /* impacts: every simulated one (the last is the Zeno rule's plastic one) */
  int nimp = 0;
  for (int i = 0; i < g_log.nev && i < STRINGS_LOG_EVENTS; ++i) {
    if (g_log.kind_ev[i] != 1 && g_log.kind_ev[i] != 2) continue;
    int k = nimp++;
    if (k >= b.nimp) break;
    snprintf(q, sizeof q, "%s: impact %d time [s]", tag, k + 1);
    mbdae_validation_add(rep, q, b.t_imp[k], g_log.t_ev[i], 1e-8, 1);
    if (g_log.kind_ev[i] == 1) {
      snprintf(q, sizeof q, "%s: energy lost at impact %d [J]", tag, k + 1);
      mbdae_validation_add(rep, q, b.dE[k], g_log.data_ev[i][4], 1e-6, 1);
    } else {
      /* plastic: 1/2 mu wn^2, mu = m1 m2 / (m1 + m2) */
      double mu = b.m1 * b.m2 / (b.m1 + b.m2);
      /* ~1e-9 J: compared in absolute terms (1e-12 J, i.e. 2.4e-12 of the
       * first impact's loss), a relative test would amplify round-off */
      snprintf(q, sizeof q, "%s: energy lost at plastic impact %d [J]", tag, k + 1);
      mbdae_validation_add(rep, q, 0.5 * mu * b.wn_pre[k] * b.wn_pre[k],
                           g_log.data_ev[i][4], 1e-12, 0);
      /* the Zeno switch happens close to the accumulation point */
      snprintf(q, sizeof q, "%s: taut switch vs t_inf [s]", tag);
      mbdae_validation_add(rep, q, b.t_inf, g_log.t_ev[i], 1e-4, 1);
    }
  }
  mbdae_validation_add(rep, "impacts before the taut switch >= 4", 1.0, nimp >= 4 ? 1.0 : 0.0,
                       0.0, 0);
  for (int qi = 0; qi < g_log.nprobe; ++qi) {
    double x[6], v[6], ex = 0.0, nx = 0.0, ev = 0.0, nv = 0.0;
    bola_exact_state(&b, g_log.probe_t[qi], x, v);
    for (int a = 0; a < 6; ++a) {
      ex += pow(g_log.probe_y[qi][a] - x[a], 2);
      nx += x[a] * x[a];
      ev += pow(g_log.probe_y[qi][6 + a] - v[a], 2);
      nv += v[a] * v[a];
    }
    snprintf(q, sizeof q, "%s: |dr|/|r| at t = %.1f%s", tag, g_log.probe_t[qi],
             g_log.probe_t[qi] > b.t_inf ? " (taut)" : "");
    mbdae_validation_add(rep, q, 0.0, g_log.probe_hit[qi] ? sqrt(ex / nx) : NAN, 1e-6, 0);
    snprintf(q, sizeof q, "%s: |dv|/|v| at t = %.1f%s", tag, g_log.probe_t[qi],
             g_log.probe_t[qi] > b.t_inf ? " (taut)" : "");
    mbdae_validation_add(rep, q, 0.0, g_log.probe_hit[qi] ? sqrt(ev / nv) : NAN, 1e-6, 0);
  }
  /* relative geometry, the stricter measure: max |dr_k| / L over all samples */
  snprintf(q, sizeof q, "%s: max over samples |dr_k|/L", tag);
  mbdae_validation_add(rep, q, 0.0, g_log.max_dev_pos, 1e-6, 0);
  return 0;
}

static int bola_event_case(mbdae_validation_report *rep, mbdae_method method,
                           mbdae_linsol linsol, double rtol, const char *tag,
                           int formulation) {
  return bola_event_case_newton(rep, method, linsol, rtol, tag, formulation,
                                MBDAE_ARKODE_NEWTON_FULL);
}

static int case_bola_event_ida(mbdae_validation_report *rep) {
  return bola_event_case(rep, MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU, 1e-10, "IDA+KLU", 0);
}
static int case_bola_event_cvode(mbdae_validation_report *rep) {
  return bola_event_case(rep, MBDAE_METHOD_CVODE_BDF, MBDAE_LINSOL_DENSE, 1e-10, "CVODE-BDF", 0);
}
static int case_bola_event_arkode(mbdae_validation_report *rep) {
  return bola_event_case(rep, MBDAE_METHOD_ARKODE, MBDAE_LINSOL_DENSE, 1e-10, "ARKODE", 0);
}
static int case_bola_event_arkode_klu(mbdae_validation_report *rep) {
  return bola_event_case(rep, MBDAE_METHOD_ARKODE, MBDAE_LINSOL_KLU, 1e-10, "ARKODE+KLU", 0);
}
static int case_bola_event_arkode_mult(mbdae_validation_report *rep) {
  return bola_event_case_newton(rep, MBDAE_METHOD_ARKODE, MBDAE_LINSOL_KLU, 1e-10,
                                "ARKODE+KLU multiplier", 0,
                                MBDAE_ARKODE_NEWTON_MULTIPLIER);
}
static int case_bola_event_ida_ggl(mbdae_validation_report *rep) {
  return bola_event_case(rep, MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU, 1e-10, "IDA+KLU GGL", 1);
}
static int case_bola_event_rk4(mbdae_validation_report *rep) {
  return bola_event_case(rep, MBDAE_METHOD_RK4, MBDAE_LINSOL_DENSE, 1e-10, "RK4 h=1e-4", 0);
}

/* Baumgarte string: contact duration and effective restitution. Purely
 * radial relative motion, no gravity: the masses separate for good. */
static int case_baumgarte_restitution(mbdae_validation_report *rep) {
  const double xis[] = {0.2, 0.5, 0.8};
  const double ws[] = {10.0, 40.0};
  for (int a = 0; a < 3; ++a)
    for (int c = 0; c < 2; ++c) {
      snm_params p;
      strings_params_default(&p);
      p.topology = SNM_BOLA;
      p.hold = SN_HOLD_BAUMGARTE;
      p.m1 = 1.0;
      p.m2 = 3.0;
      p.length = 1.0;
      p.r2[0] = 0.5;
      p.v2[0] = 2.0; /* relative velocity along the string */
      p.xi = xis[a];
      p.omega_n = ws[c];
      mbdae_options o;
      mbdae_options_default(&o);
      o.method = MBDAE_METHOD_IDA;
      o.linsol = MBDAE_LINSOL_DENSE;
      o.t_end = 0.25 + 2.0 * STR_PI / ws[c];
      o.dt_out = 0.05;
      o.rtol = 1e-10;
      o.atol = 1e-12;
      memset(&g_log, 0, sizeof g_log);
      if (strings_run(&p, &o, &g_log, NULL, NULL, 0)) return -1;
      double t_on = NAN, t_off = NAN, w_off = NAN;
      for (int i = 0; i < g_log.nev && i < STRINGS_LOG_EVENTS; ++i) {
        if (g_log.kind_ev[i] == 4 && isnan(t_on)) t_on = g_log.t_ev[i];
        if (g_log.kind_ev[i] == 3 && isnan(t_off)) {
          t_off = g_log.t_ev[i];
          w_off = g_log.y_ev[i][9] - g_log.y_ev[i][6]; /* vx2 - vx1 after release */
        }
      }
      double sq = sqrt(1.0 - xis[a] * xis[a]);
      char q[96];
      snprintf(q, sizeof q, "xi=%.1f w=%.0f: first contact at (L - 0.5)/2 [s]", xis[a], ws[c]);
      mbdae_validation_add(rep, q, 0.25, t_on, 1e-8, 1);
      snprintf(q, sizeof q, "xi=%.1f w=%.0f: contact time pi/(w sqrt(1-xi^2)) [s]", xis[a],
               ws[c]);
      mbdae_validation_add(rep, q, STR_PI / (ws[c] * sq), t_off - t_on, 1e-6, 1);
      /* the ratio is already relative to the incoming speed: absolute test */
      snprintf(q, sizeof q, "xi=%.1f w=%.0f: e_eff = exp(-pi xi/sqrt(1-xi^2))", xis[a], ws[c]);
      mbdae_validation_add(rep, q, exp(-STR_PI * xis[a] / sq), -w_off / 2.0, 1e-6, 0);
    }
  return 0;
}

/* The seed's claim (sec. 3.3): with xi = 0.5, w = 10 the compliant bola
 * "never deviates more than 1%" from the exact e = 0.15 solution. The
 * deviation measured as |x - x_ex| / |x_ex| of the stacked positions
 * x = [r1 r2] over samples every 1 ms on [0, 3] s; the stricter
 * max |dr_k| / L is recorded in validation/RESULTS.md (it is not within 1%). */
static int case_baumgarte_claim(mbdae_validation_report *rep) {
  snm_params p;
  strings_seed_bola(&p);
  p.hold = SN_HOLD_BAUMGARTE;
  p.xi = 0.5;
  p.omega_n = 10.0;
  bola_exact b;
  strings_seed_bola_exact(&b, &p);
  if (bola_exact_solve(&b, 3.0)) return -1;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.linsol = MBDAE_LINSOL_KLU;
  o.t_end = 3.0;
  o.dt_out = 1e-3;
  o.rtol = 1e-9;
  o.atol = 1e-11;
  memset(&g_log, 0, sizeof g_log);
  g_log.ref = &b;
  if (strings_run(&p, &o, &g_log, NULL, NULL, 0)) return -1;
  mbdae_validation_add(rep, "seed claim: max |x - x_ex|/|x_ex| <= 1% (xi=0.5, w=10)", 0.0,
                       g_log.max_dev_rel, 0.01, 0);
  /* the first contact is the exact first impact time (phi reaches 0 there) */
  mbdae_validation_add(rep, "first activation = exact first impact [s]", b.t_imp[0],
                       g_log.t_ev[0], 1e-8, 1);
  return 0;
}

/* A straight chain spinning about z through its middle (no gravity, no
 * wave) is a relative equilibrium: rigid rotation r_k(t) = Rot(w t) r_k(0),
 * every string taut; string (k, k+1) on the x > 0 side holds the points
 * outward of it on their circles, T = w^2 sum_{j > k} m x_j (mirror on the
 * other side). Held by formulation ggl in IDA+KLU over 3 turns. */
static int case_spinning_chain_ggl(mbdae_validation_report *rep) {
  const int N = 20;
  const double w = 2.0, len = 0.1, mass = 0.01, t_end = 3.0 * 2.0 * STR_PI / w;
  snm_params p;
  strings_params_default(&p);
  p.topology = SNM_CHAIN;
  p.hold = SN_HOLD_EVENT;
  p.formulation = 1;
  p.chain_points = N;
  p.chain_mass = mass;
  p.chain_spin = w;
  p.length = len;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_IDA;
  o.linsol = MBDAE_LINSOL_KLU;
  o.t_end = t_end;
  o.dt_out = 0.05;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  memset(&g_log, 0, sizeof g_log);
  g_log.nprobe = 2;
  g_log.probe_t[0] = 1.0;
  g_log.probe_t[1] = 3.0;
  mbdae_stats st;
  if (strings_run(&p, &o, &g_log, &st, NULL, 0)) return -1;
  mbdae_validation_add(rep, "GGL chain: events (none: every string stays taut)", 0.0,
                       (double)g_log.nev, 0.0, 0);
  char q[96];
  for (int k = 0; k < g_log.nprobe; ++k) {
    /* points 0 ... 3 (the probes keep the first 12 state entries) */
    double t = g_log.probe_t[k], c = cos(w * t), sn = sin(w * t), er = 0.0;
    for (int a = 0; a < 4; ++a) {
      double x0 = (a - 0.5 * (N - 1)) * len, r[3] = {x0 * c, x0 * sn, 0.0};
      for (int d = 0; d < 3; ++d) er = fmax(er, fabs(g_log.probe_y[k][3 * a + d] - r[d]));
    }
    snprintf(q, sizeof q, "GGL chain: outer points max |dr|/L at t = %.0f s", t);
    mbdae_validation_add(rep, q, 0.0, g_log.probe_hit[k] ? er / len : NAN, 1e-6, 0);
  }
  mbdae_validation_add(rep, "GGL chain: max over samples |phi|/L^2", 0.0, g_log.max_taut_phi,
                       1e-9, 0);
  mbdae_validation_add(rep, "GGL chain: max over samples |S.W|/(L |W|)", 0.0,
                       g_log.max_taut_sw, 1e-9, 0);
  mbdae_validation_add(rep, "GGL chain: mean BDF order > 2", 1.0,
                       mean_order(&st) > 2.0 ? 1.0 : 0.0, 0.0, 0);
  return 0;
}

const mbdae_validation_case mbdae_validation_strings[] = {
  {"strings_bola_event_ida",
   "bola (capps App. I, e = 0.15), exact event mode in IDA+KLU vs the closed form: impact "
   "times, energy per impact, states in the slack and taut phases",
   case_bola_event_ida},
  {"strings_bola_event_ida_ggl",
   "the same bola, exact strings held by formulation ggl (index 2) in IDA+KLU: impact times, "
   "energies, states, constraint drift of the taut phase, mean BDF order",
   case_bola_event_ida_ggl},
  {"strings_spinning_chain_ggl",
   "20-point chain spinning about z (relative equilibrium), formulation ggl in IDA+KLU over "
   "3 turns vs rigid rotation; constraint drift, mean BDF order",
   case_spinning_chain_ggl},
  {"strings_bola_event_cvode", "the same bola, ODE form in CVODE BDF", case_bola_event_cvode},
  {"strings_bola_event_rk4", "the same bola, ODE form with fixed-step RK4 (h = 1e-4)",
   case_bola_event_rk4},
  {"strings_bola_event_arkode", "the same bola, ODE form in ARKODE (ESDIRK, dense Newton)",
   case_bola_event_arkode},
  {"strings_bola_event_arkode_klu", "the same bola, the DAE form in ARKODE through its "
                                    "completion (Newton on the DAE's KLU Jacobian)",
   case_bola_event_arkode_klu},
  {"strings_bola_event_arkode_mult", "the same bola, the DAE form in ARKODE with each Newton "
                                     "system solved in the multipliers (arkode_newton "
                                     "multiplier)",
   case_bola_event_arkode_mult},
  {"strings_baumgarte_restitution",
   "Baumgarte string (capps eq. 3.2): contact time and effective restitution vs the damped "
   "oscillator closed form",
   case_baumgarte_restitution},
  {"strings_baumgarte_claim",
   "capps sec. 3.3 claim: xi = 0.5, w = 10 compliant bola within 1% of the exact e = 0.15 "
   "solution (|x - x_ex|/|x_ex|)",
   case_baumgarte_claim},
  {NULL, NULL, NULL},
};
