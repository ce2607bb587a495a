/* rover/rover.h - the pendulum tumbleweed rover of Forbes (2010): a sphere
 * rolling without slip on flat ground with an internal payload pendulum that
 * turns relative to the sphere only about s2 (angle phi), a generator damper
 * b_p, rolling damping b_r, spin damping b_s and wind drag at the centre.
 * Internal to models/, validation/, tests/ and benchmarks/.
 *
 * Conventions (doc/rover.md): C_si maps inertial to sphere components
 * (Hughes' C1, C2, C3 elementary rotations); C_si = C2(alpha) C1(beta)
 * C3(gamma) (3-1-2); C_ps = C2(phi). Attitudes are stored as unit
 * quaternions q = (q0, q1, q2, q3) of the body-to-inertial rotation C^T, so
 * no Euler singularity can stop a run; Euler angles are outputs only. */
#ifndef MBDAE_MODELS_ROVER_H
#define MBDAE_MODELS_ROVER_H

#include "mbdae/model.h"

/* Which Table 1 variant: the printed first moment of the cube
 * c_c = -1/2 m_c l z (and J_c's third entry with w), or the one consistent
 * with J_c, c_c = -m_c l z (and h in J_c's third entry). */
enum { ROVER_TABLE_PRINTED = 0, ROVER_TABLE_CONSISTENT = 1 };

typedef struct rover_params {
  double g;          /* gravity, m/s^2 */
  double r;          /* sphere radius, m */
  double m_s;        /* sphere mass, kg */
  double k_s;        /* sphere inertia factor: J_s = k_s m_s r^2 1 */
  double l;          /* pendulum length (centre to cube centre), m */
  double w;          /* rod width, m */
  double h;          /* cube height, m */
  double m_r;        /* rod mass, kg */
  double m_c;        /* cube (payload) mass, kg */
  int table;         /* ROVER_TABLE_PRINTED or ROVER_TABLE_CONSISTENT */
  double b_p;        /* generator damping, N m s */
  double b_r;        /* rolling damping, kg/s */
  double b_s;        /* spin damping, N m s */
  double rho;        /* air density, kg/m^3 */
  double area;       /* frontal area A, m^2 */
  double c_d;        /* drag coefficient */
  double wind_speed; /* v_ave, m/s (along i1) */
  double wind_tau;   /* ramp time constant: v = v_ave (1 - exp(-t/tau)), s */
  double omega0[3];  /* initial omega_s^si (sphere frame), rad/s */
  double phidot0;    /* initial phi', rad/s */
  double euler0[3];  /* initial (gamma, beta, alpha), deg */
  double phi0;       /* initial phi, deg */
  double pos0[2];    /* initial centre position (x, y), m */
} rover_params;

/* Mass properties derived from the parameters (Table 1). */
typedef struct rover_mass {
  double m;        /* m_s + m_p */
  double m_p;      /* m_r + m_c */
  double c;        /* c_p = -c z (p-frame), kg m */
  double J_s;      /* isotropic sphere inertia */
  double J_p[3];   /* diagonal pendulum inertia about the centre, p-frame */
} rover_mass;

/* ODE (null-space) state: y = [x, y, q_s(4), phi, omega_s(3), phi',
 * E_gen, E_diss, W_wind]. */
enum {
  ROVER_O_X = 0, ROVER_O_QS = 2, ROVER_O_PHI = 6, ROVER_O_W = 7,
  ROVER_O_PHID = 10, ROVER_O_EGEN = 11, ROVER_O_EDISS = 12,
  ROVER_O_WWIND = 13, ROVER_N_ODE = 14
};
/* DAE (dependent coordinates + multipliers) state: y = [r(3), q_s(4),
 * q_p(4), v(3), omega_s(3), omega_p(3), Lambda(5), E_gen, E_diss, W_wind];
 * Lambda is the time integral of the multipliers lambda = Lambda' =
 * [contact force (inertial, 3); hinge torque on the pendulum about p1, p3],
 * so lambda is read from yp. */
enum {
  ROVER_D_R = 0, ROVER_D_QS = 3, ROVER_D_QP = 7, ROVER_D_V = 11,
  ROVER_D_WS = 14, ROVER_D_WP = 17, ROVER_D_LAM = 20, ROVER_D_EGEN = 25,
  ROVER_D_EDISS = 26, ROVER_D_WWIND = 27, ROVER_N_DAE = 28
};

/* A physical snapshot common to both formulations. */
typedef struct rover_state {
  double pos[3];       /* centre, inertial */
  double C_si[9];      /* row-major */
  double C_pi[9];
  double v[3];         /* centre velocity, inertial */
  double w_s[3];       /* omega_s^si, sphere frame */
  double w_p[3];       /* omega_p^pi, pendulum frame */
  double phidot;
  double lambda[5];    /* contact force (3, inertial), hinge torque (2) */
  double e_gen, e_diss, w_wind;
} rover_state;

typedef struct rover_model {
  rover_params p;
  rover_mass mp;
  mbdae_form form;
  int n;
  mbdae_problem *problem;
  int projected;        /* the initial state needed projection */
  double projection;    /* size of that projection (max abs change) */
} rover_model;

/* ---- parameters (rover_params.c) ---- */
void rover_params_default(rover_params *p);
int rover_params_check(const rover_params *p, mbdae_param_error *err);
void rover_mass_properties(const rover_params *p, rover_mass *mp);

/* ---- rotations (rover_rotation.c) ---- */
void rover_c1(double a, double C[9]);
void rover_c2(double a, double C[9]);
void rover_c3(double a, double C[9]);
void rover_matmul(const double A[9], const double B[9], double C[9]);
void rover_mat_t(const double A[9], double At[9]);
void rover_matvec(const double A[9], const double x[3], double y[3]);
void rover_mattvec(const double A[9], const double x[3], double y[3]);
/* C_si = C2(alpha) C1(beta) C3(gamma), angles in rad. */
void rover_euler312_to_c(double gamma, double beta, double alpha, double C[9]);
void rover_c_to_euler312(const double C[9], double *gamma, double *beta,
                         double *alpha);
/* Quaternion of C^T (body to inertial); C from a (normalised) quaternion. */
void rover_c_to_quat(const double C[9], double q[4]);
void rover_quat_to_c(const double q[4], double C[9]);
/* q' = 1/2 q (x) (0, w_body). */
void rover_quat_rate(const double q[4], const double w[3], double qd[4]);

/* ---- dynamics (rover_dynamics.c) ---- */
/* Wind speed along i1 at t (seed section 10, ramp sign corrected). */
double rover_wind(const rover_params *p, double t);
/* Drag force at the centre, inertial (seed section 6.2). */
void rover_wind_force(const rover_params *p, double t, const double v[3],
                      double F[3]);
/* Mass matrix M (9x9 row-major) of u = [v; w_s; w_p] (seed eq. 10). */
void rover_mass_matrix(const rover_params *p, const rover_mass *mp,
                       const double C_pi[9], double M[81]);
/* Applied and inertial forces f(q, u, t) such that M u' = f + A^T lambda. */
void rover_forces(const rover_params *p, const rover_mass *mp, double t,
                  const rover_state *s, double f[9]);
/* Constraint matrix A (5x9 row-major), A u = 0 (seed eqs. 1, 3). */
void rover_constraints(const rover_params *p, const rover_state *s,
                       double A[45]);
/* Null-space basis Pi (9x4 row-major), u = Pi [w_s; phi'] (seed eq. 8). */
void rover_pi(const rover_params *p, const rover_state *s, double Pi[36]);
/* Reduced accelerations [w_s'; phi''] (seed eqs. 13-17) and, optionally,
 * the multipliers that the constraints carry at this state. */
int rover_reduced_accel(const rover_params *p, const rover_mass *mp, double t,
                        const rover_state *s, double acc[4], double *lambda);
/* Kinetic energy, Lyapunov function V (seed section 9: energy above the
 * hanging rest state) and dissipation rate. */
double rover_kinetic(const rover_params *p, const rover_mass *mp,
                     const rover_state *s);
double rover_lyapunov(const rover_params *p, const rover_mass *mp,
                      const rover_state *s);
double rover_dissipation(const rover_params *p, const rover_state *s);

/* Fill a rover_state from either state vector (DAE: multipliers from yp,
 * zero when yp is NULL). */
void rover_state_from_ode(const rover_params *p, const double *y,
                          rover_state *s);
void rover_state_from_dae(const double *y, const double *yp, rover_state *s);
/* Build ODE/DAE state vectors (DAE also yp) from the physical initial
 * conditions of the parameters. */
int rover_initial_ode(const rover_params *p, double *y);
int rover_initial_dae(const rover_params *p, const rover_mass *mp, double t0,
                      double *y, double *yp);
/* Map an ODE state to the corresponding consistent DAE (y, yp). */
int rover_ode_to_dae(const rover_params *p, const rover_mass *mp, double t,
                     const double *yo, double *y, double *yp);
/* Project a DAE state onto the constraints (velocities by the minimum-kinetic
 * -energy correction, hinge attitude onto a pure C2 rotation, z = r),
 * recompute the multipliers and yp (if not NULL); returns the largest change
 * of y, or -1. */
double rover_project_dae(const rover_params *p, const rover_mass *mp,
                         double t, double *y, double *yp);

/* Callbacks (user_data is the rover_model). */
int rover_rhs(double t, const double *y, double *f, void *user_data);
int rover_residual(double t, const double *y, const double *yp, double *F,
                   void *user_data);
int rover_invariants(double t, const double *y, const double *yp, double *out,
                     void *user_data);

/* ---- model instance (rover_kind.c) ---- */
int rover_create(const rover_params *p, mbdae_form form, rover_model **out);
void rover_free(rover_model **m);

/* ---- steady rolling and its stability (rover_steady.c) ---- */
typedef struct rover_steady {
  double speed;        /* V, m/s */
  double omega;        /* spin rate about s2 = V / r, rad/s */
  double theta_p;      /* pendulum inclination from the vertical (aft +), rad */
  double power;        /* b_p omega^2, W */
  double wind_force;   /* drag at V, N */
  double friction;     /* contact friction along i1, N */
  double normal;       /* contact normal force, N */
} rover_steady;
/* Closed form for constant wind w (m/s) along i1; MBDAE_ERR_PARAMETER when
 * the generator torque exceeds the largest gravity torque (no steady state). */
int rover_steady_state(const rover_params *p, double wind, rover_steady *ss);
/* Eigenvalues of the 7-state linearisation about steady rolling (pendulum
 * attitude, sphere rate in the pendulum frame, phi'); wr, wi of length 7.
 * Returns 0 or < 0. */
int rover_steady_eigen(const rover_params *p, double wind, double wr[7],
                       double wi[7]);

/* Eigenvalues of a general real n x n matrix (row-major, destroyed), by
 * balancing, Hessenberg reduction and the shifted QR algorithm
 * (rover_eigen.c). Returns 0, or -1 when the iteration fails. */
int rover_eigenvalues(int n, double *a, double *wr, double *wi);

/* Dense solves (rover_linalg.c): x = A^{-1} b by partial pivoting, A (n x n
 * row-major) destroyed, b overwritten; returns 0 or -1 if singular. */
int rover_solve(int n, double *A, double *b);

extern const mbdae_model_kind mbdae_model_rover;

#endif
