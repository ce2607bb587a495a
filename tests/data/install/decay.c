/* decay.c - a tiny program built against an INSTALLED mbdae by
 * tests/test_install.c (through find_package and through pkg-config).
 * It integrates y' = -k y, y(0) = 1, stops at the root y = 1/2 and prints
 * the time, which the test compares with the closed form ln(2) / k. It also
 * looks up a model kind and the validation registry, so the library must
 * carry the engine, the models and the validation cases. It calls libm
 * (exp) and links no -lm of its own: mbdae's link interface (the CMake
 * target, `pkg-config --libs mbdae`) must pass it on. */
#include <math.h>
#include <stdio.h>

#include "mbdae/mbdae.h" /* the umbrella header: every public header compiles */

static const double k = 1.7;

static int rhs(double t, const double *y, double *f, void *user_data) {
  (void)t, (void)user_data;
  f[0] = -k * y[0];
  return 0;
}

static int half(double t, const double *y, const double *yp, double *g, void *user_data) {
  (void)t, (void)yp, (void)user_data;
  g[0] = y[0] - 0.5;
  return 0;
}

static int stop(double t, double *y, double *yp, const int *dirs, mbdae_event_info *info,
                void *user_data) {
  (void)y, (void)yp, (void)dirs;
  *(double *)user_data = t;
  info->label = "half";
  return MBDAE_EVENT_STOP;
}

int main(void) {
  double t_half = -1.0;
  mbdae_problem *p = mbdae_problem_create(1, MBDAE_FORM_ODE);
  if (!p) return 1;
  int rc = mbdae_problem_set_user_data(p, &t_half);
  if (!rc) rc = mbdae_problem_set_rhs(p, rhs);
  if (!rc) rc = mbdae_problem_set_roots(p, 1, half);
  if (!rc) rc = mbdae_problem_set_event_handler(p, stop);
  mbdae_options o;
  mbdae_options_default(&o);
  o.method = MBDAE_METHOD_CVODE_BDF;
  o.t_end = 2.0;
  o.rtol = 1e-11;
  o.atol = 1e-13;
  double y = 1.0;
  mbdae_stats st;
  char msg[256] = "";
  if (!rc) rc = mbdae_run(p, &o, &y, NULL, &st, msg, sizeof msg);
  mbdae_problem_free(&p);
  printf("status %s\n", mbdae_status_name(rc));
  printf("t_half %.15g\n", t_half);
  printf("k %.15g\n", k);
  printf("y(t_half) %.15g\n", exp(-k * t_half)); /* 1/2 */
  printf("model bouncing_ball %s\n", mbdae_model_kind_find("bouncing_ball") ? "found" : "missing");
  printf("validation tables %s\n", mbdae_validation_tables[0] ? "found" : "missing");
  return rc == MBDAE_STOPPED ? 0 : 1;
}
