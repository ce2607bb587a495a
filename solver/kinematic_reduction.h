/* kinematic_reduction.h - solve K x = r through the Schur complement on K's
 * kinematic rows (q' - v = 0), for the KLU Newton systems of method arkode
 * on a DAE form (kinematic_reduction.c, doc/arkode.md). */
#ifndef MBDAE_KINEMATIC_REDUCTION_H
#define MBDAE_KINEMATIC_REDUCTION_H

#include <sundials/sundials_context.h>

#include "engine_impl.h"

typedef struct mbdae_kin_reduction mbdae_kin_reduction;

/* From the problem's sparse pattern and K's two parts at a first Jacobian
 * evaluation (Fy = K(0), Fyp = K(1) - K(0), nnz values each): the rows
 * among y[0..nd) that qualify, R's pattern and its KLU solver (the options'
 * ordering). NULL with *rc MBDAE_OK when no row qualifies; NULL with an
 * error status in *rc on failure (e->msg filled by KLU's creation). */
mbdae_kin_reduction *mbdae_kin_reduction_create(mbdae_engine *e, SUNContext ctx, int nd,
                                                const double *Fy, const double *Fyp, int *rc);
/* unknowns eliminated */
int mbdae_kin_reduction_rows(const mbdae_kin_reduction *r);
/* Form R from K's values Kv and factor it: 0; 1 when a pivot a_i is small
 * against its row's other entry or R's factorisation fails (then factor K
 * itself); < 0 on a fatal KLU error. */
int mbdae_kin_reduction_setup(mbdae_kin_reduction *r, const double *Kv);
/* x = K^-1 rhs (both of K's size) with the Kv of the last successful setup */
int mbdae_kin_reduction_solve(mbdae_kin_reduction *r, const double *Kv, const double *rhs,
                              double *x);
/* From now on solve R in its multipliers (the kept unknowns at index >= nd;
 * multiplier_newton.c): a modified Newton step where R's velocity block is
 * not diagonal. MBDAE_OK also when R does not allow it (then R is
 * factored); an error status on failure. */
int mbdae_kin_reduction_multiplier_newton(mbdae_kin_reduction *r, mbdae_engine *e,
                                          SUNContext ctx, int nd);
/* unknowns of the multiplier system (0: R is factored) */
int mbdae_kin_reduction_multiplier_unknowns(const mbdae_kin_reduction *r);
void mbdae_kin_reduction_free(mbdae_kin_reduction **r);

#endif
