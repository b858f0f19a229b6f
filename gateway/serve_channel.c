/* The gateway's channel to its client (serve.h): JSON-RPC messages, one
 * per line, read from stdin and written to stdout. stdout is made
 * non-blocking when it is a pipe or socket, so that a client slow to
 * read never stalls the loop (and every backend's deadlines with it);
 * what it cannot take yet waits in memory. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gateway/serve.h"
#include "util.h"
#include "write_all.h"

static void flush_out(gw_chan *ch);

static void on_stdout(void *ud, int fd, unsigned events) {
  (void)fd;
  (void)events;
  flush_out(ud);
}

static void stop_reading(gw_chan *ch) {
  if (ch->in_watch) {
    mcphost_unwatch(cli_api(ch->c), ch->in_watch);
    ch->in_watch = NULL;
  }
}

static void flush_out(gw_chan *ch) {
  while (ch->out_off < ch->out.len) {
    ssize_t n = write(1, ch->out.data + ch->out_off, ch->out.len - ch->out_off);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0 && errno == EAGAIN) {
      if (!ch->out_watch &&
          mcphost_watch_fd(cli_api(ch->c), 1, MCPHOST_FD_WRITE, on_stdout, ch,
                           &ch->out_watch, NULL) != MCPHOST_OK) {
        ch->out_watch = NULL;
      }
      return;
    }
    if (n <= 0) { /* the client is gone: nothing more can reach it */
      cli_output_failed(ch->c, n < 0 ? errno : EIO);
      ch->out_off = ch->out.len;
      if (!ch->broken) {
        ch->broken = true;
        stop_reading(ch);
        ch->on_eof(ch->ud);
      }
      break;
    }
    ch->out_off += (size_t)n;
  }
  ch->out.len = ch->out_off = 0;
  if (ch->out_watch) {
    mcphost_unwatch(cli_api(ch->c), ch->out_watch);
    ch->out_watch = NULL;
  }
}

cJSON *gw_msg_new(void) {
  cJSON *m = cJSON_CreateObject();
  cJSON_AddStringToObject(m, "jsonrpc", "2.0");
  return m;
}

void gw_chan_send(gw_chan *ch, cJSON *msg) {
  bool ok = !ch->broken && out_json_append(&ch->out, msg, false) == 0;
  cJSON_Delete(msg);
  if (ok) {
    sb_addc(&ch->out, '\n');
    flush_out(ch);
  }
}

static void on_stdin(void *ud, int fd, unsigned events) {
  gw_chan *ch = ud;
  (void)events;
  if (cli_read_lines(fd, &ch->in, ch->on_line, ch->ud) != 0) {
    return;
  }
  ch->eof = true;
  stop_reading(ch);
  if (!ch->broken) {
    ch->on_eof(ch->ud);
  }
}

void gw_chan_open(gw_chan *ch) {
  sb_init(&ch->in);
  sb_init(&ch->out);
  ch->out_flags = -1;
  struct stat st;
  if (fstat(1, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
    ch->out_flags = fcntl(1, F_GETFL);
    if (ch->out_flags >= 0) {
      fcntl(1, F_SETFL, ch->out_flags | O_NONBLOCK);
    }
  }
  if (mcphost_watch_fd(cli_api(ch->c), 0, MCPHOST_FD_READ, on_stdin, ch,
                       &ch->in_watch, NULL) != MCPHOST_OK) {
    ch->in_watch = NULL;
    while (!ch->eof && !ch->broken) { /* a regular file: always readable */
      on_stdin(ch, 0, MCPHOST_FD_READ);
    }
  }
}

void gw_chan_close(gw_chan *ch) {
  stop_reading(ch);
  if (ch->out_flags >= 0) {
    fcntl(1, F_SETFL, ch->out_flags);
  }
  if (ch->out_watch) {
    mcphost_unwatch(cli_api(ch->c), ch->out_watch);
    ch->out_watch = NULL;
  }
  if (ch->out_off < ch->out.len &&
      write_all(1, ch->out.data + ch->out_off, ch->out.len - ch->out_off) < 0) {
    cli_output_failed(ch->c, errno);
  }
  sb_free(&ch->in);
  sb_free(&ch->out);
}
