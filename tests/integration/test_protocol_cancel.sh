#!/bin/bash
# Cancelling a 2026-07-28 request is an operation-level cancel
# (docs/protocol.md): between two input_required rounds nothing is in
# flight at the server, and a Ctrl-C then ends the call all the same (the
# elicitation hook still running is stopped, no retry is sent, the call
# exits as interrupted). Against the TS SDK v2 server
# (tests/servers/ts_v2_server.mjs, tool "confirm"). Over streamable HTTP
# (tests/servers/era_error_server.py), a request sent again under a new
# id -- after its response stream broke, or as an MRTR round -- is
# cancelled by closing its current stream.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the test server"
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy

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

# The gateway: its client's notifications/cancelled for the call, while
# the client is being asked the round's question, ends it the same way
# (serve forwards a cancel through the same operation cancel; the gateway
# asks its client, never a hook of its own). A Python client that
# declared elicitation drives `serve --stdio`: it calls confirm (id 2),
# cancels it once the gateway asks it, then calls echo (id 3) and prints
# what came back.
cat >"$TMP/gw_client.py" <<'PY'
import json, os, subprocess, sys, time
mcphost, config, errfile = sys.argv[1:4]
p = subprocess.Popen([mcphost, "--config", config, "serve", "--stdio"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=open(errfile, "w"), text=True)
def send(m):
    p.stdin.write(json.dumps(m) + "\n"); p.stdin.flush()
def until(pred):
    seen = []
    for line in p.stdout:
        m = json.loads(line)
        seen.append(m)
        if pred(m):
            return seen
    return seen
def answer_to(rid):
    return lambda m: m.get("id") == rid and "method" not in m
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {"elicitation": {}},
    "clientInfo": {"name": "t", "version": "1"}}})
until(answer_to(1))
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
    "name": "mcp__modern__confirm", "arguments": {"action": "deploy"}}})
asked = until(lambda m: m.get("method") == "elicitation/create")
ask_id = asked[-1].get("id") if asked else None
send({"jsonrpc": "2.0", "method": "notifications/cancelled",
      "params": {"requestId": 2, "reason": "changed my mind"}})
send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
    "name": "mcp__modern__echo", "arguments": {"text": "after"}}})
seen = asked + until(answer_to(3))
p.stdin.close()
p.wait()
told = [m for m in seen if m.get("method") == "notifications/cancelled"]
print(json.dumps({"asked": ask_id is not None,
                  "answered2": any(m.get("id") == 2 and "method" not in m
                                   for m in seen),
                  "told": [m["params"].get("requestId") == ask_id
                           for m in told],
                  "echo": [m for m in seen if m.get("id") == 3]}))
PY
: >"$LOG"
RC=0
timeout 120 python3 "$TMP/gw_client.py" "$MCPHOST" "$C" "$TMP/err" \
  >"$TMP/out" </dev/null || RC=$?
OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
expect "serve: a client's cancel between two rounds ends the call, unanswered" 0 \
  --jq '.asked and .answered2 == false' \
  --jq '.echo[0].result.content[0].text == "echo(modern): after"'
if [ "$(calls | jq -s -c '[.[].params.name]')" = '["confirm","echo"]' ]; then
  ok "serve: no retry is sent after the client's cancel"
else
  bad "serve: no retry is sent after the client's cancel" "$(cat "$LOG")"
fi
expect "serve: the client is told its question is withdrawn" 0 \
  --jq '.told == [true]'

# ---- over streamable HTTP: the current stream is the one closed ----
SRV="$SRCDIR/tests/servers/era_error_server.py"
ELOG="$TMP/era.log"
# start_http MODE: era_error_server.py over HTTP, logging to ELOG; sets
# PORT.
start_http() {
  start_listener env ERA_LOG="$ELOG" python3 -u "$SRV" http "$1" || exit 1
  PORT=$LISTEN_PORT
}
start_http cut
CPORT=$PORT
start_http ask
APORT=$PORT
H="$TMP/h.json"
config_file "$H" "{
  \"cut\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$CPORT/mcp\"},
  \"ask\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$APORT/mcp\"}}"
ACCEPT="$TMP/accept.sh"
printf '#!/bin/sh\ncat >/dev/null\necho %s\n' \
  "'{\"action\":\"accept\",\"content\":{\"go\":true}}'" >"$ACCEPT"
chmod +x "$ACCEPT"

ecalls() { jq -c 'select(.method == "tools/call")' "$ELOG"; }

# interrupt_second SERVER: `call SERVER/slow`, Ctrl-C once the server got
# the call the second time; sets RC, OUT and ERR, and SECOND (its id).
interrupt_second() {
  : >"$ELOG"
  "$MCPHOST" --config "$H" --elicitation="hook:$ACCEPT" call "$1/slow" \
    >"$TMP/out" 2>"$TMP/err" </dev/null &
  local pid=$!
  for _ in $(seq 300); do
    [ "$(ecalls | wc -l)" -ge 2 ] && break
    sleep 0.1
  done
  kill -INT "$pid"
  wait_gone "$pid"
  OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
  SECOND=$(ecalls | jq -s '.[1].id')
  for _ in $(seq 50); do grep -q '"closed"' "$ELOG" && break; sleep 0.1; done
}

# closed_is_second NAME: the stream the server saw closed is the second
# call's, and nothing was POSTed to cancel it.
closed_is_second() {
  if [ "$(jq -c 'select(.method == "closed") | .id' "$ELOG")" = "$SECOND" ] &&
    [ "$(ecalls | jq -s '.[0].id != .[1].id')" = true ] &&
    ! grep -q notifications/cancelled "$ELOG"; then
    ok "$1"
  else
    bad "$1" "$(cat "$ELOG")"
  fi
}

interrupt_second cut
expect "HTTP: Ctrl-C interrupts a call sent again after its stream broke" 130 \
  --err "tools/call: interrupted"
closed_is_second "HTTP: the re-issued call's stream is the one closed"

interrupt_second ask
expect "HTTP: Ctrl-C interrupts an MRTR round in flight" 130 \
  --err "tools/call: interrupted"
if ecalls | jq -se '.[1].params.requestState == "st-1"
    and .[1].params.inputResponses.confirm.content == {"go": true}' \
    >/dev/null; then
  ok "HTTP: the round in flight is the retry with the inputs"
else
  bad "HTTP: the round in flight is the retry with the inputs" "$(cat "$ELOG")"
fi
closed_is_second "HTTP: the MRTR retry's stream is the one closed"
finish
