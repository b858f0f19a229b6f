/* libwebsockets on a libuv loop nested in the host loop; see ws_loop.h. */
#include "ws_loop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_escape.h"

/* At most this many non-blocking runs in one pump while libuv has work
 * due at once (its idle handler): lws's uv glue needs one or two. */
#define PUMP_ROUNDS 16

static void arm(ws_loop *l);

static void pump(ws_loop *l) {
  uv_update_time(&l->uv);
  uv_run(&l->uv, UV_RUN_NOWAIT);
  for (int i = 0; i < PUMP_ROUNDS && uv_backend_timeout(&l->uv) == 0; i++) {
    uv_run(&l->uv, UV_RUN_NOWAIT);
  }
  arm(l);
}

void ws_loop_pump(ws_loop *l) {
  if (l->ctx) {
    pump(l);
  }
}

static void on_timer(void *ud) {
  ws_loop *l = ud;
  l->timer = NULL;
  pump(l);
}

static void on_kick(void *ud) {
  ws_loop *l = ud;
  l->kick = NULL;
  pump(l);
}

static void on_ready(void *ud, int fd, unsigned events) {
  (void)fd;
  (void)events;
  pump(ud);
}

/* The host timer follows libuv's next timeout. A pump that leaves the
 * deadline where it was (the usual case: lws's next timer is seconds
 * away) keeps the timer rather than cancelling and starting it again. */
static void arm(ws_loop *l) {
  int ms = l->ctx ? uv_backend_timeout(&l->uv) : -1;
  uint64_t due = ms < 0 ? UINT64_MAX : uv_now(&l->uv) + (uint64_t)ms;
  if (l->timer && due == l->timer_due) {
    return;
  }
  if (l->timer) {
    l->host->timer_cancel(l->host, l->timer);
    l->timer = NULL;
  }
  if (ms >= 0 &&
      l->host->timer_start(l->host, (uint64_t)ms, on_timer, l, &l->timer)) {
    l->timer = NULL;
  }
  l->timer_due = due;
}

void ws_loop_kick(ws_loop *l) {
  if (!l->ctx) {
    return;
  }
  /* Makes lws's idle handler run, which re-arms its uv timer. */
  lws_cancel_service(l->ctx);
  if (!l->kick && l->host->timer_start(l->host, 0, on_kick, l, &l->kick) != 0) {
    l->kick = NULL;
  }
}

int ws_loop_init(ws_loop *l, const mcph_host *host,
                 const struct lws_protocols *protocols, void *user,
                 const ws_loop_tls *tls, mcph_error *err) {
  memset(l, 0, sizeof *l);
  l->host = host;
  if (uv_loop_init(&l->uv) != 0) {
    return mcph_error_set(err, MCPH_ENOMEM, "cannot start a libuv loop");
  }
  l->uv_ok = true;
  void *loops[] = {&l->uv};
  struct lws_context_creation_info ci;
  memset(&ci, 0, sizeof ci);
  ci.port = CONTEXT_PORT_NO_LISTEN;
  uint64_t ssl_init = tls->use_tls ? LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT : 0;
  ci.options =
      ssl_init | LWS_SERVER_OPTION_EXPLICIT_VHOSTS | LWS_SERVER_OPTION_LIBUV;
  ci.foreign_loops = loops;
  ci.pcontext = &l->ctx;
  ci.user = user;
  /* One connection, and lws's tables sized for it rather than for
   * ulimit -n. */
  ci.fd_limit_per_thread = 8;
  /* The upgrade request is built in this buffer: room for big headers. */
  ci.pt_serv_buf_size = 32768;
  /* lws writes NULL through pcontext when the context is destroyed, also
   * when 4.1.6 fails inside lws_create_context() on a foreign loop and
   * returns the half-destroyed context anyway (warmcat #2171): a
   * non-NULL mark that turned NULL is that failure. */
  l->ctx = (struct lws_context *)(void *)l;
  struct lws_context *c = lws_create_context(&ci);
  l->ctx = c && l->ctx ? c : NULL;
  if (!l->ctx) {
    return mcph_error_set(err, MCPH_EIO,
                          "libwebsockets could not start (its libuv event "
                          "library may be missing: libwebsockets-evlib-uv)");
  }
  struct lws_context_creation_info vi;
  memset(&vi, 0, sizeof vi);
  vi.port = CONTEXT_PORT_NO_LISTEN;
  vi.protocols = protocols;
  vi.vhost_name = "mcp-client";
  vi.options = ssl_init;
  vi.client_ssl_ca_filepath = tls->ca_file;
  vi.client_ssl_cert_filepath = tls->cert_file;
  vi.client_ssl_private_key_filepath =
      tls->key_file ? tls->key_file : tls->cert_file;
  /* lws reads http_proxy itself when no proxy is given (ignoring
   * no_proxy and the scheme): "" with port 0 means none. */
  vi.http_proxy_address = tls->proxy ? tls->proxy : "";
  /* Deadlines are the transport's own (host timers). */
  vi.connect_timeout_secs = 3600;
  vi.timeout_secs = 3600;
  l->vh = lws_create_vhost(l->ctx, &vi);
  if (!l->vh) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "the TLS client certificate or key cannot be used "
                          "(\"tls.certFile\", \"tls.keyFile\")");
  }
  if (host->fd_watch(host, uv_backend_fd(&l->uv), MCPH_FD_READ, on_ready, l,
                     &l->watch) != 0) {
    l->watch = NULL;
    return mcph_error_set(err, MCPH_ENOMEM, "cannot watch the libuv loop");
  }
  return 0;
}

static void close_handle(uv_handle_t *h, void *arg) {
  (void)arg;
  if (!uv_is_closing(h)) {
    uv_close(h, NULL);
  }
}

void ws_loop_destroy(ws_loop *l) {
  if (!l->host) {
    return;
  }
  if (l->watch) {
    l->host->fd_unwatch(l->host, l->watch);
    l->watch = NULL;
  }
  if (l->timer) {
    l->host->timer_cancel(l->host, l->timer);
    l->timer = NULL;
  }
  if (l->kick) {
    l->host->timer_cancel(l->host, l->kick);
    l->kick = NULL;
  }
  if (l->ctx) {
    struct lws_context *ctx = l->ctx;
    lws_context_destroy(ctx);
    for (int i = 0; i < 64 && l->ctx; i++) {
      uv_run(&l->uv, UV_RUN_NOWAIT);
    }
    /* 4.1.6 on a foreign loop stops half-way: the second call ends it. */
    if (l->ctx) {
      lws_context_destroy(ctx);
    }
    l->ctx = NULL;
  }
  if (l->uv_ok) {
    for (int i = 0; i < 64 && uv_loop_close(&l->uv) == UV_EBUSY; i++) {
      uv_walk(&l->uv, close_handle, NULL);
      uv_run(&l->uv, UV_RUN_NOWAIT);
    }
    l->uv_ok = false;
  }
  l->host = NULL;
}

/* lws's log, one process-wide function: errors at the host's info
 * level (the transport reports every failure itself), warnings at debug.
 * The host pointer is the one piece of global state lws forces. */
static const mcph_host *log_host;

static void emit(int level, const char *line) {
  const mcph_host *host = log_host;
  if (!host) {
    return;
  }
  size_t n = strlen(line);
  while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) {
    n--;
  }
  /* Our own "no proxy" (see ws_loop_init) is not an error. */
  if (strstr(line, "http_proxy needs to be ads:port")) {
    return;
  }
  char *safe = text_escape(line, n, TEXT_ESCAPE_NEWLINES, NULL);
  mcph_logf(host, level == LLL_ERR ? MCPH_LOG_INFO : MCPH_LOG_DEBUG,
            "libwebsockets", "%s", safe ? safe : "?");
  free(safe);
}

void ws_loop_log_to(const mcph_host *host) {
  log_host = host;
  if (host) {
    lws_set_log_level(LLL_ERR | LLL_WARN, emit);
  } else {
    lws_set_log_level(LLL_ERR | LLL_WARN, lwsl_emit_stderr);
  }
}
