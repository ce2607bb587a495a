/* capture/capture_mechanics.h - the net capture's second-order (Lagrangian)
 * form for event capturing (solver.method moreau; doc/capture.md
 * "Event capturing"). Private to models/capture/, tests/ and benchmarks/.
 *
 *   q = (r_1 .. r_np, P, quat)   nq = 3 np + 7   (quat scalar first, body -> inertial)
 *   v = (v_1 .. v_np, U, w)      nv = 3 np + 6   (w in body axes)
 *   M = diag(m_i I3, m_P I3, J)  constant
 *   f = (thrust_i (ch. 4), 0, -w x J w)
 *   q+ = (r + h v_r, P + h U, quat (x) exp(h w / 2), normalised)
 *
 * Constraints, all unilateral (g >= 0 admissible, in metres), strings first:
 *   string s (i, j, L):  g_s = L - |r_j - r_i|,
 *                        G_s = [ n^T on v_i, -n^T on v_j ], n = (r_j - r_i) / |r_j - r_i|
 *   point k, body:       g_k = max_f (n_f . X - d_f),  X = C^T (r_k - P)
 *                        (face f: n_f . X = d_f, outward unit normal n_f in body axes),
 *                        G_k = [ N^T on v_k, -N^T on U, (n_f x X)^T on w ],  N = C n_f,
 *                        f the maximising face.
 * Restitution e_string on strings, e_body on contacts. */
#ifndef MBDAE_MODELS_CAPTURE_MECHANICS_H
#define MBDAE_MODELS_CAPTURE_MECHANICS_H

#include "capture/capture_internal.h"
#include "mbdae/problem.h"

typedef struct capture_mech {
  int nq, nv, nrows;
  int *qidx, *vidx;            /* nq, nv indices into the ODE state y */
  mbdae_index mnnz;            /* mass matrix, CSC (nv x nv) */
  mbdae_index *mcolptr, *mrowind;
  mbdae_index gnnz;            /* constraint Jacobian, CSR (nrows x nv) */
  mbdae_index *growptr, *gcolind;
  double *restitution;         /* nrows */
  double *normal, *offset;     /* nf x 3 unit outward normals, nf plane offsets (body axes) */
  int *face;                   /* np: face of the last gap / Jacobian evaluation */
  double *y;                   /* scratch ODE state for the model's functions */
  double *tangent;             /* nf x 6: two unit tangents of each face (body axes) */
  int *f_rows;                 /* np: contact rows (ns + j), Coulomb friction */
  double *mu;                  /* np: friction coefficient of each contact */
  mbdae_index *trowptr, *tcolind; /* tangent Jacobian T, CSR (2 np x nv), G's columns */
  long steps;                  /* observer calls */
} capture_mech;

/* Build the mechanical form of m (patterns, indices, normals). MBDAE_OK,
 * MBDAE_ERR_UNSUPPORTED (control error_stabilization: its thrust is a
 * state feedback through the event-driven joint solve) or MBDAE_ERR_MEMORY. */
int capture_mech_create(capture_model *m, capture_mech **out);
void capture_mech_free(capture_mech **mech);
/* Build the form, keep it in m->mech and declare it on m's problem
 * (include/mbdae/mechanics.h): mass (constant), forces, position update,
 * the ns + np unilateral rows and the impulse observer. */
int capture_mech_attach(capture_model *m);

/* Pack q and v from / scatter into the ODE state y. */
void capture_mech_pack(const capture_model *m, const capture_mech *me, const double *y,
                       double *q, double *v);
void capture_mech_unpack(const capture_model *m, const capture_mech *me, const double *q,
                         const double *v, double *y);

/* The callbacks of the second-order form (user data: the capture_model,
 * whose `mech` must be set). Return 0, or 1 on a non-finite result. */
int capture_mech_mass(double t, const double *q, double *values, void *ud);
int capture_mech_forces(double t, const double *q, const double *v, double *f, void *ud);
int capture_mech_position_update(double h, const double *q, const double *v, double *q_new,
                                 void *ud);
int capture_mech_gap(double t, const double *q, double *g, void *ud);
int capture_mech_gap_jacobian(double t, const double *q, double *values, void *ud);
/* Sliding velocity of each contact along its face's two tangents (rows 2j,
 * 2j + 1: t . X' in body axes, X' = C^T (v - U) - w x X), for Coulomb
 * friction at the contacts (parameters.friction > 0, mbdae_problem_set_friction). */
int capture_mech_tangent_jacobian(double t, const double *q, double *values, void *ud);
/* After every step: rows with a positive impulse carry force (taut string,
 * contact): they become the model's active set for the outputs, and
 * impulse / h its multipliers; a row starting to carry force counts as an
 * impact, one ceasing to as a release. */
int capture_mech_impulses(double t, double h, const double *impulse, void *ud);

#endif
