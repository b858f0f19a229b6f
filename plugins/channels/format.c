#include "format.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

bool chan_meta_key_ok(const char *key) {
  if (!key || !*key)
    return false;
  for (const char *p = key; *p; p++)
    if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
          (*p >= '0' && *p <= '9') || *p == '_'))
      return false;
  return true;
}

/* `attr`: every control becomes a character reference, and so does '"'.
 * C1 controls (U+0080..U+009F, two bytes C2 80..C2 9F in UTF-8) always
 * do: U+009B and U+009D are terminal escape sequences on their own. */
static void escape(strbuf *b, const char *s, bool attr) {
  const char *run = s;
  for (const char *p = s;; p++) {
    unsigned char ch = (unsigned char)*p;
    const char *rep = NULL;
    char num[8];
    if (ch == 0xC2 && (unsigned char)p[1] >= 0x80 &&
        (unsigned char)p[1] <= 0x9F) {
      sb_add(b, run, (size_t)(p - run));
      snprintf(num, sizeof num, "&#x%02X;", (unsigned char)p[1]);
      sb_adds(b, num);
      run = p + 2;
      p++;
      continue;
    }
    if (ch == '&')
      rep = "&amp;";
    else if (ch == '<')
      rep = "&lt;";
    else if (ch == '>')
      rep = "&gt;";
    else if (ch == '"' && attr)
      rep = "&quot;";
    else if (ch != 0 && (ch < 0x20 || ch == 0x7f) &&
             (attr || (ch != '\n' && ch != '\t'))) {
      snprintf(num, sizeof num, "&#x%02X;", ch);
      rep = num;
    }
    if (!rep && ch != 0)
      continue;
    sb_add(b, run, (size_t)(p - run));
    if (ch == 0)
      return;
    sb_adds(b, rep);
    run = p + 1;
  }
}

void chan_escape_attr(strbuf *b, const char *s) {
  escape(b, s, true);
}
void chan_escape_content(strbuf *b, const char *s) {
  escape(b, s, false);
}

cJSON *chan_meta_filter(const cJSON *meta) {
  cJSON *out = cJSON_CreateObject();
  const cJSON *it;
  const cJSON *from = cJSON_IsObject(meta) ? meta : NULL;
  cJSON_ArrayForEach(it, from) {
    const char *key = it->string;
    if (!chan_meta_key_ok(key) || strcmp(key, "source") == 0 ||
        cJSON_GetObjectItemCaseSensitive(out, key))
      continue;
    if (cJSON_IsString(it)) {
      cJSON_AddStringToObject(out, key, it->valuestring);
    } else if (cJSON_IsNumber(it) || cJSON_IsBool(it)) {
      char *text = cJSON_PrintUnformatted(it);
      if (text)
        cJSON_AddStringToObject(out, key, text);
      cJSON_free(text);
    }
  }
  return out;
}

bool chan_format(strbuf *b, const char *source, const cJSON *params, bool json,
                 const char **why) {
  const cJSON *content = cJSON_GetObjectItemCaseSensitive(params, "content");
  if (!cJSON_IsObject(params)) {
    *why = "the notification has no params object";
    return false;
  }
  if (!cJSON_IsString(content)) {
    *why = content ? "its content is not a string" : "it has no content";
    return false;
  }
  cJSON *meta = chan_meta_filter(
      cJSON_GetObjectItemCaseSensitive(params, "meta"));
  if (json) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "source", source);
    cJSON_AddItemToObject(o, "meta", meta);
    cJSON_AddStringToObject(o, "content", content->valuestring);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text)
      abort();
    sb_adds(b, text);
    cJSON_free(text);
  } else {
    sb_adds(b, "<channel source=\"");
    chan_escape_attr(b, source);
    sb_adds(b, "\"");
    const cJSON *it;
    cJSON_ArrayForEach(it, meta) {
      sb_adds(b, " ");
      sb_adds(b, it->string); /* checked: [A-Za-z0-9_]+ */
      sb_adds(b, "=\"");
      chan_escape_attr(b, it->valuestring);
      sb_adds(b, "\"");
    }
    sb_adds(b, ">");
    chan_escape_content(b, content->valuestring);
    sb_adds(b, "</channel>");
    cJSON_Delete(meta);
  }
  sb_adds(b, "\n");
  return true;
}
