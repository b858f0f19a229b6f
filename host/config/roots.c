/* Which roots a server gets, and their roots/list form (roots.h). */
#include "config/roots.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <mcphost/mcphost.h>

#include "util.h"

bool roots_check_entry(config *c, const char *src, const char *where,
                       const char *name, const cJSON *e) {
  const cJSON *roots = cJSON_GetObjectItemCaseSensitive(e, "roots");
  if (!roots)
    return true;
  if (!cJSON_IsArray(roots)) {
    config_error(c,
                 "%s: server \"%s\": \"roots\" must be a list of "
                 "directories (at %s.roots)",
                 src, name, where);
    return false;
  }
  int i = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, roots) {
    if (!cJSON_IsString(r) || r->valuestring[0] == '\0') {
      config_error(c,
                   "%s: server \"%s\": each root must be a non-empty "
                   "directory path (at %s.roots[%d])",
                   src, name, where, i);
      return false;
    }
    i++;
  }
  return true;
}

char *roots_resolve_dir(const char *base, const char *path, char *why,
                        size_t why_len) {
  char *joined;
  char *home = path[0] == '~' ? user_home() : NULL;
  if (path[0] == '~' && (path[1] == '/' || path[1] == '\0') && home)
    joined = xasprintf("%s%s", home, path + 1);
  else if (path[0] == '/')
    joined = xstrdup(path);
  else
    joined = xasprintf("%s/%s", strcmp(base, "/") ? base : "", path);
  free(home);
  char *real = realpath(joined, NULL);
  struct stat st;
  if (!real) {
    snprintf(why, why_len, "%s: %s", joined, strerror(errno));
  } else if (stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
    snprintf(why, why_len, "%s: not a directory", joined);
    free(real);
    real = NULL;
  }
  free(joined);
  return real;
}

cJSON *roots_entry(const char *abs_path) {
  strbuf uri;
  sb_init(&uri);
  sb_adds(&uri, "file://");
  for (const unsigned char *p = (const unsigned char *)abs_path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
        (*p >= '0' && *p <= '9') || strchr("/-._~", *p)) {
      sb_addc(&uri, (char)*p);
    } else {
      sb_printf(&uri, "%%%02X", *p);
    }
  }
  const char *base = strrchr(abs_path, '/');
  cJSON *root = cJSON_CreateObject();
  cJSON_AddStringToObject(root, "uri", sb_str(&uri));
  cJSON_AddStringToObject(root, "name", base && base[1] ? base + 1 : abs_path);
  sb_free(&uri);
  return root;
}

/* The directory relative roots of a config entry start from: the one
 * holding the file that defines it; the working directory for servers of
 * the command line (their source names no file). */
static char *entry_base(const server_config *sc, const char *cwd) {
  const char *slash = sc->source ? strrchr(sc->source, '/') : NULL;
  if (!slash)
    return xstrdup(cwd);
  if (slash == sc->source)
    return xstrdup("/");
  char *dir = xstrndup(sc->source, (size_t)(slash - sc->source));
  if (dir[0] == '/')
    return dir;
  char *abs = xasprintf("%s/%s", cwd, dir);
  free(dir);
  return abs;
}

/* Formats a note and hands it to `note`, when there is one. */
__attribute__((format(printf, 5, 6))) static void
say(roots_note_fn note, void *ud, int level, const char *server,
    const char *fmt, ...) {
  if (!note) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  char *m = xvasprintf(fmt, ap);
  va_end(ap);
  note(ud, level, server, m);
  free(m);
}

cJSON *roots_offer(const server_config *sc, const roots_options *o,
                   roots_note_fn note, void *ud) {
  if (o->none)
    return NULL;
  cJSON *out = cJSON_CreateArray();
  if (o->ndirs) {
    for (size_t i = 0; i < o->ndirs; i++)
      cJSON_AddItemToArray(out, roots_entry(o->dirs[i]));
    return out;
  }
  const cJSON *listed =
      sc->json ? cJSON_GetObjectItemCaseSensitive(sc->json, "roots") : NULL;
  if (cJSON_IsArray(listed)) {
    char *base = entry_base(sc, o->cwd);
    int i = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, listed) {
      char why[PATH_MAX + 64];
      char *dir = cJSON_IsString(r)
                      ? roots_resolve_dir(base, r->valuestring, why, sizeof why)
                      : NULL;
      if (dir) {
        cJSON_AddItemToArray(out, roots_entry(dir));
        free(dir);
      } else if (cJSON_IsString(r)) {
        say(note, ud, MCPH_LOG_WARN, sc->name,
            "%s: root left out (at mcpServers.%s.roots[%d]): %s", sc->source,
            sc->name, i, why);
      }
      i++;
    }
    free(base);
    return out;
  }
  if (strcmp(o->cwd, "/") != 0) {
    cJSON_AddItemToArray(out, roots_entry(o->cwd));
  } else {
    say(note, ud, MCPH_LOG_INFO, sc->name,
        "no roots offered: the working directory is / (use --root DIR "
        "or a \"roots\" list to offer one)");
  }
  return out;
}
