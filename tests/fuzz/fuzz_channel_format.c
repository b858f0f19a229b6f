/* Fuzz target: the channel message formatter (plugins/channels/format.h).
 * The input is a notification's params as JSON; each is formatted in the
 * tag form and in the JSON line form, from a source name that needs
 * escaping. Promises checked (the server controls content and meta,
 * never the frame):
 *   - chan_format accepts exactly a params object with a string content;
 *   - tag form: one frame <channel source="..." k="v"...>...</channel>
 *     and a newline; inside it no raw '<', '>', no '"' in a value, no
 *     control (but newline and tab in content), DEL or C1 control; the
 *     attributes are the kept meta in order, and every value and the
 *     content read back (entities decoded) as the very text;
 *   - JSON form: one line of JSON with the same source, meta and content;
 *   - kept meta: keys [A-Za-z0-9_]+, not "source", first of a repeated
 *     key, values strings, numbers (as JSON text) or booleans, in order. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "fuzz_json.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static const char source[] = "srv\"<&>\x1b\xc2\x9b";

static bool key_ok(const char *k) {
  if (!*k) {
    return false;
  }
  for (; *k; k++) {
    char c = *k;
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
          (c >= '0' && c <= '9') || c == '_')) {
      return false;
    }
  }
  return true;
}

/* The meta the rule keeps, built here apart from chan_meta_filter. */
static cJSON *expected_meta(const cJSON *params) {
  cJSON *out = cJSON_CreateObject();
  const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "meta");
  if (!out) {
    abort();
  }
  for (const cJSON *it = cJSON_IsObject(meta) ? meta->child : NULL; it;
       it = it->next) {
    if (!it->string || !key_ok(it->string) ||
        strcmp(it->string, "source") == 0 ||
        cJSON_GetObjectItemCaseSensitive(out, it->string)) {
      continue;
    }
    if (cJSON_IsString(it)) {
      cJSON_AddStringToObject(out, it->string, it->valuestring);
    } else if (cJSON_IsNumber(it) || cJSON_IsBool(it)) {
      char *t = cJSON_PrintUnformatted(it);
      cJSON_AddStringToObject(out, it->string, t);
      cJSON_free(t);
    }
  }
  return out;
}

static int hex(char c) {
  return c >= '0' && c <= '9'   ? c - '0'
         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                : -1;
}

/* Reads escaped text at *p up to `stop` (not included; '\0' for the end
 * given by `end`), checking that nothing raw slipped through, into a new
 * string. */
static char *unescape(const char **p, const char *end, char stop, bool attr) {
  char *out = malloc((size_t)(end - *p) + 1);
  size_t n = 0;
  if (!out) {
    abort();
  }
  const char *s = *p;
  while (s < end && *s != stop) {
    unsigned char c = (unsigned char)*s;
    if (c == '<' || c == '>' || (attr && c == '"') || c == 0x7F ||
        (c < 0x20 && (attr || (c != '\n' && c != '\t'))) ||
        (c == 0xC2 && s + 1 < end && (unsigned char)s[1] >= 0x80 &&
         (unsigned char)s[1] <= 0x9F)) {
      abort(); /* a raw character the frame or a terminal would take */
    }
    if (c != '&') {
      out[n++] = *s++;
      continue;
    }
    static const struct {
      const char *ent;
      char ch;
    } named[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}};
    bool done = false;
    for (size_t i = 0; i < sizeof named / sizeof *named && !done; i++) {
      size_t l = strlen(named[i].ent);
      if ((size_t)(end - s) >= l && memcmp(s, named[i].ent, l) == 0) {
        out[n++] = named[i].ch;
        s += l;
        done = true;
      }
    }
    if (!done) {
      /* &#xHH; : a control (C1 ones as their UTF-8 bytes). */
      if (end - s < 6 || s[1] != '#' || s[2] != 'x' || hex(s[3]) < 0 ||
          hex(s[4]) < 0 || s[5] != ';') {
        abort();
      }
      int v = hex(s[3]) * 16 + hex(s[4]);
      if (v >= 0x80) {
        out[n++] = (char)0xC2;
      }
      out[n++] = (char)v;
      s += 6;
    }
  }
  out[n] = '\0';
  *p = s;
  return out;
}

static void expect(const char **p, const char *end, const char *lit) {
  size_t l = strlen(lit);
  if ((size_t)(end - *p) < l || memcmp(*p, lit, l) != 0) {
    abort();
  }
  *p += l;
}

static void check_tag(const strbuf *b, const cJSON *meta, const char *content) {
  static const char tail[] = "</channel>\n";
  if (b->len < sizeof tail - 1 ||
      memcmp(b->data + b->len - (sizeof tail - 1), tail, sizeof tail - 1)) {
    abort();
  }
  const char *p = b->data, *end = b->data + b->len - (sizeof tail - 1);
  expect(&p, end, "<channel source=\"");
  char *src = unescape(&p, end, '"', true);
  if (strcmp(src, source) != 0) {
    abort();
  }
  free(src);
  expect(&p, end, "\"");
  for (const cJSON *it = meta->child; it; it = it->next) {
    expect(&p, end, " ");
    expect(&p, end, it->string);
    expect(&p, end, "=\"");
    char *v = unescape(&p, end, '"', true);
    if (strcmp(v, it->valuestring) != 0) {
      abort();
    }
    free(v);
    expect(&p, end, "\"");
  }
  expect(&p, end, ">");
  char *c = unescape(&p, end, '\0', false);
  if (p != end || strcmp(c, content) != 0) {
    abort();
  }
  free(c);
}

static void check_json(const strbuf *b, const cJSON *meta,
                       const char *content) {
  if (b->len == 0 || b->data[b->len - 1] != '\n' ||
      memchr(b->data, '\n', b->len - 1)) {
    abort();
  }
  cJSON *o = cJSON_ParseWithLength(b->data, b->len);
  const cJSON *src = cJSON_GetObjectItemCaseSensitive(o, "source");
  const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "meta");
  const cJSON *c = cJSON_GetObjectItemCaseSensitive(o, "content");
  if (!cJSON_IsString(src) || strcmp(src->valuestring, source) != 0 ||
      !cJSON_IsString(c) || strcmp(c->valuestring, content) != 0 ||
      !cJSON_IsObject(m)) {
    abort();
  }
  if (!fuzz_json_same(m, meta)) {
    abort();
  }
  cJSON_Delete(o);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  cJSON *params = cJSON_ParseWithLength((const char *)data, len);
  if (!params) {
    return 0;
  }
  const cJSON *content = cJSON_GetObjectItemCaseSensitive(params, "content");
  bool message = cJSON_IsObject(params) && cJSON_IsString(content);
  cJSON *meta = expected_meta(params);

  cJSON *kept =
      chan_meta_filter(cJSON_GetObjectItemCaseSensitive(params, "meta"));
  if (!fuzz_json_same(kept, meta)) {
    abort();
  }
  cJSON_Delete(kept);

  for (int json = 0; json < 2; json++) {
    strbuf b = {0};
    const char *why = NULL;
    bool ok = chan_format(&b, source, params, json, &why);
    if (ok != message || (!ok && (!why || b.len != 0))) {
      abort();
    }
    if (ok && json) {
      check_json(&b, meta, content->valuestring);
    } else if (ok) {
      check_tag(&b, meta, content->valuestring);
    }
    sb_free(&b);
  }
  cJSON_Delete(meta);
  cJSON_Delete(params);
  return 0;
}
