/* bench_workprec.c - work-precision benchmarks of issue 9 for the string
 * problems and the bouncing ball: every applicable integrator over a ladder
 * of tolerances (RK4: of step sizes), error against a reference on the
 * output grid, cost, counters and peak memory per run (one forked child per
 * run, medians of several; the core is benchmarks/workprec.h).
 *
 * Usage: bench_workprec PART OUTDIR [--quick] [--repeats K] [--scenarios DIR]
 *                      [--net-n 21|41] [--omegas W1,W2,...] [--xis X1,X2,...]
 *                      [--ref-cpu-limit S] [--methods W,...] [--cpu-budget S]
 *                      [--ref-rk4 H] [--reuse-ref] [--rk4-from H]
 *                      [--arkode-variant LABEL:KEYS]... [--rtols R1,R2,...]
 *   PART: bola | ball | chain | exact | netexact | reuse | net | netxi | lose | jac |
 *         cross | all
 *   --ref-cpu-limit: CPU limit of the reference runs of chain, exact, netexact,
 *   net, netxi, lose, jac (default 150 s: a costlier reference is not made).
 *   netxi only: --methods runs only the ladders whose label contains one of
 *   the words (e.g. arkode,rk4); --cpu-budget: repeat each setting while its
 *   children used less than S CPU s (default 5: costlier settings run once);
 *   --ref-rk4 H: the reference is RK4 at step H instead of IDA; --reuse-ref:
 *   an OUTDIR/<problem>.ref left by an earlier run is the reference;
 *   --rk4-from H: RK4's ladder starts at its first step <= H (the larger
 *   steps are unstable on the stiff nets and may run to the CPU limit).
 *   --arkode-variant LABEL:KEYS (up to 4): one more ARKODE + KLU METIS ladder,
 *   labelled arkode-LABEL, with these solver keys (YAML flow text, e.g.
 *   "esdirk324:arkode_table: esdirk324"); --rtols: the implicit ladders'
 *   rtols (at most 6; default 1e-3 ... 1e-8 on the 21 x 21 net).
 *   OUTDIR/<problem>.csv: one row per run (wp_csv_header); OUTDIR/summary.txt
 *   gets the comparisons at equal error (appended). --quick: smaller
 *   ladders and sizes (said in summary.txt). Scenario files (bola, ball) are
 *   read from DIR (default: scenarios, i.e. run from the repository root).
 *
 * Problems (doc/strings.md for the model):
 *   bola   scenarios/bola_event.yaml (exact impacts, e = 0.15, Zeno rule,
 *          then taut rotation), dt_out 0.01; reference = the closed form of
 *          validation/strings_bola_exact.c with the model's Zeno rule applied
 *          (the impact whose separation speed e w_n is below zeno_ratio |W|
 *          is plastic, then rigid rotation); exact event times.
 *   ball   scenarios/ball.yaml (e = 0.7, rest at impact 10): closed-form
 *          parabolas and impact times, written here.
 *   chain  N = 1000 points, 1 m, 1 kg, spinning at 2 rad/s with a 0.2 m/s
 *          transverse half-sine (bench_strings' chain), Baumgarte strings
 *          xi = 0.5, omega_n = 1e3, t = 0..1 s; reference = CVODE Adams at
 *          rtol 1e-11 (a different method from IDA), checked against IDA
 *          rtol 1e-10 and RK4's smallest step.
 *   net    n x n spinning net (topology spinning_grid: 1 m wide, 1 kg,
 *          2 rad/s, 0.2 m/s out-of-plane bump; every string taut and held by
 *          the Baumgarte law, no events), n = 21, 41, omega_n = 10 ... 1e4,
 *          xi = 0.5, t = 0..0.2 s, release_band 1e-3 (a string is released
 *          only below phi = -1e-3 L^2: the default 1e-9 L^2 let the
 *          integration error of loose tolerances chatter on the release
 *          root; every tension stays positive in these runs, so no string
 *          should release at all); reference = IDA+KLU rtol 1e-10, checked
 *          against RK4's smallest step (41 x 41: rtol 1e-9, ladder to 1e-7).
 *   netxi  the nets of `net` with an overdamped / critically damped
 *          stabilisation, xi = 1 and 2 (real eigenvalues of the constraint
 *          mode phi'' + 2 xi omega_n phi' + omega_n^2 phi = 0: -omega_n twice,
 *          resp. -(2 -+ sqrt 3) omega_n), omega_n = 1e2, 1e3, 1e4; same
 *          reference protocol as `net`; IDA+KLU+METIS order 3 (rtol 1e-3 ...
 *          1e-8; 41 x 41 to 1e-7) and default order (same ladder), order
 *          3 with solver.jac_reuse_cj 0 (rtol 1e-4, 1e-6, 1e-8), CVODE Adams
 *          (1e-4, 1e-6, 1e-8), arkode + KLU + METIS with tables esdirk547 and
 *          esdirk43i6 (the same ladder as IDA), RK4 (10 ms halving to 20 us; the RK4 ladder
 *          stops at the first step whose max grid error is no larger than the
 *          smallest any other run reached, at most 1e-9 m: smaller steps only
 *          cost; RK4's CPU limit 60 s, 41 x 41: 120 s). IDA and Adams run every
 *          tolerance, each run stopped at the CPU limit (20 s; 41 x 41: 60 s),
 *          since the cost is not monotone in rtol on these strings. Newton and
 *          error-test failures per run in summary.txt. "equal accuracy" lines:
 *          RK4's CPU at each run's max grid error, interpolated log-log between
 *          the two RK4 steps that bracket it (compare_rk4_interp).
 *   lose   where the implicit solver loses: the 21 x 21 spinning net at
 *          20 rad/s with a 1 m/s bump (omega_n = 100), t = 0..0.2 s: undamped transverse
 *          waves on strings under high tension, fast oscillations that every
 *          method must resolve for accuracy (no stiffness to exploit).
 *   reuse  the chain with solver.jac_reuse_cj 0 (IDA's own refactorization
 *          rule) instead of the engine's default 0.9, against chain's reference.
 *   jac    IDA dense with the model's analytic Jacobian vs IDA's internal
 *          difference quotients, 6 x 6 spinning net (omega_n = 100).
 *   cross  IDA+KLU vs IDA dense (analytic Jacobian), both max order 3, on
 *          the chain (omega_n = 1e3, t = 0..0.5 s, rtol 1e-6) for N = 10 ...
 *          1000 (dense stops past a CPU limit; the model offers its dense
 *          Jacobian up to 3000 unknowns).
 *   exact  the chain with exact taut strings (mode: event: bilateral
 *          constraints held by the multipliers, no omega_n, no stiffness
 *          penalty; every string stays taut, no events), same initial state;
 *          reference = CVODE Adams at rtol 1e-11.
 *   netexact  the 21 x 21 and 41 x 41 nets of `net` with exact taut strings
 *          (mode: event), reference = CVODE Adams at rtol 1e-11.
 * IDA variants "-o3" cap the BDF order at 3. Measured on the chain
 * (omega_n 1e3, rtol 1e-5, mbdae run with solver.max_order): order 5 1578
 * steps / 2930 factorizations, order 4 164 / 32, order 3 133 / 29, order 2
 * 3389 / 6539. The erratic costs are an order-1 step-size trap of BDF on
 * omega_n-stiff strings, not order instability: benchmarks/log/2026-11-23.md,
 * "Why IDA is erratic on stiff Baumgarte strings".
 * Error: max over points of |r_k - r_k,ref| (m); grid errors at every dt_out. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define WORKPREC_IMPLEMENTATION
#include "workprec.h"

#include "ball/ball.h"
#include "mbdae/status.h"
#include "strings/string_net_model.h"
#include "../validation/strings_bola_exact.h"
#include "../validation/strings_run.h"

typedef struct bench {
  const char *out;
  const char *scen_dir;
  int quick;
  int repeats;
  FILE *summary;
  int net_n;              /* net, netxi parts: only this size (0: 21 and 41) */
  double omegas[4];       /* net, netxi parts: only these omega_n (0: all) */
  double xis[4];          /* netxi part: these xi instead of 1 and 2 (0: default) */
  double ref_cpu_limit;   /* CPU limit of a reference run (s; default 150) */
  const char *methods;    /* netxi part: run only the ladders whose label contains one of
                             these comma-separated words (NULL: all) */
  double cpu_budget;      /* netxi part: repeat a setting while its children used less
                             than this CPU (s; default 5) */
  double ref_rk4_h;       /* netxi part: reference = RK4 at this step instead of IDA (0) */
  int reuse_ref;          /* netxi part: an existing OUTDIR/<problem>.ref is the reference */
  double rk4_from;        /* netxi part: RK4's ladder starts at the first step <= this (0: all) */
  int nvariants;          /* netxi part: extra ARKODE ladders (--arkode-variant) */
  char variant_label[4][48];  /* "arkode-LABEL" */
  const char *variant_keys[4]; /* solver keys of each, YAML flow text */
  double rtols[6];        /* netxi part: the implicit ladders' rtols (0: 1e-3 ... 1e-8) */
  int nrtols;
} bench;

/* ---- quantities compared ------------------------------------------------ */

/* string_net: all point positions (y starts with R in both forms) */
static int sn_count(const mbdae_model_kind *k, mbdae_model *m, void *ud) {
  (void)k; (void)ud;
  return 3 * ((snm_model *)m)->net->np;
}
static int sn_extract(const mbdae_model_kind *k, mbdae_model *m, double t, const double *y,
                      const double *yp, double *q, void *ud) {
  (void)k; (void)t; (void)yp; (void)ud;
  memcpy(q, y, 3 * (size_t)((snm_model *)m)->net->np * sizeof *q);
  return 0;
}
/* ball: the height */
static int ball_count(const mbdae_model_kind *k, mbdae_model *m, void *ud) {
  (void)k; (void)m; (void)ud;
  return 1;
}
static int ball_extract(const mbdae_model_kind *k, mbdae_model *m, double t, const double *y,
                        const double *yp, double *q, void *ud) {
  (void)k; (void)m; (void)t; (void)yp; (void)ud;
  q[0] = y[BALL_Q];
  return 0;
}

/* ---- closed forms -------------------------------------------------------- */

/* bola: validation's closed form, cut at the impact the model's Zeno rule
 * makes plastic (string_net_events.c: plastic when e S.W/L < zeno_ratio |W|, W the
 * pre-impact relative velocity); after it the pair rotates rigidly with the
 * tangential relative velocity. */
typedef struct bola_ref {
  bola_exact b;
  double ev[BOLA_MAX_IMPACTS];
  int nev;
} bola_ref;

static int bola_ref_build(bola_ref *r, const snm_params *p, double t_end) {
  memset(r, 0, sizeof *r);
  bola_exact *b = &r->b;
  strings_seed_bola_exact(b, p);
  if (bola_exact_solve(b, t_end) != 0) return -1;
  double w[3];
  for (int c = 0; c < 3; ++c) w[c] = p->v2[c] - p->v1[c];
  for (int k = 0; k < b->nimp; ++k) {
    double wpre[3];
    memcpy(wpre, k == 0 ? w : b->w_post[k - 1], sizeof wpre);
    double nw = sqrt(wpre[0] * wpre[0] + wpre[1] * wpre[1] + wpre[2] * wpre[2]);
    r->ev[r->nev++] = b->t_imp[k];
    if (p->e == 0.0 || p->e * b->wn_pre[k] < p->zeno_ratio * nw) {
      double n[3], wt[3], dn = 0.0;
      for (int c = 0; c < 3; ++c) n[c] = b->d_imp[k][c] / b->L;
      for (int c = 0; c < 3; ++c) dn += wpre[c] * n[c];
      for (int c = 0; c < 3; ++c) wt[c] = wpre[c] - dn * n[c];
      b->nimp = k + 1;
      b->accumulates = 1;
      b->t_inf = b->t_imp[k];
      memcpy(b->d_inf, b->d_imp[k], sizeof b->d_inf);
      memcpy(b->w_inf, wt, sizeof b->w_inf);
      break;
    }
  }
  return 0;
}

static int bola_exact_q(double t, double *q, void *ud) {
  double v[6];
  bola_exact_state(&((bola_ref *)ud)->b, t, q, v);
  return 0;
}

/* ball: dropped from h0 with v0 (upward positive), Newton impacts
 * v+ = -e v-, rest at the first impact with e |v-| < zeno_velocity
 * (ball_model.c's rule with zeno_time 0, no lift). */
typedef struct ball_ref {
  double g, t_imp[64], v_post[64];
  int nimp;
  double h0, v0, t_rest;
} ball_ref;

static void ball_ref_build(ball_ref *r, const ball_params *p) {
  memset(r, 0, sizeof *r);
  r->g = p->g;
  r->h0 = p->h0;
  r->v0 = p->v0;
  r->t_rest = HUGE_VAL;
  /* first impact: h0 + v0 t - g t^2 / 2 = 0 */
  double t = (p->v0 + sqrt(p->v0 * p->v0 + 2.0 * p->g * p->h0)) / p->g;
  double vm = p->v0 - p->g * t; /* < 0 */
  while (r->nimp < 64) {
    int k = r->nimp++;
    r->t_imp[k] = t;
    double vp = -p->e * vm;
    if (vp < p->zeno_velocity) {
      r->v_post[k] = 0.0;
      r->t_rest = t;
      break;
    }
    r->v_post[k] = vp;
    t += 2.0 * vp / p->g;
    vm = -vp;
  }
}

static int ball_exact_q(double t, double *q, void *ud) {
  const ball_ref *r = ud;
  if (t >= r->t_rest) {
    q[0] = 0.0;
    return 0;
  }
  int k = -1;
  while (k + 1 < r->nimp && r->t_imp[k + 1] <= t) ++k;
  if (k < 0) {
    q[0] = r->h0 + r->v0 * t - 0.5 * r->g * t * t;
  } else {
    double s = t - r->t_imp[k];
    q[0] = r->v_post[k] * s - 0.5 * r->g * s * s;
  }
  return 0;
}

/* ---- utilities ----------------------------------------------------------- */

static const wp_method M_IDA_KLU = {"ida-klu", MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU,
                                    MBDAE_ORDERING_AMD, 0, 0};
static const wp_method M_IDA_KLU_O3 = {"ida-klu-o3", MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU,
                                       MBDAE_ORDERING_AMD, 0, 3};
static const wp_method M_IDA_KLU_METIS = {"ida-klu-metis", MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU,
                                          MBDAE_ORDERING_METIS, 0, 0};
static const wp_method M_IDA_KLU_METIS_O3 = {"ida-klu-metis-o3", MBDAE_METHOD_IDA,
                                             MBDAE_LINSOL_KLU, MBDAE_ORDERING_METIS, 0, 3};
static const wp_method M_IDA_DENSE = {"ida-dense", MBDAE_METHOD_IDA, MBDAE_LINSOL_DENSE,
                                      MBDAE_ORDERING_AMD, 0, 0};
static const wp_method M_IDA_DENSE_O3 = {"ida-dense-o3", MBDAE_METHOD_IDA, MBDAE_LINSOL_DENSE,
                                         MBDAE_ORDERING_AMD, 0, 3};
static const wp_method M_IDA_DENSE_DQ = {"ida-dense-dq", MBDAE_METHOD_IDA, MBDAE_LINSOL_DENSE,
                                         MBDAE_ORDERING_AMD, 1, 0};
static const wp_method M_BDF_DENSE = {"cvode-bdf-dense", MBDAE_METHOD_CVODE_BDF,
                                      MBDAE_LINSOL_DENSE, MBDAE_ORDERING_AMD, 0, 0};
static const wp_method M_BDF_KLU = {"cvode-bdf-klu", MBDAE_METHOD_CVODE_BDF, MBDAE_LINSOL_KLU,
                                    MBDAE_ORDERING_AMD, 0, 0};
static const wp_method M_ADAMS = {"cvode-adams", MBDAE_METHOD_CVODE_ADAMS, MBDAE_LINSOL_DENSE,
                                  MBDAE_ORDERING_AMD, 0, 0};
static const wp_method M_RK4 = {"rk4", MBDAE_METHOD_RK4, MBDAE_LINSOL_DENSE, MBDAE_ORDERING_AMD,
                                0, 0};

static void say(bench *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  fflush(stdout);
  if (b->summary) {
    va_start(ap, fmt);
    vfprintf(b->summary, fmt, ap);
    va_end(ap);
    fflush(b->summary);
  }
}

static FILE *open_csv(bench *b, const char *problem) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s.csv", b->out, problem);
  FILE *f = fopen(path, "w");
  if (f) wp_csv_header(f);
  else fprintf(stderr, "cannot write %s\n", path);
  return f;
}

static void print_row(const wp_problem *pb, const wp_method *m, const wp_result *r) {
  printf("  %-14s %-16s tol %-9.3g st %d err_end %.3e err_max %.3e cpu %.4g s wall %.4g s "
         "(x%d) steps %ld f %ld jac %ld fact %ld ev %ld rss %.1f MB%s%s\n",
         pb->name, m->label, r->tol, r->status, r->err_end, r->err_max, r->cpu, r->wall, r->reps,
         r->steps, r->rhs_evals, r->jac_evals, r->lin_setups, r->events, r->peak_rss_mb,
         r->message[0] ? " | " : "", r->message);
  fflush(stdout);
}

/* Run m on every tol; stop the ladder after a run that failed or hit the
 * CPU limit (tighter settings cost more). Results go to res[] (may be NULL). */
/* One measured row: run, print, CSV. <0 when the run could not be made. */
static int measure_row(FILE *csv, const wp_problem *pb, const wp_method *m, double tol,
                       const wp_opts *op, wp_result *r) {
  if (wp_measure(pb, m, tol, op, r) < 0) return -1;
  print_row(pb, m, r);
  if (csv) wp_csv_row(csv, pb, m, r);
  return 0;
}

static int ladder(FILE *csv, const wp_problem *pb, const wp_method *m, const double *tols,
                  int ntol, const wp_opts *op, wp_result *res) {
  int n = 0;
  for (int i = 0; i < ntol; ++i) {
    wp_result r;
    if (measure_row(csv, pb, m, tols[i], op, &r) < 0) break;
    if (res) res[n] = r;
    ++n;
    /* RK4: an unstable (too large) step fails, or releases strings and
     * hits the CPU limit with events; smaller steps may still succeed */
    if (m->method == MBDAE_METHOD_RK4 ? r.status == MBDAE_STOPPED && r.events == 0
                                      : r.status == MBDAE_STOPPED || r.status < 0)
      break;
  }
  return n;
}

/* cheapest (CPU) run of a ladder whose end-point error is at most target */
static const wp_result *cheapest_at(const wp_result *r, int n, double target) {
  const wp_result *best = NULL;
  for (int i = 0; i < n; ++i)
    if (r[i].status == 0 && r[i].err_end <= target && (!best || r[i].cpu < best->cpu))
      best = &r[i];
  return best;
}

static void compare_at(bench *b, const char *problem, double target, const char *la,
                       const wp_result *ra, int na, const char *lb, const wp_result *rb,
                       int nb) {
  const wp_result *a = cheapest_at(ra, na, target), *c = cheapest_at(rb, nb, target);
  if (!a || !c) {
    say(b, "%s: at end error <= %.0e: %s %s, %s %s\n", problem, target, la,
        a ? "reached" : "NOT reached", lb, c ? "reached" : "NOT reached");
    return;
  }
  say(b,
      "%s: at end error <= %.0e: %s tol %g (err %.2e) CPU %.4g s wall %.4g s f %ld | "
      "%s tol %g (err %.2e) CPU %.4g s wall %.4g s f %ld | CPU ratio %s/%s = %.3g, "
      "evaluations ratio = %.3g\n",
      problem, target, la, a->tol, a->err_end, a->cpu, a->wall, a->rhs_evals, lb, c->tol,
      c->err_end, c->cpu, c->wall, c->rhs_evals, lb, la, c->cpu / a->cpu,
      (double)c->rhs_evals / (double)a->rhs_evals);
}

static int load_text(const char *name, const char *text, mbdae_scenario *s) {
  char err[1024];
  if (mbdae_scenario_load_string(NULL, name, text, NULL, 0, s, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return -1;
  }
  return 0;
}

static int load_file(bench *b, const char *file, const char *const *sets, int nsets,
                     mbdae_scenario *s) {
  char path[1024], err[1024];
  snprintf(path, sizeof path, "%s/%s", b->scen_dir, file);
  if (mbdae_scenario_load(path, sets, nsets, s, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    return -1;
  }
  return 0;
}

static const double RTOLS[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
enum { NRTOLS = sizeof RTOLS / sizeof RTOLS[0] };

/* ---- (a) bola, (b) ball: exact references, event times ------------------- */

static void event_summary(bench *b, const char *problem, const wp_method *m, const wp_result *r,
                          int n, int nexp) {
  for (int i = 0; i < n; ++i) {
    double lim = 10.0 * r[i].tol;
    int ok = r[i].status == 0 && r[i].ev_missed == 0 && r[i].ev_extra == 0 &&
             (m->method == MBDAE_METHOD_RK4 || r[i].ev_err_max <= lim);
    say(b, "%s events %-16s tol %-8.3g: %ld of %d expected, missed %d, extra %d, max |dt| %.2e s%s%s\n",
        problem, m->label, r[i].tol, r[i].events, nexp, r[i].ev_missed, r[i].ev_extra,
        r[i].ev_err_max,
        m->method == MBDAE_METHOD_RK4 ? "" : (r[i].ev_err_max <= lim ? " (<= 10 rtol)" : " (> 10 rtol)"),
        ok ? "" : "  <-- target missed");
  }
}

static void part_bola(bench *b) {
  mbdae_scenario s;
  const char *sets[] = {"solver.dt_out=0.01"};
  if (load_file(b, "bola_event.yaml", sets, 1, &s)) return;
  static bola_ref ref;
  if (bola_ref_build(&ref, s.params, s.options.t_end)) {
    fprintf(stderr, "bola: no closed form\n");
    mbdae_scenario_free(&s);
    return;
  }
  say(b, "bola: closed-form events (Zeno rule applied):");
  for (int i = 0; i < ref.nev; ++i) say(b, " %.10f", ref.ev[i]);
  say(b, "\n");
  wp_problem pb = {"bola", &s, sn_count, sn_extract, &ref, 3, bola_exact_q, ref.ev, ref.nev};
  wp_opts op;
  wp_opts_default(&op);
  op.repeats = b->repeats;
  op.atol_ratio = 1e-2;
  op.cpu_limit = 60;
  FILE *csv = open_csv(b, "bola");
  const wp_method *ms[] = {&M_IDA_KLU, &M_IDA_DENSE, &M_BDF_DENSE, &M_ADAMS};
  wp_result r[NRTOLS];
  for (int i = 0; i < 4; ++i) {
    int n = ladder(csv, &pb, ms[i], RTOLS, NRTOLS, &op, r);
    event_summary(b, "bola", ms[i], r, n, ref.nev);
  }
  const double h[] = {1e-2, 5e-3, 2.5e-3, 1.25e-3, 6.25e-4, 3.125e-4, 1.5625e-4};
  int n = ladder(csv, &pb, &M_RK4, h, b->quick ? 5 : 7, &op, r);
  event_summary(b, "bola", &M_RK4, r, n, ref.nev);
  if (csv) fclose(csv);
  mbdae_scenario_free(&s);
}

static void part_ball(bench *b) {
  mbdae_scenario s;
  const char *sets[] = {"solver.dt_out=0.01"};
  if (load_file(b, "ball.yaml", sets, 1, &s)) return;
  static ball_ref ref;
  ball_ref_build(&ref, s.params);
  say(b, "ball: closed-form events:");
  for (int i = 0; i < ref.nimp; ++i) say(b, " %.10f", ref.t_imp[i]);
  say(b, "\n");
  wp_problem pb = {"ball", &s, ball_count, ball_extract, &ref, 1, ball_exact_q, ref.t_imp,
                   ref.nimp};
  wp_opts op;
  wp_opts_default(&op);
  op.repeats = b->repeats;
  op.atol_ratio = 1e-2;
  op.cpu_limit = 60;
  FILE *csv = open_csv(b, "ball");
  const wp_method *ms[] = {&M_IDA_DENSE, &M_IDA_KLU, &M_BDF_DENSE, &M_BDF_KLU, &M_ADAMS};
  wp_result r[NRTOLS];
  for (int i = 0; i < 5; ++i) {
    int n = ladder(csv, &pb, ms[i], RTOLS, NRTOLS, &op, r);
    event_summary(b, "ball", ms[i], r, n, ref.nimp);
  }
  const double h[] = {1e-2, 5e-3, 2.5e-3, 1.25e-3, 6.25e-4, 3.125e-4, 1.5625e-4};
  int n = ladder(csv, &pb, &M_RK4, h, b->quick ? 5 : 7, &op, r);
  event_summary(b, "ball", &M_RK4, r, n, ref.nimp);
  if (csv) fclose(csv);
  mbdae_scenario_free(&s);
}

/* ---- (c) chain, (d) nets, (e) Jacobians, (f) crossover -------------------- */

static char *chain_yaml_solver(int N, double omega, double xi, double t_end, double dt_out,
                               const char *solver_extra) {
  char *t = malloc(2048);
  if (!t) return NULL;
  snprintf(t, 2048,
           "model: string_net\n"
           "solver: {method: ida, linear_solver: klu, t0: 0.0, t_end: %.17g, dt_out: %.17g,\n"
           "         rtol: 1.0e-6, atol: 1.0e-9%s}\n"
           "parameters:\n"
           "  topology: chain\n  mode: baumgarte\n  xi: %.17g\n  omega_n: %.17g\n"
           "  chain_points: %d\n  length: %.17g\n  chain_mass: %.17g\n"
           "  chain_spin: 2.0\n  chain_wave: 0.2\n  release_band: 1.0e-3\n"
           "  max_output_columns: 0\n",
           t_end, dt_out, solver_extra, xi, omega, N, 1.0 / (N - 1), 1.0 / N);
  return t;
}

static char *chain_yaml(int N, double omega, double xi, double t_end, double dt_out) {
  return chain_yaml_solver(N, omega, xi, t_end, dt_out, "");
}

static char *spin_yaml_solver(int n, double omega, double xi, double spin, double wave,
                              double t_end, double dt_out, const char *solver_extra) {
  char *t = malloc(2048);
  if (!t) return NULL;
  snprintf(t, 2048,
           "model: string_net\n"
           "solver: {method: ida, linear_solver: klu, t0: 0.0, t_end: %.17g, dt_out: %.17g,\n"
           "         rtol: 1.0e-6, atol: 1.0e-9%s}\n"
           "parameters:\n"
           "  topology: spinning_grid\n  mode: baumgarte\n  xi: %.17g\n  omega_n: %.17g\n"
           "  grid_n: %d\n  grid_m: %d\n  length: %.17g\n  grid_mass: %.17g\n"
           "  corner_mass: %.17g\n  grid_spin: %.17g\n  grid_wave: %.17g\n"
           "  release_band: 1.0e-3\n  max_output_columns: 0\n",
           t_end, dt_out, solver_extra, xi, omega, n, n, 1.0 / (n - 1), 1.0 / ((double)n * n),
           1.0 / ((double)n * n), spin, wave);
  return t;
}

static char *spin_yaml(int n, double omega, double xi, double spin, double wave, double t_end,
                       double dt_out) {
  return spin_yaml_solver(n, omega, xi, spin, wave, t_end, dt_out, "");
}

/* reference (saved by `refm` at `reftol`) then the ladders of each method;
 * returns the results for comparisons. */
typedef struct ladder_set {
  const wp_method *m;
  const double *tols;
  int ntol;
  wp_result r[16];
  int n;
} ladder_set;

static int run_with_reference(bench *b, const char *problem, mbdae_scenario *s,
                              const wp_method *refm, double reftol, ladder_set *ls, int nls,
                              double cpu_limit) {
  char refpath[1024];
  snprintf(refpath, sizeof refpath, "%s/%s.ref", b->out, problem);
  wp_problem pb = {problem, s, sn_count, sn_extract, NULL, 3, NULL, NULL, 0};
  wp_opts op;
  wp_opts_default(&op);
  op.repeats = 1;
  op.cpu_limit = b->ref_cpu_limit; /* a reference that costs more is not made (said in
                                      summary); 150 s unless --ref-cpu-limit */
  op.save = refpath;
  FILE *csv = open_csv(b, problem);
  wp_result rr;
  if (wp_measure(&pb, refm, reftol, &op, &rr) < 0 || rr.status != 0) {
    print_row(&pb, refm, &rr);
    say(b, "%s: reference run (%s %g) failed: %s\n", problem, refm->label, reftol, rr.message);
    if (csv) fclose(csv);
    return -1;
  }
  say(b, "%s: reference = %s at %g: CPU %.4g s, %ld steps\n", problem, refm->label, reftol,
      rr.cpu, rr.steps);
  op.save = NULL;
  op.ref = refpath;
  op.repeats = b->repeats;
  op.cpu_limit = cpu_limit;
  op.cpu_budget = 5.0;
  for (int i = 0; i < nls; ++i) ls[i].n = ladder(csv, &pb, ls[i].m, ls[i].tols, ls[i].ntol, &op, ls[i].r);
  if (csv) fclose(csv);
  return 0;
}

static void agreement(bench *b, const char *problem, const ladder_set *ls, int nls,
                      const char *refdesc) {
  /* the tightest successful run of each method against the reference */
  for (int i = 0; i < nls; ++i) {
    const wp_result *t = NULL;
    for (int k = 0; k < ls[i].n; ++k)
      if (ls[i].r[k].status == 0 && isfinite(ls[i].r[k].err_end)) t = &ls[i].r[k];
    if (t)
      say(b, "%s: tightest %s (%g) vs reference %s: end %.2e, max over grid %.2e m\n", problem,
          ls[i].m->label, t->tol, refdesc, t->err_end, t->err_max);
  }
}

static void part_chain(bench *b) {
  int N = 1000;
  double T = 1.0;
  char *y = chain_yaml(N, 1e3, 0.5, T, 0.02);
  mbdae_scenario s;
  if (!y || load_text("chain1000", y, &s)) {
    free(y);
    return;
  }
  free(y);
  static const double rt[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
  static const double rta[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10};
  static const double h[] = {4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4};
  ladder_set ls[4] = {{&M_IDA_KLU_O3, rt, b->quick ? 6 : 8, {{0}}, 0},
                      {&M_IDA_KLU, rt, b->quick ? 6 : 8, {{0}}, 0},
                      {&M_ADAMS, rta, b->quick ? 4 : 6, {{0}}, 0},
                      {&M_RK4, h, b->quick ? 5 : 6, {{0}}, 0}};
  if (run_with_reference(b, "chain1000", &s, &M_ADAMS, 1e-11, ls, 4, 30.0) == 0) {
    agreement(b, "chain1000", ls, 4, "cvode-adams 1e-11");
    for (double tg = 1e-4; tg >= 1e-8; tg /= 10.0) {
      compare_at(b, "chain1000", tg, "ida-klu-o3", ls[0].r, ls[0].n, "rk4", ls[3].r, ls[3].n);
      compare_at(b, "chain1000", tg, "ida-klu", ls[1].r, ls[1].n, "rk4", ls[3].r, ls[3].n);
    }
    compare_at(b, "chain1000", 1e-6, "ida-klu-o3", ls[0].r, ls[0].n, "cvode-adams", ls[2].r,
               ls[2].n);
  }
  mbdae_scenario_free(&s);
}

/* the chain with exact taut strings (mode: event), same points and initial
 * state as chain_yaml: the formulation without an omega_n penalty */
static void part_exact(bench *b) {
  const int N = 1000;
  char *y = malloc(2048);
  if (!y) return;
  snprintf(y, 2048,
           "model: string_net\n"
           "solver: {method: ida, linear_solver: klu, t0: 0.0, t_end: 1.0, dt_out: 0.02,\n"
           "         rtol: 1.0e-6, atol: 1.0e-9}\n"
           "parameters:\n"
           "  topology: chain\n  mode: event\n"
           "  chain_points: %d\n  length: %.17g\n  chain_mass: %.17g\n"
           "  chain_spin: 2.0\n  chain_wave: 0.2\n"
           "  max_output_columns: 0\n",
           N, 1.0 / (N - 1), 1.0 / N);
  mbdae_scenario s;
  if (load_text("chain1000_exact", y, &s)) {
    free(y);
    return;
  }
  free(y);
  static const double rt[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
  static const double rta[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
  static const double h[] = {4e-3, 2e-3, 1e-3, 5e-4, 2.5e-4, 1.25e-4};
  ladder_set ls[3] = {{&M_IDA_KLU, rt, b->quick ? 5 : 7, {{0}}, 0},
                      {&M_ADAMS, rta, b->quick ? 4 : 6, {{0}}, 0},
                      {&M_RK4, h, b->quick ? 5 : 6, {{0}}, 0}};
  if (run_with_reference(b, "chain1000_exact", &s, &M_ADAMS, 1e-11, ls, 3, 60.0) == 0) {
    agreement(b, "chain1000_exact", ls, 3, "cvode-adams 1e-11");
    for (double tg = 1e-4; tg >= 1e-8; tg /= 10.0) {
      compare_at(b, "chain1000_exact", tg, "ida-klu", ls[0].r, ls[0].n, "rk4", ls[2].r, ls[2].n);
      compare_at(b, "chain1000_exact", tg, "ida-klu", ls[0].r, ls[0].n, "cvode-adams", ls[1].r,
                 ls[1].n);
    }
  }
  mbdae_scenario_free(&s);
}

/* n x n spinning nets (spin_yaml's net: 2 rad/s, 0.2 m/s bump, t = 0..0.2 s)
 * with exact taut strings (mode: event): the nets of `net` without the
 * omega_n penalty; reference = CVODE Adams at rtol 1e-11 */
static void part_netexact(bench *b) {
  const int sizes[] = {21, 41};
  for (int is = 0; is < (b->quick ? 1 : 2); ++is) {
    int n = sizes[is];
    if (b->net_n > 0 && n != b->net_n) continue;
    char name[64];
    snprintf(name, sizeof name, "net%d_exact", n);
    char *y = malloc(2048);
    if (!y) return;
    snprintf(y, 2048,
             "model: string_net\n"
             "solver: {method: ida, linear_solver: klu, t0: 0.0, t_end: 0.2, dt_out: 0.02,\n"
             "         rtol: 1.0e-6, atol: 1.0e-9}\n"
             "parameters:\n"
             "  topology: spinning_grid\n  mode: event\n"
             "  grid_n: %d\n  grid_m: %d\n  length: %.17g\n  grid_mass: %.17g\n"
             "  corner_mass: %.17g\n  grid_spin: 2.0\n  grid_wave: 0.2\n"
             "  max_output_columns: 0\n",
             n, n, 1.0 / (n - 1), 1.0 / ((double)n * n), 1.0 / ((double)n * n));
    mbdae_scenario s;
    if (load_text(name, y, &s)) {
      free(y);
      continue;
    }
    free(y);
    static const double rt[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
    static const double rta[] = {1e-4, 1e-6, 1e-8, 1e-9};
    static const double h[] = {1e-2, 5e-3, 2.5e-3, 1.25e-3, 6.25e-4};
    ladder_set ls[3] = {{&M_IDA_KLU_METIS, rt, 7, {{0}}, 0},
                        {&M_ADAMS, rta, 4, {{0}}, 0},
                        {&M_RK4, h, 5, {{0}}, 0}};
    if (run_with_reference(b, name, &s, &M_ADAMS, 1e-11, ls, 3, 60.0) == 0) {
      agreement(b, name, ls, 3, "cvode-adams 1e-11");
      for (double tg = 1e-4; tg >= 1e-8; tg /= 10.0)
        compare_at(b, name, tg, "ida-klu-metis", ls[0].r, ls[0].n, "rk4", ls[2].r, ls[2].n);
    }
    mbdae_scenario_free(&s);
  }
}

/* the chain again with IDA's own Jacobian-reuse rule (solver.jac_reuse_cj 0:
 * refactor when cj changes by 25 %) instead of the engine's 0.9; compared
 * with the chain part's reference file (run `chain` first). */
static void part_reuse(bench *b) {
  char *y = chain_yaml_solver(1000, 1e3, 0.5, 1.0, 0.02, ", jac_reuse_cj: 0.0");
  mbdae_scenario s;
  if (!y || load_text("chain1000_reuse0", y, &s)) {
    free(y);
    return;
  }
  free(y);
  char ref[1024];
  snprintf(ref, sizeof ref, "%s/chain1000.ref", b->out);
  wp_problem pb = {"chain1000_reuse0", &s, sn_count, sn_extract, NULL, 3, NULL, NULL, 0};
  wp_opts op;
  wp_opts_default(&op);
  op.repeats = b->repeats;
  op.cpu_limit = 30.0;
  op.cpu_budget = 5.0;
  op.ref = ref;
  FILE *csv = open_csv(b, "chain1000_reuse0");
  static const double rt[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8};
  wp_result r[5];
  const wp_method *ms[] = {&M_IDA_KLU_O3, &M_IDA_KLU};
  for (int i = 0; i < 2; ++i) {
    int n = ladder(csv, &pb, ms[i], rt, 5, &op, r);
    for (int k = 0; k < n; ++k)
      say(b, "chain1000, jac_reuse_cj 0: %s rtol %g: err %.2e, CPU %.4g s, %ld steps, %ld "
             "residuals, %ld factorizations\n",
          ms[i]->label, r[k].tol, r[k].err_end, r[k].cpu, r[k].steps, r[k].rhs_evals,
          r[k].lin_setups);
  }
  if (csv) fclose(csv);
  mbdae_scenario_free(&s);
}

static void part_net(bench *b) {
  static const double omegas[] = {10.0, 1e2, 1e3, 1e4};
  const int sizes[] = {21, 41};
  for (int is = 0; is < (b->quick ? 1 : 2); ++is) {
    int n = sizes[is];
    if (b->net_n > 0 && n != b->net_n) continue;
    for (int iw = 0; iw < 4; ++iw) {
      double w = omegas[iw];
      if (b->omegas[0] > 0.0 && w != b->omegas[0] && w != b->omegas[1] &&
          w != b->omegas[2] && w != b->omegas[3])
        continue;
      char name[64];
      snprintf(name, sizeof name, "net%d_w%g", n, w);
      char *y = spin_yaml(n, w, 0.5, 2.0, 0.2, 0.2, 0.02);
      mbdae_scenario s;
      if (!y || load_text(name, y, &s)) {
        free(y);
        continue;
      }
      free(y);
      static const double rt[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8};
      int nrt = n <= 21 ? 6 : 5;
      /* RK4 steps: from 10 ms down; the stable limit falls as 1/omega_n */
      static const double h[] = {1e-2, 5e-3, 2.5e-3, 1.25e-3, 6.25e-4, 3.125e-4, 1.5625e-4};
      static const double rt5[] = {1e-4, 1e-6, 1e-8};
      ladder_set ls[3] = {{&M_IDA_KLU_METIS_O3, rt, nrt, {{0}}, 0},
                          {&M_RK4, h, b->quick ? 6 : 7, {{0}}, 0},
                          {&M_IDA_KLU_METIS, rt5, n <= 21 ? 3 : 0, {{0}}, 0}};
      double rtref = n <= 21 ? 1e-10 : 1e-9;
      if (run_with_reference(b, name, &s, &M_IDA_KLU_METIS_O3, rtref, ls, 3, 20.0) == 0) {
        agreement(b, name, ls, 3, n <= 21 ? "ida-klu-metis-o3 1e-10" : "ida-klu-metis-o3 1e-9");
        for (double tg = 1e-4; tg >= 1e-7; tg /= 10.0)
          compare_at(b, name, tg, "ida-klu-metis-o3", ls[0].r, ls[0].n, "rk4", ls[1].r,
                     ls[1].n);
        for (int k = 0; k < ls[0].n; ++k)
          if (ls[0].r[k].status == 0)
            say(b, "%s: ida-klu-metis-o3 rtol %g: %ld factorizations / %ld steps = %.3f per "
                   "step\n",
                name, ls[0].r[k].tol, ls[0].r[k].lin_setups, ls[0].r[k].steps,
                (double)ls[0].r[k].lin_setups / (double)ls[0].r[k].steps);
      }
      mbdae_scenario_free(&s);
    }
  }
}

/* ---- netxi: the nets of `net` with real-eigenvalue stabilisation ---------- */

static const wp_method M_IDA_KLU_METIS_O3_R0 = {"ida-klu-metis-o3-reuse0", MBDAE_METHOD_IDA,
                                                MBDAE_LINSOL_KLU, MBDAE_ORDERING_METIS, 0, 3};
/* arkode on the DAE form through its completion (doc/arkode.md): esdirk547 (the
 * default table before 2026-11-27) and the internally stable esdirk43i6 (the
 * default since), each named in the ladder's scenario */
static const wp_method M_ARKODE_KLU_METIS = {"arkode-klu-metis", MBDAE_METHOD_ARKODE,
                                             MBDAE_LINSOL_KLU, MBDAE_ORDERING_METIS, 0, 0};
static const wp_method M_ARKODE_I_KLU_METIS = {"arkode-esdirk43i6-klu-metis", MBDAE_METHOD_ARKODE,
                                               MBDAE_LINSOL_KLU, MBDAE_ORDERING_METIS, 0, 0};

/* A ladder as `ladder`, with the stopping rules of netxi (header comment):
 * RK4 stops at the first run with max grid error <= rk4_floor or a stable run
 * stopped by the CPU limit; the others run every tolerance (each run bounded
 * by the CPU limit: the cost is not monotone in rtol on these strings). One
 * summary line per run with the failure counters. */
/* --methods: is the ladder of label selected? */
static int method_selected(const bench *b, const char *label) {
  if (!b->methods) return 1;
  const char *p = b->methods;
  while (*p) {
    size_t len = strcspn(p, ",");
    char word[64];
    if (len > 0 && len < sizeof word) {
      memcpy(word, p, len);
      word[len] = '\0';
      if (strstr(label, word)) return 1;
    }
    p += len;
    if (*p == ',') ++p;
  }
  return 0;
}

static int ladder_xi(bench *b, FILE *csv, const wp_problem *pb, const wp_method *m,
                     const double *tols, int ntol, const wp_opts *op, double rk4_floor,
                     wp_result *res) {
  int n = 0;
  if (!method_selected(b, m->label)) return 0;
  for (int i = 0; i < ntol; ++i) {
    wp_result r;
    if (measure_row(csv, pb, m, tols[i], op, &r) < 0) break;
    res[n++] = r;
    if (m->method != MBDAE_METHOD_RK4)
      say(b, "%s: %s rtol %g: status %d, t %.4g, err_end %.2e, err_max %.2e, CPU %.4g s, "
             "%ld steps, %ld residuals, %ld factorizations (%.3f per step), %ld Newton "
             "failures, %ld error-test failures%s%s\n",
          pb->name, m->label, r.tol, r.status, r.t_reached, r.err_end, r.err_max, r.cpu,
          r.steps, r.rhs_evals, r.lin_setups,
          r.steps > 0 ? (double)r.lin_setups / (double)r.steps : 0.0, r.newton_fails,
          r.err_test_fails, r.message[0] ? " | " : "", r.message);
    if (m->method == MBDAE_METHOD_RK4 &&
        ((r.status == 0 && r.err_max <= rk4_floor) ||
         (r.status == MBDAE_STOPPED && r.events == 0)))
      break;
  }
  return n;
}

/* RK4's CPU at the max grid error e of another method's run: log CPU is
 * interpolated linearly in log error between the two consecutive stable RK4
 * runs whose errors bracket e (RK4: CPU ~ 1/h, error ~ h^4, so log CPU is
 * affine in log error between two rungs); stable = completed, no string
 * released. A run less accurate than RK4's
 * coarsest stable step is compared with that step (RK4 cannot take a larger
 * one); a run more accurate than RK4's finest is not compared. One summary
 * line per run of ra. */
static void compare_rk4_interp(bench *b, const char *problem, const char *la,
                               const wp_result *ra, int na, const wp_result *rk, int nk) {
  /* stable: completed with no string released (these nets have no events;
   * a release is RK4's instability, and such a run costs more than a finer one) */
#define RK4_STABLE(r) ((r)->status == 0 && (r)->events == 0 && isfinite((r)->err_max))
  int first = -1; /* the coarsest stable RK4 run */
  for (int k = 0; k < nk && first < 0; ++k)
    if (RK4_STABLE(&rk[k])) first = k;
  for (int i = 0; i < na; ++i) {
    const wp_result *a = &ra[i];
    if (a->status != 0 || !isfinite(a->err_max)) continue;
    double e = a->err_max, cpu_rk = NAN;
    char how[256] = "";
    if (first < 0) {
      snprintf(how, sizeof how, "no stable RK4 run");
    } else if (e >= rk[first].err_max) {
      cpu_rk = rk[first].cpu;
      snprintf(how, sizeof how, "RK4's coarsest stable step h %g (err %.3e, CPU %.4g s), "
               "more accurate", rk[first].tol, rk[first].err_max, rk[first].cpu);
    } else {
      for (int k = first; k + 1 < nk; ++k) {
        const wp_result *p = &rk[k], *q = &rk[k + 1];
        if (!RK4_STABLE(p) || !RK4_STABLE(q) || !(p->err_max >= e && e >= q->err_max) ||
            !(q->err_max > 0.0) || p->err_max == q->err_max)
          continue;
        double s = log(e / p->err_max) / log(q->err_max / p->err_max);
        cpu_rk = exp(log(p->cpu) + s * log(q->cpu / p->cpu));
        snprintf(how, sizeof how, "interpolated log-log between h %g (err %.3e, CPU %.4g s) and "
                 "h %g (err %.3e, CPU %.4g s)", p->tol, p->err_max, p->cpu, q->tol, q->err_max,
                 q->cpu);
        break;
      }
      if (!isfinite(cpu_rk)) snprintf(how, sizeof how, "more accurate than RK4's finest run");
    }
    say(b, "%s: equal accuracy: %s tol %g: err_max %.3e m, CPU %.4g s (median of %d, %.4g-%.4g) "
           "| RK4 %s%s%.4g s | CPU ratio rk4/%s = %.3g\n",
        problem, la, a->tol, e, a->cpu, a->reps, a->cpu_min, a->cpu_max, how,
        isfinite(cpu_rk) ? ": " : " ", cpu_rk, la, cpu_rk / a->cpu);
  }
#undef RK4_STABLE
}

static int netxi_selected(const double *sel, double v) {
  if (!(sel[0] > 0.0)) return 1;
  for (int k = 0; k < 4; ++k)
    if (sel[k] == v) return 1;
  return 0;
}

static void netxi_one(bench *b, int n, double xi, double w) {
  char name[64], name0[80], refpath[1024];
  snprintf(name, sizeof name, "net%d_xi%g_w%g", n, xi, w);
  snprintf(name0, sizeof name0, "%s_reuse0", name);
  /* arkode_table only acts on arkode: esdirk547 for the "arkode-klu-metis" ladder */
  char *y = spin_yaml_solver(n, w, xi, 2.0, 0.2, 0.2, 0.02, ", arkode_table: esdirk547");
  char *y0 = spin_yaml_solver(n, w, xi, 2.0, 0.2, 0.2, 0.02, ", jac_reuse_cj: 0.0");
  char *yi = spin_yaml_solver(n, w, xi, 2.0, 0.2, 0.2, 0.02, ", arkode_table: esdirk43i6");
  mbdae_scenario s, s0, si;
  int ok = y && y0 && yi && load_text(name, y, &s) == 0;
  if (ok && load_text(name0, y0, &s0) != 0) {
    mbdae_scenario_free(&s);
    ok = 0;
  }
  if (ok && load_text(name, yi, &si) != 0) {
    mbdae_scenario_free(&s);
    mbdae_scenario_free(&s0);
    ok = 0;
  }
  free(y);
  free(y0);
  free(yi);
  if (!ok) return;
  say(b, "%s: xi %g, omega_n %g: constraint-mode eigenvalues %s\n", name, xi, w,
      xi > 1.0 ? "real, distinct" : xi == 1.0 ? "real, double" : "complex");
  if (xi >= 1.0) {
    double d = sqrt(xi * xi - 1.0);
    say(b, "%s: lambda = %.4g, %.4g /s (RK4 real-axis limit h < 2.785/|lambda| = %.3g s)\n",
        name, -(xi - d) * w, -(xi + d) * w, 2.785 / ((xi + d) * w));
  }
  snprintf(refpath, sizeof refpath, "%s/%s.ref", b->out, name);
  wp_problem pb = {name, &s, sn_count, sn_extract, NULL, 3, NULL, NULL, 0};
  wp_problem pb0 = {name, &s0, sn_count, sn_extract, NULL, 3, NULL, NULL, 0};
  wp_problem pbi = {name, &si, sn_count, sn_extract, NULL, 3, NULL, NULL, 0};
  /* the reference: IDA at rtref, or RK4 at --ref-rk4 H (an independent method
   * for the ARKODE ladders, and a tighter one when IDA's floor shows) */
  double rtref = b->ref_rk4_h > 0.0 ? b->ref_rk4_h : n <= 21 ? 1e-10 : 1e-9;
  const wp_method *mref = b->ref_rk4_h > 0.0 ? &M_RK4 : &M_IDA_KLU_METIS_O3;
  char refdesc[64];
  snprintf(refdesc, sizeof refdesc, "%s %g", mref->label, rtref);
  wp_opts op;
  wp_opts_default(&op);
  op.repeats = 1;
  op.cpu_limit = b->ref_cpu_limit;
  op.save = refpath;
  FILE *csv = open_csv(b, name);
  wp_result rr;
  FILE *rf = b->reuse_ref ? fopen(refpath, "rb") : NULL;
  if (rf) {
    fclose(rf);
    say(b, "%s: reference = %s (%s at %g, made by an earlier run)\n", name, refpath, mref->label,
        rtref);
  } else if (wp_measure(&pb, mref, rtref, &op, &rr) < 0 || rr.status != 0) {
    print_row(&pb, mref, &rr);
    say(b, "%s: reference run (%s %g) failed: status %d, t %.4g, %ld steps, %ld "
           "factorizations, %ld Newton failures, %ld error-test failures, CPU %.4g s: %s\n",
        name, mref->label, rtref, rr.status, rr.t_reached, rr.steps,
        rr.lin_setups, rr.newton_fails, rr.err_test_fails, rr.cpu, rr.message);
    if (csv) fclose(csv);
    mbdae_scenario_free(&s);
    mbdae_scenario_free(&s0);
    mbdae_scenario_free(&si);
    return;
  } else {
    say(b, "%s: reference = %s at %g: CPU %.4g s, %ld steps, %ld factorizations, %ld Newton "
           "failures, %ld error-test failures\n",
        name, mref->label, rtref, rr.cpu, rr.steps, rr.lin_setups,
        rr.newton_fails, rr.err_test_fails);
  }
  op.save = NULL;
  op.ref = refpath;
  op.repeats = b->repeats;
  op.cpu_limit = n <= 21 ? 20.0 : 60.0;
  op.cpu_budget = b->cpu_budget;
  static const double rt[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8};
  static const double rt3[] = {1e-4, 1e-6, 1e-8};
  static const double h[] = {1e-2,      5e-3,       2.5e-3,    1.25e-3,    6.25e-4,
                             3.125e-4,  1.5625e-4,  7.8125e-5, 3.90625e-5, 1.953125e-5};
  enum { NH = sizeof h / sizeof h[0] };
  static wp_result r_o3[6], r_def[6], r_r0[3], r_ad[3], r_rk[NH], r_ak[6], r_ai[6];
  int nrt = n <= 21 ? 6 : 5;
  const double *rtl = rt;
  if (b->nrtols > 0) {
    rtl = b->rtols;
    nrt = b->nrtols;
  }
  int n_o3 = ladder_xi(b, csv, &pb, &M_IDA_KLU_METIS_O3, rtl, nrt, &op, 0.0, r_o3);
  int n_def = ladder_xi(b, csv, &pb, &M_IDA_KLU_METIS, rtl, nrt, &op, 0.0, r_def);
  int n_r0 = ladder_xi(b, csv, &pb0, &M_IDA_KLU_METIS_O3_R0, rt3, b->quick ? 2 : 3, &op, 0.0,
                       r_r0);
  int n_ad = ladder_xi(b, csv, &pb, &M_ADAMS, rt3, b->quick ? 2 : 3, &op, 0.0, r_ad);
  int n_ak = ladder_xi(b, csv, &pb, &M_ARKODE_KLU_METIS, rtl, nrt, &op, 0.0, r_ak);
  int n_ai = ladder_xi(b, csv, &pbi, &M_ARKODE_I_KLU_METIS, rtl, nrt, &op, 0.0, r_ai);
  /* --arkode-variant: one more ARKODE ladder per variant, its own scenario */
  static wp_method mv[4];
  static wp_result r_v[4][6];
  int n_v[4] = {0, 0, 0, 0};
  for (int v = 0; v < b->nvariants; ++v) {
    char extra[512];
    snprintf(extra, sizeof extra, ", %s", b->variant_keys[v]);
    char *yv = spin_yaml_solver(n, w, xi, 2.0, 0.2, 0.2, 0.02, extra);
    mbdae_scenario sv;
    if (!yv || load_text(name, yv, &sv) != 0) {
      free(yv);
      say(b, "%s: arkode variant %s: the scenario does not load (keys: %s)\n", name,
          b->variant_label[v], b->variant_keys[v]);
      continue;
    }
    free(yv);
    mv[v] = M_ARKODE_I_KLU_METIS;
    mv[v].label = b->variant_label[v];
    wp_problem pbv = {name, &sv, sn_count, sn_extract, NULL, 3, NULL, NULL, 0};
    say(b, "%s: %s: solver keys %s\n", name, mv[v].label, b->variant_keys[v]);
    n_v[v] = ladder_xi(b, csv, &pbv, &mv[v], rtl, nrt, &op, 0.0, r_v[v]);
    mbdae_scenario_free(&sv);
  }
  /* RK4 goes down to the smallest error any implicit run reached (at most
   * 1e-9 m), so every implicit run has an RK4 run at least as accurate; its
   * finest steps take longer than the implicit runs' CPU limit */
  double rk4_floor = 1e-9;
  const wp_result *rs[] = {r_o3, r_def, r_r0, r_ad, r_ak, r_ai};
  const int ns[] = {n_o3, n_def, n_r0, n_ad, n_ak, n_ai};
  for (int j = 0; j < 6; ++j)
    for (int k = 0; k < ns[j]; ++k)
      if (rs[j][k].status == 0 && rs[j][k].err_max < rk4_floor) rk4_floor = rs[j][k].err_max;
  for (int v = 0; v < b->nvariants; ++v)
    for (int k = 0; k < n_v[v]; ++k)
      if (r_v[v][k].status == 0 && r_v[v][k].err_max < rk4_floor) rk4_floor = r_v[v][k].err_max;
  wp_opts op_rk = op;
  op_rk.cpu_limit = n <= 21 ? 60.0 : 120.0;
  int h0 = 0;
  while (b->rk4_from > 0.0 && h0 < NH - 1 && h[h0] > b->rk4_from * (1.0 + 1e-9)) ++h0;
  int n_rk = ladder_xi(b, csv, &pb, &M_RK4, h + h0, NH - h0, &op_rk, rk4_floor, r_rk);
  if (csv) fclose(csv);
  static ladder_set ls[11];
  const ladder_set ls0[7] = {{&M_IDA_KLU_METIS_O3, rtl, 0, {{0}}, n_o3},
                             {&M_IDA_KLU_METIS, rtl, 0, {{0}}, n_def},
                             {&M_IDA_KLU_METIS_O3_R0, rt3, 0, {{0}}, n_r0},
                             {&M_ADAMS, rt3, 0, {{0}}, n_ad},
                             {&M_ARKODE_KLU_METIS, rtl, 0, {{0}}, n_ak},
                             {&M_ARKODE_I_KLU_METIS, rtl, 0, {{0}}, n_ai},
                             {&M_RK4, h + h0, 0, {{0}}, n_rk}};
  memcpy(ls, ls0, sizeof ls0);
  memcpy(ls[0].r, r_o3, (size_t)n_o3 * sizeof *r_o3);
  memcpy(ls[1].r, r_def, (size_t)n_def * sizeof *r_def);
  memcpy(ls[2].r, r_r0, (size_t)n_r0 * sizeof *r_r0);
  memcpy(ls[3].r, r_ad, (size_t)n_ad * sizeof *r_ad);
  memcpy(ls[4].r, r_ak, (size_t)n_ak * sizeof *r_ak);
  memcpy(ls[5].r, r_ai, (size_t)n_ai * sizeof *r_ai);
  memcpy(ls[6].r, r_rk, (size_t)n_rk * sizeof *r_rk);
  /* the variants after RK4: ls[7 ...] */
  for (int v = 0; v < b->nvariants; ++v) {
    ladder_set lv = {&mv[v], rtl, 0, {{0}}, n_v[v]};
    memcpy(lv.r, r_v[v], (size_t)n_v[v] * sizeof *r_v[v]);
    ls[7 + v] = lv;
  }
  int nls = 7 + b->nvariants;
  agreement(b, name, ls, nls, refdesc);
  for (double tg = 1e-4; tg >= 1e-7; tg /= 10.0)
    for (int i = 0; i < nls; ++i)
      if (i != 6 && ls[i].n > 0)
        compare_at(b, name, tg, ls[i].m->label, ls[i].r, ls[i].n, "rk4", r_rk, n_rk);
  for (int i = 0; i < nls; ++i)
    if (i != 6) compare_rk4_interp(b, name, ls[i].m->label, ls[i].r, ls[i].n, r_rk, n_rk);
  mbdae_scenario_free(&s);
  mbdae_scenario_free(&s0);
  mbdae_scenario_free(&si);
}

static void part_netxi(bench *b) {
  static const double xis_default[] = {1.0, 2.0, 0.0, 0.0};
  static const double omegas[] = {1e2, 1e3, 1e4};
  const int sizes[] = {21, 41};
  /* --xis replaces the default xi = 1, 2 (e.g. 0.5: part (d)'s nets, this protocol) */
  const double *xis = b->xis[0] > 0.0 ? b->xis : xis_default;
  for (int is = 0; is < (b->quick ? 1 : 2); ++is) {
    if (b->net_n > 0 && sizes[is] != b->net_n) continue;
    for (int ix = 0; ix < 4 && xis[ix] > 0.0; ++ix)
      for (int iw = 0; iw < 3; ++iw)
        if (netxi_selected(b->omegas, omegas[iw])) netxi_one(b, sizes[is], xis[ix], omegas[iw]);
  }
}

static void part_lose(bench *b) {
  const int n = 21;
  char *y = spin_yaml(n, 100.0, 0.5, 20.0, 1.0, 0.2, 0.01);
  mbdae_scenario s;
  if (!y || load_text("fastspin21", y, &s)) {
    free(y);
    return;
  }
  free(y);
  static const double rt[] = {1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8};
  static const double rta[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8};
  static const double h[] = {5e-3, 2.5e-3, 1.25e-3, 6.25e-4, 3.125e-4, 1.5625e-4};
  ladder_set ls[3] = {{&M_IDA_KLU_METIS_O3, rt, 6, {{0}}, 0},
                      {&M_ADAMS, rta, 5, {{0}}, 0},
                      {&M_RK4, h, 6, {{0}}, 0}};
  if (run_with_reference(b, "fastspin21", &s, &M_IDA_KLU_METIS_O3, 1e-10, ls, 3, 20.0) == 0) {
    agreement(b, "fastspin21", ls, 3, "ida-klu-metis-o3 1e-10");
    for (double tg = 1e-3; tg >= 1e-7; tg /= 10.0) {
      compare_at(b, "fastspin21", tg, "ida-klu-metis-o3", ls[0].r, ls[0].n, "rk4", ls[2].r,
                 ls[2].n);
      compare_at(b, "fastspin21", tg, "ida-klu-metis-o3", ls[0].r, ls[0].n, "cvode-adams",
                 ls[1].r, ls[1].n);
    }
  }
  mbdae_scenario_free(&s);
}

static void part_jac(bench *b) {
  char *y = spin_yaml(6, 100.0, 0.5, 2.0, 0.2, 0.5, 0.05);
  mbdae_scenario s;
  if (!y || load_text("jac6", y, &s)) {
    free(y);
    return;
  }
  free(y);
  static const double rt[] = {1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9};
  ladder_set ls[2] = {{&M_IDA_DENSE, rt, 6, {{0}}, 0}, {&M_IDA_DENSE_DQ, rt, 6, {{0}}, 0}};
  if (run_with_reference(b, "jac6", &s, &M_IDA_KLU, 1e-11, ls, 2, 60.0) == 0) {
    for (int k = 0; k < ls[0].n && k < ls[1].n; ++k) {
      const wp_result *a = &ls[0].r[k], *d = &ls[1].r[k];
      say(b,
          "jac6 rtol %g: analytic: %ld steps, %ld residuals, %ld Jacobians, %ld "
          "factorizations (%.3f per step), err %.2e, CPU %.4g s | DQ: %ld steps, %ld residuals "
          "(incl. DQ), %ld Jacobians, %ld factorizations (%.3f per step), err %.2e, CPU %.4g s | "
          "residual ratio DQ/analytic %.2f, CPU ratio %.2f\n",
          a->tol, a->steps, a->rhs_evals, a->jac_evals, a->lin_setups,
          (double)a->lin_setups / (double)a->steps, a->err_end, a->cpu, d->steps, d->rhs_evals,
          d->jac_evals, d->lin_setups, (double)d->lin_setups / (double)d->steps, d->err_end,
          d->cpu, (double)d->rhs_evals / (double)a->rhs_evals, d->cpu / a->cpu);
    }
  }
  mbdae_scenario_free(&s);
}

static void part_cross(bench *b) {
  static const int Ns[] = {10, 20, 50, 100, 200, 400, 1000};
  int nN = b->quick ? 5 : 7;
  FILE *csv = open_csv(b, "cross");
  wp_opts op;
  wp_opts_default(&op);
  op.repeats = b->repeats;
  op.cpu_limit = 20.0;
  op.cpu_budget = 5.0;
  int dense_on = 1;
  for (int i = 0; i < nN; ++i) {
    int N = Ns[i];
    char name[32];
    snprintf(name, sizeof name, "cross_chain%d", N);
    char *y = chain_yaml(N, 1e3, 0.5, 0.5, 0.05);
    mbdae_scenario s;
    if (!y || load_text(name, y, &s)) {
      free(y);
      continue;
    }
    free(y);
    wp_problem pb = {name, &s, sn_count, sn_extract, NULL, 3, NULL, NULL, 0};
    wp_result rk, rd;
    wp_measure(&pb, &M_IDA_KLU_O3, 1e-6, &op, &rk);
    print_row(&pb, &M_IDA_KLU_O3, &rk);
    if (csv) wp_csv_row(csv, &pb, &M_IDA_KLU_O3, &rk);
    if (dense_on && 7 * N - 1 <= 3000) { /* the model's dense Jacobian: n <= 3000 */
      wp_measure(&pb, &M_IDA_DENSE_O3, 1e-6, &op, &rd);
      print_row(&pb, &M_IDA_DENSE_O3, &rd);
      if (csv) wp_csv_row(csv, &pb, &M_IDA_DENSE_O3, &rd);
      say(b, "cross chain N = %d (%d unknowns): IDA+KLU CPU %.4g s (%ld fact., %.1f MB), IDA "
             "dense CPU %.4g s%s (%ld fact., %.1f MB): dense/KLU = %.3g\n",
          N, 7 * N - 1, rk.cpu, rk.lin_setups, rk.peak_rss_mb, rd.cpu,
          rd.status == MBDAE_STOPPED ? " (hit the CPU limit)" : "", rd.lin_setups,
          rd.peak_rss_mb, rd.cpu / rk.cpu);
      if (rd.status != 0) dense_on = 0;
    } else {
      say(b, "cross chain N = %d: IDA+KLU CPU %.4g s; dense not run (over the limit before)\n",
          N, rk.cpu);
    }
    mbdae_scenario_free(&s);
  }
  if (csv) fclose(csv);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s bola|ball|chain|exact|netexact|reuse|net|netxi|lose|jac|cross|all OUTDIR "
                    "[--quick] [--repeats K] [--scenarios DIR] [--net-n N] [--omegas W,...] "
                    "[--xis X,...] [--ref-cpu-limit S] [--methods W,...] [--cpu-budget S] "
                    "[--ref-rk4 H] [--reuse-ref] [--rk4-from H] [--arkode-variant LABEL:KEYS]... "
                    "[--rtols R,...]\n", argv[0]);
    return 2;
  }
  bench b = {argv[2], "scenarios", 0, 3, NULL, 0, {0, 0, 0, 0}, {0, 0, 0, 0}, 150.0, NULL,
             5.0, 0.0, 0, 0.0, 0, {{0}}, {NULL}, {0}, 0};
  for (int a = 3; a < argc; ++a) {
    if (strcmp(argv[a], "--quick") == 0) b.quick = 1;
    else if (strcmp(argv[a], "--repeats") == 0 && a + 1 < argc) b.repeats = atoi(argv[++a]);
    else if (strcmp(argv[a], "--scenarios") == 0 && a + 1 < argc) b.scen_dir = argv[++a];
    else if (strcmp(argv[a], "--net-n") == 0 && a + 1 < argc) b.net_n = atoi(argv[++a]);
    else if ((strcmp(argv[a], "--omegas") == 0 || strcmp(argv[a], "--xis") == 0) &&
             a + 1 < argc) {
      double *v = strcmp(argv[a], "--xis") == 0 ? b.xis : b.omegas;
      char *p = argv[++a];
      for (int k = 0; k < 4 && *p; ++k) {
        v[k] = strtod(p, &p);
        if (*p == ',') ++p;
      }
    }
    else if (strcmp(argv[a], "--ref-cpu-limit") == 0 && a + 1 < argc)
      b.ref_cpu_limit = atof(argv[++a]);
    else if (strcmp(argv[a], "--methods") == 0 && a + 1 < argc) b.methods = argv[++a];
    else if (strcmp(argv[a], "--cpu-budget") == 0 && a + 1 < argc)
      b.cpu_budget = atof(argv[++a]);
    else if (strcmp(argv[a], "--ref-rk4") == 0 && a + 1 < argc) b.ref_rk4_h = atof(argv[++a]);
    else if (strcmp(argv[a], "--reuse-ref") == 0) b.reuse_ref = 1;
    else if (strcmp(argv[a], "--rk4-from") == 0 && a + 1 < argc) b.rk4_from = atof(argv[++a]);
    else if (strcmp(argv[a], "--arkode-variant") == 0 && a + 1 < argc) {
      const char *v = argv[++a], *colon = strchr(v, ':');
      size_t len = colon ? (size_t)(colon - v) : 0;
      if (!colon || len == 0 || len > 32 || b.nvariants == 4) {
        fprintf(stderr, "--arkode-variant: expected LABEL:KEYS (label of 1-32 characters, at "
                        "most 4 variants): %s\n", v);
        return 2;
      }
      snprintf(b.variant_label[b.nvariants], sizeof b.variant_label[0], "arkode-%.*s",
               (int)len, v);
      b.variant_keys[b.nvariants++] = colon + 1;
    } else if (strcmp(argv[a], "--rtols") == 0 && a + 1 < argc) {
      char *p = argv[++a];
      b.nrtols = 0;
      while (*p && b.nrtols < 6) {
        double r = strtod(p, &p);
        if (!(r > 0.0) || (*p && *p != ',')) {
          fprintf(stderr, "--rtols: expected up to 6 positive numbers separated by commas\n");
          return 2;
        }
        b.rtols[b.nrtols++] = r;
        if (*p == ',') ++p;
      }
    }
    else {
      fprintf(stderr, "unknown option %s\n", argv[a]);
      return 2;
    }
  }
  if (b.repeats < 1) b.repeats = 1;
  if (!(b.ref_cpu_limit > 0.0)) b.ref_cpu_limit = 150.0;
  mkdir(b.out, 0777);
  char path[1024];
  snprintf(path, sizeof path, "%s/summary.txt", b.out);
  b.summary = fopen(path, "a");
  const char *part = argv[1];
  int all = strcmp(part, "all") == 0;
  say(&b, "# bench_workprec %s%s, repeats %d, baseline child RSS %.1f MB\n", part,
      b.quick ? " --quick" : "", b.repeats, wp_baseline_rss_mb());
  if (all || strcmp(part, "bola") == 0) part_bola(&b);
  if (all || strcmp(part, "ball") == 0) part_ball(&b);
  if (all || strcmp(part, "chain") == 0) part_chain(&b);
  if (all || strcmp(part, "exact") == 0) part_exact(&b);
  if (all || strcmp(part, "netexact") == 0) part_netexact(&b);
  if (all || strcmp(part, "reuse") == 0) part_reuse(&b);
  if (all || strcmp(part, "net") == 0) part_net(&b);
  if (all || strcmp(part, "netxi") == 0) part_netxi(&b);
  if (all || strcmp(part, "lose") == 0) part_lose(&b);
  if (all || strcmp(part, "jac") == 0) part_jac(&b);
  if (all || strcmp(part, "cross") == 0) part_cross(&b);
  if (b.summary) fclose(b.summary);
  return 0;
}
