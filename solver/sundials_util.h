/* sundials_util.h - pieces shared by the IDA, CVODE and ARKODE backends. */
#ifndef MBDAE_SUNDIALS_UTIL_H
#define MBDAE_SUNDIALS_UTIL_H

#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

#include "engine_impl.h"

/* The name of a SUNDIALS return flag in buf (SUNDIALS' *GetReturnFlagName
 * functions return a malloc'd string: this frees it). */
const char *mbdae_flag_text(char *(*name_fn)(long int), long flag, char *buf,
                            size_t n);

/* Copy the problem's fixed CSC pattern into J and zero its values. */
void mbdae_sparse_load_pattern(const mbdae_problem *p, SUNMatrix J);

/* Create the matrix and linear solver the options ask for (dense or KLU
 * with the chosen ordering). Fills e->msg on failure. */
int mbdae_sundials_linear_solver(mbdae_engine *e, SUNContext ctx, N_Vector y,
                                 SUNMatrix *A, SUNLinearSolver *LS);

/* The KLU matrix (the problem's pattern) and solver with the options'
 * ordering and the symbolic analysis kept across re-inits: the KLU linear
 * solver, and the factorised preconditioner of SPGMR (ida_krylov.c). */
int mbdae_sundials_klu(mbdae_engine *e, SUNContext ctx, N_Vector y, SUNMatrix *A,
                       SUNLinearSolver *LS);
/* The same KLU solver on a matrix A of another pattern (id: its unknowns'
 * id vector for the METIS ordering, or NULL). */
int mbdae_sundials_klu_on(mbdae_engine *e, SUNContext ctx, N_Vector y, SUNMatrix A,
                          const double *id, SUNLinearSolver *LS);

/* "; largest weighted local error y[i] = v" from an integrator's error
 * weights and local error estimates (its Get functions; "" before the first
 * step, when the estimate is unset, or on failure). */
void mbdae_sundials_local_error_note(void *mem, N_Vector tmpl, int (*num_steps)(void *, long *),
                                     int (*weights)(void *, N_Vector),
                                     int (*errors)(void *, N_Vector), char *buf, size_t len);

/* ODE-form callbacks shared by CVODE and ARKODE (user_data: the engine);
 * the right-hand side first calls e->step_probe, when set. */
int mbdae_sundials_ode_rhs(realtype t, N_Vector y, N_Vector ydot, void *ud);
/* The problem's error weights (CVodeWFtolerances, IDAWFtolerances,
 * ARKStepWFtolerances; user_data: the engine): 1/(rtol |y_i| + atol_i),
 * then raised by the problem's weight function. */
int mbdae_sundials_error_weights(N_Vector y, N_Vector ewt, void *ud);
int mbdae_sundials_ode_roots(realtype t, N_Vector y, realtype *g, void *ud);
int mbdae_sundials_ode_jac_dense(realtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud,
                                 N_Vector t1, N_Vector t2, N_Vector t3);
int mbdae_sundials_ode_jac_sparse(realtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *ud,
                                  N_Vector t1, N_Vector t2, N_Vector t3);

#endif
