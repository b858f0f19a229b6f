#include "listing.h"

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "curl_dl.h"
#include "mcp_name.h"

#define LISTING_MAX_BYTES (8u * 1024 * 1024)
#define NAME_PREFIX MCP_NAME_CLAUDEAI_PREFIX

typedef struct body {
  char *data;
  size_t len;
  bool too_big;
} body;

static size_t on_data(char *p, size_t size, size_t n, void *ud) {
  body *b = ud;
  size_t add = size * n;
  if (b->len + add > LISTING_MAX_BYTES) {
    b->too_big = true;
    return 0;
  }
  char *d = realloc(b->data, b->len + add + 1);
  if (!d) {
    return 0;
  }
  memcpy(d + b->len, p, add);
  b->len += add;
  d[b->len] = '\0';
  b->data = d;
  return add;
}

static bool taken(const cJSON *seen, const char *norm) {
  const cJSON *e;
  cJSON_ArrayForEach(e, seen) {
    if (strcmp(e->valuestring, norm) == 0) {
      return true;
    }
  }
  return false;
}

/* "claude.ai <display>", or with " (k)" until its normalized form is not
 * in `seen` (which it joins). The normalized form with " (k)" is that of
 * "claude.ai <display>" and "_k", so `next` holds, for each of those, the
 * k to try first: those below were taken, and stay taken, and n
 * connectors of one name cost n tries, not n * n. A new string, or
 * NULL. */
static char *unique_name(cJSON *seen, cJSON *next, const char *display) {
  size_t n = strlen(NAME_PREFIX) + strlen(display) + 32;
  char *name = malloc(n);
  if (!name) {
    return NULL;
  }
  snprintf(name, n, "%s%s", NAME_PREFIX, display);
  char *base = mcp_name_normalize(name);
  cJSON *from = cJSON_GetObjectItemCaseSensitive(next, base);
  if (!from) {
    from = cJSON_AddNumberToObject(next, base, 1);
  }
  free(base);
  for (unsigned k = from ? (unsigned)from->valuedouble : 1;; k++) {
    if (k == 1) {
      snprintf(name, n, "%s%s", NAME_PREFIX, display);
    } else {
      snprintf(name, n, "%s%s (%u)", NAME_PREFIX, display, k);
    }
    char *norm = mcp_name_normalize(name);
    if (!taken(seen, norm)) {
      cJSON_SetNumberValue(from, k + 1);
      cJSON_AddItemToArray(seen, cJSON_CreateString(norm));
      free(norm);
      return name;
    }
    free(norm);
  }
}

char *listing_document(const char *text, size_t len, char *why, size_t size) {
  char *out = NULL;
  cJSON *doc = cJSON_ParseWithLength(text, len);
  const cJSON *data = cJSON_GetObjectItemCaseSensitive(doc, "data");
  cJSON *res = cJSON_CreateObject();
  cJSON *seen = cJSON_CreateArray(), *next = cJSON_CreateObject();
  if (!cJSON_IsArray(data)) {
    snprintf(why, size, "the answer has no \"data\" array");
    goto out;
  }
  /* Each name is compared with every one before it: bounded. */
  if (cJSON_GetArraySize(data) > LISTING_LIMIT) {
    snprintf(why, size,
             "the answer's \"data\" lists %d connectors, more than the %d "
             "asked for",
             cJSON_GetArraySize(data), LISTING_LIMIT);
    goto out;
  }
  cJSON_AddStringToObject(res, "scope", "claudeai");
  cJSON *servers = cJSON_AddObjectToObject(res, "mcpServers");
  const cJSON *e;
  cJSON_ArrayForEach(e, data) {
    const char *id =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "id"));
    const char *url =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "url"));
    const char *display = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(e, "display_name"));
    if (!id || !*id || !url || !*url) {
      continue; /* nothing to connect to, or nothing to show */
    }
    char *name = unique_name(seen, next, display && *display ? display : id);
    cJSON *entry = cJSON_CreateObject();
    cJSON_AddStringToObject(entry, "type", "claudeai-proxy");
    cJSON_AddStringToObject(entry, "url", url);
    cJSON_AddStringToObject(entry, "id", id);
    if (name) {
      cJSON_AddItemToObject(servers, name, entry);
    } else {
      cJSON_Delete(entry);
    }
    free(name);
  }
  out = cJSON_PrintUnformatted(res);
  if (!out) {
    snprintf(why, size, "out of memory");
  }
out:
  cJSON_Delete(next);
  cJSON_Delete(seen);
  cJSON_Delete(res);
  cJSON_Delete(doc);
  return out;
}

/* The token is usable for the listing: present, with the scope, and not
 * expired. */
static bool usable(const creds *c, char *why, size_t size) {
  if (!c->token) {
    snprintf(why, size, "%s", c->error);
    return false;
  }
  if (!c->has_scope) {
    snprintf(why, size,
             "the claude.ai token in %s lacks the scope " CREDS_SCOPE
             " (a token for inference only)",
             c->path);
    return false;
  }
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  double ms = (double)now.tv_sec * 1000.0 + (double)now.tv_nsec / 1e6;
  if (c->expires_at > 0 && c->expires_at <= ms) {
    time_t at = (time_t)(c->expires_at / 1000.0);
    struct tm tm;
    char when[32] = "?";
    if (gmtime_r(&at, &tm)) {
      strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    snprintf(why, size,
             "the claude.ai token in %s expired at %s; run `claude` to "
             "refresh your claude.ai login",
             c->path, when);
    return false;
  }
  return true;
}

static const char *api_base(void) {
  const char *b = getenv("MCPHOST_CLAUDEAI_API_BASE");
  return b && *b ? b : "https://api.anthropic.com";
}

char *listing_fetch(creds *c, char *why, size_t size) {
  creds_refresh(c);
  if (!usable(c, why, size)) {
    return NULL;
  }
  const curl_dl *cu = curl_dl_get(why, size);
  if (!cu) {
    return NULL;
  }
  char *doc = NULL;
  body b = {0};
  const char *base = api_base();
  size_t blen = strlen(base);
  while (blen && base[blen - 1] == '/') {
    blen--;
  }
  char url[2048];
  snprintf(url, sizeof url, "%.*s/v1/mcp_servers?limit=%d", (int)blen, base,
           LISTING_LIMIT);
  struct curl_slist *h = NULL;
  static const char *const fixed[] = {"Content-Type: application/json",
                                      "anthropic-beta: mcp-servers-2025-12-04",
                                      "anthropic-version: 2023-06-01"};
  size_t alen = strlen(c->bearer) + sizeof "Authorization: ";
  char *auth = malloc(alen);
  if (auth) {
    snprintf(auth, alen, "Authorization: %s", c->bearer);
    h = cu->slist_append(h, auth);
    free(auth);
  }
  for (size_t i = 0; h && i < sizeof fixed / sizeof fixed[0]; i++) {
    struct curl_slist *n = cu->slist_append(h, fixed[i]);
    if (!n) {
      cu->slist_free_all(h);
      h = NULL;
    }
    h = n;
  }
  CURL *e = h ? cu->easy_init() : NULL;
  if (!e) {
    snprintf(why, size, "out of memory");
    goto out;
  }
  cu->easy_setopt(e, CURLOPT_URL, url);
  cu->easy_setopt(e, CURLOPT_HTTPHEADER, h);
  cu->easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)LISTING_TIMEOUT_MS);
  cu->easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  cu->easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  cu->easy_setopt(e, CURLOPT_WRITEFUNCTION, on_data);
  cu->easy_setopt(e, CURLOPT_WRITEDATA, &b);
  CURLcode rc = cu->easy_perform(e);
  long status = 0;
  cu->easy_getinfo(e, CURLINFO_RESPONSE_CODE, &status);
  cu->easy_cleanup(e);
  if (rc != CURLE_OK) {
    snprintf(why, size, "GET %.*s/v1/mcp_servers failed: %s", (int)blen, base,
             b.too_big ? "the answer is over 8 MiB" : cu->easy_strerror(rc));
    goto out;
  }
  if (status != 200) {
    snprintf(why, size, "GET %.*s/v1/mcp_servers answered HTTP %ld", (int)blen,
             base, status);
    goto out;
  }
  char what[256];
  doc = listing_document(b.data ? b.data : "", b.len, what, sizeof what);
  if (!doc) {
    snprintf(why, size, "GET %.*s/v1/mcp_servers: %s", (int)blen, base, what);
  }
out:
  if (h) {
    cu->slist_free_all(h);
  }
  free(b.data);
  return doc;
}
