/* message_line.h - a one-line error message for the driver's loaders. */
#ifndef MBDAE_DRIVER_MESSAGE_LINE_H
#define MBDAE_DRIVER_MESSAGE_LINE_H

#include <stddef.h>

/* Format into err (when err and errlen are given) as exactly one line: any
 * newline or carriage return from the input is replaced by a space. Returns
 * status, so a caller can `return mbdae_message_line(err, len, code, ...)`. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
int mbdae_message_line(char *err, size_t errlen, int status, const char *fmt, ...);

#endif
