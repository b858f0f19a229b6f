#!/bin/bash
# Cancelling a 2026-07-28 request is an operation-level cancel
# (docs/protocol.md): between two input_required rounds nothing is in
# flight at the server, and a Ctrl-C then ends the call all the same (the
# elicitation hook still running is stopped, no retry is sent, the call
# exits as interrupted). Against the TS SDK v2 server
# (tests/servers/ts_v2_server.mjs, tool "confirm").
. "$(dirname "$0")/lib.sh"

V2="$SRCDIR/tests/servers/ts_v2_server.mjs"
LOG="$TMP/v2.log"
C="$TMP/c.json"
config_file "$C" "{
  \"modern\": {\"command\": \"node\", \"args\": [\"$V2\", \"stdio\", \"modern\"],
    \"env\": {\"TS_V2_LOG\": \"$LOG\"}}}"

# calls: the tools/call requests the server got, one JSON line each.
calls() { jq -c 'select(.method == "tools/call")' "$LOG"; }

# A hook that says it runs (its pid in $TMP/hook.pid) and then blocks: the
# call is between its two rounds for as long as it runs.
HOOK="$TMP/block.sh"
cat >"$HOOK" <<HOOK
#!/bin/sh
echo \$\$ >"$TMP/hook.pid.tmp" && mv "$TMP/hook.pid.tmp" "$TMP/hook.pid"
cat >/dev/null
exec sleep 120
HOOK
chmod +x "$HOOK"

# wait_gone PID: waits for it; one that ignored the Ctrl-C is killed
# after a bound (sets RC 137 then), so a broken build fails, not hangs.
wait_gone() {
  for _ in $(seq 300); do
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$1" 2>/dev/null
  wait "$1"
  RC=$?
}

# wait_file FILE: until it exists (bounded).
wait_file() {
  for _ in $(seq 300); do
    [ -e "$1" ] && return 0
    sleep 0.1
  done
  return 1
}

: >"$LOG"
rm -f "$TMP/hook.pid"
"$MCPHOST" --config "$C" --elicitation="hook:$HOOK" \
  call mcp__modern__confirm action=deploy >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
wait_file "$TMP/hook.pid" || echo "the hook never ran"
kill -INT "$pid"
wait_gone "$pid"
OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
expect "call: Ctrl-C while the elicitation hook runs between two rounds" 130 \
  --err "tools/call: interrupted"
if [ "$(calls | wc -l)" = 1 ]; then
  ok "call: no retry is sent after the cancel"
else
  bad "call: no retry is sent after the cancel" "$(cat "$LOG")"
fi
hook=$(cat "$TMP/hook.pid" 2>/dev/null)
if [ -n "$hook" ] && ! kill -0 "$hook" 2>/dev/null; then
  ok "call: the hook is stopped"
else
  bad "call: the hook is stopped" "hook pid ${hook:-none}"
  [ -n "$hook" ] && kill "$hook" 2>/dev/null
fi
finish
