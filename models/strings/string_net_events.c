/* string_net_events.c - the strings' modes: initial modes, the modes taken
 * from the state (switch_by_state), the root functions and the event map
 * (impacts, releases, activations, the Zeno and grazing rules). */
#include "strings/string_net_internal.h"

#include <klu.h>
#include <math.h>
#include <stdlib.h>

#include "mbdae/engine.h"
#include "mbdae/status.h"

/* switch_by_state: the modes at this state (capps sec. 3.3: phi >= 0). */
void sn_state_modes(sn_net *net, const double *R) {
  if (net->hold != SN_HOLD_BAUMGARTE || !net->switch_by_state) return;
  for (int s = 0; s < net->ns; ++s) net->taut[s] = sn_phi(net, s, R) >= 0.0;
}

static double reduced_mass(const sn_net *net, int s) {
  double a = net->m[net->s[s].i], b = net->m[net->s[s].j];
  return a * b / (a + b);
}

int sn_net_init_modes(sn_net *net, double t, const double *R, const double *V) {
  int ns = net->ns;
  if (net->hold == SN_HOLD_ELASTIC) return sn_elastic_multipliers(net, R, V, net->ws->b);
  for (int s = 0; s < ns; ++s) {
    double L2 = net->s[s].L * net->s[s].L;
    net->taut[s] = sn_phi(net, s, R) >= -net->release_band * L2 ? 1 : 0;
    if (net->hold == SN_HOLD_EVENT && net->taut[s] &&
        sn_phi_dot(net, s, R, V) > 1e-12 * net->s[s].L)
      net->taut[s] = 0; /* stretching at t0: left to the first impact */
  }
  sn_state_modes(net, R);
  if (net->hold != SN_HOLD_EVENT) return 0;
  /* a taut string must pull: release pushing ones, re-solve (active set) */
  for (int iter = 0; iter <= ns; ++iter) {
    int rc = sn_net_multipliers(net, t, R, V, NULL, net->ws->b);
    if (rc) return rc < 0 ? rc : MBDAE_ERR_SOLVER;
    int changed = 0;
    for (int s = 0; s < ns; ++s)
      if (net->taut[s] && net->ws->b[s] > 0.0) {
        net->taut[s] = 0;
        changed = 1;
      }
    if (!changed) break;
  }
  return 0;
}

int sn_net_check_taut_rank(sn_net *net, double t, const double *R, const double *V) {
  if (net->hold == SN_HOLD_ELASTIC) return 0; /* no constraints to be singular */
  if (net->ns == 0) return 0;
  int rc = sn_net_init_modes(net, t, R, V);
  if (rc == MBDAE_ERR_SOLVER) return MBDAE_ERR_PARAMETER; /* A could not be factored */
  if (rc) return rc;
  rc = sn_factor_A(net, R, net->taut);
  if (rc) return rc < 0 ? rc : MBDAE_ERR_PARAMETER;
  sn_workspace *w = net->ws;
  if (!klu_rcond(w->sym, w->num, &w->common) || !(w->common.rcond > 1e-12))
    return MBDAE_ERR_PARAMETER;
  return 0;
}

int sn_net_roots(sn_net *net, double t, const double *R, const double *V,
                 const double *lam, double *g) {
  if (net->hold == SN_HOLD_EVENT && !lam) {
    int any = 0;
    for (int s = 0; s < net->ns; ++s) any |= net->taut[s];
    if (any) {
      int rc = sn_net_multipliers(net, t, R, V, NULL, net->ws->b);
      if (rc) return rc < 0 ? rc : 1;
      lam = net->ws->b;
    }
  }
  for (int s = 0; s < net->ns; ++s) {
    double L2 = net->s[s].L * net->s[s].L;
    /* Every root is negative in the current mode and rises through 0 when
     * the mode must change, so after a switch the state moves away from the
     * side the root fired into (the engine's dead band then holds). */
    if (net->hold == SN_HOLD_BAUMGARTE) {
      double h = sn_phi(net, s, R) / L2 - net->root_ref[s] + net->release_band;
      g[s] = net->taut[s] ? -h : h;
    } else if (!net->taut[s]) {
      g[s] = sn_phi(net, s, R) / L2;
    } else {
      g[s] = lam[s] / reduced_mass(net, s); /* < 0 while pulling */
    }
  }
  return 0;
}

int sn_net_handle_events(sn_net *net, double t, double *y, double *yp,
                         const int *dirs, mbdae_event_info *info,
                         const double *fext) {
  int ns = net->ns;
  double *R = y + net->off_r, *V = y + net->off_v;
  unsigned char *hit = NULL;
  net->last_impacts = net->last_releases = net->last_activations = net->last_plastic = 0;
  net->last_energy_loss = net->last_impulse = 0.0;
  int changed = 0;
  if (net->hold == SN_HOLD_BAUMGARTE) {
    for (int s = 0; s < ns; ++s) {
      if (dirs[s] <= 0) continue;
      if (!net->taut[s]) {
        net->taut[s] = 1; /* capps sec. 3.3: active while phi >= 0 */
        net->root_ref[s] = 0.0;
        net->last_activations++;
        changed = 1;
      } else {
        /* Grazing rule (the compliant analogue of the Zeno rule): the free
         * flight after a release dips to phi/L^2 = -(w_n/|W|)^2; when that is
         * within 10 release bands the re-contact cannot be resolved by root
         * finding, so the string stays active (it is effectively taut). */
        double S[3], W[3];
        str_SW(net, s, R, V, S, W);
        double ww = dot3(W, W), ss = dot3(S, S), sw = dot3(S, W);
        if (ww > 0.0 && sw * sw / (ss * ww) < 10.0 * net->release_band) {
          if (net->unilateral) {
            /* its release root moves a band below the present value: a
             * kept string that keeps going slack (once without tension,
             * nothing pulls it back) is examined again there instead of
             * being held slack at any depth (phi/L^2 = -0.74 measured on a
             * 10 x 10 deploying net at t = 2 s) */
            net->root_ref[s] = fmin(sn_phi(net, s, R) / (net->s[s].L * net->s[s].L), 0.0) -
                               SN_KEEP_BAND;
            changed = 1;
          }
          continue;
        }
        net->taut[s] = 0;
        net->root_ref[s] = 0.0;
        net->last_releases++;
        changed = 1;
      }
    }
  } else {
    hit = calloc(ns > 0 ? (size_t)ns : 1, 1);
    if (!hit) return MBDAE_ERR_MEMORY;
    for (int s = 0; s < ns; ++s) {
      if (dirs[s] <= 0) continue;
      if (!net->taut[s]) {
        double S[3], W[3];
        str_SW(net, s, R, V, S, W);
        double c = dot3(S, W);
        if (c <= 0.0) continue; /* not stretching: nothing to do */
        /* Zeno rule: post-impact separation speed e c / L below
         * zeno_ratio |W| -> plastic impact, the string stays taut. */
        double sep = net->s[s].e * c / net->s[s].L;
        hit[s] = (net->s[s].e == 0.0 || sep < net->zeno_ratio * sqrt(dot3(W, W))) ? 2 : 1;
        net->last_impacts++;
        if (hit[s] == 2) net->last_plastic++;
      } else {
        net->taut[s] = 0; /* tension fell to zero */
        net->last_releases++;
        changed = 1;
      }
    }
    if (net->last_impacts) {
      int rc = sn_net_impact(net, R, V, hit, NULL);
      if (rc) {
        free(hit);
        return rc;
      }
      for (int s = 0; s < ns; ++s)
        if (hit[s] == 2) net->taut[s] = 1;
      changed = 1;
    }
    free(hit);
    if (changed) {
      /* taut strings must pull; release the ones that would push */
      for (int iter = 0; iter <= ns; ++iter) {
        int rc = sn_net_multipliers(net, t, R, V, fext, net->ws->b);
        if (rc) return rc < 0 ? rc : MBDAE_ERR_SOLVER;
        int again = 0;
        for (int s = 0; s < ns; ++s)
          if (net->taut[s] && net->ws->b[s] > 0.0) {
            net->taut[s] = 0;
            net->last_releases++;
            again = 1;
          }
        if (!again) break;
      }
    }
  }
  if (info) {
    info->label = net->last_impacts ? (net->last_plastic ? "impact-plastic" : "impact")
                  : net->last_releases ? (net->last_activations ? "switch" : "release")
                  : net->last_activations ? "activate" : "no-op";
    info->ndata = 6;
    info->data[0] = net->last_impacts;
    info->data[1] = net->last_releases;
    info->data[2] = net->last_activations;
    info->data[3] = net->last_plastic;
    info->data[4] = net->last_energy_loss;
    info->data[5] = net->last_impulse;
  }
  if (!changed) return MBDAE_EVENT_NOCHANGE;
  if (net->form != SN_FORM_ODE && yp) {
    int rc = sn_net_consistent(net, t, y, yp, fext);
    if (rc) return rc;
  }
  return MBDAE_EVENT_CONTINUE;
}
