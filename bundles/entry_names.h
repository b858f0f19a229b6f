/* The checks of a bundle entry's name (extract.h): the path rules, and
 * the set of names seen so far, which finds a duplicate also after
 * Unicode case folding. Pure; any thread. */
#ifndef MCPB_ENTRY_NAMES_H
#define MCPB_ENTRY_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "extract.h"

/* Why `name` may not be written, or NULL. `dir` says it names a
 * directory (a trailing '/' is allowed then). The reason is static. */
const char *entry_name_rule(const char *name, bool dir,
                            const extract_limits *lim);

/* The names seen; {0} is an empty set. */
typedef struct entry_names {
  char **slots;
  size_t cap, count;
} entry_names;

/* Adds `name` (without its trailing '/'); false when it was there
 * already, in any case. */
bool entry_names_add(entry_names *ns, const char *name);
void entry_names_free(entry_names *ns);

#endif
