/* A URL as libcurl reads it (url_canon.h). */
#include "url_canon.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>

#include "alloc.h"

/* The soname of the libcurl the transports link (Debian: libcurl.so.4). */
#define URL_CANON_LIBRARY "libcurl.so.4"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static struct {
  __typeof__(curl_url) *url;
  __typeof__(curl_url_set) *set;
  __typeof__(curl_url_get) *get;
  __typeof__(curl_url_cleanup) *cleanup;
  __typeof__(curl_free) *free;
} fn;
static char failure[300];

static void open_curl(void) {
  void *h = dlopen(URL_CANON_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    const char *e = dlerror(); /* process-wide: copy at once */
    snprintf(failure, sizeof failure, "cannot load libcurl: %s",
             e ? e : URL_CANON_LIBRARY);
    return;
  }
  /* Never closed: the transports may map the same library. */
  fn.url = (__typeof__(fn.url))dlsym(h, "curl_url");
  fn.set = (__typeof__(fn.set))dlsym(h, "curl_url_set");
  fn.get = (__typeof__(fn.get))dlsym(h, "curl_url_get");
  fn.cleanup = (__typeof__(fn.cleanup))dlsym(h, "curl_url_cleanup");
  fn.free = (__typeof__(fn.free))dlsym(h, "curl_free");
  if (!fn.url || !fn.set || !fn.get || !fn.cleanup || !fn.free) {
    snprintf(failure, sizeof failure,
             "cannot load libcurl: %s lacks its URL API", URL_CANON_LIBRARY);
    fn.url = NULL;
  }
}

/* One part of `h` (a new string of ours), NULL when it has none. */
static char *part(CURLU *h, CURLUPart what, unsigned flags) {
  char *v = NULL;
  if (fn.get(h, what, &v, flags) != CURLUE_OK || !v) {
    return NULL;
  }
  char *copy = xstrdup(v);
  fn.free(v);
  return copy;
}

static void lower(char *s) {
  for (; s && *s; s++) {
    *s = (char)tolower((unsigned char)*s);
  }
}

char *url_canon(const char *url, char *why, size_t why_len) {
  pthread_once(&once, open_curl);
  if (!fn.url) {
    snprintf(why, why_len, "%s", failure);
    return NULL;
  }
  CURLU *h = fn.url();
  if (!h) {
    snprintf(why, why_len, "out of memory");
    return NULL;
  }
  char *out = NULL;
  /* Any scheme (ws, wss: the WebSocket transport's), read alike. */
  CURLUcode rc = fn.set(h, CURLUPART_URL, url, CURLU_NON_SUPPORT_SCHEME);
  if (rc != CURLUE_OK) {
    snprintf(why, why_len, "libcurl does not take it as a URL (error %d)",
             (int)rc);
    goto done;
  }
  char *scheme = part(h, CURLUPART_SCHEME, 0);
  char *host = part(h, CURLUPART_HOST, CURLU_URLDECODE);
  char *port = part(h, CURLUPART_PORT, CURLU_NO_DEFAULT_PORT);
  char *path = part(h, CURLUPART_PATH, 0);
  char *query = part(h, CURLUPART_QUERY, 0);
  if (!scheme || !host || !*host) {
    snprintf(why, why_len, "it has no %s", scheme ? "host" : "scheme");
  } else {
    lower(scheme);
    lower(host);
    /* libcurl may not know the WebSocket schemes' default ports. */
    if (port && ((strcmp(scheme, "ws") == 0 && strcmp(port, "80") == 0) ||
                 (strcmp(scheme, "wss") == 0 && strcmp(port, "443") == 0))) {
      free(port);
      port = NULL;
    }
    size_t hl = strlen(host);
    while (hl > 1 && host[hl - 1] == '.') {
      host[--hl] = '\0';
    }
    const char *pp = path ? path : "/";
    int n =
        snprintf(NULL, 0, "%s://%s%s%s%s%s%s", scheme, host, port ? ":" : "",
                 port ? port : "", pp, query ? "?" : "", query ? query : "");
    out = xmalloc((size_t)n + 1);
    snprintf(out, (size_t)n + 1, "%s://%s%s%s%s%s%s", scheme, host,
             port ? ":" : "", port ? port : "", pp, query ? "?" : "",
             query ? query : "");
  }
  free(scheme);
  free(host);
  free(port);
  free(path);
  free(query);
done:
  fn.cleanup(h);
  return out;
}
