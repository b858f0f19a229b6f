/* Allocation helpers of the IDE plugin: they abort when memory runs out,
 * as the host's do. Any thread. */
#ifndef MCPH_IDE_UTIL_H
#define MCPH_IDE_UTIL_H

#include <stdarg.h>
#include <stddef.h>

void *ide_xcalloc(size_t n, size_t size);
void *ide_xrealloc(void *p, size_t size);
char *ide_xstrdup(const char *s); /* NULL gives "" */
/* Untrusted text for one line of a terminal or log: text_escape() with
 * TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE. New string. */
char *ide_esc(const char *s);
/* New strings; free with free(). */
char *ide_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *ide_vasprintf(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));

#endif
