/* multiplier_newton.h - the Newton system of a mechanical DAE without its
 * kinematic rows, R = [A C; B D] in velocities v and multipliers w, solved
 * in the multipliers with A replaced by its diagonal: one factorisation of
 * S = D - B diag(A)^-1 C per setup (method arkode, `solver.arkode_newton:
 * multiplier`; multiplier_newton.c, doc/arkode.md "Newton in the
 * multipliers"). */
#ifndef MBDAE_MULTIPLIER_NEWTON_H
#define MBDAE_MULTIPLIER_NEWTON_H

#include <sundials/sundials_context.h>
#include <sundials/sundials_matrix.h>

#include "engine_impl.h"

typedef struct mbdae_mult_newton mbdae_mult_newton;

/* On R's pattern (CSC, nr x nr) with is_mult[q] = 1 for a multiplier (an
 * algebraic unknown), 0 for a velocity: S's pattern and its KLU solver (the
 * options' ordering). NULL with *rc MBDAE_OK when R has no multiplier or no
 * velocity; NULL with an error status on failure (e->msg filled). */
mbdae_mult_newton *mbdae_mult_newton_create(mbdae_engine *e, SUNContext ctx, SUNMatrix R,
                                            const unsigned char *is_mult, int *rc);
/* Form S from R's values and factor it: 0; 1 when a diagonal entry of A is
 * zero or not finite or S's factorisation fails (then factor R itself);
 * < 0 on a fatal KLU error. */
int mbdae_mult_newton_setup(mbdae_mult_newton *m, SUNMatrix R);
/* x = P^-1 b, P = R with A's off-diagonal entries dropped, on the R of the
 * last successful setup (b, x of R's size; they may not alias) */
int mbdae_mult_newton_solve(mbdae_mult_newton *m, SUNMatrix R, const double *b, double *x);
/* unknowns of S */
int mbdae_mult_newton_size(const mbdae_mult_newton *m);
void mbdae_mult_newton_free(mbdae_mult_newton **m);

#endif
