/* Terminal-safe text; see elicit.h. Servers' strings reach a terminal
 * (the prompts) and a browser command line (URLs): an escape sequence in
 * them could move the cursor, rewrite what was shown, retitle the window
 * or, on some terminals, type into the shell; a bidi override could make
 * "exe.txt" read "txt.exe". The host's sanitizer already removes format
 * characters from what servers send; this is the last line before the
 * terminal, and holds whatever the host lets through. */
#include <stdlib.h>
#include <string.h>

#include "elicit.h"

char *text_clean(const char *s, bool multiline) {
  size_t len = strlen(s);
  char *out = elicit_xmalloc(len + 1);
  size_t o = 0;
  const unsigned char *p = (const unsigned char *)s;
  while (*p) {
    unsigned c = *p;
    if (c < 0x80) {
      out[o++] = c == '\n' && multiline  ? '\n'
                 : c == '\t'             ? ' '
                 : c < 0x20 || c == 0x7F ? '?'
                                         : (char)c;
      p++;
      continue;
    }
    int extra = (c & 0xE0) == 0xC0   ? 1
                : (c & 0xF0) == 0xE0 ? 2
                : (c & 0xF8) == 0xF0 ? 3
                                     : 0;
    unsigned cp = extra == 1 ? c & 0x1F : extra == 2 ? c & 0x0F : c & 0x07;
    bool ok = extra > 0;
    for (int i = 1; ok && i <= extra; i++) {
      ok = (p[i] & 0xC0) == 0x80;
      cp = (cp << 6) | (p[i] & 0x3Fu);
    }
    static const unsigned min_cp[] = {0, 0x80, 0x800, 0x10000};
    ok = ok && cp >= min_cp[extra] && cp <= 0x10FFFF &&
         !(cp >= 0xD800 && cp <= 0xDFFF);
    bool control = cp <= 0x9F || cp == 0x200E || cp == 0x200F ||
                   (cp >= 0x202A && cp <= 0x202E) ||
                   (cp >= 0x2066 && cp <= 0x2069);
    if (!ok || control) {
      out[o++] = '?';
      p += ok ? extra + 1 : 1;
      continue;
    }
    memcpy(out + o, p, (size_t)extra + 1);
    o += (size_t)extra + 1;
    p += extra + 1;
  }
  out[o] = '\0';
  return out;
}
