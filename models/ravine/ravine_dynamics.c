/* ravine_dynamics.c - equations of motion of the sphere in flight (hartl
 * eqs. 2.82-2.84), sliding and rolling on a plane (ch. 3, written for any
 * slope and in 3D) and pivoting over a convex corner (the same contact
 * equations with the normal turning about the edge). Derivations in
 * doc/ravine.md, sec. "Contact dynamics".
 *
 * The expressions are evaluated on forward-mode dual numbers so the same
 * code yields the right-hand side and its exact Jacobian df/dy. */
#include <math.h>
#include <string.h>

#include "ravine/ravine.h"

#define RV_N 9

typedef struct { double v; double d[RV_N]; } dn;

static _Thread_local int rv_nd; /* derivative components carried (0 or 9) */

static dn cst(double v) { dn r; r.v = v; memset(r.d, 0, sizeof r.d); return r; }
static dn var(double v, int i) { dn r = cst(v); if (rv_nd) r.d[i] = 1.0; return r; }
static dn add(dn a, dn b) { a.v += b.v; for (int i = 0; i < rv_nd; ++i) a.d[i] += b.d[i]; return a; }
static dn sub(dn a, dn b) { a.v -= b.v; for (int i = 0; i < rv_nd; ++i) a.d[i] -= b.d[i]; return a; }
static dn scl(dn a, double s) { a.v *= s; for (int i = 0; i < rv_nd; ++i) a.d[i] *= s; return a; }
static dn mul(dn a, dn b) {
  dn r; r.v = a.v * b.v;
  for (int i = 0; i < rv_nd; ++i) r.d[i] = a.d[i] * b.v + a.v * b.d[i];
  for (int i = rv_nd; i < RV_N; ++i) r.d[i] = 0.0;
  return r;
}
static dn dvd(dn a, dn b) {
  dn r; r.v = a.v / b.v;
  for (int i = 0; i < rv_nd; ++i) r.d[i] = (a.d[i] - r.v * b.d[i]) / b.v;
  for (int i = rv_nd; i < RV_N; ++i) r.d[i] = 0.0;
  return r;
}
static dn sqr(dn a) {
  dn r; r.v = sqrt(a.v);
  for (int i = 0; i < rv_nd; ++i) r.d[i] = r.v > 0.0 ? 0.5 * a.d[i] / r.v : 0.0;
  for (int i = rv_nd; i < RV_N; ++i) r.d[i] = 0.0;
  return r;
}

void ravine_contact_frame(const ravine_terrain *T, const ravine_contact *c,
                          double b, const double *y, double n[3], double t[3],
                          double *gap) {
  int k = c->feature;
  if (c->vertex) {
    double rx = y[0] - T->vx[k], ry = y[1] - T->vy[k];
    double r = hypot(rx, ry);
    n[0] = rx / r; n[1] = ry / r;
    if (gap) *gap = r - b;
  } else {
    n[0] = T->nx[k]; n[1] = T->ny[k];
    if (gap) *gap = (y[0] - T->vx[k]) * n[0] + (y[1] - T->vy[k]) * n[1] - b;
  }
  n[2] = 0.0;
  t[0] = n[1]; t[1] = -n[0]; t[2] = 0.0; /* t = n x z */
}

void ravine_dynamics(const ravine_sphere *s, double g, const ravine_terrain *T,
                     const ravine_contact *c, double lambda, const double *y,
                     double *out, double *jac, double *Nout, double Fout[3],
                     double slipout[3]) {
  rv_nd = jac ? RV_N : 0;
  dn Y[RV_N];
  for (int i = 0; i < RV_N; ++i) Y[i] = var(y[i], i);
  dn f[RV_N];
  /* dc/dt = v */
  for (int i = 0; i < 3; ++i) f[i] = Y[3 + i];
  const double gv[3] = {0.0, -g, 0.0};
  if (c->mode == RAVINE_FLIGHT) { /* hartl eqs. 2.82-2.84 */
    for (int i = 0; i < 3; ++i) { f[3 + i] = cst(gv[i]); f[6 + i] = cst(0.0); }
    if (Nout) *Nout = 0.0;
    if (Fout) Fout[0] = Fout[1] = Fout[2] = 0.0;
    if (slipout) slipout[0] = slipout[1] = slipout[2] = 0.0;
  } else {
    const double b = s->b, m = s->m, J = s->J;
    const int k = c->feature;
    dn n[3], t[3], gap, kappa;
    if (c->vertex) { /* normal through the edge: n = (c - V)/|c - V| */
      dn rx = sub(Y[0], cst(T->vx[k])), ry = sub(Y[1], cst(T->vy[k]));
      dn r = sqr(add(mul(rx, rx), mul(ry, ry)));
      n[0] = dvd(rx, r); n[1] = dvd(ry, r);
      gap = sub(r, cst(b));
      kappa = dvd(cst(1.0), r);
    } else {
      n[0] = cst(T->nx[k]); n[1] = cst(T->ny[k]);
      gap = sub(add(mul(sub(Y[0], cst(T->vx[k])), n[0]),
                    mul(sub(Y[1], cst(T->vy[k])), n[1])), cst(b));
      kappa = cst(0.0);
    }
    n[2] = cst(0.0);
    t[0] = n[1]; t[1] = scl(n[0], -1.0); t[2] = cst(0.0);
    const dn *v = Y + 3, *w = Y + 6;
    dn vn = add(mul(v[0], n[0]), mul(v[1], n[1]));
    dn vt = add(mul(v[0], t[0]), mul(v[1], t[1]));
    /* normal: gap'' = a.n + kappa vt^2 = -2 lambda gap' - lambda^2 gap */
    dn an = sub(sub(scl(mul(kappa, mul(vt, vt)), -1.0), scl(vn, 2.0 * lambda)),
                scl(gap, lambda * lambda));
    dn N = scl(add(an, scl(n[1], g)), m); /* N = m (a.n - g.n) */
    /* slip of the contact point P = c - b n: s = v + omega x (-b n) */
    dn wxn[3] = {sub(mul(w[1], n[2]), mul(w[2], n[1])),
                 sub(mul(w[2], n[0]), mul(w[0], n[2])),
                 sub(mul(w[0], n[1]), mul(w[1], n[0]))};
    dn sl[3];
    for (int i = 0; i < 3; ++i) sl[i] = sub(v[i], scl(wxn[i], b));
    /* tangential part: components along t and z */
    dn st = add(mul(sl[0], t[0]), mul(sl[1], t[1]));
    dn sz = sl[2];
    dn Ft, Fz;
    if (c->mode == RAVINE_ROLL) {
      /* d/dt(slip) = 0: F (1/m + b^2/J) = -P[g] + b kappa vt P[omega x t]
       * - lambda slip (drift control); P[omega x t] = (wx ty - wy tx) z */
      double k1 = 1.0 / m + b * b / J;
      dn gt = add(scl(t[0], gv[0]), scl(t[1], gv[1]));
      dn wt = sub(mul(w[0], t[1]), mul(w[1], t[0]));
      Ft = scl(add(scl(gt, -1.0), scl(st, -lambda)), 1.0 / k1);
      Fz = scl(sub(scl(mul(kappa, mul(vt, wt)), b), scl(sz, lambda)), 1.0 / k1);
    } else { /* kinetic friction opposing the slip (hartl eqs. 3.2, 3.10, 3.20) */
      dn smag = sqr(add(mul(st, st), mul(sz, sz)));
      double sm = smag.v;
      double scale = 1e-12 * (1.0 + fabs(y[3]) + fabs(y[4]) + fabs(y[5]) +
                              b * (fabs(y[6]) + fabs(y[7]) + fabs(y[8])));
      /* the direction of the mode's slip is kept until the slip root has
       * been handled: the right-hand side stays smooth through slip = 0 */
      double along = st.v * (c->sref[0] * t[0].v + c->sref[1] * t[1].v) + sz.v * c->sref[2];
      if (sm > scale && along > 0.0) {
        Ft = scl(dvd(mul(N, st), smag), -s->mu_k);
        Fz = scl(dvd(mul(N, sz), smag), -s->mu_k);
      } else { /* slip ~ 0: the reference direction */
        double ref_t = c->sref[0] * t[0].v + c->sref[1] * t[1].v;
        Ft = scl(N, -s->mu_k * ref_t);
        Fz = scl(N, -s->mu_k * c->sref[2]);
      }
    }
    dn F[3] = {mul(Ft, t[0]), mul(Ft, t[1]), Fz};
    for (int i = 0; i < 3; ++i)
      f[3 + i] = add(scl(add(mul(N, n[i]), F[i]), 1.0 / m), cst(gv[i]));
    /* J alpha = (-b n) x F */
    dn nxF[3] = {sub(mul(n[1], F[2]), mul(n[2], F[1])),
                 sub(mul(n[2], F[0]), mul(n[0], F[2])),
                 sub(mul(n[0], F[1]), mul(n[1], F[0]))};
    for (int i = 0; i < 3; ++i) f[6 + i] = scl(nxF[i], -b / J);
    if (Nout) *Nout = N.v;
    if (Fout) for (int i = 0; i < 3; ++i) Fout[i] = F[i].v;
    if (slipout) {
      slipout[0] = st.v * t[0].v;
      slipout[1] = st.v * t[1].v;
      slipout[2] = sz.v;
    }
  }
  for (int i = 0; i < RV_N; ++i) out[i] = f[i].v;
  if (jac)
    for (int j = 0; j < RV_N; ++j)
      for (int i = 0; i < RV_N; ++i) jac[j * RV_N + i] = f[i].d[j];
}
