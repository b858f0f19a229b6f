/* Fuzz target: the exact JSON parser (common/json_parse.h) and the
 * writer that gives its trees back (common/json_write.h).
 * Promises checked:
 *   - parse, write, parse, write: the two texts are the same, and the
 *     pretty text parses to the same compact text (a number's token and
 *     a string's U+0000 survive every step);
 *   - a number item's kept token is a JSON number token; a number alone
 *     is written back as its very token;
 *   - what it accepts, cJSON accepts too, as the same tree: the same
 *     types, keys and order, the same doubles, the same strings (cJSON
 *     cuts a string at U+0000: only those without one are compared),
 *     but for a number token longer than the 63 bytes cJSON reads;
 *   - what it refuses and cJSON accepts is where the two are meant to
 *     differ (RFC 8259 against cJSON's leniency): an unescaped control
 *     character in a string, a number cJSON's strtod takes ("01", "1.",
 *     "1e"), a \u escape whose digits are not hex (cJSON reads a
 *     U+0000 there), a byte cJSON skips as space (any byte up to 0x20,
 *     NUL included) or a byte order mark; an error lies inside the
 *     input. */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "json_parse.h"
#include "json_write.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static void same_tree(const cJSON *a, const cJSON *b) {
  if ((a->type & 0xff) != (b->type & 0xff)) {
    abort();
  }
  if ((a->string == NULL) != (b->string == NULL)) {
    abort();
  }
  if (a->string && !strstr(a->string, "\xC0\x80") &&
      strcmp(a->string, b->string) != 0) {
    abort();
  }
  switch (a->type & 0xff) {
  case cJSON_Number:
    if (memcmp(&a->valuedouble, &b->valuedouble, sizeof(double)) != 0 ||
        a->valueint != b->valueint) {
      abort();
    }
    if (a->valuestring &&
        !json_is_number_token(a->valuestring, strlen(a->valuestring))) {
      abort();
    }
    break;
  case cJSON_String:
    if (!strstr(a->valuestring, "\xC0\x80") &&
        strcmp(a->valuestring, b->valuestring) != 0) {
      abort();
    }
    break;
  case cJSON_Array:
  case cJSON_Object: {
    const cJSON *x = a->child, *y = b->child;
    for (; x && y; x = x->next, y = y->next) {
      same_tree(x, y);
    }
    if (x || y) {
      abort();
    }
    break;
  }
  default: break;
  }
}

/* Whether cJSON takes the whole input as one value (bytes up to 0x20
 * after it are its whitespace). */
static cJSON *cjson_whole(const char *s, size_t len) {
  const char *end = NULL;
  cJSON *v = cJSON_ParseWithLengthOpts(s, len, &end, 0);
  if (!v) {
    return NULL;
  }
  for (size_t i = (size_t)(end - s); i < len; i++) {
    if ((unsigned char)s[i] > 0x20) {
      cJSON_Delete(v);
      return NULL;
    }
  }
  return v;
}

static void check_refusal(const char *s, size_t len, const json_error *e) {
  if (e->offset > len || !e->what) {
    abort();
  }
  cJSON *c = cjson_whole(s, len);
  if (!c) {
    return;
  }
  cJSON_Delete(c);
  unsigned char at = e->offset < len ? (unsigned char)s[e->offset] : 0;
  bool cjson_space = e->offset < len && at <= 0x20 && at != ' ' && at != '\t' &&
                     at != '\n' && at != '\r';
  bool bom = e->offset == 0 && len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0;
  if (!cjson_space && !bom && !strstr(e->what, "control character") &&
      !strstr(e->what, "not a JSON number") &&
      !strstr(e->what, "four hex digits")) {
    abort(); /* refused where the two should agree */
  }
}

/* Whether a number token is longer than cJSON reads (63 bytes: it
 * refuses the rest of the digits, which RFC 8259 allows). */
static bool long_number(const cJSON *v) {
  if (cJSON_IsNumber(v) && v->valuestring && strlen(v->valuestring) > 63) {
    return true;
  }
  for (const cJSON *c = v->child; c; c = c->next) {
    if (long_number(c)) {
      return true;
    }
  }
  return false;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  const char *s = (const char *)data;
  json_error e = {0};
  cJSON *v = json_parse(s, len, &e);
  if (!v) {
    check_refusal(s, len, &e);
    return 0;
  }
  cJSON *c = cjson_whole(s, len);
  if (!long_number(v)) {
    if (!c) {
      abort(); /* accepted what cJSON refuses */
    }
    same_tree(v, c);
  }
  cJSON_Delete(c);

  char *t1 = json_print(v);
  if (!t1) {
    abort();
  }
  /* A number alone is written back as its very token. */
  size_t a = 0, b = len;
  while (a < b && strchr(" \t\r\n", s[a])) {
    a++;
  }
  while (b > a && strchr(" \t\r\n", s[b - 1])) {
    b--;
  }
  if (cJSON_IsNumber(v) &&
      (strlen(t1) != b - a || memcmp(t1, s + a, b - a) != 0)) {
    abort();
  }
  cJSON *v2 = json_parse(t1, strlen(t1), NULL);
  char *t2 = v2 ? json_print(v2) : NULL;
  if (!t2 || strcmp(t1, t2) != 0) {
    abort(); /* not a fixed point */
  }
  strbuf pretty;
  sb_init(&pretty);
  if (json_write_pretty(&pretty, v) != 0) {
    abort();
  }
  cJSON *v3 = json_parse(pretty.data, pretty.len, NULL);
  char *t3 = v3 ? json_print(v3) : NULL;
  if (!t3 || strcmp(t1, t3) != 0) {
    abort(); /* the pretty text is another value */
  }
  free(t1);
  free(t2);
  free(t3);
  sb_free(&pretty);
  cJSON_Delete(v);
  cJSON_Delete(v2);
  cJSON_Delete(v3);
  return 0;
}
