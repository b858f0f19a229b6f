/* The document a config file's bytes hold, as the loader takes it
 * (config_parse_json, with json_parse: one JSON value, strict, and
 * nothing after it but whitespace); and the comparison the targets'
 * round trips use. */
#ifndef MCPH_FUZZ_JSON_DOC_H
#define MCPH_FUZZ_JSON_DOC_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <string.h>

#include "json_parse.h"

static inline cJSON *json_doc(const unsigned char *data, size_t len) {
  return json_parse((const char *)data, len, NULL);
}

/* Equal in type, keys, order and value (numbers by ==, so that two
 * infinities are equal: cJSON_Compare says they differ). */
static inline bool json_same(const cJSON *a, const cJSON *b) {
  if ((a->type & 0xff) != (b->type & 0xff)) {
    return false;
  }
  if (cJSON_IsNumber(a)) {
    return a->valuedouble == b->valuedouble;
  }
  if (cJSON_IsString(a)) {
    return strcmp(a->valuestring, b->valuestring) == 0;
  }
  const cJSON *x = a->child, *y = b->child;
  for (; x && y; x = x->next, y = y->next) {
    if (cJSON_IsObject(a) && strcmp(x->string, y->string) != 0) {
      return false;
    }
    if (!json_same(x, y)) {
      return false;
    }
  }
  return !x && !y;
}

#endif
