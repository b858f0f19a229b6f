/* URLs for the remote transports, through libcurl's URL API; see url.h. */
#include "url.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

/* The parts of a URL that make its origin, lower-cased scheme and host,
 * and the port with the scheme's default filled in. */
typedef struct origin {
  char *scheme, *host, *port;
  bool default_port; /* the port is the scheme's default */
} origin;

static void origin_free(origin *o) {
  curl_free(o->scheme);
  curl_free(o->host);
  curl_free(o->port);
  memset(o, 0, sizeof *o);
}

static void lower(char *s) {
  for (; s && *s; s++) {
    if (*s >= 'A' && *s <= 'Z') {
      *s = (char)(*s - 'A' + 'a');
    }
  }
}

static CURLUcode origin_of(const char *url, origin *o) {
  memset(o, 0, sizeof *o);
  CURLU *h = curl_url();
  if (!h) {
    return CURLUE_OUT_OF_MEMORY;
  }
  CURLUcode rc = curl_url_set(h, CURLUPART_URL, url, 0);
  if (rc == CURLUE_OK) {
    rc = curl_url_get(h, CURLUPART_SCHEME, &o->scheme, 0);
  }
  if (rc == CURLUE_OK) {
    rc = curl_url_get(h, CURLUPART_HOST, &o->host, 0);
  }
  if (rc == CURLUE_OK) {
    rc = curl_url_get(h, CURLUPART_PORT, &o->port, CURLU_DEFAULT_PORT);
  }
  if (rc == CURLUE_OK) {
    char *given = NULL;
    /* CURLUE_NO_PORT: none was written, so it is the default. */
    if (curl_url_get(h, CURLUPART_PORT, &given, 0) != CURLUE_OK) {
      o->default_port = true;
    } else {
      o->default_port =
          (strcmp(o->scheme, "http") == 0 && strcmp(o->port, "80") == 0) ||
          (strcmp(o->scheme, "https") == 0 && strcmp(o->port, "443") == 0);
      curl_free(given);
    }
    lower(o->scheme);
    lower(o->host);
  } else {
    origin_free(o);
  }
  curl_url_cleanup(h);
  return rc;
}

bool url_check_http(const char *url, char *why, size_t why_len) {
  origin o;
  CURLUcode rc = origin_of(url, &o);
  if (rc != CURLUE_OK) {
    snprintf(why, why_len, "%s", curl_url_strerror(rc));
    return false;
  }
  bool ok = strcmp(o.scheme, "http") == 0 || strcmp(o.scheme, "https") == 0;
  if (!ok) {
    snprintf(why, why_len, "the scheme is \"%s\", not http or https", o.scheme);
  }
  origin_free(&o);
  return ok;
}

const remote_url_rule url_http_rule = {"http or https", url_check_http};

char *url_resolve(const char *base, const char *ref, char *why,
                  size_t why_len) {
  char *out = NULL, *result = NULL;
  CURLU *h = curl_url();
  if (!h) {
    snprintf(why, why_len, "out of memory");
    return NULL;
  }
  /* With a URL already in the handle, a relative one is resolved against
   * it; an absolute one replaces it. */
  CURLUcode rc = curl_url_set(h, CURLUPART_URL, base, 0);
  if (rc == CURLUE_OK) {
    rc = curl_url_set(h, CURLUPART_URL, ref, 0);
  }
  if (rc == CURLUE_OK) {
    rc = curl_url_get(h, CURLUPART_URL, &out, 0);
  }
  if (rc != CURLUE_OK) {
    snprintf(why, why_len, "%s", curl_url_strerror(rc));
  } else if (url_check_http(out, why, why_len)) {
    result = strdup(out);
    if (!result) {
      snprintf(why, why_len, "out of memory");
    }
  }
  curl_free(out);
  curl_url_cleanup(h);
  return result;
}

void url_origin(const char *url, char *out, size_t size) {
  origin o;
  if (origin_of(url, &o) != CURLUE_OK) {
    snprintf(out, size, "?");
    return;
  }
  if (o.default_port) {
    snprintf(out, size, "%s://%s", o.scheme, o.host);
  } else {
    snprintf(out, size, "%s://%s:%s", o.scheme, o.host, o.port);
  }
  origin_free(&o);
}

bool url_same_origin(const char *a, const char *b) {
  origin x, y;
  if (origin_of(a, &x) != CURLUE_OK) {
    return false;
  }
  if (origin_of(b, &y) != CURLUE_OK) {
    origin_free(&x);
    return false;
  }
  bool same = strcmp(x.scheme, y.scheme) == 0 && strcmp(x.host, y.host) == 0 &&
              strcmp(x.port, y.port) == 0;
  origin_free(&x);
  origin_free(&y);
  return same;
}

/* The user and password of `url` joined, or "" (a new string). */
static char *credentials(const char *url) {
  CURLU *h = curl_url();
  char *user = NULL, *pass = NULL, *out = NULL;
  if (h && curl_url_set(h, CURLUPART_URL, url, 0) == CURLUE_OK) {
    curl_url_get(h, CURLUPART_USER, &user, 0);
    curl_url_get(h, CURLUPART_PASSWORD, &pass, 0);
  }
  size_t n = (user ? strlen(user) : 0) + (pass ? strlen(pass) : 0) + 2;
  out = malloc(n);
  if (out) {
    snprintf(out, n, "%s:%s", user ? user : "", pass ? pass : "");
  }
  curl_free(user);
  curl_free(pass);
  curl_url_cleanup(h);
  return out;
}

static bool redirect_allowed(const char *from, const char *to) {
  char *cf = credentials(from), *ct = credentials(to);
  bool adds = !cf || !ct || (strcmp(ct, ":") != 0 && strcmp(cf, ct) != 0);
  free(cf);
  free(ct);
  if (adds) {
    return false;
  }
  if (url_same_origin(from, to)) {
    return true;
  }
  origin x, y;
  if (origin_of(from, &x) != CURLUE_OK) {
    return false;
  }
  bool ok = false;
  if (origin_of(to, &y) == CURLUE_OK) {
    ok = strcmp(x.host, y.host) == 0 && strcmp(x.scheme, "http") == 0 &&
         x.default_port && strcmp(y.scheme, "https") == 0 && y.default_port;
    origin_free(&y);
  }
  origin_free(&x);
  return ok;
}

bool url_redirect_check(const char *from, const char *to, unsigned count,
                        char *why, size_t why_len) {
  if (!to || !*to) {
    snprintf(why, why_len, "a redirect without a usable Location");
    return false;
  }
  if (!redirect_allowed(from, to)) {
    char theirs[300];
    url_origin(to, theirs, sizeof theirs);
    if (url_same_origin(from, to)) {
      snprintf(why, why_len, "a redirect that adds credentials; not followed");
    } else {
      snprintf(why, why_len, "redirected to another origin (%s); not followed",
               theirs);
    }
    return false;
  }
  if (count >= URL_MAX_REDIRECTS) {
    snprintf(why, why_len, "more than %u redirects", URL_MAX_REDIRECTS);
    return false;
  }
  return true;
}

bool url_is_redirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 ||
         status == 308;
}

char *url_display(const char *url) {
  CURLU *h = curl_url();
  char *out = NULL, *result = NULL;
  if (h && curl_url_set(h, CURLUPART_URL, url, 0) == CURLUE_OK &&
      curl_url_set(h, CURLUPART_USER, NULL, 0) == CURLUE_OK &&
      curl_url_set(h, CURLUPART_PASSWORD, NULL, 0) == CURLUE_OK &&
      curl_url_get(h, CURLUPART_URL, &out, 0) == CURLUE_OK) {
    result = strdup(out);
  } else if (!h || strchr(url, '@') == NULL) {
    result = strdup(url); /* does not parse: it holds no credentials we
                             could find either */
  } else {
    result = strdup("(a URL that does not parse)");
  }
  curl_free(out);
  curl_url_cleanup(h);
  return result;
}

static int hex(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

/* Percent-decodes `s[0..n)` into a new string. */
static char *decode(const char *s, size_t n) {
  char *out = malloc(n + 1);
  size_t o = 0;
  if (!out) {
    return NULL;
  }
  for (size_t i = 0; i < n; i++) {
    int hi, lo;
    if (s[i] == '%' && i + 2 < n && (hi = hex(s[i + 1])) >= 0 &&
        (lo = hex(s[i + 2])) >= 0) {
      out[o++] = (char)(hi * 16 + lo);
      i += 2;
    } else {
      out[o++] = s[i] == '+' ? ' ' : s[i];
    }
  }
  out[o] = '\0';
  return out;
}

char *url_query_param(const char *url, const char *name) {
  CURLU *h = curl_url();
  char *query = NULL, *result = NULL;
  if (!h || curl_url_set(h, CURLUPART_URL, url, 0) != CURLUE_OK ||
      curl_url_get(h, CURLUPART_QUERY, &query, 0) != CURLUE_OK) {
    curl_url_cleanup(h);
    return NULL;
  }
  size_t nlen = strlen(name);
  for (const char *p = query; *p && !result;) {
    const char *end = strchr(p, '&');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len > nlen && strncmp(p, name, nlen) == 0 && p[nlen] == '=') {
      result = decode(p + nlen + 1, len - nlen - 1);
    }
    p += len + (end ? 1 : 0);
  }
  curl_free(query);
  curl_url_cleanup(h);
  return result;
}
