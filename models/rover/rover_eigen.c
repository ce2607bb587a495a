/* rover/rover_eigen.c - eigenvalues of a small general real matrix, for the
 * linear stability of steady rolling: balancing, reduction to upper
 * Hessenberg form by stabilised elementary similarity transformations, and
 * the Francis double-shift QR iteration (the classic EISPACK balanc / elmhes
 * / hqr sequence). */
#include <math.h>

#include "rover/rover.h"

#define A_(i, j) a[(size_t)((i) - 1) * (size_t)n + (size_t)((j) - 1)]

static double sign_of(double a, double b) { return b >= 0 ? fabs(a) : -fabs(a); }

/* Bounded: a sweep repeats only while a row/column scale changes by a
 * power of two, which LAPACK's dgebal does within a few sweeps; with
 * entries near 1e308 the scaled sums overflowed and the sweeps never ended
 * (rover b_s = 1e308), so the caller refuses non-finite entries and the
 * sweeps and the power-of-two searches are capped. */
static void balance(int n, double *a) {
  const double radix = 2.0, sqrdx = 4.0;
  int done = 0;
  for (int sweep = 0; !done && sweep < 100; ++sweep) {
    done = 1;
    for (int i = 1; i <= n; ++i) {
      double r = 0, c = 0;
      for (int j = 1; j <= n; ++j)
        if (j != i) { c += fabs(A_(j, i)); r += fabs(A_(i, j)); }
      if (c != 0 && r != 0 && isfinite(c + r)) {
        double g = r / radix, f = 1, s = c + r;
        for (int k = 0; c < g && k < 1100; ++k) { f *= radix; c *= sqrdx; }
        g = r * radix;
        for (int k = 0; c > g && k < 1100; ++k) { f /= radix; c /= sqrdx; }
        if ((c + r) / f < 0.95 * s && isfinite(f) && f > 0) {
          done = 0;
          g = 1 / f;
          for (int j = 1; j <= n; ++j) A_(i, j) *= g;
          for (int j = 1; j <= n; ++j) A_(j, i) *= f;
        }
      }
    }
  }
}

static void hessenberg(int n, double *a) {
  for (int m = 2; m < n; ++m) {
    double x = 0;
    int i = m;
    for (int j = m; j <= n; ++j)
      if (fabs(A_(j, m - 1)) > fabs(x)) { x = A_(j, m - 1); i = j; }
    if (i != m) {
      for (int j = m - 1; j <= n; ++j) { double t = A_(i, j); A_(i, j) = A_(m, j); A_(m, j) = t; }
      for (int j = 1; j <= n; ++j) { double t = A_(j, i); A_(j, i) = A_(j, m); A_(j, m) = t; }
    }
    if (x != 0) {
      for (i = m + 1; i <= n; ++i) {
        double y = A_(i, m - 1);
        if (y != 0) {
          y /= x;
          A_(i, m - 1) = y;
          for (int j = m; j <= n; ++j) A_(i, j) -= y * A_(m, j);
          for (int j = 1; j <= n; ++j) A_(j, m) += y * A_(j, i);
        }
      }
    }
  }
  for (int i = 3; i <= n; ++i)
    for (int j = 1; j <= i - 2; ++j) A_(i, j) = 0;
}

int rover_eigenvalues(int n, double *a, double *wr_, double *wi_) {
  double *wr = wr_ - 1, *wi = wi_ - 1; /* 1-based views */
  if (n < 1) return -1;
  for (size_t k = 0; k < (size_t)n * (size_t)n; ++k)
    if (!isfinite(a[k])) return -1; /* no eigenvalues of inf/NaN entries */
  balance(n, a);
  hessenberg(n, a);
  double anorm = 0;
  for (int i = 1; i <= n; ++i)
    for (int j = (i > 1 ? i - 1 : 1); j <= n; ++j) anorm += fabs(A_(i, j));
  int nn = n, l = 1;
  double t = 0, p = 0, q = 0, r = 0, s, w, x, y, z;
  while (nn >= 1) {
    int its = 0;
    do {
      for (l = nn; l >= 2; --l) {
        s = fabs(A_(l - 1, l - 1)) + fabs(A_(l, l));
        if (s == 0) s = anorm;
        if (fabs(A_(l, l - 1)) + s == s) { A_(l, l - 1) = 0; break; }
      }
      x = A_(nn, nn);
      if (l == nn) {
        wr[nn] = x + t;
        wi[nn--] = 0;
      } else {
        y = A_(nn - 1, nn - 1);
        w = A_(nn, nn - 1) * A_(nn - 1, nn);
        if (l == nn - 1) {
          p = 0.5 * (y - x);
          q = p * p + w;
          z = sqrt(fabs(q));
          x += t;
          if (q >= 0) {
            z = p + sign_of(z, p);
            wr[nn - 1] = wr[nn] = x + z;
            if (z != 0) wr[nn] = x - w / z;
            wi[nn - 1] = wi[nn] = 0;
          } else {
            wr[nn - 1] = wr[nn] = x + p;
            wi[nn - 1] = -(wi[nn] = z);
          }
          nn -= 2;
        } else {
          int m;
          if (its == 60) return -1;
          if (its == 10 || its == 20 || its == 40) { /* exceptional shift */
            t += x;
            for (int i = 1; i <= nn; ++i) A_(i, i) -= x;
            s = fabs(A_(nn, nn - 1)) + fabs(A_(nn - 1, nn - 2));
            y = x = 0.75 * s;
            w = -0.4375 * s * s;
          }
          ++its;
          for (m = nn - 2; m >= l; --m) {
            z = A_(m, m);
            r = x - z;
            s = y - z;
            p = (r * s - w) / A_(m + 1, m) + A_(m, m + 1);
            q = A_(m + 1, m + 1) - z - r - s;
            r = A_(m + 2, m + 1);
            s = fabs(p) + fabs(q) + fabs(r);
            p /= s; q /= s; r /= s;
            if (m == l) break;
            double u = fabs(A_(m, m - 1)) * (fabs(q) + fabs(r));
            double v = fabs(p) * (fabs(A_(m - 1, m - 1)) + fabs(z) + fabs(A_(m + 1, m + 1)));
            if (u + v == v) break;
          }
          for (int i = m + 2; i <= nn; ++i) {
            A_(i, i - 2) = 0;
            if (i != m + 2) A_(i, i - 3) = 0;
          }
          for (int k = m; k <= nn - 1; ++k) {
            if (k != m) {
              p = A_(k, k - 1);
              q = A_(k + 1, k - 1);
              r = 0;
              if (k != nn - 1) r = A_(k + 2, k - 1);
              if ((x = fabs(p) + fabs(q) + fabs(r)) != 0) { p /= x; q /= x; r /= x; }
            }
            if ((s = sign_of(sqrt(p * p + q * q + r * r), p)) != 0) {
              if (k == m) {
                if (l != m) A_(k, k - 1) = -A_(k, k - 1);
              } else {
                A_(k, k - 1) = -s * x;
              }
              p += s;
              x = p / s; y = q / s; z = r / s;
              q /= p; r /= p;
              for (int j = k; j <= nn; ++j) {
                p = A_(k, j) + q * A_(k + 1, j);
                if (k != nn - 1) { p += r * A_(k + 2, j); A_(k + 2, j) -= p * z; }
                A_(k + 1, j) -= p * y;
                A_(k, j) -= p * x;
              }
              int mmin = nn < k + 3 ? nn : k + 3;
              for (int i = l; i <= mmin; ++i) {
                p = x * A_(i, k) + y * A_(i, k + 1);
                if (k != nn - 1) { p += z * A_(i, k + 2); A_(i, k + 2) -= p * r; }
                A_(i, k + 1) -= p * q;
                A_(i, k) -= p;
              }
            }
          }
        }
      }
    } while (l < nn - 1);
  }
  return 0;
}
