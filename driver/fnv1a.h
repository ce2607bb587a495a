/* fnv1a.h - the 64-bit FNV-1a hash: checkpoint checksums and the
 * fingerprint of a sweep's journal. A check against accidents (a truncated
 * or foreign file), not against a forger: what such files restore is
 * validated field by field. */
#ifndef MBDAE_DRIVER_FNV1A_H
#define MBDAE_DRIVER_FNV1A_H

#include <stddef.h>
#include <stdint.h>

#define MBDAE_FNV1A_SEED 1469598103934665603ULL

/* The hash h (MBDAE_FNV1A_SEED to start) continued over n bytes at p. */
static inline uint64_t mbdae_fnv1a(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; ++i) {
    h ^= b[i];
    h *= 1099511628211ULL;
  }
  return h;
}

#endif
