/* strings/string_net.h - point masses joined by massless strings that only
 * pull (capps 2021, ch. 2, eqs. 2.1-2.21; sec. 3.3, eqs. 3.1-3.2; App. I).
 *
 * This is the reusable network core. The string_net model kind is built on
 * it, and so can other models (e.g. a net capturing a body) that append their
 * own coordinates and constraints after the core's.
 *
 * ------------------------------------------------------------------------
 * Conventions
 *   Points k = 0..np-1, mass m_k, position r_k, velocity v_k (3-vectors).
 *   String s joins points i (tail) and j (head), length L:
 *     S = r_j - r_i,  W = v_j - v_i,
 *     phi = S.S - L^2                          (capps eq. 2.7/2.11)
 *     phi' = 2 S.W                             (eq. 2.13)
 *     grad phi = [-2S at r_i, +2S at r_j]      (column of Phi_R, eq. 2.16)
 *   phi < 0 slack, phi = 0 taut (eq. 2.8).
 *   Constraint forces as in eq. 2.6: M V' = F + sum_s lambda_s grad phi_s,
 *   so a PULLING string has lambda_s < 0; tension T_s = -2 lambda_s |S_s| (N).
 *
 * Acceleration-level constraint of an ACTIVE string (eq. 2.15 with the
 * Baumgarte term of eqs. 3.1-3.2, phi'' = nu = -2 xi w phi' - w^2 phi),
 * divided by 2:
 *     c_s = S.(a_j - a_i) + W.W + 2 xi w S.W + (w^2/2) phi = 0.
 * With a = M^-1 (F + G lambda) this is A lambda = b (eq. 2.21 / 3.1) with
 *     A_st = (1/2) grad phi_s^T M^-1 grad phi_t     (SPD, sparse: strings
 *            sharing a point),
 *     b_s  = -S.(F_j/m_j - F_i/m_i) - W.W - 2 xi w S.W - (w^2/2) phi.
 * An inactive string has lambda_s = 0 (the row of A is replaced by 1).
 *
 * Two ways to hold a string (sn_hold):
 *   SN_HOLD_EVENT: exact. Slack strings are free; phi rising through 0 is an
 *     impact along the string with restitution e (App. I eqs. 6.14-6.20;
 *     simultaneous impacts are one impulse problem, see sn_net_impact); a
 *     taut string is a bilateral constraint (index-1: lambda from the
 *     acceleration-level equation above with xi, w = the net's drift-control
 *     values, which leave the exact solution phi = phi' = 0 unchanged); it
 *     is released when its tension falls to zero (root on lambda). Zeno:
 *     an impact whose post-impact separation speed |S.W|/L is below
 *     zeno_ratio * |W| is made plastic and the string becomes taut.
 *   SN_HOLD_BAUMGARTE: as the seed (sec. 3.3): the string is active while
 *     phi >= 0 with the string's own (xi, w); no impulse. The switch is at
 *     phi = -release_band L^2 in both directions (a string held at phi = 0
 *     sits release_band away from it, so round-off cannot make it chatter;
 *     activation is early by release_band L^2 in phi). It is released when
 *     phi < -release_band * L^2, unless it would only
 *     graze: the free flight after release dips to phi/L^2 = -(w_n/|W|)^2
 *     (w_n = S.W/|S|); below 10 release bands the string stays active.
 *     With switch_by_state = 1 the switches are not located: every
 *     residual, right-hand side and Jacobian evaluation takes the modes
 *     from phi >= 0 at its own state, as the seed's fixed-step RK4 does at
 *     each stage. The switch then costs no restart; its timing error is
 *     left to the integrator's error control (IDA) or the step (RK4).
 *
 *   SN_HOLD_ELASTIC: physically elastic threads (string_net_elastic.c,
 *     compliant/elastic_thread.h): T = max(0, EA eps + eta eps eps') while
 *     stretched, 0 when slack; continuous at slack, so no roots, no events,
 *     no multipliers. The net must be created in the ODE layout; the
 *     multipliers of the ODE form are the threads' equivalent
 *     lambda_s = -T_s / (2 |S_s|) (so tensions and accelerations go through
 *     the same code), and a DAE user poses y' - f(y) = 0 with
 *     sn_elastic_jacobian.
 *
 * ------------------------------------------------------------------------
 * State layout (both forms; n_extra is for extensions, see below)
 *   DAE (IDA):  y = [ R (3 np) | V (3 np) | lambda (ns) | extra (n_extra) ]
 *   GGL (IDA):  y = [ R (3 np) | V (3 np) | lambda (ns) | mu (ns) | extra ]
 *   ODE (CVODE, RK4): y = [ R (3 np) | V (3 np) | extra (n_extra) ]
 *   Offsets: net->off_r = 0, net->off_v = 3 np, net->off_lam = 6 np (DAE,
 *   GGL), net->off_mu = 6 np + ns (GGL), net->n_core = 6 np + ns (DAE),
 *   6 np + 2 ns (GGL) or 6 np (ODE), net->n = n_core + n_extra.
 *
 * DAE residual (rows in the same layout as y):
 *   F_R = R' - V
 *   F_V = M V' - F(R, V, t) - sum_s lambda_s grad phi_s
 *   F_lam_s = c_s (with a = V') if active, lambda_s if inactive.
 * GGL residual (SN_FORM_GGL; exact taut strings, index 2):
 *   F_R = R' - V - sum_s mu_s grad phi_s
 *   F_V as above
 *   F_lam_s = S.W (grad phi_s . V / 2),  F_mu_s = phi_s / 2   if active,
 *   F_lam_s = lambda_s,                  F_mu_s = mu_s        if inactive.
 *   mu = 0 on the exact solution; it projects R onto phi = 0.
 * Index: the iteration matrix block for (V', lambda) is the saddle-point
 * matrix [cj M, -G; cj G^T/2, 0], nonsingular while A is (no two points of an
 * active string coincide), so the DAE is index 1 in IDA's sense.
 *
 * Sparse Jacobian pattern (valid in every mode, minimal): for each point the
 * diagonal entries of F_R (cj on R, -1 on V); the F_V x R block of the force
 * Jacobian (pattern per sn_force.jac_r) plus, for points joined by a string,
 * the diagonal 3 entries coupling F_V of both ends to R of both ends
 * (the -lambda d(grad phi)/dR = -/+ 2 lambda I blocks); F_V x V: cj m I plus
 * the force's jac_v pattern; F_V x lambda_s: the 3+3 entries -/+2S; row
 * F_lam_s: R_i, R_j, V_i, V_j (3 each) and lambda_s itself. GGL adds the
 * same -/+ 2 mu I blocks in F_R x R, F_R x mu_s (3+3 entries -/+2S) and the
 * row F_mu_s: R_i, R_j (3 each) and mu_s itself.
 *
 * ------------------------------------------------------------------------
 * Extending the core (extra coordinates and constraints appended)
 *   1. sn_net_create(np, ns, n_extra, form): the core owns rows/columns
 *      0..n_core-1, the extension n_core..n-1.
 *   2. Residual / RHS: call sn_net_residual (or sn_net_rhs) first; it writes
 *      rows 0..n_core-1 and leaves the extra rows alone. Then write the
 *      extra rows and ADD your coupling to core rows, e.g. a contact force
 *      f_k on point k enters the DAE as F_V[k] -= f_k (residual) or the ODE
 *      as V'[k] += f_k / m_k. For the ODE form pass extra point forces to
 *      sn_net_rhs through `fext` instead, so the string multipliers see them.
 *   3. Jacobian: create an sn_pattern, call sn_net_pattern_add (core
 *      entries), add your own entries (rows/cols anywhere, duplicates are
 *      merged), sn_pattern_finalize -> CSC, then sn_net_jacobian_bind (the
 *      core finds its value slots). In the Jacobian callback, call
 *      sn_net_jacobian (it ADDS core values into the slots; the engine zeroes
 *      the array first) and add yours with sn_pattern_slot.
 *   4. Multipliers coupled to other constraints (e.g. strings + body
 *      contact solved jointly as eq. 2.42) are not covered by
 *      sn_net_multipliers; use the DAE form, where IDA's Newton solve couples
 *      all algebraic rows, or write the joint solve in the extension.
 *   5. Roots/events: sn_net_roots fills g[0..ns-1]; put yours after them.
 *      sn_net_handle_events handles dirs[0..ns-1] only.
 *
 * No I/O here (layer rule). All functions return 0 or a negative mbdae
 * status unless stated otherwise. */
#ifndef MBDAE_STRINGS_STRING_NET_H
#define MBDAE_STRINGS_STRING_NET_H

#include "mbdae/problem.h"

typedef enum { SN_HOLD_EVENT = 0, SN_HOLD_BAUMGARTE = 1, SN_HOLD_ELASTIC = 2 } sn_hold;
/* SN_FORM_GGL: the DAE layout plus one more multiplier per string, mu; a
 * taut string is held at position and velocity level (Gear-Gupta-Leimkuhler
 * index 2, string_net_ggl.c) instead of at acceleration level. */
typedef enum { SN_FORM_DAE = 0, SN_FORM_ODE = 1, SN_FORM_GGL = 2 } sn_form;
typedef enum { SN_JAC_NONE = 0, SN_JAC_DIAG = 1, SN_JAC_FULL = 2 } sn_jac_shape;

/* Point force F_k(r_k, v_k, t) (point-local, so its Jacobian is 3x3 blocks).
 * f[3] receives the force; dfdr, dfdv (row-major 3x3, may be NULL when not
 * wanted) receive its derivatives. Return 0 ok, > 0 recoverable, < 0 fatal. */
typedef int (*sn_force_fn)(int k, double t, const double r[3],
                           const double v[3], double f[3], double dfdr[9],
                           double dfdv[9], void *user);

typedef struct sn_force {
  sn_force_fn fn;            /* NULL: no applied force */
  void *user;
  sn_jac_shape jac_r, jac_v; /* sparsity of dF_k/dr_k and dF_k/dv_k */
} sn_force;

/* Uniform gravity + linear drag: F_k = m_k g - c v_k (user = sn_gravity_drag). */
typedef struct sn_gravity_drag {
  double g[3];
  double c;        /* N s/m */
  const double *m; /* masses (np), owned elsewhere */
} sn_gravity_drag;
int sn_force_gravity_drag(int k, double t, const double r[3], const double v[3],
                          double f[3], double dfdr[9], double dfdv[9], void *user);

typedef struct sn_string {
  int i, j;        /* tail and head point indices */
  double L;        /* rest length (> 0) */
  double e;        /* restitution for SN_HOLD_EVENT impacts, [0, 1] */
  double xi, w;    /* Baumgarte damping ratio and natural frequency (1/s) */
  double ea, eta;  /* SN_HOLD_ELASTIC: axial stiffness EA (N) and damping eta
                      (N s) of the thread, compliant/elastic_thread.h */
} sn_string;

typedef struct sn_workspace sn_workspace; /* private: adjacency, KLU, slots */

typedef struct sn_net {
  int np, ns, n_extra;
  sn_form form;
  sn_hold hold;
  double *m;              /* np masses (> 0) */
  sn_string *s;           /* ns strings */
  unsigned char *taut;    /* ns: 1 = constraint active (mode) */
  sn_force force;
  double drift_xi, drift_w; /* SN_HOLD_EVENT taut-string drift control */
  double zeno_ratio;        /* SN_HOLD_EVENT: plastic-impact rule (see top) */
  double release_band;      /* SN_HOLD_BAUMGARTE hysteresis (relative to L^2) */
  int switch_by_state;      /* SN_HOLD_BAUMGARTE: 1 = no roots, a string is
                               active exactly where phi >= 0 at the state
                               being evaluated (see top) */
  int unilateral;           /* SN_HOLD_BAUMGARTE, ODE form: an active string
                               only pulls (complementarity, see top) */
  unsigned char *forced;    /* ns: active string carrying tension (the
                               unilateral solve's warm start) */
  double *root_ref;         /* ns, unilateral Baumgarte: phi/L^2 level of an
                               active string's release root (0, or a band
                               below where a grazing string was kept) */
  int ordering;             /* KLU ordering for the multiplier solve:
                               MBDAE_ORDERING_AMD/COLAMD/NATURAL */
  int off_r, off_v, off_lam, off_mu, n_core, n; /* off_mu: SN_FORM_GGL only */
  /* statistics of the last event handling */
  int last_impacts, last_releases, last_activations, last_plastic;
  double last_energy_loss;  /* kinetic energy lost in the last impact map */
  double last_impulse;      /* largest |impulse| (N s) of the last impact map */
  sn_workspace *ws;
} sn_net;

/* Allocate a net with np points and ns strings (arrays zeroed, defaults:
 * hold EVENT, drift_xi 1, drift_w 10, zeno_ratio 1e-4, release_band 1e-9,
 * AMD). Fill m[], s[], force, then call sn_net_finalize. NULL on failure. */
sn_net *sn_net_create(int np, int ns, int n_extra, sn_form form);
void sn_net_free(sn_net **net);

/* Check the description; on error return MBDAE_ERR_PARAMETER with *bad_string
 * (>= 0, or -1 for a point/mass error) and *reason (static text) set.
 * Checks: i == j, i or j outside 0..np-1, L <= 0 or non-finite, e outside
 * [0, 1], xi < 0, w < 0, m <= 0. */
int sn_net_validate(const sn_net *net, int *bad_string, const char **reason);

/* Validate, build adjacency and the multiplier matrix pattern (KLU symbolic
 * analysis). Call once after filling the description. */
int sn_net_finalize(sn_net *net, int *bad_string, const char **reason);

/* After sn_net_finalize: set the modes at (t, R, V) as sn_net_init_modes
 * does and check that the taut strings' constraint matrix A is nonsingular
 * (KLU factors it with rcond > 1e-12). MBDAE_ERR_PARAMETER when their
 * gradients are linearly dependent, e.g. two points at the same place
 * joined by taut strings to the same two points: the string forces are
 * then not determined and no integrator can proceed. */
int sn_net_check_taut_rank(sn_net *net, double t, const double *R, const double *V);

/* Describing functions (fill m, s, and initial R0, V0 arrays of 3 np). */
/* Chain of np points along `dir` (unit), spacing L, strings (k, k+1). */
int sn_describe_chain(sn_net *net, double m, double L, const double origin[3],
                      const double dir[3], double *R0);
/* n x m grid net: point (a, b) = a*m + b; lateral strings (a,b)-(a,b+1),
 * transverse (a,b)-(a+1,b), all of length L. All points start at `origin`;
 * velocity v_k = v_common + x_k / t_deploy (x_k the planar grid offset from
 * the centre in the x-y plane) * (1 + jitter * p_k), p_k a fixed
 * deterministic pattern in [-1, 1], so strings reach length L near t_deploy.
 * Corner points get mass m_corner. Grid count ns = n(m-1) + m(n-1). */
int sn_describe_grid(sn_net *net, int n, int m, double mass, double m_corner,
                     double L, const double origin[3], const double v_common[3],
                     double t_deploy, double jitter, double *R0, double *V0);
int sn_grid_string_count(int n, int m);

/* --- per-string kinematics ------------------------------------------- */
double sn_phi(const sn_net *net, int s, const double *R);
double sn_phi_dot(const sn_net *net, int s, const double *R, const double *V);
/* grad phi_s w.r.t. r_j (= 2S); w.r.t. r_i it is the negative. */
void sn_grad(const sn_net *net, int s, const double *R, double g[3]);
/* Tension (N) of string s for multiplier lambda_s: -2 lambda |S|. */
double sn_tension(const sn_net *net, int s, const double *R, double lambda);

/* --- multipliers (Baumgarte / index-1 solve, eqs. 2.21, 3.1) ------------
 * lambda[ns] = solution of A lambda = b over the active strings (net->taut),
 * 0 for inactive ones; fext (3 np, may be NULL) are extra point forces added
 * to F. Sparse LU (KLU) of the fixed ns x ns pattern. */
int sn_net_multipliers(sn_net *net, double t, const double *R, const double *V,
                       const double *fext, double *lambda);

/* --- impact map (App. I eqs. 6.14-6.20, generalised) --------------------
 * impacting[s] = 1 marks strings hitting phi = 0 while stretching (2: the
 * same, but plastic, e = 0, as the Zeno rule uses). One
 * impulse problem: A p = c* - c(V-) with c_s = S.W, target c*_s = -e_s c_s
 * for impacting strings, 0 for taut ones (they stay taut), p_s = 0 for the
 * rest; V+ = V- + M^-1 G p. Strings whose impulse would push (p_s > 0) are
 * dropped and the problem re-solved (a simple active-set rule). Updates V in
 * place; sets net->last_energy_loss / last_impulse; p (ns, may be NULL)
 * receives the impulses in multiplier units (N s per unit of grad phi). */
int sn_net_impact(sn_net *net, const double *R, double *V,
                  const unsigned char *impacting, double *p);

/* --- equations ----------------------------------------------------------- */
/* DAE residual rows 0..n_core-1 (see the top comment). */
int sn_net_residual(sn_net *net, double t, const double *y, const double *yp,
                    double *res);
/* ODE right-hand side rows 0..n_core-1: R' = V, V' = M^-1(F + fext + G lambda)
 * with lambda from sn_net_multipliers; lambda_out (ns, may be NULL). */
int sn_net_rhs(sn_net *net, double t, const double *y, const double *fext,
               double *ydot, double *lambda_out);
/* Consistent DAE state: lambda (in y) and yp = [V, V', 0] from R, V and the
 * current modes; fext as in sn_net_multipliers. */
int sn_net_consistent(sn_net *net, double t, double *y, double *yp,
                      const double *fext);

/* --- sparse Jacobian ------------------------------------------------------ */
typedef struct sn_pattern sn_pattern;
sn_pattern *sn_pattern_create(int n);
void sn_pattern_free(sn_pattern **p);
int sn_pattern_add(sn_pattern *p, int row, int col);
/* Sort, merge duplicates, build CSC (increasing rows per column). */
int sn_pattern_finalize(sn_pattern *p);
mbdae_index sn_pattern_nnz(const sn_pattern *p);
const mbdae_index *sn_pattern_colptr(const sn_pattern *p);
const mbdae_index *sn_pattern_rowind(const sn_pattern *p);
/* Value slot of (row, col), or -1 when not in the pattern. */
mbdae_index sn_pattern_slot(const sn_pattern *p, int row, int col);

/* Add the core's DAE entries (every mode). */
int sn_net_pattern_add(const sn_net *net, sn_pattern *p);
/* Find the core's value slots in a finalized pattern. */
int sn_net_jacobian_bind(sn_net *net, const sn_pattern *p);
/* ADD dF/dy + cj dF/dyp of the core rows into vals (pattern order). */
int sn_net_jacobian(sn_net *net, double t, double cj, const double *y,
                    const double *yp, double *vals);

/* --- modes, roots, events ----------------------------------------------- */
/* Initial modes from a state: Baumgarte: taut iff phi >= -release_band L^2;
 * event: taut iff phi >= -release_band L^2, the string is not stretching
 * (phi' <= 1e-12 L) and its multiplier pulls (an active-set loop of
 * multiplier solves releases pushing strings). */
int sn_net_init_modes(sn_net *net, double t, const double *R, const double *V);
/* g[0..ns-1], each negative in the current mode and rising through 0 when
 * the mode must change (only dirs > 0 act): EVENT slack: phi/L^2; EVENT
 * taut: lambda/mu (mu the pair's reduced mass; lambda < 0 pulls);
 * BAUMGARTE slack: h = phi/L^2 + release_band, taut: -h. lambda: the DAE's
 * y (pass lam = y + off_lam) or NULL to solve for it (ODE form). */
int sn_net_roots(sn_net *net, double t, const double *R, const double *V,
                 const double *lam, double *g);
/* Apply the event map for dirs[0..ns-1] (mode switches, impacts, Zeno rule),
 * then make y (and yp when not NULL, DAE) consistent. Returns
 * MBDAE_EVENT_CONTINUE or MBDAE_EVENT_NOCHANGE (or < 0 on failure) and fills
 * info (label, data: [impacts, releases, activations, plastic, energy lost,
 * max impulse]). */
int sn_net_handle_events(sn_net *net, double t, double *y, double *yp,
                         const int *dirs, mbdae_event_info *info,
                         const double *fext);

/* --- elastic threads (SN_HOLD_ELASTIC, string_net_elastic.c) -----------
 * lambda_s = -T_s / (2|S_s|) of every thread at (R, V); sets taut[s] to
 * "stretched" (a report, not a mode). */
int sn_elastic_multipliers(sn_net *net, const double *R, const double *V, double *lambda);
/* Elastic energy sum EA delta^2 / (2L) (J). */
double sn_elastic_energy(const sn_net *net, const double *R);
/* Add the entries of the elastic net's Jacobian (rows/columns 0..n_core-1,
 * every diagonal included) to p; after sn_pattern_finalize, bind the value
 * slots with sn_elastic_jacobian_bind. */
int sn_elastic_pattern_add(const sn_net *net, sn_pattern *p);
int sn_elastic_jacobian_bind(sn_net *net, const sn_pattern *p);
/* ADD the core rows' Jacobian of f = [V; M^-1 (F + threads)] into vals:
 * df/dy (dae 0) or cj I - df/dy (dae 1, the Jacobian of y' - f(y)). */
int sn_elastic_jacobian(sn_net *net, double t, double cj, int dae, const double *y,
                        double *vals);

/* Kinetic energy, total mass, momentum (3). */
double sn_kinetic_energy(const sn_net *net, const double *V);
void sn_momentum(const sn_net *net, const double *V, double p[3]);

#endif
