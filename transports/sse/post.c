/*
 * The POST side of the legacy HTTP+SSE transport: each message given to
 * send() is POSTed to the endpoint URL, one at a time and in send order,
 * so the server sees them in the order the host wrote them (an
 * initialize, then notifications/initialized, then the first request).
 * Messages wait while no endpoint is known or the stream is reconnecting.
 * A 2xx answer is success (its body is ignored: answers come on the
 * stream); anything else is reported with on_send_failed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/authorization.h"
#include "../common/url.h"
#include "http_status.h"
#include "sse_transport.h"

static void outmsg_free(outmsg *m) {
  if (m) {
    free(m->json);
    free(m);
  }
}

static void post_free(post_req *p) {
  if (!p) {
    return;
  }
  curl_slist_free_all(p->headers);
  http_resp_free(&p->resp);
  outmsg_free(p->msg);
  free(p->url);
  free(p);
}

static size_t on_post_header(char *line, size_t size, size_t n, void *ud) {
  post_req *p = ud;
  http_resp_header(&p->resp, line, size * n);
  return size * n;
}

static size_t on_post_data(char *data, size_t size, size_t n, void *ud) {
  post_req *p = ud;
  /* A success's body is read and dropped, which keeps the connection for
   * the next POST; of an error's, the start is kept for the message. */
  if (p->resp.status >= 200 && p->resp.status < 300) {
    return size * n;
  }
  return http_resp_keep_body(&p->resp, data, size * n) ? 0 : size * n;
}

static void on_post_done(void *ud, CURL *easy, CURLcode result);

/* Starts POSTing p->msg to p->url. Returns 0 or MCPH_ENOMEM. */
static int start_post(mcph_transport *t, post_req *p) {
  http_resp_free(&p->resp);
  curl_slist_free_all(p->headers);
  p->headers = NULL;
  struct curl_slist *h = NULL, *n;
  bool ok = true;
#define ADD(line)                                                              \
  do {                                                                         \
    if (ok && (n = curl_slist_append(h, (line))) != NULL) {                    \
      h = n;                                                                   \
    } else {                                                                   \
      ok = false;                                                              \
    }                                                                          \
  } while (0)
  ADD("Content-Type: application/json");
  ADD("Expect:"); /* no 100-continue round trip for large messages */
  ok = ok && authorization_headers(&h, t->cfg.headers, t->authorization);
  if (t->protocol_version) {
    char line[128];
    snprintf(line, sizeof line, "MCP-Protocol-Version: %.64s",
             t->protocol_version);
    ADD(line);
  }
#undef ADD
  CURL *e =
      ok ? http_client_easy(&t->cfg, t->user_agent, p->url, p->errbuf) : NULL;
  if (!e) {
    curl_slist_free_all(h);
    return MCPH_ENOMEM;
  }
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, t->cfg.timeout_ms);
  p->headers = h;
  curl_easy_setopt(e, CURLOPT_POST, 1L);
  curl_easy_setopt(e, CURLOPT_POSTFIELDS, p->msg->json);
  curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)p->msg->len);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, h);
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, t->cfg.timeout_ms);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_post_header);
  curl_easy_setopt(e, CURLOPT_HEADERDATA, p);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_post_data);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, p);
  if (curl_loop_add(t->loop, e, on_post_done, t) != 0) {
    curl_easy_cleanup(e);
    return MCPH_ENOMEM;
  }
  p->easy = e;
  t->post = p;
  return 0;
}

/* Why a finished POST failed, or false when it succeeded. */
static bool post_failure(const post_req *p, CURLcode result, int *code,
                         char *msg, size_t size) {
  const http_resp *r = &p->resp;
  char *shown = url_display(p->url);
  const char *url = shown ? shown : "the endpoint";
  bool failed = true;
  if (r->status >= 200 && r->status < 300) {
    /* Accepted, even if reading the (ignored) body failed afterwards. */
    failed = false;
  } else if (r->status < 200 ||
             (result != CURLE_OK && result != CURLE_WRITE_ERROR)) {
    /* No answer: the connection failed or the deadline passed. */
    *code = http_client_code_for_curl(result);
    snprintf(msg, size, "%s (POST %s)",
             http_client_curl_error(result, p->errbuf), url);
  } else {
    char status[512];
    *code = http_status_error(r->status);
    http_resp_describe(r, r->status != 401, status, sizeof status);
    snprintf(msg, size, "POST %s failed: %s%s%s", url, status,
             r->www_authenticate ? "; WWW-Authenticate: " : "",
             r->www_authenticate ? r->www_authenticate : "");
  }
  free(shown);
  return failed;
}

static void on_post_done(void *ud, CURL *easy, CURLcode result) {
  mcph_transport *t = ud;
  post_req *p = t->post;
  t->post = NULL;
  char *location = NULL;
  long status = p->resp.status;
  if (result == CURLE_OK && url_is_redirect(status)) {
    char *loc = NULL;
    curl_easy_getinfo(easy, CURLINFO_REDIRECT_URL, &loc);
    location = loc ? strdup(loc) : NULL;
  }
  curl_easy_cleanup(easy);
  p->easy = NULL;

  /* The shared policy (url.h): within the origin, keeping the method and
   * the body. */
  char refused[300] = "";
  if (result == CURLE_OK && url_is_redirect(status) &&
      url_redirect_check(p->url, location, p->redirects, refused,
                         sizeof refused)) {
    free(p->url);
    p->url = location;
    p->redirects++;
    if (start_post(t, p) == 0) {
      return;
    }
    sse_send_failed(t, MCPH_ENOMEM, "out of memory", p->msg->json, p->msg->len);
    post_free(p);
    post_pump(t);
    return;
  }
  free(location);

  int code = 0;
  char msg[1024];
  if (post_failure(p, result, &code, msg, sizeof msg)) {
    if (result == CURLE_OK && http_status_is_auth(status)) {
      char *shown = url_display(p->url);
      sse_auth_required(t, status, shown ? shown : "the endpoint",
                        p->resp.www_authenticate);
      free(shown);
    }
    if (refused[0]) {
      size_t len = strlen(msg);
      snprintf(msg + len, sizeof msg - len, " (%s)", refused);
    }
    sse_send_failed(t, code, msg, p->msg->json, p->msg->len);
    if (p->resp.status < 200 && http_client_unreachable(result)) {
      /* The server is gone: what waits would only fail one by one. */
      post_free(p);
      sse_finish(t, code, "the server cannot be reached: %s", msg);
      return;
    }
  }
  post_free(p);
  post_pump(t);
}

void post_pump(mcph_transport *t) {
  while (t->state == T_RUNNING && t->post_ok && !t->post && t->out_head) {
    outmsg *m = t->out_head;
    t->out_head = m->next;
    if (!t->out_head) {
      t->out_tail = NULL;
    }
    m->next = NULL;
    post_req *p = calloc(1, sizeof *p);
    if (p) {
      p->msg = m;
      p->url = strdup(t->endpoint);
    }
    if (!p || !p->url || start_post(t, p) != 0) {
      /* Told from the loop, never from inside send(). */
      char *json = m->json;
      size_t len = m->len;
      m->json = NULL;
      if (p) {
        post_free(p); /* and m with it */
      } else {
        free(m);
      }
      sse_note(t, NOTE_SEND_FAILED, MCPH_ENOMEM, NULL, 0, json, len);
    }
  }
}

int post_enqueue(mcph_transport *t, const char *json, size_t len) {
  outmsg *m = calloc(1, sizeof *m);
  char *copy = malloc(len + 1);
  if (!m || !copy) {
    free(m);
    free(copy);
    return MCPH_ENOMEM;
  }
  memcpy(copy, json, len);
  copy[len] = '\0';
  m->json = copy;
  m->len = len;
  if (t->out_tail) {
    t->out_tail->next = m;
  } else {
    t->out_head = m;
  }
  t->out_tail = m;
  post_pump(t);
  return 0;
}

void post_stop(mcph_transport *t) {
  if (t->post) {
    if (t->post->easy) {
      curl_loop_remove(t->loop, t->post->easy);
      curl_easy_cleanup(t->post->easy);
    }
    post_free(t->post);
    t->post = NULL;
  }
  while (t->out_head) {
    outmsg *m = t->out_head;
    t->out_head = m->next;
    outmsg_free(m);
  }
  t->out_tail = NULL;
}
