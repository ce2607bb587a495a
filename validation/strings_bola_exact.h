/* strings_bola_exact.h - closed-form bola (capps 2021, App. I), written
 * independently of the model code: the relative motion of two point masses
 * under uniform gravity is force-free, so slack phases are straight lines;
 * an impact reverses the normal relative velocity scaled by e; with
 * tangential relative velocity and e < 1 the impacts accumulate at a finite
 * time t_inf, after which the pair rotates rigidly (|d| = L) while the centre
 * of mass falls. */
#ifndef MBDAE_STRINGS_BOLA_EXACT_H
#define MBDAE_STRINGS_BOLA_EXACT_H

#define BOLA_MAX_IMPACTS 1000

typedef struct bola_exact {
  double m1, m2, L, e, g[3];
  double r1[3], r2[3], v1[3], v2[3]; /* at t = 0 */
  /* computed */
  int nimp;                          /* impacts found (<= BOLA_MAX_IMPACTS) */
  double t_imp[BOLA_MAX_IMPACTS];
  double d_imp[BOLA_MAX_IMPACTS][3]; /* relative position at impact k */
  double w_post[BOLA_MAX_IMPACTS][3];/* relative velocity after impact k */
  double wn_pre[BOLA_MAX_IMPACTS];   /* normal relative speed before impact k */
  double dE[BOLA_MAX_IMPACTS];       /* kinetic energy lost at impact k */
  int accumulates;                   /* 1: impacts accumulate at t_inf */
  double t_inf;
  double d_inf[3], w_inf[3];         /* state entering the taut rotation */
} bola_exact;

/* Compute the impact sequence up to t_end (or its accumulation point).
 * Returns 0, or -1 if the string is never reached. */
int bola_exact_solve(bola_exact *b, double t_end);
/* Positions and velocities of both masses at time t (x = [r1 r2], v = [v1 v2]). */
void bola_exact_state(const bola_exact *b, double t, double x[6], double v[6]);

#endif
