/* Fuzz target: the TOML reader used for imports (config/toml.h).
 * Properties: a failure names a line of the input and says why; a
 * success is an object; a comment line put before the text changes
 * nothing but the line of a failure (one more), and a comment after a
 * text that was read changes nothing. */
#include <stdlib.h>
#include <string.h>

#include "config/toml.h"
#include "json_doc.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len);

static const char head[] = "# a comment\n";
static const char tail[] = "\n# a comment\n";

static cJSON *parse(const char *pre, const unsigned char *data, size_t len,
                    const char *post, int *line) {
  size_t a = strlen(pre), b = strlen(post);
  /* Exactly the bytes: ASan sees any read past them. */
  char *text = malloc(a + len + b + 1);
  memcpy(text, pre, a);
  if (len) {
    memcpy(text + a, data, len);
  }
  memcpy(text + a + len, post, b);
  char *why = NULL;
  *line = 0;
  cJSON *doc = toml_parse(text, a + len + b, line, &why);
  if (!doc) {
    if (!why || !why[0]) {
      abort();
    }
  } else if (why || !cJSON_IsObject(doc)) {
    abort();
  }
  free(why);
  free(text);
  return doc;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t len) {
  int line = 0, line2 = 0;
  cJSON *doc = parse("", data, len, "", &line);
  int lines = 1;
  for (size_t i = 0; i < len; i++) {
    lines += data[i] == '\n';
  }
  if (!doc && (line < 1 || line > lines)) {
    abort();
  }
  cJSON *shifted = parse(head, data, len, "", &line2);
  if ((doc == NULL) != (shifted == NULL) || (doc && !json_same(doc, shifted)) ||
      (!doc && line2 != line + 1)) {
    abort();
  }
  cJSON_Delete(shifted);
  if (doc) {
    cJSON *more = parse("", data, len, tail, &line2);
    if (!more || !json_same(doc, more)) {
      abort();
    }
    cJSON_Delete(more);
  }
  cJSON_Delete(doc);
  return 0;
}
