/* One HTTP request to an authorization server or a metadata URL, with
 * libcurl's easy interface on a flow's own thread (never the loop).
 * Redirects are never followed: a token or registration POST must not be
 * sent elsewhere, and the authorization redirect is read, not fetched.
 * Nothing of a request's body or headers is ever logged: curl's verbose
 * output stays off. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>

#include "oauth.h"

#define BODY_MAX (1024 * 1024)

typedef struct sink {
  strbuf body;
  char *www;
  bool too_big;
} sink;

static size_t on_body(char *p, size_t size, size_t n, void *ud) {
  sink *s = ud;
  if (s->body.len + size * n > BODY_MAX) {
    s->too_big = true;
    return 0;
  }
  sb_add(&s->body, p, size * n);
  return size * n;
}

static size_t on_header(char *p, size_t size, size_t n, void *ud) {
  sink *s = ud;
  size_t len = size * n;
  static const char name[] = "www-authenticate:";
  if (len > sizeof name - 1 && strncasecmp(p, name, sizeof name - 1) == 0) {
    const char *v = p + sizeof name - 1;
    size_t vl = len - (sizeof name - 1);
    while (vl && (*v == ' ' || *v == '\t')) {
      v++;
      vl--;
    }
    while (vl && (v[vl - 1] == '\r' || v[vl - 1] == '\n')) {
      vl--;
    }
    free(s->www);
    s->www = oauth_strndup(v, vl);
  } else if (len >= 5 && strncmp(p, "HTTP/", 5) == 0) {
    /* A new response (after 100 Continue): its headers only. */
    free(s->www);
    s->www = NULL;
  }
  return len;
}

int oauth_http(const oauth_req *rq, oauth_resp *out, char *why,
               size_t why_len) {
  *out = (oauth_resp){0};
  int64_t left = rq->deadline_ms - oauth_now_ms();
  if (left <= 0) {
    snprintf(why, why_len, "no time left for %s", rq->url);
    return -1;
  }
  CURL *c = curl_easy_init();
  if (!c) {
    snprintf(why, why_len, "libcurl could not start a request");
    return -1;
  }
  sink s = {0};
  struct curl_slist *hs = NULL;
  strbuf ah = {0}, ct = {0}, pv = {0};
  hs = curl_slist_append(hs, "Accept: application/json");
  if (rq->authorization) {
    sb_printf(&ah, "Authorization: %s", rq->authorization);
    hs = curl_slist_append(hs, sb_str(&ah));
  }
  if (rq->content_type) {
    sb_printf(&ct, "Content-Type: %s", rq->content_type);
    hs = curl_slist_append(hs, sb_str(&ct));
  }
  if (rq->protocol_version) {
    sb_printf(&pv, "MCP-Protocol-Version: %s", rq->protocol_version);
    hs = curl_slist_append(hs, sb_str(&pv));
  }
  curl_easy_setopt(c, CURLOPT_URL, rq->url);
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, hs);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)left);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   (long)(left < 10000 ? left : 10000));
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &s);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &s);
  curl_easy_setopt(c, CURLOPT_USERAGENT, "mcphost-oauth");
  if (strcmp(rq->method, "POST") == 0) {
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, rq->body ? rq->body : "");
  }
  CURLcode rc = curl_easy_perform(c);
  int ret = 0;
  if (rc != CURLE_OK) {
    /* curl's reason names the host or the timeout, never the body. */
    snprintf(why, why_len, "%s %s: %s", rq->method, rq->url,
             s.too_big ? "the answer is over 1 MiB"
             : rc == CURLE_OPERATION_TIMEDOUT
                 ? "no answer in time (the deadline passed)"
                 : curl_easy_strerror(rc));
    ret = -1;
    goto out;
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &out->status);
  char *loc = NULL;
  if (curl_easy_getinfo(c, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK && loc) {
    out->location = oauth_strdup(loc);
  }
  out->body = s.body.data ? s.body.data : oauth_strdup("");
  out->body_len = s.body.len;
  s.body = (strbuf){0};
  out->www_authenticate = s.www;
  s.www = NULL;
out:
  sb_free(&s.body);
  free(s.www);
  sb_free(&ah);
  sb_free(&ct);
  sb_free(&pv);
  curl_slist_free_all(hs);
  curl_easy_cleanup(c);
  return ret;
}

void oauth_resp_free(oauth_resp *r) {
  free(r->body);
  free(r->location);
  free(r->www_authenticate);
  *r = (oauth_resp){0};
}

cJSON *oauth_resp_json(const oauth_resp *r) {
  cJSON *j = r->body ? cJSON_Parse(r->body) : NULL;
  if (j && !cJSON_IsObject(j)) {
    cJSON_Delete(j);
    return NULL;
  }
  return j;
}

bool oauth_url_secure(const char *url) {
  bool ok = false;
  CURLU *u = curl_url();
  char *scheme = NULL, *host = NULL;
  if (u && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
      curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
      curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK) {
    ok = strcmp(scheme, "https") == 0 ||
         (strcmp(scheme, "http") == 0 &&
          (strcmp(host, "localhost") == 0 || strncmp(host, "127.", 4) == 0 ||
           strcmp(host, "[::1]") == 0));
  }
  curl_free(scheme);
  curl_free(host);
  curl_url_cleanup(u);
  return ok;
}
