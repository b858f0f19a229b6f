#!/usr/bin/env bash
# How mcphost ends a stdio server, the MCP lifecycle: it closes the
# server's stdin and waits for it to exit (MCPHOST_STDIO_EXIT_MS, 2 s),
# reading what it still writes, then SIGTERM to its process group, then
# SIGKILL. A Ctrl-C keeps the quick way (SIGINT at once). Every front end
# that stops servers does it so: call, batch, shell, the session and the
# gateway. Outcomes only: which files the server wrote, which signal its
# stderr log says ended it, whether its pid is gone.
. "$(dirname "$0")/../lib/lib.sh"
LIFE="$SRCDIR/tests/servers/lifecycle_server.py"
LOGS="$XDG_STATE_HOME/mcphost/logs"
unset MCPHOST_STDIO_EXIT_MS # the default (lib.sh shortens it)
export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"

# life NAME [KEY=VALUE...]: a config $TMP/NAME.json with the server
# "life" writing into $TMP/NAME/ (D), with the environment given.
life() {
  local name=$1 env="\"LIFE_DIR\": \"$TMP/$1\""
  shift
  for kv in "$@"; do env="$env, \"${kv%%=*}\": \"${kv#*=}\""; done
  D="$TMP/$name"
  mkdir -p "$D"
  C="$TMP/$name.json"
  config_file "$C" "{\"life\": {\"command\": \"python3\", \"args\": [\"$LIFE\"],
                     \"env\": {$env}}}"
}
# ended_by TEXT: the server's last exit marker in its stderr log has TEXT.
ended_by() {
  grep -- '^--- .* ---$' "$LOGS/life.stderr.log" | tail -n 1 | grep -qF -- "$1"
}
# gone: the server's process (its pid file) no longer runs.
gone() { ! kill -0 "$(cat "$D/pid")" 2>/dev/null; }

# ---- a server that saves at the end of its stdin ----

life save
run --no-session --config "$C" call life/echo s=first
expect "a one-shot call" 0 --out "first"
check "the server saved after its last answer, before mcphost ended" \
  test -e "$D/saved"
check "no signal reached it" test ! -e "$D/SIGINT" -a ! -e "$D/SIGTERM"
check "it exited by itself, status 0" ended_by "exited with status 0"
check "what it wrote to stderr after its last answer is kept" \
  grep -qx "saved after the last answer" "$LOGS/life.stderr.log"
check "a log message it sent after its last answer is kept" \
  grep -q "logged after the last answer" "$LOGS/life.log"

# ---- a server that ignores the end of its stdin ----

life term LIFE_ON_EOF=ignore
MCPHOST_STDIO_EXIT_MS=200 run --no-session --config "$C" call life/echo s=x
expect "a call to a server that ignores the end of its stdin" 0 --out "x"
check "after the wait it got SIGTERM (no SIGINT)" \
  test -e "$D/SIGTERM" -a ! -e "$D/SIGINT"
check "SIGTERM ended it" ended_by "killed by signal 15 (SIGTERM)"
check "its process is gone" gone

life kill LIFE_ON_EOF=ignore LIFE_ON_TERM=ignore
MCPHOST_STDIO_EXIT_MS=200 run --no-session --config "$C" call life/echo s=x
expect "a call to a server that ignores its stdin's end and SIGTERM" 0
check "it got SIGTERM first" test -e "$D/SIGTERM"
check "then SIGKILL ended it" ended_by "killed by signal 9 (SIGKILL)"
check "its process is gone" gone

run --no-session --config "$C" call life/echo s=x
expect "without MCPHOST_STDIO_EXIT_MS the default wait also ends" 0
check "... with SIGKILL at last" ended_by "killed by signal 9 (SIGKILL)"

life bad
MCPHOST_STDIO_EXIT_MS=2s run --no-session --config "$C" call life/echo s=x
expect "MCPHOST_STDIO_EXIT_MS=2s is refused with a warning, the default used" \
  0 --err 'ignoring MCPHOST_STDIO_EXIT_MS="2s": not a positive number of milliseconds'
check "... and the server saved" test -e "$D/saved"

# ---- Ctrl-C: the quick way ----

# The call is answered (its pid printed, stdout flushed) and mcphost waits
# for the server, which ignores the end of its stdin; a wait of a minute
# would end with SIGTERM: a SIGINT file and no SIGTERM one show that the
# Ctrl-C cut the wait short.
life ctrlc LIFE_ON_EOF=ignore
# Emptied here, not by the background job's redirection, which may come
# after the loop below looked: the last run's output would send the
# Ctrl-C before the call.
: >"$TMP/out"
MCPHOST_STDIO_EXIT_MS=60000 "$MCPHOST" --no-session --config "$C" \
  call life/pid >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
for _ in $(seq 300); do [ -s "$TMP/out" ] && break; sleep 0.1; done
kill -INT "$pid"
wait "$pid"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
check "a Ctrl-C during the wait sends SIGINT at once" \
  test -e "$D/SIGINT" -a ! -e "$D/SIGTERM"
check "SIGINT ended it" ended_by "killed by signal 2 (SIGINT)"

# ---- every front end ----

life batch
printf '%s\n' '{"id":1,"call":"mcp__life__echo","arguments":{"s":"b"}}' |
  "$MCPHOST" --no-session --config "$C" batch >"$TMP/out" 2>"$TMP/err"
check "batch: the server saved" test -e "$D/saved"

life shell
printf 'call life/echo s=sh\n' |
  "$MCPHOST" --no-session --config "$C" shell >"$TMP/out" 2>"$TMP/err"
check "shell: the server saved" test -e "$D/saved"

life session
run --config "$C" session start --idle 60
expect "session start" 0
run --config "$C" call life/echo s=through-the-session
expect "a call through the session" 0 --out "through-the-session"
check "the session's server still runs" test ! -e "$D/saved"
run --config "$C" session stop
expect "session stop" 0
check "session stop: the server saved" test -e "$D/saved"

# The gateway: at the end of its client's stdin, and on SIGTERM (a
# service's stop), which is not the Ctrl-C's quick way.
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
CALL='{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"mcp__life__echo","arguments":{"s":"gw"}}}'
life gateway
printf '%s\n' "$INIT" "$CALL" |
  "$MCPHOST" --no-session --config "$C" serve --stdio >"$TMP/out" 2>"$TMP/err"
check "gateway: the call was answered" grep -q '"text":"gw"' "$TMP/out"
check "gateway, its client gone: the server saved" test -e "$D/saved"
check "... without a signal" test ! -e "$D/SIGINT" -a ! -e "$D/SIGTERM"

life gateway-term
mkfifo "$TMP/gw.in"
"$MCPHOST" --no-session --config "$C" serve --stdio <"$TMP/gw.in" \
  >"$TMP/out" 2>"$TMP/err" &
pid=$!
exec 3>"$TMP/gw.in"
printf '%s\n' "$INIT" "$CALL" >&3
for _ in $(seq 300); do [ -e "$D/echo" ] && break; sleep 0.1; done
kill -TERM "$pid"
wait "$pid"
RC=$?
exec 3>&-
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "gateway: SIGTERM ends it with 143" 143
check "gateway on SIGTERM: the server saved" test -e "$D/saved"
check "... without a signal" test ! -e "$D/SIGINT" -a ! -e "$D/SIGTERM"

finish
