#include "select.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ide_util.h"

const char *ide_lock_skip_reason(const ide_lock *lk) {
  if (lk->error) {
    return lk->error;
  }
  if (!lk->alive) {
    return "stale: its pid is not running";
  }
  if (!lk->contains_cwd) {
    return "the working directory is outside its workspace folders";
  }
  return NULL;
}

/* Appends "PATH (port N, IDE, pid P): REASON" to the one-line message,
 * after a "; " when it is not the first. */
static void list_line(char **msg, const ide_lock *lk, const char *reason) {
  size_t n = strlen(*msg);
  const char *sep = n && (*msg)[n - 1] != ' ' ? "; " : "";
  char *line;
  if (lk->ide_name) {
    line = xasprintf("%s%s%s (port %d, %s, pid %ld)%s%s", *msg, sep, lk->path,
                     lk->port, lk->ide_name, lk->pid, reason ? ": " : "",
                     reason ? reason : "");
  } else {
    line = xasprintf("%s%s%s%s%s", *msg, sep, lk->path, reason ? ": " : "",
                     reason ? reason : "");
  }
  free(*msg);
  *msg = line;
}

static char *where_looked(const ide_locks *l) {
  char *s = xstrdup("");
  for (size_t i = 0; i < l->ndirs; i++) {
    char *t = xasprintf("%s%s%s", s, i ? ", " : "", l->dirs[i]);
    free(s);
    s = t;
  }
  return s;
}

static int parse_port(const char *s) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end || end == s || v < 1 || v > 65535) {
    return 0;
  }
  return (int)v;
}

long ide_select(const ide_locks *l, const char *sse_port, char **why,
                int *none) {
  *why = NULL;
  *none = 0;
  if (sse_port) {
    int port = parse_port(sse_port);
    if (!port) {
      *why = xasprintf("CLAUDE_CODE_SSE_PORT=\"%.40s\" is not a port "
                       "(1 to 65535)",
                       sse_port);
      return -1;
    }
    long found = -1;
    for (size_t i = 0; i < l->n; i++) {
      if (l->v[i].port != port) {
        continue;
      }
      const char *r = ide_lock_skip_reason(&l->v[i]);
      if (!r) {
        return (long)i;
      }
      if (found < 0) {
        found = (long)i;
      }
    }
    if (found >= 0) {
      *why = xasprintf("the IDE lockfile of CLAUDE_CODE_SSE_PORT=%d "
                       "cannot be used: ",
                       port);
      list_line(why, &l->v[found], ide_lock_skip_reason(&l->v[found]));
    } else {
      char *dirs = where_looked(l);
      *why = xasprintf("no IDE lockfile %d.lock (CLAUDE_CODE_SSE_PORT) in "
                       "%s",
                       port, dirs);
      free(dirs);
    }
    return -1;
  }
  size_t ncand = 0;
  long pick = -1;
  for (size_t i = 0; i < l->n; i++) {
    if (!ide_lock_skip_reason(&l->v[i])) {
      ncand++;
      pick = (long)i;
    }
  }
  if (ncand == 1) {
    return pick;
  }
  if (ncand == 0) {
    *none = 1;
    char *dirs = where_looked(l);
    *why = xasprintf("no running IDE has the working directory in its "
                     "workspace (looked in %s)%s",
                     dirs, l->n ? "; found: " : "");
    free(dirs);
    for (size_t i = 0; i < l->n; i++) {
      list_line(why, &l->v[i], ide_lock_skip_reason(&l->v[i]));
    }
    return -1;
  }
  *why = xstrdup("several running IDEs have the working directory in "
                     "their workspace; set CLAUDE_CODE_SSE_PORT to the port "
                     "of one: ");
  for (size_t i = 0; i < l->n; i++) {
    if (!ide_lock_skip_reason(&l->v[i])) {
      list_line(why, &l->v[i], NULL);
    }
  }
  return -1;
}

char *ide_server_entry(const ide_lock *lk) {
  bool ws = strcmp(lk->transport, "ws") == 0;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "type", ws ? "ws-ide" : "sse-ide");
  char *url = ws ? xasprintf("ws://127.0.0.1:%d", lk->port)
                 : xasprintf("http://127.0.0.1:%d/sse", lk->port);
  cJSON_AddStringToObject(o, "url", url);
  free(url);
  cJSON_AddStringToObject(o, "ideName", lk->ide_name);
  if (lk->auth_token) {
    cJSON_AddStringToObject(o, "authToken", lk->auth_token);
  }
  cJSON_AddBoolToObject(o, "ideRunningInWindows", lk->windows);
  char *text = cJSON_PrintUnformatted(o);
  cJSON_Delete(o);
  if (!text) {
    abort();
  }
  return text;
}
