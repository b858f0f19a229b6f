#!/usr/bin/env bash
# "type": "sdk" (in-process servers, docs/config.md) in the mcphost
# executable, which has none: `servers`, `mcp list` and `mcp get` list
# such an entry as served by the program that embeds mcphost; `tools`,
# `resources`, `prompts`, `call`, `batch`, the shell, the gateway and
# the session daemon skip it without an error and without a failure exit
# status; a command naming it says why; the configuration accepts it
# (Claude Code's "name" key included) and checks what it reads. The
# library side (a server registered and called) is unit_inproc.
. "$(dirname "$0")/../lib/lib.sh"
command -v jq >/dev/null || skip_test "no jq"
command -v python3 >/dev/null || skip_test "no python3 for the gateway's client"

C="$TMP/servers.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"},
  \"calc\": {\"type\": \"sdk\"},
  \"sdkname\": {\"type\": \"sdk\", \"name\": \"calc\"}}"
ONLY="$TMP/only.json"
config_file "$ONLY" '{"calc": {"type": "sdk"}}'
WHY='served by the program that embeds mcphost ("type": "sdk"); the mcphost executable has no in-process servers'

# ---- listing ----
run --strict-mcp-config --mcp-config "$C" servers
expect "servers: the sdk entries are listed as in-process, with why" 0 \
  --out "demo     stdio  connected" \
  --out "calc     sdk    in-process: $WHY" \
  --out "sdkname  sdk    in-process: $WHY" --no-out "failed"
check "servers: the configuration is accepted without a word" \
  test -z "$ERR"
run --strict-mcp-config --mcp-config "$C" servers --json
expect "servers --json: state in-process, type sdk, the reason" 0 \
  --jq '[.[] | select(.name == "calc")][0] | .state == "in-process" and .type == "sdk" and (.error | contains("embeds mcphost"))' \
  --jq '[.[] | select(.name == "demo")][0].state == "connected"'
run --strict-mcp-config --mcp-config "$C" mcp list
expect "mcp list: in-process, no health check failure" 0 \
  --out "in-process: $WHY" --no-out "failed"
run --strict-mcp-config --mcp-config "$C" mcp get sdkname
expect "mcp get: the entry's type and state" 0 \
  --out "Type: sdk" --out "Status: in-process: $WHY"

# ---- commands over every server skip it ----
run --strict-mcp-config --mcp-config "$C" tools
expect "tools: the demo's tools, nothing of the sdk entries, exit 0" 0 \
  --out "mcp__demo__echo" --no-out "calc"
check "tools: no error about the sdk entries" test -z "$ERR"
run --strict-mcp-config --mcp-config "$ONLY" tools
expect "tools with only an sdk entry: nothing, exit 0" 0
check "tools with only an sdk entry: no error" test -z "$ERR$OUT"
for cmd in resources prompts; do
  run --strict-mcp-config --mcp-config "$C" $cmd
  expect "$cmd: the sdk entries skipped, exit 0" 0 --no-err "calc"
done
run --strict-mcp-config --mcp-config "$C" call demo/echo message=hi
expect "call: another server's tool, the sdk entries not a word" 0 \
  --out "Echo: hi"
check "call: nothing on stderr" test -z "$ERR"

# ---- a command naming it ----
run --strict-mcp-config --mcp-config "$C" call calc/add a=1 b=2
expect "call calc/add: refused, saying who serves it (exit 8)" 8 \
  --err "server \"calc\" (dynamic scope) is in-process: $WHY"
run --strict-mcp-config --mcp-config "$C" tools sdkname
expect "tools SERVER of an sdk entry: the same" 8 --err "is in-process"

# ---- batch ----
batch_in() {
  printf '%s\n' "$@" | "$MCPHOST" --strict-mcp-config --mcp-config "$C" \
    batch >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
batch_in '{"id": 1, "list": "tools"}' \
  '{"id": 2, "call": "demo/echo", "arguments": {"message": "x"}}'
expect "batch: a list over every server skips them, a call runs" 0 \
  --jq 'select(.id == 1) | [.result.tools[].server] | unique == ["demo"]' \
  --jq 'select(.id == 2) | .result.content[0].text == "Echo: x"'
check "batch: nothing on stderr" test -z "$ERR"

# ---- the shell ----
printf '%s\n' 'tools' 'call demo/echo message=sh' |
  "$MCPHOST" --strict-mcp-config --mcp-config "$C" shell \
    >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "shell: the demo's tools and call, the sdk entries skipped" 0 \
  --out "mcp__demo__echo" --out "Echo: sh" --no-out "calc" --no-err "calc"

# ---- the gateway ----
# gateway_tools CONFIG: initialize and tools/list through serve --stdio;
# OUT the tools/list answer.
gateway_tools() {
  python3 - "$MCPHOST" "$1" >"$TMP/out" 2>"$TMP/err" <<'PY'
import json, subprocess, sys
p = subprocess.Popen([sys.argv[1], "--strict-mcp-config", "--mcp-config",
                      sys.argv[2], "serve", "--stdio"],
                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def send(m):
    p.stdin.write(json.dumps(m) + "\n")
    p.stdin.flush()
def answer(i):
    for line in p.stdout:
        m = json.loads(line)
        if m.get("id") == i:
            return m
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"}}})
answer(1)
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
print(json.dumps(answer(2)))
p.stdin.close()
sys.exit(p.wait())
PY
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
gateway_tools "$C"
expect "gateway: the demo's tools only, no error about the sdk entries" 0 \
  --jq '[.result.tools[].name] | index("mcp__demo__echo") != null' \
  --jq '[.result.tools[].name | select(startswith("mcp__calc"))] == []' \
  --no-err "calc"

# ---- the session daemon ----
export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
on_exit "'$MCPHOST' --strict-mcp-config --mcp-config '$C' session stop >/dev/null 2>&1"
run --strict-mcp-config --mcp-config "$C" session start --idle 30
expect "session start with sdk entries" 0 --out "session started"
run --strict-mcp-config --mcp-config "$C" tools
expect "tools through the session: the demo's, no error" 0 \
  --out "mcp__demo__echo" --no-out "calc" --no-err "calc"
run --strict-mcp-config --mcp-config "$C" servers
expect "servers through the session: in-process" 0 \
  --out "calc     sdk    in-process: $WHY"
run --strict-mcp-config --mcp-config "$C" session stop
expect "session stop" 0

# ---- the configuration ----
config_file "$TMP/bad.json" '{"calc": {"type": "sdk", "nmae": "calc"},
  "num": {"type": "sdk", "name": 5}}'
run --strict-mcp-config --mcp-config "$TMP/bad.json" servers
expect "a misspelt key of an sdk entry: did you mean \"name\"" 0 \
  --err 'server "calc": unknown key "nmae" (did you mean "name"?)'
expect "an sdk entry whose \"name\" is not a string: an error naming it" 0 \
  --err 'server "num": "name" must be a non-empty string: the in-process server'"'"'s name (at mcpServers.num.name)' \
  --no-out "num"
run --strict-mcp-config --mcp-config "$C" mcp add-json -s user inproc \
  '{"type": "sdk", "name": "calc"}'
expect "mcp add-json: an sdk entry is accepted" 0
run mcp get inproc
expect "mcp get: the added sdk entry" 0 --out "Type: sdk" --out "in-process"
run mcp add -s user -t sdk added
expect "mcp add -t sdk NAME: {\"type\": \"sdk\"}" 0 \
  --out "Added sdk MCP server added (in-process, served by the program that embeds mcphost)"
check "mcp add -t sdk wrote the entry alone" \
  jqf '.mcpServers.added == {"type": "sdk"}' "$XDG_CONFIG_HOME/mcphost/settings.json"
run mcp add -s user -t sdk withurl http://127.0.0.1:1/mcp
expect "mcp add -t sdk with a URL: refused, saying why" 2 \
  --err "an sdk server takes no command, URL, -e or -H"
run mcp add-json -s user badname '{"type": "sdk", "name": 5}'
expect "mcp add-json: a \"name\" that is not a string is refused, naming it" 2 \
  --err 'the new entry: server "badname": "name" must be a non-empty string: the in-process server'"'"'s name (at badname.name)'

finish
