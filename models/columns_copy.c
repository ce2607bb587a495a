/* columns_copy.c - the common answer of a model kind's column callbacks. */
#include "mbdae/model.h"

int mbdae_columns_copy(const mbdae_column *src, int n, mbdae_column *cols,
                       int max) {
  if (!cols) return n;
  int k = n < max ? n : max;
  for (int i = 0; i < k; ++i) cols[i] = src[i];
  return k;
}
