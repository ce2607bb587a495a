/* bench_peers_models.c - issue 9's model problems measured per method over
 * tolerances with the work-precision core (benchmarks/workprec.h: one forked
 * child per run, median CPU/wall of up to 3, error on the output grid
 * against a reference file written by the tightest run of another method).
 *
 * Usage: bench_peers_models OUTDIR [--scenarios DIR] [--only NAME]
 *   OUTDIR/wp_<problem>.csv (wp_csv_header columns). Scenarios are read from
 *   DIR (default: scenarios, i.e. run from the repository root).
 *
 * Problems (compared quantities; reference):
 *   rover     scenarios/rover_sim2_consistent.yaml, 600 s, dt_out 0.5 s:
 *             omega_s1..3, phidot, vx, vy, x, y (max abs difference);
 *             reference RK4 h = 1.25e-3 s (bench_rover: it agrees with CVODE
 *             rtol 1e-13 to ~1e-8).
 *   billiard  scenarios/billiard_parabola_5p4.yaml (the stable period-one
 *             orbit; the wedge and hyperbola runs are chaotic,
 *             benchmarks/log/2026-11-23.md)
 *             over t = 0..2310 s with the collision limit lifted: ~25,000
 *             collisions in every run; q1, q2 (m, max abs); reference CVODE BDF rtol
 *             1e-11.
 *   ravine    scenarios/ravine_example_4_2.yaml (one run of a sweep slice:
 *             the hartl 4.2 case to its crossing); x, y, z, vx, vy, vz;
 *             reference RK4 h = 1e-5 s.
 *   deploy10  the deploying 10 x 10 net of bench_strings (L = 0.1 m, 0.01 kg,
 *             corners 0.05 kg, t_deploy 0.5 s, xi 0.5, omega_n 40), t =
 *             0..0.7 s, dt_out 0.05; all point positions (per-point norm, m);
 *             reference RK4 h = 1.25e-4 s with located switches (as
 *             run_bench_strings.sh). */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORKPREC_IMPLEMENTATION
#include "workprec.h"

#include "mbdae/status.h"
#include "strings/string_net_model.h"

/* ---- compared quantities: named columns of the model's output row ----- */
typedef struct colsel {
  const char *const *names; /* NULL-terminated */
  int idx[16];
  int n;
  int ncols;
  double *row;
} colsel;

static int sel_count(const mbdae_model_kind *k, mbdae_model *m, void *ud) {
  colsel *c = ud;
  int nc = k->columns(m, NULL, 0);
  if (nc <= 0) return -1;
  mbdae_column *cols = calloc((size_t)nc, sizeof *cols);
  free(c->row);
  c->row = calloc((size_t)nc, sizeof(double));
  if (!cols || !c->row) {
    free(cols);
    return -1;
  }
  k->columns(m, cols, nc);
  c->ncols = nc;
  c->n = 0;
  for (int a = 0; c->names[a] && c->n < 16; ++a)
    for (int b = 0; b < nc; ++b)
      if (strcmp(cols[b].name, c->names[a]) == 0) c->idx[c->n++] = b;
  free(cols);
  return c->n > 0 ? c->n : -1;
}

static int sel_extract(const mbdae_model_kind *k, mbdae_model *m, double t, const double *y,
                       const double *yp, double *q, void *ud) {
  colsel *c = ud;
  int rc = k->output_row(m, t, y, yp, c->row);
  if (rc) return rc < 0 ? rc : -1;
  for (int a = 0; a < c->n; ++a) q[a] = c->row[c->idx[a]];
  return 0;
}

/* string_net: all point positions (y starts with R in both forms) */
static int sn_count(const mbdae_model_kind *k, mbdae_model *m, void *ud) {
  (void)k;
  (void)ud;
  return 3 * ((snm_model *)m)->net->np;
}

static int sn_extract(const mbdae_model_kind *k, mbdae_model *m, double t, const double *y,
                      const double *yp, double *q, void *ud) {
  (void)k;
  (void)t;
  (void)yp;
  (void)ud;
  memcpy(q, y, 3 * (size_t)((snm_model *)m)->net->np * sizeof *q);
  return 0;
}

/* ---- one problem: reference, then every method over its ladder --------- */
typedef struct ladder {
  wp_method m;
  double tols[8];
  int n;
} ladder;

static void run_problem(const char *outdir, wp_problem *pb, const wp_method *refm,
                        double ref_tol, const ladder *lad, int nlad) {
  char path[1024], ref[1024];
  snprintf(path, sizeof path, "%s/wp_%s.csv", outdir, pb->name);
  snprintf(ref, sizeof ref, "%s/wp_%s.ref", outdir, pb->name);
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "cannot write %s\n", path);
    return;
  }
  wp_csv_header(f);
  wp_opts o;
  wp_opts_default(&o);
  o.repeats = 3;
  o.cpu_budget = 6.0;
  o.cpu_limit = 120.0;
  o.save = ref;
  wp_result r;
  if (wp_measure(pb, refm, ref_tol, &o, &r) == 0) {
    fprintf(f, "# reference: ");
    wp_csv_row(f, pb, refm, &r);
  }
  printf("%s: reference %s %g status %d cpu %.3g s\n", pb->name, refm->label, ref_tol,
         r.status, r.cpu);
  fflush(stdout);
  o.save = NULL;
  o.ref = ref;
  for (int a = 0; a < nlad; ++a)
    for (int i = 0; i < lad[a].n; ++i) {
      if (wp_measure(pb, &lad[a].m, lad[a].tols[i], &o, &r)) continue;
      wp_csv_row(f, pb, &lad[a].m, &r);
      printf("%s %-12s %-8g status %d err_max %.3e cpu %.3g s steps %ld rhs %ld events %ld\n",
             pb->name, lad[a].m.label, lad[a].tols[i], r.status, r.err_max, r.cpu, r.steps,
             r.rhs_evals, r.events);
      fflush(stdout);
    }
  fclose(f);
}

static int load(const char *dir, const char *file, const char *const *sets, int nsets,
                mbdae_scenario *s) {
  char path[1024], err[1024];
  snprintf(path, sizeof path, "%s/%s", dir, file);
  if (mbdae_scenario_load(path, sets, nsets, s, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return -1;
  }
  return 0;
}

#define M(l, meth, ls) {.label = l, .method = meth, .linsol = ls, .ordering = MBDAE_ORDERING_AMD}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUTDIR [--scenarios DIR] [--only NAME]\n", argv[0]);
    return 2;
  }
  const char *out = argv[1], *dir = "scenarios", *only = NULL;
  for (int a = 2; a + 1 < argc; a += 2) {
    if (strcmp(argv[a], "--scenarios") == 0) dir = argv[a + 1];
    else if (strcmp(argv[a], "--only") == 0) only = argv[a + 1];
  }
  const wp_method cvode_bdf = M("cvode-bdf", MBDAE_METHOD_CVODE_BDF, MBDAE_LINSOL_DENSE);
  const wp_method rk4 = M("rk4", MBDAE_METHOD_RK4, MBDAE_LINSOL_DENSE);
  mbdae_scenario s;

  if (!only || strcmp(only, "rover") == 0) {
    const char *sets[] = {"solver.t_end=600", "solver.dt_out=0.5"};
    static const char *const names[] = {"omega_s1", "omega_s2", "omega_s3", "phidot", "vx", "vy", "x", "y", NULL};
    colsel cs = {.names = names};
    if (load(dir, "rover_sim2_consistent.yaml", sets, 2, &s) == 0) {
      wp_problem pb = {.name = "rover", .scenario = &s, .count = sel_count,
                       .extract = sel_extract, .ud = &cs, .group = 1};
      ladder lad[] = {
        {M("cvode-bdf", MBDAE_METHOD_CVODE_BDF, MBDAE_LINSOL_DENSE), {1e-5, 1e-7, 1e-9, 1e-10}, 4},
        {M("cvode-adams", MBDAE_METHOD_CVODE_ADAMS, MBDAE_LINSOL_DENSE), {1e-5, 1e-7, 1e-9, 1e-10}, 4},
        {M("ida", MBDAE_METHOD_IDA, MBDAE_LINSOL_DENSE), {1e-6, 1e-8, 1e-10}, 3},
        {M("rk4", MBDAE_METHOD_RK4, MBDAE_LINSOL_DENSE), {2e-2, 1e-2, 5e-3}, 3},
      };
      run_problem(out, &pb, &rk4, 1.25e-3, lad, 4);
      mbdae_scenario_free(&s);
    }
    free(cs.row);
  }
  if (!only || strcmp(only, "billiard") == 0) {
    const char *sets[] = {"solver.t_end=2310", "parameters.collisions=1000000"};
    static const char *const names[] = {"q1", "q2", NULL};
    colsel cs = {.names = names};
    if (load(dir, "billiard_parabola_5p4.yaml", sets, 2, &s) == 0) {
      wp_problem pb = {.name = "billiard", .scenario = &s, .count = sel_count,
                       .extract = sel_extract, .ud = &cs, .group = 1};
      ladder lad[] = {
        {M("cvode-adams", MBDAE_METHOD_CVODE_ADAMS, MBDAE_LINSOL_DENSE), {1e-6, 1e-8, 1e-10}, 3},
        {M("cvode-bdf", MBDAE_METHOD_CVODE_BDF, MBDAE_LINSOL_DENSE), {1e-6, 1e-8}, 2},
        {M("rk4", MBDAE_METHOD_RK4, MBDAE_LINSOL_DENSE), {1e-3, 2.5e-4}, 2},
      };
      run_problem(out, &pb, &cvode_bdf, 1e-11, lad, 3);
      mbdae_scenario_free(&s);
    }
    free(cs.row);
  }
  if (!only || strcmp(only, "ravine") == 0) {
    static const char *const names[] = {"x", "y", "z", "vx", "vy", "vz", NULL};
    colsel cs = {.names = names};
    if (load(dir, "ravine_example_4_2.yaml", NULL, 0, &s) == 0) {
      wp_problem pb = {.name = "ravine", .scenario = &s, .count = sel_count,
                       .extract = sel_extract, .ud = &cs, .group = 1};
      ladder lad[] = {
        {M("cvode-adams", MBDAE_METHOD_CVODE_ADAMS, MBDAE_LINSOL_DENSE), {1e-6, 1e-8, 1e-10}, 3},
        {M("cvode-bdf", MBDAE_METHOD_CVODE_BDF, MBDAE_LINSOL_DENSE), {1e-6, 1e-8, 1e-10}, 3},
        {M("rk4", MBDAE_METHOD_RK4, MBDAE_LINSOL_DENSE), {1e-3, 1e-4}, 2},
      };
      run_problem(out, &pb, &rk4, 1e-5, lad, 3);
      mbdae_scenario_free(&s);
    }
    free(cs.row);
  }
  if (!only || strcmp(only, "deploy10") == 0) {
    const char *sets[] = {"parameters.grid_n=10", "parameters.grid_m=10",
                          "parameters.length=0.1", "solver.t_end=0.7", "solver.dt_out=0.05",
                          "parameters.max_output_columns=0"};
    if (load(dir, "net_deploy.yaml", sets, 6, &s) == 0) {
      wp_problem pb = {.name = "deploy10", .scenario = &s, .count = sn_count,
                       .extract = sn_extract, .group = 3};
      ladder lad[] = {
        {M("ida-klu", MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU), {1e-4, 1e-6, 1e-8}, 3},
        {M("cvode-adams", MBDAE_METHOD_CVODE_ADAMS, MBDAE_LINSOL_DENSE), {1e-4, 1e-6, 1e-8}, 3},
        {M("rk4", MBDAE_METHOD_RK4, MBDAE_LINSOL_DENSE), {4e-3, 1e-3, 2.5e-4}, 3},
      };
      run_problem(out, &pb, &rk4, 1.25e-4, lad, 3);
      mbdae_scenario_free(&s);
    }
  }
  return 0;
}
