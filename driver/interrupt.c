/* interrupt.c - record SIGINT/SIGTERM for the run's observer (interrupt.h). */
#define _POSIX_C_SOURCE 200809L
#include "interrupt.h"

#include <string.h>

#include "interrupt_poll.h"

volatile sig_atomic_t mbdae_interrupt_signal = 0;

static void on_signal(int sig) { mbdae_interrupt_signal = sig; }

static int signal_seen(void *data) {
  (void)data;
  return mbdae_interrupt_signal;
}

int mbdae_interrupt_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND; /* the next one takes the default action: kill */
  if (sigaction(SIGINT, &sa, NULL) != 0) return -1;
  if (sigaction(SIGTERM, &sa, NULL) != 0) return -1;
  mbdae_interrupt_poll_set(signal_seen, NULL); /* the loader's and set-up's polls */
  return 0;
}

int mbdae_interrupt_exit_code(void) {
  int sig = mbdae_interrupt_signal;
  return 128 + (sig > 0 ? sig : SIGTERM);
}
