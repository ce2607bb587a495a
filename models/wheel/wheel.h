/* wheel/wheel.h - a planar rigid wheel at a curb with unilateral contacts,
 * Coulomb friction and plastic / Poisson collisions (Grzesikiewicz and
 * Zbiciak 2020, doc/wheel.md). Internal to models/, validation/ and tests/.
 *
 * Coordinates X = (x, y, phi): the wheel centre S and the rotation angle
 * (counter-clockwise positive). The boundary of Omega (eqs. 3-5) is produced
 * by three obstacles, each one contact of the wheel:
 *   WALL   x = 0, the centre on x = r                 (segment I)
 *   CURB   the block 0 <= x <= l1, y <= h, l1 = l - r (eq. 4b):
 *          its top face (segment II) and its corner C = (l1, h), around which
 *          the centre moves on a circle of radius r   (segment III, eq. 4c)
 *   GROUND y = 0 for x > l1, the centre on y = r      (segment IV)
 * Singular points (eq. 27): A = WALL + CURB(II), B = CURB(III) + GROUND.
 *
 * Every contact has a unit normal n (from the obstacle to the centre) and the
 * unit tangent t = (n_y, -n_x); generalised directions G = (n, 0) and
 * H = (t, r) (eq. 26 with the unit tangent, see doc/wheel.md). */
#ifndef MBDAE_MODELS_WHEEL_H
#define MBDAE_MODELS_WHEEL_H

/* largest projection (in units of r) an event may make (doc/wheel.md) */
#define WHEEL_REPAIR_TOL 1e-4
/* smallest hop (in units of r) a rebound may make before the Zeno rule
 * holds the contact: above the 3e-8 r the root guards move (doc/wheel.md) */
#define WHEEL_GAP_RESOLUTION 1e-7

#include "mbdae/model.h"

typedef struct wheel_params {
  double m, J, r;       /* mass kg, inertia kg m^2, radius m */
  double h, l;          /* curb height m (0 < h < r), eq. (4) length l m (l > 2r) */
  double g;             /* gravity m/s^2 */
  double mu;            /* Coulomb friction coefficient (>= 0) */
  double beta;          /* Poisson restitution coefficient in [0, 1] (eq. 35b) */
  double x0[3];         /* initial X (x, y, phi) */
  double v0[3];         /* initial dX/dt */
  double zeno_velocity; /* post-collision normal speed below which the contact persists */
} wheel_params;

enum { WHEEL_WALL = 0, WHEEL_CURB = 1, WHEEL_GROUND = 2, WHEEL_NC = 3 };
enum { WHEEL_SEG_I = 1, WHEEL_SEG_II = 2, WHEEL_SEG_III = 3, WHEEL_SEG_IV = 4 };
/* Contact states: separated, sticking (v_t = 0), slipping with v_t > 0 / < 0. */
enum { WHEEL_SEP = 0, WHEEL_STICK = 1, WHEEL_SLIP_POS = 2, WHEEL_SLIP_NEG = 3 };
#define WHEEL_ALLOW(s) (1 << (s))
#define WHEEL_ALLOW_ALL 15
/* flag in an allowed mask: the contact is sliding (v_t != 0), so the slip
 * direction is sign v_t and no condition on the tangential acceleration */
#define WHEEL_SLIDING 16

/* State y = [x, y, phi, xd, yd, phid] (ODE form, CVODE or RK4). */
enum { WHEEL_X = 0, WHEEL_Y = 1, WHEEL_PHI = 2, WHEEL_VX = 3, WHEEL_VY = 4,
       WHEEL_W = 5, WHEEL_N = 6 };

/* Roots: per contact k: 4k+0 gap (separated), 4k+1 normal force (in contact),
 * 4k+2 mu N - T (stick) or sigma v_t (slip), 4k+3 mu N + T (stick); 12: the
 * II/III boundary x - l1 while the curb is in contact. Inactive: 1. */
enum { WHEEL_ROOT_SEGMENT = 12, WHEEL_NROOTS = 13 };

/* Event data (per event, WHEEL_NEVDATA values). */
enum { WHEEL_EV_KIND = 0, WHEEL_EV_SEG1, WHEEL_EV_SEG2, WHEEL_EV_STATE1,
       WHEEL_EV_STATE2, WHEEL_EV_PN1, WHEEL_EV_PN2, WHEEL_EV_PT1, WHEEL_EV_PT2,
       WHEEL_EV_RN1, WHEEL_EV_RN2, WHEEL_EV_RT1, WHEEL_EV_RT2, WHEEL_EV_CASES,
       WHEEL_EV_NSOL, WHEEL_EV_DENERGY, WHEEL_NEVDATA };
enum { WHEEL_EVK_TRANSITION = 0, WHEEL_EVK_COLLISION = 1 };

/* Geometry of one contact at position (x, y). */
typedef struct wheel_frame {
  int seg;        /* WHEEL_SEG_* */
  double gap;     /* distance from the obstacle minus r (>= 0 in Omega) */
  double n[2], t[2];
  double kappa;   /* curvature of the centre's path: 1/|S - C| on III, else 0 */
} wheel_frame;

typedef struct wheel_mode {
  int state[WHEEL_NC]; /* WHEEL_SEP/STICK/SLIP_* per contact */
  int curb_seg;        /* WHEEL_SEG_II or WHEEL_SEG_III while the curb is in contact */
  int locked;          /* two sticking contacts at a corner, at rest: the
                          forces are statically indeterminate, Xdd = 0 */
  double z_locked[2 * WHEEL_NC];
} wheel_mode;

/* Result of one contact problem (acceleration or impulse level). */
typedef struct wheel_lcp_result {
  double z[2 * WHEEL_NC]; /* [N_wall, N_curb, N_ground, T_wall, T_curb, T_ground] */
  int state[WHEEL_NC];
  int cases;              /* linear systems examined */
  int nsol;               /* consistent cases found (1: unique) */
} wheel_lcp_result;

typedef struct wheel_collision {
  int ncontacts;
  int contact[2];              /* contact ids involved (touching) */
  int seg[2];
  wheel_lcp_result plastic;    /* eqs. 31-33 */
  wheel_lcp_result restitution;/* eqs. 35 (friction impulses, N* = beta N) */
  double v_minus[3], v_plus[3], v_star[3];
  double energy_before, energy_after;
} wheel_collision;

typedef struct wheel_model {
  wheel_params p;
  double l1, a;               /* eq. (4b) */
  mbdae_problem *problem;
  wheel_mode mode;
  char mode_name[64];
  /* run record, reset by wheel_initial_state */
  long collisions, transitions, max_cases;
  double max_energy_gain;     /* largest energy increase at a collision, J */
  double max_post_vn;         /* largest |v_n| after a plastic collision (beta = 0) */
} wheel_model;

/* Parameters. */
void wheel_params_default(wheel_params *p);
int wheel_params_check(const wheel_params *p, mbdae_param_error *err);

/* Geometry (wheel_geometry.c). */
void wheel_geometry(const wheel_params *p, double *l1, double *a);
/* Frame of contact k; seg_hint: the curb's segment near x = l1 (0: by x). */
void wheel_frame_eval(const wheel_params *p, int k, double x, double y,
                      int seg_hint, wheel_frame *f);
/* Smallest gap over the three contacts (< 0: outside Omega). */
double wheel_min_gap(const wheel_params *p, double x, double y);
const char *wheel_segment_name(int seg);

/* Delassus operator W = D^T M^-1 D for D = [G_1..G_3, H_1..H_3] (6x6,
 * row-major), of the frames f[0..2]. */
void wheel_delassus(const wheel_params *p, const wheel_frame *f, double *W);

/* Contact problems (wheel_lcp.c). Unknowns z = [N; T], w = W z + b with
 * w = [normal; tangential] accelerations or post-impact velocities.
 * allowed[k]: bit mask of the admissible states of contact k (0: contact
 * not involved, z = 0 and no inequality). Enumerates
 * every combination, picks the first consistent one in the order SEP,
 * SLIP_POS, SLIP_NEG, STICK per contact. Returns 0, or 1 if none is consistent. */
int wheel_lcp_solve(const double *W, const double *b, double mu,
                    const int *allowed, double ztol, double wtol,
                    wheel_lcp_result *res);
/* The restitution phase: N fixed (Nfix), friction T* unknown with
 * Coulomb's law at the final velocity w = W z + b (eq. 35c). */
int wheel_friction_solve(const double *W, const double *b, double mu,
                         const double *Nfix, double ztol, double wtol,
                         wheel_lcp_result *res);

/* Accelerations in a given mode (wheel_dynamics.c): acc = (xdd, ydd, phidd),
 * z the contact forces; dacc (may be NULL): 3x4 derivatives of acc with
 * respect to (x, y, xd, yd), row-major. Returns 0 or 1 (singular mode). */
int wheel_mode_accel(const wheel_params *p, const wheel_mode *mode,
                     const double *y, double *acc, double *z, double *dacc);

/* Collision map at a state (wheel_collision.c): solves eqs. 31-35 for the
 * touching contacts; v (3) is replaced by the post-collision velocity. */
int wheel_collide(const wheel_params *p, const double *q, double *v,
                  const int *touching, const int *seg, wheel_collision *c);

/* Choose the contact mode at a state after an event: collisions first, then
 * the acceleration-level problem. y may be projected onto the active
 * constraints. info may be NULL. Returns 0, or < 0 on failure. */
int wheel_resolve(wheel_model *w, double *y, mbdae_event_info *info);

double wheel_energy(const wheel_params *p, const double *y);

/* Model instance. */
int wheel_create(const wheel_params *p, mbdae_linsol linsol, wheel_model **out);
void wheel_free(wheel_model **w);
int wheel_initial_state(wheel_model *w, double t0, double *y);

/* Model callbacks (user_data is the wheel_model). */
int wheel_rhs(double t, const double *y, double *f, void *user_data);
int wheel_jac_dense(double t, double cj, const double *y, const double *yp,
                    double *J, void *user_data);
int wheel_jac_sparse(double t, double cj, const double *y, const double *yp,
                     double *vals, void *user_data);
int wheel_roots(double t, const double *y, const double *yp, double *g,
                void *user_data);
int wheel_event(double t, double *y, double *yp, const int *dirs,
                mbdae_event_info *info, void *user_data);
int wheel_invariants(double t, const double *y, const double *yp, double *out,
                     void *user_data);

extern const mbdae_model_kind mbdae_model_wheel;

#endif
