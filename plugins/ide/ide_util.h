/* Helpers of the IDE plugin: allocation and formatting that abort when
 * memory runs out (common/alloc.h, common/strbuf.h), and the one-line
 * escape. Any thread. */
#ifndef MCPH_IDE_UTIL_H
#define MCPH_IDE_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#include "alloc.h"
#include "strbuf.h" /* xasprintf, xvasprintf */

/* Untrusted text for one line of a terminal or log: text_escape() with
 * TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE. New string. */
char *ide_esc(const char *s);

#endif
