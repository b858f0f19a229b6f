/* Fuzz target: the transports' JSON-RPC scanner
 * (transports/http/rpc_peek.h) and the host's id scanner for messages
 * cut short (host/mcp/rpc_scan.h), checked against cJSON, which the host
 * parses every message with:
 *   - every pointer rpc_peek returns lies inside the input; a malformed
 *     batch delivers no element;
 *   - on text cJSON accepts (without escapes, NULs or a BOM, where the
 *     scanners look at raw bytes on purpose), rpc_peek_object accepts the
 *     object, finds the members cJSON finds, and each raw token it
 *     returns parses to the very value cJSON has; rpc_split_batch gives
 *     cJSON's elements, in order; rpc_scan_id reads the same positive
 *     integer id, from the whole text and from every cut of it that
 *     keeps the id and the byte after it. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_json.h"
#include "mcp/rpc_scan.h"
#include "rpc_peek.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

typedef struct {
  const char *base;
  size_t len;
  const cJSON *next; /* the element cJSON has next, or NULL */
  size_t count;
  bool check; /* compare with cJSON's elements */
} batch_walk;

static void inside(const char *base, size_t len, const char *p, size_t n) {
  if (p && (p < base || n > len || (size_t)(p - base) > len - n)) {
    abort();
  }
}

/* A raw token must parse, alone, to the value cJSON found. */
static void same_value(const char *tok, size_t n, const cJSON *want) {
  cJSON *got = cJSON_ParseWithLength(tok, n);
  if (!fuzz_json_same(got, want)) {
    abort();
  }
  cJSON_Delete(got);
}

static void on_element(void *ud, const char *el, size_t n) {
  batch_walk *w = ud;
  inside(w->base, w->len, el, n);
  if (n == 0) {
    abort();
  }
  w->count++;
  if (w->check) {
    if (!w->next) {
      abort(); /* more elements than cJSON sees */
    }
    same_value(el, n, w->next);
    w->next = w->next->next;
  }
}

static void check_member(const cJSON *obj, const char *name, const char *tok,
                         size_t n, bool found) {
  int count = fuzz_json_members(obj, name);
  if ((count > 0) != found) {
    abort();
  }
  if (count == 1 && tok) {
    same_value(tok, n, cJSON_GetObjectItemCaseSensitive(obj, name));
  }
}

/* An id the host could have sent: a positive integer written plainly. */
static bool plain_id(const char *tok, size_t n, int64_t *v) {
  if (!tok || n == 0 || n > 15 || tok[0] == '0') {
    return false;
  }
  int64_t x = 0;
  for (size_t i = 0; i < n; i++) {
    if (tok[i] < '0' || tok[i] > '9') {
      return false;
    }
    x = x * 10 + (tok[i] - '0');
  }
  *v = x;
  return true;
}

static void check_object(const char *s, size_t len, const cJSON *obj) {
  rpc_peek p;
  if (!rpc_peek_object(s, len, &p)) {
    abort(); /* cJSON took it */
  }
  check_member(obj, "id", p.id, p.id_len, p.id != NULL);
  check_member(obj, "method", p.method, p.method_len, p.method != NULL);
  check_member(obj, "params", p.params, p.params_len, p.params != NULL);
  check_member(obj, "requestId", p.request_id, p.request_id_len,
               p.request_id != NULL);
  check_member(obj, "result", NULL, 0, p.has_result);
  check_member(obj, "error", NULL, 0, p.has_error);
  int64_t id;
  if (fuzz_json_members(obj, "id") == 1 && plain_id(p.id, p.id_len, &id)) {
    if (rpc_scan_id(s, len) != id) {
      abort();
    }
    /* A message cut anywhere after the id's token and its delimiter. */
    size_t keep = (size_t)(p.id - s) + p.id_len + 1;
    for (size_t cut = keep; cut < len; cut += 1 + (len - cut) / 8) {
      if (rpc_scan_id(s, cut) != id) {
        abort();
      }
    }
  }
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  char *s = fuzz_text(data, len);

  /* Whatever the bytes: no read outside them, no crash. */
  rpc_peek p;
  if (rpc_peek_object(s, len, &p)) {
    inside(s, len, p.id, p.id_len);
    inside(s, len, p.method, p.method_len);
    inside(s, len, p.params, p.params_len);
    inside(s, len, p.request_id, p.request_id_len);
  }
  (void)rpc_scan_id(s, len);
  batch_walk w = {s, len, NULL, 0, false};
  if (!rpc_split_batch(s, len, on_element, &w) && w.count != 0) {
    abort();
  }

  /* The differential part: raw bytes the scanners and cJSON read alike.
   * cJSON takes any byte up to 0x20 as whitespace; the scanners take
   * JSON's four. */
  bool plain = !(len >= 1 && data[0] == 0xEF);
  for (size_t i = 0; plain && i < len; i++) {
    unsigned char c = data[i];
    plain = c != '\\' &&
            (c >= 0x20 || c == ' ' || c == '\t' || c == '\n' || c == '\r');
  }
  const char *end = NULL;
  cJSON *root =
      plain ? cJSON_ParseWithLengthOpts(s, len + 1, &end, true) : NULL;
  if (root && cJSON_IsObject(root)) {
    check_object(s, len, root);
  } else if (root && cJSON_IsArray(root)) {
    batch_walk all = {s, len, root->child, 0, true};
    if (!rpc_is_batch(s, len) || !rpc_split_batch(s, len, on_element, &all) ||
        all.next || all.count != (size_t)cJSON_GetArraySize(root)) {
      abort();
    }
  }
  cJSON_Delete(root);
  free(s);
  return 0;
}
