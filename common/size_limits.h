/* How much of what a server sends is passed on: the length of tool names,
 * of descriptions, of text results. The defaults are Claude Code's; each
 * can be changed by an environment variable (documented in --help and
 * docs/safety.md). Also: counting and cutting UTF-8 text by characters
 * (code points), which is what the limits count. */
#ifndef MCPHOST_SIZE_LIMITS_H
#define MCPHOST_SIZE_LIMITS_H

#include <stdbool.h>
#include <stddef.h>

#define LIMIT_NAME_CHARS 64     /* MCPHOST_MAX_NAME_CHARS */
#define LIMIT_NAME_CHARS_MIN 32 /* room for a shortened server and tool */
#define LIMIT_NAME_CHARS_MAX 1024
#define LIMIT_DESCRIPTION_CHARS 2048 /* MCPHOST_MAX_DESCRIPTION_CHARS */
#define LIMIT_OUTPUT_CHARS 100000    /* MCPHOST_MAX_OUTPUT_CHARS */

/* What a cut description ends with. */
#define LIMIT_TRUNCATED_SUFFIX "... [truncated]"

typedef struct limits {
  size_t name_chars;        /* a whole mcp__server__tool name */
  size_t description_chars; /* a tool's or prompt's description */
  size_t output_chars;      /* the text of one result, as printed; 0: all */
  bool output_forced;       /* set by MCPHOST_MAX_OUTPUT_CHARS (or the
                               command line): cut everywhere, not only on a
                               terminal */
} limits;

/* The defaults. */
void limits_default(limits *l);

/* Sets the output limit as asked for (--max-output-chars): a whole
 * number of characters, 0 for none. Returns false for anything else. */
bool limits_set_output(limits *l, const char *value);

/* The defaults, overridden by the environment variables that are set.
 * Returns NULL, or a new string (free()) saying which values were bad and
 * ignored, separated by "; ". */
char *limits_from_env(limits *l);

/* The number of characters in s[0..len): bytes that start a code point. */
size_t utf8_count(const char *s, size_t len);

/* The byte offset in s[0..len) where character `n` starts (`len` when the
 * text has n characters or fewer): a cut there never splits one. */
size_t utf8_offset(const char *s, size_t len, size_t n);

/* A description over `max_chars` characters, cut to them and followed by
 * LIMIT_TRUNCATED_SUFFIX: a new string (free()). NULL when it fits. */
char *limits_cut_description(const char *desc, size_t max_chars);

/* `s` cut to at most `width` columns (display_width.h) for one line of
 * a terminal: at the last space in its last third when there is one (else
 * anywhere but inside a "<U+XXXX>" escape of text_escape.h), followed by "…"
 * (which the width counts). A new string (free()); NULL when it fits. */
char *limits_cut_to_width(const char *s, size_t width);

#endif
