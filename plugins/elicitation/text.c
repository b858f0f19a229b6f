/* Terminal-safe text; see elicit.h. Servers' strings reach a terminal
 * (the prompts) and a browser command line (URLs): an escape sequence in
 * them could move the cursor, rewrite what was shown, retitle the window
 * or, on some terminals, type into the shell; a bidi override could make
 * "exe.txt" read "txt.exe". The rule is the host's (common/text_escape.h,
 * linked in statically): what would act or hide is shown as "<U+XXXX>",
 * so the person still reads exactly what the server sent. */
#include <stdlib.h>
#include <string.h>

#include "elicit.h"
#include "text_escape.h"

char *text_clean(const char *s, bool multiline) {
  unsigned flags = TEXT_ESCAPE_INVISIBLE;
  if (!multiline) {
    flags |= TEXT_ESCAPE_NEWLINES;
  }
  char *out = text_escape(s, strlen(s), flags, NULL);
  if (!out) {
    abort(); /* out of memory, as xmalloc */
  }
  return out;
}
