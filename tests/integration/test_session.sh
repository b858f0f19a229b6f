#!/bin/bash
# mcphost session: a background process keeping the servers of one
# configuration connected; the commands that talk to servers run through
# it with the same output and exit codes (docs/sessions.md).
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/second_user.sh"
command -v python3 >/dev/null || skip_test "no python3 for the counter server"
command -v jq >/dev/null || skip_test "no jq"

COUNTER="$SRCDIR/tests/servers/counter_server.py"
export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
C="$TMP/counter.json"
write_config() { # write_config [EXTRA-SERVERS]
  config_file "$C" "{\"counter\": {\"command\": \"python3\",
    \"args\": [\"$COUNTER\"], \"env\": {\"COUNTER_WAITING\": \"$TMP/waiting\",
    \"COUNTER_CANCELLED\": \"$TMP/cancelled\"}}${1:-}}"
}
write_config
on_exit "'$MCPHOST' --config '$C' session stop >/dev/null 2>&1"

daemon_pid() { "$MCPHOST" --config "$C" session status --json | jq -r .pid; }
# until_gone PID: waits (at most 30 s) for it to end.
until_gone() {
  local i
  for i in $(seq 300); do pid_gone "$1" && return 0; sleep 0.1; done
  return 1
}
until_file() {
  local i
  for i in $(seq 300); do [ -e "$1" ] && return 0; sleep 0.1; done
  return 1
}
count_pid() { sed -n 's/^count [0-9]* pid \([0-9]*\)$/\1/p' <<<"$OUT"; }

# ---- without a session ----
run --config "$C" session status
expect "status without a session: exit 6" 6 --out "no session runs here"
run --config "$C" session status --json
expect "status --json without a session" 6 --jq '.running == false'
run --config "$C" call counter/count
expect "a call without a session" 0 --out "count 1 pid"
first=$(count_pid)
run --config "$C" call counter/count
expect "each call without a session starts the server again" 0 \
  --out "count 1 pid"

# ---- start, state kept ----
run --config "$C" session start --idle 10
expect "session start" 0 --out "session started" --out "$XDG_RUNTIME_DIR/mcphost/"
D=$(daemon_pid)
run --config "$C" call counter/count
expect "the first call through the session" 0 --out "count 1 pid"
p1=$(count_pid)
run --config "$C" call counter/count
expect "the second call sees the state of the first" 0 --out "count 2 pid $p1"
run --config "$C" --json call counter/count
expect "a third, with --json, on the same server process" 0 \
  --jq ".content[0].text == \"count 3 pid $p1\""
[ "$p1" != "$first" ] && ok "the session's server is its own" ||
  bad "the session's server is its own"
run --config "$C" session start
expect "a second start says one runs" 0 --err "a session already runs here"
[ "$(daemon_pid)" = "$D" ] && ok "and starts none" || bad "and starts none"

# ---- bypassing it ----
run --config "$C" --no-session call counter/count
expect "--no-session runs here: a server of its own" 0 --out "count 1 pid" \
  --no-out "pid $p1"
MCPHOST_NO_SESSION=1 run --config "$C" call counter/count
expect "MCPHOST_NO_SESSION=1 likewise" 0 --out "count 1 pid" --no-out "pid $p1"
run --config "$C" call counter/count
expect "the session kept counting" 0 --out "count 4 pid $p1"
run --config "$C" --strict-mcp-config call counter/count
expect "other server options: another key, no session" 0 --out "count 1 pid"

# ---- status ----
run --config "$C" session status --json
expect "status --json" 0 --jq ".running == true and .pid == $D" \
  --jq '.commands >= 4 and (.socket | endswith(".sock"))' \
  --jq '.servers == [{"name": "counter", "state": "connected"}]' \
  --jq '.idle_minutes == 10'
run --config "$C" session status
expect "status" 0 --out "session running (pid $D)" --out "counter: connected" \
  --out "stops after 10 min idle"

# ---- the socket ----
SOCK=$(ls "$XDG_RUNTIME_DIR"/mcphost/session-*.sock)
if [ "$(stat -c '%a %u %F' "$SOCK")" = "600 $(id -u) socket" ] &&
  [ "$(stat -c '%a %u' "$XDG_RUNTIME_DIR/mcphost")" = "700 $(id -u)" ]; then
  ok "the socket is the user's, 0600, in a 0700 directory"
else
  bad "the socket is the user's, 0600, in a 0700 directory" \
    "$(stat -c '%a %u %F %n' "$SOCK" "$XDG_RUNTIME_DIR/mcphost")"
fi

# ---- the same output and exit codes through the session ----
# parity NAME ARGS...: stdout, stderr and the exit code, with and without
# (SORT=1: batch answers as they complete, in any order).
parity() {
  local name=$1
  shift
  "$MCPHOST" --no-session "$@" >"$TMP/d.out" 2>"$TMP/d.err" <"$TMP/stdin"
  local drc=$?
  "$MCPHOST" "$@" >"$TMP/s.out" 2>"$TMP/s.err" <"$TMP/stdin"
  local src=$?
  if [ "${SORT:-}" = 1 ]; then
    sort -o "$TMP/d.out" "$TMP/d.out"
    sort -o "$TMP/s.out" "$TMP/s.out"
  fi
  if [ $drc = $src ] && cmp -s "$TMP/d.out" "$TMP/s.out" &&
    cmp -s "$TMP/d.err" "$TMP/s.err"; then
    ok "same through the session: $name (exit $src)"
  else
    RC=$src
    bad "same through the session: $name" "exit $drc without, $src with" \
      "$(diff "$TMP/d.out" "$TMP/s.out" | head -5)" \
      "$(diff "$TMP/d.err" "$TMP/s.err" | head -5)"
  fi
}
: >"$TMP/stdin"
parity "tools" --config "$C" tools
parity "tools --json" --config "$C" tools --json
parity "tool" --config "$C" tool counter/count
parity "servers --json" --config "$C" --json servers
parity "a tool error" --config "$C" call counter/fail
parity "a tool error with --json" --config "$C" --json call counter/fail
parity "an unknown tool" --config "$C" call counter/nosuch
parity "an unknown server" --config "$C" call nosuch/x
parity "a bad argument" --config "$C" call counter/count '{bad'
parity "a bad option" --config "$C" --timeout 0 call counter/count
parity "an unknown prompt" --config "$C" prompt counter/x
parity "a read the server cannot do" --config "$C" read counter file:///x
parity "resources" --config "$C" resources
parity "call --help" --config "$C" call --help
parity "grep" --config "$C" grep count
parity "grep with nothing matched" --config "$C" grep nosuchthing
printf '%s\n' '{"id":1,"call":"mcp__counter__fail"}' '{"id":2,"list":"tools"}' \
  >"$TMP/stdin"
SORT=1 parity "batch, its requests on stdin" --config "$C" batch
printf '%s\n' '{"msg":"hi"}' >"$TMP/args.json"
: >"$TMP/stdin"
(cd "$TMP" && parity "a relative @FILE in the caller's directory" \
  --config "$C" call counter/fail --args @args.json)
"$MCPHOST" --config "$C" call counter/fail >/dev/full 2>"$TMP/full.err"
full_rc=$?
"$MCPHOST" --config "$C" tools >/dev/full 2>"$TMP/full.err"
RC=$?
ERR=$(cat "$TMP/full.err")
[ $RC = 10 ] && [[ $ERR == *"cannot write the output"* ]] &&
  ok "a full stdout through the session: exit 10, said" ||
  bad "a full stdout through the session: exit 10, said" "call gave $full_rc"

# ---- Ctrl-C cancels the caller's call only ----
rm -f "$TMP/waiting" "$TMP/cancelled"
"$MCPHOST" --config "$C" call counter/wait >"$TMP/out" 2>"$TMP/err" &
caller=$!
until_file "$TMP/waiting"
kill -INT $caller
wait $caller
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "Ctrl-C through the session: exit 130" 130 --err "interrupted"
until_file "$TMP/cancelled" && ok "the server got the cancellation" ||
  bad "the server got the cancellation"
run --config "$C" call counter/count
expect "the session and its server go on" 0 --out "pid $p1"
[ "$(daemon_pid)" = "$D" ] && ok "the same session process" ||
  bad "the same session process"

# ---- a second user is refused ----
if second_user_add mcpsess -M; then
  chmod 711 "$XDG_RUNTIME_DIR" "$XDG_RUNTIME_DIR/mcphost"
  chmod 666 "$SOCK" # forged open: only the peer check stands
  PY=$(command -v /usr/bin/python3 || command -v python3)
  reply=$(setpriv --reuid "$SUSER" --regid "$SUSER" --clear-groups \
    "$PY" -c '
import socket, struct, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(b"MCPHS1Q" + struct.pack("<I", 0))
data = b""
while True:
    b = s.recv(4096)
    if not b:
        break
    data += b
print(data[4:].decode())
' "$SOCK" 2>&1)
  chmod 700 "$XDG_RUNTIME_DIR" "$XDG_RUNTIME_DIR/mcphost"
  chmod 600 "$SOCK"
  [[ $reply == "refused: the session belongs to another user" ]] &&
    ok "another user's process is refused by its peer credentials" ||
    bad "another user's process is refused by its peer credentials" "$reply"
else
  echo "skipped: a second user: $SECOND_USER_WHY"
fi

# ---- a killed session process ----
rm -f "$TMP/waiting"
"$MCPHOST" --config "$C" call counter/wait >"$TMP/out" 2>"$TMP/err" &
caller=$!
until_file "$TMP/waiting"
kill -KILL "$D"
wait $caller
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "a killed session costs its caller an error, exit 3" 3 \
  --err "the session process ended before the command finished"
until_gone "$p1" && ok "its server ended with it" || bad "its server ended with it"
run --config "$C" call counter/count
expect "the next command runs directly" 0 --out "count 1 pid" \
  --no-out "pid $p1"
[ ! -e "$SOCK" ] && ok "the stale socket was removed" ||
  bad "the stale socket was removed"
run --config "$C" session start --idle 10
expect "a new session starts in its place" 0 --out "session started"
D=$(daemon_pid)

# ---- stop ----
run --config "$C" call counter/count
expect "a call in the new session" 0 --out "count 1 pid"
p2=$(count_pid)
run --config "$C" session stop
expect "session stop" 0 --out "session stopped"
# The socket is gone when stop returns; the session process may still be
# in its last exit steps (a sanitizer's leak check runs there) and the
# server it started ends with it.
if [ ! -e "$SOCK" ] && until_gone "$D" && until_gone "$p2"; then
  ok "stop leaves no process and no socket"
else
  bad "stop leaves no process and no socket" "$(ls -l "$XDG_RUNTIME_DIR/mcphost")"
fi
run --config "$C" session stop
expect "stop without a session: said, exit 6" 6 \
  --err "no session runs for this configuration here"

# ---- several sessions: list, stop one by its id, stop them all ----
C2="$TMP/other.json"
config_file "$C2" "{\"c2\": {\"command\": \"python3\", \"args\": [\"$COUNTER\"]}}"
run --config "$C" session start --idle 10
D1=$(daemon_pid)
run --config "$C2" session start --idle 10
D2=$("$MCPHOST" --config "$C2" session status --json | jq -r .pid)
ID2=$("$MCPHOST" --config "$C2" session status --json | jq -r .id)
run session stop
expect "stop without the configuration that started them: exit 6, what runs said" 6 \
  --err "no session runs for this configuration here" \
  --err "  $ID2  pid $D2  $PWD  --config $C2" \
  --err "pid $D1  $PWD  --config $C" \
  --err "mcphost session stop ID', or every one with 'mcphost session stop --all'"
! pid_gone "$D1" && ! pid_gone "$D2" && ok "  and both still run" ||
  bad "  and both still run"
run --config "$C" session list --json
expect "session list --json: each one, this configuration's marked" 0 \
  --jq 'length == 2' \
  --jq "map(select(.pid == $D1))[0].here == true" \
  --jq "map(select(.id == \"$ID2\"))[0].options == [\"--config\", \"$C2\"]"
run session list
expect "session list" 0 --out "  $ID2  pid $D2  $PWD  --config $C2"
run session stop "${ID2:0:6}"
expect "stop ID (its start) stops that one" 0 --out "session $ID2 stopped"
until_gone "$D2" && ok "  its process is gone" || bad "  its process is gone"
! pid_gone "$D1" && ok "  the other still runs" || bad "  the other still runs"
run session stop "$ID2"
expect "stop an ID that does not run: exit 6" 6 --err "no session \"$ID2\" runs"
run session stop --all
expect "stop --all" 0 --out "stopped"
until_gone "$D1" && ok "  every session is gone" || bad "  every session is gone"
run session list
expect "list with none" 0 --out "no session runs"

# ---- a configuration change ----
run --config "$C" session start --idle 10
D=$(daemon_pid)
write_config ", \"other\": {\"command\": \"python3\", \"args\": [\"$COUNTER\"]}"
for i in $(seq 100); do
  n=$("$MCPHOST" --config "$C" session status --json | jq '.servers | length')
  [ "$n" = 2 ] && break
  sleep 0.2
done
[ "$n" = 2 ] && ok "a change before any connection: read again in place" ||
  bad "a change before any connection: read again in place" "servers: $n"
run --config "$C" call other/count
expect "the new server through the session" 0 --out "count 1 pid"
write_config
if until_gone "$D" && [ ! -e "$SOCK" ]; then
  ok "a change with connections open: the session ends"
else
  bad "a change with connections open: the session ends"
fi
run --config "$C" call counter/count
expect "the next command runs directly, with the new configuration" 0 \
  --out "count 1 pid"
run --config "$C" call other/count
expect "the server the change removed is gone" 6

# ---- idle ----
run --config "$C" session start --idle 0.02
expect "start --idle 0.02 (1.2 s)" 0 --out "stops after 0.02 min idle"
D=$(daemon_pid)
until_gone "$D" && [ ! -e "$SOCK" ] && ok "it ends when idle" ||
  bad "it ends when idle"
run --config "$C" session start --idle soon
expect "a bad --idle" 2 --err "--idle needs a number of minutes"

# ---- without XDG_RUNTIME_DIR: a private directory under $TMPDIR ----
unset XDG_RUNTIME_DIR
run --config "$C" session start --idle 10
expect "start without XDG_RUNTIME_DIR" 0 --out "$TMPDIR/mcphost-$(id -u)/session-"
[ "$(stat -c '%a' "$TMPDIR/mcphost-$(id -u)")" = 700 ] &&
  ok "that directory is 0700" || bad "that directory is 0700"
run --config "$C" call counter/count
p3=$(count_pid)
run --config "$C" call counter/count
expect "state kept there too" 0 --out "count 2 pid $p3"
run --config "$C" session stop
expect "and stopped" 0 --out "session stopped"

finish
