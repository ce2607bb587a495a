/* ns_border.h - solves with a symmetric matrix that differs from a
 * factorised one (ns_factor.h) by a few added and removed rows and columns, without
 * factorising it (a bordered system solved through its capacitance matrix,
 * the Schur complement of the border).
 *
 * The base M_B (n x n, symmetric) is factorised. A border of k columns u_p
 * (sparse over the base's n unknowns) and a k x k symmetric block V make
 *     [ M_B   U ] [ x ]   [ f ]
 *     [ U^T   V ] [ y ] = [ g ]
 * which is solved as
 *     S = V - U^T M_B^-1 U   (k x k, dense LU with partial pivoting),
 *     t = M_B^-1 f,   y = S^-1 (g - U^T t),   x = t - Z y,   Z = M_B^-1 U.
 * An added row a of a larger symmetric matrix M is a column u = M_{B,a} with
 * V holding M_{aa'} of the added rows; a removed base unknown r is the unit
 * column u = e_r with zero V and g = 0, which forces x_r = 0 and frees
 * equation r (its multiplier is y's entry): x is then the solution of the
 * principal submatrix without r. The columns Z are solved once per border
 * column and kept (slots) until the next rebase, so an iteration that adds
 * and drops a few rows per iterate pays a solve per new row, not a
 * factorisation. */
#ifndef MBDAE_NS_BORDER_H
#define MBDAE_NS_BORDER_H

#include "ns_factor.h"

typedef struct ns_border ns_border;

/* Room for slots border columns kept at once and borders of up to k_max
 * columns (the kept columns' storage, slots x n, follows the base's n at
 * each rebase). NULL when out of memory. */
ns_border *ns_border_create(int slots, int k_max);
void ns_border_free(ns_border **b);

/* A new base (n unknowns, factorised by fac, borrowed: its factor must
 * stay valid until the next rebase): drops every kept column. Returns 0,
 * or -1 when out of memory (then every ns_border_add fails until a rebase
 * succeeds). */
int ns_border_rebase(ns_border *b, int n, ns_factor *fac);

/* The slot of the border column named id, or -1 if it is not kept. */
int ns_border_find(const ns_border *b, int id);

/* Keep the border column u (nnz entries idx[], val[] over the base's
 * unknowns, no index repeated) under the name id; M_B z = u is solved by the
 * next ns_border_prepare, with every other new column at once. Returns its
 * slot, or -1 when every slot is taken (rebase). */
int ns_border_add(ns_border *b, int id, int nnz, const int *idx, const double *val);

/* The border of the k columns in slots[] with the block V (k x k, column
 * major): solves the new columns, forms S and factorises it. Returns 0, -1
 * if k > k_max, -2 if the base's solve fails or S is singular or not finite. */
int ns_border_prepare(ns_border *b, int k, const int *slots, const double *V);

/* Solve the prepared bordered system: f (n) holds the base's right-hand side
 * on entry and x on return, g (k) holds the border's right-hand side on entry
 * and y on return. Returns 0, or -2 when the base's solve fails. */
int ns_border_apply(ns_border *b, double *f, double *g);

/* ns_border_apply with f already solved by the base (on entry M_B^-1 f, on
 * return x): a border that changes while the base's right-hand side does not
 * (the iterates of one nonsmooth solve) reuses the base's own solution
 * instead of a solve per iterate. */
void ns_border_apply_solved(ns_border *b, double *f, double *g);

#endif
