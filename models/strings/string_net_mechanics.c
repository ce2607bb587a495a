/* string_net_mechanics.c - the string net's mechanical form (mbdae/mechanics.h)
 * for event capturing (method moreau, doc/moreau.md): q = R, v = V,
 * M = diag(m_k I3) constant, f = the point forces (gravity, drag), one
 * unilateral row per string,
 *     g_s = L_s - |r_j - r_i| >= 0,   G_s = [ n^T at v_i, -n^T at v_j ],
 *     n = (r_j - r_i) / |r_j - r_i|   (dg/dt = -n . (v_j - v_i)),
 * with the string's Newton restitution e_s (the relation of the Siconos
 * peer, /work/shared/peers/siconos: metres, well scaled, unlike phi = |S|^2 - L^2).
 * Potential: -sum m_k g . r_k. The impulse observer keeps each string's
 * mean tension over the last step, P_s / h (N), for outputs and VTK. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mbdae/mechanics.h"
#include "mbdae/status.h"
#include "strings/string_net_model.h"

/* n = S / |S| for string s (zero when its ends coincide: g = L > 0 there,
 * the row is slack and outside every step's index set). */
static double unit_dir(const sn_net *net, int s, const double *R, double n[3]) {
  const int i = net->s[s].i, j = net->s[s].j;
  double d2 = 0.0;
  for (int c = 0; c < 3; ++c) {
    n[c] = R[3 * j + c] - R[3 * i + c];
    d2 += n[c] * n[c];
  }
  double d = sqrt(d2);
  for (int c = 0; c < 3; ++c) n[c] = d > 0.0 ? n[c] / d : 0.0;
  return d;
}

static int mech_mass(double t, const double *q, double *values, void *ud) {
  (void)t;
  (void)q;
  const snm_model *m = ud;
  for (int k = 0; k < m->net->np; ++k)
    for (int c = 0; c < 3; ++c) values[3 * k + c] = m->net->m[k];
  return 0;
}

static int mech_forces(double t, const double *q, const double *v, double *f, void *ud) {
  const snm_model *m = ud;
  const sn_net *net = m->net;
  if (!net->force.fn) {
    memset(f, 0, 3 * (size_t)net->np * sizeof *f);
    return 0;
  }
  for (int k = 0; k < net->np; ++k) {
    int rc = net->force.fn(k, t, q + 3 * k, v + 3 * k, f + 3 * k, NULL, NULL, net->force.user);
    if (rc) return rc;
  }
  return 0;
}

static int mech_gap(double t, const double *q, double *g, void *ud) {
  (void)t;
  const snm_model *m = ud;
  double n[3];
  for (int s = 0; s < m->net->ns; ++s) g[s] = m->net->s[s].L - unit_dir(m->net, s, q, n);
  return 0;
}

/* Values in the CSR order of snm_set_mechanics: the lower point first. */
static int mech_gap_jacobian(double t, const double *q, double *values, void *ud) {
  (void)t;
  const snm_model *m = ud;
  const sn_net *net = m->net;
  for (int s = 0; s < net->ns; ++s) {
    double n[3];
    unit_dir(net, s, q, n);
    double *row = values + 6 * s;
    const int tail_first = net->s[s].i < net->s[s].j;
    for (int c = 0; c < 3; ++c) {
      row[c + (tail_first ? 0 : 3)] = n[c];   /* at v_i */
      row[c + (tail_first ? 3 : 0)] = -n[c];  /* at v_j */
    }
  }
  return 0;
}

static int mech_potential(double t, const double *q, double *V, void *ud) {
  (void)t;
  const snm_model *m = ud;
  double e = 0.0;
  for (int k = 0; k < m->net->np; ++k)
    for (int c = 0; c < 3; ++c) e -= m->net->m[k] * m->p.gravity[c] * q[3 * k + c];
  *V = e;
  return 0;
}

static int mech_impulses(double t, double h, const double *impulse, void *ud) {
  (void)t;
  snm_model *m = ud;
  int taut = 0;
  for (int s = 0; s < m->net->ns; ++s) {
    m->impulse_tension[s] = impulse[s] / h;
    taut += impulse[s] > 0.0;
  }
  m->impulse_taut = taut;
  return 0;
}

int snm_set_mechanics(snm_model *m) {
  const sn_net *net = m->net;
  const int np = net->np, ns = net->ns, nq = 3 * np;
  int *qidx = malloc((size_t)nq * sizeof *qidx), *vidx = malloc((size_t)nq * sizeof *vidx);
  mbdae_index *mcp = malloc(((size_t)nq + 1) * sizeof *mcp);
  mbdae_index *mri = malloc((size_t)nq * sizeof *mri);
  mbdae_index *grp = malloc(((size_t)ns + 1) * sizeof *grp);
  mbdae_index *gci = malloc((6 * (size_t)ns + 1) * sizeof *gci);
  double *e = malloc(((size_t)ns + 1) * sizeof *e);
  m->impulse_tension = calloc((size_t)ns + 1, sizeof *m->impulse_tension);
  int rc = MBDAE_OK;
  if (!qidx || !vidx || !mcp || !mri || !grp || !gci || !e || !m->impulse_tension) {
    rc = MBDAE_ERR_MEMORY;
    goto done;
  }
  for (int a = 0; a < nq; ++a) {
    qidx[a] = net->off_r + a;
    vidx[a] = net->off_v + a;
    mcp[a] = a;
    mri[a] = a;
  }
  mcp[nq] = nq;
  for (int s = 0; s < ns; ++s) {
    int lo = net->s[s].i < net->s[s].j ? net->s[s].i : net->s[s].j;
    int hi = net->s[s].i < net->s[s].j ? net->s[s].j : net->s[s].i;
    grp[s] = 6 * s;
    for (int c = 0; c < 3; ++c) {
      gci[6 * s + c] = 3 * lo + c;
      gci[6 * s + 3 + c] = 3 * hi + c;
    }
    e[s] = net->s[s].e;
  }
  grp[ns] = 6 * ns;
  mbdae_problem *pb = m->problem;
  rc = mbdae_problem_set_mechanics(pb, nq, nq, qidx, vidx);
  if (!rc) rc = mbdae_problem_set_mass(pb, nq, mcp, mri, 1, mech_mass);
  if (!rc) rc = mbdae_problem_set_forces(pb, mech_forces);
  if (!rc && ns > 0)
    rc = mbdae_problem_set_constraints(pb, ns, 0, 6 * ns, grp, gci, mech_gap, mech_gap_jacobian,
                                       e);
  if (!rc) rc = mbdae_problem_set_potential(pb, mech_potential);
  if (!rc) rc = mbdae_problem_set_impulse_observer(pb, mech_impulses);
  m->event_capturing = rc == MBDAE_OK;
done:
  free(qidx), free(vidx), free(mcp), free(mri), free(grp), free(gci), free(e);
  return rc;
}

int snm_tensions(snm_model *m, double t, const double *y, double *T, int *ntaut) {
  sn_net *net = m->net;
  const double *R = y + net->off_r, *V = y + net->off_v;
  int taut = 0;
  if (m->event_capturing) {
    for (int s = 0; s < net->ns; ++s) T[s] = m->impulse_tension[s];
    *ntaut = m->impulse_taut;
    return 0;
  }
  const double *lam = y + net->off_lam;
  if (net->form == SN_FORM_ODE && net->ns > 0) {
    /* the ODE's multipliers are not states: solve for them here */
    int rc = sn_net_multipliers(net, t, R, V, NULL, m->lam_out);
    if (rc) return rc < 0 ? rc : MBDAE_ERR_SOLVER;
    lam = m->lam_out;
  }
  for (int s = 0; s < net->ns; ++s) {
    T[s] = sn_tension(net, s, R, lam[s]);
    taut += net->taut[s];
  }
  *ntaut = taut;
  return 0;
}
