/* interrupt_poll.c - the set-up's "interrupted?" question (interrupt_poll.h). */
#include "interrupt_poll.h"

static int (*poll_fn)(void *data);
static void *poll_data;

void mbdae_interrupt_poll_set(int (*fn)(void *data), void *data) {
  poll_fn = fn;
  poll_data = data;
}

int mbdae_interrupt_poll(void) { return poll_fn ? poll_fn(poll_data) : 0; }
