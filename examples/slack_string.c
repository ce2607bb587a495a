/* slack_string.c - example 2: a DAE with a mode switch, solved by IDA.
 *
 * A point mass m on a massless string of length L, the other end fixed at
 * the origin, in gravity g (z up). Launched from the bottom with a
 * horizontal speed v0 between sqrt(2 g L) and sqrt(5 g L), it swings up past
 * the horizontal, but not fast enough to go over the top: the string goes
 * slack, the mass flies freely on a parabola inside the circle, and the
 * string snaps taut again when the distance to the origin is back to L.
 *
 * Cartesian coordinates, y = (x, z, vx, vz, lambda), lambda = string tension:
 *
 *   taut:   x' = vx,  z' = vz,
 *           m vx' = -lambda x / L,  m vz' = -lambda z / L - m g,
 *           x vx' + z vz' + vx^2 + vz^2 = 0      (d^2/dt^2 of |r|^2 / 2 = 0)
 *   slack:  the same first four equations, and lambda = 0.
 *
 * lambda is an algebraic variable (id = 0); the constraint is written at
 * acceleration level, so the DAE has index 1 and IDA solves it directly.
 * A string can only pull: the taut mode ends when lambda falls through 0
 * (root function 0); the slack mode ends when |r| comes back up to L (root
 * function 1). That second event would be a jerk of the string (an impact);
 * this example stops the run there.
 *
 * What this program shows, with the public API only (mbdae/engine.h,
 * mbdae/problem.h, mbdae/jaccheck.h, mbdae/status.h):
 *   - a DAE-form problem: residual F(t, y, y') = 0, the differential /
 *     algebraic id vector, an analytic dense Jacobian dF/dy + cj dF/dy',
 *     checked against finite differences with mbdae_jacobian_check,
 *   - mode-dependent equations and root functions (the mode lives in
 *     user_data, the engine does not know about it),
 *   - an event handler that switches mode and returns a consistent y, y',
 *   - an event handler that stops the run.
 *
 * The closed forms it checks against, derived here:
 *   - energy: v^2(theta) = v0^2 - 2 g L (1 - cos theta), theta the angle from
 *     the bottom; radial balance: lambda = m v^2 / L + m g cos theta, so
 *     lambda = 0 at cos theta_s = (2 g L - v0^2) / (3 g L); for
 *     v0^2 = 3.5 g L that is theta_s = 120 degrees, with v_s^2 = -g L cos theta_s;
 *   - the time to get there, t_s = int_0^theta_s L dtheta / v(theta)
 *     (Simpson's rule on a smooth integrand);
 *   - then a parabola from the release point: the string is taut again at
 *     the first tau > 0 with |r_s + v_s tau - g tau^2 / 2 e_z| = L
 *     (bisection). For theta_s = 120 degrees the parabola passes through the
 *     lowest point of the circle, a classic textbook result; the bisection
 *     does not assume it, and the run must find it.
 * Exit code 0 when every check passes. */
#include <math.h>
#include <stdio.h>

#include "mbdae/engine.h"
#include "mbdae/jaccheck.h"
#include "mbdae/status.h"

#define PI 3.14159265358979323846 /* (M_PI is POSIX, not ISO C) */
#define N 5                       /* x, z, vx, vz, lambda */

enum { TAUT, SLACK };

typedef struct string_mass {
  double m, L, g;
  int mode;                       /* TAUT or SLACK */
  double t_slack, y_slack[N];     /* recorded by the event handler */
  double t_taut, y_taut[N];
} string_mass;

/* F(t, y, y') = 0. */
static int residual(double t, const double *y, const double *yp, double *F, void *user_data) {
  const string_mass *s = user_data;
  (void)t;
  const double x = y[0], z = y[1], vx = y[2], vz = y[3], lambda = y[4];
  F[0] = yp[0] - vx;
  F[1] = yp[1] - vz;
  F[2] = s->m * yp[2] + lambda * x / s->L;
  F[3] = s->m * yp[3] + lambda * z / s->L + s->m * s->g;
  F[4] = s->mode == TAUT ? x * yp[2] + z * yp[3] + vx * vx + vz * vz : lambda;
  return 0;
}

/* J = dF/dy + cj dF/dy', dense, column-major J[col * N + row]; the engine
 * zeroes J before the call, so only the nonzero entries are written. */
static int jacobian(double t, double cj, const double *y, const double *yp, double *J,
                    void *user_data) {
  const string_mass *s = user_data;
  (void)t;
#define J_(row, col) J[(col) * N + (row)]
  J_(0, 0) = cj;
  J_(0, 2) = -1.0;
  J_(1, 1) = cj;
  J_(1, 3) = -1.0;
  J_(2, 2) = s->m * cj;
  J_(2, 0) = y[4] / s->L;
  J_(2, 4) = y[0] / s->L;
  J_(3, 3) = s->m * cj;
  J_(3, 1) = y[4] / s->L;
  J_(3, 4) = y[1] / s->L;
  if (s->mode == TAUT) {
    J_(4, 0) = yp[2];
    J_(4, 1) = yp[3];
    J_(4, 2) = 2.0 * y[2] + y[0] * cj;
    J_(4, 3) = 2.0 * y[3] + y[1] * cj;
  } else {
    J_(4, 4) = 1.0;
  }
#undef J_
  return 0;
}

/* Two root functions, each live in one mode; the other returns a constant
 * that never crosses zero:
 *   g0 = lambda        (taut: the tension falls through 0 -> slack)
 *   g1 = L - |r|       (slack: the distance grows back to L -> taut) */
static int roots(double t, const double *y, const double *yp, double *g, void *user_data) {
  const string_mass *s = user_data;
  (void)t, (void)yp;
  g[0] = s->mode == TAUT ? y[4] : 1.0;
  g[1] = s->mode == SLACK ? s->L - hypot(y[0], y[1]) : 1.0;
  return 0;
}

/* The event map. On entry y, yp are the state at the located root. */
static int on_event(double t, double *y, double *yp, const int *dirs, mbdae_event_info *info,
                    void *user_data) {
  string_mass *s = user_data;
  if (s->mode == TAUT && dirs[0] == -1) {
    /* The string goes slack: no impulse, only a change of equations. The
     * state must satisfy the slack mode's residual: lambda = 0, free fall. */
    s->mode = SLACK;
    s->t_slack = t;
    for (int i = 0; i < N; ++i) s->y_slack[i] = y[i];
    y[4] = 0.0;
    yp[0] = y[2];
    yp[1] = y[3];
    yp[2] = 0.0;
    yp[3] = -s->g;
    yp[4] = 0.0;
    info->label = "slack";
    return MBDAE_EVENT_CONTINUE;
  }
  if (s->mode == SLACK && dirs[1] == -1) {
    /* |r| reached L from inside: the string is taut again. Stop here. */
    s->t_taut = t;
    for (int i = 0; i < N; ++i) s->y_taut[i] = y[i];
    info->label = "taut";
    return MBDAE_EVENT_STOP;
  }
  /* Any other crossing (e.g. g1 rising from round-off just after the
   * release) changes nothing. */
  return MBDAE_EVENT_NOCHANGE;
}

/* ---- the independent reference ------------------------------------------- */

/* t_s = int_0^theta_s L / v(theta) dtheta by composite Simpson (v > 0 on
 * the whole interval, so the integrand is smooth). */
static double slack_time(double g, double L, double v0, double theta_s) {
  const int n = 2000; /* even */
  const double h = theta_s / n;
  double sum = 0.0;
  for (int i = 0; i <= n; ++i) {
    double th = i * h;
    double f = L / sqrt(v0 * v0 - 2.0 * g * L * (1.0 - cos(th)));
    sum += (i == 0 || i == n ? 1.0 : (i % 2 ? 4.0 : 2.0)) * f;
  }
  return sum * h / 3.0;
}

/* |r(tau)|^2 - L^2 on the free-flight parabola from (r0, v0). */
static double flight_gap(const double r0[2], const double v[2], double g, double L,
                         double tau) {
  double x = r0[0] + v[0] * tau, z = r0[1] + v[1] * tau - 0.5 * g * tau * tau;
  return x * x + z * z - L * L;
}

/* First tau > 0 where the parabola reaches |r| = L again: march until the
 * gap is >= 0, then bisect. Returns -1 if it never does within tau_max. */
static double flight_time(const double r0[2], const double v[2], double g, double L) {
  const double step = 1e-3, tau_max = 10.0;
  double a = step;
  while (a < tau_max && flight_gap(r0, v, g, L, a + step) < 0.0) a += step;
  if (a >= tau_max) return -1.0;
  double b = a + step;
  for (int i = 0; i < 200 && b - a > 1e-15; ++i) {
    double c = 0.5 * (a + b);
    if (flight_gap(r0, v, g, L, c) < 0.0) a = c;
    else b = c;
  }
  return 0.5 * (a + b);
}

static int check(const char *what, double computed, double expected, double tol) {
  double err = fabs(computed - expected) / fmax(1.0, fabs(expected));
  int ok = err <= tol;
  printf("  %-24s %.10f  reference %.10f  error %.1e  %s\n", what, computed, expected, err,
         ok ? "ok" : "FAIL");
  return ok;
}

int main(void) {
  string_mass s = {.m = 0.5, .L = 1.0, .g = 9.81, .mode = TAUT, .t_slack = -1, .t_taut = -1};
  const double v0 = sqrt(3.5 * s.g * s.L);

  /* Consistent initial state at the bottom (x, z) = (0, -L), moving in +x:
   * lambda = m v0^2 / L + m g (centripetal plus weight), and y' from the
   * equations: x' = v0, vz' = v0^2 / L (centripetal acceleration upwards). */
  double y[N] = {0.0, -s.L, v0, 0.0, s.m * v0 * v0 / s.L + s.m * s.g};
  double yp[N] = {v0, 0.0, 0.0, v0 * v0 / s.L, 0.0};
  const double id[N] = {1, 1, 1, 1, 0}; /* lambda is algebraic */

  mbdae_problem *p = mbdae_problem_create(N, MBDAE_FORM_DAE);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  int rc = mbdae_problem_set_user_data(p, &s);
  if (!rc) rc = mbdae_problem_set_residual(p, residual);
  if (!rc) rc = mbdae_problem_set_id(p, id);
  if (!rc) rc = mbdae_problem_set_jacobian_dense(p, jacobian);
  if (!rc) rc = mbdae_problem_set_roots(p, 2, roots);
  if (!rc) rc = mbdae_problem_set_event_handler(p, on_event);
  if (rc) {
    fprintf(stderr, "problem setup: %s\n", mbdae_status_message(rc));
    mbdae_problem_free(&p);
    return 1;
  }

  /* Before running: is the analytic Jacobian right? Compare it with central
   * differences at the initial state, in both modes, for some cj. */
  int ok = 1;
  for (int mode = TAUT; mode <= SLACK; ++mode) {
    mbdae_jac_check jc = {0};
    s.mode = mode;
    rc = mbdae_jacobian_check(p, 0.0, y, yp, 17.0, 0.0, 1e-6, &jc);
    int good = rc == MBDAE_OK && jc.max_rel_err < 1e-6;
    printf("Jacobian check (%s): max rel. error %.1e  %s\n", mode == TAUT ? "taut" : "slack",
           jc.max_rel_err, good ? "ok" : "FAIL");
    ok &= good;
  }
  s.mode = TAUT;

  mbdae_options o;
  mbdae_options_default(&o); /* IDA with a dense linear solver */
  o.t_end = 3.0;             /* the run stops at the "taut" event well before */
  o.dt_out = 0.01;
  o.rtol = 1e-10;
  o.atol = 1e-12;
  mbdae_stats st;
  char msg[256];
  rc = mbdae_run(p, &o, y, yp, &st, msg, sizeof msg);
  mbdae_problem_free(&p);
  /* MBDAE_STOPPED: the handler ended the run, as intended. */
  if (rc != MBDAE_STOPPED) {
    fprintf(stderr, "run ended with %s: %s\n", mbdae_status_name(rc), msg);
    return 1;
  }
  printf("mass on a string: m = %g kg, L = %g m, v0 = sqrt(3.5 g L) = %.6f m/s\n", s.m, s.L,
         v0);
  printf("%ld steps, %ld events, stopped at t = %.6f s\n", st.steps, st.events, st.t_reached);

  /* The reference. */
  const double cos_s = (2.0 * s.g * s.L - v0 * v0) / (3.0 * s.g * s.L);
  const double theta_s = acos(cos_s);
  const double t_s = slack_time(s.g, s.L, v0, theta_s);
  const double vs = sqrt(-s.g * s.L * cos_s);
  const double r_s[2] = {s.L * sin(theta_s), -s.L * cos_s};
  const double v_s[2] = {vs * cos_s, vs * sin(theta_s)}; /* tangent, d/dtheta */
  const double tau = flight_time(r_s, v_s, s.g, s.L);
  const double x_t = r_s[0] + v_s[0] * tau;
  const double z_t = r_s[1] + v_s[1] * tau - 0.5 * s.g * tau * tau;

  printf("string goes slack\n");
  ok &= check("time [s]", s.t_slack, t_s, 1e-7);
  ok &= check("angle [deg]", atan2(s.y_slack[0], -s.y_slack[1]) * 180.0 / PI,
              theta_s * 180.0 / PI, 1e-6);
  ok &= check("speed [m/s]", hypot(s.y_slack[2], s.y_slack[3]), vs, 1e-7);
  printf("string taut again\n");
  ok &= check("time [s]", s.t_taut, t_s + tau, 1e-6);
  ok &= check("x [m]", s.y_taut[0], x_t, 1e-6);
  ok &= check("z [m]", s.y_taut[1], z_t, 1e-6);
  printf("%s\n", ok ? "all checks passed" : "FAIL: a check failed");
  return ok ? 0 : 1;
}
