#!/usr/bin/env bash
# No server process outlives mcphost: on a normal exit, an error exit, a
# Ctrl-C, or a SIGKILL of mcphost itself, including a server that ignores
# SIGINT and SIGTERM and one that runs as a grandchild behind a shell.
. "$(dirname "$0")/../lib/lib.sh"
UNIQ="$TMP/demo-$$-srv"
cp "$DEMO" "$UNIQ"

alive() { pgrep -f "$UNIQ" >/dev/null; }
# Waits (bounded) until no process runs $UNIQ; true when none is left.
gone() {
  for _ in $(seq 1 100); do alive || return 0; sleep 0.1; done
  return 1
}
# Waits (bounded) until a process runs $UNIQ.
started() {
  for _ in $(seq 1 100); do alive && return 0; sleep 0.1; done
  return 1
}
on_exit 'pkill -9 -f "$UNIQ" 2>/dev/null'

C="$TMP/c.json"
config_file "$C" "{\"d\": {\"command\": \"$UNIQ\"}}"
run --config "$C" call mcp__d__echo message=x
expect "normal exit: the call works" 0 --out "Echo: x"
check "normal exit: no server left" gone

run --config "$C" call mcp__d__nope
expect "error exit" 6
check "error exit: no server left" gone

# SIGKILL of mcphost in the middle of a long call.
"$MCPHOST" --config "$C" call mcp__d__slow steps=600 delay_ms=100 >/dev/null 2>&1 &
pid=$!
check "a slow call is running" started
kill -9 "$pid"; wait "$pid" 2>/dev/null
check "SIGKILL of mcphost: no server left" gone

# A server that ignores SIGINT and SIGTERM is killed after the grace.
config_file "$TMP/stubborn.json" "{\"s\": {\"command\": \"$UNIQ\", \"args\": [\"--ignore-sigterm\"]}}"
run --config "$TMP/stubborn.json" call mcp__s__echo message=y
expect "a stubborn server still answers" 0 --out "Echo: y"
check "normal exit: the stubborn server was escalated to SIGKILL" gone

# A grandchild behind a shell, stubborn too, with mcphost SIGKILLed: only
# the process-group guardian can clean this up.
config_file "$TMP/grand.json" "{\"g\": {\"command\": \"sh\", \"args\": [\"-c\", \"exec 3<&0; '$UNIQ' --ignore-sigterm <&3 3<&- & wait\"]}}"
"$MCPHOST" --config "$TMP/grand.json" call mcp__g__slow steps=600 delay_ms=100 >/dev/null 2>&1 &
pid=$!
check "a grandchild server is running" started
kill -9 "$pid"; wait "$pid" 2>/dev/null
check "SIGKILL of mcphost: the stubborn grandchild is gone too" gone

# Ctrl-C: pending requests are cancelled and the exit code says so.
"$MCPHOST" --config "$C" call mcp__d__slow steps=600 delay_ms=100 >"$TMP/out" 2>"$TMP/err" &
pid=$!
started
sleep 0.3
kill -INT "$pid"
wait "$pid"; RC=$?
OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "Ctrl-C cancels the call with exit code 130" 130 --err "interrupted"
check "Ctrl-C: no server left" gone

finish
