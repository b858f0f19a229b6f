#!/usr/bin/env bash
# mcphost serve for a 2026-07-28 client (docs/gateway.md): the TS SDK v2
# client (@modelcontextprotocol/client, pinned to 2026-07-28;
# tests/interop/gateway_client_2026.mjs) against serve --stdio and
# --http fronting the demo server and the growing backend: discover,
# lists, a call, a read, a prompt, list_changed through
# subscriptions/listen; and the envelope's errors (-32022 for a version
# the gateway does not speak, -32602 for a missing clientCapabilities),
# resultType on every result, raw on stdio and with curl on HTTP.
. "$(dirname "$0")/lib.sh"

command -v node >/dev/null || skip_test "no node for the TS SDK client"
[ -d "$INTEROP/node_modules/@modelcontextprotocol/client" ] ||
  skip_test "the TS SDK v2 client is not installed"
command -v curl >/dev/null || skip_test "no curl"

C="$TMP/servers.json"
config_file "$C" "{
  \"demo\": {\"command\": \"$DEMO\"},
  \"grow\": {\"command\": \"node\", \"args\": [\"$INTEROP/gateway_backend.mjs\"]}}"

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
  >"$TMP/in"
"$MCPHOST" --mcp-config "$C" serve --stdio <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(jq -s 'map({(.id | tostring): .}) | add' "$TMP/out")
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

finish
