/* workprec.h - the work-precision core of the issue 9 benchmarks (single-header
 * library: exactly one .c file does `#define WORKPREC_IMPLEMENTATION` before
 * including it; benchmarks/bench_workprec.c is that file for the string
 * problems, another benchmark may be the one for its own problems).
 *
 * What it does: run ONE scenario (a loaded driver scenario: model kind,
 * filled parameters, base solver options t0, t_end, dt_out) with ONE solver
 * setting (method, linear solver, ordering, rtol or RK4 step) in a forked
 * child process, and measure
 *   - the error against a reference on the output grid (t0 + k dt_out and
 *     t_end; the pre-event samples the engine also reports are skipped): at the end point and the maximum over the grid. The compared
 *     quantities q(t) come from an extract callback (default: the model's
 *     output_row columns); the error of a sample is the max over groups of
 *     `group` consecutive entries of the Euclidean norm of q - q_ref (group 3
 *     = per-point position error). The reference is either a closed form
 *     (wp_problem.exact) or a file written by an earlier run (wp_opts.save /
 *     wp_opts.ref): one row [t, q...] per grid sample, streamed, so neither
 *     side holds a whole trajectory in memory;
 *   - events: the times of the events that change the state or mode (the
 *     handler's MBDAE_EVENT_CONTINUE, not NOCHANGE crossings such as an apex),
 *     compared in order with exact event times when given: max |t - t_exact|,
 *     and how many were missed (fewer than expected) or extra;
 *   - cost: wall time (CLOCK_MONOTONIC) and CPU time (CLOCK_PROCESS_CPUTIME_ID)
 *     of model creation + initial state + mbdae_run, minus the observer's
 *     own time (reference I/O and error sums); a run shorter than min_cpu is
 *     repeated inside the child without observer and timed as the mean
 *     (CPU clocks tick coarsely here); median over up to `repeats`
 *     children (fewer when the first ones already used `cpu_budget`); the
 *     engine's counters (steps, residual/RHS evaluations including the
 *     difference-quotient ones, Jacobian evaluations, linear-solver setups =
 *     factorizations, root evaluations) from the first child; peak resident
 *     memory = the largest ru_maxrss of the children (wait4), each child
 *     forked from a parent that holds no model (wp_baseline_rss_mb() gives
 *     the RSS of a child that does nothing, to subtract if wanted).
 * A child that exceeds `cpu_limit` CPU seconds stops at its next output time
 * (status MBDAE_STOPPED, t_reached < t_end; its end-point error is NaN); one
 * that stalls between output times is killed at 2 cpu_limit + 10 CPU seconds
 * (RLIMIT_CPU; message "child died (signal 24)").
 * The including file must define _DEFAULT_SOURCE (fork, wait4, clock_gettime)
 * before its first #include.
 *
 * Typical use:
 *   mbdae_scenario s;  mbdae_scenario_load(path, sets, nsets, &s, err, len);
 *   wp_problem pb = {.name = "bola", .scenario = &s, .group = 3,
 *                    .count = my_count, .extract = my_extract};
 *   wp_method m = {"ida-klu", MBDAE_METHOD_IDA, MBDAE_LINSOL_KLU,
 *                  MBDAE_ORDERING_AMD, 0};
 *   wp_opts op; wp_opts_default(&op); op.save = "ref.bin";
 *   wp_result r; wp_measure(&pb, &m, 1e-10, &op, &r);      (the reference)
 *   op.save = NULL; op.ref = "ref.bin";
 *   wp_measure(&pb, &m2, 1e-6, &op, &r);
 *   wp_csv_header(f); wp_csv_row(f, &pb, &m2, &r);
 */
#ifndef MBDAE_BENCH_WORKPREC_H
#define MBDAE_BENCH_WORKPREC_H

#include <stdio.h>

#include "mbdae/engine.h"
#include "mbdae/model.h"
#include "scenario.h"

/* One integrator configuration (a line of a work-precision plot). */
typedef struct wp_method {
  const char *label;        /* "ida-klu", "ida-dense", "cvode-bdf-dense", ... */
  mbdae_method method;
  mbdae_linsol linsol;
  mbdae_ordering ordering;
  int dq_jacobian;          /* 1: hide the model's analytic DENSE Jacobian, so
                               IDA/CVODE dense use SUNDIALS' difference quotients */
  int max_order;            /* BDF/Adams order cap; 0: the scenario's (solver default) */
} wp_method;

/* Number of compared quantities for this model instance (> 0). */
typedef int (*wp_count_fn)(const mbdae_model_kind *k, mbdae_model *m, void *ud);
/* Fill q[count] from the state at t. Return 0, or < 0 on failure. */
typedef int (*wp_extract_fn)(const mbdae_model_kind *k, mbdae_model *m, double t,
                             const double *y, const double *yp, double *q, void *ud);
/* Closed-form reference q(t); return 0. */
typedef int (*wp_exact_fn)(double t, double *q, void *ud);

typedef struct wp_problem {
  const char *name;                /* CSV column `problem` */
  const mbdae_scenario *scenario;  /* kind, params, base options (t0, t_end, dt_out,
                                      atol_ratio below overrides atol) */
  wp_count_fn count;               /* NULL: the model's output columns */
  wp_extract_fn extract;           /* NULL: the model's output_row */
  void *ud;                        /* passed to count/extract/exact */
  int group;                       /* error norm group size (1 or 3); 0 = 1 */
  wp_exact_fn exact;               /* closed-form reference or NULL */
  const double *exact_events;      /* expected event times (sorted) or NULL */
  int nexact_events;
} wp_problem;

typedef struct wp_opts {
  int repeats;          /* children per setting, median of wall/CPU (default 3) */
  double cpu_budget;    /* stop repeating once the children used this much CPU (s) */
  double cpu_limit;     /* per child: stop at the next output time after this CPU (s); 0 none */
  double atol_ratio;    /* atol = atol_ratio * rtol (adaptive methods; default 1e-3) */
  double rk4_rtol;      /* rtol/atol given to RK4's root location (default 1e-10, 1e-12) */
  const char *save;     /* write the run's grid samples as a reference file */
  const char *ref;      /* compare with this reference file (else .exact, else none) */
  double min_cpu;       /* a run shorter than this (CPU s) is repeated inside its child,
                           timing only, until this much CPU is used: wall/cpu are then
                           the mean per run (default 0.2; 0: off) */
} wp_opts;

typedef struct wp_result {
  int status;               /* mbdae_run's status of the first child (or < 0: the
                               child could not run: message says why) */
  char message[256];
  double tol;               /* rtol, or the RK4 step */
  double t_reached;
  double err_end, err_max;  /* NaN when there is no reference / not reached */
  int nsamples;             /* grid samples compared */
  double wall, cpu;         /* medians, seconds */
  double cpu_min, cpu_max;
  int reps;                 /* children that ran */
  long steps, rhs_evals, jac_evals, lin_setups, root_evals, newton_iters;
  long newton_fails, err_test_fails; /* nonlinear / local error test failures (not in the CSV) */
  long krylov_iters, prec_factors; /* ida spgmr*: GMRES iterations, preconditioner
                                      evaluations (not in the CSV) */
  long events;              /* events with MBDAE_EVENT_CONTINUE */
  double ev_err_max;        /* max |t_k - t_k,exact| over matched events (NaN: none) */
  int ev_missed, ev_extra;  /* vs exact_events */
  double peak_rss_mb;
} wp_result;

void wp_opts_default(wp_opts *o);
/* Run pb with method m at tol (rtol, or the RK4 step) as described above.
 * Returns 0 when the measurement was made (see res->status for the run), < 0
 * when no child could be run. */
int wp_measure(const wp_problem *pb, const wp_method *m, double tol, const wp_opts *o,
               wp_result *res);
/* Peak RSS of a forked child that returns at once (MB). */
double wp_baseline_rss_mb(void);
/* CSV: one header line, then one row per measurement (comma separated). */
void wp_csv_header(FILE *f);
void wp_csv_row(FILE *f, const wp_problem *pb, const wp_method *m, const wp_result *r);
/* Median of v[0..n) (reorders v). */
double wp_median(double *v, int n);

#endif /* MBDAE_BENCH_WORKPREC_H */

/* ---------------------------------------------------------------------- */
#ifdef WORKPREC_IMPLEMENTATION
#ifndef MBDAE_BENCH_WORKPREC_IMPL_DONE
#define MBDAE_BENCH_WORKPREC_IMPL_DONE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "mbdae/status.h"
#include "problem_impl.h" /* solver/: dq_jacobian hides jac_dense (benchmark only) */

void wp_opts_default(wp_opts *o) {
  memset(o, 0, sizeof *o);
  o->repeats = 3;
  o->cpu_budget = 6.0;
  o->atol_ratio = 1e-3;
  o->rk4_rtol = 1e-10;
  o->min_cpu = 0.2;
}

static double wp_clock(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double wp_median(double *v, int n) {
  if (n <= 0) return NAN;
  for (int i = 1; i < n; ++i) /* insertion sort: n is a handful */
    for (int j = i; j > 0 && v[j] < v[j - 1]; --j) {
      double t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* What a child sends back through its pipe. */
typedef struct wp_child_out {
  int status;
  char message[256];
  double t_reached, err_end, err_max, wall, cpu, ev_err_max;
  int nsamples, ev_missed, ev_extra, ref_short;
  long events;
  mbdae_stats st;
} wp_child_out;

typedef struct wp_obs {
  const wp_problem *pb;
  const mbdae_model_kind *k;
  mbdae_model *m;
  int nq, group;
  double *q, *qr;
  FILE *save, *ref;
  double t0, dt, t_end, cpu_limit, obs_cpu, obs_wall, last_err, last_t;
  long last_k;            /* last grid index sampled */
  int failed;
  wp_child_out *out;
} wp_obs;

static double wp_sample_error(const double *q, const double *r, int nq, int g) {
  double e = 0.0;
  for (int a = 0; a + g <= nq; a += g) {
    double d = 0.0;
    for (int c = 0; c < g; ++c) d += (q[a + c] - r[a + c]) * (q[a + c] - r[a + c]);
    d = sqrt(d);
    if (d > e || d != d) e = d;
  }
  return e;
}

static int wp_observer(double t, const double *y, const double *yp,
                       const mbdae_event_record *ev, void *ud) {
  wp_obs *c = ud;
  double c0 = wp_clock(CLOCK_PROCESS_CPUTIME_ID), w0 = wp_clock(CLOCK_MONOTONIC);
  int stop = 0;
  if (ev) {
    if (ev->action == MBDAE_EVENT_CONTINUE) {
      const wp_problem *pb = c->pb;
      long k = c->out->events++;
      if (pb->exact_events) {
        if (k < pb->nexact_events) {
          double d = fabs(t - pb->exact_events[k]);
          if (!(c->out->ev_err_max >= d)) c->out->ev_err_max = d;
        } else {
          c->out->ev_extra++;
        }
      }
    }
  } else {
    /* only grid times t0 + k dt_out and t_end (the engine also reports the
     * pre-event state without ev) */
    double tol_t = 1e-9 * (1.0 + fabs(t));
    long k = lround((t - c->t0) / c->dt);
    int on_grid = fabs(t - (c->t0 + (double)k * c->dt)) <= tol_t;
    if (fabs(t - c->t_end) <= tol_t) {
      on_grid = 1;
      k = LONG_MAX;
    }
    if (!on_grid || k <= c->last_k) goto done;
    c->last_k = k;
    int rc = c->pb->extract ? c->pb->extract(c->k, c->m, t, y, yp, c->q, c->pb->ud)
                            : c->k->output_row(c->m, t, y, yp, c->q);
    if (rc < 0) {
      c->failed = 1;
      stop = -1;
    } else {
      if (c->save) {
        fwrite(&t, sizeof t, 1, c->save);
        fwrite(c->q, sizeof *c->q, (size_t)c->nq, c->save);
      }
      int have = 0;
      if (c->ref) {
        double tr;
        if (fread(&tr, sizeof tr, 1, c->ref) == 1 &&
            fread(c->qr, sizeof *c->qr, (size_t)c->nq, c->ref) == (size_t)c->nq &&
            fabs(tr - t) <= 1e-9 * (1.0 + fabs(t)))
          have = 1;
        else
          c->out->ref_short = 1;
      } else if (c->pb->exact) {
        have = c->pb->exact(t, c->qr, c->pb->ud) == 0;
      }
      if (have) {
        double e = wp_sample_error(c->q, c->qr, c->nq, c->group);
        if (!(c->out->err_max >= e)) c->out->err_max = e;
        c->out->nsamples++;
        c->last_err = e;
        c->last_t = t;
      }
    }
    if (!stop && c->cpu_limit > 0.0 && c0 - c->obs_cpu > c->cpu_limit) stop = 1;
  }
done:
  c->obs_cpu += wp_clock(CLOCK_PROCESS_CPUTIME_ID) - c0;
  c->obs_wall += wp_clock(CLOCK_MONOTONIC) - w0;
  return stop;
}

/* The child's work: one run, measured. */
static void wp_build_options(const wp_problem *pb, const wp_method *m, double tol,
                             const wp_opts *op, mbdae_options *o) {
  *o = pb->scenario->options;
  o->method = m->method;
  o->linsol = m->linsol;
  o->ordering = m->ordering;
  if (m->max_order > 0) o->max_order = m->max_order;
  if (m->method == MBDAE_METHOD_RK4) {
    o->rk4_step = tol;
    o->rtol = op->rk4_rtol;
    o->atol = 1e-2 * op->rk4_rtol;
  } else {
    o->rtol = tol;
    o->atol = op->atol_ratio * tol;
  }
  o->atol_vec = NULL;
  if (o->max_steps < 100000000L) o->max_steps = 100000000L;
  o->progress = NULL;
  o->observer = NULL;
  o->observer_data = NULL;
}

/* A timing-only repeat of a short run (no observer): 0 or a status. */
static int wp_time_only(const wp_problem *pb, const wp_method *m, double tol,
                        const wp_opts *op) {
  const mbdae_model_kind *k = pb->scenario->kind;
  mbdae_options o;
  wp_build_options(pb, m, tol, op, &o);
  mbdae_model *md = NULL;
  mbdae_param_error pe;
  memset(&pe, 0, sizeof pe);
  int rc = k->create(pb->scenario->params, &o, &md, &pe);
  if (rc || !md) return rc ? rc : MBDAE_ERR_ARGUMENT;
  mbdae_problem *pr = k->problem(md);
  if (m->dq_jacobian && pr) pr->jac_dense = NULL;
  int n = pr ? mbdae_problem_size(pr) : 0;
  double *y = calloc((size_t)(n > 0 ? n : 1), sizeof *y);
  double *yp = calloc((size_t)(n > 0 ? n : 1), sizeof *yp);
  mbdae_stats st;
  memset(&st, 0, sizeof st);
  rc = !pr || n <= 0 || !y || !yp ? MBDAE_ERR_MEMORY : k->initial_state(md, o.t0, y, yp);
  if (!rc) rc = mbdae_run(pr, &o, y, yp, &st, NULL, 0);
  free(y);
  free(yp);
  k->destroy(&md);
  return rc;
}

/* The child's work: one run, measured. */
static void wp_run_child(const wp_problem *pb, const wp_method *m, double tol,
                         const wp_opts *op, int save, wp_child_out *out) {
  const mbdae_scenario *s = pb->scenario;
  const mbdae_model_kind *k = s->kind;
  mbdae_options o;
  wp_build_options(pb, m, tol, op, &o);
  wp_obs c;
  memset(&c, 0, sizeof c);
  c.pb = pb;
  c.k = k;
  c.out = out;
  c.group = pb->group > 0 ? pb->group : 1;
  c.t0 = o.t0;
  c.dt = o.dt_out;
  c.last_k = -1;
  c.t_end = o.t_end;
  c.cpu_limit = op->cpu_limit;
  out->err_max = out->err_end = out->ev_err_max = NAN;
  double w0 = wp_clock(CLOCK_MONOTONIC), c0 = wp_clock(CLOCK_PROCESS_CPUTIME_ID);
  mbdae_param_error pe;
  memset(&pe, 0, sizeof pe);
  int rc = k->create(s->params, &o, &c.m, &pe);
  if (rc || !c.m) {
    out->status = rc ? rc : MBDAE_ERR_ARGUMENT;
    snprintf(out->message, sizeof out->message, "create: %.200s", pe.msg);
    return;
  }
  mbdae_problem *pr = k->problem(c.m);
  if (m->dq_jacobian && pr) pr->jac_dense = NULL;
  int n = pr ? mbdae_problem_size(pr) : 0;
  c.nq = pb->count ? pb->count(k, c.m, pb->ud) : k->columns(c.m, NULL, 0);
  double *y = calloc((size_t)(n > 0 ? n : 1), sizeof *y);
  double *yp = calloc((size_t)(n > 0 ? n : 1), sizeof *yp);
  c.q = calloc((size_t)(c.nq > 0 ? c.nq : 1), sizeof *c.q);
  c.qr = calloc((size_t)(c.nq > 0 ? c.nq : 1), sizeof *c.qr);
  if (save && op->save) c.save = fopen(op->save, "wb");
  if (!save && op->ref) c.ref = fopen(op->ref, "rb");
  if (!pr || n <= 0 || c.nq <= 0 || !y || !yp || !c.q || !c.qr ||
      (save && op->save && !c.save) || (!save && op->ref && !c.ref)) {
    out->status = MBDAE_ERR_ARGUMENT;
    snprintf(out->message, sizeof out->message, "setup failed (problem, memory or files)");
  } else {
    rc = k->initial_state(c.m, o.t0, y, yp);
    if (rc) {
      out->status = rc;
      snprintf(out->message, sizeof out->message, "initial state: %s",
               mbdae_status_message(rc));
    } else {
      o.observer = wp_observer;
      o.observer_data = &c;
      out->status = mbdae_run(pr, &o, y, yp, &out->st, out->message, sizeof out->message);
      out->t_reached = out->st.t_reached;
      if (c.failed && !out->message[0])
        snprintf(out->message, sizeof out->message, "extract failed");
      if (out->nsamples > 0 && fabs(c.last_t - o.t_end) <= 1e-9 * (1.0 + fabs(o.t_end)))
        out->err_end = c.last_err;
      if (pb->exact_events && out->events < pb->nexact_events)
        out->ev_missed = (int)(pb->nexact_events - out->events);
    }
  }
  out->wall = wp_clock(CLOCK_MONOTONIC) - w0 - c.obs_wall;
  out->cpu = wp_clock(CLOCK_PROCESS_CPUTIME_ID) - c0 - c.obs_cpu;
  if (c.save) fclose(c.save);
  if (c.ref) fclose(c.ref);
  free(y);
  free(yp);
  free(c.q);
  free(c.qr);
  k->destroy(&c.m);
  /* a short run: repeat it (timing only) until min_cpu, report the mean */
  if (out->status == 0 && op->min_cpu > 0.0 && out->cpu < op->min_cpu) {
    double w1 = wp_clock(CLOCK_MONOTONIC), c1 = wp_clock(CLOCK_PROCESS_CPUTIME_ID), used = 0.0;
    int it = 0;
    while (it < 100000 && used < op->min_cpu) {
      if (wp_time_only(pb, m, tol, op) != 0) break;
      ++it;
      used = wp_clock(CLOCK_PROCESS_CPUTIME_ID) - c1;
    }
    if (it > 0) {
      out->cpu = used / it;
      out->wall = (wp_clock(CLOCK_MONOTONIC) - w1) / it;
    }
  }
}

static int wp_read_all(int fd, void *buf, size_t len) {
  char *p = buf;
  while (len > 0) {
    ssize_t r = read(fd, p, len);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return -1;
    p += r;
    len -= (size_t)r;
  }
  return 0;
}

/* Fork one child; fills out and the child's peak RSS (KB). */
static int wp_fork(const wp_problem *pb, const wp_method *m, double tol, const wp_opts *op,
                   int save, wp_child_out *out, long *maxrss_kb) {
  int fd[2];
  if (pipe(fd) != 0) return -1;
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return -1;
  }
  if (pid == 0) {
    close(fd[0]);
    if (op->cpu_limit > 0.0) { /* a run stalled between output times: SIGXCPU */
      struct rlimit rl;
      rl.rlim_cur = (rlim_t)(2.0 * op->cpu_limit + 10.0);
      rl.rlim_max = rl.rlim_cur + 5;
      setrlimit(RLIMIT_CPU, &rl);
    }
    wp_child_out *o = calloc(1, sizeof *o);
    if (o) {
      wp_run_child(pb, m, tol, op, save, o);
      const char *p = (const char *)o;
      size_t len = sizeof *o;
      while (len > 0) {
        ssize_t w = write(fd[1], p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        p += w;
        len -= (size_t)w;
      }
      free(o);
    }
    close(fd[1]);
    _exit(0);
  }
  close(fd[1]);
  memset(out, 0, sizeof *out);
  int rd = wp_read_all(fd[0], out, sizeof *out);
  close(fd[0]);
  int wst = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  while (wait4(pid, &wst, 0, &ru) < 0 && errno == EINTR) {
  }
  *maxrss_kb = ru.ru_maxrss;
  if (rd != 0) {
    out->status = MBDAE_ERR_CALLBACK;
    snprintf(out->message, sizeof out->message, "child died (%s %d)",
             WIFSIGNALED(wst) ? "signal" : "exit",
             WIFSIGNALED(wst) ? WTERMSIG(wst) : WEXITSTATUS(wst));
    out->err_end = out->err_max = out->ev_err_max = NAN;
    out->cpu = (double)ru.ru_utime.tv_sec + 1e-6 * (double)ru.ru_utime.tv_usec;
    return 1;
  }
  return 0;
}

double wp_baseline_rss_mb(void) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) return NAN;
  if (pid == 0) _exit(0);
  int wst;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  while (wait4(pid, &wst, 0, &ru) < 0 && errno == EINTR) {
  }
  return (double)ru.ru_maxrss / 1024.0;
}

int wp_measure(const wp_problem *pb, const wp_method *m, double tol, const wp_opts *op,
               wp_result *res) {
  enum { WP_MAX_REPS = 15 };
  memset(res, 0, sizeof *res);
  res->tol = tol;
  res->err_end = res->err_max = res->ev_err_max = NAN;
  double wall[WP_MAX_REPS], cpu[WP_MAX_REPS], used = 0.0;
  int reps = op->repeats < 1 ? 1 : op->repeats > WP_MAX_REPS ? WP_MAX_REPS : op->repeats;
  long rss = 0;
  int n = 0;
  for (int r = 0; r < reps; ++r) {
    wp_child_out out;
    long kb = 0;
    int save = r == 0 && op->save;
    int rc = wp_fork(pb, m, tol, op, save, &out, &kb);
    if (rc < 0) {
      if (n == 0) {
        res->status = MBDAE_ERR_MEMORY;
        snprintf(res->message, sizeof res->message, "fork failed");
        return -1;
      }
      break;
    }
    if (kb > rss) rss = kb;
    wall[n] = out.wall;
    cpu[n] = out.cpu;
    ++n;
    used += out.cpu;
    if (r == 0) {
      res->status = out.status;
      snprintf(res->message, sizeof res->message, "%s", out.message);
      res->t_reached = out.t_reached;
      res->err_end = out.err_end;
      res->err_max = out.err_max;
      res->nsamples = out.nsamples;
      res->steps = out.st.steps;
      res->rhs_evals = out.st.rhs_evals;
      res->jac_evals = out.st.jac_evals;
      res->lin_setups = out.st.lin_setups;
      res->root_evals = out.st.root_evals;
      res->newton_iters = out.st.newton_iters;
      res->newton_fails = out.st.newton_fails;
      res->err_test_fails = out.st.err_test_fails;
      res->krylov_iters = out.st.krylov_iters;
      res->prec_factors = out.st.prec_factors;
      res->events = out.events;
      res->ev_err_max = out.ev_err_max;
      res->ev_missed = out.ev_missed;
      res->ev_extra = out.ev_extra;
      if (out.ref_short && !res->message[0])
        snprintf(res->message, sizeof res->message, "reference shorter than the run");
    }
    if (rc != 0 || out.status < 0 || out.status == MBDAE_STOPPED || used >= op->cpu_budget) break;
  }
  res->reps = n;
  res->peak_rss_mb = (double)rss / 1024.0;
  double c2[WP_MAX_REPS];
  memcpy(c2, cpu, sizeof c2);
  res->cpu_min = res->cpu_max = cpu[0];
  for (int i = 1; i < n; ++i) {
    if (cpu[i] < res->cpu_min) res->cpu_min = cpu[i];
    if (cpu[i] > res->cpu_max) res->cpu_max = cpu[i];
  }
  res->wall = wp_median(wall, n);
  res->cpu = wp_median(c2, n);
  return 0;
}

void wp_csv_header(FILE *f) {
  fprintf(f, "problem,method,tol,status,t_reached,err_end,err_max,nsamples,wall_s,cpu_s,"
             "cpu_min_s,cpu_max_s,reps,steps,rhs_evals,jac_evals,lin_setups,root_evals,"
             "newton_iters,events,ev_err_max,ev_missed,ev_extra,peak_rss_mb,message\n");
}

void wp_csv_row(FILE *f, const wp_problem *pb, const wp_method *m, const wp_result *r) {
  char msg[256];
  snprintf(msg, sizeof msg, "%s", r->message);
  for (char *p = msg; *p; ++p)
    if (*p == ',' || *p == '\n' || *p == '\r' || *p == '"') *p = ';';
  fprintf(f, "%s,%s,%.6g,%d,%.10g,%.6e,%.6e,%d,%.6g,%.6g,%.6g,%.6g,%d,%ld,%ld,%ld,%ld,%ld,"
             "%ld,%ld,%.6e,%d,%d,%.2f,%s\n",
          pb->name, m->label, r->tol, r->status, r->t_reached, r->err_end, r->err_max,
          r->nsamples, r->wall, r->cpu, r->cpu_min, r->cpu_max, r->reps, r->steps,
          r->rhs_evals, r->jac_evals, r->lin_setups, r->root_evals, r->newton_iters,
          r->events, r->ev_err_max, r->ev_missed, r->ev_extra, r->peak_rss_mb, msg);
  fflush(f);
}

#endif /* MBDAE_BENCH_WORKPREC_IMPL_DONE */
#endif /* WORKPREC_IMPLEMENTATION */
