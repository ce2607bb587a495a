/* impact.c - Kane-Levinson impact with a moving boundary (appendix of
 * hartl-miller-mazzoleni), planar. Frame: c2 = n (into the billiard),
 * c3 = n3 (out of the plane), c1 = c2 x c3, so the contact point P = centre
 * - b c2 moves with v^P = (u4 + b u3) c1 + u5 c2 (eq. 18). */
#include "billiard/impact.h"

#include <math.h>

int billiard_impact(const billiard_impact_in *in, billiard_impact_out *out) {
  double c1x = in->ny, c1y = -in->nx; /* c1 = c2 x n3 */
  double u4 = in->vx * c1x + in->vy * c1y;
  double u5 = in->vx * in->nx + in->vy * in->ny;
  double u4b = in->bx * c1x + in->by * c1y; /* u4' */
  double u5b = in->bx * in->nx + in->by * in->ny; /* u5' */
  int rot = in->b > 0.0 && in->J > 0.0; /* a point particle does not spin */
  double u3 = in->w;

  /* eq. 29: normal relative velocity reversed and scaled by e */
  double u5n = -in->e * u5 + (1.0 + in->e) * u5b;
  if (u5n - u5b < in->vn_min) u5n = u5b + in->vn_min; /* Zeno floor (model option) */
  double S2 = in->m * (u5n - u5); /* eq. 36 */

  /* eq. 38: slip of P relative to the boundary; eq. 40: k */
  double alpha = u4 + (rot ? in->b * u3 : 0.0) - u4b;
  double k = 1.0 / in->m + (rot ? in->b * in->b / in->J : 0.0);
  double S1 = 0.0;
  int stick = 0;
  if (in->friction) {
    S1 = -alpha / k; /* no slip at t2 (eqs. 30-31, 35) */
    if (fabs(S1) < in->mu * fabs(S2)) {
      stick = 1; /* inequality 34 */
    } else {
      /* eq. 41 (gamma = 0): kinetic friction opposes the approach slip;
       * since mu_k |S2| < |alpha| / k the slip does not reverse, so this is
       * also eq. 27's direction (opposite the separation slip). */
      S1 = alpha > 0.0 ? -in->mu_k * fabs(S2)
                       : (alpha < 0.0 ? in->mu_k * fabs(S2) : 0.0);
    }
  }
  double u4n = u4 + S1 / in->m;                    /* eq. 45 */
  double u3n = rot ? u3 + in->b * S1 / in->J : u3; /* eq. 44 */

  out->u4 = u4n;
  out->u5 = u5n;
  out->vx = u4n * c1x + u5n * in->nx;
  out->vy = u4n * c1y + u5n * in->ny;
  out->w = u3n;
  out->S1 = S1;
  out->S2 = S2;
  out->vn_rel = u5 - u5b;
  out->slip_rel = alpha;
  out->stick = stick;
  return 0;
}
