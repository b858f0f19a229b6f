#!/usr/bin/env bash
# mcphost serve: a backend's questions to a 2026-07-28 client as
# input_required rounds (docs/gateway.md, "Questions to a modern
# client"). The TS SDK v2 client (tests/interop/gateway_client_mrtr.mjs)
# over --stdio and --http, its handlers answering: a legacy backend's
# elicitation (form and URL), roots/list and sampling/createMessage
# (tests/interop/gateway_backend.mjs), a modern backend's own
# input_required (tests/servers/ts_v2_server.mjs confirm, two rounds).
# Raw lines (tests/interop/gateway_mrtr_raw.py): a forged, garbage,
# replayed or mismatched retry is -32602, a cancel and the timeout
# answer the backend "cancel", 16 operations at most are parked for one
# client, a legacy client is asked a modern backend's question, and two
# calls at once are each asked their own question (or, when nothing ties
# a legacy backend's question to one, it is declined).
. "$(dirname "$0")/../lib/lib.sh"

command -v node >/dev/null || skip_test "no node for the TS SDK client"
[ -d "$INTEROP/node_modules/@modelcontextprotocol/client" ] ||
  skip_test "the TS SDK v2 client is not installed"
[ -d "$INTEROP/node_modules/@modelcontextprotocol/server" ] ||
  skip_test "the TS SDK v2 server is not installed"
command -v curl >/dev/null || skip_test "no curl"
PY=$(command -v python3) || skip_test "no python3 for the raw client"

C="$TMP/servers.json"
config_file "$C" "{
  \"grow\": {\"command\": \"node\", \"args\": [\"$INTEROP/gateway_backend.mjs\"]},
  \"v2\": {\"command\": \"node\", \"args\": [\"$SRCDIR/tests/servers/ts_v2_server.mjs\", \"stdio\", \"modern\"]}}"

client() {
  node "$INTEROP/gateway_client_mrtr.mjs" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

# checks WHERE: what the TS client saw over WHERE (stdio or http).
checks() {
  local w=$1
  expect "serve $w (2026): a legacy backend's form elicitation is answered by the client's handler" 0 \
    --jq '.version == "2026-07-28" and (.ask | fromjson) == {action: "accept", content: {name: "Ada"}}'
  expect "serve $w (2026): a URL-mode elicitation reaches a client that declared it" 0 \
    --jq '(.askurl | fromjson) == {action: "accept"} and (.asked | map(select(.mode == "url")) | length) == 1'
  expect "serve $w (2026): a backend's roots/list is the client's roots" 0 \
    --jq '(.roots | fromjson) == ["file:///mrtr-root"]'
  expect "serve $w (2026): a backend's sampling/createMessage is the client's completion" 0 \
    --jq '.sample == "sampled hi"'
  expect "serve $w (2026): a modern backend's input_required reaches the client, asked again after a decline" 0 \
    --jq '.confirm == "confirmed: deploy" and (.asked | map(select(.message == "Really deploy?")) | length) == 2'
  expect "serve $w (2026): prompts/get and resources/read are asked through input_required too" 0 \
    --jq '(.prompt | fromjson) == {action: "accept", content: {name: "Ada"}} and (.read | fromjson) == {action: "accept", content: {name: "Ada"}}'
}

client "$MCPHOST" --mcp-config "$C" serve --stdio
checks stdio
expect "serve --stdio (2026): no sanitizer report" 0 \
  --no-err "Sanitizer" --no-err "runtime error"

raw() {
  "$PY" "$INTEROP/gateway_mrtr_raw.py" "$1" "$MCPHOST" --mcp-config "$C" \
    serve --stdio >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

raw rounds
expect "serve --stdio (2026): a backend's question is input_required with a 64-character requestState" 0 \
  --jq '.first.result.resultType == "input_required" and (.first.result.inputRequests | to_entries[0].value.method) == "elicitation/create" and (.first.result.requestState | test("^[A-Za-z0-9_-]{64}$"))'
expect "serve --stdio (2026): a forged or garbage requestState is -32602" 0 \
  --jq '.forged.error.code == -32602 and .garbage.error.code == -32602'
expect "serve --stdio (2026): a retry with other arguments or another tool is -32602" 0 \
  --jq '.other_args.error.code == -32602 and .other_tool.error.code == -32602'
expect "serve --stdio (2026): a retry without the input asked for is -32602 naming it" 0 \
  --jq '.no_input.error.code == -32602 and .no_input.error.data.inputResponse == (.first.result.inputRequests | keys[0])'
expect "serve --stdio (2026): refused retries leave it parked: the right one resumes it" 0 \
  --jq '.resumed.result.resultType == "complete" and (.resumed.result.content[0].text | fromjson) == {action: "accept", content: {name: "Ada"}}'
expect "serve --stdio (2026): a requestState used once is refused the second time" 0 \
  --jq '.replayed.error.code == -32602'
expect "serve --stdio (2026): URL mode is declined for a request that declared form only" 0 \
  --jq '(.url_undeclared.result.content[0].text | fromjson) == {action: "decline"} and .url.result.inputRequests[].params.mode == "url" and (.url_done.result.content[0].text | fromjson) == {action: "accept"}'
expect "serve --stdio (2026): notifications/cancelled for the last request answers the backend cancel and ends the park" 0 \
  --jq '.cancel_first.result.resultType == "input_required" and .cancel_backend.got == {action: "cancel"} and .after_cancel.error.code == -32602'
expect "serve --stdio (2026): the raw client's gateway ends cleanly" 0 \
  --no-err "Sanitizer" --no-err "runtime error"

expect "serve --stdio (2026): a question the backend withdrew need not be answered by the retry" 0 \
  --jq '.withdrawn_first.result.resultType == "input_required" and .withdrawn.result.content[0].text == "cancelled"'

raw ended
expect "serve --stdio (2026): once the parked operation ended, a retry with other params or another method is still -32602; the right one gets its answer" 0 \
  --jq '.first.result.resultType == "input_required" and (.refused | length) == 20 and (.refused | all(. == -32602)) and .right.result.content[0].text == "cancelled"' \
  --no-err "Sanitizer" --no-err "runtime error"

MCPHOST_SERVE_INPUT_MS=200 raw expire
expect "serve --stdio (2026): a retry that does not come in time: the backend is answered cancel, the late retry -32602" 0 \
  --jq '.first.result.resultType == "input_required" and .backend.got == {action: "cancel"} and .late.error.code == -32602' \
  --no-err "Sanitizer" --no-err "runtime error"

raw bounds
expect "serve --stdio (2026): 16 operations are parked for one client, the 17th question is declined" 0 \
  --jq '(.kinds[:16] | all(. == "input_required")) and .kinds[16] == "complete" and (.last | fromjson) == {action: "decline"}' \
  --no-err "Sanitizer" --no-err "runtime error"

raw legacy
expect "serve --stdio (legacy): a modern backend's input_required is asked of a legacy client as a request" 0 \
  --jq '.asked == ["Really ship?"] and .result == "confirmed: ship"' \
  --no-err "Sanitizer" --no-err "runtime error"

raw legacy_url
expect "serve --stdio (legacy): a modern backend's URL elicitation reaches a legacy client with an elicitationId of the gateway's" 0 \
  --jq '(.asked | length) == 1 and .asked[0].mode == "url" and (.asked[0].elicitationId | type) == "string" and .asked[0].url == "https://example.com/sign-in" and .result == "login: accept"' \
  --no-err "Sanitizer" --no-err "runtime error"

raw routing
expect "serve --stdio (2026): two calls at once: a modern backend's question goes to the call that asked it" 0 \
  --jq '.modern_first == "A" and .modern_asked == ["Really delete A'"'"'s files?"] and .modern_a == "confirmed: delete A'"'"'s files"'
expect "serve --stdio (2026): a legacy backend's question tied by its progressToken goes to its call while another runs" 0 \
  --jq '.tied == "input_required" and .tied_done == {action: "accept", content: {name: "Ada"}}'
expect "serve --stdio (2026): a legacy backend's question nothing ties, while two calls run on it, is declined" 0 \
  --jq '.untied == "complete" and (.untied_got | fromjson) == {action: "decline"}' \
  --no-err "Sanitizer" --no-err "runtime error"

# A backend's own request id that looks like the gateway's input ids.
CE="$TMP/el.json"
config_file "$CE" "{\"el\": {\"command\": \"$BUILDDIR/tests/mcphost-elicit-server\",
  \"env\": {\"ELICIT_SERVER_ID_PREFIX\": \"mcphost-mrtr-\"}}}"
"$PY" "$INTEROP/gateway_mrtr_raw.py" \
  own_id "$MCPHOST" --mcp-config "$CE" serve --stdio >"$TMP/out" \
  2>"$TMP/err" </dev/null
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "serve --stdio (legacy): the answer to a backend's request with id \"mcphost-mrtr-1\" reaches the backend" 0 \
  --jq '.asked == ["Name?"] and (.result | startswith("result ")) and (.result[7:] | fromjson) == {action: "accept", content: {name: "Ada"}}' \
  --no-err "Sanitizer" --no-err "runtime error"

# subscriptions/listen: bounded, one backend subscription per URI.
CL="$TMP/listen.json"
config_file "$CL" "{\"v2\": {\"command\": \"node\",
  \"args\": [\"$SRCDIR/tests/servers/ts_v2_server.mjs\", \"stdio\", \"modern\"],
  \"env\": {\"TS_V2_LOG\": \"$TMP/v2.log\"}}}"
LISTEN_LOG="$TMP/v2.log" "$PY" "$INTEROP/gateway_mrtr_raw.py" listen \
  "$MCPHOST" --mcp-config "$CL" serve --stdio >"$TMP/out" 2>"$TMP/err" \
  </dev/null
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "serve --stdio (2026): a listen naming one URI 2000 times is acknowledged with it once" 0 \
  --jq '.copies.ack.resourceSubscriptions == ["config://app"]'
expect "serve --stdio (2026): a listen naming more than 256 URIs is -32602 naming the limit" 0 \
  --jq '.wide.error.code == -32602 and (.wide.error.message | contains("more than 256"))'
expect "serve --stdio (2026): a 17th listen of one client is -32602 naming the limit" 0 \
  --jq '(.more | all) and (.more | length) == 15 and .seventeenth.error.code == -32602 and (.seventeenth.error.message | contains("at most 16 listens"))'
expect "serve --stdio (2026): the backend keeps a URI while a listen names it, drops it when the last one ends" 0 \
  --jq '.kept[-1] == ["config://app"] and .last_listen == []' \
  --no-err "Sanitizer" --no-err "runtime error"

# A permission rule's "ask" of the gateway's own, for a modern client.
mkdir -p "$XDG_CONFIG_HOME/mcphost"
chmod 700 "$XDG_CONFIG_HOME" "$XDG_CONFIG_HOME/mcphost"
printf '%s\n' '{"permissions": {"ask": ["mcp__demo__echo"]}}' \
  >"$XDG_CONFIG_HOME/mcphost/settings.json"
chmod 600 "$XDG_CONFIG_HOME/mcphost/settings.json"
CD="$TMP/demo.json"
config_file "$CD" "{\"demo\": {\"command\": \"$DEMO\"}}"
"$PY" "$INTEROP/gateway_mrtr_raw.py" permission "$MCPHOST" --mcp-config "$CD" \
  serve --stdio >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "serve --stdio (2026): a permission rule's ask is an input_required form for a modern client" 0 \
  --jq '.first.result.resultType == "input_required" and (.first.result.inputRequests | to_entries[0].value | .method == "elicitation/create" and (.params.message | startswith("Allow the tool mcp__demo__echo")) and .params.requestedSchema.properties.allow.type == "boolean")'
expect "serve --stdio (2026): the client's allow runs the call, its refusal is a denied error" 0 \
  --jq '.allowed.result.content[0].text == "Echo: hi" and .refused.error.data.kind == "denied" and (.refused.error.message | contains("refused by the gateway"))'
expect "serve --stdio (2026): a request without the elicitation form capability is refused, saying so" 0 \
  --jq '.no_form.error.data.kind == "denied" and (.no_form.error.message | contains("its request declared no elicitation form"))'
expect "serve --stdio (2026): a cancel ends the permission round (its retry is -32602), the next call runs" 0 \
  --jq '.third.result.resultType == "input_required" and .after_cancel.error.code == -32602 and .still_works.result.content[0].text != null' \
  --no-err "Sanitizer" --no-err "runtime error"
rm -f "$XDG_CONFIG_HOME/mcphost/settings.json"

# --http: each POST its own client; the retry comes on a new connection.
start_gateway "$C"
client "$GW_URL"
checks http

# A raw retry over HTTP with a forged requestState: -32602.
META='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}}}'
post() {
  curl -s -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' \
    -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' \
    -H 'Mcp-Name: mcp__grow__ask' --data-binary "$1" "$GW_URL" >"$TMP/out"
  RC=$?
  OUT=$(sed -n 's/^data: //p; /^{/p' "$TMP/out" | tail -1)
}
post "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{$META,\"name\":\"mcp__grow__ask\",\"arguments\":{}}}"
STATE=$(printf '%s' "$OUT" | jq -r '.result.requestState')
KEY=$(printf '%s' "$OUT" | jq -r '.result.inputRequests | keys[0]')
expect "serve --http (2026): a backend's question is input_required on the POST" 0 \
  --jq '.result.resultType == "input_required"'
FORGED="${STATE%?}$([ "${STATE: -1}" = A ] && echo B || echo A)"
post "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{$META,\"name\":\"mcp__grow__ask\",\"arguments\":{},\"inputResponses\":{\"$KEY\":{\"action\":\"accept\",\"content\":{\"name\":\"Bo\"}}},\"requestState\":\"$FORGED\"}}"
expect "serve --http (2026): a forged requestState is -32602" 0 \
  --jq '.error.code == -32602'
post "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{$META,\"name\":\"mcp__grow__ask\",\"arguments\":{},\"inputResponses\":{\"$KEY\":{\"action\":\"accept\",\"content\":{\"name\":\"Bo\"}}},\"requestState\":\"$STATE\"}}"
expect "serve --http (2026): the retry on a new connection resumes the parked call" 0 \
  --jq '.result.resultType == "complete" and (.result.content[0].text | fromjson) == {action: "accept", content: {name: "Bo"}}'

stop_gateway
expect "serve --http (2026): the gateway ends cleanly on SIGTERM" 0 \
  --no-err "Sanitizer" --no-err "runtime error"

finish
