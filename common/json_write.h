/* JSON text of a cJSON tree, appended to a buffer: the same bytes as
 * cJSON_PrintUnformatted() (json_write) or cJSON_Print() (json_write_pretty)
 * of cJSON 1.7.15, without the whole-message string those return (a large
 * answer is then held once more only to be copied), and exact where
 * json_parse made the tree: a number's token kept in its valuestring is
 * written as it came, a string's C0 80 as \u0000 (json_parse.h). Every
 * tree that leaves mcphost as JSON text (the wire, --json, batch) is
 * written here. Integers below 1e15 are printed without the
 * sprintf/sscanf round trip cJSON makes for every number. Pure functions;
 * any thread, as long as the locale is not changed meanwhile. */
#ifndef MCPHOST_JSON_WRITE_H
#define MCPHOST_JSON_WRITE_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "util.h"

/* Appends `item` to `out`. Returns 0, or MCPH_EINVAL where
 * cJSON_PrintUnformatted() returns NULL (a raw item without text, an item
 * of no known type); `out` is then left as it was. */
int json_write(strbuf *out, const cJSON *item);

/* Appends the string `s` (NULL: "") as a JSON string, as json_write
 * writes a string item. */
void json_write_string(strbuf *out, const char *s);

/* The same in cJSON_Print()'s layout (tabs and newlines), for people. */
int json_write_pretty(strbuf *out, const cJSON *item);

/* Where json_write_to sends the text as it is written: `write` takes
 * `len` bytes and returns false when they could not be written. */
typedef struct json_sink {
  bool (*write)(void *ud, const char *data, size_t len);
  void *ud;
} json_sink;

/* json_write (or json_write_pretty), handing the text to `sink` (when
 * not NULL) in pieces of 64 KiB as it is written, so that a result of
 * megabytes is never held twice: what `out` held before goes first, and
 * what it holds at the end is the caller's to write. Returns 0,
 * MCPH_EINVAL as json_write does (found before anything is written), or
 * MCPH_EIO when the sink refused a piece. */
int json_write_to(strbuf *out, const cJSON *item, bool pretty,
                  const json_sink *sink);

/* The compact text as a new string (free with free()), or NULL where
 * json_write fails: what cJSON_PrintUnformatted() is used for. */
char *json_print(const cJSON *item);

/* Room for the text of any double json_number_text writes. */
#define JSON_NUMBER_TEXT_MAX 32

/* The text cJSON prints for the double `d` ("%1.15g", or "%1.17g" where
 * that does not read back; null for NaN and infinities), NUL-terminated
 * in `buf` (JSON_NUMBER_TEXT_MAX bytes); returns its length. */
size_t json_number_text(double d, char *buf);

#endif
