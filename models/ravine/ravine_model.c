/* ravine_model.c - the hybrid sphere-on-terrain problem (hartl ch. 2-4):
 * modes flight / roll / slide on a plane or over a convex corner, root
 * functions for every transition, Kane impacts, Zeno rule, outcomes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ravine/ravine.h"

#define NY 9
/* largest penetration (in units of b) an event may remove (doc/ravine.md) */
#define RAVINE_REPAIR_TOL 1e-4
#define NEVDATA 12

typedef struct ravine_model {
  ravine_params p;
  ravine_terrain T;
  ravine_sphere s;
  double g, lambda;
  ravine_contact c;
  mbdae_problem *problem;
  int nroots;            /* nseg gap roots + 7 */
  double *bias;          /* per segment: offset of a gap root just left grazing */
  double gap_res;        /* resolution of the gap roots (RAVINE_GAP_RESOLUTION b) */
  /* outcomes */
  int crossed, rebound;
  double t_cross, h_max, E0;
  int h_seen;
  long n_impacts, n_stick, n_slip, n_modes;
} ravine_model;

/* root layout after the nseg gap roots */
enum { R_NORMAL = 0, R_BACK, R_FWD, R_SLIP, R_GOAL, R_REBOUND, R_APEX, R_COUNT };

static double energy(const ravine_model *M, const double *y) {
  double v2 = y[3] * y[3] + y[4] * y[4] + y[5] * y[5];
  double w2 = y[6] * y[6] + y[7] * y[7] + y[8] * y[8];
  return 0.5 * M->s.m * v2 + 0.5 * M->s.J * w2 + M->s.m * M->g * y[1];
}

static int rhs(double t, const double *y, double *out, void *ud) {
  (void)t;
  ravine_model *M = ud;
  ravine_dynamics(&M->s, M->g, &M->T, &M->c, M->lambda, y, out, NULL, NULL, NULL, NULL);
  return 0;
}

static int jac(double t, double cj, const double *y, const double *yp, double *J,
               void *ud) {
  (void)t; (void)cj; (void)yp;
  ravine_model *M = ud;
  double f[NY];
  ravine_dynamics(&M->s, M->g, &M->T, &M->c, M->lambda, y, f, J, NULL, NULL, NULL);
  return 0;
}

/* Gap roots a contact excludes: its own feature, and the segments meeting it
 * at a convex vertex (reached through the corner roots instead). */
static int gap_root_active(const ravine_model *M, int k) {
  const ravine_contact *c = &M->c;
  if (c->mode == RAVINE_FLIGHT) return 1;
  if (!c->vertex) {
    int f = c->feature;
    if (k == f) return 0;
    if (k == f + 1 && M->T.convex[f + 1]) return 0;
    if (k == f - 1 && M->T.convex[f]) return 0;
    return 1;
  }
  return !(k == c->feature || k == c->feature - 1);
}

static int roots(double t, const double *y, const double *yp, double *g, void *ud) {
  (void)t; (void)yp;
  ravine_model *M = ud;
  const ravine_terrain *T = &M->T;
  const double b = M->s.b;
  for (int k = 0; k < T->nseg; ++k)
    g[k] = gap_root_active(M, k)
               ? ravine_segment_distance(T, k, y[0], y[1], NULL, NULL, NULL) - b + M->bias[k]
               : 1.0;
  double *r = g + T->nseg;
  for (int i = 0; i < R_COUNT; ++i) r[i] = 1.0;
  if (M->c.mode != RAVINE_FLIGHT) {
    double f[NY], N, F[3], sl[3];
    ravine_dynamics(&M->s, M->g, T, &M->c, M->lambda, y, f, NULL, &N, F, sl);
    double W = M->s.m * M->g;
    r[R_NORMAL] = N / W;
    int k = M->c.feature;
    if (!M->c.vertex) {
      double s = (y[0] - T->vx[k]) * T->tx[k] + (y[1] - T->vy[k]) * T->ty[k];
      if (k > 0) r[R_BACK] = s / b;
      if (k + 1 < T->nseg) r[R_FWD] = (T->len[k] - s) / b;
    } else { /* wedge of the corner between segments k-1 and k */
      r[R_BACK] = ((y[0] - T->vx[k]) * T->tx[k - 1] + (y[1] - T->vy[k]) * T->ty[k - 1]) / b;
      r[R_FWD] = -((y[0] - T->vx[k]) * T->tx[k] + (y[1] - T->vy[k]) * T->ty[k]) / b;
    }
    if (M->c.mode == RAVINE_ROLL) {
      double Fm = sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]);
      r[R_SLIP] = (M->s.mu * N - Fm) / W; /* friction demand within the cone */
    } else {
      r[R_SLIP] = sl[0] * M->c.sref[0] + sl[1] * M->c.sref[1] + sl[2] * M->c.sref[2];
    }
  }
  r[R_GOAL] = y[0] - T->x_goal;
  if (y[0] > T->x_climb - M->s.b) {
    if (M->p.stop_on_rebound) r[R_REBOUND] = y[3];
    /* apex of a flight arc (on the ground the height peaks where v_x = 0) */
    if (M->c.mode == RAVINE_FLIGHT) r[R_APEX] = y[4];
  }
  return 0;
}

static const char *mode_name(void *ud) {
  const ravine_model *M = ud;
  switch (M->c.mode) {
  case RAVINE_FLIGHT: return "flight";
  case RAVINE_ROLL: return M->c.vertex ? "roll-corner" : "roll";
  default: return M->c.vertex ? "slide-corner" : "slide";
  }
}

static int invariants(double t, const double *y, const double *yp, double *out, void *ud) {
  (void)t; (void)yp;
  out[0] = energy(ud, y);
  return 0;
}

static void track_height(ravine_model *M, const double *y) {
  if (y[0] < M->T.x_climb - M->s.b) return;
  double h = y[1] - M->s.b - M->T.y_top;
  if (!M->h_seen || h > M->h_max) M->h_max = h;
  M->h_seen = 1;
}

static double slip_scale(const ravine_model *M, const double *y) {
  double v = sqrt(y[3] * y[3] + y[4] * y[4] + y[5] * y[5]);
  return 1e-6 * (1.0 + v + sqrt(M->g * M->s.b));
}

/* Entering flight while grazing (leaving a surface tangentially, or an
 * impact whose separation is below v_rest): the gap of every feature touched
 * grows only quadratically, and the integrator's interpolation error (far
 * above round-off) could make it cross zero spuriously, so its root reads
 * `bias` higher until the next event: touchdown there is then detected at a
 * penetration of at most 1e-6 b. Impact separations are masked by the engine. */
static void bias_grazing(ravine_model *M, const double *y) {
  const double b = M->s.b, res = M->gap_res;
  for (int k = 0; k < M->T.nseg; ++k) {
    double px, py; int part;
    double d = ravine_segment_distance(&M->T, k, y[0], y[1], &px, &py, &part);
    if (d - b > res || d - b < -res) continue;
    double nx = part ? (y[0] - px) / d : M->T.nx[k];
    double ny = part ? (y[1] - py) / d : M->T.ny[k];
    if (y[3] * nx + y[4] * ny >= M->p.v_rest) continue;
    M->bias[k] = res;
  }
}

/* Outward normal of feature k at the centre (x, y): the plane's, or from
 * the nearest end point (an edge); its gap d - b in *gap. */
static void feature_normal(const ravine_model *M, int k, const double *y, double *n,
                           double *gap, int *part) {
  double px, py;
  double d = ravine_segment_distance(&M->T, k, y[0], y[1], &px, &py, part);
  n[0] = *part ? (y[0] - px) / d : M->T.nx[k];
  n[1] = *part ? (y[1] - py) / d : M->T.ny[k];
  *gap = d - M->s.b;
}

/* A penetration of depth -gap (root located a hair late, grazing bias) is
 * removed by moving the centre out along n, and the potential energy this
 * costs is paid from the kinetic energy (velocities scaled), so no event
 * adds energy. The repair is reported to the engine, which fails the event
 * when it exceeds the model's tolerance: a contact missed and "put back"
 * later would otherwise be a silent wrong answer. */
static void repair_penetration(ravine_model *M, double *y, double gap, const double *n) {
  if (!(gap < 0.0)) return;
  mbdae_problem_report_repair(M->problem, -gap, "a penetration of the terrain (m)");
  double Eb0 = energy(M, y);
  y[0] -= gap * n[0];
  y[1] -= gap * n[1];
  double dE = energy(M, y) - Eb0;
  double K = Eb0 - M->s.m * M->g * (y[1] + gap * n[1]);
  if (dE > 0.0 && K > dE) {
    double f = sqrt(1.0 - dE / K);
    for (int i = 3; i < 9; ++i) y[i] *= f;
  }
}

/* Zeno rule: a rebound ends in contact when its separation speed is below
 * v_rest, or when its hop, v^2 / (2 a) with a the normal acceleration of a
 * free flight towards the surface (gravity, less the centripetal term over
 * an edge), would not rise above the gap roots' resolution: such a hop
 * cannot be followed (its gap is integration noise: a spurious crossing
 * left the sphere falling through the decline with v_rest = 1e-4) and
 * ending it changes the motion by less than the resolution. */
static int rebound_ends(const ravine_model *M, const double *n, double vsep, double vt, int edge) {
  if (vsep < M->p.v_rest) return 1;
  double a = M->g * n[1] - (edge ? vt * vt / M->s.b : 0.0);
  return a > 0.0 && vsep * vsep < 2.0 * a * M->gap_res;
}

/* Contact with feature (vertex or plane) at state y: snap to the surface,
 * cancel the normal speed, choose roll or slide. Returns 0, or 1 if the
 * normal force would be negative there (stay in flight). */
static int enter_contact(ravine_model *M, double *y, int vertex, int feature) {
  ravine_contact c = {RAVINE_ROLL, vertex, feature, {0, 0, 0}};
  double n[3], t[3], gap;
  ravine_contact_frame(&M->T, &c, M->s.b, y, n, t, &gap);
  double vn = y[3] * n[0] + y[4] * n[1];
  if (gap < 0.0)
    mbdae_problem_report_repair(M->problem, -gap, "a penetration of the terrain (m)");
  else
    mbdae_problem_report_repair(M->problem, gap, "a gap closed on entering contact (m)");
  y[0] -= gap * n[0]; y[1] -= gap * n[1];
  y[3] -= vn * n[0]; y[4] -= vn * n[1];
  double f[NY], N, F[3], sl[3];
  ravine_dynamics(&M->s, M->g, &M->T, &c, M->lambda, y, f, NULL, &N, F, sl);
  if (N <= 0.0) return 1;
  double sm = sqrt(sl[0] * sl[0] + sl[1] * sl[1] + sl[2] * sl[2]);
  double Fm = sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]);
  if (sm <= slip_scale(M, y) && Fm <= M->s.mu * N) {
    /* remove the round-off slip so the rolling constraint holds exactly */
    y[3] -= sl[0]; y[4] -= sl[1]; y[5] -= sl[2];
    M->c = c;
    return 0;
  }
  c.mode = RAVINE_SLIDE;
  if (sm > slip_scale(M, y)) {
    for (int i = 0; i < 3; ++i) c.sref[i] = sl[i] / sm;
  } else {
    /* impending slip, opposite to the friction rolling would need; the
     * round-off slip is removed so it cannot start in another direction */
    for (int i = 0; i < 3; ++i) c.sref[i] = -F[i] / Fm;
    y[3] -= sl[0]; y[4] -= sl[1]; y[5] -= sl[2];
  }
  M->c = c;
  return 0;
}

/* Kane impact on the closest feature touched with approach; returns 1 if one
 * was applied and fills the event data. */
static int apply_one_impact(ravine_model *M, double *y, mbdae_event_info *info) {
  const ravine_terrain *T = &M->T;
  const double b = M->s.b;
  double tol = 1e-6 * b;
  int best = -1, bvert = 0, bfeat = 0;
  double bgap = HUGE_VAL, bn[2] = {0, 0};
  for (int k = 0; k < T->nseg; ++k) {
    double px, py; int part;
    double d = ravine_segment_distance(T, k, y[0], y[1], &px, &py, &part);
    if (d - b > tol) continue;
    double nx = part ? (y[0] - px) / d : T->nx[k];
    double ny = part ? (y[1] - py) / d : T->ny[k];
    double vn = y[3] * nx + y[4] * ny;
    double vscale = 1e-12 * (1.0 + fabs(y[3]) + fabs(y[4]));
    if (vn >= -vscale) continue;
    if (d - b < bgap) {
      bgap = d - b; best = k; bn[0] = nx; bn[1] = ny;
      bvert = part != 0;
      bfeat = part == 0 ? k : (part < 0 ? k : k + 1);
    }
  }
  if (best < 0) return 0;
  /* the root was located at a small penetration (tolerance, grazing bias):
   * put the sphere back on the surface, so that the engine's mask of this
   * root starts from zero, and pay the potential energy this costs from the
   * kinetic energy, so the event can never add energy */
  repair_penetration(M, y, bgap, bn);
  /* contact frame: c1 = t = n x z, c2 = n, c3 = z (right-handed) */
  double n[3] = {bn[0], bn[1], 0.0}, t[3] = {bn[1], -bn[0], 0.0};
  double u1[6], u2[6], S[3];
  u1[0] = y[6] * t[0] + y[7] * t[1];
  u1[1] = y[6] * n[0] + y[7] * n[1];
  u1[2] = y[8];
  u1[3] = y[3] * t[0] + y[4] * t[1];
  u1[4] = y[3] * n[0] + y[4] * n[1];
  u1[5] = y[5];
  double Eb = energy(M, y);
  int stick = ravine_kane_impact(&M->s, u1, u2, S);
  if (stick < 0) return 0;
  for (int i = 0; i < 2; ++i) {
    y[6 + i] = u2[0] * t[i] + u2[1] * n[i];
    y[3 + i] = u2[3] * t[i] + u2[4] * n[i];
  }
  y[8] = u2[2];
  y[5] = u2[5];
  M->n_impacts++;
  if (stick) M->n_stick++; else M->n_slip++;
  info->label = stick ? "impact-stick" : "impact-slip";
  info->ndata = NEVDATA;
  double *d = info->data;
  d[0] = bvert ? -1.0 - bfeat : (double)bfeat;
  d[1] = n[0]; d[2] = n[1];
  d[3] = u1[4]; d[4] = u2[4];
  d[5] = S[0]; d[6] = S[1]; d[7] = S[2];
  d[8] = stick;
  d[9] = Eb; d[10] = energy(M, y);
  d[11] = (double)M->c.mode;
  /* Zeno rule: a slow separation ends the bouncing */
  M->c.mode = RAVINE_FLIGHT;
  if (rebound_ends(M, n, u2[4], u2[3], bvert)) {
    if (enter_contact(M, y, bvert, bfeat)) M->c.mode = RAVINE_FLIGHT;
  }
  return 1;
}

static int handler(double t, double *y, double *yp, const int *dirs,
                   mbdae_event_info *info, void *ud) {
  (void)yp;
  ravine_model *M = ud;
  const ravine_terrain *T = &M->T;
  const int *r = dirs + T->nseg;
  ravine_mode before = M->c.mode;
  int vbefore = M->c.vertex, fbefore = M->c.feature;
  info->label = "transition";
  info->ndata = 0;
  track_height(M, y);
  if (r[R_GOAL] > 0) {
    M->crossed = 1;
    M->t_cross = t;
    info->label = "crossed";
    return MBDAE_EVENT_STOP;
  }
  int any_gap = 0, graze = 0;
  for (int k = 0; k < T->nseg; ++k) if (dirs[k] < 0) any_gap = 1;
  if (any_gap) {
    int applied = 0;
    mbdae_event_info tmp;
    for (int it = 0; it < 16; ++it) {
      if (!apply_one_impact(M, y, it == 0 ? info : &tmp)) break;
      applied = 1;
    }
    if (!applied) {
      /* a gap root crossed without approach: integration noise on a hop
       * or a tangential departure. Continuing with the root below zero
       * would hide the next touchdown (the sphere fell through the
       * decline), so the sphere is put back on the surface (a reported
       * repair) and the root biased above zero until the next event. */
      info->label = "graze";
      graze = 1;
      for (int k = 0; k < T->nseg; ++k) {
        if (dirs[k] >= 0) continue;
        double n[2], gap; int part;
        feature_normal(M, k, y, n, &gap, &part);
        repair_penetration(M, y, gap, n);
      }
    }
  } else if (M->c.mode != RAVINE_FLIGHT && r[R_NORMAL] < 0) {
    M->c.mode = RAVINE_FLIGHT;
    info->label = "leave";
  } else if (M->c.mode != RAVINE_FLIGHT && (r[R_FWD] < 0 || r[R_BACK] < 0)) {
    int fwd = r[R_FWD] < 0;
    int k = M->c.feature;
    if (!M->c.vertex) {
      int v = fwd ? k + 1 : k;
      if (!T->convex[v]) { info->label = "corner-concave"; return MBDAE_EVENT_NOCHANGE; }
      info->label = "corner";
      if (enter_contact(M, y, 1, v)) { M->c.mode = RAVINE_FLIGHT; info->label = "leave-corner"; }
    } else {
      int seg = fwd ? k : k - 1;
      info->label = "corner-exit";
      if (enter_contact(M, y, 0, seg)) M->c.mode = RAVINE_FLIGHT;
    }
  } else if (M->c.mode == RAVINE_ROLL && r[R_SLIP] < 0) {
    /* friction demand leaves the cone mu N: slipping starts */
    double f[NY], N, F[3], sl[3];
    ravine_dynamics(&M->s, M->g, T, &M->c, M->lambda, y, f, NULL, &N, F, sl);
    double Fm = sqrt(F[0] * F[0] + F[1] * F[1] + F[2] * F[2]);
    M->c.mode = RAVINE_SLIDE;
    for (int i = 0; i < 3; ++i) M->c.sref[i] = Fm > 0.0 ? -F[i] / Fm : 0.0;
    info->label = "slip-onset";
  } else if (M->c.mode == RAVINE_SLIDE && r[R_SLIP] < 0) {
    info->label = "roll-onset";
    if (enter_contact(M, y, M->c.vertex, M->c.feature)) M->c.mode = RAVINE_FLIGHT;
  } else if (r[R_REBOUND] < 0) {
    /* handled below */
  } else if (r[R_APEX] != 0 || r[R_SLIP] != 0 || r[R_GOAL] != 0) {
    info->label = r[R_APEX] ? "apex" : "root";
    if (!(M->p.stop_on_rebound && y[0] > T->x_climb - M->s.b && y[3] < 0.0))
      return MBDAE_EVENT_NOCHANGE;
  } else {
    info->label = "root";
    return MBDAE_EVENT_NOCHANGE;
  }
  if (M->c.mode != before || M->c.vertex != vbefore || M->c.feature != fbefore)
    M->n_modes++;
  /* crossing may coincide with another event (leaving the rim's edge onto
   * the top ground happens exactly above the rim): check the state itself */
  if (y[0] >= T->x_goal) {
    M->crossed = 1;
    M->t_cross = t;
    if (info->ndata == 0) info->label = "crossed";
    return MBDAE_EVENT_STOP;
  }
  /* biases change only where the integrator is re-initialised */
  for (int k = 0; k < T->nseg; ++k) M->bias[k] = 0.0;
  if (M->c.mode == RAVINE_FLIGHT) bias_grazing(M, y);
  for (int k = 0; graze && k < T->nseg; ++k)
    if (dirs[k] < 0) M->bias[k] = M->gap_res;
  track_height(M, y);
  if (M->p.stop_on_rebound && y[0] > T->x_climb - M->s.b && y[3] < 0.0) {
    M->rebound = 1;
    if (info->ndata == 0) info->label = "rebound";
    return MBDAE_EVENT_STOP;
  }
  return MBDAE_EVENT_CONTINUE;
}

/* ---- parameters --------------------------------------------------------- */

#define RP(key_, field_, flags_, def_, min_, max_, unit_, doc_)                 \
  {key_, MBDAE_PARAM_DOUBLE, offsetof(ravine_params, field_), flags_, def_,     \
   min_, max_, 0, NULL, 0, unit_, doc_}

static const char *const terrain_choices[] = {"valley", "polyline", NULL};
static const char *const start_choices[] = {"rolling", "free", NULL};

static const mbdae_param_spec ravine_specs[] = {
  RP("b", b, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0, HUGE_VAL, "m", "sphere radius"),
  RP("m", m, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0, HUGE_VAL, "kg", "sphere mass"),
  RP("J_ratio", J_ratio, 0, 0.0, 0.0, 1.0, "-",
     "J/(m b^2) (0.4 solid, 2/3 shell); give this or J_over_m"),
  RP("J_over_m", J_over_m, 0, 0.0, 0.0, HUGE_VAL, "m^2", "J/m; give this or J_ratio"),
  RP("e", e, 0, 0.8, 0.0, 1.0, "-", "coefficient of restitution (hartl eq. 2.8)"),
  RP("mu", mu, 0, 1.0, 0.0, HUGE_VAL, "-", "static friction coefficient"),
  RP("mu_k", mu_k, 0, 0.8, 0.0, HUGE_VAL, "-", "kinetic friction coefficient mu' (<= mu)"),
  RP("g", g, MBDAE_PARAM_MIN_OPEN, 3.71, 0.0, HUGE_VAL, "m/s^2", "gravity (Mars 3.71, Earth 9.81)"),
  {"terrain", MBDAE_PARAM_ENUM, offsetof(ravine_params, terrain), 0, 0.0, 0.0, 1.0, 0,
   terrain_choices, 0, "-", "valley (beta, theta, dh, pl) or polyline (terrain_points)"},
  RP("beta_deg", beta_deg, 0, 30.0, -HUGE_VAL, HUGE_VAL, "deg", "decline angle"),
  RP("theta_deg", theta_deg, 0, 30.0, -HUGE_VAL, HUGE_VAL, "deg", "incline angle"),
  RP("dh", dh, 0, -10.0, -HUGE_VAL, HUGE_VAL, "m", "floor height relative to the top ground (< 0)"),
  RP("pl", pl, 0, 30.0, -HUGE_VAL, HUGE_VAL, "m", "floor length"),
  RP("x_edge", x_edge, 0, 0.0, -HUGE_VAL, HUGE_VAL, "m", "x of the valley's near rim"),
  {"terrain_points", MBDAE_PARAM_TABLE, offsetof(ravine_params, points), 0, 0.0,
   -HUGE_VAL, HUGE_VAL, 2, NULL, offsetof(ravine_params, npoints), "m",
   "polyline vertices [x, y], x increasing; end segments extend as rays"},
  {"start", MBDAE_PARAM_ENUM, offsetof(ravine_params, start), 0, 0.0, 0.0, 1.0, 0,
   start_choices, 0, "-", "rolling (at x0 with speed) or free (q, u)"},
  RP("x0", x0, 0, 0.0, -HUGE_VAL, HUGE_VAL, "m", "rolling start: contact point x"),
  RP("speed", speed, 0, 5.0, -HUGE_VAL, HUGE_VAL, "m/s", "rolling start: speed along the ground"),
  {"q", MBDAE_PARAM_VEC, offsetof(ravine_params, q), 0, 0.0, -HUGE_VAL, HUGE_VAL, 3,
   NULL, 0, "m", "free start: centre q1, q2, q3 (n frame)"},
  {"u", MBDAE_PARAM_VEC, offsetof(ravine_params, u), 0, 0.0, -HUGE_VAL, HUGE_VAL, 6,
   NULL, 0, "-", "free start: u1..u3 = omega [rad/s] (counter-clockwise +), u4..u6 = v [m/s]"},
  {"stop_on_rebound", MBDAE_PARAM_BOOL, offsetof(ravine_params, stop_on_rebound), 0,
   1.0, 0.0, 1.0, 0, NULL, 0, "-", "stop when moving back (v_x < 0) beyond the lowest point (hartl 4.1)"},
  RP("v_rest", v_rest, 0, 1e-2, 0.0, HUGE_VAL, "m/s",
     "Zeno rule: contact persists when the separation speed is below this (or its hop below 1e-6 b)"),
};
enum { RAVINE_NPARAMS = (int)(sizeof ravine_specs / sizeof ravine_specs[0]) };

static int perr(mbdae_param_error *err, const char *key, const char *msg) {
  if (err) { err->key = key; snprintf(err->msg, sizeof err->msg, "%s", msg); }
  return MBDAE_ERR_PARAMETER;
}

static double inertia(const ravine_params *p) {
  return p->J_over_m > 0.0 ? p->m * p->J_over_m : p->J_ratio * p->m * p->b * p->b;
}

/* Initial state (also the inside-the-ground check). */
static int initial(const ravine_params *p, const ravine_terrain *T, double *y,
                   mbdae_param_error *err) {
  memset(y, 0, NY * sizeof(double));
  if (p->start == 0) {
    int k;
    double h = ravine_terrain_height(T, p->x0, &k);
    y[0] = p->x0 + p->b * T->nx[k];
    y[1] = h + p->b * T->ny[k];
    y[3] = p->speed * T->tx[k];
    y[4] = p->speed * T->ty[k];
    y[8] = -p->speed / p->b; /* rolling without slip: u3 = -u4/b (hartl 4.1) */
  } else {
    for (int i = 0; i < 3; ++i) y[i] = p->q[i];
    for (int i = 0; i < 3; ++i) { y[6 + i] = p->u[i]; y[3 + i] = p->u[3 + i]; }
  }
  for (int k = 0; k < T->nseg; ++k) {
    double px, py;
    double d = ravine_segment_distance(T, k, y[0], y[1], &px, &py, NULL);
    /* below the terrain line, or overlapping it */
    double side = (y[0] - T->vx[k]) * T->nx[k] + (y[1] - T->vy[k]) * T->ny[k];
    int below = side < 0.0 && y[0] >= T->vx[k] && y[0] <= T->vx[k + 1];
    if (below || d < p->b * (1.0 - 1e-9))
      return perr(err, p->start == 0 ? "x0" : "q",
                  "the sphere starts inside the ground");
  }
  return MBDAE_OK;
}

static int check(const void *params, mbdae_param_error *err) {
  const ravine_params *p = params;
  if (!(p->e >= 0.0 && p->e <= 1.0)) return perr(err, "e", "e must be in [0, 1]");
  if (!(p->mu >= 0.0)) return perr(err, "mu", "mu must be >= 0");
  if (!(p->mu_k >= 0.0)) return perr(err, "mu_k", "mu_k must be >= 0");
  if (p->mu_k > p->mu)
    return perr(err, "mu_k", "kinetic friction mu_k must not exceed static friction mu");
  if (p->J_over_m > 0.0 && p->J_ratio > 0.0)
    return perr(err, "J_over_m", "give J_over_m or J_ratio, not both");
  if (!(p->J_over_m > 0.0) && !(p->J_ratio > 0.0))
    return perr(err, "J_ratio", "the moment of inertia is missing (J_ratio or J_over_m > 0)");
  if (!(p->v_rest >= 0.0)) return perr(err, "v_rest", "v_rest must be >= 0");
  ravine_terrain T;
  int rc = ravine_terrain_build(p, &T, err);
  if (rc) return rc;
  double y[NY];
  rc = initial(p, &T, y, err);
  ravine_terrain_free(&T);
  return rc;
}

static void model_free(ravine_model *M) {
  if (!M) return;
  mbdae_problem_free(&M->problem);
  ravine_terrain_free(&M->T);
  free(M->bias);
  free(M);
}

static int create(const void *params, mbdae_options *o, mbdae_model **model,
                  mbdae_param_error *err) {
  if (!params || !o || !model) return MBDAE_ERR_ARGUMENT;
  int rc = check(params, err);
  if (rc) return rc;
  ravine_model *M = calloc(1, sizeof *M);
  if (!M) return MBDAE_ERR_MEMORY;
  M->p = *(const ravine_params *)params;
  M->p.points = NULL; /* owned by the driver; the terrain copies the vertices */
  rc = ravine_terrain_build((const ravine_params *)params, &M->T, err);
  if (rc) { free(M); return rc; }
  M->s.b = M->p.b; M->s.m = M->p.m; M->s.J = inertia(&M->p);
  M->s.e = M->p.e; M->s.mu = M->p.mu; M->s.mu_k = M->p.mu_k;
  M->g = M->p.g;
  M->lambda = 5.0 * sqrt(M->g / M->p.b);
  M->nroots = M->T.nseg + R_COUNT;
  M->gap_res = RAVINE_GAP_RESOLUTION * M->p.b;
  M->bias = calloc((size_t)M->T.nseg, sizeof(double));
  if (!M->bias) { model_free(M); return MBDAE_ERR_MEMORY; }
  /* a just-handled root stays masked until the state is clearly past it:
   * well above the integrator's interpolation error at these tolerances */
  if (o->root_band < 1e-9) o->root_band = 1e-9;
  /* an ODE: IDA is not offered, the default becomes CVODE Adams */
  if (o->method == MBDAE_METHOD_IDA) o->method = MBDAE_METHOD_CVODE_ADAMS;
  o->linsol = MBDAE_LINSOL_DENSE;
  M->problem = mbdae_problem_create(NY, MBDAE_FORM_ODE);
  static const char *const inv_names[] = {"energy"};
  static const char *const inv_units[] = {"J"};
  if (!M->problem || mbdae_problem_set_user_data(M->problem, M) ||
      mbdae_problem_set_rhs(M->problem, rhs) ||
      mbdae_problem_set_jacobian_dense(M->problem, jac) ||
      mbdae_problem_set_roots(M->problem, M->nroots, roots) ||
      mbdae_problem_set_event_handler(M->problem, handler) ||
      mbdae_problem_set_invariants(M->problem, 1, inv_names, invariants) ||
      mbdae_problem_set_invariant_units(M->problem, inv_units) ||
      mbdae_problem_set_mode_name(M->problem, mode_name) ||
      /* penetrations at located roots: the bias and band, ~1e-6 b */
      mbdae_problem_set_repair_tolerance(M->problem, RAVINE_REPAIR_TOL * M->p.b)) {
    model_free(M);
    return MBDAE_ERR_MEMORY;
  }
  *model = (mbdae_model *)M;
  return MBDAE_OK;
}

static void destroy(mbdae_model **model) {
  if (!model) return;
  model_free((ravine_model *)*model);
  *model = NULL;
}

static mbdae_problem *problem(mbdae_model *model) {
  return model ? ((ravine_model *)model)->problem : NULL;
}

static int initial_state(mbdae_model *model, double t0, double *y, double *yp) {
  (void)t0; (void)yp;
  ravine_model *M = (ravine_model *)model;
  int rc = initial(&M->p, &M->T, y, NULL);
  if (rc) return rc;
  M->crossed = M->rebound = 0;
  M->t_cross = -1.0;
  M->h_seen = 0;
  M->h_max = 0.0;
  M->n_impacts = M->n_stick = M->n_slip = M->n_modes = 0;
  M->E0 = energy(M, y);
  M->c.mode = RAVINE_FLIGHT;
  M->c.vertex = 0;
  M->c.feature = 0;
  for (int k = 0; k < M->T.nseg; ++k) M->bias[k] = 0.0;
  /* touching a plane with no approach: start in contact */
  for (int k = 0; k < M->T.nseg; ++k) {
    double px, py; int part;
    double d = ravine_segment_distance(&M->T, k, y[0], y[1], &px, &py, &part);
    if (d - M->s.b > 1e-9 * M->s.b) continue;
    double nx = part ? (y[0] - px) / d : M->T.nx[k];
    double ny = part ? (y[1] - py) / d : M->T.ny[k];
    double vn = y[3] * nx + y[4] * ny;
    if (fabs(vn) > 1e-12 * (1.0 + fabs(y[3]) + fabs(y[4]))) continue;
    int vert = part != 0, feat = part == 0 ? k : (part < 0 ? k : k + 1);
    if (vert && !M->T.convex[feat]) continue;
    if (enter_contact(M, y, vert, feat)) M->c.mode = RAVINE_FLIGHT;
    break;
  }
  /* starting with the contact point on a convex edge: pivot or fly off */
  if (M->c.mode != RAVINE_FLIGHT && !M->c.vertex) {
    int k = M->c.feature;
    double s = (y[0] - M->T.vx[k]) * M->T.tx[k] + (y[1] - M->T.vy[k]) * M->T.ty[k];
    double v = y[3] * M->T.tx[k] + y[4] * M->T.ty[k];
    int vtx = -1;
    if (k + 1 < M->T.nseg && fabs(M->T.len[k] - s) <= 1e-9 * M->s.b && v > 0.0) vtx = k + 1;
    if (k > 0 && fabs(s) <= 1e-9 * M->s.b && v < 0.0) vtx = k;
    if (vtx >= 0 && M->T.convex[vtx] && enter_contact(M, y, 1, vtx))
      M->c.mode = RAVINE_FLIGHT;
  }
  if (M->c.mode == RAVINE_FLIGHT) bias_grazing(M, y);
  track_height(M, y);
  return MBDAE_OK;
}

static const mbdae_column ravine_cols[] = {
  {"x", "m"}, {"y", "m"}, {"z", "m"}, {"vx", "m/s"}, {"vy", "m/s"}, {"vz", "m/s"},
  {"wx", "rad/s"}, {"wy", "rad/s"}, {"wz", "rad/s"}, {"energy", "J"},
  {"height", "m"}, {"normal_force", "N"}, {"slip", "m/s"}, {"mode", "-"},
};
enum { NCOLS = (int)(sizeof ravine_cols / sizeof ravine_cols[0]) };

static int copy_cols(const mbdae_column *src, int n, mbdae_column *cols, int max) {
  if (!cols) return n;
  int k = n < max ? n : max;
  for (int i = 0; i < k; ++i) cols[i] = src[i];
  return k;
}

static int columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return copy_cols(ravine_cols, NCOLS, cols, max);
}

static int output_row(mbdae_model *model, double t, const double *y,
                      const double *yp, double *row) {
  (void)t; (void)yp;
  ravine_model *M = (ravine_model *)model;
  for (int i = 0; i < NY; ++i) row[i] = y[i];
  row[9] = energy(M, y);
  row[10] = y[1] - M->s.b - M->T.y_top;
  double f[NY], N = 0.0, F[3], sl[3] = {0, 0, 0};
  ravine_dynamics(&M->s, M->g, &M->T, &M->c, M->lambda, y, f, NULL, &N, F, sl);
  row[11] = N;
  row[12] = sqrt(sl[0] * sl[0] + sl[1] * sl[1] + sl[2] * sl[2]);
  row[13] = (double)M->c.mode + (M->c.vertex ? 10.0 : 0.0);
  return 0;
}

static const mbdae_column ravine_evcols[NEVDATA] = {
  {"feature", "-"}, {"nx", "-"}, {"ny", "-"}, {"vn_before", "m/s"},
  {"vn_after", "m/s"}, {"S1", "N s"}, {"S2", "N s"}, {"S3", "N s"},
  {"stick", "-"}, {"E_before", "J"}, {"E_after", "J"}, {"mode_code", "-"},
};

static int event_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  return copy_cols(ravine_evcols, NEVDATA, cols, max);
}

static int outcomes(mbdae_model *model, const double *y, const double *yp,
                    mbdae_outcome *out, int max) {
  (void)yp;
  ravine_model *M = (ravine_model *)model;
  track_height(M, y);
  double h = M->h_seen ? M->h_max : y[1] - M->s.b - M->T.y_top;
  mbdae_outcome tmp[12];
  int n = 0;
  mbdae_outcome_set(&tmp[n++], "crossed", "-", (double)M->crossed);
  mbdae_outcome_set(&tmp[n++], "max_height", "m", h);
  mbdae_outcome_set(&tmp[n++], "t_cross", "s", M->crossed ? M->t_cross : -1.0);
  mbdae_outcome_set(&tmp[n++], "rebound", "-", (double)M->rebound);
  mbdae_outcome_set(&tmp[n++], "impacts", "-", (double)M->n_impacts);
  mbdae_outcome_set(&tmp[n++], "impacts_stick", "-", (double)M->n_stick);
  mbdae_outcome_set(&tmp[n++], "impacts_slip", "-", (double)M->n_slip);
  mbdae_outcome_set(&tmp[n++], "mode_changes", "-", (double)M->n_modes);
  mbdae_outcome_set(&tmp[n++], "final_mode", "-", (double)M->c.mode + (M->c.vertex ? 10.0 : 0.0));
  mbdae_outcome_set(&tmp[n++], "x_final", "m", y[0]);
  mbdae_outcome_set(&tmp[n++], "energy_lost", "J", M->E0 - energy(M, y));
  if (!out) return n;
  int k = n < max ? n : max;
  for (int i = 0; i < k; ++i) out[i] = tmp[i];
  return k;
}

static const mbdae_plot_spec ravine_plots[] = {
  {"trajectory", "Sphere centre across the terrain", "samples", "x", "y", "x [m]", "y [m]", 0},
  {"height", "Height of the sphere's lowest point", "samples", "t", "height", "t [s]", "h [m]", 0},
  {"energy", "Mechanical energy", "samples", "t", "energy", "t [s]", "E [J]", 0},
  {"spin", "Spin omega_z (counter-clockwise +)", "samples", "t", "wz", "t [s]", "omega_z [rad/s]", 0},
  {"impacts", "Impact normal speeds", "events", "t", "vn_before,vn_after", "t [s]", "v_n [m/s]", 1},
};

/* Checkpoints (doc/checkpoint.md): the contact (mode, feature, reference slip direction), the grazing biases of the gap roots and the outcomes. */
static void kind_state_fields(mbdae_model *model, mbdae_state_cursor *c) {
  ravine_model *m = (ravine_model *)model;
  mbdae_state_io(c, &m->c, sizeof m->c);
  mbdae_state_io(c, m->bias, (size_t)m->T.nseg * sizeof *m->bias);
  mbdae_state_io(c, &m->crossed, sizeof m->crossed);
  mbdae_state_io(c, &m->rebound, sizeof m->rebound);
  mbdae_state_io(c, &m->t_cross, sizeof m->t_cross);
  mbdae_state_io(c, &m->h_max, sizeof m->h_max);
  mbdae_state_io(c, &m->E0, sizeof m->E0);
  mbdae_state_io(c, &m->h_seen, sizeof m->h_seen);
  mbdae_state_io(c, &m->n_impacts, sizeof m->n_impacts);
  mbdae_state_io(c, &m->n_stick, sizeof m->n_stick);
  mbdae_state_io(c, &m->n_slip, sizeof m->n_slip);
  mbdae_state_io(c, &m->n_modes, sizeof m->n_modes);
}

static int state_valid(const ravine_model *m) {
  const ravine_contact *c = &m->c;
  if ((int)c->mode < (int)RAVINE_FLIGHT || (int)c->mode > (int)RAVINE_SLIDE || (c->vertex != 0 && c->vertex != 1))
    return 0;
  /* a plane is a segment, an edge an inner vertex (segments feature-1, feature) */
  if (c->vertex ? (c->feature < 1 || c->feature >= m->T.nseg)
                : (c->feature < 0 || c->feature >= m->T.nseg))
    return 0;
  double v[6] = {c->sref[0], c->sref[1], c->sref[2], m->t_cross, m->h_max, m->E0};
  for (int k = 0; k < m->T.nseg; ++k)
    if (!(m->bias[k] >= 0.0 && m->bias[k] < m->s.b)) return 0;
  return mbdae_state_finite(v, 6) && (m->crossed == 0 || m->crossed == 1) &&
         (m->rebound == 0 || m->rebound == 1) && (m->h_seen == 0 || m->h_seen == 1) &&
         m->n_impacts >= 0 && m->n_stick >= 0 && m->n_slip >= 0 && m->n_modes >= 0;
}

/* A checkpoint is trusted only past its checksum: after a load, every mode,
 * index and value is checked (doc/checkpoint.md, "Validation"). */
static int kind_state_check(const mbdae_model *model) {
  return state_valid((const ravine_model *)model) ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

const mbdae_model_kind mbdae_model_ravine = {
  .name = "ravine",
  .summary = "sphere bouncing, sliding and rolling across a valley: Kane impacts with friction (hartl 2006)",
  .params_size = sizeof(ravine_params),
  .params = ravine_specs,
  .nparams = RAVINE_NPARAMS,
  .check = check,
  .create = create,
  .destroy = destroy,
  .problem = problem,
  .initial_state = initial_state,
  .columns = columns,
  .output_row = output_row,
  .event_columns = event_columns,
  .outcomes = outcomes,
  .plots = ravine_plots,
  .nplots = (int)(sizeof ravine_plots / sizeof ravine_plots[0]),
  .state_fields = kind_state_fields,
  .state_check = kind_state_check,
};

/* The instance's terrain and sphere, for its geometry provider
 * (ravine_geometry.c); the instance itself is private to this file. */
const ravine_terrain *ravine_model_terrain(const mbdae_model *model) {
  return model ? &((const ravine_model *)model)->T : NULL;
}

const ravine_sphere *ravine_model_sphere(const mbdae_model *model) {
  return model ? &((const ravine_model *)model)->s : NULL;
}
