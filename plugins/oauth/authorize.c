/* The authorization request (reference oauth.md §1 steps 8-11): PKCE
 * S256, a random state, the RFC 8707 resource, the chosen scope; the
 * response from the browser (the loopback callback, or a pasted URL in
 * print mode), or, in follow mode, from following the authorization
 * URL's redirects without a browser. The response is checked in order:
 * iss (RFC 9207), state, error, code. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "browser.h"
#include "flow.h"
#include "text_escape.h"

#define CALLBACK_WAIT_MS (5 * 60 * 1000)


static void say(const char *fmt, const char *arg) {
  char *e = text_escape(arg, strlen(arg), TEXT_ESCAPE_INVISIBLE, NULL);
  fprintf(stderr, fmt, e ? e : "");
  fflush(stderr);
  free(e);
}

/* Opens `url` by the $BROWSER rule; true when a command started and
 * exited with status 0. */
static bool open_browser(const char *url) {
  if (!oauth_url_secure(url) && strncmp(url, "https://", 8) != 0) {
    return false;
  }
  /* The one rule for $BROWSER (common/browser.h); this worker thread
   * waits for the command to exit. */
  pid_t pid;
  char why[256];
  if (browser_start(url, &pid, NULL, why, sizeof why) != 0) {
    return false;
  }
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static bool has_display(void) {
  const char *d = getenv("DISPLAY"), *w = getenv("WAYLAND_DISPLAY");
  return ((d && *d) || (w && *w)) && !getenv("SSH_CONNECTION");
}

/* Follows the authorization URL's redirects up to the redirect URI. */
static char *follow(oauth_flow *f, const char *start, const char *redirect) {
  char *url = oauth_strdup(start);
  for (int hop = 0; hop < 10; hop++) {
    if (strncmp(url, redirect, strlen(redirect)) == 0) {
      return url;
    }
    oauth_req rq = {.method = "GET", .url = url, .deadline_ms = f->deadline_ms};
    oauth_resp r;
    char why[512];
    if (oauth_http(&rq, &r, why, sizeof why) != 0) {
      snprintf(f->message, sizeof f->message, "authorization request: %s", why);
      free(url);
      return NULL;
    }
    if (r.status < 300 || r.status >= 400 || !r.location) {
      snprintf(f->message, sizeof f->message,
               "the authorization server answered HTTP %ld instead of a "
               "redirect (it wants a person: use --oauth-browser=print)",
               r.status);
      oauth_resp_free(&r);
      free(url);
      return NULL;
    }
    free(url);
    url = r.location;
    r.location = NULL;
    oauth_resp_free(&r);
  }
  snprintf(f->message, sizeof f->message,
           "the authorization server redirected more than 10 times");
  free(url);
  return NULL;
}

/* The response's checks, in the order RFC 9207 and the reference want. */
static int check_response(oauth_flow *f, const oauth_meta *m, const char *got,
                          const char *state, char **code) {
  int ret = -1;
  char *iss = oauth_query_param(got, "iss");
  char *st = oauth_query_param(got, "state");
  char *err = oauth_query_param(got, "error");
  *code = oauth_query_param(got, "code");
  if (iss ? strcmp(iss, m->issuer) != 0 : m->iss_supported) {
    /* error and error_description are then the attacker's: not shown. */
    snprintf(f->message, sizeof f->message,
             iss ? "the authorization response came from another issuer "
                   "(iss): refused"
                 : "the authorization response has no iss, which the "
                   "authorization server promised: refused");
    goto out;
  }
  if (!st || strcmp(st, state) != 0) {
    snprintf(f->message, sizeof f->message,
             "the authorization response's state is not the one sent "
             "(a forged or stale response): refused");
    goto out;
  }
  if (err) {
    char *e = text_escape(err, strlen(err), TEXT_ESCAPE_INVISIBLE, NULL);
    snprintf(f->message, sizeof f->message,
             "the authorization server refused: %.100s", e ? e : "");
    free(e);
    goto out;
  }
  if (!*code || !**code) {
    snprintf(f->message, sizeof f->message,
             "the authorization response has no code");
    goto out;
  }
  ret = 0;
out:
  if (ret != 0) {
    free(*code);
    *code = NULL;
  }
  free(iss);
  free(st);
  free(err);
  return ret;
}

int authorize(oauth_flow *f, const oauth_meta *m, const oauth_client *c,
              const char *scope, int listen_fd, char **code, char **verifier) {
  *code = NULL;
  *verifier = oauth_random_b64url(32);
  char *state = oauth_random_b64url(32);
  char *challenge = *verifier ? oauth_pkce_challenge(*verifier) : NULL;
  char *got = NULL;
  int ret = -1;
  if (!state || !challenge) {
    snprintf(f->message, sizeof f->message, "no random bytes for PKCE");
    goto out;
  }
  if (!m->authorization_endpoint) {
    snprintf(f->message, sizeof f->message,
             "the authorization server metadata names no "
             "authorization_endpoint");
    goto out;
  }
  strbuf q = {0};
  ob_form(&q, "response_type", "code");
  ob_form(&q, "client_id", c->id);
  ob_form(&q, "redirect_uri", c->redirect_uri);
  ob_form(&q, "code_challenge", challenge);
  ob_form(&q, "code_challenge_method", "S256");
  ob_form(&q, "state", state);
  if (scope && *scope) {
    ob_form(&q, "scope", scope);
  }
  ob_form(&q, "resource", m->resource);
  if (scope && strstr(scope, "offline_access")) {
    ob_form(&q, "prompt", "consent");
  }
  strbuf u = {0};
  sb_printf(&u, "%s%c%s", m->authorization_endpoint,
            strchr(m->authorization_endpoint, '?') ? '&' : '?', sb_str(&q));
  sb_free(&q);
  f->authorizations++;
  if (f->browser == BROWSER_FOLLOW) {
    got = follow(f, sb_str(&u), c->redirect_uri);
  } else {
    bool opened =
        f->browser == BROWSER_AUTO && has_display() && open_browser(sb_str(&u));
    say(opened ? "mcphost: opened the browser to authorize server; if it "
                 "did not open, visit:\n  %s\n"
               : "mcphost: to authorize, open this URL in a browser:\n  %s\n",
        sb_str(&u));
    if (!opened) {
      fprintf(stderr, "mcphost: then paste here the URL the browser ends on "
                      "(http://127.0.0.1:...); over SSH, `ssh -L PORT:"
                      "127.0.0.1:PORT` forwards the callback\n");
    }
    got = callback_wait(f, listen_fd, !opened && isatty(0), CALLBACK_WAIT_MS,
                        state);
    /* The token request gets its own time after a person's minutes. */
    f->deadline_ms = oauth_now_ms() + f->phase_ms;
  }
  sb_free(&u);
  if (!got) {
    goto out;
  }
  ret = check_response(f, m, got, state, code);
out:
  free(got);
  free(state);
  free(challenge);
  if (ret != 0) {
    free(*verifier);
    *verifier = NULL;
  }
  return ret;
}
