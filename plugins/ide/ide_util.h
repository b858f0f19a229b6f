/* Helpers of the IDE plugin: formatting that aborts when memory runs out,
 * as common/alloc.h's allocation does (which they use), and the one-line
 * escape. Any thread. */
#ifndef MCPH_IDE_UTIL_H
#define MCPH_IDE_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#include "alloc.h"

/* Untrusted text for one line of a terminal or log: text_escape() with
 * TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE. New string. */
char *ide_esc(const char *s);
/* New strings; free with free(). */
char *ide_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *ide_vasprintf(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

#endif
