#!/bin/bash
# call --detach against a remote server whose SDK keeps tasks per MCP
# session (server-everything over streamable HTTP, on the TypeScript
# SDK): the session ends with the run, so a later run is answered "Task
# not found". The detach says so and suggests a session, without
# promising the result; in a session (mcphost session start) the MCP
# session lives on and a later run gets the result.
. "$(dirname "$0")/../lib/lib.sh"
[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"
R=every/simulate-research-query

command -v python3 >/dev/null || skip_test "no python3 to find a free port"
EPORT=$(free_port)
LOG="$TMP/everything.log"
: >"$LOG"
PORT=$EPORT node "$EVERYTHING" streamableHttp >"$LOG" 2>&1 &
on_exit "kill $! 2>/dev/null"
for _ in $(seq 150); do
  grep -q "listening on port $EPORT" "$LOG" && break
  sleep 0.1
done
C="$TMP/every.json"
config_file "$C" "{\"every\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$EPORT/mcp\"}}"

run --config "$C" call --detach $R topic=owls
ID=$OUT
expect "--detach from a run's own MCP session says the task is tied to it" 0 \
  --err "warning: task $ID of server \"every\" belongs to this run's MCP session, which ends with the run" \
  --err "run it in a session (mcphost session start)" \
  --no-err "$ID runs on; its result:"
run --config "$C" task status every "$ID"
expect "(a later run is indeed answered: Task not found)" 6 --err "Task not found"

export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
on_exit "'$MCPHOST' --config '$C' session stop >/dev/null 2>&1"
run --config "$C" session start
expect "session start" 0 --out "session started"
run --config "$C" call --detach $R topic=owls
SID=$OUT
expect "--detach in a session: no warning, the way to the result" 0 \
  --no-err "warning" --err "mcphost task result every $SID"
run --config "$C" task result every "$SID"
expect "a later run in the session gets the detached task's result" 0 \
  --out "Research Report"
run --config "$C" session stop
finish
