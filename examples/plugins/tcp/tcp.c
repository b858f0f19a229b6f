/*
 * tcp: an example mcphost transport plugin, built out of tree against the
 * installed SDK (see README.md). It serves the transport type "tcp":
 * newline-delimited JSON-RPC (one message per line, as MCP's stdio
 * transport frames it) over a TCP connection.
 *
 * Configuration, e.g. {"mcpServers": {"calc": {"type": "tcp",
 *                      "host": "127.0.0.1", "port": 7300}}}:
 *   "host"  required string: an IP address or a host name;
 *   "port"  required integer 1..65535.
 *
 * The life of one transport, all on the host's loop thread:
 *   create()   checks "host" and "port"; does no I/O.
 *   start()    starts a non-blocking connect and watches the socket.
 *   on_fd()    the host's fd watch: completes the connect, writes what is
 *              queued, reads lines and hands each to on_message; a failure
 *              or the server hanging up ends the transport (on_close).
 *   send()     appends the message and a newline to the output queue and
 *              asks to be told when the socket is writable: nothing is
 *              written, and nothing called back, from inside send().
 *   close()    stops reading; what is queued is still written, then
 *              on_close(0) follows, from on_fd, never from inside close().
 *   destroy()  unwatches, closes the socket and frees, in any state.
 *
 * Name resolution (getaddrinfo) blocks: fine for an address or a name in
 * /etc/hosts, as here; a transport for names in the DNS would resolve on
 * a thread of its own and post() the answer to the loop.
 */
#define _POSIX_C_SOURCE 200809L /* strdup, getaddrinfo */

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <mcphost/mcphost.h>

#define PLUGIN_ID "com.example.tcp"
#define PLUGIN_VERSION "1.0.0"
#define READ_CHUNK 65536
#define MAX_LINE (16u << 20) /* a longer message ends the connection */

/* A growable byte buffer. */
typedef struct buf {
  char *data;
  size_t len, cap;
} buf;

enum state {
  T_NEW,        /* created, not started */
  T_CONNECTING, /* connect() under way */
  T_OPEN,       /* connected: reading and writing */
  T_CLOSING,    /* close() was called: writing what is queued */
  T_CLOSED      /* on_close was called: only destroy() is left */
};

struct mcph_transport {
  const mcph_host *host;
  const mcph_transport_events *ev; /* the host's; valid until destroy */
  char *name;                      /* the server's name, for logs */
  char *address;                   /* "host" from the configuration */
  char port[6];                    /* "port", as text for getaddrinfo */
  enum state state;
  int fd;
  mcph_watch *watch;
  buf in;         /* received, not yet a whole line */
  size_t scanned; /* bytes of `in` known to hold no newline */
  buf out;        /* queued for the server */
};

/* ---- buffers ---- */

/* Makes room for `more` bytes. Returns 0, or -1 when out of memory. */
static int buf_reserve(buf *b, size_t more) {
  if (b->cap - b->len >= more) {
    return 0;
  }
  size_t cap = b->cap ? b->cap : 4096;
  while (cap - b->len < more) {
    cap *= 2;
  }
  char *data = realloc(b->data, cap);
  if (!data) {
    return -1;
  }
  b->data = data;
  b->cap = cap;
  return 0;
}

/* Drops the first `n` bytes. */
static void buf_consume(buf *b, size_t n) {
  memmove(b->data, b->data + n, b->len - n);
  b->len -= n;
}

/* ---- the end of a transport ---- */

/* Calls on_close exactly once. Only from on_fd: never from inside a
 * call from the host. The host may destroy the transport once this
 * returns, so the caller touches nothing afterwards. */
static void finish(mcph_transport *t, int code, const char *reason) {
  if (t->watch) {
    t->host->fd_unwatch(t->host, t->watch);
    t->watch = NULL;
  }
  if (t->fd >= 0) {
    close(t->fd);
    t->fd = -1;
  }
  t->state = T_CLOSED;
  t->ev->on_close(t->ev->ud, code, reason);
}

/* Ends the transport for an error: after a close() the host asked for,
 * on_close(0), since that is what it was waiting for. */
static void fail(mcph_transport *t, int code, const char *what, int errnum) {
  if (t->state == T_CLOSING) {
    finish(t, MCPH_OK, "closed");
    return;
  }
  char reason[512];
  if (errnum) {
    snprintf(reason, sizeof reason, "%s:%s: %s: %s", t->address, t->port, what,
             strerror(errnum));
  } else {
    snprintf(reason, sizeof reason, "%s:%s: %s", t->address, t->port, what);
  }
  finish(t, code, reason);
}

/* The events the watch asks for: lines while open, writability while
 * connecting or while anything is queued. */
static int want_events(mcph_transport *t) {
  unsigned ev = t->state == T_OPEN ? MCPH_FD_READ : 0;
  if (t->state == T_CONNECTING || t->out.len > 0 || t->state == T_CLOSING) {
    ev |= MCPH_FD_WRITE;
  }
  return t->host->fd_update(t->host, t->watch, ev);
}

/* ---- reading and writing, from on_fd ---- */

/* Writes what the socket takes now. Returns 0, or an errno. */
static int flush(mcph_transport *t) {
  while (t->out.len > 0) {
    ssize_t n = send(t->fd, t->out.data, t->out.len, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : errno;
    }
    buf_consume(&t->out, (size_t)n);
  }
  return 0;
}

/* Hands every complete line of `in` to the host. Stops when the host
 * closed the transport from inside on_message. */
static void deliver_lines(mcph_transport *t) {
  size_t start = 0;
  while (t->state == T_OPEN) {
    char *nl = memchr(t->in.data + t->scanned, '\n', t->in.len - t->scanned);
    if (!nl) {
      t->scanned = t->in.len;
      break;
    }
    size_t end = (size_t)(nl - t->in.data), len = end - start;
    if (len > 0 && t->in.data[end - 1] == '\r') {
      len--;
    }
    t->scanned = end + 1;
    if (len > 0) { /* blank lines between messages are allowed */
      t->ev->on_message(t->ev->ud, t->in.data + start, len);
    }
    start = end + 1;
  }
  buf_consume(&t->in, start);
  t->scanned -= start;
}

/* Reads what has arrived. Returns 0 to go on, or ends the transport and
 * returns -1. */
static int read_some(mcph_transport *t) {
  if (buf_reserve(&t->in, READ_CHUNK) != 0) {
    fail(t, MCPH_ENOMEM, "out of memory for the server's messages", 0);
    return -1;
  }
  ssize_t n = recv(t->fd, t->in.data + t->in.len, READ_CHUNK, 0);
  if (n < 0) {
    if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) {
      return 0; /* level-triggered: we are called again */
    }
    fail(t, MCPH_EIO, "reading", errno);
    return -1;
  }
  if (n == 0) {
    fail(t, MCPH_ECLOSED, "the server closed the connection", 0);
    return -1;
  }
  t->in.len += (size_t)n;
  deliver_lines(t);
  if (t->in.len > MAX_LINE) {
    fail(t, MCPH_ETOOBIG, "a message of over 16 MiB; connection dropped", 0);
    return -1;
  }
  return 0;
}

static void on_fd(void *ud, int fd, unsigned events) {
  mcph_transport *t = ud;
  (void)fd;
  if (t->state == T_CONNECTING) {
    /* Writable (or failed) after a non-blocking connect: SO_ERROR says
     * which. (A close() before this point made us T_CLOSING: then the
     * write below fails or succeeds as the connect did.) */
    int soerr = 0;
    socklen_t len = sizeof soerr;
    if (getsockopt(t->fd, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0) {
      soerr = errno;
    }
    if (soerr != 0) {
      fail(t, soerr == ECONNREFUSED ? MCPH_ECONNREFUSED : MCPH_EIO,
           "cannot connect", soerr);
      return;
    }
    t->state = T_OPEN;
    mcph_logf(t->host, MCPH_LOG_DEBUG, t->name, "connected to %s:%s",
              t->address, t->port);
  }
  if (t->state == T_OPEN &&
      (events & (MCPH_FD_READ | MCPH_FD_HUP | MCPH_FD_ERROR))) {
    if (read_some(t) != 0) {
      return;
    }
  }
  int err = flush(t);
  if (err != 0) {
    fail(t, MCPH_EIO, "writing", err);
    return;
  }
  if (t->state == T_CLOSING && t->out.len == 0) {
    shutdown(t->fd, SHUT_RDWR);
    finish(t, MCPH_OK, "closed");
    return;
  }
  if (want_events(t) != MCPH_OK) {
    fail(t, MCPH_EIO, "cannot watch the socket", 0);
  }
}

/* ---- the transport functions ---- */

/* Reads "host" and "port" from the server's configuration. The host has
 * already prefixed its messages with the file and the server's name, so
 * ours name the field only. */
static int parse_config(mcph_transport *t, const char *config_json,
                        mcph_error *err) {
  cJSON *cfg = config_json ? cJSON_Parse(config_json) : NULL;
  int rc = MCPH_OK;
  if (!cJSON_IsObject(cfg)) {
    rc = mcph_error_set(err, MCPH_EINVAL,
                        "the server entry is not a JSON object");
    goto out;
  }
  const char *host =
      cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(cfg, "host"));
  const cJSON *port = cJSON_GetObjectItemCaseSensitive(cfg, "port");
  if (!host || !*host) {
    rc = mcph_error_set(err, MCPH_EINVAL,
                        "\"host\" must be a host name or an address");
    goto out;
  }
  double p = cJSON_IsNumber(port) ? port->valuedouble : 0;
  if (p < 1 || p > 65535 || p != (double)(long)p) {
    rc = mcph_error_set(err, MCPH_EINVAL,
                        "\"port\" must be an integer from 1 to 65535");
    goto out;
  }
  t->address = strdup(host);
  if (!t->address) {
    rc = mcph_error_set(err, MCPH_ENOMEM, "out of memory");
    goto out;
  }
  snprintf(t->port, sizeof t->port, "%ld", (long)p);
out:
  cJSON_Delete(cfg);
  return rc;
}

static void tcp_destroy(mcph_transport *t);

static int tcp_create(void *plugin_ctx, const mcph_transport_params *params,
                      mcph_transport **out, mcph_error *err) {
  const mcph_host *host = plugin_ctx;
  /* A newer host passes bigger structs; an older one smaller. Check that
   * what we read is there. */
  if (!MCPH_HAS(params, mcph_transport_params, events) || !params->events ||
      !MCPH_HAS(params->events, mcph_transport_events, on_close) ||
      !params->events->on_message || !params->events->on_close) {
    return mcph_error_set(err, MCPH_EABI, "tcp: incomplete transport params");
  }
  mcph_transport *t = calloc(1, sizeof *t);
  if (!t) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  t->host = host;
  t->ev = params->events;
  t->fd = -1;
  t->state = T_NEW;
  t->name = strdup(params->server_name ? params->server_name : "tcp");
  int rc = t->name ? parse_config(t, params->config_json, err)
                   : mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  if (rc != MCPH_OK) {
    tcp_destroy(t);
    return rc;
  }
  *out = t;
  return MCPH_OK;
}

/* A non-blocking socket connecting to the first address that takes the
 * attempt. Returns the socket, or -1 with errno set. */
static int dial(const char *host, const char *port, int *gai_err) {
  struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM},
                  *res = NULL;
  *gai_err = getaddrinfo(host, port, &hints, &res);
  if (*gai_err != 0) {
    return -1;
  }
  int fd = -1, saved = 0;
  for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
    fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                ai->ai_protocol);
    if (fd < 0) {
      saved = errno;
      continue;
    }
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0 || errno == EINPROGRESS) {
      break; /* on_fd hears how it ends */
    }
    saved = errno;
    close(fd);
    fd = -1;
  }
  freeaddrinfo(res);
  errno = saved;
  return fd;
}

static int tcp_start(mcph_transport *t, mcph_error *err) {
  if (t->state != T_NEW) {
    return mcph_error_set(err, MCPH_EINVAL, "already started");
  }
  int gai_err = 0;
  t->fd = dial(t->address, t->port, &gai_err);
  if (t->fd < 0) {
    /* Nothing started: the error is returned, and no on_close follows. */
    if (gai_err != 0) {
      return mcph_error_set(err, MCPH_ENOTFOUND, "%s:%s: %s", t->address,
                            t->port, gai_strerror(gai_err));
    }
    return mcph_error_set(
        err, errno == ECONNREFUSED ? MCPH_ECONNREFUSED : MCPH_EIO,
        "%s:%s: cannot connect: %s", t->address, t->port, strerror(errno));
  }
  int rc =
      t->host->fd_watch(t->host, t->fd, MCPH_FD_WRITE, on_fd, t, &t->watch);
  if (rc != MCPH_OK) {
    close(t->fd);
    t->fd = -1;
    return mcph_error_set(err, rc, "cannot watch the socket");
  }
  t->state = T_CONNECTING;
  return MCPH_OK;
}

static int tcp_send(mcph_transport *t, const char *json, size_t len,
                    mcph_error *err) {
  if (t->state != T_CONNECTING && t->state != T_OPEN) {
    return mcph_error_set(err, MCPH_ECLOSED, "the connection is %s",
                          t->state == T_NEW ? "not started" : "closed");
  }
  /* A newline inside would split the message in two on the wire. JSON
   * never needs one: the host sends compact JSON. */
  if (memchr(json, '\n', len)) {
    return mcph_error_set(err, MCPH_EINVAL,
                          "a message with a newline cannot be framed");
  }
  if (buf_reserve(&t->out, len + 1) != 0) {
    return mcph_error_set(err, MCPH_ENOMEM, "out of memory");
  }
  memcpy(t->out.data + t->out.len, json, len); /* `json` is borrowed */
  t->out.data[t->out.len + len] = '\n';
  t->out.len += len + 1;
  int rc = want_events(t);
  if (rc != MCPH_OK) {
    t->out.len -= len + 1;
    return mcph_error_set(err, rc, "cannot watch the socket");
  }
  return MCPH_OK;
}

static void tcp_close(mcph_transport *t) {
  if (t->state != T_CONNECTING && t->state != T_OPEN) {
    return; /* never started, closing already, or ended */
  }
  /* Writability comes at once (or when the connect ends): on_fd then
   * writes what is queued and calls on_close(0). */
  t->state = T_CLOSING;
  if (want_events(t) != MCPH_OK) {
    mcph_logf(t->host, MCPH_LOG_ERROR, t->name,
              "cannot watch the socket to finish closing");
  }
}

static void tcp_destroy(mcph_transport *t) {
  if (!t) {
    return;
  }
  if (t->watch) {
    t->host->fd_unwatch(t->host, t->watch);
  }
  if (t->fd >= 0) {
    close(t->fd);
  }
  free(t->in.data);
  free(t->out.data);
  free(t->address);
  free(t->name);
  free(t);
}

/* ---- the plugin ---- */

static const char *const tcp_types[] = {"tcp", NULL};

/* A network service, connected in the smaller batches of remote servers
 * (a server on 127.0.0.1 is still one the host cannot start itself). */
static const mcph_transport_type_info tcp_type_info[] = {
    {sizeof(mcph_transport_type_info), "tcp", MCPH_TRANSPORT_REMOTE},
    {sizeof(mcph_transport_type_info), NULL, 0},
};

static const mcph_transport_factory tcp_factory = {
    .struct_size = sizeof(mcph_transport_factory),
    .types = tcp_types,
    .create = tcp_create,
    .start = tcp_start,
    .send = tcp_send,
    .close = tcp_close,
    .destroy = tcp_destroy,
    .type_info = tcp_type_info,
};

static int tcp_init(const mcph_host *host, void **plugin_ctx, mcph_error *err) {
  /* Refuse a host whose table lacks what we call, rather than crash. */
  if (!MCPH_HAS(host, mcph_host, get_service) ||
      host->abi_major != MCPH_ABI_MAJOR || !host->fd_watch ||
      !host->fd_update || !host->fd_unwatch || !host->log) {
    return mcph_error_set(err, MCPH_EABI,
                          "tcp: the host lacks the services it needs "
                          "(built for ABI %d.%d)",
                          MCPH_ABI_MAJOR, MCPH_ABI_MINOR);
  }
  *plugin_ctx = (void *)host; /* the only state: our own host table */
  return MCPH_OK;
}

static const void *tcp_get_extension(void *plugin_ctx, const char *id) {
  (void)plugin_ctx;
  return id && strcmp(id, MCPH_EXT_TRANSPORT) == 0 ? &tcp_factory : NULL;
}

/* The one exported symbol. */
MCPH_PLUGIN_ENTRY = {
    .struct_size = sizeof(mcph_entry),
    .abi_major = MCPH_ABI_MAJOR,
    .abi_minor = MCPH_ABI_MINOR,
    .id = PLUGIN_ID,
    .name = "tcp transport (example)",
    .version = PLUGIN_VERSION,
    .description = "Newline-delimited JSON-RPC over a TCP connection to "
                   "\"host\" and \"port\".",
    .init = tcp_init,
    .get_extension = tcp_get_extension,
};
