/* JSON text to a cJSON tree, exactly (RFC 8259, strict).
 *
 * cJSON stays the tree every module reads, but cJSON's own parser loses
 * data: a number becomes a double (9007199254740993 comes back as
 * 9007199254740992, 12345678901234567890 as 1.23456789012346e+19) and a
 * string ends at its first U+0000. This parser builds ordinary cJSON
 * items and carries what a double or a C string cannot hold inside them,
 * so that every cJSON function stays safe on its trees:
 *   - a number whose double would not print back as its token (json_write
 *     prints a number as cJSON does) keeps the token's text in
 *     `valuestring` (cJSON_Delete frees it for any type, cJSON_Duplicate
 *     copies it); valuedouble and valueint are set as cJSON sets them. A
 *     number that prints back the same (most of them: integers of up to
 *     15 digits, 0.5) costs nothing more;
 *   - U+0000 in a string is held as the two bytes C0 80 ("modified
 *     UTF-8", as Java's JNI does), so strings stay NUL-terminated. C0 is
 *     never part of valid UTF-8; a raw C0 80 in the text reads as U+0000
 *     too. json_write writes it back as \u0000; json_nul_restore gives
 *     the bytes for a file or a pipe; text_escape shows it as <U+0000>.
 *
 * Strict: nothing but one value with optional space, tab, CR and LF
 * around it; no control character unescaped in a string; no leading
 * zero, "1.", ".5" or "+1"; no byte order mark; a \u escape of half a
 * surrogate pair is refused (UTF-8 cannot hold it), as cJSON refuses it.
 * Bytes that are not valid UTF-8 pass as they are (the sanitizer deals
 * with names that hold them), as with cJSON.
 *
 * Recursion is bounded by JSON_PARSE_MAX_DEPTH. Pure functions, any
 * thread; allocations through cJSON's hooks. */
#ifndef MCPHOST_JSON_PARSE_H
#define MCPHOST_JSON_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

/* Arrays and objects nested deeper than this are refused (cJSON's own
 * limit, CJSON_NESTING_LIMIT). */
#define JSON_PARSE_MAX_DEPTH 1000

typedef struct {
  size_t offset;    /* the first byte that is not JSON (len at the end) */
  const char *what; /* what is wrong there: a static phrase */
} json_error;

/* The tree of `text[0..len)` (NULs inside count as bytes, and are
 * refused), a new tree to free with cJSON_Delete; NULL when the text is
 * not one JSON value, with *err (when not NULL) saying where and why.
 * Out of memory aborts. */
cJSON *json_parse(const char *text, size_t len, json_error *err);

/* json_parse, and where in `text` the value of the first member `key` of
 * the top object is: [*off, *off + *n), the text as it came (*n 0 when
 * the top value is no object or has no such member). That value is
 * checked as the rest is, with the same errors, but not built: the tree
 * has no such member. For a caller that passes that value on as text
 * (batch, a request's "arguments"), with no tree of it made and deleted
 * unread. */
cJSON *json_parse_span(const char *text, size_t len, json_error *err,
                       const char *key, size_t *off, size_t *n);

/* Strings from this size are decoded in place by json_parse_owned. */
#define JSON_PARSE_ADOPT_MIN ((size_t)64 << 10)

/* json_parse of a text in a buffer the caller gives up (from malloc(),
 * as cJSON's default hooks allocate), for a message of megabytes: the
 * first string value of JSON_PARSE_ADOPT_MIN bytes or more is decoded in
 * place and the buffer, shrunk, becomes its valuestring, so the text is
 * held once, never twice; without such a string the buffer is freed. On
 * an error NULL, and the buffer stays the caller's, the same but for the
 * characters of that one string (each replaced by '.'; those read, when
 * the error is in it): the tokens around it, an id among them, read as
 * before. */
cJSON *json_parse_owned(char *buf, size_t len, json_error *err);

/* json_parse of a NUL-terminated text, without the error; NULL for a
 * NULL `text`. */
cJSON *json_parse_str(const char *text);

/* "invalid JSON near line L, column C: WHAT" for an error of json_parse on
 * `text` (columns count characters). A new string; free with free(). */
char *json_error_text(const char *text, size_t len, const json_error *err);

/* json_parse, or NULL with *why, a new sentence saying where the JSON is
 * invalid (json_error_text). The one parser for configuration files and
 * for JSON typed on a command line. */
cJSON *json_parse_why(const char *text, size_t len, char **why);

/* "an object", "an array", "a string", ...: what a value is, for a
 * message. */
const char *json_kind(const cJSON *v);

/* Whether `s[0..n)` is exactly one JSON number token. */
bool json_is_number_token(const char *s, size_t n);

/* A number item for the JSON number token `s` (as json_parse makes it,
 * the token kept where its double would not print back the same); NULL
 * when `s` is not a token. For numbers a person typed. */
cJSON *json_number_from_token(const char *s);

/* Copies `n` bytes of `src` to `dst` (room for `n`, may be `src`) with
 * each C0 80 turned back into a NUL byte; returns the bytes written. */
size_t json_nul_restore(char *dst, const char *src, size_t n);

/* Writes those bytes to `f` without a copy (a text of megabytes); false
 * when a write failed (errno says why). */
bool json_nul_fwrite(FILE *f, const char *src, size_t n);

#endif
