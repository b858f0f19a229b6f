/* mcphost serve: the command (serve.h, docs/gateway.md).
 *
 * The backends are chosen (--server NAME..., else every server that may
 * start), the gateway is made over them (serve.c), and one framing
 * carries its messages: --stdio, one client on stdin and stdout until
 * stdin ends; --http ADDR, streamable HTTP with a session per client
 * (serve_http.c) until a signal. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/frontend.h"
#include "gateway/gateway.h"
#include "gateway/serve.h"
#include "util.h"

/* --server NAME... (each must be configured and may start), else every
 * server that may start. */
static int choose_backends(cli *c, gw_backends *b, char **names,
                           size_t nnames) {
  size_t nservers = mcphost_server_count(cli_api(c));
  b->idx = xcalloc(nservers + 1, sizeof *b->idx);
  for (size_t i = 0; i < nnames; i++) {
    long k = cli_find_server(c, names[i]);
    if (k < 0) {
      cli_error(c, NULL,
                "serve --server: no server named \"%s\" is "
                "configured",
                names[i]);
      return EXIT_NOT_FOUND;
    }
    int rc = cli_check_startable(c, (size_t)k);
    if (rc != EXIT_OK) {
      return rc;
    }
    if (gw_backend_of(b, (size_t)k) < 0) {
      b->idx[b->n++] = (size_t)k;
    }
  }
  for (size_t i = 0; nnames == 0 && i < nservers; i++) {
    if (gw_state(c, i).startable) {
      b->idx[b->n++] = i;
    }
  }
  if (b->n == 0) {
    cli_error(c, NULL, "serve: no configured server may start");
    return EXIT_NOT_FOUND;
  }
  if (b->passthrough && (nnames != 1 || b->n != 1)) {
    cli_error(c, NULL, "serve --passthrough needs exactly one --server NAME");
    return EXIT_USAGE;
  }
  b->resources = xcalloc(b->n, sizeof *b->resources);
  return EXIT_OK;
}

/* The value of option `name` at argv[*i] ("--name V" or "--name=V"), or
 * NULL when it is not that option; `*missing` when it has no value. */
static const char *opt_value(int argc, char **argv, int *i, const char *name,
                             bool *missing) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n) != 0 || (a[n] != '\0' && a[n] != '=')) {
    return NULL;
  }
  const char *v = a[n] == '=' ? a + n + 1 : *i + 1 < argc ? argv[++*i] : NULL;
  *missing = !v || !*v;
  return *missing ? NULL : v;
}

typedef struct serve_args {
  bool stdio;
  gw_http_opts http;
  char **names;
  size_t nnames;
} serve_args;

static int parse_args(cli *c, gw_backends *b, int argc, char **argv,
                      serve_args *sa) {
  sa->names = xcalloc((size_t)argc + 1, sizeof *sa->names);
  sa->http.origins = xcalloc((size_t)argc + 1, sizeof *sa->http.origins);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v;
    bool missing = false;
    if (strcmp(a, "--stdio") == 0) {
      sa->stdio = true;
    } else if (strcmp(a, "--passthrough") == 0) {
      b->passthrough = true;
    } else if (strcmp(a, "--token") == 0) {
      sa->http.new_token = true;
    } else if (strcmp(a, "--no-auth") == 0) {
      sa->http.no_auth = true;
    } else if ((v = opt_value(argc, argv, &i, "--server", &missing))) {
      sa->names[sa->nnames++] = (char *)v;
    } else if ((v = opt_value(argc, argv, &i, "--http", &missing))) {
      sa->http.listen = v;
    } else if ((v = opt_value(argc, argv, &i, "--token-file", &missing))) {
      sa->http.token_file = v;
    } else if ((v = opt_value(argc, argv, &i, "--allow-origin", &missing))) {
      sa->http.origins[sa->http.norigins++] = v;
    } else if ((v = opt_value(argc, argv, &i, "--session-idle", &missing))) {
      char *end = NULL;
      unsigned long long sec = strtoull(v, &end, 10);
      if (*v < '0' || *v > '9' || *end || sec == 0 || sec > 31536000) {
        cli_error(c, NULL,
                  "serve --session-idle: \"%s\" is not a number of "
                  "seconds from 1 to 31536000",
                  v);
        return EXIT_USAGE;
      }
      sa->http.session_idle_ms = (uint64_t)sec * 1000u;
    } else if (missing) {
      cli_error(c, NULL, "serve %s needs a value", a);
      return EXIT_USAGE;
    } else {
      cli_error(c, NULL,
                "serve: unknown argument \"%s\"; try 'mcphost "
                "serve --help'",
                a);
      return EXIT_USAGE;
    }
  }
  if (sa->stdio == (sa->http.listen != NULL)) {
    cli_error(c, NULL,
              "serve needs either --stdio (the MCP client talks to it on "
              "stdin and stdout) or --http HOST:PORT");
    return EXIT_USAGE;
  }
  if (sa->stdio &&
      (sa->http.token_file || sa->http.new_token || sa->http.norigins ||
       sa->http.session_idle_ms || sa->http.no_auth)) {
    cli_error(c, NULL,
              "serve: --token, --token-file, --no-auth, --allow-origin and "
              "--session-idle are for --http");
    return EXIT_USAGE;
  }
  if (sa->http.token_file && sa->http.new_token) {
    cli_error(c, NULL, "serve: --token and --token-file exclude each other");
    return EXIT_USAGE;
  }
  if (sa->http.no_auth && (sa->http.token_file || sa->http.new_token)) {
    cli_error(c, NULL,
              "serve: --no-auth and a token (--token, --token-file) "
              "exclude each other");
    return EXIT_USAGE;
  }
  return EXIT_OK;
}

/* ---- --stdio: one client on stdin and stdout ---- */

typedef struct stdio_gw {
  gw *g;
  gw_chan ch;
  int done;
} stdio_gw;

static void stdio_send(void *ud, cJSON *msg, const cJSON *req) {
  stdio_gw *s = ud;
  (void)req; /* one channel carries everything */
  gw_chan_send(&s->ch, msg);
}

static void stdio_line(void *ud, const char *line, size_t len) {
  stdio_gw *s = ud;
  gw_client_message(s->g, line, len);
}

static void stdio_drained(void *ud) {
  stdio_gw *s = ud;
  s->done = 1;
}

/* The client closed its input, or can no longer be written to. */
static void stdio_gone(void *ud) {
  stdio_gw *s = ud;
  if (s->ch.broken) {
    s->done = 1; /* answers cannot reach it */
  }
  gw_client_end_input(s->g, "the gateway's client closed its input",
                      stdio_drained);
}

static int run_stdio(cli *c, gw_hub *hub) {
  stdio_gw s = {0};
  s.g = gw_client_new(hub, stdio_send, &s);
  s.ch =
      (gw_chan){.c = c, .on_line = stdio_line, .on_eof = stdio_gone, .ud = &s};
  gw_chan_open(&s.ch);
  int run = cli_run_until(c, &s.done);
  if (run == -2) { /* a signal: what is in flight is answered so */
    gw_hub_stop(hub, GW_STOPPING);
  }
  /* What is in flight ends now (answered as interrupted). */
  gw_client_free(s.g);
  gw_chan_close(&s.ch);
  return run == -2 ? EXIT_INTERRUPTED : EXIT_OK;
}

int cmd_serve(cli *c, int argc, char **argv) {
  gw_backends b = {.c = c};
  serve_args sa = {0};
  gw_hub *hub = NULL;
  int rc = parse_args(c, &b, argc, argv, &sa);
  if (rc == EXIT_OK) {
    rc = choose_backends(c, &b, sa.names, sa.nnames);
  }
  if (rc != EXIT_OK) {
    goto out;
  }
  hub = gw_hub_new(c, &b);
  rc = sa.stdio ? run_stdio(c, hub) : gw_http_run(hub, c, &sa.http);
out:
  gw_hub_free(hub);
  free(sa.names);
  free(sa.http.origins);
  gw_backends_free(&b);
  return rc;
}
