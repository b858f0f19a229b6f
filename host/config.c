#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* A config file larger than this is refused rather than read. */
#define CONFIG_MAX_BYTES (16u * 1024u * 1024u)

void config_init(config *c) { memset(c, 0, sizeof *c); }

void config_free(config *c) {
  for (size_t i = 0; i < c->nservers; i++) {
    free(c->servers[i].name);
    free(c->servers[i].type);
    free(c->servers[i].source);
    cJSON_Delete(c->servers[i].json);
  }
  free(c->servers);
  for (size_t i = 0; i < c->nerrors; i++)
    free(c->errors[i]);
  free(c->errors);
  for (size_t i = 0; i < c->nwarnings; i++)
    free(c->warnings[i]);
  free(c->warnings);
  config_init(c);
}

static void add_msg(char ***list, size_t *n, const char *fmt, va_list ap) {
  strbuf b;
  sb_init(&b);
  sb_vprintf(&b, fmt, ap);
  *list = xrealloc(*list, (*n + 1) * sizeof **list);
  (*list)[(*n)++] = sb_take(&b);
}

static void cfg_error(config *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void cfg_error(config *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_msg(&c->errors, &c->nerrors, fmt, ap);
  va_end(ap);
}

static void cfg_warn(config *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void cfg_warn(config *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  add_msg(&c->warnings, &c->nwarnings, fmt, ap);
  va_end(ap);
}

const server_config *config_find(const config *c, const char *name) {
  for (size_t i = 0; i < c->nservers; i++)
    if (strcmp(c->servers[i].name, name) == 0)
      return &c->servers[i];
  return NULL;
}

/* Checks the fields every transport shares; a transport checks the rest
 * when it creates the connection. Returns the type or NULL. */
static const char *entry_type(config *c, const char *src, const char *name,
                              const cJSON *e) {
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(e, "type");
  const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(e, "command");
  const cJSON *url = cJSON_GetObjectItemCaseSensitive(e, "url");
  if (type && !cJSON_IsString(type)) {
    cfg_error(c, "%s: server \"%s\": \"type\" must be a string", src, name);
    return NULL;
  }
  if (type && type->valuestring[0] == '\0') {
    cfg_error(c, "%s: server \"%s\": \"type\" is empty", src, name);
    return NULL;
  }
  const char *t = type ? type->valuestring : NULL;
  if (!t && cmd)
    t = "stdio";
  if (!t && url)
    t = "http";
  if (!t) {
    cfg_error(c, "%s: server \"%s\": needs \"command\" (stdio) or \"url\"",
              src, name);
    return NULL;
  }
  if (strcmp(t, "stdio") == 0 &&
      (!cJSON_IsString(cmd) || cmd->valuestring[0] == '\0')) {
    cfg_error(c, "%s: server \"%s\": \"command\" must be a non-empty string",
              src, name);
    return NULL;
  }
  return t;
}

static void add_server(config *c, const char *src, const char *name,
                       const char *type, cJSON *json) {
  const server_config *prev = config_find(c, name);
  if (prev) {
    cfg_warn(c, "%s: server \"%s\" ignored: already defined in %s", src, name,
             prev->source);
    cJSON_Delete(json);
    return;
  }
  c->servers = xrealloc(c->servers, (c->nservers + 1) * sizeof *c->servers);
  server_config *s = &c->servers[c->nservers++];
  s->name = xstrdup(name);
  s->type = xstrdup(type);
  s->source = xstrdup(src);
  s->json = json;
}

int config_load_text(config *c, const char *text, size_t len,
                     const char *src) {
  const char *end = NULL;
  cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
  if (!doc) {
    /* Report the line of the first byte the parser could not take. */
    size_t line = 1, off = end ? (size_t)(end - text) : 0;
    for (size_t i = 0; i < off && i < len; i++)
      line += text[i] == '\n';
    cfg_error(c, "%s: invalid JSON near line %zu", src, line);
    return 0;
  }
  int added = 0;
  if (!cJSON_IsObject(doc)) {
    cfg_error(c, "%s: the top level must be a JSON object", src);
    goto out;
  }
  const cJSON *servers = cJSON_GetObjectItemCaseSensitive(doc, "mcpServers");
  if (!servers) {
    cfg_warn(c, "%s: no \"mcpServers\" object; nothing to load", src);
    goto out;
  }
  if (!cJSON_IsObject(servers)) {
    cfg_error(c, "%s: \"mcpServers\" must be an object", src);
    goto out;
  }
  const cJSON *e;
  cJSON_ArrayForEach(e, servers) {
    const char *name = e->string;
    if (!name || name[0] == '\0') {
      cfg_error(c, "%s: a server has an empty name", src);
      continue;
    }
    if (!cJSON_IsObject(e)) {
      cfg_error(c, "%s: server \"%s\": must be an object", src, name);
      continue;
    }
    const char *type = entry_type(c, src, name, e);
    if (!type)
      continue;
    add_server(c, src, name, type, cJSON_Duplicate(e, 1));
    added++;
  }
out:
  cJSON_Delete(doc);
  return added;
}

int config_load_file(config *c, const char *path, bool required) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT || required)
      cfg_error(c, "%s: cannot open: %s", path, strerror(errno));
    return 0;
  }
  int added = 0;
  char *buf = NULL;
  struct stat st;
  if (fstat(fd, &st) < 0) {
    cfg_error(c, "%s: cannot stat: %s", path, strerror(errno));
    goto out;
  }
  if (S_ISDIR(st.st_mode)) {
    cfg_error(c, "%s: is a directory, not a config file", path);
    goto out;
  }
  if (st.st_size > (off_t)CONFIG_MAX_BYTES) {
    cfg_error(c, "%s: too large (%lld bytes; the limit is %u)", path,
              (long long)st.st_size, CONFIG_MAX_BYTES);
    goto out;
  }
  size_t cap = (size_t)st.st_size + 1, len = 0;
  buf = xmalloc(cap);
  for (;;) {
    if (len == cap) {
      if (cap > CONFIG_MAX_BYTES) {
        cfg_error(c, "%s: too large (the limit is %u bytes)", path,
                  CONFIG_MAX_BYTES);
        goto out;
      }
      cap *= 2;
      buf = xrealloc(buf, cap);
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      cfg_error(c, "%s: cannot read: %s", path, strerror(errno));
      goto out;
    }
    if (n == 0)
      break;
    len += (size_t)n;
  }
  added = config_load_text(c, buf, len, path);
out:
  free(buf);
  close(fd);
  return added;
}

/* Shell-like splitting: whitespace separates words; '…' is literal; "…"
 * honours \" and \\; a backslash outside quotes escapes the next char. */
static int split_words(const char *s, char ***out, size_t *n) {
  *out = NULL;
  *n = 0;
  const char *p = s;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n')
      p++;
    if (!*p)
      return 0;
    strbuf w;
    sb_init(&w);
    sb_add(&w, "", 0);
    while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
      if (*p == '\'') {
        const char *q = strchr(p + 1, '\'');
        if (!q)
          goto unterminated;
        sb_add(&w, p + 1, (size_t)(q - p - 1));
        p = q + 1;
      } else if (*p == '"') {
        p++;
        while (*p && *p != '"') {
          if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
            p++;
          sb_addc(&w, *p++);
        }
        if (*p != '"')
          goto unterminated;
        p++;
      } else if (*p == '\\' && p[1]) {
        sb_addc(&w, p[1]);
        p += 2;
      } else {
        sb_addc(&w, *p++);
      }
    }
    *out = xrealloc(*out, (*n + 1) * sizeof **out);
    (*out)[(*n)++] = sb_take(&w);
    continue;
  unterminated:
    sb_free(&w);
    for (size_t i = 0; i < *n; i++)
      free((*out)[i]);
    free(*out);
    *out = NULL;
    *n = 0;
    return -1;
  }
}

int config_add_command(config *c, const char *spec) {
  const char *src = "command line";
  char *name = NULL;
  const char *eq = strchr(spec, '=');
  const char *sp = strpbrk(spec, " \t'\"");
  if (eq && (!sp || eq < sp)) {
    name = xstrndup(spec, (size_t)(eq - spec));
    spec = eq + 1;
  }
  char **words;
  size_t n;
  int rc = split_words(spec, &words, &n);
  if (rc < 0 || n == 0) {
    cfg_error(c, "%s: --server \"%s\": %s", src, spec,
              rc < 0 ? "unterminated quote" : "no command given");
    free(name);
    return -1;
  }
  if (!name || !*name) {
    free(name);
    const char *base = strrchr(words[0], '/');
    name = xstrdup(base ? base + 1 : words[0]);
  }
  cJSON *e = cJSON_CreateObject();
  cJSON_AddStringToObject(e, "command", words[0]);
  cJSON *args = cJSON_AddArrayToObject(e, "args");
  for (size_t i = 1; i < n; i++)
    cJSON_AddItemToArray(args, cJSON_CreateString(words[i]));
  for (size_t i = 0; i < n; i++)
    free(words[i]);
  free(words);
  add_server(c, src, name, "stdio", e);
  free(name);
  return 0;
}

int config_add_url(config *c, const char *spec, const char *type) {
  const char *src = "command line";
  const char *scheme = strstr(spec, "://");
  const char *eq = strchr(spec, '=');
  char *name = NULL;
  /* NAME=URL, unless the '=' belongs to the URL (after its scheme). */
  if (eq && (!scheme || eq < scheme)) {
    name = xstrndup(spec, (size_t)(eq - spec));
    spec = eq + 1;
    scheme = strstr(spec, "://");
  }
  if (!scheme || scheme == spec) {
    cfg_error(c, "%s: --url \"%s\": not a URL (scheme://host/...)", src,
              spec);
    free(name);
    return -1;
  }
  if (!name || !*name) {
    /* The host part: after "://" and any userinfo, up to ':' '/' '?'. */
    free(name);
    const char *h = scheme + 3;
    const char *at = strchr(h, '@');
    const char *end = h + strcspn(h, "/?#");
    if (at && at < end)
      h = at + 1;
    size_t n = strcspn(h, ":/?#");
    if (*h == '[')
      n = strcspn(h, "]") + 1;
    name = n ? xstrndup(h, n) : xstrdup("remote");
  }
  cJSON *e = cJSON_CreateObject();
  cJSON_AddStringToObject(e, "type", type);
  cJSON_AddStringToObject(e, "url", spec);
  add_server(c, src, name, type, e);
  free(name);
  return 0;
}
