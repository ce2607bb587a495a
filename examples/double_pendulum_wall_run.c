/* double_pendulum_wall_run.c - example 3: a model kind defined in the user's
 * own program, registered and run through the scenario API.
 *
 * The kind is examples/plugin/double_pendulum_wall.c, compiled into this
 * program (the same file is also the plug-in libdouble_pendulum_wall.so).
 * This program
 *   - registers it (mbdae_model_kind_register, mbdae_geometry_register),
 *   - loads examples/plugin/double_pendulum_wall.yaml with the scenario
 *     loader (mbdae/simulation.h): the schema checks apply to it, a bad
 *     value is one line FILE:LINE: key 'parameters.e': why,
 *   - runs it into an output directory like `mbdae run` (series.csv,
 *     events.csv, summary.json, VTK frames) while keeping the series and the
 *     events in memory,
 * and checks the result against what it computes itself:
 *   - the first impact time, from its own RK4 integration of the equations
 *     of motion (fixed step, the crossing refined by bisection);
 *   - every impact obeys Newton's law gap'+ = -e gap'-;
 *   - the energy each impact takes, from the engine's invariant log
 *     (energy before/after), equals (1 - e^2) gap'-^2 / (2 G M^-1 G^T) with
 *     G and M evaluated here at the pre-event row of the series;
 *   - between impacts the energy stays that after the last impact;
 *   - with e = 1 (an override) the energy at the end is the initial one.
 * Usage: double_pendulum_wall_run SCENARIO [OUTDIR]. Exit 0 when every check
 * passes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/simulation.h"
#include "mbdae/status.h"
#include "plugin/double_pendulum_wall.h"

typedef struct dp {
  double m1, m2, l1, l2, g, wall, e;
} dp;

/* The equations of motion again, written here from the Lagrangian (top of
 * plugin/double_pendulum_wall.c): y = (theta1, theta2, w1, w2). */
static void accel(const dp *p, const double *y, double *f) {
  double a = (p->m1 + p->m2) * p->l1 * p->l1, b = p->m2 * p->l1 * p->l2 * cos(y[0] - y[1]);
  double c = p->m2 * p->l2 * p->l2, s = sin(y[0] - y[1]);
  double r1 = -p->m2 * p->l1 * p->l2 * s * y[3] * y[3] - (p->m1 + p->m2) * p->g * p->l1 * sin(y[0]);
  double r2 = p->m2 * p->l1 * p->l2 * s * y[2] * y[2] - p->m2 * p->g * p->l2 * sin(y[1]);
  f[0] = y[2];
  f[1] = y[3];
  f[2] = (c * r1 - b * r2) / (a * c - b * b);
  f[3] = (a * r2 - b * r1) / (a * c - b * b);
}

static void rk4(const dp *p, double *y, double h) {
  double k1[4], k2[4], k3[4], k4[4], t[4];
  accel(p, y, k1);
  for (int i = 0; i < 4; ++i) t[i] = y[i] + 0.5 * h * k1[i];
  accel(p, t, k2);
  for (int i = 0; i < 4; ++i) t[i] = y[i] + 0.5 * h * k2[i];
  accel(p, t, k3);
  for (int i = 0; i < 4; ++i) t[i] = y[i] + h * k3[i];
  accel(p, t, k4);
  for (int i = 0; i < 4; ++i) y[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
}

static double gap(const dp *p, const double *y) {
  return p->wall - p->l1 * sin(y[0]) - p->l2 * sin(y[1]);
}

/* First time the gap falls through 0, from y0 at t = 0: RK4 with step h,
 * then bisection on the last step (each trial one RK4 step from its start). */
static double first_impact(const dp *p, const double *y0, double t_end) {
  const double h = 1e-4;
  double y[4], t = 0.0;
  memcpy(y, y0, sizeof y);
  while (t < t_end) {
    double prev[4];
    memcpy(prev, y, sizeof y);
    rk4(p, y, h);
    if (gap(p, y) < 0.0) {
      double lo = 0.0, hi = h;
      for (int it = 0; it < 60; ++it) {
        double mid = 0.5 * (lo + hi), z[4];
        memcpy(z, prev, sizeof z);
        rk4(p, z, mid);
        if (gap(p, z) < 0.0) hi = mid;
        else lo = mid;
      }
      return t + 0.5 * (lo + hi);
    }
    t += h;
  }
  return NAN;
}

static int failures;

static void check(const char *what, double computed, double expected, double tol) {
  double err = fabs(computed - expected) / fmax(fabs(expected), 1e-300);
  int ok = err <= tol;
  if (!ok) failures++;
  printf("  %-44s %.12g  expected %.12g  rel. error %.1e  %s\n", what, computed, expected, err,
         ok ? "ok" : "FAIL");
}

static int column(const mbdae_simulation *sim, const char *name) {
  for (int j = 0;; ++j) {
    const char *c = mbdae_simulation_series_column(sim, j, NULL);
    if (!c) return -1;
    if (!strcmp(c, name)) return j;
  }
}

static int event_column(const mbdae_simulation *sim, const char *name) {
  for (int j = 0;; ++j) {
    const char *c = mbdae_simulation_event_column(sim, j, NULL);
    if (!c) return -1;
    if (!strcmp(c, name)) return j;
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SCENARIO [OUTDIR]\n", argv[0]);
    return 2;
  }
  const char *out = argc > 2 ? argv[2] : "out/double_pendulum_wall";
  char err[1024];
  /* 1. Register the kind: from here on scenarios may say model: double_pendulum_wall */
  if (double_pendulum_wall_register(err, sizeof err)) {
    fprintf(stderr, "FAIL: register: %s\n", err);
    return 1;
  }
  /* 2. The scenario loader checks the schema: a bad value is refused with its line */
  mbdae_simulation *sim = NULL;
  const char *bad[] = {"parameters.e=1.5"};
  int rc = mbdae_simulation_load(argv[1], bad, 1, &sim, err, sizeof err);
  printf("e = 1.5 refused: %s\n", err);
  if (rc != MBDAE_ERR_SCENARIO || !strstr(err, "parameters.e")) {
    printf("FAIL: e = 1.5 was not refused by the schema\n");
    failures++;
  }
  /* 3. Load and run, into a directory and into memory */
  rc = mbdae_simulation_load(argv[1], NULL, 0, &sim, err, sizeof err);
  if (rc) {
    fprintf(stderr, "FAIL: %s\n", err);
    return 1;
  }
  rc = mbdae_simulation_run(sim, out, MBDAE_SIM_KEEP | MBDAE_SIM_NO_PLOTS, err, sizeof err);
  if (rc != MBDAE_OK) {
    fprintf(stderr, "FAIL: run: %s\n", err);
    mbdae_simulation_free(&sim);
    return 1;
  }
  const double *rows, *ev;
  long nrows, nev;
  int ncols, nevcols;
  mbdae_simulation_series(sim, &rows, &nrows, &ncols);
  mbdae_simulation_events(sim, &ev, &nev, &nevcols);
  const int *kinds = mbdae_simulation_series_kinds(sim);
  printf("%ld series rows, %ld events -> %s\n", nrows, nev, out);

  /* the parameters, as the scenario gives them (defaults elsewhere) */
  const dp p = {1.0, 1.0, 0.5, 0.5, 9.81, 0.3, 0.8};
  const double y0[4] = {-1.0, -0.5, 0.0, 0.0};
  const int c_t = column(sim, "t"), c_th1 = column(sim, "theta1"), c_th2 = column(sim, "theta2");
  const int c_E = column(sim, "energy"), c_gap = column(sim, "gap");
  const int e_t = event_column(sim, "t"), e_before = event_column(sim, "gap_rate_before");
  const int e_after = event_column(sim, "gap_rate_after");
  const int e_Eb = event_column(sim, "energy_before"), e_Ea = event_column(sim, "energy_after");
  if (c_t < 0 || c_th1 < 0 || c_th2 < 0 || c_E < 0 || c_gap < 0 || e_t < 0 || e_before < 0 ||
      e_after < 0 || e_Eb < 0 || e_Ea < 0 || nev < 3) {
    printf("FAIL: missing columns or fewer than 3 impacts\n");
    mbdae_simulation_free(&sim);
    return 1;
  }

  /* first impact: the engine's located root against this program's RK4 */
  check("first impact time [s]", ev[e_t], first_impact(&p, y0, 4.0), 1e-7);

  long impact = 0;
  double e_since = NAN, drift = 0.0, max_gap_at_impact = 0.0;
  for (long i = 0; i < nrows; ++i) {
    const double *r = rows + i * ncols;
    if (kinds[i] == MBDAE_SERIES_PRE_EVENT && impact < nev) {
      /* the state just before impact `impact`: G and M from it */
      const double *e = ev + impact * nevcols;
      double th1 = r[c_th1], th2 = r[c_th2];
      double a = (p.m1 + p.m2) * p.l1 * p.l1, b = p.m2 * p.l1 * p.l2 * cos(th1 - th2);
      double c = p.m2 * p.l2 * p.l2, det = a * c - b * b;
      double G0 = -p.l1 * cos(th1), G1 = -p.l2 * cos(th2);
      double W = (c * G0 * G0 - 2 * b * G0 * G1 + a * G1 * G1) / det;
      double lost = (1 - p.e * p.e) * e[e_before] * e[e_before] / (2 * W);
      if (impact < 3) {
        char what[64];
        snprintf(what, sizeof what, "impact %ld: gap'+ / gap'-", impact + 1);
        check(what, e[e_after] / e[e_before], -p.e, 1e-9);
        snprintf(what, sizeof what, "impact %ld: energy taken [J]", impact + 1);
        check(what, e[e_Eb] - e[e_Ea], lost, 1e-8);
      }
      if (fabs(r[c_gap]) > max_gap_at_impact) max_gap_at_impact = fabs(r[c_gap]);
      if (fabs(r[c_t] - e[e_t]) > 0) failures++, printf("FAIL: pre-event row off its event\n");
    } else if (kinds[i] == MBDAE_SERIES_POST_EVENT && impact < nev) {
      e_since = (ev + impact * nevcols)[e_Ea];
      impact++;
    } else if (kinds[i] == MBDAE_SERIES_SAMPLE && !isnan(e_since)) {
      double d = fabs(r[c_E] - e_since);
      if (d > drift) drift = d;
    }
  }
  const double scale = (p.m1 + p.m2) * p.g * (p.l1 + p.l2);
  printf("  %-44s %.3g m\n", "largest |gap| at a pre-event row", max_gap_at_impact);
  if (max_gap_at_impact > 1e-8) failures++, printf("FAIL: impacts not located on the wall\n");
  printf("  %-44s %.3g (of (m1+m2) g (l1+l2))\n", "energy drift between impacts", drift / scale);
  if (drift / scale > 1e-7) failures++, printf("FAIL: energy not conserved between impacts\n");

  /* e = 1: no energy is taken at all */
  const char *elastic[] = {"parameters.e=1"};
  rc = mbdae_simulation_override(sim, elastic, 1, err, sizeof err);
  if (!rc) rc = mbdae_simulation_run(sim, NULL, MBDAE_SIM_KEEP, err, sizeof err);
  if (rc) {
    printf("FAIL: e = 1: %s\n", err);
    failures++;
  } else {
    mbdae_simulation_series(sim, &rows, &nrows, &ncols);
    double E0 = rows[c_E], E1 = rows[(nrows - 1) * ncols + c_E];
    printf("  %-44s %.3g (of (m1+m2) g (l1+l2))\n", "e = 1: energy change over the run",
           fabs(E1 - E0) / scale);
    if (fabs(E1 - E0) / scale > 1e-7) failures++, printf("FAIL: e = 1 loses energy\n");
  }
  char *summary = mbdae_simulation_summary_json(sim);
  if (!summary || !strstr(summary, "\"impacts\"")) failures++, printf("FAIL: summary\n");
  mbdae_free(summary);
  mbdae_simulation_free(&sim);
  if (failures) {
    printf("%d checks FAILED\n", failures);
    return 1;
  }
  printf("all checks passed\n");
  return 0;
}
