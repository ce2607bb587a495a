/* mass_factor.h - the iteration matrix W = M(q) (+ h theta terms) of a
 * one-step nonsmooth problem, prepared for solves: when W is diagonal its
 * entries are gathered and checked positive, otherwise KLU factorises it
 * numerically on its symbolic analysis. Shared by the frictionless solver
 * (nonsmooth.c) and the frictional one (friction.c). */
#ifndef MBDAE_MASS_FACTOR_H
#define MBDAE_MASS_FACTOR_H

#include <stddef.h>

#include <klu.h>

/* The pattern of W (CSC wp, wi, nnz entries), analysed once when a solver is
 * created: *w_diag (W is diagonal when it has nv entries), wdpos[j] = position
 * of W_jj (-1 if absent) and, unless diagonal, KLU's symbolic analysis into
 * *wsym after klu_defaults(common). Returns 0, or -1 with a one-line message. */
int ns_mass_analyse(int nv, int *wp, int *wi, int *wdpos, int *w_diag, klu_symbolic **wsym,
                    klu_common *common, char *msg, size_t msglen);

/* W in CSC (wp, wi, Wx); wdpos[j] = position of W_jj in Wx. Fills
 * wdiag[0..nv) and, unless w_diag, replaces *wnum. Returns 0, or -2 with a
 * one-line message when W is singular or a diagonal entry is not positive. */
int ns_mass_factor(int nv, int w_diag, int *wp, int *wi, const int *wdpos, const double *Wx,
                   klu_symbolic *wsym, klu_numeric **wnum, klu_common *common, double *wdiag,
                   char *msg, size_t msglen);

#endif
