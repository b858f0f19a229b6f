#include "text_escape.h"

#include "utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool invisible(uint32_t c) {
  return c == 0x00AD || c == 0x061C || c == 0x180E ||
         (c >= 0x200B && c <= 0x200F && c != 0x200D) ||
         (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) ||
         c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB) ||
         (c >= 0xE0000 && c <= 0xE007F);
}

static bool escaped(uint32_t c, unsigned flags) {
  if (c == '\n' || c == '\t') {
    return (flags & (TEXT_ESCAPE_NEWLINES | TEXT_ESCAPE_JSON)) ==
           TEXT_ESCAPE_NEWLINES;
  }
  if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
    return true;
  }
  return (flags & TEXT_ESCAPE_INVISIBLE) && invisible(c);
}

/* `cp` as a JSON escape: \uXXXX, or a surrogate pair above U+FFFF. */
static int json_escape(char *esc, size_t size, uint32_t cp) {
  if (cp < 0x10000) {
    return snprintf(esc, size, "\\u%04x", (unsigned)cp);
  }
  uint32_t v = cp - 0x10000;
  return snprintf(esc, size, "\\u%04x\\u%04x", (unsigned)(0xD800 + (v >> 10)),
                  (unsigned)(0xDC00 + (v & 0x3FF)));
}

/* utf8_sequence, but C0 80 is U+0000: the form a JSON string holds it in
 * (common/json_parse.h), shown as the control it is. */
static size_t sequence(const unsigned char *p, size_t n, bool *ok,
                       uint32_t *cp) {
  if (p[0] == 0xC0 && n >= 2 && p[1] == 0x80) {
    *ok = true;
    *cp = 0;
    return 2;
  }
  return utf8_sequence(p, n, ok, cp);
}

/* The length of the printable ASCII (0x20-0x7E) `p` starts with, which
 * nothing escapes: eight bytes a step while all are (most text is all
 * of it), each test exact (Bit Twiddling Hacks' hasless and haszero). */
static size_t printable_run(const unsigned char *p, size_t n) {
  const uint64_t ones = 0x0101010101010101u, highs = ones << 7;
  size_t i = 0;
  for (; n - i >= 8; i += 8) {
    uint64_t w, del;
    memcpy(&w, p + i, sizeof w);
    del = w ^ (0x7Fu * ones);
    /* a byte from 0x80, a byte below 0x20, a byte 0x7F */
    if ((w | ((w - 0x20u * ones) & ~w) | ((del - ones) & ~del)) & highs) {
      break;
    }
  }
  while (i < n && p[i] >= 0x20 && p[i] < 0x7F) {
    i++;
  }
  return i;
}

/* Walks `s`; for each run kept as is and each escape calls out (when not
 * NULL). Returns the output length. */
static size_t walk(const char *s, size_t n, unsigned flags, char *out) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0, run = 0, len = 0;
  while (i < n) {
    /* Printable ASCII is never escaped: stepped over without decoding
     * (most text is all of it). */
    if (p[i] >= 0x20 && p[i] < 0x7F) {
      i += printable_run(p + i, n - i);
      continue;
    }
    uint32_t cp = 0;
    bool ok;
    size_t k = sequence(p + i, n - i, &ok, &cp);
    char esc[16]; /* the longest: a surrogate pair, 12 bytes */
    int elen;
    /* An ill-formed subpart is shown a byte at a time: each byte of it
     * is one "<0xNN>" or one U+FFFD. */
    if (!ok && (flags & TEXT_ESCAPE_JSON)) {
      elen = snprintf(esc, sizeof esc, "\\ufffd");
      k = 1;
    } else if (!ok) {
      elen = snprintf(esc, sizeof esc, "<0x%02X>", p[i]);
      k = 1;
    } else if (escaped(cp, flags) && (flags & TEXT_ESCAPE_JSON)) {
      elen = json_escape(esc, sizeof esc, cp);
    } else if (escaped(cp, flags)) {
      elen = snprintf(esc, sizeof esc, "<U+%04X>", (unsigned)cp);
    } else {
      i += k;
      continue;
    }
    if (out) {
      memcpy(out + len, s + run, i - run);
      memcpy(out + len + (i - run), esc, (size_t)elen);
    }
    len += i - run + (size_t)elen;
    i += k;
    run = i;
  }
  if (out) {
    memcpy(out + len, s + run, n - run);
  }
  return len + (n - run);
}

bool text_needs_escape(const char *s, size_t n, unsigned flags) {
  const unsigned char *p = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    uint32_t cp = 0;
    if (p[i] >= 0x20 && p[i] < 0x7F) {
      i += printable_run(p + i, n - i);
      continue;
    }
    bool ok;
    size_t k = sequence(p + i, n - i, &ok, &cp);
    if (!ok || escaped(cp, flags)) {
      return true;
    }
    i += k;
  }
  return false;
}

char *text_escape(const char *s, size_t n, unsigned flags, size_t *out_len) {
  size_t len = walk(s, n, flags, NULL);
  char *out = malloc(len + 1);
  if (!out) {
    return NULL;
  }
  if (len == n) {
    memcpy(out, s, n); /* nothing escaped: an escape only lengthens */
  } else {
    walk(s, n, flags, out);
  }
  out[len] = '\0';
  if (out_len) {
    *out_len = len;
  }
  return out;
}
