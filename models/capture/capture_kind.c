/* capture_kind.c - the `net_capture` model kind: schema, output columns,
 * outcomes and plots of the net capturing a tumbling polytope. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "capture/capture_internal.h"
#include "capture/capture_mechanics.h"
#include "mbdae/status.h"
#include "polytope/rigid_body.h"

#define D(key_, field_, flags_, def_, min_, max_, unit_, doc_)                    \
  {key_, MBDAE_PARAM_DOUBLE, offsetof(capture_params, field_), flags_, def_, min_, \
   max_, 0, NULL, 0, unit_, doc_}
#define I(key_, field_, def_, min_, max_, doc_)                                    \
  {key_, MBDAE_PARAM_INT, offsetof(capture_params, field_), 0, def_, min_, max_, 0, \
   NULL, 0, "-", doc_}
#define V(key_, field_, len_, def_, unit_, doc_)                                   \
  {key_, MBDAE_PARAM_VEC, offsetof(capture_params, field_), 0, def_, -HUGE_VAL,    \
   HUGE_VAL, len_, NULL, 0, unit_, doc_}
#define E(key_, field_, choices_, doc_)                                            \
  {key_, MBDAE_PARAM_ENUM, offsetof(capture_params, field_), 0, 0, 0, 0, 0,        \
   choices_, 0, "-", doc_}
#define B(key_, field_, def_, doc_)                                                \
  {key_, MBDAE_PARAM_BOOL, offsetof(capture_params, field_), 0, def_, 0, 1, 0,     \
   NULL, 0, "-", doc_}

static const char *const mode_choices[] = {"event", "baumgarte", "compliant", NULL};
static const char *const switching_choices[] = {"located", "state", NULL};
static const char *const forces_choices[] = {"bilateral", "unilateral", NULL};
static const char *const shape_choices[] = {"prism", "box", "vertices", NULL};
static const char *const control_choices[] = {"none", "min_thrust", "error_stabilization", NULL};

static const mbdae_param_spec specs[] = {
  E("mode", mode, mode_choices,
    "event: impacts, persistent contact, release; baumgarte: stabilised constraints (eq. "
    "3.2); compliant: elastic threads (EA, string_damping) and Hunt-Crossley contact"),
  E("switching", switching, switching_choices,
    "baumgarte mode: located (every switch on a root, re-initialised) or state (the seed's "
    "method: active sets and faces from the state at every evaluation, no events)"),
  E("baumgarte_forces", forces, forces_choices,
    "baumgarte mode: bilateral (the seed's eq. 3.1: an active string may push, a contact "
    "pull) or unilateral (a string only pulls, a contact only pushes)"),
  I("rows", rows, 10, 1, 100, "net rows"),
  I("cols", cols, 10, 1, 100, "net columns"),
  D("spacing", spacing, MBDAE_PARAM_MIN_OPEN, 0.4, 0.0, HUGE_VAL, "m", "string length"),
  D("point_mass", point_mass, MBDAE_PARAM_MIN_OPEN, 0.01, 0.0, HUGE_VAL, "kg", "mass of each net point"),
  V("launch_point", launch_point, 3, 0.0, "m", "all points start here"),
  {"launch_velocity", MBDAE_PARAM_VEC, offsetof(capture_params, launch_velocity),
   MBDAE_PARAM_REQUIRED, 0.0, -HUGE_VAL, HUGE_VAL, 3, NULL, 0, "m/s",
   "common launch velocity (the net spreads in the x-y plane)"},
  D("deploy_time", deploy_time, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0, HUGE_VAL, "s",
    "spreading velocities make every string taut at this time"),
  B("strings", strings_on, 1, "0: free points without strings"),
  E("shape", shape, shape_choices, "body shape: prism (sec. 3.4.1), box or a vertex list"),
  I("prism_sides", prism_sides, 8, 3, 32, "N of the N-gonal prism"),
  D("prism_radius", prism_radius, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0, HUGE_VAL, "m", "circumradius of the prism's polygon"),
  D("prism_length", prism_length, MBDAE_PARAM_MIN_OPEN, 2.0, 0.0, HUGE_VAL, "m", "prism length"),
  V("box_size", box_size, 3, 1.0, "m", "box edge lengths"),
  {"vertices", MBDAE_PARAM_TABLE, offsetof(capture_params, vertices), 0, 0, -HUGE_VAL,
   HUGE_VAL, 3, NULL, offsetof(capture_params, nvertices), "m",
   "body vertices (shape: vertices), relative to the centre of mass if inertia is given"},
  D("body_mass", body_mass, 0, 10.0, -HUGE_VAL, HUGE_VAL, "kg", "body mass (> 0)"),
  B("inertia_given", inertia_given, 0, "1: use `inertia`, else uniform density"),
  V("inertia", inertia, 9, 0.0, "kg m^2", "inertia tensor about the centre of mass, body axes, row-major"),
  V("body_position", body_position, 3, 0.0, "m", "centre of mass"),
  V("body_velocity", body_velocity, 3, 0.0, "m/s", "centre-of-mass velocity"),
  V("body_attitude", body_attitude, 4, 0.0, "-", "quaternion (scalar first), body -> inertial; all zero: identity"),
  V("body_omega", body_omega, 3, 0.0, "rad/s", "angular velocity in body axes"),
  D("e_string", e_string, 0, 0.0, 0.0, 1.0, "-", "restitution of a string going taut (event mode)"),
  D("e_body", e_body, 0, 0.5, 0.0, 1.0, "-", "restitution of a point hitting the body (event mode)"),
  B("release_held", release_held, 0,
    "event mode: impacts release held constraints that would take an adhesive impulse "
    "(complementarity; many more events in nets)"),
  D("stick_velocity", stick_velocity, 0, 1e-3, 0.0, HUGE_VAL, "m/s",
    "Zeno rule: a rebound slower than this becomes persistent contact"),
  D("release_force", release_force, MBDAE_PARAM_MIN_OPEN, 1e-9, 0.0, HUGE_VAL, "N",
    "event mode: a held string or contact is released when its force passes 0 by this"),
  D("xi_string", xi_string, 0, 0.5, 0.0, HUGE_VAL, "-", "Baumgarte damping ratio, strings"),
  D("omega_string", omega_string, 0, 10.0, 0.0, HUGE_VAL, "1/s", "Baumgarte frequency, strings"),
  D("xi_body", xi_body, 0, 0.5, 0.0, HUGE_VAL, "-", "Baumgarte damping ratio, body"),
  D("omega_body", omega_body, 0, 10.0, 0.0, HUGE_VAL, "1/s", "Baumgarte frequency, body"),
  E("control", control, control_choices, "thrust law (ch. 4)"),
  D("control_tf", control_tf, 0, 1.0, 0.0, HUGE_VAL, "s", "t_f of the minimum-thrust law"),
  V("target_center", target_center, 3, 0.0, "m", "centre of the extended net at t_f (R_f)"),
  V("target_velocity", target_velocity, 3, 0.0, "m/s", "V_f"),
  D("zeta", zeta, 0, 1.0, 0.0, HUGE_VAL, "-", "error-stabilisation damping ratio (eq. 4.33)"),
  D("omega_n", omega_n, 0, 1.0, 0.0, HUGE_VAL, "1/s", "error-stabilisation frequency (eq. 4.33)"),
  D("control_t_end", control_t_end, 0, 0.0, 0.0, HUGE_VAL, "s", "thrust off after this time (0: t_f / never)"),
  D("EA", string_ea, MBDAE_PARAM_MIN_OPEN, 5.5e4, 0.0, HUGE_VAL, "N",
    "mode compliant: axial stiffness E A of every thread (default: 1 mm Kevlar 29, "
    "E = 70.5 GPa)"),
  D("string_damping", string_damping, 0, 0.0, 0.0, HUGE_VAL, "N s",
    "mode compliant: thread damping eta, T = EA eps + eta eps eps' (tension only)"),
  D("contact_stiffness", contact_stiffness, MBDAE_PARAM_MIN_OPEN, 1e5, 0.0, HUGE_VAL, "N/m^p",
    "mode compliant: k of the Hunt-Crossley normal force k d^p (1 + a d')"),
  D("contact_exponent", contact_exponent, 0, 1.5, 1.0, 3.0, "-",
    "mode compliant: p (1 linear, 1.5 Hertz)"),
  D("contact_restitution", contact_restitution, MBDAE_PARAM_MIN_OPEN, 0.5, 0.0, 1.0, "-",
    "mode compliant: restitution of a normal impact at contact_reference_velocity (sets a)"),
  D("contact_reference_velocity", contact_reference_velocity, MBDAE_PARAM_MIN_OPEN, 1.0, 0.0,
    HUGE_VAL, "m/s", "mode compliant: impact speed at which contact_restitution holds"),
  D("friction", friction, 0, 0.0, 0.0, HUGE_VAL, "-",
    "Coulomb coefficient at the contacts: mode compliant (regularised), mode event under "
    "solver.method moreau (exact cone)"),
  D("friction_velocity", friction_velocity, MBDAE_PARAM_MIN_OPEN, 0.01, 0.0, HUGE_VAL, "m/s",
    "mode compliant: regularisation velocity of friction (viscous below it)"),
};

static int kind_check(const void *params, mbdae_param_error *err) {
  return capture_params_check(params, err);
}

static int kind_create(const void *params, mbdae_options *o, mbdae_model **model,
                       mbdae_param_error *err) {
  if (!params || !o || !model) return MBDAE_ERR_ARGUMENT;
  capture_model *m = NULL;
  int rc;
  const capture_params *cp = params;
  if (o->method != MBDAE_METHOD_RK4 && cp->mode == CAPTURE_MODE_BAUMGARTE &&
      cp->switching == CAPTURE_SWITCH_STATE) {
    /* measured in tests/test_capture_state_switching.c: IDA's Newton
     * iterate crosses the switch and back (IDA_REP_RES_ERR at the first
     * contact); CVODE Adams, free of error in free flight, steps over the
     * whole body and the point passes through it */
    if (err) {
      err->key = "parameters.switching";
      snprintf(err->msg, sizeof err->msg,
               "switching: state (modes from the state at every evaluation) is the seed's "
               "fixed-step method and needs solver.method rk4 (an adaptive step can jump over "
               "a contact); with ida or cvode use switching: located");
    }
    return MBDAE_ERR_UNSUPPORTED;
  }
  if (o->method != MBDAE_METHOD_MOREAU && cp->mode == CAPTURE_MODE_EVENT && cp->friction > 0.0) {
    /* event mode's located impacts and held contacts are frictionless */
    if (err) {
      err->key = "parameters.friction";
      snprintf(err->msg, sizeof err->msg,
               "Coulomb friction in mode event needs solver.method moreau (the event-driven "
               "impacts and held contacts are frictionless); got friction %g", cp->friction);
    }
    return MBDAE_ERR_UNSUPPORTED;
  }
  if (o->method == MBDAE_METHOD_MOREAU) {
    /* event capturing (doc/capture.md "Event capturing"): the rigid
     * strings and contacts with Newton restitution of event mode, solved
     * inside every step; the compliant law and the state-feedback thrust
     * have no second-order form here */
    const char *key = NULL, *why = NULL;
    if (cp->mode != CAPTURE_MODE_EVENT) {
      key = "parameters.mode";
      why = "method moreau integrates the rigid strings and contacts of mode event (impacts "
            "with e_string, e_body); modes baumgarte and compliant are force laws for the "
            "event-driven methods";
    } else if (cp->control == CAPTURE_CONTROL_ERROR_STAB) {
      key = "parameters.control";
      why = "control error_stabilization is a state feedback through the event-driven joint "
            "solve; with method moreau use control none or min_thrust";
    }
    if (key) {
      if (err) {
        err->key = key;
        snprintf(err->msg, sizeof err->msg, "%s", why);
      }
      return MBDAE_ERR_UNSUPPORTED;
    }
    rc = capture_create(params, &m, err);
    if (!rc) {
      rc = capture_mech_attach(m);
      if (rc) capture_free(&m);
    }
  } else if (cp->mode == CAPTURE_MODE_COMPLIANT) {
    /* forces only (capture_compliant.c): y' - f = 0 for ida, an ODE for
     * every other method, with the sparse analytic Jacobian for either */
    rc = capture_create_compliant(params, o->method == MBDAE_METHOD_IDA, &m, err);
  } else if (o->method == MBDAE_METHOD_IDA ||
             (o->method == MBDAE_METHOD_ARKODE && o->linsol == MBDAE_LINSOL_KLU)) {
    /* DAE form (doc/capture.md "DAE form"): analytic sparse Jacobian for
     * linear_solver klu or dense. The multipliers solve acceleration-level
     * rows (index-2-like in BDF's error estimate): exclude them from IDA's
     * error test, as the string net does. arkode + klu integrates the same
     * DAE through its completion (doc/arkode.md, "DAE forms"). */
    o->suppress_alg = 1;
    rc = capture_create_dae(params, &m, err);
  } else {
    if (o->method == MBDAE_METHOD_CVODE_BDF && o->linsol == MBDAE_LINSOL_KLU) {
      if (err) {
        err->key = "solver.linear_solver";
        snprintf(err->msg, sizeof err->msg,
                 "net_capture's ODE form (multipliers eliminated, eq. 2.102) has no sparse "
                 "Jacobian: use linear_solver dense with cvode-bdf, or method ida or arkode "
                 "with klu (the DAE form)");
      }
      return MBDAE_ERR_UNSUPPORTED;
    }
    rc = capture_create(params, &m, err);
  }
  if (rc) return rc;
  *model = (mbdae_model *)m;
  return MBDAE_OK;
}

static void kind_destroy(mbdae_model **model) {
  if (!model) return;
  capture_model *m = (capture_model *)*model;
  capture_free(&m);
  *model = NULL;
}

static mbdae_problem *kind_problem(mbdae_model *model) {
  return capture_problem((capture_model *)model);
}

static int kind_initial_state(mbdae_model *model, double t0, double *y, double *yp) {
  capture_model *m = (capture_model *)model;
  if (capture_is_dae(m)) return capture_dae_initial_state(m, t0, y, yp);
  int rc = capture_initial_state(m, t0, y);
  if (rc || !capture_is_compliant(m) || !yp) return rc;
  /* a consistent y' for the DAE form y' - f(y) = 0 (the ODE's too) */
  rc = capture_compliant_rhs(m, t0, y, yp);
  return rc > 0 ? MBDAE_ERR_CALLBACK : rc;
}

/* body state, balances, then phi_k and psi_j (figs. 4.2-4.6) */
static const mbdae_column fixed_cols[] = {
  {"body_x", "m"}, {"body_y", "m"}, {"body_z", "m"},
  {"body_q0", "-"}, {"body_q1", "-"}, {"body_q2", "-"}, {"body_q3", "-"},
  {"body_wx", "rad/s"}, {"body_wy", "rad/s"}, {"body_wz", "rad/s"},
  {"momentum_x", "kg m/s"}, {"momentum_y", "kg m/s"}, {"momentum_z", "kg m/s"},
  {"angmom_x", "kg m^2/s"}, {"angmom_y", "kg m^2/s"}, {"angmom_z", "kg m^2/s"},
  {"kinetic_energy", "J"}, {"penetration", "m"},
  {"taut_strings", "-"}, {"contacts", "-"}, {"net_center_x", "m"}, {"net_center_y", "m"},
  {"net_center_z", "m"},
};
enum { NFIXED = (int)(sizeof fixed_cols / sizeof fixed_cols[0]) };

static int kind_columns(mbdae_model *model, mbdae_column *cols, int max) {
  capture_model *m = (capture_model *)model;
  int n = NFIXED + m->ns + m->np;
  if (!cols) return n;
  int k = 0;
  for (int i = 0; i < NFIXED && k < max; ++i) cols[k++] = fixed_cols[i];
  for (int i = 0; i < m->ns && k < max; ++i, ++k) {
    snprintf(cols[k].name, sizeof cols[k].name, "phi_%d", i);
    snprintf(cols[k].unit, sizeof cols[k].unit, "m^2");
  }
  for (int i = 0; i < m->np && k < max; ++i, ++k) {
    snprintf(cols[k].name, sizeof cols[k].name, "psi_%d", i);
    snprintf(cols[k].unit, sizeof cols[k].unit, "-");
  }
  return k;
}

static int kind_output_row(mbdae_model *model, double t, const double *y,
                           const double *yp, double *row) {
  (void)t; (void)yp;
  capture_model *m = (capture_model *)model;
  const double *bs = &y[m->boff];
  for (int i = 0; i < 10; ++i) row[i] = bs[i < 3 ? i : i + 3]; /* P, q, w */
  capture_momenta(m, y, &row[10], &row[13], &row[16]);
  row[17] = capture_max_penetration(m, y);
  if (capture_is_compliant(m)) { /* stretched threads, points inside the body */
    int nt = 0, nc = 0;
    capture_compliant_energies(m, y, NULL, NULL, NULL, &nt, &nc);
    row[18] = nt;
    row[19] = nc;
  } else {
    row[18] = capture_active_strings(m);
    row[19] = capture_active_contacts(m);
  }
  double c[3] = {0, 0, 0};
  for (int i = 0; i < m->np; ++i)
    for (int k = 0; k < 3; ++k) c[k] += y[3 * i + k] / m->np;
  for (int k = 0; k < 3; ++k) row[20 + k] = c[k];
  capture_constraint_values(m, y, &row[NFIXED], &row[NFIXED + m->ns]);
  return 0;
}

static const mbdae_column ev_cols[] = {
  {"impacts", "-"}, {"impulse_sum", "N s"}, {"kinetic_before", "J"}, {"kinetic_after", "J"}};

static int kind_event_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  int n = 4;
  if (!cols) return n;
  for (int i = 0; i < n && i < max; ++i) cols[i] = ev_cols[i];
  return n < max ? n : max;
}

static int kind_outcomes(mbdae_model *model, const double *y, const double *yp,
                         mbdae_outcome *out, int max) {
  (void)yp;
  capture_model *m = (capture_model *)model;
  double v[16];
  const char *names[16], *units[16];
  int n = 0;
  double pl[3], L[3], E;
  capture_momenta(m, y, pl, L, &E);
  names[n] = "final_kinetic_energy"; units[n] = "J"; v[n++] = E;
  names[n] = "final_momentum_x"; units[n] = "kg m/s"; v[n++] = pl[0];
  names[n] = "final_momentum_y"; units[n] = "kg m/s"; v[n++] = pl[1];
  names[n] = "final_momentum_z"; units[n] = "kg m/s"; v[n++] = pl[2];
  names[n] = "final_angmom_x"; units[n] = "kg m^2/s"; v[n++] = L[0];
  names[n] = "final_angmom_y"; units[n] = "kg m^2/s"; v[n++] = L[1];
  names[n] = "final_angmom_z"; units[n] = "kg m^2/s"; v[n++] = L[2];
  names[n] = "final_penetration"; units[n] = "m"; v[n++] = capture_max_penetration(m, y);
  names[n] = "impacts"; units[n] = "-"; v[n++] = (double)m->impacts;
  names[n] = "releases"; units[n] = "-"; v[n++] = (double)m->releases;
  names[n] = "face_switches"; units[n] = "-"; v[n++] = (double)m->face_switches;
  names[n] = "force_switches"; units[n] = "-"; v[n++] = (double)m->force_switches;
  names[n] = "final_contacts"; units[n] = "-"; v[n++] = capture_active_contacts(m);
  names[n] = "final_taut_strings"; units[n] = "-"; v[n++] = capture_active_strings(m);
  if (!out) return n;
  int k = n < max ? n : max;
  for (int i = 0; i < k; ++i) {
    snprintf(out[i].name, sizeof out[i].name, "%s", names[i]);
    snprintf(out[i].unit, sizeof out[i].unit, "%s", units[i]);
    out[i].value = v[i];
  }
  return k;
}

static const mbdae_plot_spec plots[] = {
  {"string_constraints", "String constraint functions phi_k = |S_k|^2 - L^2 (cf. figs. 4.2, 4.5)",
   "samples", "t", "phi_*", "t (s)", "phi (m^2)", 0},
  {"body_constraints", "Body constraint functions psi_j = 1 - (b_p^T rho_j)^2 (cf. figs. 4.3, 4.6)",
   "samples", "t", "psi_*", "t (s)", "psi (-)", 0},
  {"momentum", "Total linear and angular momentum (net + body)", "samples", "t",
   "momentum_*,angmom_*", "t (s)", "momentum", 0},
  {"energy", "Kinetic energy (net + body)", "samples", "t", "kinetic_energy", "t (s)", "J", 0},
  {"contacts", "Taut strings and points in contact", "samples", "t", "taut_strings,contacts",
   "t (s)", "count", 0},
};

/* Checkpoints: the mode (held constraints, current faces, release
 * references), the last multipliers, the warm start of the thrust law's CGLS
 * solve and the event counters the outcomes report. Everything else is
 * rebuilt by create and initial_state or is scratch of one call. */
static void kind_state_fields(mbdae_model *model, mbdae_state_cursor *c) {
  capture_model *m = (capture_model *)model;
  size_t nc = (size_t)m->nc, np = (size_t)m->np;
  mbdae_state_io(c, m->active, nc * sizeof *m->active);
  mbdae_state_io(c, m->face, np * sizeof *m->face);
  mbdae_state_io(c, m->c_ref, nc * sizeof *m->c_ref);
  mbdae_state_io(c, m->forced, nc * sizeof *m->forced);
  mbdae_state_io(c, m->lambda, nc * sizeof *m->lambda);
  mbdae_state_io(c, m->ctrl_last, 3 * np * sizeof *m->ctrl_last);
  mbdae_state_io(c, &m->impacts, sizeof m->impacts);
  mbdae_state_io(c, &m->releases, sizeof m->releases);
  mbdae_state_io(c, &m->face_switches, sizeof m->face_switches);
  mbdae_state_io(c, &m->force_switches, sizeof m->force_switches);
}

static int state_valid(const capture_model *m) {
  for (int k = 0; k < m->nc; ++k)
    if ((m->active[k] != 0 && m->active[k] != 1) || m->forced[k] > 1) return 0;
  for (int j = 0; j < m->np; ++j)  /* a face index reaches the polytope's arrays */
    if (m->face[j] < 0 || m->face[j] >= m->body->nf) return 0;
  return mbdae_state_finite(m->c_ref, (size_t)m->nc) &&
         mbdae_state_finite(m->lambda, (size_t)m->nc) &&
         mbdae_state_finite(m->ctrl_last, 3 * (size_t)m->np) && m->impacts >= 0 &&
         m->releases >= 0 && m->face_switches >= 0 && m->force_switches >= 0;
}

/* A checkpoint is trusted only past its checksum: after a load, every mode,
 * index and value is checked (doc/checkpoint.md, "Validation"). */
static int kind_state_check(const mbdae_model *model) {
  return state_valid((const capture_model *)model) ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

const mbdae_model_kind mbdae_model_net_capture = {
  .name = "net_capture",
  .summary = "net of slack/taut strings capturing a tumbling convex polytope (capps 2021)",
  .params_size = sizeof(capture_params),
  .params = specs,
  .nparams = (int)(sizeof specs / sizeof specs[0]),
  .check = kind_check,
  .create = kind_create,
  .destroy = kind_destroy,
  .problem = kind_problem,
  .initial_state = kind_initial_state,
  .columns = kind_columns,
  .output_row = kind_output_row,
  .event_columns = kind_event_columns,
  .outcomes = kind_outcomes,
  .plots = plots,
  .nplots = (int)(sizeof plots / sizeof plots[0]),
  .state_fields = kind_state_fields,
  .state_check = kind_state_check,
};
