/* message_line.c - a one-line error message for the driver's loaders. */
#include "message_line.h"

#include <stdarg.h>
#include <stdio.h>

int mbdae_message_line(char *err, size_t errlen, int status, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    for (char *c = err; *c; ++c) /* exactly one line, whatever the input */
      if (*c == '\n' || *c == '\r') *c = ' ';
  }
  return status;
}
