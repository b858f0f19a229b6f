/* Requests read as lines (cli.h): batch's and the gateway's stdin. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

void cli_take_lines(strbuf *in, cli_line_fn fn, bool (*more)(void *ud),
                    void *ud) {
  size_t start = 0;
  while (in->len > start && (!more || more(ud))) {
    const char *nl = memchr(in->data + start, '\n', in->len - start);
    if (!nl) {
      break;
    }
    size_t i = (size_t)(nl - in->data);
    size_t n = i - start;
    const char *l = in->data + start;
    while (n && (l[n - 1] == '\r' || l[n - 1] == ' ')) {
      n--;
    }
    start = i + 1;
    if (n) {
      fn(ud, l, n);
    }
  }
  if (start) {
    memmove(in->data, in->data + start, in->len - start);
    in->len -= start;
    in->data[in->len] = '\0';
  }
}

int cli_read_more(int fd, strbuf *in) {
  /* Straight into `in`: a 64 KiB buffer on the stack would be resident
   * for good (the stack-clash probes touch every page of the frame);
   * here only the pages the bytes read land in are. */
  enum { CHUNK = 65536 };
  size_t had = in->len;
  char *at = sb_extend(in, CHUNK);
  ssize_t n = read(fd, at, CHUNK);
  in->len = had + (n > 0 ? (size_t)n : 0);
  in->data[in->len] = '\0';
  if (n > 0 || (n < 0 && (errno == EAGAIN || errno == EINTR))) {
    return 1;
  }
  /* EOF (or error): a last line without '\n' still counts. */
  if (in->len && in->data[in->len - 1] != '\n') {
    sb_addc(in, '\n');
  }
  return 0;
}

int cli_read_lines(int fd, strbuf *in, cli_line_fn fn, void *ud) {
  int more = cli_read_more(fd, in);
  cli_take_lines(in, fn, NULL, ud);
  return more;
}
