/* pendulum_wall.c - example 1: an ODE with a root function and an event.
 *
 * A pendulum (length L, gravity g) hangs from a pivot with a rigid wall
 * along the vertical below the pivot. Released at rest from the angle
 * theta0 > 0, it swings down and hits the wall at theta = 0, where the
 * impact reverses its angular velocity with restitution e:
 *
 *     theta'' = -(g/L) sin(theta)          (theta >= 0, free swing)
 *     omega+  = -e omega-                  (at theta = 0, omega- < 0)
 *
 * What this program shows, using nothing but the public API
 * (mbdae/engine.h, which includes mbdae/problem.h, and mbdae/status.h):
 *   - an ODE-form problem: right-hand side, analytic Jacobian,
 *   - a root function g = theta that locates each impact,
 *   - an event handler that applies the impact map,
 *   - an invariant (the energy), logged by the engine before and after each
 *     event,
 *   - an observer that sees every output time and every event.
 *
 * It then checks the result against closed forms it computes itself:
 *   - between impacts the pendulum swings with amplitude theta_j, and energy
 *     conservation plus omega+ = -e omega- give sin(theta_j / 2) =
 *     e^j sin(theta0 / 2) (the kinetic energy at theta = 0 scales by e^2);
 *   - a swing of amplitude theta_j takes a quarter period from the top to the
 *     wall, T/4 = K(k_j) sqrt(L/g) with k_j = sin(theta_j / 2) and K the
 *     complete elliptic integral of the first kind, so impact n happens at
 *         t_n = sqrt(L/g) [ K(k_0) + 2 sum_{j=1}^{n-1} K(k_j) ];
 *   - the speed at impact n is |omega_n| = 2 sqrt(g/L) k_{n-1};
 *   - the energy after an impact is e^2 times the energy before it (all
 *     kinetic at theta = 0, so this one holds by construction of the map;
 *     it shows the invariant log at work).
 *
 * Build: part of the normal build (examples/CMakeLists.txt); run
 * `build/examples/pendulum_wall`. Exit code 0 when every check passes. */
#include <math.h>
#include <stdio.h>

#include "mbdae/engine.h"
#include "mbdae/status.h"

#define MAX_IMPACTS 16
#define PI 3.14159265358979323846 /* (M_PI is POSIX, not ISO C) */

/* Everything the callbacks need travels in user_data: parameters in,
 * measured impacts out. The engine never looks inside. */
typedef struct pendulum {
  double g, L, e;             /* gravity, length, restitution */
  int nimpacts;               /* impacts seen by the event handler */
  double t_impact[MAX_IMPACTS];
  double omega_impact[MAX_IMPACTS]; /* angular velocity just before */
  double energy_ratio[MAX_IMPACTS]; /* energy after / before (observer) */
  int nlogged;                /* events seen by the observer */
} pendulum;

/* State y = (theta, omega). Right-hand side y' = f(t, y). */
static int rhs(double t, const double *y, double *f, void *user_data) {
  const pendulum *p = user_data;
  (void)t;
  f[0] = y[1];
  f[1] = -(p->g / p->L) * sin(y[0]);
  return 0; /* 0 ok; > 0 would ask the integrator to retry a smaller step */
}

/* Jacobian df/dy, dense and column-major: J[col * n + row]. For an ODE the
 * engine passes cj = 0 and yp = NULL. It is optional (CVODE would difference
 * f otherwise) but cheap here and exact. */
static int jacobian(double t, double cj, const double *y, const double *yp, double *J,
                    void *user_data) {
  const pendulum *p = user_data;
  (void)t, (void)cj, (void)yp;
  J[0 * 2 + 0] = 0.0;                            /* d theta' / d theta */
  J[0 * 2 + 1] = -(p->g / p->L) * cos(y[0]);     /* d omega' / d theta */
  J[1 * 2 + 0] = 1.0;                            /* d theta' / d omega */
  J[1 * 2 + 1] = 0.0;                            /* d omega' / d omega */
  return 0;
}

/* One root function: the distance to the wall, as an angle. The engine
 * locates its sign changes to solver tolerance. */
static int roots(double t, const double *y, const double *yp, double *g, void *user_data) {
  (void)t, (void)yp, (void)user_data;
  g[0] = y[0];
  return 0;
}

/* The impact map. dirs[0] = -1: theta fell through 0, i.e. the pendulum
 * reached the wall moving towards it. Any other crossing would be the
 * pendulum leaving the wall, which needs no action (and the engine masks
 * the root just handled, so round-off right after the impact cannot fire it
 * again). The handler changes y in place and returns CONTINUE so the
 * integrator restarts from the new state. */
static int impact(double t, double *y, double *yp, const int *dirs, mbdae_event_info *info,
                  void *user_data) {
  pendulum *p = user_data;
  (void)yp;
  if (dirs[0] != -1) return MBDAE_EVENT_NOCHANGE;
  if (p->nimpacts < MAX_IMPACTS) {
    p->t_impact[p->nimpacts] = t;
    p->omega_impact[p->nimpacts] = y[1];
  }
  p->nimpacts++;
  y[0] = 0.0;             /* exactly at the wall */
  y[1] = -p->e * y[1];    /* Newton's restitution law */
  info->label = "impact"; /* shows up in the observer's event record */
  return MBDAE_EVENT_CONTINUE;
}

/* Energy per unit mass, zero at the bottom: the engine evaluates it just
 * before and just after every event and hands both to the observer. */
static int energy(double t, const double *y, const double *yp, double *out, void *user_data) {
  const pendulum *p = user_data;
  (void)t, (void)yp;
  out[0] = 0.5 * p->L * p->L * y[1] * y[1] + p->g * p->L * (1.0 - cos(y[0]));
  return 0;
}

/* The observer: called at t0, every dt_out, at t_end and after each event
 * (ev != NULL). A real program would write its output here; this one keeps
 * the energy ratio of each impact. */
static int observe(double t, const double *y, const double *yp, const mbdae_event_record *ev,
                   void *user_data) {
  pendulum *p = user_data;
  (void)t, (void)y, (void)yp;
  if (ev && ev->ninv == 1 && p->nlogged < MAX_IMPACTS)
    p->energy_ratio[p->nlogged++] = ev->inv_after[0] / ev->inv_before[0];
  return 0;
}

/* Complete elliptic integral of the first kind, K(k) = pi / (2 AGM(1, k')),
 * by the arithmetic-geometric mean (quadratic convergence). */
static double elliptic_k(double k) {
  double a = 1.0, b = sqrt(1.0 - k * k);
  for (int i = 0; i < 40 && fabs(a - b) > 1e-16 * a; ++i) {
    double an = 0.5 * (a + b);
    b = sqrt(a * b);
    a = an;
  }
  return PI / (a + b);
}

/* Print one comparison and return 1 when it is within tol (relative). */
static int check(const char *what, double computed, double expected, double tol) {
  double rel = fabs(computed - expected) / fabs(expected);
  int ok = rel <= tol;
  printf("  %-22s %.12f  closed form %.12f  rel. error %.1e  %s\n", what, computed, expected,
         rel, ok ? "ok" : "FAIL");
  return ok;
}

int main(void) {
  pendulum pend = {.g = 9.81, .L = 1.0, .e = 0.8};
  const double theta0 = PI / 3.0; /* released at 60 degrees */
  const int nshow = 5;              /* impacts checked against the closed form */

  /* 1. The problem: 2 states, ODE form, and its callbacks. */
  mbdae_problem *prob = mbdae_problem_create(2, MBDAE_FORM_ODE);
  if (!prob) {
    fprintf(stderr, "out of memory\n");
    return 1;
  }
  static const char *const inv_names[] = {"energy"};
  static const char *const inv_units[] = {"J"};
  int rc = mbdae_problem_set_user_data(prob, &pend);
  if (!rc) rc = mbdae_problem_set_rhs(prob, rhs);
  if (!rc) rc = mbdae_problem_set_jacobian_dense(prob, jacobian);
  if (!rc) rc = mbdae_problem_set_roots(prob, 1, roots);
  if (!rc) rc = mbdae_problem_set_event_handler(prob, impact);
  if (!rc) rc = mbdae_problem_set_invariants(prob, 1, inv_names, energy);
  if (!rc) rc = mbdae_problem_set_invariant_units(prob, inv_units);
  if (rc) {
    fprintf(stderr, "problem setup: %s\n", mbdae_status_message(rc));
    mbdae_problem_free(&prob);
    return 1;
  }

  /* 2. Options: start from the defaults, then pick CVODE's BDF method and
   * tight tolerances. The run ends at t_end; with e = 0.8 the swings decay
   * geometrically but never stop, so there is no Zeno limit to hit. */
  mbdae_options opt;
  mbdae_options_default(&opt);
  opt.method = MBDAE_METHOD_CVODE_BDF;
  opt.linsol = MBDAE_LINSOL_DENSE;
  opt.t0 = 0.0;
  opt.t_end = 5.5;
  opt.dt_out = 0.05;
  opt.rtol = 1e-10;
  opt.atol = 1e-12;
  opt.observer = observe;
  opt.observer_data = &pend;

  /* 3. Run. y holds the initial state on entry and the final one on return;
   * ODE-form problems pass yp = NULL. */
  double y[2] = {theta0, 0.0};
  mbdae_stats stats;
  char msg[256];
  rc = mbdae_run(prob, &opt, y, NULL, &stats, msg, sizeof msg);
  mbdae_problem_free(&prob); /* sets prob to NULL */
  if (rc != MBDAE_OK) {
    fprintf(stderr, "run failed (%s): %s\n", mbdae_status_name(rc), msg);
    return 1;
  }
  printf("pendulum against a wall: L = %g m, g = %g m/s^2, e = %g, theta0 = 60 deg\n",
         pend.L, pend.g, pend.e);
  printf("%ld steps, %ld events, %d impacts by t = %g s\n", stats.steps, stats.events,
         pend.nimpacts, stats.t_reached);

  /* 4. Compare with the closed forms. */
  int ok = pend.nimpacts >= nshow && pend.nlogged >= nshow;
  const double tscale = sqrt(pend.L / pend.g);
  double k = sin(0.5 * theta0);  /* k_0 */
  double t_expected = tscale * elliptic_k(k);
  for (int n = 0; ok && n < nshow; ++n) {
    printf("impact %d\n", n + 1);
    ok &= check("time [s]", pend.t_impact[n], t_expected, 1e-7);
    ok &= check("speed [rad/s]", -pend.omega_impact[n], 2.0 * k / tscale, 1e-7);
    ok &= check("energy after/before", pend.energy_ratio[n], pend.e * pend.e, 1e-9);
    k *= pend.e;                                /* k_{n+1} = e k_n */
    t_expected += 2.0 * tscale * elliptic_k(k); /* out and back with k_{n+1} */
  }
  if (pend.nimpacts < nshow) printf("FAIL: only %d impacts\n", pend.nimpacts);
  printf("%s\n", ok ? "all checks passed" : "FAIL: a check failed");
  return ok ? 0 : 1;
}
