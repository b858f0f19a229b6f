#!/usr/bin/env bash
# The ws transport's name resolution runs in a thread of its own
# (transports/ws/ws_dns.c): a resolver that does not answer must not hold
# the host. Here getaddrinfo() blocks (an LD_PRELOAD shim, until the test
# writes to a FIFO) and the connect deadline passes: the run must end
# with the deadline's message while the resolver is still blocked, not
# wait in a join for the resolver to give up.
. "$(dirname "$0")/../lib/lib.sh"
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy
[ -n "${CC:-}" ] || skip_test "no C compiler given"

cat >"$TMP/slow_gai.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
/* getaddrinfo("slow.test") waits until $SLOW_GAI_FIFO is written to. */
int getaddrinfo(const char *node, const char *service,
                const struct addrinfo *hints, struct addrinfo **res) {
  int (*real)(const char *, const char *, const struct addrinfo *,
              struct addrinfo **) =
      (int (*)(const char *, const char *, const struct addrinfo *,
               struct addrinfo **))dlsym(RTLD_NEXT, "getaddrinfo");
  const char *fifo = getenv("SLOW_GAI_FIFO");
  if (node && fifo && strcmp(node, "slow.test") == 0) {
    int fd = open(fifo, O_RDONLY);
    char c;
    if (fd >= 0) {
      while (read(fd, &c, 1) > 0) {
      }
      close(fd);
    }
    return EAI_NONAME;
  }
  return real(node, service, hints, res);
}
C
"$CC" -shared -fPIC -o "$TMP/slow_gai.so" "$TMP/slow_gai.c" -ldl ||
  skip_test "cannot build the getaddrinfo shim"
mkfifo "$TMP/gai.fifo"
# Whatever happens, the resolver is let go at the end.
on_exit "exec 7<>'$TMP/gai.fifo'; exec 7>&-"

config_file "$TMP/s.json" \
  '{"s": {"type": "ws", "url": "ws://slow.test:1/", "timeout": 300}}'
# A bound on the run that fails the test (137), not a timed assertion:
# without the fix the run only ends when the FIFO is written to.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" SLOW_GAI_FIFO="$TMP/gai.fifo" LD_PRELOAD="$TMP/slow_gai.so${LD_PRELOAD:+:$LD_PRELOAD}" \
  timeout -s KILL 20 "$MCPHOST" --config "$TMP/s.json" tools >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "a resolver that does not answer ends at the connect deadline" 3 \
  --err "within 300 ms (waiting for resolving the host name)"

finish
