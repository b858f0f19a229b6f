/* A front end's operations (sdk/include/mcphost/client.h, "a front
 * end's operations"): the signals the program took, passed on to the
 * waits of the library's that end on them, and the status line on
 * stderr that the library's log keeps clear of. */
#include "api/api_internal.h"

void mcphost_interrupt(mcphost_client *c, int signo) {
  if (c)
    host_interrupt(c->h, signo);
}

int mcphost_interrupted(const mcphost_client *c) {
  if (!c || !host_interrupted(c->h))
    return 0;
  int signo = host_signal_number(c->h);
  return signo > 0 ? signo : 1; /* host_interrupt(h, 0): no number */
}

void mcphost_interrupt_clear(mcphost_client *c) {
  if (c)
    host_clear_interrupt(c->h);
}

void mcphost_status_line(mcphost_client *c, const char *text) {
  if (c && text)
    host_status_line(c->h, text);
}

void mcphost_status_end(mcphost_client *c) {
  if (c)
    host_status_end(c->h);
}
