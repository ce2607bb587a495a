/* compliant/elastic_thread.h - a massless elastic thread between two points
 * that only pulls (Kelvin-Voigt-like, with Hunt-Crossley damping so the
 * tension is continuous where the thread goes slack).
 *
 * With S = x_head - x_tail, W = v_head - v_tail, u = S/|S|, the stretch
 * delta = |S| - L and its rate delta' = u.W, strain eps = delta / L:
 *     T = max(0, EA eps + eta eps eps')        (delta > 0), T = 0 otherwise,
 * i.e. the law of hunt_crossley.h with k = EA/L, p = 1, a = eta/(EA L).
 * The damping is proportional to the stretch, so T -> 0 as delta -> 0 at any
 * rate: slack/taut is a kink, not a jump, and needs no event. The clamp at
 * T = 0 (a thread retracting faster than L EA/eta per unit strain) is the
 * second kink. The force on the head is -T u, on the tail +T u.
 *
 * Energy: elastic EA delta^2 / (2L) (delta > 0). Power dissipated (>= 0):
 *     D = (T - EA delta / L) delta'   (delta > 0; 0 when slack),
 * EA a delta delta'^2 / L while unclamped, -EA delta delta' / L > 0 when
 * clamped: d/dt(kinetic + elastic) = (work of other forces) - D exactly.
 *
 * A thread snapping taut at relative speed v (free flight on both sides)
 * rebounds with the restitution hc_restitution(a v) = e((eta/EA) v/L).
 *
 * C2 onset (onset = h > 0): delta is replaced by phi(delta), max(0, delta)
 * smoothed over |delta| < h by a symmetric kernel, so phi = 0 for
 * delta <= -h, phi = delta for delta >= h and, with x = (delta + h)/(2h),
 *     phi' = 3x^2 - 2x^3,  phi = 2h (x^3 - x^4/2)     (|delta| < h):
 *     T = max(0, (EA/L) phi (1 + a delta')),
 * C2 in delta where the thread goes slack (the plain law is only C0 there:
 * its derivative jumps from 0 to EA/L). Elastic energy (EA/L) Phi with
 * Phi = int phi = 4h^2 (x^4/4 - x^5/10) inside, delta^2/2 + h^2/10 beyond,
 * and D = (T - (EA/L) phi) delta', so the ledger stays exact. The law
 * differs from the plain one only within h of the rest length (tension at
 * most (EA/L) h/2 more there). */
#ifndef MBDAE_COMPLIANT_ELASTIC_THREAD_H
#define MBDAE_COMPLIANT_ELASTIC_THREAD_H

typedef struct elastic_thread {
  double L;   /* rest length, m (> 0) */
  double ea;  /* axial stiffness E A, N (> 0) */
  double eta; /* damping, N s (T = EA eps + eta eps eps'), >= 0 */
  double onset; /* m, >= 0; 0: the law above. > 0: a C2 onset of width 2 onset
                   about the rest length, see below */
} elastic_thread;

/* Tension at (S, W); f (may be NULL) the force on the head; dfdS, dfdW
 * (row-major 3x3, may be NULL) its derivatives; diss (may be NULL) the power
 * dissipated. Returns T (N). */
double elastic_thread_force(const elastic_thread *th, const double S[3], const double W[3],
                            double f[3], double dfdS[9], double dfdW[9], double *diss);

/* Elastic energy EA delta^2/(2L) of the thread at S (J). */
double elastic_thread_energy(const elastic_thread *th, const double S[3]);

/* Power dissipated at (S, W) and its derivatives with respect to S and W
 * (3 each, may be NULL). */
double elastic_thread_dissipation(const elastic_thread *th, const double S[3],
                                  const double W[3], double dDdS[3], double dDdW[3]);

#endif
