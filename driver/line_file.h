/* line_file.h - an output file that always ends with a whole line, whatever
 * happens to the process: a row is built in memory and handed to stdio only
 * whole, stdio's buffer is flushed before it could split a row, and at least
 * once a second (so `tail -f` follows a long run). Cheaper than line
 * buffering, which costs one write(2) per row. */
#ifndef MBDAE_DRIVER_LINE_FILE_H
#define MBDAE_DRIVER_LINE_FILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct mbdae_line_file {
  FILE *f;
  char *iobuf;         /* stdio's buffer (ours: glibc ignores a size without one) */
  char *line;          /* the row being built */
  size_t n, cap;
  size_t pending;      /* bytes handed to stdio since its last flush */
  double last_flush;   /* CLOCK_MONOTONIC seconds */
  int failed;          /* an allocation or a write failed */
  int errnum;          /* errno of the failed write (0: none) */
  long long committed; /* file length after the last successful flush: whole rows */
} mbdae_line_file;

/* Create DIR/NAME. 0, or MBDAE_ERR_IO with "cannot write PATH: reason". */
int mbdae_line_file_open(mbdae_line_file *lf, const char *dir, const char *name,
                         char *err, size_t errlen);

/* Resume DIR/NAME from a checkpoint: keep its first length bytes (MBDAE_ERR_IO
 * when the file is shorter) and append. */
int mbdae_line_file_reopen(mbdae_line_file *lf, const char *dir, const char *name,
                           long long length, char *err, size_t errlen);
/* Flush and fsync everything handed over; *length = the file's size. */
int mbdae_line_file_sync(mbdae_line_file *lf, long long *length);

/* Append to the current row. */
void mbdae_line_file_puts(mbdae_line_file *lf, const char *s);
void mbdae_line_file_printf(mbdae_line_file *lf, const char *fmt, ...);
/* A CSV field, quoted (RFC 4180) when it holds a comma, quote or newline. */
void mbdae_line_file_csv_field(mbdae_line_file *lf, const char *s);
/* A number for CSV: %.15g (nan/inf as C prints them). */
void mbdae_line_file_csv_number(mbdae_line_file *lf, double v);
/* "name [unit]" (just "name" when unit is empty) as a CSV field. */
void mbdae_line_file_csv_header(mbdae_line_file *lf, const char *name, const char *unit);

/* End the row with '\n' and hand it over. 0 or MBDAE_ERR_IO. */
int mbdae_line_file_end_line(mbdae_line_file *lf);
/* Flush everything handed over. 0 or MBDAE_ERR_IO. */
int mbdae_line_file_flush(mbdae_line_file *lf);
/* Flush and close (safe on a never-opened or closed file). 0 or MBDAE_ERR_IO. */
int mbdae_line_file_close(mbdae_line_file *lf);

#endif
