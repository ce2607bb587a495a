/* sundials_util.h - pieces shared by the IDA and CVODE backends. */
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

#endif
