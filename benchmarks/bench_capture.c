/* bench_capture.c - cost of the net capture (model kind net_capture, issue 4):
 * an n x n net launched from one point captures the tumbling octagonal prism
 * of scenarios/capture_demo.yaml (event mode: impacts, persistent contact,
 * release), integrated by RK4, CVODE (Adams or BDF) or IDA (+KLU when the
 * kind offers the DAE form).
 *
 * Scaling with n (the demo is n = 10): the net keeps the demo's side length
 * 9 x 0.45 = 4.05 m and total mass 100 x 0.01 = 1 kg, so spacing =
 * 4.05 / (n - 1) and point_mass = 1 / n^2; launch point (0, 0, -5), launch
 * velocity (0, 0, 3) m/s and deploy time 1 s are the demo's, so every n
 * spreads the same square to full size 2 m in front of the prism at t = 1 s
 * and meets it at about t = 1.3 s.
 *
 * Usage: bench_capture N METHOD T_END TOL [--save FILE] [--ref FILE]
 *                      [--cpu-limit SEC] [--dt-out DT] [--ordering ORD]
 *                      [--mode event|baumgarte] [--switching located|state]
 *                      [--restart-step X] [--forces bilateral|unilateral]
 *                      [--progress] [--theta X] [--release-held]
 *                      [--dump-onestep DIR --dump-at T1,T2,...]
 *   METHOD: rk4 | cvode-adams | cvode-bdf | ida (IDA uses KLU) | moreau
 *   (event capturing, Moreau-Jean; doc/capture.md "Event capturing") |
 *   arkode (ESDIRK on the DAE form through its completion, KLU; doc/arkode.md).
 *   --table NAME: arkode's table (solver.arkode_table names; default the
 *   engine's, esdirk43i6; before 2026-11-27 esdirk547);
 *   --restart auto|solver: solver.restart; --jac-reuse X: solver.jac_reuse_cj;
 *   --event-window X: solver.event_window (default 0: near-simultaneous
 *   roots are not grouped; 1: within rtol h; grouped= counts those that were).
 *   TOL: the fixed step for RK4 and moreau, else rtol (atol = 1e-2 rtol, as
 *   the demo).
 *   --theta X: moreau's theta (default 1/2); --release-held: event mode's
 *   release_held (impacts may release held strings and contacts: the
 *   complementarity moreau solves).
 *   --save writes the final positions of the net points and body vertices
 *   (binary doubles); --ref compares with such a file: end_err = max over
 *   net points and body vertices of |x - x_ref| (m).
 *   --mode baumgarte: the seed's compliant strings and contacts (sec. 3.3,
 *   eq. 3.2) with the bench's xi = 1, omega = 10 (default: event mode, the
 *   demo's); --switching state: the seed's own method, modes from c >= 0 at
 *   every RK4 stage, nothing located (RK4 only, doc/capture.md).
 *   --forces unilateral: baumgarte_forces: unilateral (a string only pulls,
 *   a contact only pushes; doc/capture.md; under IDA the DAE form's forced
 *   flags are modes switched at located roots).
 *   --progress: a line per output time (and before each event) on stderr:
 *   t, CPU s, events, taut strings, contacts, kinetic energy and the
 *   deepest active row below its surface (c / c_s < 0), so a long run
 *   shows where it is and a blow-up where it starts.
 *   --restart-step X: IDA's first step after an event as X times the last
 *   step (solver.restart_step; default 0: --restart decides, auto by default).
 *   --cpu-limit stops the run at the first output time (every DT, default
 *   0.05 s) after SEC CPU seconds; t_reached says how far it got.
 *   --dump-onestep DIR --dump-at T1,T2,...: moreau only; the one-step
 *   problems of the steps that start at T1, T2, ... (the state, index set,
 *   Jacobian at the predicted end and warm start exactly as the backend
 *   forms them) written as DIR/capture_N_T.txt in the format of
 *   onestep_io.h, for benchmarks/siconos/bench_lcp_siconos (a 30 x 30
 *   problem is about 1 MB of text: keep them out of the repository).
 * Prints one line: size, unknowns, method, tol, status, t_reached, CPU time
 * (user + system of the whole process, getrusage), wall time of the
 * solver, both per simulated second, steps, rhs/residual evaluations, root
 * evaluations, linear-solver setups, events, impacts (activations in
 * Baumgarte mode), releases, face switches, final taut strings and
 * contacts, peak resident memory, end-point error, relative momentum drift
 * |p_end - p_0| / |p_0| and |L_end - L_0| / |L_0|, kinetic energy at the end,
 * and the end state's violation for any method: end_stretch = the largest
 * |x_a - x_b| - L over strings (m, > 0: beyond its length), end_penetration =
 * the deepest point inside the body (m); event mode: settle_releases and
 * settle_impacts, the rows the event handler's consistency rule released or
 * resolved as impacts after an event map (capture_settle_stats), of the
 * releases those the closed rows' complementarity problem made
 * (settle_lcp_releases) and the settlings where it had no solution within
 * its pivoting limit (settle_lcp_unsolved; capture_settle_lcp_stats). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
#include "capture/capture_mechanics.h"
#include "mbdae/mbdae.h"
#include "onestep_io.h"

extern const mbdae_model_kind mbdae_model_net_capture;

static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + 1e-6 * ru.ru_utime.tv_usec + ru.ru_stime.tv_sec +
         1e-6 * ru.ru_stime.tv_usec;
}

/* --dump-onestep: the steps to write */
#define MAX_DUMPS 32
typedef struct dump_data {
  const char *dir;
  double at[MAX_DUMPS];
  int nat, written, rc;
  const mbdae_options *o;
  const capture_model *m;
  int n;
} dump_data;

/* After the step ending at t: write the problem of the step starting at t
 * if t is a listed time (P0 = this step's impulses, the backend's warm start). */
static int dump_step(const mbdae_step_record *r, void *ud) {
  dump_data *d = ud;
  for (int k = 0; k < d->nat; ++k) {
    if (fabs(r->t - d->at[k]) > 0.5 * r->h) continue;
    const capture_model *m = d->m;
    double *P0 = malloc((size_t)(m->nc + 1) * sizeof *P0);
    if (!P0) return -1;
    for (int i = 0; i < m->nc; ++i) P0[i] = m->lambda[i] * r->h;
    onestep os;
    char path[1024];
    snprintf(path, sizeof path, "%s/capture_%d_%.4f.txt", d->dir, d->n, r->t);
    d->rc = onestep_build(m->problem, d->o, r->t, r->h, r->y, P0, &os);
    free(P0);
    if (!d->rc) d->rc = onestep_write(path, &os);
    if (d->rc) {
      fprintf(stderr, "%s: could not be written (status %d)\n", path, d->rc);
      return -1;
    }
    int in = 0;
    for (int i = 0; i < os.nc; ++i) in += os.in_set[i];
    fprintf(stderr, "%s: step [%g, %g], %d rows in the set of %d\n", path, os.t, os.t + os.h,
            in, os.nc);
    onestep_free(&os);
    d->written++;
  }
  return d->written == d->nat ? 1 : 0; /* all written: stop the run */
}

typedef struct limit_data {
  double cpu_limit;
  int progress;              /* --progress: a line per output time on stderr */
  long events;
  const capture_model *m;
} limit_data;

static int observer(double t, const double *y, const double *yp,
                    const mbdae_event_record *ev, void *ud) {
  (void)yp;
  limit_data *l = ud;
  if (ev) {
    l->events++;
    return 0;
  }
  double cpu = cpu_seconds();
  if (l->progress && l->m) {
    double pl[3], L[3], E;
    capture_momenta(l->m, y, pl, L, &E);
    /* the deepest held row below its surface (c < 0 while active), relative */
    const capture_model *mm = l->m;
    double cmin = 0.0;
    for (int k = 0; k < mm->nc && !mm->mech; ++k) { /* moreau: rows are not kept */
      double cs = k < mm->ns ? mm->net->s[k].L * mm->net->s[k].L : 1.0;
      if (mm->active[k] && mm->rows[k].c / cs < cmin) cmin = mm->rows[k].c / cs;
    }
    fprintf(stderr,
            "progress t=%.4f cpu_s=%.1f events=%ld taut=%d contacts=%d E=%.6g "
            "held_below=%.3e\n",
            t, cpu, l->events, capture_active_strings(mm), capture_active_contacts(mm), E, cmin);
  }
  return l->cpu_limit > 0.0 && cpu > l->cpu_limit ? 1 : 0;
}

static double mean_order(const mbdae_stats *st) {
  double n = 0.0, sum = 0.0;
  for (int q = 1; q <= MBDAE_STATS_ORDERS; ++q) {
    n += (double)st->steps_by_order[q - 1];
    sum += q * (double)st->steps_by_order[q - 1];
  }
  return n > 0.0 ? sum / n : 0.0;
}

/* net points then body vertices in the inertial frame (npos x 3) */
static double *positions(const capture_model *m, const double *y, int *npos) {
  int np = capture_npoints(m), nv = capture_body(m)->nv;
  double *x = malloc(3 * (size_t)(np + nv) * sizeof *x);
  if (!x) return NULL;
  memcpy(x, y, 3 * (size_t)np * sizeof *x);
  capture_body_vertices(m, y, &x[3 * np]);
  *npos = np + nv;
  return x;
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s N rk4|cvode-adams|cvode-bdf|ida|arkode|moreau T_END TOL [--save FILE] "
                    "[--ref FILE] [--cpu-limit SEC] [--dt-out DT]\n"
                    "       [--ordering amd|colamd|metis]\n", argv[0]);
    return 2;
  }
  const char *save = NULL, *ref = NULL, *ordering = "amd", *mode = "event",
             *switching = "located", *forces = "bilateral", *table = NULL,
             *restart = NULL;
  double jac_reuse = -1.0, event_window = -1.0;
  limit_data lim = {0.0, 0, 0, NULL};
  double dt_out = 0.05, restart_step = 0.0, theta = 0.5;
  dump_data dump;
  memset(&dump, 0, sizeof dump);
  int release_held = 0;
  for (int a = 5; a < argc; a += 2) {
    if (strcmp(argv[a], "--progress") == 0) { /* a flag: no value */
      lim.progress = 1;
      a -= 1;
      continue;
    }
    if (strcmp(argv[a], "--release-held") == 0) {
      release_held = 1;
      a -= 1;
      continue;
    }
    if (a + 1 >= argc) {
      fprintf(stderr, "option %s needs a value\n", argv[a]);
      return 2;
    }
    if (strcmp(argv[a], "--save") == 0) save = argv[a + 1];
    else if (strcmp(argv[a], "--ref") == 0) ref = argv[a + 1];
    else if (strcmp(argv[a], "--cpu-limit") == 0) lim.cpu_limit = atof(argv[a + 1]);
    else if (strcmp(argv[a], "--dt-out") == 0) dt_out = atof(argv[a + 1]);
    else if (strcmp(argv[a], "--ordering") == 0) ordering = argv[a + 1];
    else if (strcmp(argv[a], "--mode") == 0) mode = argv[a + 1];
    else if (strcmp(argv[a], "--restart-step") == 0) restart_step = atof(argv[a + 1]);
    else if (strcmp(argv[a], "--switching") == 0) switching = argv[a + 1];
    else if (strcmp(argv[a], "--forces") == 0) forces = argv[a + 1];
    else if (strcmp(argv[a], "--theta") == 0) theta = atof(argv[a + 1]);
    else if (strcmp(argv[a], "--table") == 0) table = argv[a + 1];
    else if (strcmp(argv[a], "--restart") == 0) restart = argv[a + 1];
    else if (strcmp(argv[a], "--jac-reuse") == 0) jac_reuse = atof(argv[a + 1]);
    else if (strcmp(argv[a], "--event-window") == 0) event_window = atof(argv[a + 1]);
    else if (strcmp(argv[a], "--dump-onestep") == 0) dump.dir = argv[a + 1];
    else if (strcmp(argv[a], "--dump-at") == 0) {
      char *s = argv[a + 1], *end = NULL;
      while (*s && dump.nat < MAX_DUMPS) {
        dump.at[dump.nat++] = strtod(s, &end);
        if (end == s) {
          fprintf(stderr, "--dump-at: not a list of times: %s\n", argv[a + 1]);
          return 2;
        }
        s = *end == ',' ? end + 1 : end;
      }
    }
    else { fprintf(stderr, "unknown option %s\n", argv[a]); return 2; }
  }
  int n = atoi(argv[1]);
  double t_end = atof(argv[3]), tol = atof(argv[4]);
  mbdae_options o;
  mbdae_options_default(&o);
  if (n < 2 || n > 100 || !(t_end > 0.0) || !(tol > 0.0) ||
      mbdae_method_parse(argv[2], &o.method) != 0) {
    fprintf(stderr, "bad arguments\n");
    return 2;
  }
  /* the demo's scenario (scenarios/capture_demo.yaml), scaled as above */
  capture_params p;
  capture_params_default(&p);
  p.mode = strcmp(mode, "baumgarte") == 0 ? CAPTURE_MODE_BAUMGARTE : CAPTURE_MODE_EVENT;
  p.switching = strcmp(switching, "state") == 0 ? CAPTURE_SWITCH_STATE : CAPTURE_SWITCH_LOCATED;
  p.forces = strcmp(forces, "unilateral") == 0 ? CAPTURE_FORCES_UNILATERAL : CAPTURE_FORCES_BILATERAL;
  p.rows = p.cols = n;
  p.spacing = 0.45 * 9.0 / (n - 1);
  p.point_mass = 1.0 / ((double)n * n);
  p.launch_point[0] = 0.0; p.launch_point[1] = 0.0; p.launch_point[2] = -5.0;
  p.launch_velocity[0] = 0.0; p.launch_velocity[1] = 0.0; p.launch_velocity[2] = 3.0;
  p.deploy_time = 1.0;
  p.shape = CAPTURE_SHAPE_PRISM;
  p.prism_sides = 8;
  p.prism_radius = 1.0;
  p.prism_length = 2.0;
  p.body_mass = 10.0;
  p.body_attitude[0] = 0.7071067811865476;
  p.body_attitude[1] = 0.0;
  p.body_attitude[2] = 0.7071067811865476;
  p.body_attitude[3] = 0.0;
  p.body_omega[0] = 0.0; p.body_omega[1] = 0.3; p.body_omega[2] = 0.2;
  p.e_string = 0.0;
  p.e_body = 0.3;
  p.stick_velocity = 0.001;
  p.release_held = release_held;
  p.xi_string = p.xi_body = 1.0;
  p.omega_string = p.omega_body = 10.0;

  int rk4 = o.method == MBDAE_METHOD_RK4 || o.method == MBDAE_METHOD_MOREAU;
  o.linsol = o.method == MBDAE_METHOD_IDA || o.method == MBDAE_METHOD_ARKODE ? MBDAE_LINSOL_KLU
                                                                            : MBDAE_LINSOL_DENSE;
  if (table) { /* the names of solver.arkode_table, in mbdae_arkode_table's order */
    static const char *const names[] = {"esdirk324", "esdirk325", "esdirk32i5", "esdirk436",
                                        "esdirk43i6", "qesdirk436", "esdirk437", "esdirk547",
                                        "esdirk547b", "ark324", "ark436", "ark437", "ark548",
                                        "kvaerno423", "kvaerno534", "kvaerno745", "trbdf2"};
    int k = 0, nt = (int)(sizeof names / sizeof names[0]);
    while (k < nt && strcmp(names[k], table) != 0) ++k;
    if (k == nt) {
      fprintf(stderr, "unknown table %s\n", table);
      return 2;
    }
    o.arkode_table = (mbdae_arkode_table)k;
  }
  if (restart) o.restart_policy = strcmp(restart, "auto") == 0 ? MBDAE_RESTART_AUTO
                                                                : MBDAE_RESTART_SOLVER;
  if (jac_reuse >= 0.0) o.jac_reuse_cj = jac_reuse;
  if (event_window >= 0.0) o.event_window = event_window;
  o.ordering = strcmp(ordering, "metis") == 0    ? MBDAE_ORDERING_METIS
               : strcmp(ordering, "colamd") == 0 ? MBDAE_ORDERING_COLAMD
                                                 : MBDAE_ORDERING_AMD;
  o.t_end = t_end;
  o.dt_out = dt_out < t_end ? dt_out : t_end;
  o.rtol = rk4 ? 1e-9 : tol;
  o.atol = rk4 ? 1e-11 : 1e-2 * tol;
  o.rk4_step = rk4 ? tol : 1e-3;
  o.moreau_step = tol;
  o.theta = theta;
  o.max_steps = 100000000;
  o.restart_step = restart_step;
  o.window_events = 1000000;
  o.window_length = 1e-12;
  o.observer = observer;
  o.observer_data = &lim;
  if (dump.dir) {
    if (o.method != MBDAE_METHOD_MOREAU || dump.nat == 0) {
      fprintf(stderr, "--dump-onestep needs method moreau and --dump-at T1,T2,...\n");
      return 2;
    }
    o.step_observer = dump_step;
    o.step_data = &dump;
  }

  mbdae_model *mk = NULL;
  mbdae_param_error err;
  memset(&err, 0, sizeof err);
  int rc = mbdae_model_net_capture.create(&p, &o, &mk, &err);
  if (rc) {
    fprintf(stderr, "create: %s %s\n", err.key ? err.key : "", err.msg);
    return 1;
  }
  capture_model *m = (capture_model *)mk;
  lim.m = m;
  dump.m = m;
  dump.o = &o;
  dump.n = n;
  mbdae_problem *pr = mbdae_model_net_capture.problem(mk);
  int nsz = mbdae_problem_size(pr);
  double *y = calloc((size_t)nsz, sizeof *y), *yp = calloc((size_t)nsz, sizeof *yp);
  if (!y || !yp) return 1;
  rc = mbdae_model_net_capture.initial_state(mk, 0.0, y, yp);
  double p0[3], L0[3], E0, p1[3], L1[3], E1;
  capture_momenta(m, y, p0, L0, &E0);
  mbdae_stats st;
  memset(&st, 0, sizeof st);
  char msg[512] = "";
  if (!rc) rc = mbdae_run(pr, &o, y, yp, &st, msg, sizeof msg);
  capture_momenta(m, y, p1, L1, &E1);
  double dp = 0, np0 = 0, dL = 0, nL0 = 0;
  for (int c = 0; c < 3; ++c) {
    dp += (p1[c] - p0[c]) * (p1[c] - p0[c]);
    np0 += p0[c] * p0[c];
    dL += (L1[c] - L0[c]) * (L1[c] - L0[c]);
    nL0 += L0[c] * L0[c];
  }
  int npos = 0;
  double *x = positions(m, y, &npos), errmax = NAN;
  if (!x) return 1;
  if (save) {
    FILE *f = fopen(save, "wb");
    if (f) {
      fwrite(x, sizeof *x, 3 * (size_t)npos, f);
      fclose(f);
    }
  }
  if (ref) {
    FILE *f = fopen(ref, "rb");
    double *r = malloc(3 * (size_t)npos * sizeof *r);
    if (f && r && fread(r, sizeof *r, 3 * (size_t)npos, f) == 3 * (size_t)npos) {
      errmax = 0.0;
      for (int k = 0; k < npos; ++k) {
        double d = 0.0;
        for (int c = 0; c < 3; ++c) d += pow(x[3 * k + c] - r[3 * k + c], 2);
        if (sqrt(d) > errmax) errmax = sqrt(d);
      }
    }
    if (f) fclose(f);
    free(r);
  }
  /* the end state's constraint violation, the same measure for every method:
   * the longest string beyond its length, and the deepest point in the body */
  double stretch = 0.0, pen = capture_max_penetration(m, y);
  for (int k = 0; k < capture_nstrings(m); ++k) {
    int ia, ib;
    double L, d = 0.0;
    capture_string_ends(m, k, &ia, &ib, &L);
    for (int c = 0; c < 3; ++c) d += pow(y[3 * ia + c] - y[3 * ib + c], 2);
    if (sqrt(d) - L > stretch) stretch = sqrt(d) - L;
  }
  double cpu = cpu_seconds();
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  long ja, jf, jd;
  capture_joint_stats(m, &ja, &jf, &jd);
  long settle_rel, settle_imp;
  capture_settle_stats(m, &settle_rel, &settle_imp);
  long settle_lcp_rel, settle_lcp_uns;
  capture_settle_lcp_stats(m, &settle_lcp_rel, &settle_lcp_uns);
  double tr = st.t_reached > 0.0 ? st.t_reached : 1.0;
  printf("capture n=%d points=%d unknowns=%d %s tol=%g rc=%d t_reached=%.4g cpu_s=%.2f "
         "wall_s=%.2f cpu/sim_s=%.4g steps=%ld rhs=%ld roots=%ld setups=%ld events=%ld "
         "impacts=%ld releases=%ld face_switches=%ld taut=%d contacts=%d peak_rss_MB=%.1f "
         "end_err=%.3e dp_rel=%.2e "
         "dL_rel=%.2e E_end=%.6g klu_analyses=%ld klu_factors=%ld dense_fallbacks=%ld "
         "ns_iters=%ld ns_fallbacks=%ld set_max=%ld set_mean=%.1f max_violation=%.3e "
         "max_energy_rise=%.3e work_impulses=%.4g newton_iters=%ld newton_fails=%ld "
         "err_fails=%ld jac_evals=%ld restarts=%ld ramp_steps=%ld mean_order=%.2f "
         "grouped=%ld end_stretch=%.3e end_penetration=%.3e settle_releases=%ld "
         "settle_impacts=%ld settle_lcp_releases=%ld settle_lcp_unsolved=%ld %s\n",
         n, capture_npoints(m), nsz, argv[2], tol, rc, st.t_reached, cpu, st.wall_time,
         cpu / tr, st.steps, st.rhs_evals, st.root_evals, st.lin_setups, st.events,
         capture_impacts(m), capture_releases(m), capture_face_switches(m),
         capture_active_strings(m), capture_active_contacts(m),
         ru.ru_maxrss / 1024.0, errmax, sqrt(dp / np0), sqrt(dL / nL0), E1, ja,
         jf, jd, st.nonsmooth_iters, st.nonsmooth_fallbacks, st.index_set_max,
         st.index_set_mean, st.max_violation, st.max_energy_rise, st.work_impulses,
         st.newton_iters, st.newton_fails, st.err_test_fails, st.jac_evals, st.restarts,
         st.ramp_steps, mean_order(&st), st.grouped_roots, stretch, pen, settle_rel,
         settle_imp, settle_lcp_rel, settle_lcp_uns, rc ? msg : "");
  free(x);
  free(y);
  free(yp);
  mbdae_model_net_capture.destroy(&mk);
  return rc && rc != MBDAE_STOPPED ? 1 : 0;
}
