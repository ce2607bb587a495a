/* wheel/wheel_dual.h - forward-mode dual numbers with four derivative
 * components, (x, y, xd, yd): the exact Jacobian of the contact-mode
 * right-hand side is obtained by evaluating it once in this arithmetic
 * (automatic differentiation, no finite differences). */
#ifndef MBDAE_MODELS_WHEEL_DUAL_H
#define MBDAE_MODELS_WHEEL_DUAL_H

#include <math.h>

enum { WD_N = 4 };
typedef struct wd { double v, d[WD_N]; } wd;

static inline wd wd_const(double c) {
  wd r = {c, {0.0, 0.0, 0.0, 0.0}};
  return r;
}
static inline wd wd_var(double c, int i) {
  wd r = wd_const(c);
  r.d[i] = 1.0;
  return r;
}
static inline wd wd_add(wd a, wd b) {
  wd r = {a.v + b.v, {0}};
  for (int i = 0; i < WD_N; ++i) r.d[i] = a.d[i] + b.d[i];
  return r;
}
static inline wd wd_sub(wd a, wd b) {
  wd r = {a.v - b.v, {0}};
  for (int i = 0; i < WD_N; ++i) r.d[i] = a.d[i] - b.d[i];
  return r;
}
static inline wd wd_mul(wd a, wd b) {
  wd r = {a.v * b.v, {0}};
  for (int i = 0; i < WD_N; ++i) r.d[i] = a.d[i] * b.v + a.v * b.d[i];
  return r;
}
static inline wd wd_scale(wd a, double s) {
  wd r = {a.v * s, {0}};
  for (int i = 0; i < WD_N; ++i) r.d[i] = a.d[i] * s;
  return r;
}
static inline wd wd_div(wd a, wd b) {
  wd r = {a.v / b.v, {0}};
  for (int i = 0; i < WD_N; ++i) r.d[i] = (a.d[i] - r.v * b.d[i]) / b.v;
  return r;
}
static inline wd wd_sqrt(wd a) {
  wd r = {sqrt(a.v), {0}};
  for (int i = 0; i < WD_N; ++i) r.d[i] = a.d[i] / (2.0 * r.v);
  return r;
}
static inline wd wd_neg(wd a) { return wd_scale(a, -1.0); }

#endif
