#!/usr/bin/env bash
# The system calls of one sequential call in `mcphost batch`, one stdio
# server: what the relay floor of the benchmarks makes (bench/README.md)
# and no more than the event loop needs besides: one wait and one read
# for each side, one write each way (the request line and its newline in
# one writev), nothing per answer to ask about the terminal (stdout is
# asked once) and no clock or poll calls of their own. strace's trace of
# calls 6 to 15 (the state of the connection settled) is counted.
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip_test "no strace (scripts/deps.sh test installs it)"
strace -o /dev/null true 2>/dev/null || skip_test "strace cannot trace here"
D="$TMP/demo.json"
config_file "$D" "{\"demo\": {\"command\": \"$DEMO\"}}"

: >"$TMP/out" # what a failed check shows
# One request at a time, the next written after the answer was read.
coproc MC { strace -o "$TMP/trace" -s 24 "$MCPHOST" --config "$D" batch 2>"$TMP/err"; }
answers=0
for i in $(seq 1 20); do
  printf '{"id":%d,"call":"demo/echo","arguments":{"message":"m%d"}}\n' \
    "$i" "$i" >&"${MC[1]}"
  IFS= read -r line <&"${MC[0]}" || break
  case $line in "{\"id\":$i,\"result\":"*) answers=$((answers + 1)) ;; esac
done
exec {MC[1]}>&-
wait "$MC_PID"
RC=$?
check "batch answered the 20 calls one by one" test "$answers" = 20
check "  and exited 0" test "$RC" = 0

# The calls from the read of request 6 to the read of request 16: ten
# calls' worth.
awk '/^read\(0, "\{\\"id\\":6,/ { on = 1 } /^read\(0, "\{\\"id\\":16,/ { on = 0 }
     on' "$TMP/trace" >"$TMP/ten"
count() { grep -c "$1" "$TMP/ten"; }
check "the trace holds the ten calls" test "$(count '^read(0, "{')" = 10
check "  one write of each answer to stdout" test "$(count '^write(1, ')" = 10
check "  one write of each request to the server" \
  test "$(grep -v '^write(1, ' "$TMP/ten" | grep -c '^writev\?(.*jsonrpc')" = 10
check "  no terminal question per answer (ioctl)" test "$(count '^ioctl(')" = 0
check "  no poll or clock calls of its own" \
  test "$(count '^\(poll\|ppoll\|select\|pselect6\|clock_gettime\|gettimeofday\)(')" = 0
total=$(wc -l <"$TMP/ten")
check "  at most 6 system calls a call ($total for ten)" test "$total" -le 60
finish
