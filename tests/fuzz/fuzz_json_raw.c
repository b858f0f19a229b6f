/* Fuzz target: the raw JSON path for large results
 * (common/json_raw.h) and the JSON writer (common/json_write.h).
 * Promises checked:
 *   - what json_raw_response accepts is valid JSON to the ordinary
 *     path's parser (json_parse) too, an object with one integer "id" of
 *     that value and one "result", no "error" and no "method"; the
 *     result's span lies inside the input;
 *   - the minified result is the very text the ordinary path prints
 *     (json_write of json_parse's tree: number tokens and U+0000 as they
 *     came), and no longer than its source; minified in place, the
 *     same; an ASCII verdict means no byte above 0x7F in it; its
 *     isError and resultType verdicts are what the tree's lookup of the
 *     result's own members finds;
 *   - what json_raw_value measures (batch's arguments, passed on as
 *     their text) is one value the ordinary path's parser takes too,
 *     within the input, and its minified text is what json_write prints
 *     of that parse;
 *   - json_write of anything cJSON parses is what cJSON_PrintUnformatted
 *     prints, but for C0 80 in a string, which json_write writes as
 *     \u0000 (the tree's U+0000, json_parse.h); and a fixed point: read
 *     again by json_parse and written again, the same. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "fuzz_json.h"
#include "json_parse.h"
#include "json_raw.h"
#include "json_write.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static void check_raw(const char *s, size_t len, const cJSON *root) {
  json_raw_info in;
  if (!json_raw_response(s, len, &in)) {
    return;
  }
  int64_t id = in.id;
  size_t off = in.result_off, n = in.result_len;
  bool ascii = in.ascii, compact = in.compact;
  if (!cJSON_IsObject(root) || off > len || n > len - off || n == 0) {
    abort();
  }
  const cJSON *idj = cJSON_GetObjectItemCaseSensitive(root, "id");
  if (fuzz_json_members(root, "id") != 1 || !cJSON_IsNumber(idj) ||
      idj->valuedouble != (double)id ||
      fuzz_json_members(root, "result") != 1 ||
      fuzz_json_members(root, "error") != 0 ||
      fuzz_json_members(root, "method") != 0) {
    abort();
  }
  char *mini = malloc(n + 1);
  if (!mini) {
    abort();
  }
  size_t m = json_raw_minify(s + off, n, mini);
  if (m > n || (compact ? m != n || memcmp(mini, s + off, n) != 0 : m == n)) {
    abort(); /* told compact, and minifying changed it, or the reverse */
  }
  /* In place, as rpc_receive_owned does it: to the front of the text. */
  char *own = malloc(len + 1);
  if (!own) {
    abort();
  }
  memcpy(own, s, len);
  if (json_raw_minify(own + off, n, own) != m || memcmp(own, mini, m) != 0) {
    abort();
  }
  free(own);
  strbuf want;
  sb_init(&want);
  if (json_write(&want, cJSON_GetObjectItemCaseSensitive(root, "result")) !=
          0 ||
      want.len != m || memcmp(want.data, mini, m) != 0) {
    abort(); /* the raw path would pass on other text than the tree's */
  }
  const cJSON *result = cJSON_GetObjectItemCaseSensitive(root, "result");
  const cJSON *rt = cJSON_GetObjectItemCaseSensitive(result, "resultType");
  if (in.is_error !=
          cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError")) ||
      in.type_other != (rt && !(cJSON_IsString(rt) &&
                                strcmp(rt->valuestring, "complete") == 0))) {
    abort(); /* the flags a caller trusts instead of the tree */
  }
  for (size_t i = 0; ascii && i < m; i++) {
    if ((unsigned char)mini[i] > 0x7F) {
      abort();
    }
  }
  sb_free(&want);
  free(mini);
}

/* cJSON's printed text with each C0 80 written as \u0000: outside its
 * strings the text is ASCII, and inside them cJSON escapes only bytes
 * below 0x20, '"' and '\\', so a C0 80 there is one of a string's. */
static void nul_as_escape(strbuf *out, const char *s) {
  for (; *s; s++) {
    if ((unsigned char)s[0] == 0xC0 && (unsigned char)s[1] == 0x80) {
      sb_adds(out, "\\u0000");
      s++;
    } else {
      sb_addc(out, *s);
    }
  }
}

static void check_write(const cJSON *root) {
  strbuf out;
  sb_init(&out);
  char *printed = cJSON_PrintUnformatted(root);
  int rc = json_write(&out, root);
  if ((rc == 0) != (printed != NULL)) {
    abort();
  }
  if (printed) {
    strbuf want;
    sb_init(&want);
    nul_as_escape(&want, printed);
    if (out.len != want.len || memcmp(out.data, want.data, out.len)) {
      abort();
    }
    sb_free(&want);
    /* Read again and written again: the same text (not the same tree:
     * cJSON writes an infinity as null). */
    cJSON *again = json_parse(out.data, out.len, NULL);
    strbuf twice;
    sb_init(&twice);
    if (!again || json_write(&twice, again) != 0 || twice.len != out.len ||
        memcmp(twice.data, out.data, out.len) != 0) {
      abort();
    }
    sb_free(&twice);
    cJSON_Delete(again);
  }
  cJSON_free(printed);
  sb_free(&out);
}

static void check_value(const char *s, size_t len) {
  size_t n = json_raw_value(s, len, JSON_RAW_MAX_DEPTH);
  if (n == 0) {
    return;
  }
  if (n > len) {
    abort();
  }
  cJSON *tree = json_parse(s, n, NULL);
  if (!tree) {
    abort(); /* measured a value the ordinary path refuses */
  }
  char *mini = malloc(n + 1);
  if (!mini) {
    abort();
  }
  size_t m = json_raw_minify(s, n, mini);
  strbuf want;
  sb_init(&want);
  if (json_write(&want, tree) != 0 || want.len != m ||
      memcmp(want.data, mini, m) != 0) {
    abort(); /* its text is not what the tree's path would send */
  }
  sb_free(&want);
  free(mini);
  cJSON_Delete(tree);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  char *s = fuzz_text(data, len);
  /* The whole input must be the value (cJSON stops at a NUL: then the
   * text is not one JSON value and json_raw must refuse it). */
  const char *end = NULL;
  cJSON *root = cJSON_ParseWithLengthOpts(s, len + 1, &end, true);
  if (root && (size_t)(end - s) < len) {
    cJSON_Delete(root);
    root = NULL;
  }
  if (root) {
    check_write(root);
  }
  json_raw_info in;
  cJSON *exact = json_parse(s, len, NULL);
  if (json_raw_response(s, len, &in) && !exact) {
    abort(); /* accepted what the ordinary path refuses */
  }
  if (exact) {
    check_raw(s, len, exact);
  }
  check_value(s, len);
  cJSON_Delete(exact);
  cJSON_Delete(root);
  free(s);
  return 0;
}
