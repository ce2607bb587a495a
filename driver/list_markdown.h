/* list_markdown.h - the scenario reference (every key of the solver:,
 * output: and each model's parameters: section) as Markdown, generated from
 * the schemas the loader checks: `mbdae list --markdown` writes
 * doc/scenario-reference.md, and a test keeps the committed file equal. */
#ifndef MBDAE_DRIVER_LIST_MARKDOWN_H
#define MBDAE_DRIVER_LIST_MARKDOWN_H

#include <stdio.h>

/* Write the reference to f; 0, or -1 if writing failed. */
int mbdae_list_markdown(FILE *f);

#endif
