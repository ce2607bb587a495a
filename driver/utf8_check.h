/* utf8_check.h - is a buffer well-formed UTF-8? The scenario loader checks
 * its input before the YAML parser sees it: YAML text is Unicode (the
 * library used before libyaml looped forever on a malformed byte in a
 * directive line, "%\x93", found by tests/fuzz/fuzz_scenario). */
#ifndef MBDAE_DRIVER_UTF8_CHECK_H
#define MBDAE_DRIVER_UTF8_CHECK_H

#include <stddef.h>

/* Offset of the first byte of s[0..n) that is not part of a well-formed
 * UTF-8 sequence (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF) or is a NUL; n when every byte is fine. */
size_t mbdae_utf8_check(const char *s, size_t n);

#endif
