#!/usr/bin/env bash
# The system calls of one sequential call in `mcphost batch`, counted in
# strace's trace of calls 6 to 15 (the connection settled).
#   - stdio: what the relay floor of the benchmarks makes
#     (bench/README.md) and no more than the event loop needs besides:
#     one wait and one read for each side, one write each way (the
#     request line and its newline in one writev), nothing per answer to
#     ask about the terminal (stdout is asked once), no clock or poll
#     calls of its own.
#   - ws: one frame sent, written from the send itself: nothing written
#     but the answer (no wake-up of libwebsockets through its eventfd),
#     no epoll_ctl (asking lws for WRITEABLE cost four: libuv deletes and
#     re-adds the socket at each change of its poll events), no read of
#     the random device for the frame's mask (lws read four bytes of
#     /dev/urandom a frame; the masks come from a pool now), the answer
#     read by the transport from a host fd watch (libwebsockets' socket in
#     libuv's epoll, nested in the host's, cost two more epoll_wait() calls
#     a call: ws_in.c), so as many system calls as stdio's, 6 a call; and
#     a ws:// server reads no CA bundle (OpenSSL is set up for wss only).
. "$(dirname "$0")/../lib/lib.sh"
command -v strace >/dev/null || skip_test "no strace (scripts/deps.sh test installs it)"
strace -o /dev/null true 2>/dev/null || skip_test "strace cannot trace here"
: >"$TMP/out" # what a failed check shows

# trace_calls CONFIG SERVER: 20 echo calls to SERVER, one at a time (the
# next written after the answer was read) under strace; the whole trace
# in $TMP/trace, calls 6 to 15 in $TMP/ten.
# (LeakSanitizer cannot run under ptrace: an ASan build's leak check is
# off here, the other tests have it.)
trace_calls() {
  coproc MC { ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
    strace -o "$TMP/trace" -s 24 "$MCPHOST" --config "$1" batch \
    2>"$TMP/err"; }
  local answers=0 i line
  for i in $(seq 1 20); do
    printf '{"id":%d,"call":"%s/echo","arguments":{"message":"m%d"}}\n' \
      "$i" "$2" "$i" >&"${MC[1]}"
    IFS= read -r line <&"${MC[0]}" || break
    case $line in "{\"id\":$i,\"result\":"*) answers=$((answers + 1)) ;; esac
  done
  exec {MC[1]}>&-
  wait "$MC_PID"
  RC=$?
  check "$2: batch answered the 20 calls one by one" test "$answers" = 20
  check "  and exited 0" test "$RC" = 0
  # The guardian's middle process exits whenever the scheduler lets it,
  # sometimes in this window. Its SIGCHLD is ignored, and mcphost never
  # sees it; a traced process does: strace prints a line for it ("---
  # SIGCHLD ..."), and a wait it breaks into returns EINTR (epoll_wait,
  # then called again) or is restarted (a read, shown twice). None of
  # those lines is a call of mcphost's own.
  awk '/^read\(0, "\{\\"id\\":6,/ { on = 1 }
       /^read\(0, "\{\\"id\\":16,/ { on = 0 }
       on && !/^(---|\+\+\+) / && !/ = (-1 EINTR|\? ERESTART)/' \
    "$TMP/trace" >"$TMP/ten"
  check "  the trace holds the ten calls" test "$(count '^read(0, "{')" = 10
}
count() { grep -c "$1" "$TMP/ten"; }
# The allocator's own mappings (glibc's, or ASan's as its pools fill)
# come now and then, not with each call: counted apart, at most 2 in ten.
MEM='^\(mmap\|munmap\|mremap\|madvise\|brk\)('
io_calls() { grep -vc "$MEM" "$TMP/ten"; }
mem_calls() { count "$MEM"; }

D="$TMP/demo.json"
config_file "$D" "{\"demo\": {\"command\": \"$DEMO\"}}"
trace_calls "$D" demo
# batch writes an answer with writev (a large result goes out of its own
# buffer, json_raw.h): one call either way.
check "  one write of each answer to stdout" test "$(count '^writev\?(1, ')" = 10
check "  one write of each request to the server" \
  test "$(grep -v '^writev\?(1, ' "$TMP/ten" | grep -c '^writev\?(.*jsonrpc')" = 10
check "  no terminal question per answer (ioctl)" test "$(count '^ioctl(')" = 0
check "  no poll or clock calls of its own" \
  test "$(count '^\(poll\|ppoll\|select\|pselect6\|clock_gettime\|gettimeofday\)(')" = 0
total=$(io_calls)
check "  at most 6 system calls a call ($total for ten)" test "$total" -le 60
check "  the allocator's mappings now and then only" test "$(mem_calls)" -le 2

# ---- ws ----
[ -d "$INTEROP/node_modules/ws" ] || { echo "(no npm ws package: ws skipped)"; finish; }
start_node "$SRCDIR/tests/servers/ws_server.mjs" || exit 1
W="$TMP/ws.json"
config_file "$W" "{\"w\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$NODE_PORT/\"}}"
trace_calls "$W" w
check "  one frame sent a call" test "$(count '^sendto(')" = 10
check "  nothing written but the answers (no eventfd wake-up)" \
  test "$(count '^writev\?(')" = 10
check "  no epoll_ctl (the send writes; lws's poll events never change)" \
  test "$(count '^epoll_ctl(')" = 0
check "  nothing read but the requests (no mask from /dev/urandom)" \
  test "$(grep -c '^read(' "$TMP/ten")" = "$(count '^read(0, ')"
check "  one wait a side, in the host's epoll (none in libuv's)" \
  test "$(count '^epoll_wait(')" = 20
total=$(io_calls)
check "  at most 6 system calls a call, as stdio ($total for ten)" \
  test "$total" -le 60
check "  the allocator's mappings now and then only" test "$(mem_calls)" -le 2
check "  a ws:// server reads no CA bundle" \
  test "$(grep -c '^openat(.*\(cert\|\.pem\)' "$TMP/trace")" = 0
finish
