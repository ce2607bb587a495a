/* base64.c - base64 (RFC 4648) encoding onto a stream. */
#include "base64.h"

static const char digits[] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void group(FILE *f, const unsigned char *p, int n) {
  unsigned v = (unsigned)p[0] << 16 | (n > 1 ? (unsigned)p[1] << 8 : 0u) | (n > 2 ? p[2] : 0u);
  char out[4] = {digits[v >> 18 & 63], digits[v >> 12 & 63], n > 1 ? digits[v >> 6 & 63] : '=',
                 n > 2 ? digits[v & 63] : '='};
  fwrite(out, 1, 4, f);
}

void mbdae_base64_begin(mbdae_base64 *b, FILE *f) {
  b->f = f;
  b->npending = 0;
}

void mbdae_base64_put(mbdae_base64 *b, const void *data, size_t n) {
  const unsigned char *p = data;
  while (n > 0 && b->npending > 0 && b->npending < 3) {
    b->pending[b->npending++] = *p++;
    --n;
    if (b->npending == 3) {
      group(b->f, b->pending, 3);
      b->npending = 0;
    }
  }
  for (; n >= 3; n -= 3, p += 3) group(b->f, p, 3);
  while (n-- > 0) b->pending[b->npending++] = *p++;
}

void mbdae_base64_end(mbdae_base64 *b) {
  if (b->npending > 0) group(b->f, b->pending, b->npending);
  b->npending = 0;
}
