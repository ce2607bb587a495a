/* impact.h - Kane-Levinson impact of a sphere with a moving rigid boundary,
 * planar case (hartl-miller-mazzoleni appendix, eqs. 15-46, with u1 = u6 =
 * u6' = S3 = 0). */
#ifndef BILLIARD_IMPACT_H
#define BILLIARD_IMPACT_H

typedef struct billiard_impact_in {
  double m, J, b;        /* mass, moment of inertia, radius (b = 0: point) */
  double e;              /* restitution on the normal relative velocity (eq. 24) */
  double mu, mu_k;       /* static and kinetic friction (eqs. 25, 27) */
  int friction;          /* 0: frictionless (S1 = 0) */
  double nx, ny;         /* c2: unit normal into the billiard */
  double vx, vy;         /* centre velocity before (lab frame) */
  double w;              /* spin u3 about c3 = n3 before (counter-clockwise +) */
  double bx, by;         /* boundary velocity v' at the contact (eq. 17) */
  double vn_min;         /* least normal separation speed (0: none), a Zeno floor */
} billiard_impact_in;

typedef struct billiard_impact_out {
  double vx, vy, w;      /* after */
  double u4, u5;         /* tangential / normal centre velocity after (c-frame) */
  double S1, S2;         /* tangential / normal impulse (eqs. 35-36, 41) */
  double vn_rel;         /* normal relative velocity before (u5 - u5') */
  double slip_rel;       /* alpha, tangential slip velocity before (eq. 38) */
  int stick;             /* 1: no slip at t2 (inequality 34 held) */
} billiard_impact_out;

/* Apply the impact map; returns 0 (the law has no failure modes). */
int billiard_impact(const billiard_impact_in *in, billiard_impact_out *out);

#endif
