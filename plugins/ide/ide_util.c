#include "ide_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_escape.h"

char *ide_vasprintf(const char *fmt, va_list ap) {
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) {
    abort();
  }
  return s;
}

char *ide_asprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = ide_vasprintf(fmt, ap);
  va_end(ap);
  return s;
}

char *ide_esc(const char *s) {
  const char *t = s ? s : "";
  char *e = text_escape(t, strlen(t),
                        TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
  if (!e) {
    abort();
  }
  return e;
}
