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

/* The whole file (at most 256 MiB) in a malloc'd NUL-terminated *text of
 * *len bytes, checked with mbdae_text_check. 0, MBDAE_ERR_IO ("PATH: cannot
 * read the file"), MBDAE_ERR_SCENARIO or MBDAE_ERR_MEMORY; *text is NULL on
 * failure. */
int mbdae_text_file_read(const char *path, char **text, size_t *len, char *err,
                         size_t errlen);

#endif
