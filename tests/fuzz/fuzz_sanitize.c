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
 *   - the Unicode tables (unicode_quick.h) change nothing: text and trees
 *     come out byte for byte the same when every non-ASCII segment goes
 *     through ICU, and text the tables call clean ICU leaves as it is. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/uchar.h>

#include "fuzz_utf8.h"
#include "safety/sanitize.h"
#include "safety/unicode_quick.h"

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

static void check_text(const char *s, size_t len) {
  size_t n = 0;
  char *out = sanitize_text(s, len, &n);
  if (!out || out[n] != '\0' || !clean(out, n)) {
    abort();
  }
  sanitize_use_quick_tables(false);
  size_t n_icu = 0;
  char *icu = sanitize_text(s, len, &n_icu);
  sanitize_use_quick_tables(true);
  if (n_icu != n || memcmp(icu, out, n) != 0) {
    abort(); /* the tables changed the result */
  }
  if (unicode_quick_clean(s, len) && (n_icu != len || memcmp(icu, s, len))) {
    abort(); /* the tables cleared text that ICU changes */
  }
  free(icu);
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
  cJSON *icu = cJSON_Duplicate(full, true);
  if (!kept || !orig || !icu) {
    abort();
  }
  sanitize_json(full);
  walk_clean(full, true);
  sanitize_use_quick_tables(false);
  sanitize_json(icu);
  sanitize_use_quick_tables(true);
  walk_same(full, icu);
  cJSON_Delete(icu);
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
