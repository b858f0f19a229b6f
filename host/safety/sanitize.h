/* Unicode sanitizing of what a server sends. A server is not trusted
 * with what names things or reaches a model: every string of such a
 * message (object keys and string values, at any depth) is made
 *   - valid UTF-8: each ill-formed sequence (overlong, surrogate, beyond
 *     U+10FFFF, truncated, stray byte) becomes U+FFFD, one per maximal
 *     ill-formed subpart as Unicode recommends;
 *   - NFKC-normalized, repeatedly until stable (bounded);
 *   - free of format (Cf), private-use (Co) and unassigned (Cn) code
 *     points: zero-width characters, the BOM, bidi controls, tag
 *     characters, noncharacters.
 * Pure-ASCII text is only scanned: it cannot change. Text that the
 * Unicode tables prove unchanged (unicode_quick.h: accented letters,
 * CJK, emoji and most other text already in NFKC) is only read; the rest
 * is decoded and normalized by the same tables, which are generated from
 * ICU at build time and give exactly ICU's NFKC: ICU is never opened at
 * run time, so sanitizing cannot fail for want of it. Loop thread (or
 * any single thread): no shared state. */
#ifndef MCPHOST_SANITIZE_H
#define MCPHOST_SANITIZE_H

#include <cjson/cJSON.h>
#include <stdbool.h>
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

/* Only the first step, for text kept as sent: every ill-formed UTF-8
 * sequence of every key and string value becomes U+FFFD (JSON is UTF-8;
 * nothing else can carry such bytes on), nothing else changes.
 * Returns how many strings changed. */
size_t sanitize_json_utf8(cJSON *root);

/* What a message from a server is, for the rule applied to it. */
typedef enum sanitize_kind {
  SANITIZE_NAMES = 0, /* lists, schemas, descriptions, names, and all else */
  SANITIZE_RESULT,    /* a tools/call, resources/read or prompts/get result
                         shown to a person or handed to a script */
  SANITIZE_MODEL      /* text bound for a model (channels, the gateway) */
} sanitize_kind;

/* --sanitize: the rule for each kind (docs/safety.md). */
typedef enum sanitize_mode {
  SANITIZE_MODE_DEFAULT = 0, /* names and model text full; results kept */
  SANITIZE_MODE_FULL,        /* everything full, results too */
  SANITIZE_MODE_DISPLAY,     /* names and results kept, shown escaped */
  SANITIZE_MODE_OFF          /* kept, shown with only controls escaped */
} sanitize_mode;

/* Parses "full", "display" or "off"; false for anything else. */
bool sanitize_mode_parse(const char *s, sanitize_mode *out);

/* Whether text of `kind` gets the whole treatment under `mode`; else it
 * is kept as sent (sanitize_json_utf8). Model-bound text always does: a
 * display option must not open a model to hidden instructions. */
bool sanitize_is_full(sanitize_mode mode, sanitize_kind kind);

/* Sanitizes a parsed message of `kind` in place, under `mode`: every
 * member but the top-level "id" (an opaque token, echoed as sent). */
void sanitize_message(cJSON *msg, sanitize_mode mode, sanitize_kind kind);

/* Tests only: with false, text the Unicode tables would prove clean is
 * decoded and normalized as all other non-ASCII text is (the result is
 * the same: the tables' tests compare the two). Not thread-safe; true by
 * default. */
void sanitize_use_quick_tables(bool on);

/* The text_escape() flags (text_escape.h) for showing text kept as sent
 * on a terminal under `mode`: invisible and bidi characters too, except
 * with "off". */
unsigned sanitize_escape_flags(sanitize_mode mode);

#endif
