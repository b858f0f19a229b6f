/* The person's terminal (terminal_open.h). */
#include "terminal_open.h"

#include <fcntl.h>
#include <stdlib.h>

int terminal_open(int oflags) {
  const char *path = getenv("MCPHOST_TTY");
  return open(path && *path ? path : "/dev/tty", oflags | O_NOCTTY);
}
