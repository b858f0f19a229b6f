#!/bin/bash
# MCP 2026-07-28's corrective errors on ordinary requests, not the probe
# (docs/protocol.md), against tests/servers/era_error_server.py: a
# tools/call answered -32022 naming a version of ours is sent again at it,
# under a new id; one naming none fails with both sides' versions; a
# -32020 over HTTP has the tools listed again and the call sent once
# more with its Mcp-Param-* header. A call sent again (the -32022
# correction) is still cancelled by Ctrl-C: over stdio the cancel names
# the id the call has now, over HTTP its response stream is closed.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the test server"
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy
SRV="$SRCDIR/tests/servers/era_error_server.py"
LOG="$TMP/era.log"

# start_http MODE: the server over HTTP (logging to LOG), gone with the
# test; sets PORT.
start_http() {
  start_listener env ERA_LOG="$LOG" python3 -u "$SRV" http "$1" || exit 1
  PORT=$LISTEN_PORT
}
start_http version
VPORT=$PORT
start_http header
HPORT=$PORT
start_http slow
SPORT=$PORT
C="$TMP/c.json"
stdio() {
  printf '{"command": "python3", "args": ["%s", "stdio", "%s"],
    "env": {"ERA_LOG": "%s"}}' "$SRV" "$1" "$LOG"
}
config_file "$C" "{
  \"v\": $(stdio version), \"f\": $(stdio foreign), \"s\": $(stdio slow),
  \"hv\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$VPORT/mcp\"},
  \"hh\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$HPORT/mcp\"},
  \"hs\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$SPORT/mcp\"}}"

# calls: the logged tools/call requests, one JSON line each.
calls() { jq -c 'select(.method == "tools/call")' "$LOG"; }
# two_ids: two tools/call, the second under a new id.
two_ids() {
  [ "$(calls | wc -l)" = 2 ] &&
    [ "$(calls | jq -s '.[0].id != .[1].id')" = true ]
}

for srv in v hv; do
  : >"$LOG"
  run --config "$C" call "$srv/echo" text=hi
  expect "$srv: a tools/call refused with -32022 naming 2026-07-28 is sent again" 0 \
    --out "echo: hi @2026-07-28"
  if two_ids; then
    ok "$srv: the call was sent again under a new id"
  else
    bad "$srv: the call was sent again under a new id" "$(calls)"
  fi
done

: >"$LOG"
run --config "$C" call f/echo text=hi
expect "-32022 naming no version of ours fails, saying both sides' versions" 4 \
  --err 'server "f": tools/call failed: unsupported protocol version; the server supports 2099-01-01, mcphost speaks 2026-07-28 (error -32022)'
if [ "$(calls | wc -l)" = 1 ]; then
  ok "with nothing to correct to, the call is not sent again"
else
  bad "with nothing to correct to, the call is not sent again" "$(calls)"
fi

: >"$LOG"
run --config "$C" call hh/geo region=eu
expect "-32020 over HTTP: tools listed again, the call sent with its header" 0 \
  --out "geo: eu header=eu"
if [ "$(jq -c 'select(.method == "tools/list")' "$LOG" | wc -l)" = 2 ] &&
  [ "$(calls | jq -s -c '[.[].headers["mcp-param-region"]]')" = '[null,"eu"]' ]; then
  ok "the second tools/call carries Mcp-Param-Region after the second listing"
else
  bad "the second tools/call carries Mcp-Param-Region after the second listing" \
    "$(cat "$LOG")"
fi

# interrupt_second_call SERVER: `call SERVER/slow`, Ctrl-C once the call
# was sent the second time (after its -32022); sets RC, OUT and ERR. The
# --timeout only bounds a run that ignored the Ctrl-C (exit 5).
interrupt_second_call() {
  : >"$LOG"
  "$MCPHOST" --config "$C" --timeout 20000 call "$1/slow" \
    >"$TMP/out" 2>"$TMP/err" </dev/null &
  local pid=$!
  for _ in $(seq 150); do
    [ "$(calls | wc -l)" -ge 2 ] && break
    sleep 0.1
  done
  kill -INT "$pid"
  wait "$pid"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

interrupt_second_call s
expect "stdio: Ctrl-C interrupts a call sent again after -32022" 130 \
  --err "tools/call: interrupted"
second=$(calls | jq -s '.[1].id')
for _ in $(seq 50); do grep -q notifications/cancelled "$LOG" && break; sleep 0.1; done
if [ "$(jq -c 'select(.method == "notifications/cancelled") | .params.requestId' \
  "$LOG")" = "$second" ]; then
  ok "stdio: notifications/cancelled names the call's current id"
else
  bad "stdio: notifications/cancelled names the call's current id" "$(cat "$LOG")"
fi

interrupt_second_call hs
expect "HTTP: Ctrl-C interrupts a call sent again after -32022" 130 \
  --err "tools/call: interrupted"
if ! grep -q notifications/cancelled "$LOG"; then
  ok "HTTP: the cancel is the closed stream, no POST"
else
  bad "HTTP: the cancel is the closed stream, no POST" "$(cat "$LOG")"
fi
finish
