/* text_input.h - the YAML input of the loaders (scenario, study) as checked
 * text: read a whole file, and reject anything that is not UTF-8 text
 * before the YAML parser sees it (the library used before libyaml looped
 * forever on a malformed byte in a directive line, "%\x93"; found by
 * tests/fuzz/fuzz_scenario), naming the line and column. */
#ifndef MBDAE_DRIVER_TEXT_INPUT_H
#define MBDAE_DRIVER_TEXT_INPUT_H

#include <stddef.h>

/* 0 when text[0..len) is UTF-8 without NUL bytes, else MBDAE_ERR_SCENARIO
 * and "NAME:LINE: not UTF-8 text (malformed byte 0x93 at column 2)". */
int mbdae_text_check(const char *name, const char *text, size_t len, char *err,
                     size_t errlen);

/* Largest input file: 256 MiB. */
#define MBDAE_TEXT_MAX_BYTES ((size_t)256 << 20)

/* The whole file in a malloc'd NUL-terminated *text of *len bytes, checked
 * with mbdae_text_check. Only a regular file of at most 256 MiB is read (a
 * FIFO, /dev/zero or a directory is refused without waiting or reading).
 * 0, MBDAE_ERR_IO ("PATH: cannot open: not a regular file ..."),
 * MBDAE_ERR_SCENARIO ("PATH: larger than 256 MiB ...", not UTF-8) or
 * MBDAE_ERR_MEMORY; *text is NULL on failure. */
int mbdae_text_file_read(const char *path, char **text, size_t *len, char *err,
                         size_t errlen);

#endif
