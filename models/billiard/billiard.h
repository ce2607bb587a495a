/* billiard.h - the inelastic rotating gravitational billiard (hartl-miller-
 * mazzoleni): parameters and the model instance, shared by the model kind,
 * its tests, validation cases and benchmarks. */
#ifndef BILLIARD_BILLIARD_H
#define BILLIARD_BILLIARD_H

#include "mbdae/model.h"
#include "billiard/boundary.h"

/* State y = [q1, q2, v1, v2, u3]: centre position and velocity in the lab
 * frame and the spin about n3 (counter-clockwise positive). */
enum { BILLIARD_NY = 5 };

/* Event data columns of every collision (mbdae_event_info.data). */
enum {
  BILLIARD_EV_N = 0,        /* collision number 1, 2, ... */
  BILLIARD_EV_Q1, BILLIARD_EV_Q2,
  BILLIARD_EV_V1, BILLIARD_EV_V2, /* lab velocity after */
  BILLIARD_EV_U4, BILLIARD_EV_U5, /* tangential / normal velocity after */
  BILLIARD_EV_U3,           /* spin after */
  BILLIARD_EV_STICK,        /* 1 stick, 0 slip */
  BILLIARD_EV_VN_IN,        /* normal relative velocity before (< 0) */
  BILLIARD_EV_Q2_PREV,      /* q2 of the previous collision (return map) */
  BILLIARD_EV_FLIGHT,       /* t_n: time since the previous collision */
  BILLIARD_EV_FLIGHT_PREV,  /* t_{n-1} */
  BILLIARD_EV_Q2_NORM,      /* q2 / q2,max */
  BILLIARD_EV_U4_NORM,      /* u4 / u4,max */
  BILLIARD_EV_S,            /* contact point on the curve (moving frame) */
  BILLIARD_EV_COUNT
};

enum { BILLIARD_RULE_ELASTIC = 0, BILLIARD_RULE_NONE = 1 };
enum { BILLIARD_TAIL = 100 }; /* collisions kept for the outcomes */

typedef struct billiard_params {
  int shape;                       /* billiard_shape */
  double parabola_a, parabola_c;   /* eq. 9, SI */
  double wedge_slope, wedge_c;
  double hyperbola_alpha, hyperbola_beta, hyperbola_delta;
  double poly[BILLIARD_POLY_LEN];
  double poly_halfwidth;           /* |s| range checked for curvature */
  double amplitude, frequency;     /* eq. 10: dq1 = A sin(2 pi f t) */
  double radius, mass, inertia_factor, gravity;
  double restitution, mu_static, mu_kinetic;
  int friction, drag;
  double c1, c2;                   /* eq. 2 drag constants */
  int low_speed_rule;              /* BILLIARD_RULE_* */
  double v_elastic;                /* |v_n| below which e = 1 (paper §V) */
  int low_speed_friction;          /* friction also in those collisions */
  double v_rebound_min;            /* least separation speed in those */
  int collisions;                  /* stop after this many */
  double x0, y0, vx0, vy0, spin0;  /* initial centre position/velocity, spin */
} billiard_params;

struct mbdae_model {
  billiard_params p;
  billiard_curve curve;
  int npieces;
  double omega, J;
  mbdae_problem *problem;
  /* collision history (the handler is the only writer) */
  long n;
  int have_prev;
  double t_prev, q2_prev, flight_prev;
  long sticks;
  double tail_q2[BILLIARD_TAIL];
  double tail_flight[BILLIARD_TAIL];
  double last_data[BILLIARD_EV_COUNT];
  /* simultaneous contacts: impacts allowed at one instant (set by create from
   * the corner angle, billiard_model.c), and the handler's failure message */
  int max_impacts;
  char msg[256];
};

extern const mbdae_model_kind mbdae_model_billiard;

/* Fill p with the schema defaults (the paper's parabola and ball). */
void billiard_params_default(billiard_params *p);
/* Drive offset dq1(t) and its rate (eq. 10). */
double billiard_drive(const struct mbdae_model *m, double t, double *rate);
/* Signed gap (distance - b) of every piece at (t, y); foot may be NULL. */
int billiard_gaps(const struct mbdae_model *m, double t, const double *y,
                  double *g, billiard_foot *foot);
/* The collision handler of the problem (for tests of a single impact). */
int billiard_handle_event(struct mbdae_model *m, double t, double *y, double *yp,
                          const int *dirs, mbdae_event_info *info);
/* Total mechanical energy (translation, rotation, gravity about q2 = 0). */
double billiard_energy(const struct mbdae_model *m, const double *y);

#endif
