/* Small helpers every part of the plugin uses: a growing string, form
 * encoding, scope lists, allocation that never returns NULL, the wall clock. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "oauth.h"

void *oauth_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) {
    abort(); /* as the host's xcalloc: out of memory is not recoverable */
  }
  return p;
}

char *oauth_strndup(const char *s, size_t n) {
  char *d = oauth_calloc(1, n + 1);
  memcpy(d, s, n);
  return d;
}

char *oauth_strdup(const char *s) {
  return s ? oauth_strndup(s, strlen(s)) : NULL;
}

int64_t oauth_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* RFC 3986 unreserved characters pass; everything else is %XX. */
static void form_escape(strbuf *b, const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
        (*p >= '0' && *p <= '9') || *p == '-' || *p == '.' || *p == '_' ||
        *p == '~') {
      sb_add(b, (const char *)p, 1);
    } else {
      char e[3] = {'%', hex[*p >> 4], hex[*p & 15]};
      sb_add(b, e, 3);
    }
  }
}

void ob_form(strbuf *b, const char *name, const char *value) {
  if (!value) {
    return;
  }
  if (b->len) {
    sb_add(b, "&", 1);
  }
  form_escape(b, name);
  sb_add(b, "=", 1);
  form_escape(b, value);
}

void oauth_form_decode(char *s) {
  for (char *p = s; *p; p++) {
    *p = *p == '+' ? ' ' : *p;
  }
  int n = 0;
  char *d = curl_easy_unescape(NULL, s, 0, &n);
  if (d) {
    memcpy(s, d, (size_t)n); /* never longer than the encoded text */
    s[n] = '\0';
    curl_free(d);
  }
}

char *oauth_json_str(const cJSON *o, const char *k) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
  return cJSON_IsString(v) && v->valuestring[0] ? oauth_strdup(v->valuestring)
                                                : NULL;
}

char *oauth_read_file(const char *path, size_t max) {
  FILE *fp = fopen(path, "re");
  if (!fp) {
    return NULL;
  }
  strbuf b = {0};
  char buf[4096];
  size_t n;
  while (b.len <= max && (n = fread(buf, 1, sizeof buf, fp)) > 0) {
    sb_add(&b, buf, n);
  }
  fclose(fp);
  if (b.len > max) {
    sb_free(&b);
    return NULL;
  }
  return b.data ? b.data : oauth_strdup("");
}

char *oauth_query_param(const char *url, const char *name) {
  const char *q = url ? strchr(url, '?') : NULL;
  if (!q) {
    return NULL;
  }
  size_t nlen = strlen(name);
  for (const char *p = q + 1; *p;) {
    const char *end = p + strcspn(p, "&#");
    if ((size_t)(end - p) > nlen && strncmp(p, name, nlen) == 0 &&
        p[nlen] == '=') {
      char *v = oauth_strndup(p + nlen + 1, (size_t)(end - p) - nlen - 1);
      oauth_form_decode(v);
      return v;
    }
    if (*end != '&') {
      break;
    }
    p = end + 1;
  }
  return NULL;
}

bool oauth_has_scope(const char *list, const char *w, size_t n) {
  for (const char *p = list; p && *p;) {
    p += strspn(p, " ");
    size_t l = strcspn(p, " ");
    if (l == n && strncmp(p, w, n) == 0) {
      return true;
    }
    p += l;
  }
  return false;
}

char *scope_union(const char *a, const char *b) {
  strbuf o = {0};
  const char *lists[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    for (const char *p = lists[i]; p && *p;) {
      p += strspn(p, " ");
      size_t l = strcspn(p, " ");
      if (l && !oauth_has_scope(o.data, p, l)) {
        if (o.len) {
          sb_adds(&o, " ");
        }
        sb_add(&o, p, l);
      }
      p += l;
    }
  }
  return o.data;
}
