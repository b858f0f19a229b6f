#!/usr/bin/env bash
# mcphost serve --http for a 2026-07-28 client, the connection
# (docs/gateway.md): POSTs pipelined on one connection are answered in
# their order, the first one's answer too, even when it comes later than
# the request deadline (MCPHOST_SERVE_REQUEST_MS) or after the client
# closed the connection (then its call is the closed connection's, not
# the next client's); "Connection: close" and HTTP/1.0 wait for their
# answer; only the gateway's own unknown method is 404 (a backend's
# -32601 passed through is its answer, 200); with --passthrough the
# methods 2026-07-28 removed are still unknown to a modern client.
# Raw requests: tests/interop/gateway_http_pipeline.py and curl; the
# probe server's wait tool ends when the test says.
. "$(dirname "$0")/../lib/lib.sh"

command -v curl >/dev/null || skip_test "no curl"
PY=$(command -v python3) || skip_test "no python3 for the probe server"

C="$TMP/servers.json"
config_file "$C" "{
  \"probe\": {\"command\": \"$PY\", \"args\": [\"$SRCDIR/tests/servers/probe_server.py\"]}}"
META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'

# post METHOD NAME BODY [CURL-ARG...]: a raw modern POST, its response
# in $R.h and $R.b ($TMP/r unless R is set); sets OUT (response_of).
post() {
  local method=$1 name=$2 body=$3 r=${R:-$TMP/r}
  shift 3
  local nh=()
  [ -n "$name" ] && nh=(-H "Mcp-Name: $name")
  curl -s -D "$r.h" -o "$r.b" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' \
    -H 'MCP-Protocol-Version: 2026-07-28' -H "Mcp-Method: $method" \
    "${nh[@]}" "$@" --data-binary "$body" "$GW_URL" >/dev/null
  RC=$?
  response_of "$r"
}
# response_of R: OUT is {"status": N, "close": bool, "body": ...} of the
# response in R.h and R.b.
response_of() {
  local st cl=false
  st=$(sed -n '1s/^HTTP\/1.[01] \([0-9]*\).*/\1/p' "$1.h" 2>/dev/null)
  grep -qi '^connection: close' "$1.h" 2>/dev/null && cl=true
  OUT=$(jq -c --argjson s "${st:-0}" --argjson c "$cl" \
    '{status: $s, close: $c, body: .}' "$1.b" 2>/dev/null || echo '{}')
}
call_body() { # ID TOOL ARGS
  printf '{"jsonrpc":"2.0","id":%s,"method":"tools/call","params":{%s,"name":"%s","arguments":%s}}' \
    "$1" "$META" "$2" "$3"
}

# A request deadline of 1 s: the pipeline reads for 2.5 s before its
# first call may end.
MCPHOST_SERVE_REQUEST_MS=1000 start_gateway "$C"

OUT=$("$PY" "$INTEROP/gateway_http_pipeline.py" "$GW_URL" "$TMP/gate1" answers)
RC=$?
expect "serve --http (2026): pipelined POSTs are answered in their order, the later one after the first" 0 \
  --jq '.early == [] and .order == [1, 2] and .texts["1"] == "waited" and .status == {"1": 200, "2": 200}'

# The first call's client closes its connection; the next connection
# (likely given the same descriptor) must get its own answer only.
OUT=$("$PY" "$INTEROP/gateway_http_pipeline.py" "$GW_URL" "$TMP/gate2" close)
RC=$?
expect "serve --http (2026): nothing is answered past a call not answered yet" 0 \
  --jq '.early == []'
R=$TMP/bg post tools/call mcp__probe__echo "$(call_body 5 mcp__probe__echo '{"text":"mine"}')" &
CURL=$!
sleep 0.5 # its request reaches the probe behind the wait
: >"$TMP/gate2"
wait "$CURL"
RC=$?
response_of "$TMP/bg"
expect "serve --http (2026): a call whose connection closed answers nobody else" 0 \
  --jq '.status == 200 and .body.id == 5 and .body.result.content[0].text == "mine"'

R=$TMP/bg post tools/call mcp__probe__wait "$(call_body 7 mcp__probe__wait "{\"file\":\"$TMP/gate3\"}")" &
CURL=$!
sleep 2 # beyond the request deadline
: >"$TMP/gate3"
wait "$CURL"
RC=$?
response_of "$TMP/bg"
expect "serve --http (2026): a call longer than the request deadline gets its answer" 0 \
  --jq '.status == 200 and .body.id == 7 and .body.result.content[0].text == "waited"'

post tools/call mcp__probe__echo "$(call_body 8 mcp__probe__echo '{"text":"bye"}')" -H 'Connection: close'
expect "serve --http (2026): Connection: close waits for the answer, then closes" 0 \
  --jq '.status == 200 and .close and .body.result.content[0].text == "bye"'
post tools/call mcp__probe__echo "$(call_body 9 mcp__probe__echo '{"text":"old"}')" --http1.0
expect "serve --http (2026): an HTTP/1.0 request waits for its answer" 0 \
  --jq '.status == 200 and .close and .body.result.content[0].text == "old"'

post nope/nothing "" "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"nope/nothing\",\"params\":{$META}}"
expect "serve --http (2026): the gateway's own unknown method is 404 with -32601" 0 \
  --jq '.status == 404 and .body.error.code == -32601'

stop_gateway
expect "serve --http (2026): the gateway ends cleanly on SIGTERM" 0 \
  --no-err "Sanitizer" --no-err "runtime error"

# --passthrough: the probe's own methods, a modern client's view.
start_gateway "$C" 127.0.0.1:0 --server probe --passthrough
post probe/nothing "" "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"probe/nothing\",\"params\":{$META}}"
expect "serve --http --passthrough (2026): a backend's -32601 passed through is 200" 0 \
  --jq '.status == 200 and .body.id == 1 and .body.error.code == -32601'
for m in ping logging/setLevel resources/subscribe; do
  post "$m" "" "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"$m\",\"params\":{$META,\"level\":\"debug\",\"uri\":\"x://y\"}}"
  expect "serve --http --passthrough (2026): $m is an unknown method (404, -32601), not the backend's" 0 \
    --jq '.status == 404 and .body.error.code == -32601'
done
stop_gateway
expect "serve --http --passthrough (2026): the gateway ends cleanly" 0 \
  --no-err "Sanitizer" --no-err "runtime error"

finish
