/* cJSON's allocations in the mcphost executable: small blocks kept for
 * reuse (json_alloc.c). */
#ifndef MCPHOST_CLI_JSON_ALLOC_H
#define MCPHOST_CLI_JSON_ALLOC_H

/* Installs the hooks; called once, first thing in main(), before any
 * tree is made. Does nothing in a sanitizer build or without glibc. */
void json_alloc_install(void);

#endif
