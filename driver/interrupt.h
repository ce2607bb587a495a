/* interrupt.h - SIGINT/SIGTERM during a run (doc/checkpoint.md): the
 * handler only records the signal; the run's observer sees the flag at the
 * next output sample, stops, checkpoints and marks summary.json
 * "interrupted". A second signal of the same kind kills at once. */
#ifndef MBDAE_DRIVER_INTERRUPT_H
#define MBDAE_DRIVER_INTERRUPT_H

#include <signal.h>

/* 0, or the number of the signal received. */
extern volatile sig_atomic_t mbdae_interrupt_signal;

/* Install the handler for SIGINT and SIGTERM. 0 or -1. */
int mbdae_interrupt_install(void);

/* The exit code of an interrupted run: 128 + the signal (130 SIGINT, 143 SIGTERM). */
int mbdae_interrupt_exit_code(void);

#endif
