/** @file mbdae/mechanics.h
 * @brief The second-order (Lagrangian) form of a problem, for event-capturing
 *        time stepping (`solver.method: moreau`, doc/moreau.md).
 *
 * An ODE-form problem whose state y holds positions q and velocities v may
 * declare its mechanical structure in addition to its right-hand side:
 *
 *     q' = T(q) v,      M(q) v' = f(t, q, v) + G(q)^T lambda
 *     unilateral rows i <  nu:  g_i(q) >= 0,  0 <= lambda_i  complementary,
 *                               Newton's impact law with restitution e_i,
 *                               optionally Coulomb friction (T(q)^T lambda_t)
 *     bilateral rows  i >= nu:  g_i(q) = 0
 *
 * The Moreau-Jean backend (solver/backend_moreau.c) integrates this form with
 * a fixed step, solving the unilateral constraints and impacts inside every
 * step; the other backends ignore it. A model needs, at least,
 * mbdae_problem_set_mechanics(), mbdae_problem_set_mass() and
 * mbdae_problem_set_forces(); constraints, a position update, a potential and
 * an impulse observer are optional.
 *
 * Every callback gets the problem's user_data and returns 0 on success,
 * > 0 for a recoverable failure and < 0 for a fatal one (the moreau backend
 * has no step to retry, so both end the run with t and the callback named).
 * Arrays are plain doubles; q has nq entries, v and f have nv. Sparse
 * patterns are given once, copied, validated, and must hold in every state:
 * the backend analyses them once and refactorises numerically. */
#ifndef MBDAE_MECHANICS_H
#define MBDAE_MECHANICS_H

#include "mbdae/export.h"

#include "mbdae/problem.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Mass matrix M(t, q): out receives the values of the fixed CSC pattern set
 * by mbdae_problem_set_mass(), in pattern order. */
typedef int (*mbdae_mass_fn)(double t, const double *q, double *values,
                             void *user_data);
/** Generalised applied forces f(t, q, v) into f[nv] (gravity, thrust,
 * gyroscopic terms, elastic forces): everything but the constraint forces. */
typedef int (*mbdae_force_fn)(double t, const double *q, const double *v,
                              double *f, void *user_data);
/** Position update q_new = q + h T(q) v (e.g. a quaternion's exponential map
 * and normalisation). v is any velocity-space vector (the backend also calls
 * it with h = 1 and a position correction). */
typedef int (*mbdae_position_update_fn)(double h, const double *q,
                                        const double *v, double *q_new,
                                        void *user_data);
/** Constraint values g(q) into g[nu + nb]: unilateral rows first (g >= 0 is
 * admissible), bilateral rows after (g = 0). Scleronomic: g must not depend
 * on t other than through q. */
typedef int (*mbdae_gap_fn)(double t, const double *q, double *g,
                            void *user_data);
/** Velocity Jacobian G(q) of the constraints (dg/dt = G v): the values of the
 * fixed CSR pattern (rows = constraints, columns = velocities) set by
 * mbdae_problem_set_constraints(), in pattern order. */
typedef int (*mbdae_gap_jacobian_fn)(double t, const double *q,
                                     double *values, void *user_data);
/** Potential energy V(t, q) of the applied forces that derive from one (for
 * the energy ledger; the kinetic energy is v^T M v / 2). */
typedef int (*mbdae_potential_fn)(double t, const double *q, double *V,
                                  void *user_data);
/** Impulse observer, called after every accepted step with its end time t,
 * its length h and the constraint impulses impulse[nu + nb] over the step
 * (zero for rows outside the step's index set; impulse / h is the mean
 * constraint force). Lets a model report contact forces, taut strings and
 * contact counts. Return 0, or < 0 to fail the run. */
typedef int (*mbdae_impulse_fn)(double t, double h, const double *impulse,
                                void *user_data);

/** @brief Declare where positions and velocities live in the state y.
 *
 * Every component of y must be exactly one position or one velocity
 * (nq + nv = n); nq may differ from nv (quaternions) only with a position
 * update (mbdae_problem_set_position_update()).
 * @param p    an ODE-form problem
 * @param nq   number of positions (> 0)
 * @param nv   number of velocities (> 0)
 * @param qidx nq indices into y (copied)
 * @param vidx nv indices into y (copied)
 * @return MBDAE_OK, MBDAE_ERR_ARGUMENT (DAE form, sizes, an index out of
 *         range or used twice) or MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_problem_set_mechanics(mbdae_problem *p, int nq, int nv,
                                             const int *qidx, const int *vidx);
/** @brief Set the mass matrix: symmetric positive definite, nv x nv, on a
 *         fixed CSC pattern holding both triangles and the whole diagonal.
 * @param p        the problem (after mbdae_problem_set_mechanics())
 * @param nnz      structural non-zeros
 * @param colptr   nv + 1 column starts
 * @param rowind   nnz row indices, increasing within each column
 * @param constant 1: M does not depend on t or q (the backend factorises it
 *                 once); 0: it is evaluated at every step's start
 * @param mass     fills the values
 * @return MBDAE_OK, MBDAE_ERR_ARGUMENT (an invalid pattern) or MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_problem_set_mass(mbdae_problem *p, mbdae_index nnz,
                                        const mbdae_index *colptr, const mbdae_index *rowind,
                                        int constant, mbdae_mass_fn mass);
/** @brief Set the applied forces f(t, q, v).
 * @param p the problem (after mbdae_problem_set_mechanics())
 * @param f the forces
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_set_forces(mbdae_problem *p, mbdae_force_fn f);
/** @brief Set the position update (optional; without it nq must equal nv and
 *         q_new = q + h v).
 * @param p the problem (after mbdae_problem_set_mechanics())
 * @param f the update
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_set_position_update(mbdae_problem *p,
                                                   mbdae_position_update_fn f);
/** @brief Set the constraints: nu unilateral rows g >= 0 with Newton
 *         restitution, then nb bilateral rows g = 0.
 * @param p           the problem (after mbdae_problem_set_mechanics())
 * @param nu          unilateral rows (>= 0)
 * @param nb          bilateral rows (>= 0; nu + nb > 0)
 * @param nnz         structural non-zeros of G
 * @param rowptr      nu + nb + 1 row starts of G (CSR)
 * @param colind      nnz velocity indices, increasing within each row
 * @param g           constraint values
 * @param G           values of G on the pattern
 * @param restitution nu Newton coefficients in [0, 1] (copied; NULL: all 0)
 * @return MBDAE_OK, MBDAE_ERR_ARGUMENT (sizes, an invalid pattern, e outside
 *         [0, 1]) or MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_problem_set_constraints(mbdae_problem *p, int nu, int nb,
                                               mbdae_index nnz, const mbdae_index *rowptr,
                                               const mbdae_index *colind, mbdae_gap_fn g,
                                               mbdae_gap_jacobian_fn G,
                                               const double *restitution);
/** @brief Set the potential energy of the applied forces (optional; the
 *         energy ledger then reports kinetic + potential).
 * @param p the problem
 * @param V the potential
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_set_potential(mbdae_problem *p, mbdae_potential_fn V);
/** @brief Set the impulse observer (optional).
 * @param p the problem
 * @param f called after every step of the moreau backend
 * @return MBDAE_OK or MBDAE_ERR_ARGUMENT */
MBDAE_EXPORT int mbdae_problem_set_impulse_observer(mbdae_problem *p, mbdae_impulse_fn f);

/** @brief Declare Coulomb friction at nf contacts (optional; after
 *         mbdae_problem_set_constraints()).
 *
 * Contact k is the unilateral row normal_rows[k] with friction coefficient
 * mu[k] and the rows 2k and 2k + 1 of a tangent Jacobian T(q) (2 nf x nv,
 * fixed CSR pattern): T_2k v and T_2k+1 v are the sliding velocity of the
 * contact along two orthonormal directions of its tangent plane, so that
 * |(T_2k v, T_2k+1 v)| is the sliding speed (the cone is isotropic). While
 * the normal row is in a step's index set, the step's impulses satisfy
 * Coulomb's law at the end velocity: |P_t| <= mu P_n, the contact sticks
 * (T v = 0) below the cone's surface and slides against P_t on it; outside
 * the set P_t = 0 (doc/moreau.md, "Friction").
 * @param p           the problem (after mbdae_problem_set_constraints())
 * @param nf          number of frictional contacts (> 0)
 * @param normal_rows nf distinct unilateral rows (< nu) (copied)
 * @param mu          nf friction coefficients, finite and >= 0 (copied)
 * @param nnz         structural non-zeros of T
 * @param rowptr      2 nf + 1 row starts of T (CSR)
 * @param colind      nnz velocity indices, increasing within each row
 * @param T           values of T on the pattern (the signature of G's)
 * @return MBDAE_OK, MBDAE_ERR_ARGUMENT (no constraints yet, sizes, a row that
 *         is not unilateral or repeats, mu, an invalid pattern) or
 *         MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_problem_set_friction(mbdae_problem *p, int nf, const int *normal_rows,
                                            const double *mu, mbdae_index nnz,
                                            const mbdae_index *rowptr,
                                            const mbdae_index *colind,
                                            mbdae_gap_jacobian_fn T);

/** @brief Whether the problem declares the mechanical form method moreau
 *         needs (positions and velocities, mass, forces).
 * @param p the problem
 * @return 1 or 0 */
MBDAE_EXPORT int mbdae_problem_has_mechanics(const mbdae_problem *p);
/** @brief Sizes of the mechanical form.
 * @param p  the problem
 * @param nq receives the number of positions (may be NULL)
 * @param nv receives the number of velocities (may be NULL)
 * @param nu receives the unilateral rows (may be NULL)
 * @param nb receives the bilateral rows (may be NULL)
 * @return MBDAE_OK, or MBDAE_ERR_ARGUMENT without a mechanical form */
MBDAE_EXPORT int mbdae_problem_mechanics_sizes(const mbdae_problem *p, int *nq, int *nv,
                                               int *nu, int *nb);

/** @brief Kinetic energy v^T M v / 2 and the model's potential at a state.
 * @param p         a problem with a mechanical form
 * @param t         time
 * @param y         state (problem layout)
 * @param kinetic   receives the kinetic energy (may be NULL)
 * @param potential receives the potential, 0 without one (may be NULL)
 * @return MBDAE_OK, MBDAE_ERR_ARGUMENT, MBDAE_ERR_CALLBACK or MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_mechanics_energy(const mbdae_problem *p, double t, const double *y,
                                        double *kinetic, double *potential);

/** Result of mbdae_mechanics_check(). */
typedef struct mbdae_mechanics_check_result {
  double g_max_abs_err;  /**< max |G_analytic - G_fd| over all entries */
  double g_max_rel_err;  /**< max |G_a - G_fd| / max(1, |G_fd|) */
  int g_worst_row;       /**< constraint row of the worst entry */
  int g_worst_col;       /**< velocity column of the worst entry */
  long g_pattern_misses; /**< FD entries above miss_tol outside the pattern */
  double mass_asymmetry; /**< max |M_ij - M_ji| */
  double mass_min_diag;  /**< smallest diagonal entry of M */
} mbdae_mechanics_check_result;

/** @brief Check G against central differences of g along the position
 *         update (G e_j ~ (g(q (+) eps e_j) - g(q (-) eps e_j)) / 2 eps), and
 *         M for symmetry and a positive diagonal.
 * @param p        a problem with a mechanical form and constraints
 * @param t        time of the check
 * @param y        state (problem size)
 * @param rel_step relative FD step (0: cbrt(machine eps))
 * @param miss_tol an FD entry above it outside the pattern counts as a miss
 * @param out      the result
 * @return MBDAE_OK, MBDAE_ERR_ARGUMENT, MBDAE_ERR_CALLBACK or MBDAE_ERR_MEMORY */
MBDAE_EXPORT int mbdae_mechanics_check(const mbdae_problem *p, double t, const double *y,
                                       double rel_step, double miss_tol,
                                       mbdae_mechanics_check_result *out);

#ifdef __cplusplus
}
#endif
#endif
