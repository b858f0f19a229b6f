/* "Did you mean": the names closest to one that was not found, by edit
 * distance over normalized names (case folded, '-', '.', '/' and ' ' as
 * '_'), so "mcp__every__Echo" finds "mcp__every__echo" and "get-sum"
 * finds "get_sum". Any thread. */
#ifndef MCPHOST_COMMON_SUGGEST_H
#define MCPHOST_COMMON_SUGGEST_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "util.h"

/* Appends to `out` the candidates close to `want` (at most 3, closest
 * first, ties in the candidates' order) as ` (did you mean "a" or "b"?)`;
 * appends nothing when none is close (a distance of at most a third of
 * the longer name, rounded down; or, for names of 3 characters or more,
 * one contains the other). Returns the number of names suggested. */
size_t mcp_suggest(strbuf *out, const char *want, const char *const *names,
                   size_t n);

/* The same over a JSON array of names (its strings; others skipped). */
size_t mcp_suggest_array(strbuf *out, const char *want, const cJSON *names);

/* The edit distance (Levenshtein, with a swap of two neighbours as one
 * edit; on bytes) between the normalized forms of `a` and `b`. */
size_t mcp_name_distance(const char *a, const char *b);

#endif
