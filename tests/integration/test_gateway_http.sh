#!/usr/bin/env bash
# mcphost serve --http, the gateway over streamable HTTP
# (docs/gateway.md): the TS SDK's client (tests/interop/gateway_client.mjs)
# against the gateway fronting server-everything, the demo server, the
# probe server and a server whose tool list grows: tools, calls,
# resources, prompts, progress, cancellation, list_changed, a crashed
# backend that comes back, an "ask" put to the client as an elicitation,
# a backend's own elicitation, roots/list and sampling forwarded;
# raw HTTP (tests/interop/gateway_http_raw.mjs, curl) for sessions,
# resumption with Last-Event-ID, a client that does not read beside one
# that works (tests/interop/gateway_slow_client.py), the Origin, Host
# and token checks, 0.0.0.0 without a token.
. "$(dirname "$0")/../lib/lib.sh"

command -v curl >/dev/null || skip_test "no curl"
. "$(dirname "$0")/../lib/gateway_setup.sh"

# gateway ARGS...: `mcphost --mcp-config C serve --http ARGS...`
# (lib.sh's start_gateway).
gateway() { start_gateway "$C" "$@"; }

# client SCENARIO: the SDK client plays SCENARIO against GW_URL.
client() {
  node "$INTEROP/gateway_client.mjs" "$1" "$GW_URL" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
raw() {
  node "$INTEROP/gateway_http_raw.mjs" "$1" "$GW_URL" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
# http ARGS...: curl's status line and headers in OUT, exit code in RC.
http() {
  curl -s -o "$TMP/body" -D "$TMP/head" "$@" >/dev/null
  RC=$?
  OUT="$(head -1 "$TMP/head" | tr -d '\r')"
  ERR="$(cat "$TMP/body")"
}
has_status() { [[ "$OUT" == "HTTP/1.1 $1"* ]]; }
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
J=(-H "Content-Type: application/json" -H "Accept: application/json, text/event-stream")

gateway 127.0.0.1:0 || exit 1
check "serve --http 127.0.0.1:0 picks a port and says it" \
  grep -Eq '^mcphost serve: listening on http://127.0.0.1:[0-9]+/mcp$' "$GW_ERR"

client main
expect "serve --http: initialize gives the gateway's capabilities and a session" 0 \
  --jq '.server.name == "mcphost" and .capabilities.tools.listChanged == true and (.session | test("^[0-9a-f]{32}$"))'
expect "serve --http: tools as mcp__<server>__<tool>, calls reach the backends" 0 \
  --jq '(.tools | index("mcp__demo__echo")) != null and (.tools | index("mcp__every__trigger-long-running-operation")) != null and .echo == "Echo: hi" and .every_echo == "Echo: yo"'
expect "serve --http: policy as for call (deny; ask refused without elicitation)" 0 \
  --jq '.denied.error.data.kind == "denied" and (.ask.error.message | contains("declared no elicitation"))'
expect "serve --http: resources, templates, read, unknown URI" 0 \
  --jq '(.resources | index("demo://readme")) != null and (.templates | index("demo://item/{id}")) != null and (.read | startswith("mcphost demo readme")) and .read_unknown.error.code == -32002'
expect "serve --http: prompts and prompts/get" 0 \
  --jq '(.prompts | index("mcp__demo__greet")) != null and .prompt == "Say hello to Ada in a friendly way."'
expect "serve --http: progress reaches the client on its call's stream" 0 \
  --jq '.progress.seen[0:3] == [1,2,3] and (.progress.text | startswith("Long running operation completed"))'
expect "serve --http: ping; an unknown method is method not found" 0 \
  --jq '.ping == "pong" and .no_method.error.code == -32601'
expect "serve --http: a cancelled call is cancelled at the backend" 0 \
  --jq '.cancel.rejected == true and .cancel.backend_saw_cancel == true'
expect "serve --http: a backend's changed list reaches the client's GET stream" 0 \
  --jq '.list_changed.told == true and .list_changed.grown == true'
expect "serve --http: a backend that crashes: its call fails, the change is told, its tools come back" 0 \
  --jq '.crash.call.data.server == "probe" and .crash.told == true and .crash.back == true'

client elicit-yes
expect "serve --http: an ask goes to the client as an elicitation on its call's stream" 0 \
  --jq '.ask == "failed: r" and (.asked[0] | contains("mcp__demo__fail"))'
client elicit-no
expect "serve --http: a client that declines refuses the call" 0 \
  --jq '.ask.error.data.kind == "denied"'

client forward
expect "serve --http: a backend's elicitation, roots/list and sampling reach the client that made the call, and its answers go back" 0 \
  --jq '(.ask.text | fromjson) == {"action":"accept","content":{"name":"Ada (asked: Your name?)"}} and (.roots.text | fromjson) == ["file:///client/root"] and .sample.text == "hi from the client" and .seen == {"elicit":1,"roots":1,"sampling":1}'
client forward-cancel
expect "serve --http: a backend that cancels its elicitation has the client told on its call's stream" 0 \
  --jq '.ask == "cancelled" and .seen.elicit == 1 and .seen.cancelled == "the backend changed its mind"'
client forward-none
expect "serve --http: a client without them: elicitation declined, the gateway's roots, no sampling" 0 \
  --jq '(.ask.text | fromjson) == {"action":"decline"} and .roots.isError == false and (.roots.text | contains("client/root") | not) and .sample.isError == true and .seen == {"elicit":0,"roots":0,"sampling":0}'

raw resume
expect "serve --http: a dropped stream resumes with Last-Event-ID, the answer included" 0 \
  --jq '.type == "text/event-stream" and .resume_status == 200 and .first.progress == 1 and (.rest | length) >= 2 and .rest[-1].answered == true and (.answer | startswith("Long running operation completed")) and .again_status == 204'
check "serve --http: resumed events follow the last one seen, in order" \
  jq -e '(.first.id | split("-")) as [$s, $n] | [.rest[].id | split("-")] | all(.[0] == $s) and (map(.[1] | tonumber) | . == sort and .[0] > ($n | tonumber))' "$TMP/out"

"$PY" "$INTEROP/gateway_slow_client.py" "$GW_URL" >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "serve --http: a client that does not read stalls no other; its answers wait for it" 0 \
  --jq '.slow_unsent == true and .other == "Echo: still here" and .slow_answers == 60000'

# Sessions, by hand.
http "${J[@]}" -d "$INIT" "$GW_URL"
SID=$(sed -n 's/^Mcp-Session-Id: \([0-9a-f]*\).*/\1/ip' "$TMP/head")
check "serve --http: an initialize answered at once is JSON, with its session id" \
  bash -c "has() { grep -qi \"\$1\" '$TMP/head'; }; has '^HTTP/1.1 200' && has '^Content-Type: application/json' && [ -n '$SID' ]"
http "${J[@]}" -H "Mcp-Session-Id: nope" -d '{"jsonrpc":"2.0","id":2,"method":"ping"}' "$GW_URL"
check "serve --http: an unknown session is 404" has_status 404
http "${J[@]}" -d '{"jsonrpc":"2.0","id":2,"method":"ping"}' "$GW_URL"
check "serve --http: a request without a session (not initialize) is 400" has_status 400
http "${J[@]}" -H "Mcp-Session-Id: $SID" -H "MCP-Protocol-Version: 1999-01-01" \
  -d '{"jsonrpc":"2.0","id":2,"method":"ping"}' "$GW_URL"
check "serve --http: an unknown MCP-Protocol-Version is 400" has_status 400
http "${J[@]}" -H "Mcp-Session-Id: $SID" -d 'not json' "$GW_URL"
check "serve --http: a body that is not JSON is 400 with a parse error" \
  bash -c "[[ '$OUT' == 'HTTP/1.1 400'* ]] && grep -q -- '-32700' '$TMP/body'"
http -H "Mcp-Session-Id: $SID" -H "Accept: text/plain" "$GW_URL"
check "serve --http: a GET that does not accept text/event-stream is 406" has_status 406
http "${J[@]}" -H "Mcp-Session-Id: $SID" -H "Connection: close" \
  -d '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"mcp__demo__echo","arguments":{"message":"closing"}}}' "$GW_URL"
check "serve --http: a POST with Connection: close gets its whole SSE answer" \
  grep -q '"text":"Echo: closing"' "$TMP/body"
http -X DELETE -H "Mcp-Session-Id: $SID" "$GW_URL"
check "serve --http: DELETE ends a session" has_status 200
http "${J[@]}" -H "Mcp-Session-Id: $SID" -d '{"jsonrpc":"2.0","id":2,"method":"ping"}' "$GW_URL"
check "serve --http: an ended session is 404" has_status 404

# DNS rebinding: Origin and Host.
http "${J[@]}" -H "Origin: http://evil.example" -d "$INIT" "$GW_URL"
check "serve --http: a foreign Origin is refused (403)" has_status 403
http "${J[@]}" -H "Origin: http://localhost:3000" -d "$INIT" "$GW_URL"
check "serve --http: a loopback Origin is allowed" has_status 200
http "${J[@]}" -H "Host: evil.example" -d "$INIT" "$GW_URL"
check "serve --http: a Host that is not the gateway's is refused (421)" has_status 421
http "${J[@]}" -d "$INIT" "${GW_URL%/mcp}/other"
check "serve --http: another path is 404" has_status 404
kill "$GW_PID"
wait "$GW_PID" 2>/dev/null

gateway 127.0.0.1:0 --allow-origin https://app.example || exit 1
http "${J[@]}" -H "Origin: https://app.example" -d "$INIT" "$GW_URL"
check "serve --http --allow-origin: that Origin is allowed" has_status 200
http "${J[@]}" -H "Origin: https://other.example" -d "$INIT" "$GW_URL"
check "serve --http --allow-origin: others are still refused" has_status 403
kill "$GW_PID"

# The token.
TOK="$TMP/token"
gateway 127.0.0.1:0 --token-file "$TOK" || exit 1
check "serve --http --token-file: a missing file gets a new token (mode 0600)" \
  bash -c "[ \"\$(stat -c %a '$TOK')\" = 600 ] && grep -Eq '^[0-9a-f]{64}$' '$TOK' && grep -q 'new token was written to' '$GW_ERR'"
http "${J[@]}" -d "$INIT" "$GW_URL"
check "serve --http: no token is 401 with WWW-Authenticate: Bearer" \
  bash -c "[[ '$OUT' == 'HTTP/1.1 401'* ]] && grep -qi '^WWW-Authenticate: Bearer' '$TMP/head'"
http "${J[@]}" -H "Authorization: Bearer wrong" -d "$INIT" "$GW_URL"
check "serve --http: a wrong token is 401" has_status 401
GW_TOKEN=$(cat "$TOK") client elicit-no
expect "serve --http: the SDK client with the right token works" 0 \
  --jq '.server.name == "mcphost" and .ask.error.data.kind == "denied"'
client elicit-no
expect "serve --http: the SDK client without the token is refused" 0 \
  --jq '.connect.code == 401 or (.connect.error | test("401|Unauthorized"))'
kill "$GW_PID"

chmod 644 "$TOK"
run --mcp-config "$C" serve --http 127.0.0.1:0 --token-file "$TOK"
expect "serve --http: a token file others can read is refused, named" 2 \
  --err "token-file $TOK: must be a regular file of yours that only you can read"
run --mcp-config "$C" serve --http 0.0.0.0:0
expect "serve --http 0.0.0.0 without a token refuses to start" 2 \
  --err "listens beyond this machine: it needs a token"
run --mcp-config "$C" serve --http nowhere:1
expect "serve --http with a name that is not an address is a usage error" 2 \
  --err "is not an IP address"
run --mcp-config "$C" serve --stdio --token
expect "serve --token without --http is a usage error" 2 --err "are for --http"

# A session that ends while its list waits for a backend: the list's part
# is cancelled, and the gateway serves the next session.
# The backend's first tools/list waits for a line on a FIFO.
SLOW="$TMP/slow"
mkdir -p "$SLOW"
mkfifo "$SLOW/go"
cat >"$SLOW/server.py" <<'PYEOF'
import json, os, sys
d = os.environ["SLOW_DIR"]
first = True
def send(m):
    sys.stdout.write(json.dumps(m) + "\n")
    sys.stdout.flush()
for line in sys.stdin:
    m = json.loads(line)
    with open(os.path.join(d, "seen"), "a") as f:
        f.write(m.get("method", "answer") + "\n")
    if m.get("method") == "initialize":
        send({"jsonrpc": "2.0", "id": m["id"], "result": {
            "protocolVersion": m["params"]["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "slow", "version": "1"}}})
    elif m.get("method") == "tools/list":
        if first:
            first = False
            open(os.path.join(d, "asked"), "w").close()
            with open(os.path.join(d, "go")) as go:
                go.readline()
        send({"jsonrpc": "2.0", "id": m["id"], "result": {"tools": [
            {"name": "t", "inputSchema": {"type": "object"}}]}})
    elif "id" in m:
        send({"jsonrpc": "2.0", "id": m["id"], "result": {}})
PYEOF
CS="$TMP/slow.json"
config_file "$CS" "{\"slow\": {\"command\": \"$PY\", \"args\": [\"$SLOW/server.py\"],
  \"env\": {\"SLOW_DIR\": \"$SLOW\"}}}"
start_gateway "$CS" || exit 1
http "${J[@]}" -d "$INIT" "$GW_URL"
SID=$(sed -n 's/^Mcp-Session-Id: \([0-9a-f]*\).*/\1/ip' "$TMP/head")
curl -s --max-time 30 "${J[@]}" -H "Mcp-Session-Id: $SID" \
  -d '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' "$GW_URL" \
  >"$TMP/slow_list.out" 2>&1 &
LIST_PID=$!
for _ in $(seq 300); do
  [ -e "$SLOW/asked" ] && break
  sleep 0.1
done
http -X DELETE -H "Mcp-Session-Id: $SID" "$GW_URL"
check "serve --http: a session ends while its list waits for a backend" \
  has_status 200
echo go >"$SLOW/go"
http "${J[@]}" -d "$INIT" "$GW_URL"
SID=$(sed -n 's/^Mcp-Session-Id: \([0-9a-f]*\).*/\1/ip' "$TMP/head")
http "${J[@]}" -H "Mcp-Session-Id: $SID" \
  -d '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' "$GW_URL"
check "serve --http: the next session lists the backend's tools" \
  grep -q '"name":"mcp__slow__t"' "$TMP/body"
http "${J[@]}" -H "Mcp-Session-Id: $SID" \
  -d '{"jsonrpc":"2.0","id":3,"method":"prompts/list"}' "$GW_URL"
check "serve --http: a list no backend declares is answered at once, as JSON" \
  bash -c "grep -qi '^Content-Type: application/json' '$TMP/head' && grep -q '\"prompts\":\\[\\]' '$TMP/body'"
stop_gateway
wait "$LIST_PID" 2>/dev/null
expect "serve --http: the gateway ends cleanly after a list it cancelled" 0 \
  --no-err "Sanitizer" --no-err "runtime error"

finish
