/* compliant_cases.c - validation of the compliant laws against their closed
 * forms (models/compliant/, doc/compliant.md): a single Hunt-Crossley
 * impact of a point on a box face through net_capture's mode: compliant. */
#include <math.h>

#include "compliant/hunt_crossley.h"
#include "compliant_impact.h"
#include "mbdae/status.h"
#include "mbdae/validation.h"

static compliant_impact_setup base(mbdae_method method) {
  compliant_impact_setup s = {
    .point_mass = 0.01, .body_mass = 10.0, .k = 1e5, .p = 1.0, .e = 1.0, .v_ref = 1.0,
    .mu = 0.0, .v_eps = 0.01, .v_in = 1.0, .v_t = 0.0, .method = method, .rtol = 1e-10};
  return s;
}

/* undamped linear law: t_c = pi sqrt(mu/k), d_max = v sqrt(mu/k), e = 1 */
static int case_linear(mbdae_validation_report *rep) {
  const double pi = 3.14159265358979323846;
  compliant_impact_setup s = base(MBDAE_METHOD_IDA);
  compliant_impact_result r;
  int rc = compliant_impact_run(&s, &r);
  if (rc) return rc;
  double w = sqrt(r.reduced_mass / s.k);
  mbdae_validation_add(rep, "linear, undamped: contact duration pi sqrt(m/k) (s)", pi * w,
                       r.duration, 1e-6, 1);
  mbdae_validation_add(rep, "linear, undamped: deepest penetration v sqrt(m/k) (m)",
                       s.v_in * w, r.max_depth, 1e-6, 1);
  mbdae_validation_add(rep, "linear, undamped: restitution", 1.0, r.e, 1e-7, 0);
  return 0;
}

/* undamped Hertz law p = 3/2: d_max = (5 m v^2 / 4k)^(2/5),
 * t_c = (4/5) B(2/5, 1/2) d_max / v = 2.9432 d_max / v */
static int case_hertz(mbdae_validation_report *rep) {
  compliant_impact_setup s = base(MBDAE_METHOD_CVODE_BDF);
  s.p = 1.5;
  s.k = 3e6;
  compliant_impact_result r;
  int rc = compliant_impact_run(&s, &r);
  if (rc) return rc;
  double dm = pow(5.0 * r.reduced_mass * s.v_in * s.v_in / (4.0 * s.k), 0.4);
  double B = tgamma(0.4) * tgamma(0.5) / tgamma(0.9);
  mbdae_validation_add(rep, "Hertz, undamped: contact duration 0.8 B(2/5,1/2) d_max/v (s)",
                       0.8 * B * dm / s.v_in, r.duration, 1e-6, 1);
  mbdae_validation_add(rep, "Hertz, undamped: t_c v / d_max (2.9432)", 2.9432,
                       r.duration * s.v_in / dm, 1e-4, 1);
  mbdae_validation_add(rep, "Hertz, undamped: deepest penetration (m)", dm, r.max_depth, 1e-6, 1);
  mbdae_validation_add(rep, "Hertz, undamped: restitution", 1.0, r.e, 1e-7, 0);
  return 0;
}

/* damped Hertz law, e = 0.5 requested at v_ref = 1 m/s: exact at v_ref and
 * e(a v) at other speeds, x - ln(1 + x) = -e x - ln(1 - e x) */
static int case_damped(mbdae_validation_report *rep) {
  double speeds[3] = {1.0, 0.25, 3.0};
  const char *names[3] = {"damped Hertz: restitution at v_ref = 1 m/s (requested 0.5)",
                          "damped Hertz: restitution at 0.25 m/s (closed form e(a v))",
                          "damped Hertz: restitution at 3 m/s (closed form e(a v))"};
  double a = 0.0;
  int rc = hc_damping_for_restitution(0.5, 1.0, &a);
  if (rc) return rc;
  for (int i = 0; i < 3; ++i) {
    compliant_impact_setup s = base(i == 2 ? MBDAE_METHOD_RK4 : MBDAE_METHOD_IDA);
    s.p = 1.5;
    s.k = 3e6;
    s.e = 0.5;
    s.v_in = speeds[i];
    compliant_impact_result r;
    rc = compliant_impact_run(&s, &r);
    if (rc) return rc;
    mbdae_validation_add(rep, names[i], i == 0 ? 0.5 : hc_restitution(a * speeds[i]), r.e,
                         1e-6, 1);
  }
  return 0;
}

/* sliding throughout (v_t >> v_eps) on a heavy body: the tangential impulse
 * is mu times the normal one, dv_t = -mu (1 + e) v_in */
static int case_friction(mbdae_validation_report *rep) {
  compliant_impact_setup s = base(MBDAE_METHOD_IDA);
  s.body_mass = 1e9;
  s.p = 1.5;
  s.k = 3e6;
  s.e = 0.5;
  s.mu = 0.3;
  s.v_eps = 1e-5;
  s.v_t = 1.0;
  compliant_impact_result r;
  int rc = compliant_impact_run(&s, &r);
  if (rc) return rc;
  mbdae_validation_add(rep, "friction mu = 0.3, sliding: tangential velocity change (m/s)",
                       -s.mu * (1.0 + r.e) * s.v_in, r.dv_t, 1e-6, 1);
  mbdae_validation_add(rep, "friction mu = 0.3, sliding: restitution unchanged", 0.5, r.e,
                       1e-6, 1);
  return 0;
}

const mbdae_validation_case mbdae_validation_compliant[] = {
  {"compliant_impact_linear",
   "point on a box face, linear undamped compliant contact (ida): duration and depth against "
   "pi sqrt(m/k), v sqrt(m/k)", case_linear},
  {"compliant_impact_hertz",
   "point on a box face, Hertz p = 3/2 undamped (cvode-bdf, klu): duration 2.9432 d_max/v, "
   "depth (5 m v^2/4k)^(2/5)", case_hertz},
  {"compliant_impact_damped",
   "Hunt-Crossley damping from a requested restitution: e at v_ref and the closed form e(a v) "
   "at other speeds (ida, rk4)", case_damped},
  {"compliant_impact_friction",
   "regularised Coulomb friction, sliding impact: tangential impulse mu times normal (ida)",
   case_friction},
  {NULL, NULL, NULL}};
