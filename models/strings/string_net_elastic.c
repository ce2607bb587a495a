/* string_net_elastic.c - the elastic thread law of the string core
 * (SN_HOLD_ELASTIC, string_net.h): every string is a tension-only
 * Hunt-Crossley thread (compliant/elastic_thread.h) with its EA, damping eta
 * and rest length L; the multipliers of the ODE form are the threads'
 * equivalents lambda = -T / (2|S|); the exact sparse Jacobian of
 * f = [V; M^-1 (F + threads)] for CVODE-BDF (df/dy) or of y' - f(y) for IDA
 * (cj I - df/dy). Pattern, valid slack or taut: per point the R rows'
 * diagonal and V column, the V rows x (R, V) of the point (3 x 6, with the
 * applied force's declared shapes) and x (R, V) of every point it shares a
 * thread with. */
#include "strings/string_net_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compliant/elastic_thread.h"
#include "mbdae/status.h"

static elastic_thread thread_of(const sn_net *net, int s) {
  elastic_thread th = {net->s[s].L, net->s[s].ea, net->s[s].eta, 0.0};
  return th;
}

int sn_elastic_multipliers(sn_net *net, const double *R, const double *V, double *lambda) {
  for (int s = 0; s < net->ns; ++s) {
    double S[3], W[3];
    str_SW(net, s, R, V, S, W);
    elastic_thread th = thread_of(net, s);
    double T = elastic_thread_force(&th, S, W, NULL, NULL, NULL, NULL);
    double len = sqrt(dot3(S, S));
    net->taut[s] = len > th.L;
    lambda[s] = T > 0.0 ? -T / (2.0 * len) : 0.0; /* T = -2 lambda |S| */
  }
  return 0;
}

double sn_elastic_energy(const sn_net *net, const double *R) {
  double E = 0.0;
  for (int s = 0; s < net->ns; ++s) {
    double S[3];
    str_SW(net, s, R, NULL, S, NULL);
    elastic_thread th = thread_of(net, s);
    E += elastic_thread_energy(&th, S);
  }
  return E;
}

/* slot layout: point k at 24 k: rr[3] rv[3] vs[3 x 6]; thread s at
 * 24 np + 36 s: (V_i x (R_j, V_j)) 3 x 6 then (V_j x (R_i, V_i)) 3 x 6 */
int sn_elastic_pattern_add(const sn_net *net, sn_pattern *p) {
  int np = net->np, ov = net->off_v;
  for (int k = 0; k < np; ++k)
    for (int c = 0; c < 3; ++c) {
      if (sn_pattern_add(p, 3 * k + c, 3 * k + c) || sn_pattern_add(p, 3 * k + c, ov + 3 * k + c))
        return MBDAE_ERR_MEMORY;
      for (int e = 0; e < 3; ++e)
        if (sn_pattern_add(p, ov + 3 * k + c, 3 * k + e) ||
            sn_pattern_add(p, ov + 3 * k + c, ov + 3 * k + e))
          return MBDAE_ERR_MEMORY;
    }
  for (int s = 0; s < net->ns; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    for (int c = 0; c < 3; ++c)
      for (int e = 0; e < 3; ++e)
        if (sn_pattern_add(p, ov + 3 * i + c, 3 * j + e) ||
            sn_pattern_add(p, ov + 3 * i + c, ov + 3 * j + e) ||
            sn_pattern_add(p, ov + 3 * j + c, 3 * i + e) ||
            sn_pattern_add(p, ov + 3 * j + c, ov + 3 * i + e))
          return MBDAE_ERR_MEMORY;
  }
  return 0;
}

int sn_elastic_jacobian_bind(sn_net *net, const sn_pattern *p) {
  int np = net->np, ov = net->off_v;
  sn_workspace *w = net->ws;
  free(w->el_slot);
  w->el_slot = malloc(((size_t)24 * np + 36 * (size_t)net->ns) * sizeof *w->el_slot);
  if (!w->el_slot) return MBDAE_ERR_MEMORY;
  for (int k = 0; k < np; ++k) {
    mbdae_index *sl = &w->el_slot[24 * k];
    for (int c = 0; c < 3; ++c) {
      sl[c] = sn_pattern_slot(p, 3 * k + c, 3 * k + c);
      sl[3 + c] = sn_pattern_slot(p, 3 * k + c, ov + 3 * k + c);
      for (int e = 0; e < 3; ++e) {
        sl[6 + 6 * c + e] = sn_pattern_slot(p, ov + 3 * k + c, 3 * k + e);
        sl[6 + 6 * c + 3 + e] = sn_pattern_slot(p, ov + 3 * k + c, ov + 3 * k + e);
      }
    }
  }
  for (int s = 0; s < net->ns; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    mbdae_index *sl = &w->el_slot[24 * np + 36 * s];
    for (int c = 0; c < 3; ++c)
      for (int e = 0; e < 3; ++e) {
        sl[6 * c + e] = sn_pattern_slot(p, ov + 3 * i + c, 3 * j + e);
        sl[6 * c + 3 + e] = sn_pattern_slot(p, ov + 3 * i + c, ov + 3 * j + e);
        sl[18 + 6 * c + e] = sn_pattern_slot(p, ov + 3 * j + c, 3 * i + e);
        sl[18 + 6 * c + 3 + e] = sn_pattern_slot(p, ov + 3 * j + c, ov + 3 * i + e);
      }
  }
  for (int q = 0; q < 24 * np + 36 * net->ns; ++q)
    if (w->el_slot[q] < 0) return MBDAE_ERR_ARGUMENT; /* not this net's pattern */
  return 0;
}

int sn_elastic_jacobian(sn_net *net, double t, double cj, int dae, const double *y,
                        double *vals) {
  int np = net->np;
  const mbdae_index *sl = net->ws->el_slot;
  if (!sl) return MBDAE_ERR_ARGUMENT;
  const double *R = y + net->off_r, *V = y + net->off_v;
  double sg = dae ? -1.0 : 1.0;
  for (int k = 0; k < np; ++k) {
    const mbdae_index *p = &sl[24 * k];
    double a = sg / net->m[k];
    for (int c = 0; c < 3; ++c) {
      vals[p[3 + c]] += sg;
      if (dae) {
        vals[p[c]] += cj;
        vals[p[6 + 6 * c + 3 + c]] += cj;
      }
    }
    if (net->force.fn) { /* the applied force's point-local derivatives */
      double f[3], dr[9], dv[9];
      int rc = net->force.fn(k, t, &R[3 * k], &V[3 * k], f, dr, dv, net->force.user);
      if (rc) return rc;
      for (int c = 0; c < 3; ++c)
        for (int e = 0; e < 3; ++e) {
          vals[p[6 + 6 * c + e]] += a * dr[3 * c + e];
          vals[p[6 + 6 * c + 3 + e]] += a * dv[3 * c + e];
        }
    }
  }
  for (int s = 0; s < net->ns; ++s) {
    int i = net->s[s].i, j = net->s[s].j;
    double S[3], W[3], fS[9], fW[9];
    str_SW(net, s, R, V, S, W);
    elastic_thread th = thread_of(net, s);
    if (elastic_thread_force(&th, S, W, NULL, fS, fW, NULL) == 0.0) continue;
    const mbdae_index *pi = &sl[24 * i], *pj = &sl[24 * j], *ps = &sl[24 * np + 36 * s];
    double ai = sg / net->m[i], aj = sg / net->m[j];
    for (int c = 0; c < 3; ++c)
      for (int e = 0; e < 3; ++e) {
        double dS = fS[3 * c + e], dW = fW[3 * c + e];
        vals[pj[6 + 6 * c + e]] += aj * dS;     /* head: f(S, W), S = R_j - R_i */
        vals[pj[6 + 6 * c + 3 + e]] += aj * dW;
        vals[ps[18 + 6 * c + e]] -= aj * dS;
        vals[ps[18 + 6 * c + 3 + e]] -= aj * dW;
        vals[pi[6 + 6 * c + e]] += ai * dS;     /* tail: -f */
        vals[pi[6 + 6 * c + 3 + e]] += ai * dW;
        vals[ps[6 * c + e]] -= ai * dS;
        vals[ps[6 * c + 3 + e]] -= ai * dW;
      }
  }
  return 0;
}
