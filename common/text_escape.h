/* Untrusted text made safe to show: the one rule for everything mcphost
 * prints to a terminal or writes to a log.
 *
 * A character that a terminal would obey, or that hides or reorders what a
 * reader sees, is written as a visible escape "<U+XXXX>" (four to six
 * upper-case hex digits) instead of being passed on or deleted:
 *   - C0 controls U+0000..U+001F (ESC, BEL, CR, BS, ...), DEL U+007F and
 *     C1 controls U+0080..U+009F (CSI U+009B and OSC U+009D act alone);
 *     newline and tab only when TEXT_ESCAPE_NEWLINES is given;
 *   - with TEXT_ESCAPE_INVISIBLE also the invisible and bidi characters:
 *     the bidi marks, embeddings, overrides and isolates, zero-width
 *     space and non-joiner, word joiner and invisible operators, the BOM,
 *     soft hyphen, line and paragraph separators, interlinear annotation
 *     marks and the tag characters U+E0000..U+E007F. The zero-width joiner
 *     U+200D is kept: it only joins (emoji sequences) and hides nothing.
 * A byte that is not part of valid UTF-8 is written "<0xNN>", but for the
 * pair C0 80: U+0000 as a JSON string holds it (common/json_parse.h),
 * written "<U+0000>".
 *
 * Nothing is normalized and nothing is removed: the escaped text tells the
 * reader exactly what the server sent. Pure functions, any thread, no
 * library needed (compiled into the host and into plugins). */
#ifndef MCPHOST_TEXT_ESCAPE_H
#define MCPHOST_TEXT_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

enum {
  /* Also escape '\n' and '\t' (a log line, a name, a one-line message);
   * without it they pass, as text content keeps its lines. */
  TEXT_ESCAPE_NEWLINES = 1u << 0,
  /* Also escape the invisible and bidi characters listed above. */
  TEXT_ESCAPE_INVISIBLE = 1u << 1,
  /* The same characters in JSON's notation, for JSON text (where only
   * string contents can hold them): "\u001b", a surrogate pair above
   * U+FFFF ("\udb40\udc41"), and an invalid byte as "\ufffd", so the
   * text stays valid JSON with the same values. '\n' and '\t' are
   * JSON's own whitespace then and pass. */
  TEXT_ESCAPE_JSON = 1u << 2,
};

/* Whether text_escape() would change `s` (`n` bytes). */
bool text_needs_escape(const char *s, size_t n, unsigned flags);

/* Returns a new NUL-terminated string (free with free()), `s` (`n` bytes,
 * NULs included) with the rule above applied; its length in `*out_len`
 * when not NULL. NULL only when memory runs out. */
char *text_escape(const char *s, size_t n, unsigned flags, size_t *out_len);

#endif
