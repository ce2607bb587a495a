/* arkode_dae.h - method arkode on a semi-explicit index-1 DAE
 * (mbdae_problem_set_completion): ARKODE integrates the differential
 * unknowns z = y[0..nd) as the ODE z' = f(t, z), f from the model's
 * completion; each Newton system (I - gamma df/dz) x = b is solved exactly
 * on the DAE's own Jacobian (doc/arkode.md, "DAE forms"). */
#ifndef MBDAE_ARKODE_DAE_H
#define MBDAE_ARKODE_DAE_H

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

#include "engine_impl.h"

typedef struct mbdae_arkode_dae mbdae_arkode_dae;

/* The reduction of e's DAE (scratch states, the DAE Jacobian's matrix and
 * its dense or KLU solver) and the linear solver and opaque matrix ARKODE is
 * given (*ls, *A, owned by the reduction; with mbdae_arkode_dae_linsys as
 * its linear-system function). NULL on failure (e->msg filled, *rc). */
mbdae_arkode_dae *mbdae_arkode_dae_create(mbdae_engine *e, SUNContext ctx, SUNLinearSolver *ls,
                                          SUNMatrix *A, int *rc);
/* The ARKODE memory, for the Newton system's gamma and iterate. */
void mbdae_arkode_dae_attach(mbdae_arkode_dae *d, void *arkode_mem);
void mbdae_arkode_dae_free(mbdae_arkode_dae **d);

/* ARKODE callbacks (user_data: the reduction). */
int mbdae_arkode_dae_rhs(realtype t, N_Vector z, N_Vector zdot, void *user_data);
int mbdae_arkode_dae_roots(realtype t, N_Vector z, realtype *g, void *user_data);
int mbdae_arkode_dae_linsys(realtype t, N_Vector z, N_Vector fz, SUNMatrix A, SUNMatrix M,
                            booleantype jok, booleantype *jcur, realtype gamma, void *user_data,
                            N_Vector t1, N_Vector t2, N_Vector t3);

/* Complete e->y, e->yp from e->y[0..nd) at e->t (after each advance). */
int mbdae_arkode_dae_complete_state(mbdae_arkode_dae *d);
/* Complete y[0..nd) at t into y and yp (length n): the interpolated state
 * of the engine's event window. */
int mbdae_arkode_dae_complete_into(mbdae_arkode_dae *d, double t, double *y, double *yp);
/* The model's Jacobian evaluations (two per update: cj = 0 and 1). */
long mbdae_arkode_dae_jac_evals(const mbdae_arkode_dae *d);

#endif
