/* billiard_cases.c - validation of the gravitational billiard (hartl-miller-
 * mazzoleni) against closed forms derived in doc/billiard.md:
 *  - Hamiltonian wedge: energy over 10^4 collisions;
 *  - the symmetric period-one orbit of the wedge (doc/billiard.md §4);
 *  - the parabola's second integral C = L p1 + g q1^2 / 2 (separable in
 *    parabolic coordinates about the focus, doc/billiard.md §5);
 *  - one impact against a moving boundary, stick and slip, from angular
 *    momentum about the contact point (doc/billiard.md §3). */
#include <math.h>
#include <string.h>

#include "billiard_run.h"
#include "billiard/billiard.h"
#include "mbdae/status.h"
#include "mbdae/validation.h"

/* A conservative billiard: no drive, drag, friction; e = 1. */
static void hamiltonian(billiard_params *p, int shape) {
  billiard_params_default(p);
  p->shape = shape;
  p->amplitude = 0.0;
  p->drag = 0;
  p->friction = 0;
  p->restitution = 1.0;
  p->low_speed_rule = BILLIARD_RULE_NONE;
}

/* RK4 integrates the drag-free flight (a quadratic in t) exactly, so these
 * cases measure the event location and the impact map, not truncation. */
static void rk4_cfg(billiard_run_cfg *c) {
  billiard_run_cfg_default(c);
  c->method = MBDAE_METHOD_RK4;
  c->rk4_step = 1e-3;
}

/* ---- energy of the Hamiltonian wedge ---------------------------------- */
typedef struct energy_acc {
  double e0, max_dev;
  long n;
} energy_acc;

static int energy_cb(const mbdae_event_record *ev, const double *y, void *ud) {
  energy_acc *a = ud;
  (void)ev;
  /* energy per unit mass, recomputed here from the state */
  double e = 0.5 * (y[2] * y[2] + y[3] * y[3]) + 9.81 * y[1];
  double d = fabs(e - a->e0) / a->e0;
  if (d > a->max_dev) a->max_dev = d;
  a->n++;
  return 0;
}

static int wedge_energy(mbdae_validation_report *rep) {
  billiard_params p;
  hamiltonian(&p, BILLIARD_WEDGE);
  p.gravity = 9.81;
  p.collisions = 10000;
  p.x0 = 0.005; /* off-axis drop from rest: a generic (chaotic) orbit */
  p.y0 = 0.03;
  billiard_run_cfg c;
  rk4_cfg(&c);
  energy_acc a = {9.81 * p.y0, 0.0, 0};
  c.on_collision = energy_cb;
  c.user_data = &a;
  int st = billiard_run(&p, &c, NULL, NULL, NULL);
  if (st != MBDAE_STOPPED) return st < 0 ? st : MBDAE_ERR_SOLVER;
  mbdae_validation_add(rep, "collisions", 10000, (double)a.n, 0, 0);
  mbdae_validation_add(rep, "RK4: max |E - E0| / E0 over the collisions", 0.0, a.max_dev, 1e-10, 0);
  /* CVODE Adams restarts at order 1 after every impact: its energy error
   * per flight is of the size of rtol and accumulates over the collisions */
  billiard_run_cfg_default(&c);
  c.rtol = 1e-13;
  c.atol = 1e-15;
  energy_acc b = {9.81 * p.y0, 0.0, 0};
  c.on_collision = energy_cb;
  c.user_data = &b;
  st = billiard_run(&p, &c, NULL, NULL, NULL);
  if (st != MBDAE_STOPPED) return st < 0 ? st : MBDAE_ERR_SOLVER;
  mbdae_validation_add(rep, "CVODE Adams rtol 1e-13: max |E - E0| / E0", 0.0, b.max_dev, 1e-8, 0);
  return MBDAE_OK;
}

/* ---- period-one orbit of the symmetric wedge -------------------------- */
typedef struct orbit_acc {
  double x0, yc, T;
  double max_dx, max_dy, max_dT;
  long n;
} orbit_acc;

static int orbit_cb(const mbdae_event_record *ev, const double *y, void *ud) {
  orbit_acc *a = ud;
  a->n++;
  double sgn = (a->n % 2) ? 1.0 : -1.0; /* starts moving right */
  double dx = fabs(y[0] - sgn * a->x0), dy = fabs(y[1] - a->yc);
  if (dx > a->max_dx) a->max_dx = dx;
  if (dy > a->max_dy) a->max_dy = dy;
  double fl = ev->data[BILLIARD_EV_FLIGHT];
  if (a->n > 1 && fabs(fl - a->T) > a->max_dT) a->max_dT = fabs(fl - a->T);
  return 0;
}

static int wedge_period_one(mbdae_validation_report *rep) {
  billiard_params p;
  hamiltonian(&p, BILLIARD_WEDGE);
  const double k = p.wedge_slope, g = p.gravity, x0 = 0.01;
  const double s = sqrt(1.0 + k * k);
  /* doc/billiard.md §4: the centre leaves one arm along its normal and meets
   * the other arm along its normal: V^2 = g x0 (1 + k^2) / k. */
  double V = sqrt(g * x0 * s * s / k), vx = V * k / s, vy = V / s;
  double yv = p.wedge_c + p.radius * s; /* vertex of the centre's wedge */
  double yc = yv + k * x0;              /* height of the centre at impact */
  p.x0 = 0.0;                           /* start at the apex, moving right */
  p.y0 = yc + vy * vy / (2.0 * g);
  p.vx0 = vx;
  p.vy0 = 0.0;
  p.collisions = 1000;
  billiard_run_cfg c;
  rk4_cfg(&c);
  orbit_acc a = {x0, yc, 2.0 * vy / g, 0, 0, 0, 0};
  c.on_collision = orbit_cb;
  c.user_data = &a;
  int st = billiard_run(&p, &c, NULL, NULL, NULL);
  if (st != MBDAE_STOPPED) return st < 0 ? st : MBDAE_ERR_SOLVER;
  mbdae_validation_add(rep, "max |q1 - (+-x0)| at impacts [m]", 0.0, a.max_dx, 1e-9, 0);
  mbdae_validation_add(rep, "max |q2 - q2c| at impacts [m]", 0.0, a.max_dy, 1e-9, 0);
  mbdae_validation_add(rep, "max |flight - 2 v2 / g| [s]", 0.0, a.max_dT, 1e-9, 0);
  return MBDAE_OK;
}

/* ---- the parabola's second integral ----------------------------------- */
typedef struct parab_acc {
  double yf, g, c0, e0, max_dc, max_de, scale;
  long n;
} parab_acc;

static double parab_c(const parab_acc *a, const double *y) {
  double L = y[0] * y[3] - (y[1] - a->yf) * y[2]; /* about the focus */
  return L * y[2] + 0.5 * a->g * y[0] * y[0];
}

static int parab_cb(const mbdae_event_record *ev, const double *y, void *ud) {
  parab_acc *a = ud;
  (void)ev;
  double dc = fabs(parab_c(a, y) - a->c0) / a->scale;
  double e = 0.5 * (y[2] * y[2] + y[3] * y[3]) + a->g * y[1];
  double de = fabs(e - a->e0) / a->e0;
  if (dc > a->max_dc) a->max_dc = dc;
  if (de > a->max_de) a->max_de = de;
  a->n++;
  return 0;
}

static int parabola_integral(mbdae_validation_report *rep) {
  billiard_params p;
  hamiltonian(&p, BILLIARD_PARABOLA);
  p.radius = 0.0; /* a point: the offset of a parabola is no parabola */
  p.collisions = 5000;
  p.x0 = 0.012;
  p.y0 = 0.03;
  p.vx0 = 0.21;
  p.vy0 = 0.0;
  billiard_run_cfg c;
  rk4_cfg(&c);
  parab_acc a;
  memset(&a, 0, sizeof a);
  a.g = p.gravity;
  a.yf = p.parabola_c + 1.0 / (4.0 * p.parabola_a);
  double y0[5] = {p.x0, p.y0, p.vx0, p.vy0, 0.0};
  a.c0 = parab_c(&a, y0);
  a.e0 = 0.5 * p.vx0 * p.vx0 + a.g * p.y0;
  /* scale of C: (energy) x (focal length) */
  a.scale = a.e0 / (4.0 * p.parabola_a);
  c.on_collision = parab_cb;
  c.user_data = &a;
  int st = billiard_run(&p, &c, NULL, NULL, NULL);
  if (st != MBDAE_STOPPED) return st < 0 ? st : MBDAE_ERR_SOLVER;
  mbdae_validation_add(rep, "collisions", 5000, (double)a.n, 0, 0);
  mbdae_validation_add(rep, "max |C - C0| / (E f)", 0.0, a.max_dc, 1e-9, 0);
  mbdae_validation_add(rep, "max |E - E0| / E0", 0.0, a.max_de, 1e-10, 0);
  return MBDAE_OK;
}

/* ---- one impact against a moving boundary ----------------------------- */
/* The ball sits at contact on the parabola's flank at the drive's zero
 * crossing (boundary velocity A w n1), and the model's event handler is
 * called; the reference follows doc/billiard.md §3. */
static int single_impact(mbdae_validation_report *rep, double spin,
                         int expect_stick) {
  billiard_params p;
  billiard_params_default(&p);
  p.shape = BILLIARD_PARABOLA;
  p.amplitude = 0.002;
  p.frequency = 5.0;
  p.restitution = 0.8;
  p.low_speed_rule = BILLIARD_RULE_NONE;
  p.y0 = 0.05;
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_ADAMS;
  mbdae_model *m = NULL;
  int st = mbdae_model_billiard.create(&p, &o, &m, NULL);
  if (st) return st;
  double y[5], t = 0.0; /* dq1 = 0, boundary velocity A w */
  mbdae_model_billiard.initial_state(m, 0.0, y, NULL);
  /* contact point on the curve at s = 0.01, centre along the normal */
  const double s = 0.01, a = p.parabola_a, b = p.radius;
  double fp = 2.0 * a * s, q = sqrt(1.0 + fp * fp);
  double nx = -fp / q, ny = 1.0 / q, tx = ny, ty = -nx;
  y[0] = s + b * nx;
  y[1] = a * s * s + p.parabola_c + b * ny;
  const double vn = -0.6, vt = 0.35; /* lab frame, normal / tangential */
  y[2] = vn * nx + vt * tx;
  y[3] = vn * ny + vt * ty;
  y[4] = spin;
  const double w = p.amplitude * 2.0 * 3.14159265358979323846 * p.frequency; /* boundary n1 */
  const double wn = w * nx, wt = w * tx;
  int dirs[1] = {-1};
  mbdae_event_info info;
  memset(&info, 0, sizeof info);
  st = billiard_handle_event(m, t, y, NULL, dirs, &info);
  mbdae_model_billiard.destroy(&m);
  if (st < 0) return st;

  /* reference: normal restitution; angular momentum about the contact
   * point, J w - m b (vt - wt), is conserved through the impact */
  const double mass = p.mass, J = 0.4 * mass * b * b, e = p.restitution;
  double vn1 = wn - e * (vn - wn), Sn = mass * (vn1 - vn);
  double u = vt - wt;
  double u1 = (mass * b * b * u - J * b * spin) / (J + mass * b * b); /* stick */
  double St = mass * (u1 - u);
  int stick = fabs(St) < p.mu_static * fabs(Sn);
  double vt1, spin1;
  if (stick) {
    vt1 = u1 + wt;
    spin1 = -u1 / b;
  } else {
    double slip = u + b * spin;
    St = -(slip > 0 ? 1.0 : -1.0) * p.mu_kinetic * fabs(Sn);
    vt1 = vt + St / mass;
    spin1 = spin + b * St / J;
  }
  double vx1 = vn1 * nx + vt1 * tx, vy1 = vn1 * ny + vt1 * ty;
  mbdae_validation_add(rep, "regime (1 stick, 0 slip), reference = expected", expect_stick,
                       (double)stick, 0, 0);
  mbdae_validation_add(rep, "regime reported by the model", (double)stick,
                       info.data[BILLIARD_EV_STICK], 0, 0);
  mbdae_validation_add(rep, "v1 after [m/s]", vx1, y[2], 1e-12, 1);
  mbdae_validation_add(rep, "v2 after [m/s]", vy1, y[3], 1e-12, 1);
  mbdae_validation_add(rep, "u3 after [rad/s]", spin1, y[4], 1e-12, 1);
  return MBDAE_OK;
}

static int impact_stick(mbdae_validation_report *rep) {
  return single_impact(rep, -0.35 / 1.55e-3 + 40.0, 1); /* nearly rolling */
}
static int impact_slip(mbdae_validation_report *rep) {
  return single_impact(rep, 2000.0, 0); /* spinning against the slide */
}

const mbdae_validation_case mbdae_validation_billiard[] = {
  {"billiard_wedge_energy",
   "Hamiltonian wedge (no drive/drag/friction, e = 1): energy over 10^4 collisions",
   wedge_energy},
  {"billiard_wedge_period_one",
   "symmetric wedge: the analytic period-one orbit (normal incidence on both arms)",
   wedge_period_one},
  {"billiard_parabola_integral",
   "conservative parabola, point ball: C = L p1 + g q1^2/2 about the focus",
   parabola_integral},
  {"billiard_impact_stick",
   "one impact on the moving parabola, stick regime, vs angular momentum closed form",
   impact_stick},
  {"billiard_impact_slip",
   "one impact on the moving parabola, slip regime, vs Coulomb closed form",
   impact_slip},
  {NULL, NULL, NULL},
};
