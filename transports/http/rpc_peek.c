/* Top-level scanning of JSON-RPC messages; see rpc_peek.h. */
#include "rpc_peek.h"

#include <string.h>

#define MAX_DEPTH 10000 /* nesting beyond this is refused, not recursed */

static size_t skip_ws(const char *s, size_t len, size_t i) {
  while (i < len &&
         (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
    i++;
  return i;
}

/* `s[i]` is '"': returns the index after the closing quote, or 0. */
static size_t skip_string(const char *s, size_t len, size_t i) {
  for (i++; i < len; i++) {
    if (s[i] == '\\') {
      i++;
    } else if (s[i] == '"') {
      return i + 1;
    }
  }
  return 0;
}

/* Returns the index after the value starting at `i`, or 0 when there is
 * none. Containers are skipped by counting brackets outside strings. */
static size_t skip_value(const char *s, size_t len, size_t i) {
  if (i >= len)
    return 0;
  if (s[i] == '"')
    return skip_string(s, len, i);
  if (s[i] == '{' || s[i] == '[') {
    size_t depth = 0;
    while (i < len) {
      char c = s[i];
      if (c == '"') {
        if (!(i = skip_string(s, len, i)))
          return 0;
        continue;
      }
      if (c == '{' || c == '[') {
        if (++depth > MAX_DEPTH)
          return 0;
      } else if (c == '}' || c == ']') {
        if (--depth == 0)
          return i + 1;
      }
      i++;
    }
    return 0;
  }
  /* A number or a literal: up to the next delimiter. */
  size_t start = i;
  while (i < len && s[i] != ',' && s[i] != '}' && s[i] != ']' && s[i] != ' ' &&
         s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
    i++;
  return i > start ? i : 0;
}

static bool key_is(const char *s, size_t klen, const char *name) {
  return klen == strlen(name) && memcmp(s, name, klen) == 0;
}

bool rpc_peek_object(const char *json, size_t len, rpc_peek *out) {
  memset(out, 0, sizeof *out);
  size_t i = skip_ws(json, len, 0);
  if (i >= len || json[i] != '{')
    return false;
  i = skip_ws(json, len, i + 1);
  if (i < len && json[i] == '}')
    return true;
  while (i < len) {
    if (json[i] != '"')
      return false;
    size_t kend = skip_string(json, len, i);
    if (!kend)
      return false;
    const char *key = json + i + 1;
    size_t klen = kend - i - 2;
    i = skip_ws(json, len, kend);
    if (i >= len || json[i] != ':')
      return false;
    i = skip_ws(json, len, i + 1);
    size_t vend = skip_value(json, len, i);
    if (!vend)
      return false;
    if (key_is(key, klen, "id")) {
      out->id = json + i;
      out->id_len = vend - i;
    } else if (key_is(key, klen, "method")) {
      out->method = json + i;
      out->method_len = vend - i;
    } else if (key_is(key, klen, "result")) {
      out->has_result = true;
    } else if (key_is(key, klen, "error")) {
      out->has_error = true;
    } else if (key_is(key, klen, "params")) {
      out->params = json + i;
      out->params_len = vend - i;
    } else if (key_is(key, klen, "requestId")) {
      out->request_id = json + i;
      out->request_id_len = vend - i;
    }
    i = skip_ws(json, len, vend);
    if (i < len && json[i] == '}')
      return true;
    if (i >= len || json[i] != ',')
      return false;
    i = skip_ws(json, len, i + 1);
  }
  return false;
}

bool rpc_is_batch(const char *json, size_t len) {
  size_t i = skip_ws(json, len, 0);
  return i < len && json[i] == '[';
}

bool rpc_split_batch(const char *json, size_t len,
                     void (*fn)(void *ud, const char *el, size_t el_len),
                     void *ud) {
  /* Two passes: check the whole array first, so that a malformed batch
   * delivers nothing rather than half of itself. */
  for (int pass = 0; pass < 2; pass++) {
    size_t i = skip_ws(json, len, 0);
    if (i >= len || json[i] != '[')
      return false;
    i = skip_ws(json, len, i + 1);
    if (i < len && json[i] == ']')
      return skip_ws(json, len, i + 1) == len;
    for (;;) {
      size_t end = skip_value(json, len, i);
      if (!end)
        return false;
      if (pass == 1)
        fn(ud, json + i, end - i);
      i = skip_ws(json, len, end);
      if (i < len && json[i] == ']')
        break;
      if (i >= len || json[i] != ',')
        return false;
      i = skip_ws(json, len, i + 1);
    }
    if (skip_ws(json, len, i + 1) != len)
      return false;
  }
  return true;
}

bool rpc_same_id(const char *a, size_t alen, const char *b, size_t blen) {
  return a && b && alen == blen && memcmp(a, b, alen) == 0;
}
