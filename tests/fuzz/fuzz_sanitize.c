/* Fuzz target: the Unicode sanitizer (host/safety/sanitize.h), on text
 * and on JSON trees. Promises checked:
 *   - sanitize_text's output is valid UTF-8 (checked here apart from the
 *     sanitizer's own decoder; C0 80 is U+0000, json_parse.h), holds no format,
 * private-use, unassigned or surrogate code point (ICU's categories, asked
 * directly), is NUL-terminated at its length, and a second pass leaves it as it
 * is; ASCII text comes out unchanged;
 *   - sanitize_json leaves every key and string so, and a second walk
 *     changes nothing;
 *   - sanitize_json_utf8 makes every string valid UTF-8, changes only
 *     those that were not, and a second walk changes nothing;
 *   - the quick check (unicode_quick_clean) changes nothing: text and
 *     trees come out byte for byte the same when every non-ASCII segment
 *     is normalized, and text it calls clean normalizing leaves as it is;
 *   - the sanitizer's NFKC (unicode_nfkc) is ICU's, on the input's code
 *     points (each ill-formed sequence as U+FFFD). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/utf16.h>

#include "fuzz_utf8.h"
#include "safety/sanitize.h"
#include "safety/unicode_quick.h"
#include "utf8.h"

static bool same_string(const char *a, const char *b) {
  return (a == NULL) == (b == NULL) && (!a || strcmp(a, b) == 0);
}

/* `a` and `b` hold the same keys and strings, node by node (not
 * cJSON_Compare: it finds members by key, so duplicate keys mislead it). */
static void walk_same(const cJSON *a, const cJSON *b) {
  for (; a && b; a = a->next, b = b->next) {
    if (!same_string(a->string, b->string) ||
        !same_string(cJSON_GetStringValue(a), cJSON_GetStringValue(b))) {
      abort(); /* the tables changed a key or string */
    }
    walk_same(a->child, b->child);
  }
  if (a || b) {
    abort();
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

/* fuzz_utf8_next, but C0 80 is U+0000, as a JSON string holds it
 * (json_parse.h): the sanitizer keeps it. */
static bool next_cp(const char *s, size_t n, size_t *i, uint32_t *cp) {
  if (*i + 1 < n && (unsigned char)s[*i] == 0xC0 &&
      (unsigned char)s[*i + 1] == 0x80) {
    *i += 2;
    *cp = 0;
    return true;
  }
  return fuzz_utf8_next((const unsigned char *)s, n, i, cp);
}

static bool valid(const char *s, size_t n) {
  size_t i = 0;
  uint32_t cp;
  while (i < n) {
    if (!next_cp(s, n, &i, &cp)) {
      return false;
    }
  }
  return true;
}

/* Valid UTF-8, and nothing the full sanitizer removes. */
static bool clean(const char *s, size_t n) {
  size_t i = 0;
  uint32_t cp;
  while (i < n) {
    if (!next_cp(s, n, &i, &cp)) {
      return false;
    }
    int8_t t = u_charType((UChar32)cp);
    if (t == U_FORMAT_CHAR || t == U_PRIVATE_USE_CHAR || t == U_UNASSIGNED ||
        t == U_SURROGATE) {
      return false;
    }
  }
  return true;
}

/* unicode_nfkc() of the code points of s[0..len) against ICU's NFKC. */
static void check_nfkc(const char *s, size_t len) {
  enum { MAX = 4096 };
  static UChar a[2 * MAX], b[2 * MAX * 18];
  static uint32_t want[MAX * 18];
  unicode_text t = {0};
  unicode_text_reserve(&t, len + 1); /* never NULL, for memcmp */
  int32_t na = 0;
  for (size_t i = 0; i < len && t.len < MAX;) {
    bool ok;
    uint32_t cp = 0xFFFD;
    i += utf8_sequence((const unsigned char *)s + i, len - i, &ok, &cp);
    cp = ok ? cp : 0xFFFD;
    t.cp[t.len++] = cp;
    U16_APPEND_UNSAFE(a, na, (UChar32)cp);
  }
  UErrorCode e = U_ZERO_ERROR;
  const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&e);
  int32_t nb = unorm2_normalize(nfkc, a, na, b, (int32_t)(sizeof b / 2), &e);
  if (U_FAILURE(e)) {
    abort();
  }
  size_t m = 0;
  for (int32_t i = 0; i < nb;) {
    UChar32 c;
    U16_NEXT(b, i, nb, c);
    want[m++] = (uint32_t)c;
  }
  unicode_nfkc(&t);
  if (t.len != m || memcmp(t.cp, want, m * sizeof *want) != 0) {
    abort(); /* the sanitizer's NFKC is not ICU's */
  }
  unicode_text_free(&t);
}

static void check_text(const char *s, size_t len) {
  check_nfkc(s, len);
  size_t n = 0;
  char *out = sanitize_text(s, len, &n);
  if (!out || out[n] != '\0' || !clean(out, n)) {
    abort();
  }
  sanitize_use_quick_tables(false);
  size_t n_all = 0;
  char *all = sanitize_text(s, len, &n_all);
  sanitize_use_quick_tables(true);
  if (n_all != n || memcmp(all, out, n) != 0) {
    abort(); /* the quick check changed the result */
  }
  if (unicode_quick_clean(s, len) && (n_all != len || memcmp(all, s, len))) {
    abort(); /* the quick check cleared text that normalizing changes */
  }
  free(all);
  bool ascii = true;
  for (size_t i = 0; i < len; i++) {
    ascii = ascii && (unsigned char)s[i] < 0x80;
  }
  if (ascii && (n != len || memcmp(out, s, len) != 0)) {
    abort();
  }
  size_t n2 = 0;
  char *again = sanitize_text(out, n, &n2);
  if (!again || n2 != n || memcmp(again, out, n) != 0) {
    abort(); /* not stable under a second pass */
  }
  free(again);
  free(out);
}

/* Every key and string of `it` satisfies `ok`. */
static void walk_clean(const cJSON *it, bool full) {
  for (; it; it = it->next) {
    if (it->string) {
      size_t n = strlen(it->string);
      if (full ? !clean(it->string, n) : !valid(it->string, n)) {
        abort();
      }
    }
    if (cJSON_IsString(it)) {
      size_t n = strlen(it->valuestring);
      if (full ? !clean(it->valuestring, n) : !valid(it->valuestring, n)) {
        abort();
      }
    }
    walk_clean(it->child, full);
  }
}

static void same_if_valid(const char *before, const char *after) {
  if (valid(before, strlen(before)) && strcmp(before, after) != 0) {
    abort(); /* valid text kept as sent must stay as sent */
  }
}

/* `a` as parsed, `b` after sanitize_json_utf8: the same shape. */
static void walk_kept(const cJSON *a, const cJSON *b) {
  for (; a && b; a = a->next, b = b->next) {
    if ((a->string == NULL) != (b->string == NULL)) {
      abort();
    }
    if (a->string) {
      same_if_valid(a->string, b->string);
    }
    if (cJSON_IsString(a)) {
      same_if_valid(a->valuestring, b->valuestring);
    }
    walk_kept(a->child, b->child);
  }
  if (a || b) {
    abort();
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  check_text((const char *)data, len);

  cJSON *full = cJSON_ParseWithLength((const char *)data, len);
  if (!full) {
    return 0;
  }
  cJSON *kept = cJSON_Duplicate(full, true);
  cJSON *orig = cJSON_Duplicate(full, true);
  cJSON *all = cJSON_Duplicate(full, true);
  if (!kept || !orig || !all) {
    abort();
  }
  sanitize_json(full);
  walk_clean(full, true);
  sanitize_use_quick_tables(false);
  sanitize_json(all);
  sanitize_use_quick_tables(true);
  walk_same(full, all);
  cJSON_Delete(all);
  if (sanitize_json(full) != 0) {
    abort();
  }
  sanitize_json_utf8(kept);
  walk_clean(kept, false);
  walk_kept(orig, kept);
  if (sanitize_json_utf8(kept) != 0) {
    abort();
  }
  cJSON_Delete(full);
  cJSON_Delete(kept);
  cJSON_Delete(orig);
  return 0;
}
