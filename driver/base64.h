/* base64.h - base64 (RFC 4648) encoding of bytes onto a stream, for the
 * binary arrays of VTK XML files (writer_vtk.c). */
#ifndef MBDAE_DRIVER_BASE64_H
#define MBDAE_DRIVER_BASE64_H

#include <stddef.h>
#include <stdio.h>

/* A base64 encoder writing to f: feed bytes in any pieces, then end. */
typedef struct mbdae_base64 {
  FILE *f;
  unsigned char pending[3];
  int npending;
} mbdae_base64;

void mbdae_base64_begin(mbdae_base64 *b, FILE *f);
void mbdae_base64_put(mbdae_base64 *b, const void *data, size_t n);
/* The last group, padded with '='. */
void mbdae_base64_end(mbdae_base64 *b);

#endif
