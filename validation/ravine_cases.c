/* ravine_cases.c - validation of the ravine model (hartl 2006) against
 * closed forms computed here, independently of the model code. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/validation.h"
#include "ravine_sim.h"

static const double RV_DEG = 3.14159265358979323846 / 180.0;

static int rolling_incline(mbdae_validation_report *rep) {
  /* hartl eq. 3.16 for any J: a = g sin(theta) / (1 + J/(m b^2)) */
  static const double ratios[3] = {0.1, 0.4, 2.0 / 3.0};
  double pts[4];
  for (int i = 0; i < 3; ++i) {
    ravine_params p;
    ravine_sim_default_params(&p);
    double th = 15.0 * RV_DEG;
    pts[0] = -1000.0; pts[1] = 1000.0 * tan(th); pts[2] = 1000.0; pts[3] = -1000.0 * tan(th);
    p.terrain = 1; p.points = pts; p.npoints = 2; p.stop_on_rebound = 0;
    p.J_ratio = ratios[i]; p.speed = 0.0; p.g = 3.71;
    ravine_sim *s = malloc(sizeof *s);
    if (!s) return -1;
    double T = 4.0;
    int rc = ravine_sim_run(&p, MBDAE_METHOD_CVODE_ADAMS, T, 0, s);
    double vt = s->y[3] * cos(th) - s->y[4] * sin(th);
    free(s);
    if (rc) return rc;
    char q[96];
    snprintf(q, sizeof q, "rolling a [m/s^2], J/(m b^2) = %.3g", ratios[i]);
    mbdae_validation_add(rep, q, p.g * sin(th) / (1.0 + ratios[i]), vt / T, 1e-8, 1);
  }
  return 0;
}

static int slide_to_roll(mbdae_validation_report *rep) {
  /* hartl eqs. 3.2-3.3: slip v + b omega_z decays at mu' g (1 + m b^2/J) */
  double pts[4] = {-1000.0, 0.0, 1000.0, 0.0};
  ravine_params p;
  ravine_sim_default_params(&p);
  p.terrain = 1; p.points = pts; p.npoints = 2; p.stop_on_rebound = 0;
  p.start = 1; p.b = 2.0; p.J_ratio = 0.4; p.mu = 1.0; p.mu_k = 0.8; p.g = 3.71;
  memset(p.q, 0, sizeof p.q);
  memset(p.u, 0, sizeof p.u);
  double v0 = 6.0, w0 = 1.0; /* backspin */
  p.q[1] = p.b; p.u[3] = v0; p.u[2] = w0;
  double k = p.J_ratio, s0 = v0 + p.b * w0;
  double ts = s0 / (p.mu_k * p.g * (1.0 + 1.0 / k));
  double vs = v0 - p.mu_k * p.g * ts;
  ravine_sim *s = malloc(sizeof *s);
  if (!s) return -1;
  int rc = ravine_sim_run(&p, MBDAE_METHOD_CVODE_ADAMS, 2.0 * ts, 0, s);
  double t_on = NAN, v_on = NAN;
  for (int i = 0; i < s->nevents; ++i)
    if (strcmp(s->ev[i].label, "roll-onset") == 0) { t_on = s->ev[i].t; v_on = s->ev[i].y[3]; }
  free(s);
  if (rc) return rc;
  mbdae_validation_add(rep, "slide->roll time [s]", ts, t_on, 1e-7, 1);
  mbdae_validation_add(rep, "slide->roll speed [m/s]", vs, v_on, 1e-7, 1);
  return 0;
}

static int kane_impacts(mbdae_validation_report *rep) {
  /* one stick and one slip impact, compared with hartl's closed forms
   * (2.59-2.65 and 2.74-2.81, recomputed here) */
  ravine_sphere s = {2.0, 3.0, 0.3 * 3.0 * 4.0, 0.7, 0.9, 0.72};
  double m = s.m, b = s.b, J = s.J;
  double us[6] = {0.1, 0.2, -1.4, 3.0, -2.0, 0.3}, w[6], S[3];
  int r = ravine_kane_impact(&s, us, w, S);
  mbdae_validation_add(rep, "stick impact classified no-slip", 1.0, r, 0.0, 0);
  double u3 = (J * us[2] - m * b * us[3]) / (m * b * b + J);
  double u1 = (J * us[0] + m * b * us[5]) / (m * b * b + J);
  mbdae_validation_add(rep, "stick u3(t2) (2.59) [rad/s]", u3, w[2], 1e-13, 1);
  mbdae_validation_add(rep, "stick u4(t2) (2.60) [m/s]", -b * u3, w[3], 1e-13, 1);
  mbdae_validation_add(rep, "stick u1(t2) (2.64) [rad/s]", u1, w[0], 1e-13, 1);
  mbdae_validation_add(rep, "stick u6(t2) (2.65) [m/s]", b * u1, w[5], 1e-13, 1);
  mbdae_validation_add(rep, "stick u5(t2) (2.46) [m/s]", -s.e * us[4], w[4], 1e-13, 1);
  double ul[6] = {0.2, 0.0, 2.5, 4.0, -1.0, -0.8};
  r = ravine_kane_impact(&s, ul, w, S);
  mbdae_validation_add(rep, "slip impact classified slip", 0.0, r, 0.0, 0);
  double S2 = -m * (1 + s.e) * ul[4];
  double a1 = ul[3] + b * ul[2], g1 = ul[5] - b * ul[0];
  double S1 = -s.mu_k * fabs(S2) * (a1 > 0 ? 1 : -1) / sqrt(1 + (g1 / a1) * (g1 / a1));
  double S3 = g1 / a1 * S1;
  mbdae_validation_add(rep, "slip S1 (2.81) [N s]", S1, S[0], 1e-12, 1);
  mbdae_validation_add(rep, "slip S3 (2.80) [N s]", S3, S[2], 1e-12, 1);
  mbdae_validation_add(rep, "slip u3(t2) (2.69) [rad/s]", ul[2] + b * S1 / J, w[2], 1e-12, 1);
  mbdae_validation_add(rep, "slip u4(t2) (2.70) [m/s]", ul[3] + S1 / m, w[3], 1e-12, 1);
  mbdae_validation_add(rep, "slip u1(t2) (2.68) [rad/s]", ul[0] - b * S3 / J, w[0], 1e-12, 1);
  mbdae_validation_add(rep, "slip u6(t2) (2.71) [m/s]", ul[5] + S3 / m, w[5], 1e-12, 1);
  /* the boundary (2.53): |alpha1| = k1 mu m (1 + e)|u5| in 2D */
  double k1 = 1.0 / m + b * b / J, u5 = -1.5;
  double ab = k1 * s.mu * m * (1 + s.e) * fabs(u5);
  double lo[6] = {0, 0, 0, ab * (1 - 1e-8), u5, 0}, hi[6] = {0, 0, 0, ab * (1 + 1e-8), u5, 0};
  mbdae_validation_add(rep, "just inside the cone: no slip", 1.0, ravine_kane_impact(&s, lo, w, S), 0.0, 0);
  mbdae_validation_add(rep, "just outside the cone: slip", 0.0, ravine_kane_impact(&s, hi, w, S), 0.0, 0);
  return 0;
}

static int bounce_accumulation(mbdae_validation_report *rep) {
  /* vertical drop on flat ground: t_k = t1 + (2 v1/g) sum_{j<k} e^j, the
   * limit t1 + 2 e v1 / (g (1 - e)); the Zeno rule stops at the first
   * separation below v_stop = max(v_rest, sqrt(2 g RAVINE_GAP_RESOLUTION b))
   * (here the second, 2.7e-3 m/s: a hop below the gap resolution), within
   * 2 v_stop/(g (1 - e)) of it */
  double pts[4] = {-10.0, 0.0, 10.0, 0.0};
  ravine_params p;
  ravine_sim_default_params(&p);
  p.terrain = 1; p.points = pts; p.npoints = 2; p.stop_on_rebound = 0;
  p.start = 1; p.b = 1.0; p.e = 0.9; p.g = 3.71; p.v_rest = 1e-3;
  memset(p.q, 0, sizeof p.q);
  memset(p.u, 0, sizeof p.u);
  double h0 = 1.0;
  p.q[1] = p.b + h0;
  double t1 = sqrt(2 * h0 / p.g), v1 = sqrt(2 * p.g * h0);
  double tinf = t1 + 2 * p.e * v1 / (p.g * (1 - p.e));
  ravine_sim *s = malloc(sizeof *s);
  if (!s) return -1;
  int rc = ravine_sim_run(&p, MBDAE_METHOD_CVODE_ADAMS, tinf + 1.0, 0, s);
  double t5 = NAN, trest = NAN;
  int n = 0;
  for (int i = 0; i < s->nevents; ++i) {
    if (strncmp(s->ev[i].label, "impact", 6) != 0) continue;
    if (++n == 5) t5 = s->ev[i].t;
    if (strcmp(s->ev[i].mode_after, "roll") == 0) trest = s->ev[i].t;
  }
  free(s);
  if (rc) return rc;
  double ref5 = t1 + 2 * v1 / p.g * (p.e + p.e * p.e + p.e * p.e * p.e + pow(p.e, 4));
  mbdae_validation_add(rep, "5th impact time [s]", ref5, t5, 1e-8, 1);
  double v_stop = fmax(p.v_rest, sqrt(2 * p.g * RAVINE_GAP_RESOLUTION * p.b));
  mbdae_validation_add(rep, "rest time vs accumulation time [s]", tinf, trest,
                       2 * v_stop / (p.g * (1 - p.e)), 0);
  mbdae_validation_add(rep, "number of impacts",
                       ceil(log(v_stop / v1) / log(p.e)), n, 1.0, 0);
  return 0;
}

const mbdae_validation_case mbdae_validation_ravine[] = {
  {"ravine_rolling_incline", "rolling down a slope: a = g sin(th)/(1 + J/(m b^2)) (hartl 3.16)",
   rolling_incline},
  {"ravine_slide_to_roll", "sliding with backspin on flat ground until rolling (hartl 3.2-3.3)",
   slide_to_roll},
  {"ravine_kane_impacts", "Kane impact: no slip (2.59-2.65), slip (2.74-2.81), boundary (2.53)",
   kane_impacts},
  {"ravine_bounce_accumulation", "bouncing on a plane: impact times and the accumulation time",
   bounce_accumulation},
  {NULL, NULL, NULL},
};
