/* bench_onestep_dump.c - the one-step nonsmooth problems of a real moreau run
 * of any scenario, written as files of benchmarks/onestep_io.h so that other
 * solvers (benchmarks/siconos/bench_lcp_siconos.c) solve exactly the problems
 * mbdae's backend solved.
 *
 *   bench_onestep_dump SCENARIO.yaml PREFIX T1 [T2 ...] [--set KEY=VALUE]...
 *
 * runs the scenario with solver.method moreau and writes, for each Ti, the
 * problem of the step that starts at the grid time nearest Ti to
 * PREFIX_<Ti>.txt (warm start: the impulses of the step before, as the
 * backend has them). Each file is checked against the run: after the step
 * it is solved again by solver/nonsmooth.c and its impulses compared with
 * the ones the backend reported for that step (printed as max |dP|; a
 * difference above the tolerance's scale would mean the file is not the
 * backend's problem). Example, the 30 x 30 capture of bench_capture:
 *
 *   bench_onestep_dump scenarios/capture_demo.yaml /tmp/cap30 1.5 2.5 \
 *     --set parameters.rows=30 --set parameters.cols=30 \
 *     --set parameters.spacing=0.13965517241379310 \
 *     --set parameters.point_mass=0.0011111111111111111 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "friction.h"
#include "nonsmooth.h"
#include "onestep_io.h"
#include "scenario.h"

typedef struct dumper {
  mbdae_problem *p;
  const mbdae_options *o;
  mbdae_impulse_fn model_impulses; /* the model's own observer (may be NULL) */
  double *last;                    /* impulses of the last step (nc) */
  const double *times;
  int ntimes, next;
  const char *prefix;
  onestep pending;                 /* the problem written, checked at the next step */
  int have_pending;
  double pending_T;
  int failed;
} dumper;

static dumper *the_dumper; /* the impulse observer has the model's user data only */

static int record_impulses(double t, double h, const double *P, void *ud) {
  dumper *d = the_dumper;
  const mbdae_mechanics *m = d->p->mech;
  memcpy(d->last, P, (size_t)(m->nu + m->nb) * sizeof *P);
  return d->model_impulses ? d->model_impulses(t, h, P, ud) : 0;
}

/* The written problem with friction solved by solver/friction.c as the
 * backend calls it (the tangential warm start of the file, 0). */
static int replay_friction(const onestep *s, const mbdae_options *o, const mbdae_index *wp,
                           const mbdae_index *wi, const mbdae_index *gp, const mbdae_index *gi,
                           double *v, double *P, ns_result *res, char *msg, size_t msglen) {
  mbdae_index *tp = malloc((size_t)(2 * s->nf + 1) * sizeof *tp);
  mbdae_index *ti = malloc((size_t)(s->t_nnz + 1) * sizeof *ti);
  double *Pt = malloc((size_t)(2 * s->nf) * sizeof *Pt);
  int rc = -3;
  if (tp && ti && Pt) {
    for (int r = 0; r <= 2 * s->nf; ++r) tp[r] = (mbdae_index)s->tp[r];
    for (long k = 0; k < s->t_nnz; ++k) ti[k] = (mbdae_index)s->ti[k];
    memcpy(Pt, s->Pt0, (size_t)(2 * s->nf) * sizeof *Pt);
    fc_solver *fc = fc_create(s->nv, wp, wi, s->nc, s->nu, gp, gi, s->nf, s->frows, s->mu, tp,
                              ti, msg, msglen);
    fc_input in = {.Wx = s->wx, .w_changed = 1, .Gx = s->gx, .Tx = s->tx, .r = s->r, .b = s->b,
                   .in_set = s->in_set, .tol = o->nonsmooth_tol,
                   .max_sweeps = NS_FRICTION_SWEEPS, .max_newton = NS_FRICTION_NEWTON};
    rc = fc ? fc_solve(fc, &in, v, P, Pt, res, msg, msglen) : -3;
    fc_free(&fc);
  }
  free(tp), free(ti), free(Pt);
  return rc;
}

/* Solve the written problem again and compare with the backend's impulses. */
static void check_pending(dumper *d) {
  onestep *s = &d->pending;
  char msg[512] = "";
  mbdae_index *wp = malloc((size_t)(s->nv + 1) * sizeof *wp);
  mbdae_index *wi = malloc((size_t)s->w_nnz * sizeof *wi);
  mbdae_index *gp = malloc((size_t)(s->nc + 1) * sizeof *gp);
  mbdae_index *gi = malloc((size_t)(s->g_nnz + 1) * sizeof *gi);
  double *v = malloc((size_t)s->nv * sizeof *v), *P = malloc((size_t)(s->nc + 1) * sizeof *P);
  if (!wp || !wi || !gp || !gi || !v || !P) {
    d->failed = 1;
  } else {
    for (int j = 0; j <= s->nv; ++j) wp[j] = (mbdae_index)s->wp[j];
    for (long k = 0; k < s->w_nnz; ++k) wi[k] = (mbdae_index)s->wi[k];
    for (int i = 0; i <= s->nc; ++i) gp[i] = (mbdae_index)s->gp[i];
    for (long k = 0; k < s->g_nnz; ++k) gi[k] = (mbdae_index)s->gi[k];
    memcpy(P, s->P0, (size_t)s->nc * sizeof *P);
    ns_result res;
    int rc;
    if (s->nf > 0) { /* friction: the backend's solver (friction.h) */
      rc = replay_friction(s, d->o, wp, wi, gp, gi, v, P, &res, msg, sizeof msg);
    } else {
      ns_solver *ns = ns_create(s->nv, wp, wi, s->nc, s->nu, gp, gi, msg, sizeof msg);
      ns_input in = {.Wx = s->wx, .w_changed = 1, .Gx = s->gx, .r = s->r, .b = s->b,
                     .in_set = s->in_set, .tol = d->o->nonsmooth_tol,
                     .max_iter = d->o->nonsmooth_max_iter};
      rc = ns ? ns_solve(ns, &in, v, P, &res, msg, sizeof msg) : -3;
      ns_free(&ns);
    }
    double dP = 0.0, Pmax = 0.0;
    int nset = 0;
    for (int i = 0; i < s->nc; ++i) {
      if (!s->in_set[i]) continue;
      nset++;
      dP = fmax(dP, fabs(P[i] - d->last[i]));
      Pmax = fmax(Pmax, fabs(d->last[i]));
    }
    printf("%s_%g.txt: step [%.6g, %.6g], %d of %d rows in the set, solved again: %s "
           "(%d iterations), max |dP| %.2e (max |P| %.2e)\n",
           d->prefix, d->pending_T, s->t, s->t + s->h, nset, s->nc, rc ? msg : "ok",
           rc ? 0 : res.iterations + res.sweeps, dP, Pmax);
    if (rc) d->failed = 1;
  }
  free(wp), free(wi), free(gp), free(gi), free(v), free(P);
  onestep_free(s);
  d->have_pending = 0;
}

static int on_step(const mbdae_step_record *r, void *ud) {
  dumper *d = ud;
  if (d->have_pending) check_pending(d);
  if (d->next >= d->ntimes) return 1;
  if (fabs(r->t - d->times[d->next]) > 0.5 * r->h) return 0;
  char path[4096];
  snprintf(path, sizeof path, "%s_%g.txt", d->prefix, d->times[d->next]);
  int rc = onestep_build(d->p, d->o, r->t, r->h, r->y, d->last, &d->pending);
  if (!rc) rc = onestep_write(path, &d->pending);
  if (rc) {
    fprintf(stderr, "%s: %s\n", path, mbdae_status_message(rc));
    d->failed = 1;
    return -1;
  }
  d->have_pending = 1;
  d->pending_T = d->times[d->next++];
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s SCENARIO.yaml PREFIX T1 [T2 ...] [--set KEY=VALUE]...\n", argv[0]);
    return 2;
  }
  const char *sets[66] = {"solver.method=moreau"};
  int nsets = 1, ntimes = 0;
  double times[256];
  for (int a = 3; a < argc; ++a) {
    if (!strcmp(argv[a], "--set") && a + 1 < argc && nsets < 66) sets[nsets++] = argv[++a];
    else if (ntimes < 256) times[ntimes++] = atof(argv[a]);
  }
  for (int i = 1; i < ntimes; ++i)
    if (!(times[i] > times[i - 1])) {
      fprintf(stderr, "times must increase\n");
      return 2;
    }
  mbdae_scenario s;
  char err[1024];
  if (ntimes == 0 || mbdae_scenario_load(argv[1], sets, nsets, &s, err, sizeof err)) {
    fprintf(stderr, "%s\n", ntimes ? err : "no time given");
    return 2;
  }
  mbdae_options o = s.options;
  o.t_end = times[ntimes - 1] + 3.0 * o.moreau_step;
  o.dt_out = o.t_end - o.t0;
  mbdae_param_error pe;
  memset(&pe, 0, sizeof pe);
  mbdae_model *model = NULL;
  int rc = s.kind->create(s.params, &o, &model, &pe);
  mbdae_problem *p = rc == MBDAE_OK ? s.kind->problem(model) : NULL;
  if (!p || !p->mech) {
    fprintf(stderr, "%s: cannot build the model's mechanical form (%s)\n", argv[1], pe.msg);
    return 1;
  }
  int n = mbdae_problem_size(p), nc = p->mech->nu + p->mech->nb;
  double *y = calloc((size_t)n, sizeof *y), *yp = calloc((size_t)n, sizeof *yp);
  dumper d = {.p = p, .o = &o, .model_impulses = p->mech->impulses,
              .last = calloc((size_t)nc + 1, sizeof(double)), .times = times,
              .ntimes = ntimes, .prefix = argv[2]};
  if (!y || !yp || !d.last) return 1;
  the_dumper = &d;
  p->mech->impulses = record_impulses;
  rc = s.kind->initial_state(model, o.t0, y, yp);
  o.step_observer = on_step;
  o.step_data = &d;
  char msg[1024] = "";
  if (!rc) rc = mbdae_run(p, &o, y, yp, NULL, msg, sizeof msg);
  if (d.have_pending) check_pending(&d);
  if (rc != MBDAE_OK && rc != MBDAE_STOPPED) fprintf(stderr, "run: %s\n", msg);
  int written = d.next;
  p->mech->impulses = d.model_impulses;
  s.kind->destroy(&model);
  mbdae_scenario_free(&s);
  free(y), free(yp), free(d.last);
  if (written < ntimes) fprintf(stderr, "%d of %d problems written\n", written, ntimes);
  return d.failed || written < ntimes ? 1 : 0;
}
