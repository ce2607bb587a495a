/* compliant/hunt_crossley.h - the Hunt-Crossley compliant law in one
 * dimension, shared by the compliant point-polytope contact (net_capture),
 * the elastic threads (string_net, net_capture) and the tethered tow.
 *
 * For a penetration (or stretch) d > 0 and its rate v = d':
 *     f(d, v) = max(0, k d^p (1 + a v)),        f = 0 for d <= 0,
 * (Hunt & Crossley 1975: damping k a d^p v proportional to the elastic
 * force), continuous at d = 0 whatever v, so onset is a kink, not a jump.
 *
 * Restitution. For a mass m hitting at approach speed v_in > 0, the motion
 * while d > 0 obeys m v dv/dd = -k d^p (1 + a v), whose first integral
 *     (m / a^2) [a v - ln(1 + a v)] + k d^(p+1) / (p + 1) = const
 * gives, at the exit (d = 0, v = -e v_in), with x = a v_in:
 *     x - ln(1 + x) = -e x - ln(1 - e x),
 * so e depends on x = a v_in alone: not on k, p or m. The clamp never acts
 * in such an impact (1 + a v stays > 0: the left side would diverge).
 * hc_restitution(x) evaluates e(x); hc_damping_for_restitution inverts it
 * for a requested e at a stated reference speed v_ref (a = x(e) / v_ref),
 * so e is exact at v_ref and rises towards 1 for slower impacts.
 *
 * Undamped duration (a = 0): d_max = ((p+1) m v_in^2 / (2k))^(1/(p+1)) and
 *     T = 2 (d_max / v_in) B(1/(p+1), 1/2) / (p+1),
 * pi sqrt(m/k) for p = 1 and 2.9432 d_max / v_in for Hertz's p = 3/2.
 *
 * No I/O here (layer rule). */
#ifndef MBDAE_COMPLIANT_HUNT_CROSSLEY_H
#define MBDAE_COMPLIANT_HUNT_CROSSLEY_H

typedef struct hc_law {
  double k; /* stiffness, N/m^p (> 0) */
  double p; /* exponent (>= 1: 1 linear, 1.5 Hertz) */
  double a; /* damping per unit elastic force, s/m (>= 0) */
} hc_law;

/* f(d, v); dfd = df/dd, dfv = df/dv (0 where f is clamped or d <= 0; either
 * may be NULL). */
double hc_force(const hc_law *law, double d, double v, double *dfd, double *dfv);

/* Elastic energy k d^(p+1)/(p+1) for d > 0, else 0 (J). */
double hc_energy(const hc_law *law, double d);

/* e(x) of an impact with x = a v_in >= 0 (1 at x = 0; in (0, 1] for every
 * finite x). Returns a negative value for x < 0 or non-finite x. */
double hc_restitution(double x);

/* a = x(e) / v_ref with e(x) = e: e in (0, 1], v_ref > 0. 0, or
 * MBDAE_ERR_ARGUMENT (e outside (0, 1], v_ref <= 0) or MBDAE_ERR_SOLVER (no
 * bracket: e below what x = 1e12 gives). */
int hc_damping_for_restitution(double e, double v_ref, double *a);

/* Undamped impact of mass m at speed v_in: the deepest penetration and the
 * contact duration (closed forms above). */
double hc_undamped_max_depth(double k, double p, double m, double v_in);
double hc_undamped_duration(double k, double p, double m, double v_in);

#endif
