#include "notify.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ide_util.h"
#include "text_escape.h"

/* A number field as text, "?" when absent. */
static char *num(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v)) {
    return xstrdup("?");
  }
  return xasprintf("%.0f", v->valuedouble);
}

static char *pos(const cJSON *o) {
  char *l = num(o, "line"), *c = num(o, "character");
  char *s = xasprintf("%s:%s", l, c);
  free(l);
  free(c);
  return s;
}

static const char *str(const cJSON *o, const char *key) {
  const char *s =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, key));
  return s ? s : "?";
}

static char *selection_line(const cJSON *p) {
  const cJSON *sel = cJSON_GetObjectItemCaseSensitive(p, "selection");
  char *file = ide_esc(str(p, "filePath"));
  char *from = pos(cJSON_GetObjectItemCaseSensitive(sel, "start"));
  char *line;
  if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(sel, "isEmpty"))) {
    line = xasprintf("selection_changed %s %s (empty)\n", file, from);
  } else {
    char *to = pos(cJSON_GetObjectItemCaseSensitive(sel, "end"));
    const char *t =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(p, "text"));
    char *text = ide_esc(t ? t : "");
    line =
        xasprintf("selection_changed %s %s-%s \"%s\"\n", file, from, to, text);
    free(to);
    free(text);
  }
  free(file);
  free(from);
  return line;
}

static char *mention_line(const cJSON *p) {
  char *file = ide_esc(str(p, "filePath"));
  char *a = num(p, "lineStart"), *b = num(p, "lineEnd");
  char *line = xasprintf("at_mentioned %s %s-%s\n", file, a, b);
  free(file);
  free(a);
  free(b);
  return line;
}

char *ide_notify_line(const char *server, const char *method,
                      const char *params_json, bool json, bool terminal) {
  cJSON *p = cJSON_Parse(params_json ? params_json : "{}");
  if (!p) {
    p = cJSON_CreateObject();
  }
  char *line;
  if (json) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "server", server);
    cJSON_AddStringToObject(o, "method", method);
    cJSON_AddItemToObject(o, "params", p);
    p = NULL;
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    if (!text) {
      abort();
    }
    if (terminal) {
      char *e = text_escape(text, strlen(text),
                            TEXT_ESCAPE_INVISIBLE | TEXT_ESCAPE_JSON, NULL);
      if (!e) {
        abort();
      }
      free(text);
      text = e;
    }
    line = xasprintf("%s\n", text);
    free(text);
  } else if (strcmp(method, "selection_changed") == 0 && cJSON_IsObject(p)) {
    line = selection_line(p);
  } else if (strcmp(method, "at_mentioned") == 0 && cJSON_IsObject(p)) {
    line = mention_line(p);
  } else {
    char *text = cJSON_PrintUnformatted(p);
    char *e = ide_esc(text ? text : "{}");
    char *m = ide_esc(method);
    line = xasprintf("%s %s\n", m, e);
    free(m);
    free(e);
    free(text);
  }
  cJSON_Delete(p);
  return line;
}
