/* interrupt.h - SIGINT/SIGTERM during a run (doc/checkpoint.md): the
 * handler only records the signal; the engine sees the flag at the next
 * model evaluation, the run stops, checkpoints and marks summary.json
 * "interrupted". Before the first sample (loading, model creation, initial
 * state) the long phases poll it through mbdae_interrupt_poll (interrupt_poll.h;
 * the models through mbdae_options::cancel): the run ends with nothing
 * written. A
 * second signal of the same kind kills at once. */
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
