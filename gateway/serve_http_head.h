/* The gateway's HTTP/1.1 request heads (serve_http.c reads them): where
 * a request ends in what a connection has read, and what its head says.
 * Plain functions, any thread; the fuzz target serve_http_head drives
 * them as conn_process does. */
#ifndef MCPHOST_CLI_SERVE_HTTP_HEAD_H
#define MCPHOST_CLI_SERVE_HTTP_HEAD_H

#include <stdbool.h>
#include <stddef.h>

/* A head, its empty line included, and a body at most. */
#define GW_HTTP_HEAD_MAX (16u << 10)
#define GW_HTTP_BODY_MAX (4u << 20)

/* One parsed request; the strings point into `head` (owned). */
typedef struct http_req {
  char *head;
  const char *method, *target;
  const char *host, *origin, *auth, *ctype, *accept, *session, *version,
      *last_event_id, *mcp_method, *mcp_name;
  size_t content_length;
  bool has_length, chunked, close;
} http_req;

/* What the bytes a connection has read so far hold. */
enum gw_http_frame {
  GW_FRAME_HEAD_WAIT, /* no whole head yet, and not over the limit */
  GW_FRAME_HEAD_BIG,  /* 431: the head is over GW_HTTP_HEAD_MAX */
  GW_FRAME_BAD,       /* 400: not an HTTP/1.x request head */
  GW_FRAME_NO_LENGTH, /* 411: chunked, or a POST without Content-Length */
  GW_FRAME_BODY_BIG,  /* 413: a body over GW_HTTP_BODY_MAX */
  GW_FRAME_BODY_WAIT, /* a whole head, its body still arriving */
  GW_FRAME_READY      /* a whole request: *head_len + content_length */
};

/* Reads the request at the start of `in` (`len` bytes, NULL when 0):
 * `*head_len` is the head's length (0 while it is not whole) and, from
 * GW_FRAME_BAD on, `r` (zeroed by the caller) is filled as far as the
 * head was read; free r->head in any case. */
enum gw_http_frame gw_http_frame(const char *in, size_t len, http_req *r,
                                 size_t *head_len);

#endif
