/* Helpers for the targets' properties, on cJSON (which the host parses
 * every message with). Header only, pure. */
#ifndef MCPH_FUZZ_JSON_H
#define MCPH_FUZZ_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The input as a NUL-terminated string (free()); aborts without memory. */
static inline char *fuzz_text(const unsigned char *data, size_t len) {
  char *s = malloc(len + 1);
  if (!s) {
    abort();
  }
  if (len) {
    memcpy(s, data, len);
  }
  s[len] = '\0';
  return s;
}

/* A promise of the unit: the run aborts when it does not hold. */
static inline void fuzz_must(bool ok) {
  if (!ok) {
    abort();
  }
}

/* Whether the array `field` of `obj` holds the string `value`. */
static inline bool fuzz_json_lists(const cJSON *obj, const char *field,
                                   const char *value) {
  const cJSON *it;
  cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(obj, field)) {
    if (cJSON_IsString(it) && strcmp(it->valuestring, value) == 0) {
      return true;
    }
  }
  return false;
}

/* How many members of `obj` are named `name` (JSON allows repeats). */
static inline int fuzz_json_members(const cJSON *obj, const char *name) {
  int n = 0;
  for (const cJSON *c = obj->child; c; c = c->next) {
    n += c->string && strcmp(c->string, name) == 0;
  }
  return n;
}

/* Whether two trees print as the same text. cJSON_Compare would call two
 * objects with a repeated key different even when they are the same.
 * NULL is the same as nothing. */
static inline bool fuzz_json_same(const cJSON *a, const cJSON *b) {
  char *pa = a ? cJSON_PrintUnformatted(a) : NULL;
  char *pb = b ? cJSON_PrintUnformatted(b) : NULL;
  bool same = pa && pb && strcmp(pa, pb) == 0;
  cJSON_free(pa);
  cJSON_free(pb);
  return same;
}

#endif
