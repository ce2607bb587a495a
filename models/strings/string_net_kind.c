/* string_net_kind.c - the `string_net` model kind: parameter schema, output
 * columns (positions, velocities, phi_i, tensions), outcomes and plots like
 * capps 2021 figs. 3.2-3.5 (phi of each string against time). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mbdae/status.h"
#include "strings/string_net_model.h"

static const char *const topology_names[] = {"bola", "chain", "grid", "table", "spinning_grid", NULL};
static const char *const hold_names[] = {"event", "baumgarte", "elastic", NULL};
static const char *const switching_names[] = {"located", "state", NULL};
static const char *const forces_names[] = {"bilateral", "unilateral", NULL};
static const char *const formulation_names[] = {"index1", "ggl", NULL};

#define D(key_, field_, flags_, def_, min_, max_, unit_, doc_)                    \
  {key_, MBDAE_PARAM_DOUBLE, offsetof(snm_params, field_), flags_, def_, min_, max_, \
   0, NULL, 0, unit_, doc_}
#define I(key_, field_, def_, min_, max_, doc_)                                   \
  {key_, MBDAE_PARAM_INT, offsetof(snm_params, field_), 0, def_, min_, max_, 0,  \
   NULL, 0, "-", doc_}
#define V3(key_, field_, def_, unit_, doc_)                                       \
  {key_, MBDAE_PARAM_VEC, offsetof(snm_params, field_), 0, def_, -HUGE_VAL,      \
   HUGE_VAL, 3, NULL, 0, unit_, doc_}
#define E(key_, field_, def_, names_, doc_)                                       \
  {key_, MBDAE_PARAM_ENUM, offsetof(snm_params, field_), 0, def_, 0, 0, 0,       \
   names_, 0, "-", doc_}

static const mbdae_param_spec snm_specs[] = {
  E("topology", topology, 0, topology_names, "bola | chain | grid | table | spinning_grid"),
  E("mode", hold, 0, hold_names,
    "event: exact impacts + bilateral taut strings; baumgarte: compliant (capps 3.1-3.2); "
    "elastic: tension-only threads (EA, string_damping), no events"),
  D("EA", ea, MBDAE_PARAM_MIN_OPEN, 5.5e4, 0.0, HUGE_VAL, "N",
    "elastic mode: axial stiffness of every thread (default: 1 mm Kevlar 29, E = 70.5 GPa)"),
  D("string_damping", string_damping, 0, 0.0, 0.0, HUGE_VAL, "N s",
    "elastic mode: eta, T = EA eps + eta eps eps' (Hunt-Crossley, doc/compliant.md)"),
  D("e", e, 0, 0.15, 0.0, 1.0, "-", "restitution along the string (event mode)"),
  D("xi", xi, 0, 0.5, -HUGE_VAL, HUGE_VAL, "-", "Baumgarte damping ratio (baumgarte mode)"),
  D("omega_n", omega_n, 0, 10.0, -HUGE_VAL, HUGE_VAL, "1/s",
    "Baumgarte natural frequency (baumgarte mode)"),
  D("drift_xi", drift_xi, 0, 1.0, 0.0, HUGE_VAL, "-", "event mode: taut-string drift damping"),
  D("drift_omega", drift_omega, 0, 10.0, 0.0, HUGE_VAL, "1/s",
    "event mode: taut-string drift frequency"),
  E("formulation", formulation, 0, formulation_names,
    "event mode, method ida: index1 (taut strings held at acceleration level, drift_xi and "
    "drift_omega) | ggl (index 2: held at position and velocity level, Gear-Gupta-Leimkuhler; "
    "no drift parameters)"),
  D("zeno_ratio", zeno_ratio, 0, 1e-4, 0.0, 1.0, "-",
    "event mode: plastic impact when e|S.W|/L < zeno_ratio |W|"),
  E("switching", switching, 0, switching_names,
    "baumgarte mode: located (root-found switches, exact) | state (phi >= 0 at every "
    "evaluation, as the seed's RK4; no restarts)"),
  E("forces", forces, 0, forces_names,
    "baumgarte mode: bilateral (the seed's eq. 3.1: an active string may push) | "
    "unilateral (an active string only pulls; rk4 and cvode only)"),
  D("release_band", release_band, 0, 1e-9, 0.0, 1e-3, "-",
    "baumgarte mode: release at phi < -band L^2"),
  V3("gravity", gravity, 0.0, "m/s^2", "uniform gravity"),
  D("drag", drag, 0, 0.0, 0.0, HUGE_VAL, "N s/m", "linear drag on every point"),
  D("length", length, 0, 1.0, -HUGE_VAL, HUGE_VAL, "m", "string length (bola, chain, grid)"),
  D("m1", m1, 0, 1.0, -HUGE_VAL, HUGE_VAL, "kg", "bola: mass of point 0"),
  D("m2", m2, 0, 1.0, -HUGE_VAL, HUGE_VAL, "kg", "bola: mass of point 1"),
  V3("r1", r1, 0.0, "m", "bola: initial position of point 0"),
  V3("r2", r2, 0.0, "m", "bola: initial position of point 1"),
  V3("v1", v1, 0.0, "m/s", "bola: initial velocity of point 0"),
  V3("v2", v2, 0.0, "m/s", "bola: initial velocity of point 1"),
  I("chain_points", chain_points, 100, 2, 1e6, "chain: number of points"),
  D("chain_mass", chain_mass, 0, 0.01, -HUGE_VAL, HUGE_VAL, "kg", "chain: mass per point"),
  D("chain_spin", chain_spin, 0, 1.0, -HUGE_VAL, HUGE_VAL, "rad/s",
    "chain: initial rigid spin about z"),
  D("chain_wave", chain_wave, 0, 0.0, -HUGE_VAL, HUGE_VAL, "m/s",
    "chain: amplitude of a transverse (z) velocity half-sine"),
  I("grid_n", grid_n, 5, 1, 1000, "grid: points per side (rows)"),
  I("grid_m", grid_m, 5, 1, 1000, "grid: points per side (columns)"),
  D("grid_mass", grid_mass, 0, 0.01, -HUGE_VAL, HUGE_VAL, "kg", "grid: mass of a point"),
  D("corner_mass", corner_mass, 0, 0.05, -HUGE_VAL, HUGE_VAL, "kg", "grid: corner masses"),
  D("t_deploy", t_deploy, 0, 1.0, -HUGE_VAL, HUGE_VAL, "s",
    "grid: time at which the strings reach length (no jitter)"),
  D("jitter", jitter, 0, 0.02, 0.0, 0.5, "-", "grid: relative deterministic velocity spread"),
  V3("v_common", v_common, 0.0, "m/s", "grid: common velocity of all points"),
  D("grid_spin", grid_spin, 0, 2.0, -HUGE_VAL, HUGE_VAL, "rad/s",
    "spinning_grid: initial rigid spin about z (all strings taut)"),
  D("grid_wave", grid_wave, 0, 0.0, -HUGE_VAL, HUGE_VAL, "m/s",
    "spinning_grid: amplitude of an out-of-plane velocity bump sin(pi a/(n-1)) sin(pi b/(m-1))"),
  V3("origin", origin, 0.0, "m", "chain/grid: start point"),
  {"points", MBDAE_PARAM_TABLE, offsetof(snm_params, points), 0, 0.0, -HUGE_VAL, HUGE_VAL,
   7, NULL, offsetof(snm_params, npoints), "-",
   "table: rows [m, x, y, z, vx, vy, vz]"},
  {"strings", MBDAE_PARAM_TABLE, offsetof(snm_params, strings), 0, 0.0, -HUGE_VAL,
   HUGE_VAL, 3, NULL, offsetof(snm_params, nstrings), "-",
   "table: rows [i, j, L] (0-based point indices)"},
  I("max_output_columns", max_output_columns, 400, 0, 1e7,
    "write per-point and per-string columns only up to this many"),
};

static int kind_check(const void *params, mbdae_param_error *err) {
  return snm_params_check(params, err);
}

static int kind_create(const void *params, mbdae_options *o, mbdae_model **model,
                       mbdae_param_error *err) {
  if (!params || !o || !model) return MBDAE_ERR_ARGUMENT;
  snm_model *m = NULL;
  int rc = snm_create(params, o, &m, err);
  if (rc) /* a parameter error already names its key */
    return rc == MBDAE_ERR_PARAMETER ? rc
                                     : mbdae_param_error_build_failed(err, "string net", rc);
  *model = (mbdae_model *)m;
  return 0;
}

static void kind_destroy(mbdae_model **model) {
  if (!model) return;
  snm_model *m = (snm_model *)*model;
  snm_free(&m);
  *model = NULL;
}

static mbdae_problem *kind_problem(mbdae_model *model) {
  return model ? ((snm_model *)model)->problem : NULL;
}

static int kind_initial_state(mbdae_model *model, double t0, double *y, double *yp) {
  return snm_initial_state((snm_model *)model, t0, y, yp);
}

static void col(mbdae_column *c, const char *unit, const char *fmt, int k) {
  snprintf(c->name, sizeof c->name, fmt, k);
  snprintf(c->unit, sizeof c->unit, "%s", unit);
}

enum { SNM_SUMMARY_COLS = 5 };

static int kind_columns(mbdae_model *model, mbdae_column *cols, int max) {
  const snm_model *m = (const snm_model *)model;
  int np = m->net->np, ns = m->net->ns;
  int n = SNM_SUMMARY_COLS + (m->detailed ? 6 * np + 2 * ns : 0);
  if (!cols) return n;
  mbdae_column all[SNM_SUMMARY_COLS];
  col(&all[0], "J", "energy", 0);
  col(&all[1], "-", "n_taut", 0);
  col(&all[2], "-", "max_phi_rel", 0);
  col(&all[3], "N", "max_tension", 0);
  col(&all[4], "J", "energy_lost", 0);
  int w = 0;
  for (int a = 0; a < SNM_SUMMARY_COLS && w < max; ++a) cols[w++] = all[a];
  if (!m->detailed) return w;
  static const char *const pf[6] = {"x_%d", "y_%d", "z_%d", "vx_%d", "vy_%d", "vz_%d"};
  static const char *const pu[6] = {"m", "m", "m", "m/s", "m/s", "m/s"};
  for (int k = 0; k < np; ++k)
    for (int a = 0; a < 6 && w < max; ++a) col(&cols[w++], pu[a], pf[a], k);
  for (int s = 0; s < ns && w < max; ++s) col(&cols[w++], "m^2", "phi_%d", s);
  for (int s = 0; s < ns && w < max; ++s) col(&cols[w++], "N", "T_%d", s);
  return w;
}

static int kind_output_row(mbdae_model *model, double t, const double *y,
                           const double *yp, double *row) {
  (void)yp;
  snm_model *m = (snm_model *)model;
  sn_net *net = m->net;
  const double *R = y + net->off_r, *V = y + net->off_v;
  int np = net->np, ns = net->ns;
  int taut = 0;
  int rc = snm_tensions(m, t, y, m->tension, &taut);
  if (rc) return rc;
  double maxphi = -HUGE_VAL, maxT = 0.0;
  for (int s = 0; s < ns; ++s) {
    double pr = sn_phi(net, s, R) / (net->s[s].L * net->s[s].L);
    if (pr > maxphi) maxphi = pr;
    if (m->tension[s] > maxT) maxT = m->tension[s];
  }
  if (ns > 0 && maxphi > m->max_phi) m->max_phi = maxphi;
  int w = 0;
  row[w++] = snm_energy(m, y);
  row[w++] = taut;
  row[w++] = ns > 0 ? maxphi : 0.0;
  row[w++] = maxT;
  row[w++] = m->energy_lost;
  if (!m->detailed) return 0;
  for (int k = 0; k < np; ++k) {
    for (int c = 0; c < 3; ++c) row[w++] = R[3 * k + c];
    for (int c = 0; c < 3; ++c) row[w++] = V[3 * k + c];
  }
  for (int s = 0; s < ns; ++s) row[w++] = sn_phi(net, s, R);
  for (int s = 0; s < ns; ++s) row[w++] = m->tension[s];
  return 0;
}

static int kind_event_columns(mbdae_model *model, mbdae_column *cols, int max) {
  (void)model;
  static const mbdae_column ev[6] = {
    {"impacts", "-"}, {"releases", "-"}, {"activations", "-"},
    {"plastic", "-"}, {"energy_lost", "J"}, {"max_impulse", "N s"},
  };
  if (!cols) return 6;
  int k = max < 6 ? max : 6;
  for (int a = 0; a < k; ++a) cols[a] = ev[a];
  return k;
}

static int kind_outcomes(mbdae_model *model, const double *y, const double *yp,
                         mbdae_outcome *out, int max) {
  (void)yp;
  snm_model *m = (snm_model *)model;
  mbdae_outcome tmp[7];
  int n = 0, taut = 0;
  for (int s = 0; s < m->net->ns; ++s) taut += m->net->taut[s];
  if (m->event_capturing) taut = m->impulse_taut;
  mbdae_outcome_set(&tmp[n++], "final_energy", "J", snm_energy(m, y));
  mbdae_outcome_set(&tmp[n++], "energy_lost_in_impacts", "J", m->energy_lost);
  mbdae_outcome_set(&tmp[n++], "impacts", "-", (double)m->impacts);
  mbdae_outcome_set(&tmp[n++], "releases", "-", (double)m->releases);
  mbdae_outcome_set(&tmp[n++], "activations", "-", (double)m->activations);
  mbdae_outcome_set(&tmp[n++], "final_taut_strings", "-", (double)taut);
  mbdae_outcome_set(&tmp[n++], "max_phi_rel_sampled", "-", m->max_phi);
  if (!out) return n;
  int k = n < max ? n : max;
  for (int a = 0; a < k; ++a) out[a] = tmp[a];
  return k;
}

static const mbdae_plot_spec snm_plots[] = {
  {"phi", "String constraints phi_i = |S_i|^2 - L_i^2 (cf. capps figs. 3.2-3.5)", "samples",
   "t", "phi_*", "t [s]", "phi [m^2]", 0},
  {"tension", "String tensions", "samples", "t", "T_*", "t [s]", "T [N]", 0},
  {"max_phi", "Largest relative constraint value", "samples", "t", "max_phi_rel", "t [s]",
   "max phi/L^2 [-]", 0},
  {"energy", "Mechanical energy", "samples", "t", "energy", "t [s]", "E [J]", 0},
  {"impacts", "Energy lost per event", "events", "t", "energy_lost", "t [s]", "dE [J]", 1},
};

/* Checkpoints (doc/checkpoint.md): the mode (which strings are taut), the
 * counters the outcomes report and the largest phi seen at output rows. */
static void kind_state_fields(mbdae_model *model, mbdae_state_cursor *c) {
  snm_model *m = (snm_model *)model;
  mbdae_state_io(c, m->net->taut, (size_t)m->net->ns * sizeof *m->net->taut);
  mbdae_state_io(c, m->net->forced, (size_t)m->net->ns * sizeof *m->net->forced);
  mbdae_state_io(c, m->net->root_ref, (size_t)m->net->ns * sizeof *m->net->root_ref);
  mbdae_state_io(c, &m->impacts, sizeof m->impacts);
  mbdae_state_io(c, &m->releases, sizeof m->releases);
  mbdae_state_io(c, &m->activations, sizeof m->activations);
  mbdae_state_io(c, &m->plastic, sizeof m->plastic);
  mbdae_state_io(c, &m->energy_lost, sizeof m->energy_lost);
  mbdae_state_io(c, &m->max_phi, sizeof m->max_phi);
  if (m->event_capturing) {
    mbdae_state_io(c, m->impulse_tension, (size_t)m->net->ns * sizeof *m->impulse_tension);
    mbdae_state_io(c, &m->impulse_taut, sizeof m->impulse_taut);
  }
}

static int state_valid(const snm_model *m) {
  const sn_net *net = m->net;
  for (int s = 0; s < net->ns; ++s)
    if (net->taut[s] > 1 || net->forced[s] > 1) return 0;
  double v[2] = {m->energy_lost, m->max_phi};
  if (!mbdae_state_finite(net->root_ref, (size_t)net->ns) || !mbdae_state_finite(v, 2) ||
      m->impacts < 0 || m->releases < 0 || m->activations < 0 || m->plastic < 0)
    return 0;
  return !m->event_capturing ||
         (mbdae_state_finite(m->impulse_tension, (size_t)net->ns) && m->impulse_taut >= 0 &&
          m->impulse_taut <= net->ns);
}

/* A checkpoint is trusted only past its checksum: after a load, every mode,
 * index and value is checked (doc/checkpoint.md, "Validation"). */
static int kind_state_check(const mbdae_model *model) {
  return state_valid((const snm_model *)model) ? MBDAE_OK : MBDAE_ERR_ARGUMENT;
}

const mbdae_model_kind mbdae_model_string_net = {
  .name = "string_net",
  .summary = "point masses + strings that only pull: bola, chain, grid net, lists; "
             "exact impacts, Baumgarte compliance (capps 2021) or elastic threads",
  .params_size = sizeof(snm_params),
  .params = snm_specs,
  .nparams = (int)(sizeof snm_specs / sizeof snm_specs[0]),
  .check = kind_check,
  .create = kind_create,
  .destroy = kind_destroy,
  .problem = kind_problem,
  .initial_state = kind_initial_state,
  .columns = kind_columns,
  .output_row = kind_output_row,
  .event_columns = kind_event_columns,
  .outcomes = kind_outcomes,
  .plots = snm_plots,
  .nplots = (int)(sizeof snm_plots / sizeof snm_plots[0]),
  .state_fields = kind_state_fields,
  .state_check = kind_state_check,
};
