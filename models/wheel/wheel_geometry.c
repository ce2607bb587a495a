/* wheel_geometry.c - the admissible set Omega of the wheel centre (eqs. 3-5)
 * as three obstacles (wall, curb, ground), their gaps, unit normals and unit
 * tangents (eq. 26 with the unit tangent), and the Delassus operator. */
#include <math.h>

#include "wheel/wheel.h"

void wheel_geometry(const wheel_params *p, double *l1, double *a) {
  /* eq. (4b): l1 = l - r, a = sqrt(r^2 - (r - h)^2) */
  *l1 = p->l - p->r;
  *a = sqrt(p->r * p->r - (p->r - p->h) * (p->r - p->h));
}

const char *wheel_segment_name(int seg) {
  switch (seg) {
  case WHEEL_SEG_I: return "I";
  case WHEEL_SEG_II: return "II";
  case WHEEL_SEG_III: return "III";
  case WHEEL_SEG_IV: return "IV";
  default: return "-";
  }
}

/* Distance from (x, y) to the curb block {0 <= x <= l1, y <= h}
 * (negative inside); its value minus r is Phi's constraint y >= f(x) on III
 * and y >= h + r on II (eq. 4a). */
static double curb_distance(double l1, double h, double x, double y) {
  double dx = x - l1, dy = y - h;
  if (dx <= 0.0) return dy >= 0.0 ? dy : -fmin(-dy, -dx);
  if (dy <= 0.0) return dx;
  return sqrt(dx * dx + dy * dy);
}

void wheel_frame_eval(const wheel_params *p, int k, double x, double y,
                      int seg_hint, wheel_frame *f) {
  double l1 = p->l - p->r;
  f->kappa = 0.0;
  switch (k) {
  case WHEEL_WALL: /* segment I: x >= r */
    f->seg = WHEEL_SEG_I;
    f->gap = x - p->r;
    f->n[0] = 1.0;
    f->n[1] = 0.0;
    break;
  case WHEEL_GROUND: /* segment IV: y >= r */
    f->seg = WHEEL_SEG_IV;
    f->gap = y - p->r;
    f->n[0] = 0.0;
    f->n[1] = 1.0;
    break;
  default: { /* the curb: top face (II) or corner C = (l1, h) (III) */
    f->gap = curb_distance(l1, p->h, x, y) - p->r;
    int seg = seg_hint ? seg_hint : (x > l1 ? WHEEL_SEG_III : WHEEL_SEG_II);
    double dx = x - l1, dy = y - p->h, rho = sqrt(dx * dx + dy * dy);
    f->seg = seg;
    if (seg == WHEEL_SEG_III && dy > 0.0 && rho > 0.0) {
      /* unit normal (S - C)/|S - C| = G_III/|G_III| of eq. (26c) */
      f->n[0] = dx / rho;
      f->n[1] = dy / rho;
      f->kappa = 1.0 / rho;
    } else {
      f->n[0] = 0.0;
      f->n[1] = 1.0;
    }
    break;
  }
  }
  /* unit tangent: n turned clockwise; v_t = t . v + r phid */
  f->t[0] = f->n[1];
  f->t[1] = -f->n[0];
}

double wheel_min_gap(const wheel_params *p, double x, double y) {
  double gmin = HUGE_VAL;
  for (int k = 0; k < WHEEL_NC; ++k) {
    wheel_frame f;
    wheel_frame_eval(p, k, x, y, 0, &f);
    if (f.gap < gmin) gmin = f.gap;
  }
  return gmin;
}

void wheel_delassus(const wheel_params *p, const wheel_frame *f, double *W) {
  double d[2 * WHEEL_NC][3];
  for (int k = 0; k < WHEEL_NC; ++k) {
    d[k][0] = f[k].n[0];
    d[k][1] = f[k].n[1];
    d[k][2] = 0.0;
    d[WHEEL_NC + k][0] = f[k].t[0];
    d[WHEEL_NC + k][1] = f[k].t[1];
    d[WHEEL_NC + k][2] = p->r;
  }
  for (int i = 0; i < 2 * WHEEL_NC; ++i)
    for (int j = 0; j < 2 * WHEEL_NC; ++j)
      W[i * 2 * WHEEL_NC + j] = (d[i][0] * d[j][0] + d[i][1] * d[j][1]) / p->m +
                                d[i][2] * d[j][2] / p->J;
}
