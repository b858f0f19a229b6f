/* Large answers passed on without a tree.
 *
 * A big tool result (megabytes of text) costs more to parse into cJSON and
 * print again than everything else a call does. When the text could not
 * change on the way (sanitizing never changes ASCII, and a result kept as
 * sent keeps any valid UTF-8) and the caller only forwards it (mcphost
 * batch), the result's JSON text is checked and handed on as it is,
 * without the whitespace between tokens. Anything
 * this scanner does not fully accept takes the ordinary path, so it never
 * decides alone what is valid: it only recognizes the plain case.
 *
 * No allocation, no recursion: nesting is counted, not followed. */
#ifndef MCPHOST_JSON_RAW_H
#define MCPHOST_JSON_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The deepest nesting accepted (the ordinary path takes deeper ones). */
#define JSON_RAW_MAX_DEPTH 512

/* What json_raw_response found. */
typedef struct json_raw_info {
  int64_t id;
  size_t result_off, result_len; /* the result value's text */
  bool ascii;   /* every string is ASCII (what a sanitizing caller needs) */
  bool compact; /* no whitespace outside the result's strings: a plain
                 * copy does what json_raw_minify would */
  /* Of the result's own members (the first of each name, as the tree's
   * lookup finds them): "isError" is true; "resultType" is there and not
   * the string "complete". */
  bool is_error, type_other;
} json_raw_info;

/* True when `s[0..len)` is a JSON-RPC response this module can pass on,
 * *info then filled:
 *   - valid JSON, nothing but whitespace after it;
 *   - valid UTF-8, with escapes only in the forms json_write itself
 *     writes (\u only for U+0000 and the control characters without a
 *     short escape, in lower-case hex; no "\/"), so the text passed on
 *     is the very text the ordinary path would print (which writes any
 *     number back as its token, json_parse.h);
 *   - nested at most JSON_RAW_MAX_DEPTH deep;
 *   - an object with exactly one "id", an integer, and exactly one
 *     "result"; no "error" and no "method"; no escapes in its own keys. */
bool json_raw_response(const char *s, size_t len, json_raw_info *info);

/* The length of the one JSON value at `s` (whitespace before it
 * skipped), of at most `len` bytes, when it is one that
 * json_raw_response would pass on (the same forms, nested at most
 * `max_depth` deep); 0 when it is not. Text after it is the caller's. */
size_t json_raw_value(const char *s, size_t len, int max_depth);

/* Copies the JSON text `s[0..len)` to `dst` (room for `len` bytes)
 * without whitespace outside strings; returns the bytes written. `dst`
 * may be `s`, or before it in the same buffer (a text minified where it
 * is). The text must be valid JSON (json_raw_response checked it). */
size_t json_raw_minify(const char *s, size_t len, char *dst);

#endif
