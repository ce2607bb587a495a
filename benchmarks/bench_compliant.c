/* bench_compliant.c - work and precision of the physically compliant models
 * (issue 19): the elastic-thread net capture with Hunt-Crossley contact
 * (net_capture mode compliant), the tethered tow (model kind tow) and the
 * elastic spinning nets (string_net mode elastic), one measurement per call
 * through the work-precision core (workprec.h: forked children, CPU medians,
 * error against a reference on the output grid).
 *
 * Usage: bench_compliant SCENARIO METHOD TOL [--set KEY=VALUE]... [--label L]
 *                        [--problem NAME] [--linsol dense|klu|spgmr|spgmr-jacobi]
 *                        [--ordering amd|colamd|natural|metis] [--atol-ratio R]
 *                        [--save REF] [--ref REF] [--repeats K] [--budget S]
 *                        [--cpu-limit S] [--csv FILE] [--header] [--bodies]
 *   SCENARIO: a scenario file of one of the three kinds; --set overrides it
 *   (as `mbdae run --set`), e.g. the net size or t_end.
 *   METHOD: ida | cvode-bdf | arkode | cvode-adams | rk4. TOL: rtol (atol =
 *   R rtol, default R = 1e-2: positions in metres), or RK4's fixed step.
 *   Implicit methods use KLU with the ordering given (default: the
 *   scenario's solver.ordering) unless --linsol dense.
 *   --save REF writes the run's samples as a reference; --ref REF compares
 *   with one. Compared: the position of every point (net points, tether
 *   nodes and the chaser) and the body's centre and its vertices (net_capture:
 *   the polytope's vertices; tow: the centre only), per point the Euclidean
 *   error; err_max = max over the output grid and the points. --bodies:
 *   the rigid parts only (tow: chaser and body centre; net_capture: the
 *   body's centre and vertices).
 *   --repeats K (default 3) children, median CPU; --budget S stops repeating
 *   once S CPU seconds were used (default 30); --cpu-limit S stops a child at
 *   its first output time after S CPU seconds (t_reached < t_end).
 * Prints (and appends to --csv, after a header with --header) the core's CSV
 * row (wp_csv_header) with the label as `method`, then on stderr a line with
 * the Newton and error-test failures and the mean order. */
#define _DEFAULT_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORKPREC_IMPLEMENTATION
#include "workprec.h"

#include "capture/capture_internal.h"
#include "polytope/polytope.h"
#include "polytope/rigid_body.h"
#include "strings/string_net_model.h"
#include "tow/tow.h"

typedef enum { KIND_CAPTURE, KIND_TOW, KIND_STRINGS } bench_kind;

/* --bodies: compare the rigid parts only (tow: the chaser and the body's
 * centre; net_capture: the body's centre and vertices), where the threads'
 * own paths are sensitive (a slack tether buckling, net points sliding) */
static int bodies_only;

/* The model behind the opaque handle: every kind's create returns its own
 * model struct cast to mbdae_model (models/<kind>/<kind>_kind.c). */
static int count_points(const mbdae_model_kind *k, mbdae_model *md, void *ud) {
  (void)k;
  switch (*(bench_kind *)ud) {
  case KIND_CAPTURE: {
    const capture_model *m = (const capture_model *)md;
    return 3 * ((bodies_only ? 0 : m->np) + 1 + m->body->nv);
  }
  case KIND_TOW: {
    const tow_model *m = (const tow_model *)md;
    return bodies_only ? 6 : 3 * (m->npt + 1);
  }
  case KIND_STRINGS:
  default: {
    const snm_model *m = (const snm_model *)md;
    return 3 * m->net->np;
  }
  }
}

static int extract_points(const mbdae_model_kind *k, mbdae_model *md, double t, const double *y,
                          const double *yp, double *q, void *ud) {
  (void)k;
  (void)t;
  (void)yp;
  switch (*(bench_kind *)ud) {
  case KIND_CAPTURE: {
    const capture_model *m = (const capture_model *)md;
    int np = bodies_only ? 0 : m->np;
    memcpy(q, y, (size_t)(3 * np) * sizeof *q);
    const double *P = &y[m->boff + MBDAE_RB_P];
    double C[9];
    mbdae_rb_rotation(&y[m->boff + MBDAE_RB_Q], C);
    memcpy(&q[3 * np], P, 3 * sizeof *q);
    for (int v = 0; v < m->body->nv; ++v) {
      const double *r = &m->body->v[3 * v];
      for (int c = 0; c < 3; ++c)
        q[3 * (np + 1 + v) + c] = P[c] + C[3 * c] * r[0] + C[3 * c + 1] * r[1] +
                                     C[3 * c + 2] * r[2];
    }
    return 0;
  }
  case KIND_TOW: {
    const tow_model *m = (const tow_model *)md;
    int npt = bodies_only ? 1 : m->npt; /* the chaser is point 0 */
    memcpy(q, y, (size_t)(3 * npt) * sizeof *q);
    memcpy(&q[3 * npt], &y[m->boff + MBDAE_RB_P], 3 * sizeof *q);
    return 0;
  }
  case KIND_STRINGS:
  default: {
    const snm_model *m = (const snm_model *)md;
    memcpy(q, y, (size_t)(3 * m->net->np) * sizeof *q);
    return 0;
  }
  }
}

static int parse_method(const char *s, wp_method *m) {
  static const struct {
    const char *name;
    mbdae_method method;
  } names[] = {{"ida", MBDAE_METHOD_IDA},         {"cvode-bdf", MBDAE_METHOD_CVODE_BDF},
               {"arkode", MBDAE_METHOD_ARKODE},   {"cvode-adams", MBDAE_METHOD_CVODE_ADAMS},
               {"rk4", MBDAE_METHOD_RK4}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (strcmp(s, names[i].name) == 0) {
      m->method = names[i].method;
      return 0;
    }
  return -1;
}

static int parse_ordering(const char *s, mbdae_ordering *o) {
  static const char *const names[] = {"amd", "colamd", "natural", "metis"};
  for (int i = 0; i < 4; ++i)
    if (strcmp(s, names[i]) == 0) {
      *o = (mbdae_ordering)i;
      return 0;
    }
  return -1;
}

static int usage(void) {
  fprintf(stderr, "usage: bench_compliant SCENARIO METHOD TOL [--set KEY=VALUE]... [--label L]\n"
                  "       [--problem NAME] [--linsol dense|klu|spgmr|spgmr-jacobi] [--ordering ORD] [--atol-ratio R]\n"
                  "       [--save REF] [--ref REF] [--repeats K] [--budget S] [--cpu-limit S]\n"
                  "       [--csv FILE] [--header] [--bodies]\n");
  return 2;
}

int main(int argc, char **argv) {
  if (argc < 4) return usage();
  enum { MAX_SETS = 64 };
  const char *sets[MAX_SETS];
  int nsets = 0, header = 0, have_ordering = 0;
  const char *label = NULL, *problem = NULL, *csv = NULL;
  wp_method m = {NULL, MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU, MBDAE_ORDERING_AMD, 0, 0};
  wp_opts op;
  wp_opts_default(&op);
  op.atol_ratio = 1e-2;
  op.cpu_budget = 30.0;
  op.min_cpu = 0.0;
  if (parse_method(argv[2], &m) != 0) return usage();
  char *end = NULL;
  double tol = strtod(argv[3], &end);
  if (!end || *end || !(tol > 0)) return usage();
  for (int i = 4; i < argc; ++i) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--header") == 0 || strcmp(a, "--bodies") == 0) {
      *(a[2] == 'h' ? &header : &bodies_only) = 1;
      continue;
    }
    if (!v) return usage();
    ++i;
    if (strcmp(a, "--set") == 0 && nsets < MAX_SETS) sets[nsets++] = v;
    else if (strcmp(a, "--label") == 0) label = v;
    else if (strcmp(a, "--problem") == 0) problem = v;
    else if (strcmp(a, "--csv") == 0) csv = v;
    else if (strcmp(a, "--save") == 0) op.save = v;
    else if (strcmp(a, "--ref") == 0) op.ref = v;
    else if (strcmp(a, "--repeats") == 0) op.repeats = atoi(v);
    else if (strcmp(a, "--budget") == 0) op.cpu_budget = atof(v);
    else if (strcmp(a, "--cpu-limit") == 0) op.cpu_limit = atof(v);
    else if (strcmp(a, "--atol-ratio") == 0) op.atol_ratio = atof(v);
    else if (strcmp(a, "--linsol") == 0) {
      if (strcmp(v, "dense") == 0) m.linsol = MBDAE_LINSOL_DENSE;
      else if (strcmp(v, "klu") == 0) m.linsol = MBDAE_LINSOL_KLU;
      else if (strcmp(v, "spgmr") == 0) m.linsol = MBDAE_LINSOL_SPGMR;
      else if (strcmp(v, "spgmr-jacobi") == 0) m.linsol = MBDAE_LINSOL_SPGMR_JACOBI;
      else return usage();
    } else if (strcmp(a, "--ordering") == 0) {
      if (parse_ordering(v, &m.ordering) != 0) return usage();
      have_ordering = 1;
    } else {
      return usage();
    }
  }
  char err[1024];
  mbdae_scenario s;
  if (mbdae_scenario_load(argv[1], sets, nsets, &s, err, sizeof err) != MBDAE_OK) {
    fprintf(stderr, "%s\n", err);
    return 2;
  }
  bench_kind kind;
  if (strcmp(s.kind->name, "net_capture") == 0) kind = KIND_CAPTURE;
  else if (strcmp(s.kind->name, "tow") == 0) kind = KIND_TOW;
  else if (strcmp(s.kind->name, "string_net") == 0) kind = KIND_STRINGS;
  else {
    fprintf(stderr, "bench_compliant: model kind %s is not one of net_capture, tow, string_net\n",
            s.kind->name);
    mbdae_scenario_free(&s);
    return 2;
  }
  if (!have_ordering) m.ordering = s.options.ordering;
  if (m.method == MBDAE_METHOD_RK4 || m.method == MBDAE_METHOD_CVODE_ADAMS)
    m.linsol = MBDAE_LINSOL_DENSE; /* explicit / fixed-point: no linear solver */
  char deflabel[64];
  snprintf(deflabel, sizeof deflabel, "%s", argv[2]);
  m.label = label ? label : deflabel;
  wp_problem pb;
  memset(&pb, 0, sizeof pb);
  pb.name = problem ? problem : s.stem;
  pb.scenario = &s;
  pb.count = count_points;
  pb.extract = extract_points;
  pb.ud = &kind;
  pb.group = 3;
  wp_result r;
  if (wp_measure(&pb, &m, tol, &op, &r) < 0) {
    fprintf(stderr, "bench_compliant: %s\n", r.message);
    mbdae_scenario_free(&s);
    return 1;
  }
  if (header) wp_csv_header(stdout);
  wp_csv_row(stdout, &pb, &m, &r);
  if (csv) {
    FILE *f = fopen(csv, "a");
    if (!f) {
      fprintf(stderr, "bench_compliant: cannot append to %s\n", csv);
    } else {
      if (header) wp_csv_header(f);
      wp_csv_row(f, &pb, &m, &r);
      fclose(f);
    }
  }
  fprintf(stderr, "%s %s %g: newton_fails %ld err_test_fails %ld newton_iters %ld", pb.name,
          m.label, tol, r.newton_fails, r.err_test_fails, r.newton_iters);
  if (m.linsol == MBDAE_LINSOL_SPGMR || m.linsol == MBDAE_LINSOL_SPGMR_JACOBI)
    fprintf(stderr, " krylov_iters %ld prec_evals %ld", r.krylov_iters, r.prec_factors);
  fprintf(stderr, "\n");
  mbdae_scenario_free(&s);
  return r.status < 0 ? 1 : 0;
}
