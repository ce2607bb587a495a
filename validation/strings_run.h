/* strings_run.h - run the string_net model kind as the driver would and log
 * what the string validation cases, tests and tools compare: events (time,
 * label, data, energy before/after), probe samples, and the deviation from a
 * closed-form bola at every sample. */
#ifndef MBDAE_STRINGS_RUN_H
#define MBDAE_STRINGS_RUN_H

#include <stddef.h>

#include "mbdae/mbdae.h"
#include "strings/string_net_model.h"
#include "strings_bola_exact.h"

#define STRINGS_LOG_EVENTS 4096
#define STRINGS_LOG_PROBES 16

typedef struct strings_log {
  int nev;                                /* events seen (all) */
  double t_ev[STRINGS_LOG_EVENTS];
  int kind_ev[STRINGS_LOG_EVENTS];        /* 1 impact, 2 plastic impact, 3 release,
                                             4 activation, 0 other */
  double data_ev[STRINGS_LOG_EVENTS][6];  /* the model's event data */
  double y_ev[STRINGS_LOG_EVENTS][12];    /* first 12 state entries after it */
  double E_before[STRINGS_LOG_EVENTS], E_after[STRINGS_LOG_EVENTS];
  int nprobe;                             /* probe times (set by the caller) */
  double probe_t[STRINGS_LOG_PROBES];
  double probe_y[STRINGS_LOG_PROBES][12]; /* first 12 state entries at probe_t */
  int probe_hit[STRINGS_LOG_PROBES];
  const bola_exact *ref;                  /* optional: deviation from it */
  double max_dev_pos;   /* max over samples and points of |r - r_ex| / L */
  double max_dev_rel;   /* max over samples of |x - x_ex| / |x_ex| (x = [r1 r2]) */
  double max_dev_vel;   /* max over samples of |v - v_ex| / |v_ex| */
  double t_max_dev_pos;
  long nsamples;
  /* constraint drift of the taut strings over the samples (set by
   * strings_run): max |phi_s| / L_s^2 and max |S.W| / (L_s |W|), the
   * relative velocity's share along the string */
  const sn_net *net;
  double max_taut_phi, max_taut_sw;
} strings_log;

/* Create the model for p and o, take its initial state, run to o->t_end.
 * stats, msg may be NULL. Returns the mbdae_run status (or a create error). */
int strings_run(const snm_params *p, mbdae_options *o, strings_log *log,
                mbdae_stats *stats, char *msg, size_t msglen);

/* Defaults of every parameter, as the kind's schema declares them. */
void strings_params_default(snm_params *p);

/* The seed's sec. 3.3 bola: masses 1 kg, L = 1 m, the upper point at
 * (0, 0, 0.5), the lower at the origin, both moving along x at 10 m/s, the
 * lower one 15% faster, gravity -9.81 z, e = 0.15. */
void strings_seed_bola(snm_params *p);
/* The same set-up as a closed-form reference. */
void strings_seed_bola_exact(bola_exact *b, const snm_params *p);

#endif
