/* interrupt_poll.h - the question the long phases before a run's first
 * sample ask (the YAML parse of a large file, the model's creation and
 * initial state, through mbdae_options::cancel also the engine): did
 * SIGINT/SIGTERM arrive? The command installs the answer with its signal
 * handler (interrupt.h); the library itself handles no signal. A test
 * installs its own (interrupted at its k-th poll: no timing race). */
#ifndef MBDAE_DRIVER_INTERRUPT_POLL_H
#define MBDAE_DRIVER_INTERRUPT_POLL_H

/* fn(data) != 0: interrupted (it must stay so once said). NULL: never. */
void mbdae_interrupt_poll_set(int (*fn)(void *data), void *data);

/* Nonzero once interrupted. */
int mbdae_interrupt_poll(void);

#endif
