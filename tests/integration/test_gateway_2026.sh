#!/usr/bin/env bash
# mcphost serve for a 2026-07-28 client (docs/gateway.md): the TS SDK v2
# client (@modelcontextprotocol/client, pinned to 2026-07-28;
# tests/interop/gateway_client_2026.mjs) against serve --stdio and
# --http fronting the demo server and the growing backend: discover,
# lists, a call, a read, a prompt, list_changed through
# subscriptions/listen; and the envelope's errors (-32022 for a version
# the gateway does not speak, -32602 for a missing clientCapabilities),
# resultType on every result, raw on stdio and with curl on HTTP.
. "$(dirname "$0")/../lib/lib.sh"

command -v node >/dev/null || skip_test "no node for the TS SDK client"
[ -d "$INTEROP/node_modules/@modelcontextprotocol/client" ] ||
  skip_test "the TS SDK v2 client is not installed"
command -v curl >/dev/null || skip_test "no curl"
PY=$(command -v python3) || skip_test "no python3 for the probe server"

C="$TMP/servers.json"
config_file "$C" "{
  \"demo\": {\"command\": \"$DEMO\"},
  \"grow\": {\"command\": \"node\", \"args\": [\"$INTEROP/gateway_backend.mjs\"]},
  \"probe\": {\"command\": \"$PY\", \"args\": [\"$SRCDIR/tests/servers/probe_server.py\"]}}"

client() {
  node "$INTEROP/gateway_client_2026.mjs" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

# checks WHERE: what the client saw over WHERE (stdio or http).
checks() {
  local w=$1
  expect "serve $w (2026): discover names the gateway and its version" 0 \
    --jq '.version == "2026-07-28" and .server.name == "mcphost" and .capabilities.tools.listChanged == true'
  expect "serve $w (2026): tools of every backend" 0 \
    --jq '(.tools | index("mcp__demo__echo")) != null and (.tools | index("mcp__grow__grow")) != null'
  expect "serve $w (2026): a call reaches its backend" 0 --jq '.echo == "Echo: hi"'
  expect "serve $w (2026): an unknown tool is invalid params" 0 \
    --jq '.unknown_tool.error.code == -32602'
  expect "serve $w (2026): resources and a read" 0 \
    --jq '(.resources | index("demo://readme")) != null and (.read | startswith("mcphost demo readme"))'
  expect "serve $w (2026): prompts and prompts/get" 0 \
    --jq '(.prompts | index("mcp__demo__greet")) != null and (.prompt | contains("Ada"))'
  expect "serve $w (2026): list_changed arrives on subscriptions/listen" 0 \
    --jq '.listen.got == true and .listen.grown == true and .listen.honored.toolsListChanged == true'
}

client "$MCPHOST" --mcp-config "$C" serve --stdio
checks stdio

# Raw lines on stdio: the envelope's errors and resultType.
META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}' \
  "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"server/discover\",\"params\":{$META}}" \
  "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{$META}}" \
  "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\",\"params\":{$META}}" \
  "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"resources/read\",\"params\":{$META,\"uri\":\"demo://nope\"}}" \
  "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{${META%\}},\"io.modelcontextprotocol/logLevel\":\"info\"},\"name\":\"mcp__probe__log\",\"arguments\":{\"level\":\"warning\",\"text\":\"w1\"}}}" \
  "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{$META,\"name\":\"mcp__probe__log\",\"arguments\":{\"level\":\"warning\",\"text\":\"n1\"}}}" \
  "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{${META%\}},\"io.modelcontextprotocol/logLevel\":\"error\"},\"name\":\"mcp__probe__log\",\"arguments\":{\"level\":\"info\",\"text\":\"i1\"}}}" \
  "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/list\",\"params\":{${META%\}},\"io.modelcontextprotocol/logLevel\":\"loud\"}}}" \
  >"$TMP/in"
"$MCPHOST" --mcp-config "$C" serve --stdio <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
RC=$?
ERR=$(cat "$TMP/err")
expect "serve --stdio (2026): the gateway ends with its input, nothing left behind" 0 \
  --no-err "Sanitizer" --no-err "runtime error"
OUT=$(jq -s '(map(select(.id != null) | {(.id | tostring): .}) | add) + {logs: [.[] | select(.method == "notifications/message") | .params.data]}' "$TMP/out")
expect "serve --stdio (2026): a version it does not speak is -32022 with supported and requested" 0 \
  --jq '.["1"].error.code == -32022 and .["1"].error.data.supported == ["2026-07-28"] and .["1"].error.data.requested == "2099-01-01"'
expect "serve --stdio (2026): a request without clientCapabilities is -32602" 0 \
  --jq '.["2"].error.code == -32602'
expect "serve --stdio (2026): discover offers both eras' versions, serverInfo in _meta, cache hints" 0 \
  --jq '(.["3"].result.supportedVersions | index("2026-07-28") != null and index("2025-11-25") != null) and .["3"].result._meta["io.modelcontextprotocol/serverInfo"].name == "mcphost" and .["3"].result.resultType == "complete" and .["3"].result.ttlMs == 0 and .["3"].result.cacheScope == "private"'
expect "serve --stdio (2026): a list has resultType and the cache hints" 0 \
  --jq '.["4"].result.resultType == "complete" and .["4"].result.cacheScope == "private"'
expect "serve --stdio (2026): ping is gone (method not found)" 0 \
  --jq '.["5"].error.code == -32601'
expect "serve --stdio (2026): an unknown URI is -32602" 0 \
  --jq '.["6"].error.code == -32602'
expect "serve --stdio (2026): a backend's log reaches the request whose logLevel it reaches, only" 0 \
  --jq '.["7"].result.content[0].text == "logged" and .["8"].result.content[0].text == "logged" and .["9"].result.content[0].text == "logged" and .logs == ["w1"]'
expect "serve --stdio (2026): a logLevel that is no level is -32602" 0 \
  --jq '.["10"].error.code == -32602'

# --http: the same client, without a session.
start_gateway "$C"
client "$GW_URL"
checks http

# post METHOD VERSION-HEADER BODY [HEADER...]: a raw POST; sets OUT to
# {"status": N, "session": bool, "body": ...}.
post() {
  local method=$1 version=$2 body=$3
  shift 3
  local hv=()
  [ -n "$version" ] && hv=(-H "MCP-Protocol-Version: $version")
  curl -s -D "$TMP/h" -o "$TMP/b" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' "${hv[@]}" \
    -H "Mcp-Method: $method" "$@" --data-binary "$body" "$GW_URL" >/dev/null
  RC=$?
  local st sess=false
  st=$(sed -n '1s/^HTTP\/1.1 \([0-9]*\).*/\1/p' "$TMP/h")
  grep -qi '^mcp-session-id:' "$TMP/h" && sess=true
  OUT=$(jq -c --argjson s "${st:-0}" --argjson x "$sess" \
    '{status: $s, session: $x, body: .}' "$TMP/b" 2>/dev/null || echo '{}')
}
post server/discover 2026-07-28 "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{$META}}"
expect "serve --http (2026): discover is answered without a session" 0 \
  --jq '.status == 200 and .session == false and .body.result.resultType == "complete" and (.body.result.supportedVersions | index("2025-11-25") != null)'
post server/discover 2099-01-01 '{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}'
expect "serve --http (2026): a version it does not speak is 400 with -32022" 0 \
  --jq '.status == 400 and .body.error.code == -32022 and .body.error.data.requested == "2099-01-01"'
post tools/list 2025-11-25 "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\",\"params\":{$META}}"
expect "serve --http (2026): MCP-Protocol-Version unlike _meta's is 400 with -32020" 0 \
  --jq '.status == 400 and .body.error.code == -32020'
post tools/call 2026-07-28 "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{$META}}"
expect "serve --http (2026): Mcp-Method unlike the method is 400 with -32020" 0 \
  --jq '.status == 400 and .body.error.code == -32020'
post tools/call 2026-07-28 "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{$META,\"name\":\"mcp__demo__echo\",\"arguments\":{\"message\":\"x\"}}}" -H 'Mcp-Name: mcp__demo__add'
expect "serve --http (2026): Mcp-Name unlike the tool's name is 400 with -32020" 0 \
  --jq '.status == 400 and .body.error.code == -32020'
post tools/call 2026-07-28 "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{$META,\"name\":\"mcp__demo__echo\",\"arguments\":{\"message\":\"x\"}}}" -H 'Mcp-Name: mcp__demo__echo'
expect "serve --http (2026): a call with its headers is answered, resultType complete" 0 \
  --jq '.status == 200 and .session == false and .body.result.resultType == "complete" and .body.result.content[0].text == "Echo: x"'
post ping 2026-07-28 "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\",\"params\":{$META}}"
expect "serve --http (2026): an unknown method is 404 with -32601" 0 \
  --jq '.status == 404 and .body.error.code == -32601'

# The gateway ends on SIGTERM with nothing left behind (a sanitizer's
# report would be on its stderr).
stop_gateway
expect "serve --http (2026): the gateway ends cleanly on SIGTERM" 0 \
  --no-err "Sanitizer" --no-err "runtime error"

finish
