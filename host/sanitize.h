/* Unicode sanitizing of everything a server sends. A server is not
 * trusted with what reaches a model or a terminal: every string (object
 * keys and string values, at any depth) is made
 *   - valid UTF-8: each ill-formed sequence (overlong, surrogate, beyond
 *     U+10FFFF, truncated, stray byte) becomes U+FFFD, one per maximal
 *     ill-formed subpart as Unicode recommends;
 *   - NFKC-normalized, repeatedly until stable (bounded);
 *   - free of format (Cf), private-use (Co) and unassigned (Cn) code
 *     points: zero-width characters, the BOM, bidi controls, tag
 *     characters, noncharacters.
 * Pure-ASCII text is never handed to ICU: it cannot change. ICU is
 * opened on the first non-ASCII text (common/icu_dl.h); when it cannot
 * be, that text fails closed: each of its non-ASCII segments becomes one
 * U+FFFD, and one warning says why. Loop thread (or any single thread):
 * no shared state beyond ICU's own singletons. */
#ifndef MCPHOST_SANITIZE_H
#define MCPHOST_SANITIZE_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* Normalizing and filtering stop after this many rounds even if the text
 * keeps changing; a filter pass always runs last, so the guarantees
 * above hold for the result in any case. */
#define SANITIZE_MAX_ROUNDS 10

/* Sanitizes every object key and string value of `root` (which may be
 * NULL), in place. The walk is iterative: no depth overflows the stack.
 * Returns how many strings changed. */
size_t sanitize_json(cJSON *root);

/* Returns a new NUL-terminated string (free with free()): the `len` bytes
 * at `s` sanitized. *out_len, when not NULL, receives its length. */
char *sanitize_text(const char *s, size_t len, size_t *out_len);

#endif
