/* rover/rover_dynamics.c - the rover's equations, shared by both
 * formulations: mass matrix (seed eq. 10), forces (seed section 6 and the
 * gravity of section 7.2), the five independent nonholonomic constraints
 * (seed eqs. 1 and 3 without Xi's zero row), the null-space basis Pi (eq. 8)
 * and the reduced accelerations (eqs. 13-17).
 *
 * Dependent velocities u = [v (inertial centre velocity); w_s (sphere
 * frame); w_p (pendulum frame)]. The equations are written Newton-Euler
 * style (derived in doc/rover.md), M u' = f(q, u, t) + A^T lambda, which is
 * seed eq. (12) premultiplied by S-bar^{-T}; seed eq. (12)'s Xi lambda is
 * Xi^T lambda (SEEDS.md). */
#include <math.h>
#include <string.h>

#include "rover/rover.h"

double rover_wind(const rover_params *p, double t) {
  /* seed section 10 prints 1 - e^{t/2}; the ramp is 1 - e^{-t/tau} */
  return p->wind_speed * (1.0 - exp(-t / p->wind_tau));
}

/* seed section 6.2: 1/2 rho A C_d |w - v| (w - v), v relative to the ball */
void rover_wind_force(const rover_params *p, double t, const double v[3],
                      double F[3]) {
  double rel[2] = {rover_wind(p, t) - v[0], -v[1]};
  double k = 0.5 * p->rho * p->area * p->c_d;
  double sp = sqrt(rel[0] * rel[0] + rel[1] * rel[1]);
  F[0] = k * sp * rel[0];
  F[1] = k * sp * rel[1];
  F[2] = 0;
}

/* c_p = -c z, so c_p^x = [[0, c, 0], [-c, 0, 0], [0, 0, 0]] */
static void cp_cross(double c, double X[9]) {
  memset(X, 0, 9 * sizeof(double));
  X[1] = c;
  X[3] = -c;
}

static void cross(const double a[3], const double b[3], double o[3]) {
  o[0] = a[1] * b[2] - a[2] * b[1];
  o[1] = a[2] * b[0] - a[0] * b[2];
  o[2] = a[0] * b[1] - a[1] * b[0];
}

void rover_mass_matrix(const rover_params *p, const rover_mass *mp,
                       const double C_pi[9], double M[81]) {
  (void)p;
  double X[9], Mpv[9];
  memset(M, 0, 81 * sizeof(double));
  for (int i = 0; i < 3; ++i) {
    M[i * 9 + i] = mp->m;
    M[(3 + i) * 9 + 3 + i] = mp->J_s;
    M[(6 + i) * 9 + 6 + i] = mp->J_p[i];
  }
  cp_cross(mp->c, X);
  rover_matmul(X, C_pi, Mpv); /* M_pv = c_p^x C_pi, M_vp = M_pv^T */
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      M[(6 + i) * 9 + j] = Mpv[3 * i + j];
      M[j * 9 + 6 + i] = Mpv[3 * i + j];
    }
}

void rover_forces(const rover_params *p, const rover_mass *mp, double t,
                  const rover_state *s, double f[9]) {
  const double cp[3] = {0, 0, -mp->c};
  double a[3], b[3], Fw[3];
  /* system translation: pendulum's centripetal term, gravity of both
   * bodies, wind and rolling damping (seed section 6.1) */
  cross(s->w_p, cp, a);
  cross(s->w_p, a, b);
  rover_mattvec(s->C_pi, b, a);
  rover_wind_force(p, t, s->v, Fw);
  for (int i = 0; i < 3; ++i) f[i] = -a[i] + Fw[i] - p->b_r * s->v[i];
  f[2] -= mp->m * p->g;
  /* generator torque on the pendulum about p2 (seed section 6.3) */
  double tgen[3] = {0, -p->b_p * s->phidot, 0};
  /* sphere: spin damping about the vertical (seed section 6.1) and the
   * generator's reaction; J_s isotropic so w x J_s w = 0 */
  double n[3] = {s->C_si[2], s->C_si[5], s->C_si[8]}; /* C_si z */
  double wn = n[0] * s->w_s[0] + n[1] * s->w_s[1] + n[2] * s->w_s[2];
  double C_ps[9], Ct[9], rg[3];
  rover_mat_t(s->C_si, Ct);
  rover_matmul(s->C_pi, Ct, C_ps);
  rover_mattvec(C_ps, tgen, rg);
  for (int i = 0; i < 3; ++i) f[3 + i] = -p->b_s * wn * n[i] - rg[i];
  /* pendulum about the (accelerating) centre: gyroscopic, gravity about
   * the centre c_p x (C_pi (-g z)), generator */
  double Jw[3] = {mp->J_p[0] * s->w_p[0], mp->J_p[1] * s->w_p[1],
                  mp->J_p[2] * s->w_p[2]};
  double gyr[3], gz[3] = {-p->g * s->C_pi[2], -p->g * s->C_pi[5],
                          -p->g * s->C_pi[8]};
  double tg[3];
  cross(s->w_p, Jw, gyr);
  cross(cp, gz, tg);
  for (int i = 0; i < 3; ++i) f[6 + i] = -gyr[i] + tg[i] + tgen[i];
}

void rover_constraints(const rover_params *p, const rover_state *s,
                       double A[45]) {
  const double *C = s->C_si;
  double Ct[9], C_ps[9];
  memset(A, 0, 45 * sizeof(double));
  /* seed eq. (1): contact point velocity v + r z^x C_si^T w_s = 0 */
  for (int i = 0; i < 3; ++i) A[i * 9 + i] = 1;
  for (int j = 0; j < 3; ++j) {
    A[0 * 9 + 3 + j] = -p->r * C[3 * j + 1];
    A[1 * 9 + 3 + j] = p->r * C[3 * j + 0];
  }
  /* seed eq. (3), rows p1 and p3: [x z]^T (w_p - C_ps w_s) = 0 */
  rover_mat_t(s->C_si, Ct);
  rover_matmul(s->C_pi, Ct, C_ps);
  for (int j = 0; j < 3; ++j) {
    A[3 * 9 + 3 + j] = -C_ps[0 + j];
    A[4 * 9 + 3 + j] = -C_ps[6 + j];
  }
  A[3 * 9 + 6] = 1;
  A[4 * 9 + 8] = 1;
}

void rover_pi(const rover_params *p, const rover_state *s, double Pi[36]) {
  const double *C = s->C_si;
  double Ct[9], C_ps[9];
  rover_mat_t(s->C_si, Ct);
  rover_matmul(s->C_pi, Ct, C_ps);
  memset(Pi, 0, 36 * sizeof(double));
  for (int j = 0; j < 3; ++j) {
    Pi[0 * 4 + j] = p->r * C[3 * j + 1];   /* -r z^x C_si^T */
    Pi[1 * 4 + j] = -p->r * C[3 * j + 0];
    Pi[(3 + j) * 4 + j] = 1;
    for (int i = 0; i < 3; ++i) Pi[(6 + i) * 4 + j] = C_ps[3 * i + j];
  }
  Pi[7 * 4 + 3] = 1; /* y phi' */
}

int rover_reduced_accel(const rover_params *p, const rover_mass *mp, double t,
                        const rover_state *s, double acc[4], double *lambda) {
  double M[81], f[9], Pi[36], Pd[9] = {0}, r[9], MP[36], Mh[16];
  rover_mass_matrix(p, mp, s->C_pi, M);
  rover_forces(p, mp, t, s, f);
  rover_pi(p, s, Pi);
  /* Pi' w_hat = [0; 0; -phi' y^x C_ps w_s] (seed eq. 9) */
  double Ct[9], C_ps[9], b[3];
  rover_mat_t(s->C_si, Ct);
  rover_matmul(s->C_pi, Ct, C_ps);
  rover_matvec(C_ps, s->w_s, b);
  Pd[6] = -s->phidot * b[2];
  Pd[8] = s->phidot * b[0];
  for (int i = 0; i < 9; ++i) {
    double sum = f[i];
    for (int j = 0; j < 9; ++j) sum -= M[i * 9 + j] * Pd[j];
    r[i] = sum;
  }
  for (int i = 0; i < 9; ++i)
    for (int k = 0; k < 4; ++k) {
      double sum = 0;
      for (int j = 0; j < 9; ++j) sum += M[i * 9 + j] * Pi[j * 4 + k];
      MP[i * 4 + k] = sum;
    }
  /* seed eqs. (15)-(17): Pi^T M Pi w_hat' = Pi^T (f - M Pi' w_hat) */
  for (int a = 0; a < 4; ++a) {
    double sum = 0;
    for (int i = 0; i < 9; ++i) sum += Pi[i * 4 + a] * r[i];
    acc[a] = sum;
    for (int k = 0; k < 4; ++k) {
      double m = 0;
      for (int i = 0; i < 9; ++i) m += Pi[i * 4 + a] * MP[i * 4 + k];
      Mh[a * 4 + k] = m;
    }
  }
  if (rover_solve(4, Mh, acc) != 0) return -1;
  if (lambda) {
    /* A^T lambda = M u' - f with u' = Pi w_hat' + Pi' w_hat */
    double ud[9], res[9], A[45], AAt[25];
    for (int i = 0; i < 9; ++i) {
      double sum = Pd[i];
      for (int k = 0; k < 4; ++k) sum += Pi[i * 4 + k] * acc[k];
      ud[i] = sum;
    }
    for (int i = 0; i < 9; ++i) {
      double sum = -f[i];
      for (int j = 0; j < 9; ++j) sum += M[i * 9 + j] * ud[j];
      res[i] = sum;
    }
    rover_constraints(p, s, A);
    for (int a = 0; a < 5; ++a) {
      double sum = 0;
      for (int i = 0; i < 9; ++i) sum += A[a * 9 + i] * res[i];
      lambda[a] = sum;
      for (int b2 = 0; b2 < 5; ++b2) {
        double m = 0;
        for (int i = 0; i < 9; ++i) m += A[a * 9 + i] * A[b2 * 9 + i];
        AAt[a * 5 + b2] = m;
      }
    }
    if (rover_solve(5, AAt, lambda) != 0) return -1;
  }
  return 0;
}

static void pack_u(const rover_state *s, double u[9]) {
  for (int i = 0; i < 3; ++i) {
    u[i] = s->v[i];
    u[3 + i] = s->w_s[i];
    u[6 + i] = s->w_p[i];
  }
}

double rover_kinetic(const rover_params *p, const rover_mass *mp,
                     const rover_state *s) {
  double M[81], u[9], T = 0;
  rover_mass_matrix(p, mp, s->C_pi, M);
  pack_u(s, u);
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 9; ++j) T += 0.5 * u[i] * M[i * 9 + j] * u[j];
  return T;
}

/* seed section 9: V = T + U - U(rest), U = g z^T C_pi^T c_p = -g c (C_pi)_33 */
double rover_lyapunov(const rover_params *p, const rover_mass *mp,
                      const rover_state *s) {
  return rover_kinetic(p, mp, s) + p->g * mp->c * (1.0 - s->C_pi[8]);
}

/* -dV/dt without wind (seed section 9): b_r |v|^2 + b_s (w . C_si z)^2 +
 * b_p phi'^2, with |v| = r |z^x C_si^T w_s| on the constraint. */
double rover_dissipation(const rover_params *p, const rover_state *s) {
  double wn = s->C_si[2] * s->w_s[0] + s->C_si[5] * s->w_s[1] +
              s->C_si[8] * s->w_s[2];
  double v2 = s->v[0] * s->v[0] + s->v[1] * s->v[1] + s->v[2] * s->v[2];
  return p->b_r * v2 + p->b_s * wn * wn + p->b_p * s->phidot * s->phidot;
}

void rover_state_from_ode(const rover_params *p, const double *y,
                          rover_state *s) {
  double C_ps[9], wi[3];
  memset(s, 0, sizeof *s);
  s->pos[0] = y[ROVER_O_X];
  s->pos[1] = y[ROVER_O_X + 1];
  s->pos[2] = p->r;
  rover_quat_to_c(y + ROVER_O_QS, s->C_si);
  rover_c2(y[ROVER_O_PHI], C_ps);
  rover_matmul(C_ps, s->C_si, s->C_pi);
  for (int i = 0; i < 3; ++i) s->w_s[i] = y[ROVER_O_W + i];
  s->phidot = y[ROVER_O_PHID];
  /* seed eq. (1): v = -r z^x C_si^T w_s */
  rover_mattvec(s->C_si, s->w_s, wi);
  s->v[0] = p->r * wi[1];
  s->v[1] = -p->r * wi[0];
  s->v[2] = 0;
  /* seed eq. (5): w_p = C_ps w_s + y phi' */
  rover_matvec(C_ps, s->w_s, s->w_p);
  s->w_p[1] += s->phidot;
  s->e_gen = y[ROVER_O_EGEN];
  s->e_diss = y[ROVER_O_EDISS];
  s->w_wind = y[ROVER_O_WWIND];
}

void rover_state_from_dae(const double *y, const double *yp, rover_state *s) {
  double Ct[9], C_ps[9], b[3];
  memset(s, 0, sizeof *s);
  for (int i = 0; i < 3; ++i) {
    s->pos[i] = y[ROVER_D_R + i];
    s->v[i] = y[ROVER_D_V + i];
    s->w_s[i] = y[ROVER_D_WS + i];
    s->w_p[i] = y[ROVER_D_WP + i];
  }
  rover_quat_to_c(y + ROVER_D_QS, s->C_si);
  rover_quat_to_c(y + ROVER_D_QP, s->C_pi);
  /* the multipliers are the rates of their integrals Lambda */
  if (yp)
    for (int i = 0; i < 5; ++i) s->lambda[i] = yp[ROVER_D_LAM + i];
  rover_mat_t(s->C_si, Ct);
  rover_matmul(s->C_pi, Ct, C_ps);
  rover_matvec(C_ps, s->w_s, b);
  s->phidot = s->w_p[1] - b[1]; /* y^T (w_p - C_ps w_s) */
  s->e_gen = y[ROVER_D_EGEN];
  s->e_diss = y[ROVER_D_EDISS];
  s->w_wind = y[ROVER_D_WWIND];
}

int rover_rhs(double t, const double *y, double *f, void *user_data) {
  const rover_model *m = user_data;
  rover_state s;
  double acc[4], Fw[3];
  rover_state_from_ode(&m->p, y, &s);
  if (rover_reduced_accel(&m->p, &m->mp, t, &s, acc, NULL) != 0) return -1;
  f[ROVER_O_X] = s.v[0];
  f[ROVER_O_X + 1] = s.v[1];
  rover_quat_rate(y + ROVER_O_QS, s.w_s, f + ROVER_O_QS);
  f[ROVER_O_PHI] = s.phidot;
  for (int i = 0; i < 3; ++i) f[ROVER_O_W + i] = acc[i];
  f[ROVER_O_PHID] = acc[3];
  f[ROVER_O_EGEN] = m->p.b_p * s.phidot * s.phidot;
  f[ROVER_O_EDISS] = rover_dissipation(&m->p, &s);
  rover_wind_force(&m->p, t, s.v, Fw);
  f[ROVER_O_WWIND] = Fw[0] * s.v[0] + Fw[1] * s.v[1];
  return 0;
}

int rover_residual(double t, const double *y, const double *yp, double *F,
                   void *user_data) {
  const rover_model *m = user_data;
  const rover_params *p = &m->p;
  rover_state s;
  double M[81], f[9], A[45], u[9], qd[4], Fw[3];
  rover_state_from_dae(y, yp, &s);
  rover_mass_matrix(p, &m->mp, s.C_pi, M);
  rover_forces(p, &m->mp, t, &s, f);
  rover_constraints(p, &s, A);
  pack_u(&s, u);
  for (int i = 0; i < 3; ++i) F[ROVER_D_R + i] = yp[ROVER_D_R + i] - s.v[i];
  rover_quat_rate(y + ROVER_D_QS, s.w_s, qd);
  for (int i = 0; i < 4; ++i) F[ROVER_D_QS + i] = yp[ROVER_D_QS + i] - qd[i];
  rover_quat_rate(y + ROVER_D_QP, s.w_p, qd);
  for (int i = 0; i < 4; ++i) F[ROVER_D_QP + i] = yp[ROVER_D_QP + i] - qd[i];
  /* seed eq. (12): M u' - f - A^T lambda = 0, lambda = Lambda' */
  for (int i = 0; i < 9; ++i) {
    double sum = -f[i];
    for (int j = 0; j < 9; ++j) sum += M[i * 9 + j] * yp[ROVER_D_V + j];
    for (int a = 0; a < 5; ++a) sum -= A[a * 9 + i] * s.lambda[a];
    F[ROVER_D_V + i] = sum;
  }
  /* seed eq. (4) without the zero row: A u = 0. With the multipliers
   * entering only as Lambda' the Newton corrections of Lambda stay O(1)
   * where those of lambda in the index-2 form grow like 1/h. */
  for (int a = 0; a < 5; ++a) {
    double sum = 0;
    for (int j = 0; j < 9; ++j) sum += A[a * 9 + j] * u[j];
    F[ROVER_D_LAM + a] = sum;
  }
  rover_wind_force(p, t, s.v, Fw);
  F[ROVER_D_EGEN] = yp[ROVER_D_EGEN] - p->b_p * s.phidot * s.phidot;
  F[ROVER_D_EDISS] = yp[ROVER_D_EDISS] - rover_dissipation(p, &s);
  F[ROVER_D_WWIND] = yp[ROVER_D_WWIND] - (Fw[0] * s.v[0] + Fw[1] * s.v[1]);
  return 0;
}

int rover_initial_ode(const rover_params *p, double *y) {
  const double d2r = 3.14159265358979323846 / 180.0;
  double C[9];
  memset(y, 0, ROVER_N_ODE * sizeof(double));
  y[ROVER_O_X] = p->pos0[0];
  y[ROVER_O_X + 1] = p->pos0[1];
  rover_euler312_to_c(p->euler0[0] * d2r, p->euler0[1] * d2r,
                      p->euler0[2] * d2r, C);
  rover_c_to_quat(C, y + ROVER_O_QS);
  y[ROVER_O_PHI] = p->phi0 * d2r;
  for (int i = 0; i < 3; ++i) y[ROVER_O_W + i] = p->omega0[i];
  y[ROVER_O_PHID] = p->phidot0;
  return 0;
}

/* The ODE form carries no multiplier integrals: they start at 0. */
static double yo_lambda_integral(const double *yo, int i) {
  (void)yo; (void)i;
  return 0.0;
}

int rover_ode_to_dae(const rover_params *p, const rover_mass *mp, double t,
                     const double *yo, double *y, double *yp) {
  rover_state s;
  double acc[4], lam[5], C_ps[9], Ct[9], b[3], wsd[3], Fw[3];
  rover_state_from_ode(p, yo, &s);
  if (rover_reduced_accel(p, mp, t, &s, acc, lam) != 0) return -1;
  memset(y, 0, ROVER_N_DAE * sizeof(double));
  memset(yp, 0, ROVER_N_DAE * sizeof(double));
  for (int i = 0; i < 3; ++i) {
    y[ROVER_D_R + i] = s.pos[i];
    y[ROVER_D_V + i] = s.v[i];
    y[ROVER_D_WS + i] = s.w_s[i];
    y[ROVER_D_WP + i] = s.w_p[i];
    yp[ROVER_D_R + i] = s.v[i];
  }
  double n = 0;
  for (int i = 0; i < 4; ++i) n += yo[ROVER_O_QS + i] * yo[ROVER_O_QS + i];
  n = sqrt(n);
  for (int i = 0; i < 4; ++i) y[ROVER_D_QS + i] = yo[ROVER_O_QS + i] / n;
  rover_c_to_quat(s.C_pi, y + ROVER_D_QP);
  for (int i = 0; i < 5; ++i) {
    y[ROVER_D_LAM + i] = yo_lambda_integral(yo, i);
    yp[ROVER_D_LAM + i] = lam[i];
  }
  y[ROVER_D_EGEN] = s.e_gen;
  y[ROVER_D_EDISS] = s.e_diss;
  y[ROVER_D_WWIND] = s.w_wind;
  rover_quat_rate(y + ROVER_D_QS, s.w_s, yp + ROVER_D_QS);
  rover_quat_rate(y + ROVER_D_QP, s.w_p, yp + ROVER_D_QP);
  /* u' = Pi w_hat' + Pi' w_hat (seed eq. 9) */
  for (int i = 0; i < 3; ++i) wsd[i] = acc[i];
  rover_mattvec(s.C_si, wsd, b);
  yp[ROVER_D_V + 0] = p->r * b[1];
  yp[ROVER_D_V + 1] = -p->r * b[0];
  for (int i = 0; i < 3; ++i) yp[ROVER_D_WS + i] = acc[i];
  rover_mat_t(s.C_si, Ct);
  rover_matmul(s.C_pi, Ct, C_ps);
  double cw[3], cwd[3];
  rover_matvec(C_ps, s.w_s, cw);
  rover_matvec(C_ps, wsd, cwd);
  yp[ROVER_D_WP + 0] = cwd[0] - s.phidot * cw[2];
  yp[ROVER_D_WP + 1] = cwd[1] + acc[3];
  yp[ROVER_D_WP + 2] = cwd[2] + s.phidot * cw[0];
  rover_wind_force(p, t, s.v, Fw);
  yp[ROVER_D_EGEN] = p->b_p * s.phidot * s.phidot;
  yp[ROVER_D_EDISS] = rover_dissipation(p, &s);
  yp[ROVER_D_WWIND] = Fw[0] * s.v[0] + Fw[1] * s.v[1];
  return 0;
}

int rover_initial_dae(const rover_params *p, const rover_mass *mp, double t0,
                      double *y, double *yp) {
  double yo[ROVER_N_ODE];
  rover_initial_ode(p, yo);
  return rover_ode_to_dae(p, mp, t0, yo, y, yp);
}

/* Projection of an arbitrary DAE state onto the constraint manifold: the
 * hinge attitude onto a pure C2(phi) rotation, z = r, and the velocities
 * M-orthogonally onto the null space of A (w_hat = (Pi^T M Pi)^{-1} Pi^T M
 * u, u <- Pi w_hat). The result is rebuilt through rover_ode_to_dae so y
 * and the multipliers are consistent. Returns the largest change of y, or
 * -1 on a singular system. yp (may be NULL) receives the consistent yp. */
double rover_project_dae(const rover_params *p, const rover_mass *mp,
                         double t, double *y, double *yp) {
  rover_state s;
  double Ct[9], C_ps[9], yo[ROVER_N_ODE], M[81], Pi[36], u[9], Mu[9];
  double Mh[16], wh[4], ynew[ROVER_N_DAE], ypnew[ROVER_N_DAE];
  rover_state_from_dae(y, NULL, &s);
  rover_mat_t(s.C_si, Ct);
  rover_matmul(s.C_pi, Ct, C_ps);
  double phi = atan2(C_ps[6] - C_ps[2], C_ps[0] + C_ps[8]);
  rover_c2(phi, C_ps);
  rover_matmul(C_ps, s.C_si, s.C_pi);
  rover_mass_matrix(p, mp, s.C_pi, M);
  rover_pi(p, &s, Pi);
  pack_u(&s, u);
  for (int i = 0; i < 9; ++i) {
    Mu[i] = 0;
    for (int j = 0; j < 9; ++j) Mu[i] += M[i * 9 + j] * u[j];
  }
  for (int a = 0; a < 4; ++a) {
    wh[a] = 0;
    for (int i = 0; i < 9; ++i) wh[a] += Pi[i * 4 + a] * Mu[i];
    for (int k = 0; k < 4; ++k) {
      double sum = 0;
      for (int i = 0; i < 9; ++i)
        for (int j = 0; j < 9; ++j)
          sum += Pi[i * 4 + a] * M[i * 9 + j] * Pi[j * 4 + k];
      Mh[a * 4 + k] = sum;
    }
  }
  if (rover_solve(4, Mh, wh) != 0) return -1;
  memset(yo, 0, sizeof yo);
  yo[ROVER_O_X] = s.pos[0];
  yo[ROVER_O_X + 1] = s.pos[1];
  for (int i = 0; i < 4; ++i) yo[ROVER_O_QS + i] = y[ROVER_D_QS + i];
  yo[ROVER_O_PHI] = phi;
  for (int i = 0; i < 3; ++i) yo[ROVER_O_W + i] = wh[i];
  yo[ROVER_O_PHID] = wh[3];
  yo[ROVER_O_EGEN] = s.e_gen;
  yo[ROVER_O_EDISS] = s.e_diss;
  yo[ROVER_O_WWIND] = s.w_wind;
  if (rover_ode_to_dae(p, mp, t, yo, ynew, ypnew) != 0) return -1;
  /* quaternion sign is arbitrary: keep the one closest to the input */
  double dot = 0;
  for (int i = 0; i < 4; ++i) dot += ynew[ROVER_D_QP + i] * y[ROVER_D_QP + i];
  if (dot < 0)
    for (int i = 0; i < 4; ++i) {
      ynew[ROVER_D_QP + i] = -ynew[ROVER_D_QP + i];
      ypnew[ROVER_D_QP + i] = -ypnew[ROVER_D_QP + i];
    }
  double change = 0;
  for (int i = 0; i < ROVER_N_DAE; ++i) {
    if (i >= ROVER_D_LAM && i < ROVER_D_LAM + 5) continue;
    double d = fabs(ynew[i] - y[i]);
    if (d > change) change = d;
    y[i] = ynew[i];
  }
  if (yp) memcpy(yp, ypnew, sizeof ypnew);
  return change;
}

int rover_invariants(double t, const double *y, const double *yp, double *out,
                     void *user_data) {
  (void)t;
  const rover_model *m = user_data;
  rover_state s;
  if (m->form == MBDAE_FORM_ODE)
    rover_state_from_ode(&m->p, y, &s);
  else
    rover_state_from_dae(y, yp, &s);
  out[0] = rover_lyapunov(&m->p, &m->mp, &s);
  return 0;
}
