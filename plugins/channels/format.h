/* How a channel message is printed: the tag form
 *   <channel source="SERVER" key="value" ...>content</channel>
 * and the JSON line form {"source":..,"meta":{..},"content":..}.
 *
 * A server controls content and meta, never the frame: in attribute
 * values & < > " become entities, in content & < > do; C0 controls other
 * than newline and tab (in attributes: all of them), DEL and the C1
 * controls U+0080..U+009F become &#xNN;
 * so nothing reaches a terminal as an escape sequence; meta keys that are
 * not [A-Za-z0-9_]+, the key "source" (the host sets it), repeated keys
 * and values that are not strings, numbers or booleans are dropped. The
 * host has already sanitized the Unicode of every string. */
#ifndef CHANNELS_FORMAT_H
#define CHANNELS_FORMAT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h" /* the buffer a message is printed into */

/* Whether `key` may become an attribute. */
bool chan_meta_key_ok(const char *key);

/* Appends `s` escaped for an attribute value, or for content. */
void chan_escape_attr(strbuf *b, const char *s);
void chan_escape_content(strbuf *b, const char *s);

/* The meta that is kept, as a new object of string values (numbers and
 * booleans as their JSON text), in the server's order. */
cJSON *chan_meta_filter(const cJSON *meta);

/* Appends one message and a newline. `params` is the notification's
 * params; returns false (nothing appended, `why` set) when it is not a
 * message: no params object, or content missing or not a string. */
bool chan_format(strbuf *b, const char *source, const cJSON *params, bool json,
                 const char **why);

#endif
