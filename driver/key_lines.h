/* key_lines.h - where each scenario key was given (file line or command-line
 * override), so that checks made after parsing can still name FILE:LINE. */
#ifndef MBDAE_DRIVER_KEY_LINES_H
#define MBDAE_DRIVER_KEY_LINES_H

typedef struct mbdae_key_line {
  char *key;     /* full dotted key: "parameters.e", "parameters.tab[2]" */
  int line;      /* 1-based line in the file (0: not from the file) */
  char *origin;  /* the override text ("parameters.e=0.5") or NULL */
} mbdae_key_line;

typedef struct mbdae_key_lines {
  mbdae_key_line *v;
  int n, cap;
} mbdae_key_lines;

/* Append (file parse: keys are unique there). */
int mbdae_key_lines_add(mbdae_key_lines *kl, const char *key, int line,
                        const char *origin);
/* Record an override of key: drops entries of key and of its elements
 * ("key[...]"), then appends. */
int mbdae_key_lines_override(mbdae_key_lines *kl, const char *key,
                             const char *origin);
/* The latest entry for key, or NULL. */
const mbdae_key_line *mbdae_key_lines_find(const mbdae_key_lines *kl,
                                           const char *key);
int mbdae_key_lines_copy(mbdae_key_lines *dst, const mbdae_key_lines *src);
void mbdae_key_lines_free(mbdae_key_lines *kl);

#endif
