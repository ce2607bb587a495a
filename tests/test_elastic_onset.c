/* test_elastic_onset.c - the C2 onset of the elastic thread's tension
 * (compliant/elastic_thread.h, onset h > 0) against its closed form: the
 * plain law beyond h, no tension below -h, the ramp phi inside; the elastic
 * energy's derivative is the elastic tension; the dissipation is T - k phi
 * times the rate; the tension and its first two derivatives in the stretch
 * are continuous where the plain law's derivative jumps. */
#include <math.h>
#include <stdio.h>

#include "compliant/elastic_thread.h"
#include "testutil.h"

static const double L = 2.0, EA = 2e5, ETA = 4e6, H = 1e-4;

/* a thread along x stretched by delta, extending at rate */
static double tension_at(const elastic_thread *th, double delta, double rate, double *Td,
                         double *diss) {
  double S[3] = {L + delta, 0.0, 0.0}, W[3] = {rate, 0.0, 0.0}, f[3], dS[9], dW[9];
  double T = elastic_thread_force(th, S, W, f, dS, dW, diss);
  *Td = -dS[0]; /* f_x = -T along x: dT/ddelta */
  return T;
}

static double energy_at(const elastic_thread *th, double delta) {
  double S[3] = {L + delta, 0.0, 0.0};
  return elastic_thread_energy(th, S);
}

/* phi by its closed form (elastic_thread.h) */
static double phi_of(double delta) {
  if (delta <= -H) return 0.0;
  if (delta >= H) return delta;
  double x = (delta + H) / (2.0 * H);
  return 2.0 * H * (x * x * x - 0.5 * x * x * x * x);
}

static void test_law(void) {
  elastic_thread plain = {L, EA, ETA, 0.0}, smooth = {L, EA, ETA, H};
  double k = EA / L, a = ETA / (EA * L), rate = 3e-3, Td, Tdp, diss, dissp;
  /* beyond h: the plain law, bit for bit in T */
  for (double d = H; d < 1e-2; d *= 3.0) {
    double T = tension_at(&smooth, d, rate, &Td, &diss);
    double Tp = tension_at(&plain, d, rate, &Tdp, &dissp);
    CU_ASSERT_EQUAL(T, Tp);
    MBDAE_ASSERT_REL(Td, Tdp, 1e-14);
    MBDAE_ASSERT_REL(diss, dissp, 1e-12);
  }
  /* below -h: nothing */
  CU_ASSERT_EQUAL(tension_at(&smooth, -1.0001 * H, rate, &Td, &diss), 0.0);
  CU_ASSERT_EQUAL(energy_at(&smooth, -1.0001 * H), 0.0);
  /* inside: T = k phi (1 + a rate), D = (T - k phi) rate, dE/ddelta = k phi */
  for (int i = 1; i < 20; ++i) {
    double d = -H + 2.0 * H * i / 20.0, e = 1e-4 * H;
    d = (L + d) - L; /* the stretch the thread sees */
    double T = tension_at(&smooth, d, rate, &Td, &diss);
    MBDAE_ASSERT_REL(T, k * phi_of(d) * (1.0 + a * rate), 1e-12);
    MBDAE_ASSERT_REL(diss, (T - k * phi_of(d)) * rate, 1e-9);
    double dE = (energy_at(&smooth, d + e) - energy_at(&smooth, d - e)) / (2.0 * e);
    MBDAE_ASSERT_REL(dE, k * phi_of(d), 1e-6);
    double dT = (tension_at(&smooth, d + e, rate, &Tdp, &dissp) -
                 tension_at(&smooth, d - e, rate, &Tdp, &dissp)) / (2.0 * e);
    MBDAE_ASSERT_REL(Td, dT, 1e-6);
  }
  /* the energy beyond h joins: dE/ddelta = k delta */
  double e = 1e-4 * H, d = 1.5 * H;
  MBDAE_ASSERT_REL((energy_at(&smooth, d + e) - energy_at(&smooth, d - e)) / (2.0 * e), k * d, 1e-6);
}

/* T, T' and T'' continuous at -h and h; the plain law's T' jumps at 0 */
static void test_smoothness(void) {
  elastic_thread plain = {L, EA, ETA, 0.0}, smooth = {L, EA, ETA, H};
  double rate = 3e-3, e = 1e-7 * H, Td1, Td2, Td3, Td4, diss;
  const double ends[2] = {-H, H};
  for (int j = 0; j < 2; ++j) {
    double c = ends[j];
    double Tl = tension_at(&smooth, c - e, rate, &Td1, &diss);
    double Tr = tension_at(&smooth, c + e, rate, &Td2, &diss);
    double scale = EA / L * (1.0 + ETA / (EA * L) * rate);
    CU_ASSERT(fabs(Tl - Tr) < 1e-5 * scale * H);
    CU_ASSERT(fabs(Td1 - Td2) < 1e-5 * scale);
    /* second derivative from each side, by differences of T' over h/100 */
    double s = 1e-2 * H;
    tension_at(&smooth, c - e - s, rate, &Td3, &diss);
    tension_at(&smooth, c + e + s, rate, &Td4, &diss);
    double left = (Td1 - Td3) / s, right = (Td4 - Td2) / s;
    double inner = 3.0 / H * scale; /* |T''| inside is up to 1.5 k / h */
    printf("\n  at %+g h: T'' %.3g from the left, %.3g from the right (inside up to %.3g)",
           c / H, left, right, inner / 2.0);
    CU_ASSERT(fabs(left - right) < 0.05 * inner);
  }
  tension_at(&plain, -e, rate, &Td1, &diss);
  tension_at(&plain, e, rate, &Td2, &diss);
  CU_ASSERT_EQUAL(Td1, 0.0);
  MBDAE_ASSERT_REL(Td2, EA / L * (1.0 + ETA / (EA * L) * rate), 1e-6);
}

int main(void) {
  static const mbdae_test tests[] = {
    {"elastic onset: the law, its energy and dissipation", test_law},
    {"elastic onset: continuous tension and two derivatives", test_smoothness},
    {NULL, NULL}};
  return mbdae_test_main("elastic_onset", tests);
}
