#!/usr/bin/env bash
# mcphost serve --stdio, the gateway (docs/gateway.md): the TS SDK's
# client (tests/interop/gateway_client.mjs) against the gateway fronting
# server-everything, the demo server, the probe server, a server whose
# tool list grows (tests/interop/gateway_backend.mjs) and one that cannot
# start: names as `tools` prints them, calls through the pipeline (a deny
# rule, an "ask" refused without elicitation and put to the client with
# it), resources, templates, prompts, progress, cancellation forwarded to
# the backend, list_changed on a changed list and on a crash, a backend's
# own elicitation, roots/list and sampling forwarded to the client, JSON-RPC
# error codes, protocol versions, --passthrough.
. "$(dirname "$0")/../lib/lib.sh"

EXTRA=",
  \"bad\": {\"command\": \"$TMP/no-such-server\"}"
. "$(dirname "$0")/../lib/gateway_setup.sh"

# client SCENARIO ARGS...: the SDK client plays SCENARIO against
# mcphost ARGS; sets RC, OUT (its JSON) and ERR (the gateway's stderr).
client() {
  local scenario=$1
  shift
  node "$INTEROP/gateway_client.mjs" "$scenario" "$MCPHOST" "$@" \
    >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

client main --mcp-config "$C" serve --stdio
expect "serve: initialize gives the gateway's capabilities" 0 \
  --jq '.server.name == "mcphost" and .capabilities.tools.listChanged == true and .capabilities.prompts.listChanged == true'
expect "serve: tools as mcp__<server>__<tool> of every backend that starts" 0 \
  --jq '(.tools | index("mcp__demo__echo")) != null and (.tools | index("mcp__every__trigger-long-running-operation")) != null and (.tools | index("mcp__grow__wait")) != null and all(.tools[]; startswith("mcp__"))'
expect "serve: a backend that cannot start is left out and named on stderr" 0 \
  --jq 'all(.tools[]; startswith("mcp__bad__") | not)' \
  --err 'server "bad" failed: cannot start'
expect "serve: calls reach the backends" 0 \
  --jq '.echo == "Echo: hi" and .every_echo == "Echo: yo"'
expect "serve: a deny rule refuses the call (JSON-RPC error, kind denied)" 0 \
  --jq '.denied.error.code == -32603 and .denied.error.data.kind == "denied" and (.denied.error.message | contains("deny rule \"mcp__demo__add\""))'
expect "serve: an ask is refused when the client has no elicitation" 0 \
  --jq '.ask.error.data.kind == "denied" and (.ask.error.message | contains("declared no elicitation"))'
expect "serve: an unknown tool is invalid params" 0 \
  --jq '.unknown_tool.error.code == -32602 and .unknown_tool.error.data.kind == "not_found"'
expect "serve: a call to a backend that cannot start says why" 0 \
  --jq '.bad_backend_tool.error.code == -32603 and .bad_backend_tool.error.data.server == "bad"'
expect "serve: resources and templates of the backends, as they are" 0 \
  --jq '(.resources | index("demo://readme")) != null and (.templates | index("demo://item/{id}")) != null'
expect "serve: resources/read goes to the backend that listed the URI" 0 \
  --jq '.read | startswith("mcphost demo readme")'
expect "serve: an unknown URI is resource not found" 0 \
  --jq '.read_unknown.error.code == -32002'
expect "serve: prompts as mcp__<server>__<prompt>, prompts/get" 0 \
  --jq '(.prompts | index("mcp__demo__greet")) != null and (.prompts | index("mcp__every__simple-prompt")) != null and .prompt == "Say hello to Ada in a friendly way."'
# The SDK's client handles a notification a turn later than a response:
# the last progress, read with the result, may come too late for it.
expect "serve: progress reaches the client under its token" 0 \
  --jq '.progress.seen[0:3] == [1,2,3] and (.progress.text | startswith("Long running operation completed"))'
expect "serve: ping, and an unknown method is method not found" 0 \
  --jq '.ping == "pong" and .no_method.error.code == -32601'
expect "serve: a cancelled call is cancelled at the backend" 0 \
  --jq '.cancel.rejected == true and .cancel.backend_saw_cancel == true'
expect "serve: a backend's changed list is announced and listed" 0 \
  --jq '.list_changed.told == true and .list_changed.grown == true'
expect "serve: a backend that dies fails its call and is announced" 0 \
  --jq '.crash.call.data.server == "probe" and .crash.told == true'

client elicit-yes --mcp-config "$C" serve --stdio --server demo
expect "serve: an ask goes to a client with elicitation, which allows it" 0 \
  --jq '.ask == "failed: r" and (.asked[0] | contains("mcp__demo__fail"))'
client elicit-no --mcp-config "$C" serve --stdio --server demo
expect "serve: a client that declines refuses the call" 0 \
  --jq '.ask.error.data.kind == "denied" and (.ask.error.message | contains("refused by the gateway'"'"'s client"))'

client forward --mcp-config "$C" serve --stdio --server grow
expect "serve: a backend's elicitation, roots/list and sampling reach the client that made the call, and its answers go back" 0 \
  --jq '(.ask.text | fromjson) == {"action":"accept","content":{"name":"Ada (asked: Your name?)"}} and (.roots.text | fromjson) == ["file:///client/root"] and .sample.text == "hi from the client" and .seen == {"elicit":1,"roots":1,"sampling":1}'
client forward-cancel --mcp-config "$C" serve --stdio --server grow
expect "serve: a backend that cancels its elicitation has the client told, with the client's id" 0 \
  --jq '.ask == "cancelled" and .seen.elicit == 1 and .seen.cancelled == "the backend changed its mind"'
client forward-none --mcp-config "$C" serve --stdio --server grow
expect "serve: a client without them: elicitation declined, the gateway's roots, no sampling" 0 \
  --jq '(.ask.text | fromjson) == {"action":"decline"} and .roots.isError == false and (.roots.text | contains("client/root") | not) and .sample.isError == true and .seen == {"elicit":0,"roots":0,"sampling":0}'

client passthrough --mcp-config "$C" serve --stdio --server demo --passthrough
expect "serve --passthrough: the backend's names, info and capabilities" 0 \
  --jq '.server.name == "mcphost-demo" and .tools == ["echo","add","slow","image","fail"] and .echo == "Echo: hi" and .prompts == ["greet"] and .capabilities.logging == {}'

MCPHOST_MAX_OUTPUT_CHARS=40 client cut --mcp-config "$C" serve --stdio --server demo
expect "serve: a text result is cut as call cuts it (MCPHOST_MAX_OUTPUT_CHARS)" 0 \
  --jq '(.echo | startswith("Echo: xxx")) and (.echo | length) < 200' \
  --err "cut"

# An IDE: only the two tools a model may see are the gateway's.
WS="$TMP/project"
mkdir -p "$WS"
export CLAUDE_CONFIG_DIR="$TMP/claude"
start_node "$SRCDIR/tests/servers/fake_ide.mjs" --dir "$CLAUDE_CONFIG_DIR/ide" \
  --transport sse --workspace "$WS" --log "$TMP/ide.log" --token "t0k-aaaabbbbccccdddd" || exit 1
cd "$WS" || exit 1
client ide --ide serve --stdio --server ide
cd - >/dev/null || exit 1
expect "serve: an IDE's tools are the two model-visible ones; the others are not callable" 0 \
  --jq '(.tools | sort) == ["mcp__ide__executeCode", "mcp__ide__getDiagnostics"] and .hidden.error.code == -32602 and .visible == false'

# Bad command lines: a sentence and an exit code, never a crash.
run --mcp-config "$C" serve --stdio --passthrough
expect "serve --passthrough without one --server is a usage error" 2 \
  --err "needs exactly one --server NAME"
run --mcp-config "$C" serve --stdio --server demo --server every --passthrough
expect "serve --passthrough with two servers is a usage error" 2 \
  --err "needs exactly one --server NAME"
run --mcp-config "$C" serve --stdio --server nope
expect "serve --server names a server that is not configured" 6 \
  --err 'no server named "nope" is configured'
run --mcp-config "$C" serve
expect "serve without --stdio or --http says what it needs" 2 --err "serve needs either --stdio"

printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' |
  "$MCPHOST" --mcp-config "$C" serve --stdio --server bad --passthrough >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "serve --passthrough: a backend that cannot start fails initialize, named" 0 \
  --jq '.id == 1 and .error.code == -32603 and (.error.message | contains("server \"bad\" failed"))'

# Raw lines: protocol versions and malformed input.
raw() {
  printf '%s\n' "$@" | "$MCPHOST" --mcp-config "$C" serve --stdio --server demo \
    >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
init() { printf '{"jsonrpc":"2.0","id":%s,"method":"initialize","params":{"protocolVersion":"%s","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' "$1" "$2"; }
raw "$(init 1 2024-11-05)"
expect "serve: an older protocol version the client asks for is kept" 0 \
  --jq '.result.protocolVersion == "2024-11-05"'
raw "$(init 1 1999-01-01)"
expect "serve: an unknown version is answered with the newest" 0 \
  --jq '.result.protocolVersion == "2025-11-25"'
raw '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' 'not json' \
  '{"jsonrpc":"2.0","id":{"x":1},"method":"ping"}'
all_lines() { [ "$(printf '%s' "$OUT" | jq -s "$1")" = true ]; }
check "serve: requests before initialize, bad JSON and bad ids are errors" \
  all_lines '[.[].error.code] == [-32600, -32700, -32600] and .[0].id == 1 and .[1].id == null'

# A backend connecting (its first listing) is no change: a client is told
# of list_changed only for a kind it listed, and only after that list.
cat >"$TMP/first_list.py" <<'PY'
import json, subprocess, sys
# Initialize, ping, then tools/list; prints what the gateway sends up to
# that answer, one method (or "response N") a line.
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, text=True)
def send(m):
    p.stdin.write(json.dumps(dict(m, jsonrpc="2.0")) + "\n")
    p.stdin.flush()
def until(i):
    for line in p.stdout:
        m = json.loads(line)
        print(m.get("method") or "response %s" % m.get("id"), flush=True)
        if m.get("id") == i and "method" not in m:
            return
send({"id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}})
until(1)
send({"method": "notifications/initialized"})
send({"id": 2, "method": "ping"})
until(2)
send({"id": 3, "method": "tools/list"})
until(3)
p.stdin.close()
p.wait()
PY
python3 "$TMP/first_list.py" "$MCPHOST" --mcp-config "$C" serve --stdio \
  >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
expect "serve: no list_changed before the client's first list (backends connecting)" 0 \
  --out "response 3" --no-out "list_changed"
# A read of a URI the gateway has not seen lists the backends' resources
# (once), then goes to the one that has it; an unknown one is not found.
run -s "gw=$MCPHOST --mcp-config $C serve --stdio" read gw demo://readme
expect "serve: a one-shot read through the gateway finds its backend" 0 \
  --out "mcphost demo readme"
run -s "gw=$MCPHOST --mcp-config $C serve --stdio" read gw zzz://nothing
expect "serve: a URI no backend lists is not found (exit 6)" 6 \
  --err 'resource "zzz://nothing" not found'
finish
