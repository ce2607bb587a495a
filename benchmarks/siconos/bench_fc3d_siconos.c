/* bench_fc3d_siconos.c - one-step problems with Coulomb friction (files of
 * benchmarks/onestep_io.h, version 2, written by `bench_onestep_dump
 * SCENARIO PREFIX T --set parameters.friction=MU`) solved by mbdae's
 * frictional solver (solver/friction.c: block Gauss-Seidel alone, and
 * Gauss-Seidel then the semismooth Newton of solver/friction_newton.c) and
 * by Siconos Numerics' 3-D friction-contact solvers on the same problem in
 * Delassus form,
 *     u = M r + q,  M = H W^-1 H^T,  q = H W^-1 r_v + b   (H: the rows of the set),
 * one 3-D contact per row of the set: a frictional contact is (normal,
 * tangent 1, tangent 2) with its mu; a frictionless unilateral row (a taut
 * string) is a contact with mu = 0 whose two tangent rows are decoupled
 * dummies (M_tt = 1, q_t = 0), which forces its tangential reaction to 0 and
 * leaves u_n >= 0 complementary to r_n >= 0, so the problems are the same.
 * Built only when CMake finds Siconos Numerics (Debian
 * libsiconos-numerics-dev); not part of CI.
 *
 *   bench_fc3d_siconos [--tol T] [--limit S] FILE...
 *   one line per file and solver:
 *   file contacts frictional solver cpu_per_solve_s iterations fc3d_error nat_res tolw max_dP info
 *
 * cpu: median per-solve CPU over repeats (until 0.3 s are spent, at most 20,
 * at least once); for Siconos the solve only (the formation of M printed
 * apart), for mbdae the whole solve from (W, G, T, r, b) including W's
 * factorisation. fc3d_error: Siconos' fc3d_compute_error (the natural map's
 * residual relative to |q|), the same measure for every solver; nat_res:
 * mbdae's measure (the natural map in velocity units, friction.c), against
 * the tolerance tolw mbdae asks for (nonsmooth_tol T, default 1e-10, times
 * the free velocity scale). max_dP: the largest difference of impulses with
 * mbdae's Newton solution. Siconos solvers ask for tol 1e-10 on fc3d_error
 * and run in a child process stopped after S s (default 60; info -99). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/fc3d_compute_error.h>

#include "friction.h"
#include "onestep_io.h"
#include "../bench_timing.h"

/* The problem in Delassus form: nct contacts of 3 rows; row map: for
 * contact c, rows 3c..3c+2 are the set's rows (G row, T rows) or -1 (dummy). */
typedef struct fc3d_form {
  int nct, nfric;
  double *M, *q, *mu;
  int *grow;   /* 3 nct: G row, or nc + T row, or -1 */
  double formation_s;
} fc3d_form;

/* M and q, W factorised densely by Cholesky (problems of a few hundred velocities). */
static int form(const onestep *s, fc3d_form *f) {
  const int nv = s->nv, nc = s->nc;
  int nset = 0;
  for (int i = 0; i < nc; ++i) {
    if (!s->in_set[i]) continue;
    if (i >= s->nu) {
      fprintf(stderr, "a bilateral row in the set: not a fc3d problem\n");
      return -1;
    }
    nset++;
  }
  f->nct = nset;
  const int n = 3 * nset;
  f->M = calloc((size_t)n * n, sizeof *f->M);
  f->q = calloc((size_t)n, sizeof *f->q);
  f->mu = calloc((size_t)nset, sizeof *f->mu);
  f->grow = malloc((size_t)n * sizeof *f->grow);
  double *Wd = calloc((size_t)nv * nv, sizeof *Wd);
  double *H = calloc((size_t)n * nv, sizeof *H), *Y = calloc((size_t)n * nv, sizeof *Y);
  double *vfree = malloc((size_t)nv * sizeof *vfree);
  int *fk = malloc((size_t)(nc + 1) * sizeof *fk);
  if (!f->M || !f->q || !f->mu || !f->grow || !Wd || !H || !Y || !vfree || !fk) return -1;
  double t0 = cpu_now();
  for (int i = 0; i < nc; ++i) fk[i] = -1;
  for (int k = 0; k < s->nf; ++k) fk[s->frows[k]] = k;
  int c = 0;
  f->nfric = 0;
  for (int i = 0; i < nc; ++i) {
    if (!s->in_set[i]) continue;
    f->grow[3 * c] = i;
    for (long k = s->gp[i]; k < s->gp[i + 1]; ++k) H[(size_t)3 * c * nv + s->gi[k]] += s->gx[k];
    const int k = fk[i];
    if (k >= 0) {
      f->mu[c] = s->mu[k];
      f->nfric++;
      for (int e = 0; e < 2; ++e) {
        f->grow[3 * c + 1 + e] = nc + 2 * k + e;
        for (long q = s->tp[2 * k + e]; q < s->tp[2 * k + e + 1]; ++q)
          H[(size_t)(3 * c + 1 + e) * nv + s->ti[q]] += s->tx[q];
      }
    } else {
      f->grow[3 * c + 1] = f->grow[3 * c + 2] = -1;
    }
    c++;
  }
  /* Cholesky of W (dense) */
  for (int j = 0; j < nv; ++j)
    for (long k = s->wp[j]; k < s->wp[j + 1]; ++k) Wd[(size_t)s->wi[k] * nv + j] = s->wx[k];
  for (int j = 0; j < nv; ++j) {
    double d = Wd[(size_t)j * nv + j];
    for (int k = 0; k < j; ++k) d -= Wd[(size_t)j * nv + k] * Wd[(size_t)j * nv + k];
    if (!(d > 0.0)) return -1;
    d = sqrt(d);
    Wd[(size_t)j * nv + j] = d;
    for (int i = j + 1; i < nv; ++i) {
      double x = Wd[(size_t)i * nv + j];
      for (int k = 0; k < j; ++k) x -= Wd[(size_t)i * nv + k] * Wd[(size_t)j * nv + k];
      Wd[(size_t)i * nv + j] = x / d;
    }
  }
  /* solve L L^T y = x */
#define CHOL_SOLVE(x)                                                                              \
  do {                                                                                             \
    for (int i_ = 0; i_ < nv; ++i_) {                                                              \
      double t_ = (x)[i_];                                                                         \
      for (int k_ = 0; k_ < i_; ++k_) t_ -= Wd[(size_t)i_ * nv + k_] * (x)[k_];                   \
      (x)[i_] = t_ / Wd[(size_t)i_ * nv + i_];                                                     \
    }                                                                                              \
    for (int i_ = nv - 1; i_ >= 0; --i_) {                                                         \
      double t_ = (x)[i_];                                                                         \
      for (int k_ = i_ + 1; k_ < nv; ++k_) t_ -= Wd[(size_t)k_ * nv + i_] * (x)[k_];              \
      (x)[i_] = t_ / Wd[(size_t)i_ * nv + i_];                                                     \
    }                                                                                              \
  } while (0)
  memcpy(vfree, s->r, (size_t)nv * sizeof *vfree);
  CHOL_SOLVE(vfree);
  for (int a = 0; a < n; ++a) {
    memcpy(Y + (size_t)a * nv, H + (size_t)a * nv, (size_t)nv * sizeof *Y);
    if (f->grow[a] >= 0) CHOL_SOLVE(Y + (size_t)a * nv);
  }
  for (int a = 0; a < n; ++a) {
    double qa = 0.0;
    for (int j = 0; j < nv; ++j) qa += H[(size_t)a * nv + j] * vfree[j];
    if (f->grow[a] >= 0 && f->grow[a] < nc) qa += s->b[f->grow[a]];
    f->q[a] = qa;
    for (int b = 0; b < n; ++b) {
      double m = 0.0;
      if (f->grow[a] >= 0 && f->grow[b] >= 0)
        for (int j = 0; j < nv; ++j) m += H[(size_t)a * nv + j] * Y[(size_t)b * nv + j];
      else m = a == b;
      f->M[(size_t)b * n + a] = m; /* column-major */
    }
  }
  f->formation_s = cpu_now() - t0;
  free(Wd), free(H), free(Y), free(vfree), free(fk);
  return 0;
}

typedef struct run_result {
  double cpu, err, natres, dP;
  int iters, info;
} run_result;

/* mbdae's natural-map residual (friction.c) on a fc3d solution r. */
static double nat_residual(const fc3d_form *f, const double *r, const double *u) {
  const int n = 3 * f->nct;
  double res = 0.0;
  for (int c = 0; c < f->nct; ++c) {
    const int a = 3 * c;
    const double d = f->M[(size_t)a * n + a];
    double e = fabs(fmin(d * r[a], u[a]));
    if (f->grow[a + 1] >= 0) {
      const double at = 0.5 * (f->M[(size_t)(a + 1) * n + a + 1] + f->M[(size_t)(a + 2) * n + a + 2]);
      double z1 = r[a + 1] - u[a + 1] / at, z2 = r[a + 2] - u[a + 2] / at;
      double nz = hypot(z1, z2), rad = f->mu[c] * fmax(r[a], 0.0);
      if (nz > rad) z1 *= rad / nz, z2 *= rad / nz;
      e = fmax(e, at * hypot(r[a + 1] - z1, r[a + 2] - z2));
    }
    res = fmax(res, e);
  }
  return res;
}

static double fc3d_err(FrictionContactProblem *p, double *r, double *u) {
  const int n = 3 * p->numberOfContacts;
  double nq = 0.0, e = 0.0;
  for (int a = 0; a < n; ++a) nq += p->q[a] * p->q[a];
  NM_gemv(1.0, p->M, r, 0.0, u);
  for (int a = 0; a < n; ++a) u[a] += p->q[a];
  SolverOptions *o = solver_options_create(SICONOS_FRICTION_3D_NSGS);
  fc3d_compute_error(p, r, u, 1e-10, o, sqrt(nq), &e);
  solver_options_delete(o);
  return e;
}

/* r (fc3d order) from mbdae's P, Pt. */
static void to_fc3d(const fc3d_form *f, const onestep *s, const double *P, const double *Pt,
                    double *r) {
  for (int a = 0; a < 3 * f->nct; ++a) {
    const int g = f->grow[a];
    r[a] = g < 0 ? 0.0 : g < s->nc ? P[g] : Pt[g - s->nc];
  }
}

static run_result run_mbdae(const onestep *s, const fc3d_form *f, FrictionContactProblem *p,
                            int newton, double tol, double *rbest, double *tolw) {
  run_result rr = {0};
  mbdae_index *wp = malloc((size_t)(s->nv + 1) * sizeof *wp), *wi = malloc((size_t)s->w_nnz * sizeof *wi);
  mbdae_index *gp = malloc((size_t)(s->nc + 1) * sizeof *gp), *gi = malloc((size_t)(s->g_nnz + 1) * sizeof *gi);
  mbdae_index *tp = malloc((size_t)(2 * s->nf + 1) * sizeof *tp), *ti = malloc((size_t)(s->t_nnz + 1) * sizeof *ti);
  double *v = malloc((size_t)s->nv * sizeof *v), *P = malloc((size_t)s->nc * sizeof *P);
  double *Pt = malloc((size_t)(2 * s->nf) * sizeof *Pt);
  double *r = malloc((size_t)(3 * f->nct) * sizeof *r), *u = malloc((size_t)(3 * f->nct) * sizeof *u);
  for (int j = 0; j <= s->nv; ++j) wp[j] = (mbdae_index)s->wp[j];
  for (long k = 0; k < s->w_nnz; ++k) wi[k] = (mbdae_index)s->wi[k];
  for (int i = 0; i <= s->nc; ++i) gp[i] = (mbdae_index)s->gp[i];
  for (long k = 0; k < s->g_nnz; ++k) gi[k] = (mbdae_index)s->gi[k];
  for (int q = 0; q <= 2 * s->nf; ++q) tp[q] = (mbdae_index)s->tp[q];
  for (long k = 0; k < s->t_nnz; ++k) ti[k] = (mbdae_index)s->ti[k];
  char msg[512] = "";
  fc_solver *fc = fc_create(s->nv, wp, wi, s->nc, s->nu, gp, gi, s->nf, s->frows, s->mu, tp, ti,
                            msg, sizeof msg);
  fc_input in = {.Wx = s->wx, .w_changed = 1, .Gx = s->gx, .Tx = s->tx, .r = s->r, .b = s->b,
                 .in_set = s->in_set, .tol = tol, .max_sweeps = NS_FRICTION_SWEEPS,
                 .max_newton = newton ? NS_FRICTION_NEWTON : 0};
  double times[20];
  int nt = 0;
  double spent = 0.0;
  ns_result res;
  do {
    memcpy(P, s->P0, (size_t)s->nc * sizeof *P);
    memcpy(Pt, s->Pt0, (size_t)(2 * s->nf) * sizeof *Pt);
    double t0 = cpu_now();
    rr.info = fc ? fc_solve(fc, &in, v, P, Pt, &res, msg, sizeof msg) : -9;
    times[nt] = cpu_now() - t0;
    spent += times[nt++];
  } while (spent < 0.3 && nt < 20);
  qsort(times, (size_t)nt, sizeof *times, cmp_double);
  rr.cpu = times[nt / 2];
  rr.iters = res.sweeps + res.iterations;
  *tolw = tol * res.vref;
  if (rr.info) fprintf(stderr, "mbdae: %s\n", msg);
  to_fc3d(f, s, P, Pt, r);
  rr.err = fc3d_err(p, r, u);
  rr.natres = nat_residual(f, r, u);
  if (newton) memcpy(rbest, r, (size_t)(3 * f->nct) * sizeof *r);
  rr.dP = 0.0;
  for (int a = 0; a < 3 * f->nct; ++a) rr.dP = fmax(rr.dP, fabs(r[a] - rbest[a]));
  fc_free(&fc);
  free(wp), free(wi), free(gp), free(gi), free(tp), free(ti), free(v), free(P), free(Pt), free(r), free(u);
  return rr;
}

/* A Siconos solver in a child process (stopped after limit s). */
static run_result run_siconos(FrictionContactProblem *p, const fc3d_form *f, int solver,
                              int max_iter, const double *r0, const double *rbest, double limit) {
  run_result rr = {0};
  int fd[2];
  if (pipe(fd)) {
    rr.info = -98;
    return rr;
  }
  pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    alarm((unsigned)limit);
    const int n = 3 * p->numberOfContacts;
    double *r = malloc((size_t)n * sizeof *r), *u = calloc((size_t)n, sizeof *u);
    double times[20];
    int nt = 0;
    double spent = 0.0;
    SolverOptions *o = NULL;
    do {
      memcpy(r, r0, (size_t)n * sizeof *r);
      memset(u, 0, (size_t)n * sizeof *u);
      if (o) solver_options_delete(o);
      o = solver_options_create(solver);
      o->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
      o->dparam[SICONOS_DPARAM_TOL] = 1e-10;
      double t0 = cpu_now();
      rr.info = fc3d_driver(p, r, u, o);
      times[nt] = cpu_now() - t0;
      spent += times[nt++];
    } while (spent < 0.3 && nt < 20);
    qsort(times, (size_t)nt, sizeof *times, cmp_double);
    rr.cpu = times[nt / 2];
    rr.iters = o->iparam[SICONOS_IPARAM_ITER_DONE];
    rr.err = fc3d_err(p, r, u);
    rr.natres = nat_residual(f, r, u);
    for (int a = 0; a < n; ++a) rr.dP = fmax(rr.dP, fabs(r[a] - rbest[a]));
    if (write(fd[1], &rr, sizeof rr) != (ssize_t)sizeof rr) _exit(1);
    _exit(0);
  }
  close(fd[1]);
  int st = 0;
  ssize_t got = read(fd[0], &rr, sizeof rr);
  close(fd[0]);
  waitpid(pid, &st, 0);
  if (got != (ssize_t)sizeof rr) {
    memset(&rr, 0, sizeof rr);
    rr.info = -99;
    rr.cpu = limit;
  }
  return rr;
}

static void line(const char *file, const fc3d_form *f, const char *name, run_result rr,
                 double tolw) {
  printf("%s %d %d %s %.4g %d %.3e %.3e %.3e %.3e %d\n", file, f->nct, f->nfric, name, rr.cpu,
         rr.iters, rr.err, rr.natres, tolw, rr.dP, rr.info);
  fflush(stdout);
}

int main(int argc, char **argv) {
  double tol = 1e-10, limit = 60.0;
  int a = 1;
  for (; a + 1 < argc && argv[a][0] == '-' && argv[a][1] == '-'; a += 2) {
    if (!strcmp(argv[a], "--tol")) tol = atof(argv[a + 1]);
    else if (!strcmp(argv[a], "--limit")) limit = atof(argv[a + 1]);
  }
  if (a >= argc) {
    fprintf(stderr, "usage: bench_fc3d_siconos [--tol T] [--limit S] FILE...\n");
    return 2;
  }
  printf("file contacts frictional solver cpu_per_solve_s iterations fc3d_error nat_res tolw "
         "max_dP info\n");
  for (; a < argc; ++a) {
    onestep s;
    if (onestep_read(argv[a], &s) || s.nf == 0) {
      fprintf(stderr, "%s: not a one-step file with friction\n", argv[a]);
      return 1;
    }
    fc3d_form f;
    memset(&f, 0, sizeof f);
    if (form(&s, &f)) return 1;
    const int n = 3 * f.nct;
    NumericsMatrix *M = NM_create_from_data(NM_DENSE, n, n, f.M);
    FrictionContactProblem p = {.dimension = 3, .numberOfContacts = f.nct, .M = M, .q = f.q,
                                .mu = f.mu};
    double *rbest = calloc((size_t)n, sizeof *rbest), *r0 = calloc((size_t)n, sizeof *r0);
    double tolw = 0.0;
    printf("# %s: M formed (dense, %d x %d) in %.3g s\n", argv[a], n, n, f.formation_s);
    run_result nw = run_mbdae(&s, &f, &p, 1, tol, rbest, &tolw);
    line(argv[a], &f, "mbdae-gs+newton", nw, tolw);
    line(argv[a], &f, "mbdae-gs", run_mbdae(&s, &f, &p, 0, tol, rbest, &tolw), tolw);
    /* Siconos from the same warm start (P0; Pt0) */
    double *Pt0 = s.Pt0;
    to_fc3d(&f, &s, s.P0, Pt0, r0);
    struct {
      const char *name;
      int id, iters;
    } sv[] = {{"siconos-nsgs", SICONOS_FRICTION_3D_NSGS, 20000},
              {"siconos-nsn-ac", SICONOS_FRICTION_3D_NSN_AC, 1000},
              {"siconos-nsn-ac-test", SICONOS_FRICTION_3D_NSN_AC_TEST, 1000},
              {"siconos-nsn-fb", SICONOS_FRICTION_3D_NSN_FB, 1000},
              {"siconos-nsn-nm", SICONOS_FRICTION_3D_NSN_NM, 1000},
              {"siconos-prox", SICONOS_FRICTION_3D_PROX, 1000},
              {"siconos-vi-eg", SICONOS_FRICTION_3D_VI_EG, 20000},
              {"siconos-vi-fpp", SICONOS_FRICTION_3D_VI_FPP, 20000}};
    for (size_t k = 0; k < sizeof sv / sizeof sv[0]; ++k)
      line(argv[a], &f, sv[k].name, run_siconos(&p, &f, sv[k].id, sv[k].iters, r0, rbest, limit),
           tolw);
    M->matrix0 = NULL; /* f.M is ours */
    NM_free(M);
    free(f.M), free(f.q), free(f.mu), free(f.grow), free(rbest), free(r0);
    onestep_free(&s);
  }
  return 0;
}
