#include "ide_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_escape.h"

char *ide_esc(const char *s) {
  const char *t = s ? s : "";
  char *e = text_escape(t, strlen(t),
                        TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_INVISIBLE, NULL);
  if (!e) {
    abort();
  }
  return e;
}
