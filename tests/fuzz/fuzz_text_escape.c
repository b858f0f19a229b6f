/* Fuzz target: the one escaping rule for untrusted text on a terminal or
 * in a log (common/text_escape.h). The first byte picks the flags; the
 * rest is the text. Promises checked:
 *   - the output is valid UTF-8 and NUL-terminated at its length, and
 *     holds none of the characters the rule escapes for those flags: C0
 *     controls (newline and tab only with TEXT_ESCAPE_NEWLINES), DEL, C1;
 *     with TEXT_ESCAPE_INVISIBLE the bidi, zero-width and tag characters
 *     the header lists (this list is the header's, kept apart);
 *   - text_needs_escape says whether the output differs from the input;
 *   - escaping the output again changes nothing;
 *   - with TEXT_ESCAPE_JSON, JSON in valid UTF-8 (without a CR between
 *     tokens) stays JSON with the same values. */
#include <cjson/cJSON.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_json.h"
#include "fuzz_utf8.h"
#include "text_escape.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static bool listed_invisible(uint32_t c) {
  return c == 0x00AD || c == 0x061C || c == 0x200B || c == 0x200C ||
         c == 0x200E || c == 0x200F || (c >= 0x2028 && c <= 0x202E) ||
         (c >= 0x2060 && c <= 0x2064) || (c >= 0x2066 && c <= 0x2069) ||
         c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB) ||
         (c >= 0xE0000 && c <= 0xE007F);
}

static void check_output(const char *out, size_t n, unsigned flags) {
  if (out[n] != '\0') {
    abort();
  }
  size_t i = 0;
  uint32_t c;
  while (i < n) {
    if (!fuzz_utf8_next((const unsigned char *)out, n, &i, &c)) {
      abort(); /* an invalid byte passed */
    }
    bool line = c == '\n' || c == '\t';
    if (line && (flags & TEXT_ESCAPE_NEWLINES) && !(flags & TEXT_ESCAPE_JSON)) {
      abort();
    }
    if ((c < 0x20 && !line) || (c >= 0x7F && c <= 0x9F)) {
      abort();
    }
    if ((flags & TEXT_ESCAPE_INVISIBLE) && listed_invisible(c)) {
      abort();
    }
  }
}

/* What cJSON takes but is not JSON text, where the promise does not
 * hold: bytes up to 0x20 between tokens other than JSON's whitespace
 * (cJSON skips them all), any other byte of non-ASCII between tokens
 * (cJSON skips a leading BOM and ignores what follows the value: escaped
 * as "\ufeff" there it is no longer JSON), and escapes other than JSON's
 * (cJSON reads a backslash and u without four hex digits as U+0000). A
 * CR between tokens is escaped on purpose, as a terminal would obey it;
 * the JSON that callers escape is cJSON's, which has none. */
static bool json_lexically(const char *s, size_t n) {
  bool in = false;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (in && c == '\\') {
      if (i + 1 >= n || !s[i + 1] || !strchr("\"\\/bfnrtu", s[i + 1])) {
        return false;
      }
      if (s[++i] == 'u') {
        for (int k = 1; k <= 4; k++) {
          if (i + (size_t)k >= n || !isxdigit((unsigned char)s[i + k])) {
            return false;
          }
        }
        i += 4;
      }
    } else if (c == '"') {
      in = !in;
    } else if (!in && ((c < 0x20 && c != '\t' && c != '\n') || c >= 0x80)) {
      return false;
    }
  }
  return true;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  if (len < 1) {
    return 0;
  }
  unsigned flags = data[0] & 7u;
  const char *s = (const char *)data + 1;
  len--;
  size_t n = 0;
  char *out = text_escape(s, len, flags, &n);
  if (!out) {
    abort();
  }
  check_output(out, n, flags);
  bool changed = n != len || (len && memcmp(out, s, len) != 0);
  if (text_needs_escape(s, len, flags) != changed) {
    abort();
  }
  size_t n2 = 0;
  char *again = text_escape(out, n, flags, &n2);
  if (!again || n2 != n || memcmp(again, out, n) != 0 ||
      text_needs_escape(out, n, flags)) {
    abort(); /* escaped text is escaped once */
  }
  free(again);

  if ((flags & TEXT_ESCAPE_JSON) && fuzz_utf8_valid(s, len) &&
      json_lexically(s, len)) {
    cJSON *before = cJSON_ParseWithLength(s, len);
    if (before) {
      cJSON *after = cJSON_ParseWithLength(out, n);
      if (!after) {
        abort(); /* no longer JSON */
      }
      if (!fuzz_json_same(before, after)) {
        abort(); /* other values */
      }
      cJSON_Delete(after);
      cJSON_Delete(before);
    }
  }
  free(out);
  return 0;
}
