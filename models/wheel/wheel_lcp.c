/* wheel_lcp.c - the small contact problems of the wheel, solved exactly by
 * enumerating the finite set of contact states (separate, stick, slip +/-)
 * per contact and keeping the first combination whose linear system has a
 * solution satisfying every inequality of the Signorini-Coulomb law.
 *
 * The same structure serves the acceleration level (eqs. 12, 20-25: z are
 * forces, w accelerations a_n, a_t), the plastic collision (eqs. 15, 31-33:
 * z impulses, w post-impact velocities v_n+, v_t+) and, with the normal
 * impulses fixed, the restitution phase (eqs. 16, 35: friction impulses with
 * Coulomb's law at the final velocity). */
#include <math.h>
#include <string.h>

#include "wheel/wheel.h"

enum { NZ = 2 * WHEEL_NC };
enum { WHEEL_OFF = -1 }; /* a contact not involved: z = 0, no inequality */

/* Solve A z = rhs (n x n, row-major, destroyed) with full pivoting. A
 * consistent system of rank n - 1 gives the particular solution with the
 * free variable 0 in z and a null vector in nullv (*rank = n - 1).
 * Returns 0 if solved (rank n or consistent rank n - 1), else 1. */
static int solve_full_pivot(int n, double *A, double *rhs, double *z,
                            double *nullv, int *rank) {
  int col[NZ];
  double amax = 0.0, bmax = 0.0;
  for (int i = 0; i < n; ++i) {
    col[i] = i;
    bmax = fmax(bmax, fabs(rhs[i]));
    for (int j = 0; j < n; ++j) amax = fmax(amax, fabs(A[i * n + j]));
  }
  if (amax == 0.0) return 1;
  double ptol = 1e-11 * amax;
  int r = 0;
  for (; r < n; ++r) {
    int pi = r, pj = r;
    double best = 0.0;
    for (int i = r; i < n; ++i)
      for (int j = r; j < n; ++j)
        if (fabs(A[i * n + j]) > best) { best = fabs(A[i * n + j]); pi = i; pj = j; }
    if (best <= ptol) break;
    if (pi != r) {
      for (int j = 0; j < n; ++j) {
        double t = A[r * n + j]; A[r * n + j] = A[pi * n + j]; A[pi * n + j] = t;
      }
      double t = rhs[r]; rhs[r] = rhs[pi]; rhs[pi] = t;
    }
    if (pj != r) {
      for (int i = 0; i < n; ++i) {
        double t = A[i * n + r]; A[i * n + r] = A[i * n + pj]; A[i * n + pj] = t;
      }
      int t = col[r]; col[r] = col[pj]; col[pj] = t;
    }
    for (int i = r + 1; i < n; ++i) {
      double f = A[i * n + r] / A[r * n + r];
      if (f == 0.0) continue;
      for (int j = r; j < n; ++j) A[i * n + j] -= f * A[r * n + j];
      rhs[i] -= f * rhs[r];
    }
  }
  *rank = r;
  if (r < n - 1) return 1;
  if (r == n - 1 && fabs(rhs[n - 1]) > 1e-9 * (bmax + 1e-300)) return 1;
  double u[NZ], v[NZ];
  for (int i = n - 1; i >= 0; --i) {
    if (i >= r) { u[i] = 0.0; v[i] = 1.0; continue; }
    double su = rhs[i], sv = 0.0;
    for (int j = i + 1; j < n; ++j) {
      su -= A[i * n + j] * u[j];
      sv -= A[i * n + j] * v[j];
    }
    u[i] = su / A[i * n + i];
    v[i] = sv / A[i * n + i];
  }
  for (int i = 0; i < n; ++i) {
    z[col[i]] = u[i];
    nullv[col[i]] = r < n ? v[i] : 0.0;
  }
  return 0;
}

/* Inequalities of a combination as affine functions c(z) >= 0. */
static int constraints(const double *W, const double *b, double mu,
                       const int *state, const int *sliding, int fixed_normal,
                       const double *z,
                       double ztol, double wtol, double *c) {
  double w[NZ];
  for (int i = 0; i < NZ; ++i) {
    w[i] = b[i];
    for (int j = 0; j < NZ; ++j) w[i] += W[i * NZ + j] * z[j];
  }
  int nc = 0;
  for (int k = 0; k < WHEEL_NC; ++k) {
    double N = z[k], T = z[WHEEL_NC + k];
    double wn = w[k], wt = w[WHEEL_NC + k];
    switch (state[k]) {
    case WHEEL_OFF:
      break;
    case WHEEL_SEP:
      if (!fixed_normal) c[nc++] = wn + wtol; /* separation: w_n >= 0 */
      break;
    case WHEEL_STICK: /* |T| <= mu N */
      if (!fixed_normal) c[nc++] = N + ztol;
      c[nc++] = mu * N - T + ztol;
      c[nc++] = mu * N + T + ztol;
      break;
    default: { /* slip with T = -mu sigma N: sigma w_t >= 0 */
      double sigma = state[k] == WHEEL_SLIP_POS ? 1.0 : -1.0;
      if (!fixed_normal) c[nc++] = N + ztol;
      if (!sliding[k]) c[nc++] = sigma * wt + wtol;
      break;
    }
    }
  }
  return nc;
}

/* Build and solve the linear system of one combination; on success z holds
 * a solution satisfying every inequality. */
static int try_case(const double *W, const double *b, double mu,
                    const int *state, const int *sliding, const double *Nfix, double ztol,
                    double wtol, double *z) {
  double A[NZ * NZ], rhs[NZ], nullv[NZ];
  memset(A, 0, sizeof A);
  for (int k = 0; k < WHEEL_NC; ++k) {
    int rn = k, rt = WHEEL_NC + k;
    if (Nfix) { /* restitution phase: N = N* given */
      A[rn * NZ + k] = 1.0;
      rhs[rn] = Nfix[k];
    } else if (state[k] <= WHEEL_SEP) {
      A[rn * NZ + k] = 1.0;
      rhs[rn] = 0.0;
    } else { /* the contact holds: w_n = 0 */
      for (int j = 0; j < NZ; ++j) A[rn * NZ + j] = W[rn * NZ + j];
      rhs[rn] = -b[rn];
    }
    if (state[k] <= WHEEL_SEP) {
      A[rt * NZ + rt] = 1.0;
      rhs[rt] = 0.0;
    } else if (state[k] == WHEEL_STICK) { /* w_t = 0 */
      for (int j = 0; j < NZ; ++j) A[rt * NZ + j] = W[rt * NZ + j];
      rhs[rt] = -b[rt];
    } else { /* T + mu sigma N = 0 (eqs. 12b, 22a with the unit tangent) */
      double sigma = state[k] == WHEEL_SLIP_POS ? 1.0 : -1.0;
      A[rt * NZ + rt] = 1.0;
      A[rt * NZ + k] = mu * sigma;
      rhs[rt] = 0.0;
    }
  }
  int rank = 0;
  if (solve_full_pivot(NZ, A, rhs, z, nullv, &rank)) return 1;
  double c0[4 * WHEEL_NC], c1[4 * WHEEL_NC], z1[NZ];
  int fixed = Nfix != NULL;
  int nc = constraints(W, b, mu, state, sliding, fixed, z, ztol, wtol, c0);
  if (rank == NZ) {
    for (int i = 0; i < nc; ++i)
      if (c0[i] < 0.0) return 1;
    return 0;
  }
  /* statically indeterminate (e.g. both contacts sticking at a corner):
   * z = z0 + s d; keep the feasible s closest to 0 */
  for (int i = 0; i < NZ; ++i) z1[i] = z[i] + nullv[i];
  constraints(W, b, mu, state, sliding, fixed, z1, ztol, wtol, c1);
  double lo = -HUGE_VAL, hi = HUGE_VAL;
  for (int i = 0; i < nc; ++i) {
    double slope = c1[i] - c0[i];
    if (fabs(slope) < 1e-15 * (fabs(c0[i]) + 1.0)) {
      if (c0[i] < 0.0) return 1;
    } else if (slope > 0.0) {
      lo = fmax(lo, -c0[i] / slope);
    } else {
      hi = fmin(hi, -c0[i] / slope);
    }
  }
  if (lo > hi) return 1;
  double s = 0.0 < lo ? lo : (0.0 > hi ? hi : 0.0);
  for (int i = 0; i < NZ; ++i) z[i] += s * nullv[i];
  return 0;
}

static int enumerate(const double *W, const double *b, double mu,
                     const int *allowed, const double *Nfix, double ztol,
                     double wtol, wheel_lcp_result *res) {
  int opts[WHEEL_NC][4], nopt[WHEEL_NC], sliding[WHEEL_NC], total = 1;
  for (int k = 0; k < WHEEL_NC; ++k) {
    sliding[k] = (allowed[k] & WHEEL_SLIDING) != 0;
    nopt[k] = 0;
    /* at a tie (the friction cone's boundary, where the stick root fires)
     * slip wins: stick is tried last */
    static const int order[4] = {WHEEL_SEP, WHEEL_SLIP_POS, WHEEL_SLIP_NEG,
                                 WHEEL_STICK};
    for (int s = 0; s < 4; ++s)
      if (allowed[k] & WHEEL_ALLOW(order[s])) opts[k][nopt[k]++] = order[s];
    if (nopt[k] == 0) opts[k][nopt[k]++] = WHEEL_OFF; /* not involved */
    total *= nopt[k];
  }
  memset(res, 0, sizeof *res);
  int found = 0;
  for (int c = 0; c < total; ++c) {
    int state[WHEEL_NC], rem = c;
    /* the first contact varies slowest, so SEP of contact 0 is tried first */
    for (int k = WHEEL_NC - 1; k >= 0; --k) {
      state[k] = opts[k][rem % nopt[k]];
      rem /= nopt[k];
    }
    double z[NZ];
    res->cases++;
    if (try_case(W, b, mu, state, sliding, Nfix, ztol, wtol, z)) continue;
    res->nsol++;
    if (!found) {
      found = 1;
      memcpy(res->z, z, sizeof z);
      for (int k = 0; k < WHEEL_NC; ++k)
        res->state[k] = state[k] == WHEEL_OFF ? WHEEL_SEP : state[k];
    }
  }
  return found ? 0 : 1;
}

int wheel_lcp_solve(const double *W, const double *b, double mu,
                    const int *allowed, double ztol, double wtol,
                    wheel_lcp_result *res) {
  return enumerate(W, b, mu, allowed, NULL, ztol, wtol, res);
}

int wheel_friction_solve(const double *W, const double *b, double mu,
                         const double *Nfix, double ztol, double wtol,
                         wheel_lcp_result *res) {
  int allowed[WHEEL_NC];
  for (int k = 0; k < WHEEL_NC; ++k)
    allowed[k] = Nfix[k] > 0.0 ? WHEEL_ALLOW(WHEEL_STICK) |
                                   WHEEL_ALLOW(WHEEL_SLIP_POS) |
                                   WHEEL_ALLOW(WHEEL_SLIP_NEG)
                               : 0;
  return enumerate(W, b, mu, allowed, Nfix, ztol, wtol, res);
}
