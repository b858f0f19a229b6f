#!/usr/bin/env bash
# End to end over stdio against the C demo server.
. "$(dirname "$0")/../lib/lib.sh"
C="$TMP/demo.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}}"

run --config "$C" servers
expect "servers shows the demo connected with its counts" 0 \
  --out "demo  stdio  connected" --out "mcphost-demo 0.1.0"
run --config "$C" --json servers
expect "servers --json" 0 \
  --jq '.[0].name == "demo" and .[0].state == "connected" and .[0].tools == 5 and .[0].resources == 1 and .[0].prompts == 1' \
  --jq '.[0].serverInfo.name == "mcphost-demo" and .[0].protocolVersion == "2025-11-25"'

run --config "$C" tools
expect "tools are listed with the mcp__demo__ prefix" 0 \
  --out "mcp__demo__echo" --out "mcp__demo__add" --out "mcp__demo__slow" \
  --out "mcp__demo__image" --out "mcp__demo__fail"
run --config "$C" --json tools demo
expect "tools --json keeps the original name and schema" 0 \
  --jq 'map(.name) == ["mcp__demo__echo","mcp__demo__add","mcp__demo__slow","mcp__demo__image","mcp__demo__fail"]' \
  --jq '.[0].tool == "echo" and .[0].server == "demo" and .[0].inputSchema.required == ["message"]'

run --config "$C" call mcp__demo__echo message="hello there"
expect "call echo with key=value" 0 --out "Echo: hello there"
run --config "$C" call demo/echo '{"message": "json form"}'
expect "call echo with a JSON object and server/tool" 0 --out "Echo: json form"
run --config "$C" call mcp__demo__add a=2 b=3
expect "key=value values that parse as JSON are numbers" 0 --out "5"
run --config "$C" call mcp__demo__echo message=42
expect "a string parameter keeps a JSON-looking value as text (42)" 0 \
  --out "Echo: 42"
run --config "$C" --json call mcp__demo__add a=0.25 b=0.25
expect "call --json prints the result object" 0 \
  --jq '.content[0].type == "text" and .content[0].text == "0.5"'

run --config "$C" call mcp__demo__fail reason=testing
expect "isError gives exit code 1 and shows the content" 1 \
  --out "failed: testing" --err "reported an error"

run --config "$C" --output-dir "$TMP/files" call mcp__demo__image
expect "an image is written to a file and the path printed" 0 \
  --out "[image image/png" --out "saved to $TMP/files/mcp-resource-"
png=$(ls "$TMP"/files/mcp-resource-*.png 2>/dev/null | head -n 1)
check "the saved image is a PNG" \
  sh -c "[ -n '$png' ] && head -c 8 '$png' | od -An -tx1 | grep -q '89 50 4e 47 0d 0a 1a 0a'"
run --config "$C" call mcp__demo__image
expect "default image directory is private under TMPDIR" 0 \
  --out "saved to $TMP/mcphost-$(id -u)/"
check "the private directory has mode 700" \
  test "$(stat -c %a "$TMP/mcphost-$(id -u)")" = 700

run --config "$C" call mcp__demo__slow steps=3 delay_ms=10
expect "progress notifications reach the caller" 0 \
  --out "done after 3 steps" --err "progress: 1/3 step 1" --err "progress: 3/3 step 3"
run --config "$C" --quiet call mcp__demo__slow steps=2 delay_ms=1
expect "--quiet hides progress" 0 --out "done after 2 steps" --no-err "progress:"

run --config "$C" --timeout 1000 call mcp__demo__slow steps=10 delay_ms=300
expect "--timeout is a hard total, as Claude Code's: progress does not extend it" 5 \
  --err "timed out after 1000 ms" --err "progress: 1/10" --no-out "done after"
MCP_TOOL_TIMEOUT=1000 run --config "$C" call mcp__demo__slow steps=10 delay_ms=300
expect "MCP_TOOL_TIMEOUT is a hard total too" 5 \
  --err "timed out after 1000 ms" --no-out "done after"
run --config "$C" --timeout 1000 call mcp__demo__slow steps=1 delay_ms=3000
expect "a call silent past its deadline times out" 5 --err "timed out after 1000 ms"

run --config "$C" read demo demo://readme
expect "read a resource" 0 --out "mcphost demo readme"
run --config "$C" read demo demo://item/42
expect "read a templated resource" 0 --out "item 42"
run --config "$C" read demo demo://nothing
expect "reading a missing resource (-32002) is exit 6, naming it" 6 \
  --err "Resource not found: demo://nothing"
run --config "$C" resources
expect "resources lists resources and templates" 0 \
  --out "demo  demo://readme  readme  text/plain" --out "demo://item/{id}  (template)"

run --config "$C" prompts
expect "prompts shows arguments" 0 --out "mcp__demo__greet name [style]"
run --config "$C" prompt mcp__demo__greet Ada formal
expect "prompt positional arguments map in declared order" 0 \
  --out "[user]" --out "Say hello to Ada in a formal way."
run --config "$C" prompt demo/greet style=terse name=Bob
expect "prompt NAME=VALUE arguments" 0 --out "Say hello to Bob in a terse way."
run --config "$C" prompt mcp__demo__greet
expect "a missing required prompt argument is a usage error naming it" 2 \
  --err "missing required prompt argument \"name\""
run --config "$C" prompt mcp__demo__greet a b c
expect "too many prompt arguments" 2 --err "too many arguments"

run --config "$C" call mcp__demo__nope
expect "unknown tool: not found" 6 --err "server \"demo\" has no tool named \"nope\""
run --config "$C" call mcp__other__echo
expect "unknown server: not found" 6 --err "no server named \"other\""
run --config "$C" call mcp__demo__echo notkeyvalue
expect "bad tool argument syntax is a usage error" 2 --err "is not KEY=VALUE"
run --config "$C" call mcp__demo__echo '{"message": '
expect "invalid JSON arguments are a usage error" 2 --err "call: invalid JSON near line 1, column"

# A server given on the command line, no file at all.
run --server "d2=$DEMO" call mcp__d2__echo message=cli
expect "a server given with --server" 0 --out "Echo: cli"

# .mcp.json in the working directory is read; its servers need approval
# (tests/integration/test_config.sh has the whole flow).
mkdir -p "$TMP/proj" && cp "$C" "$TMP/proj/.mcp.json"
inproj() {
  (cd "$TMP/proj" && "$MCPHOST" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null)
  RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
}
inproj call mcp__demo__echo message=project
expect ".mcp.json in the working directory: pending until approved" 8 \
  --err "mcphost mcp approve demo"
inproj --approve-project call mcp__demo__echo message=project
expect ".mcp.json in the working directory with --approve-project" 0 \
  --out "Echo: project"
inproj mcp approve demo
inproj call mcp__demo__echo message=project
expect ".mcp.json in the working directory once approved" 0 \
  --out "Echo: project"

# Server names with characters outside [A-Za-z0-9_-] are normalized.
config_file "$TMP/odd.json" "{\"my.demo\": {\"command\": \"$DEMO\"}}"
run --config "$TMP/odd.json" call mcp__my_demo__echo message=odd
expect "normalized server names resolve" 0 --out "Echo: odd"

# Pagination: the demo pages every list when DEMO_PAGE_SIZE is set.
config_file "$TMP/paged.json" "{\"demo\": {\"command\": \"$DEMO\", \"env\": {\"DEMO_PAGE_SIZE\": \"2\"}}}"
run --config "$TMP/paged.json" --json tools
expect "lists follow nextCursor to the end" 0 --jq 'length == 5'
run --config "$TMP/paged.json" call mcp__demo__fail
expect "call finds a tool on a later page" 1 --out "failed: on purpose"

finish
