#include "www_auth.h"

#include <stddef.h>
#include <string.h>
#include <strings.h>

static int is_tchar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || (c && strchr("!#$%&'*+-.^_`|~/=", c));
}

static const char *skip_ows(const char *p) {
  while (*p == ' ' || *p == '\t') {
    p++;
  }
  return p;
}

/* Copies a token or a quoted string at p into dst (cut to n - 1 bytes);
 * returns the position after it. */
static const char *read_value(const char *p, char *dst, size_t n) {
  size_t k = 0;
  if (*p == '"') {
    for (p++; *p && *p != '"'; p++) {
      if (*p == '\\' && p[1]) {
        p++;
      }
      if (k + 1 < n) {
        dst[k++] = *p;
      }
    }
    if (*p == '"') {
      p++;
    }
  } else {
    for (; *p && *p != ',' && *p != ' ' && *p != '\t'; p++) {
      if (k + 1 < n) {
        dst[k++] = *p;
      }
    }
  }
  if (n) {
    dst[k] = '\0';
  }
  return p;
}

static char *part(www_auth *w, const char *name, size_t len, size_t *n) {
  static const struct {
    const char *name;
    size_t off;
  } parts[] = {
      {"realm", offsetof(www_auth, realm)},
      {"scope", offsetof(www_auth, scope)},
      {"error", offsetof(www_auth, error)},
      {"error_description", offsetof(www_auth, error_description)},
      {"resource_metadata", offsetof(www_auth, resource_metadata)},
  };
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
    if (strlen(parts[i].name) == len &&
        strncasecmp(parts[i].name, name, len) == 0) {
      *n = WWW_AUTH_PART_MAX;
      return (char *)w + parts[i].off;
    }
  }
  return NULL;
}

void www_auth_parse(const char *value, www_auth *out) {
  memset(out, 0, sizeof *out);
  if (!value) {
    return;
  }
  const char *p = skip_ows(value);
  size_t k = 0;
  for (; is_tchar(*p) && *p != '='; p++) {
    if (k + 1 < sizeof out->scheme) {
      out->scheme[k++] = *p;
    }
  }
  out->scheme[k] = '\0';
  for (;;) {
    p = skip_ows(p);
    while (*p == ',') {
      p = skip_ows(p + 1);
    }
    const char *name = p;
    while (is_tchar(*p) && *p != '=') {
      p++;
    }
    size_t len = (size_t)(p - name);
    p = skip_ows(p);
    if (len == 0 || *p != '=') {
      return; /* the end, or the next challenge's scheme */
    }
    p = skip_ows(p + 1);
    char scratch[WWW_AUTH_PART_MAX];
    size_t n = sizeof scratch;
    char *dst = part(out, name, len, &n);
    p = read_value(p, dst ? dst : scratch, n);
  }
}

static const char *or_null(const char *s) {
  return s && *s ? s : NULL;
}

void www_auth_challenge(const www_auth *w, int status, const char *url,
                        const char *value, mcph_auth_challenge *ch) {
  *ch = (mcph_auth_challenge){
      .struct_size = sizeof *ch,
      .status = status,
      .url = url,
      .www_authenticate = or_null(value),
      .scheme = or_null(w->scheme),
      .realm = or_null(w->realm),
      .scope = or_null(w->scope),
      .error = or_null(w->error),
      .error_description = or_null(w->error_description),
      .resource_metadata = or_null(w->resource_metadata),
  };
}
