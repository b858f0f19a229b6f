#!/usr/bin/env bash
# The command line: global options after the command, each command's own
# --help, prompt arguments by name.
. "$(dirname "$0")/../lib/lib.sh"
C="$TMP/demo.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}}"

# Global options after the command, where they cannot be an argument.
run --config "$C" tools --json
expect "tools --json is --json, not a server named --json" 0 \
  --jq '.[0].name == "mcp__demo__echo"'
run --config "$C" tools demo --json
expect "tools SERVER --json" 0 --jq 'map(.server) | unique == ["demo"]'
run --config "$C" tools -v
expect "tools -v is -v" 0 --out "mcp__demo__echo" --no-err "no server named"
run --config "$C" tools -x
expect "an unknown option after a command that takes none is a usage error" 2 \
  --err 'tools: unknown option "-x"' --no-err "no server named"
run --config "$C" call demo/echo --json message=hi
expect "call TOOL --json KEY=VALUE" 0 --jq '.content[0].text == "Echo: hi"'
run --config "$C" call --json demo/echo message=hi
expect "call --json TOOL KEY=VALUE" 0 --jq '.content[0].text == "Echo: hi"'
run --config "$C" call demo/echo message=hi --json
expect "call: --json after the arguments too" 0 \
  --jq '.content[0].text == "Echo: hi"'
run --config "$C" call demo/echo '{"message": "hi"}' -q
expect "after a JSON argument too" 0 --out "Echo: hi"
run --config "$C" call demo/add b=2 --args '{"a": 1}'
expect "call's own options after the arguments" 0 --out "3"
run --config "$C" call demo/echo message=hi -- --json
expect "-- ends the options: a word after it is an argument" 2 \
  --err 'argument "--json" is not KEY=VALUE'
run --config "$C" call demo/echo --no-validate -- --k=v message=hi
expect "an argument after -- may begin with '-'" 0 --out "Echo: hi"
run --config "$C" call demo/echo message=hi --follow-link
expect "a misspelt option of call is named, with the one meant" 2 \
  --err 'call: unknown option "--follow-link" (did you mean "--follow-links"?)'
run --help
expect "mcphost --help lists call's options" 0 \
  --out "call TOOL [--no-validate] [--follow-links[=N]] [--task] [--detach]"

# Messages about the arguments of call say what is wrong with them.
run --config "$C" call demo/add '{"a": 1}' b=2
expect "a JSON object and KEY=VALUE words: use --args" 2 \
  --err 'a JSON object takes no KEY=VALUE words after it, but "b=2" follows' \
  --err "--args JSON" --no-err "options go before"
run --config "$C" call demo/add '[1, 2]'
expect "a JSON array is no arguments object" 2 \
  --err "call: the arguments must be a JSON object" --err "not an array"
run --config "$C" call demo/add '{"a": }'
expect "invalid JSON says where" 2 \
  --err "call: invalid JSON near line 1, column 7"
run --config "$C" call demo/add --args @"$TMP/missing.json"
expect "--args @FILE names the file and the error" 2 \
  --err "--args: cannot read $TMP/missing.json: No such file or directory" \
  --no-err "args=@"
run --config "$C" mcp add-json j2 '{"command":}'
expect "mcp add-json: invalid JSON, and where" 2 \
  --err "invalid JSON near line 1, column 12" --no-err "not a JSON object"
run --config "$C" mcp add-json j2 '["x"]'
expect "mcp add-json: not an object" 2 --err "not an array"

# A misspelt name gets "did you mean", whatever the form.
run --config "$C" call demo/ech message=hi
expect "call SERVER/TOOL of an unknown tool suggests the tool" 6 \
  --err 'server "demo" has no tool named "ech" (did you mean "echo"?)'
batch_run "$C" '{"id":1,"call":"demo/ech","args":["message=hi"]}'
expect "batch likewise" 0 --jq '.error.message | contains("did you mean \"echo\"")'
run --config "$C" --json prompt demo/gret
expect "prompt: the --json error names the server" 6 \
  --jq '.error.server == "demo"' --jq '.error.message | contains("did you mean")'
run --config "$C" --json prompt demo/greet country=FR
expect "a prompt's argument error names the server too" 2 \
  --jq '.error.server == "demo"'

run --config "$C" call demo/echo --timeout 0 message=hi
expect "--timeout after the command is parsed as --timeout" 2 \
  --err "--timeout needs a positive number"
run --config "$C" call demo/echo -q --timeout=5000 message=hi
expect "-q and --timeout=MS after the command" 0 --out "Echo: hi"
run --config "$C" read demo demo://readme --json
expect "read SERVER URI --json" 0 --jq '.contents[0].uri == "demo://readme"'
run --config "$C" prompt demo/greet --json Ada
expect "prompt PROMPT --json ARG" 0 --jq '.messages | length > 0'
run --config "$C" prompt demo/greet -- -v
expect "prompt: -- makes the next word an argument" 0 --out "-v"
run --config "$C" mcp list --json
expect "mcp list --json" 0 --jq '.[0].name == "demo"'
run --config "$C" mcp get demo --json
expect "mcp get NAME --json" 0 --jq '.name == "demo"'

# Every command has its own --help, with or without servers configured.
for cmd in servers tools resources prompts call read prompt batch plugins; do
  run "$cmd" --help
  expect "$cmd --help" 0 --out "usage: mcphost [OPTIONS] $cmd" \
    --no-err "no servers configured"
done
run call -h
expect "call -h" 0 --out "usage: mcphost [OPTIONS] call TOOL"
run batch --help
expect "batch --help names subscribe, unsubscribe, roots and list of all" 0 \
  --out '"subscribe":SERVER' --out '"unsubscribe"' --out '"roots":[DIR...]' \
  --out 'without "server": every server'
run mcp list --help
expect "mcp list --help shows mcp's help" 0 --out "usage: mcphost [OPTIONS] mcp COMMAND"
run --config "$C" channels --help
expect "a plugin's command has --help too" 0 \
  --out "usage: mcphost [OPTIONS] channels listen"

# Prompt arguments: NAME=VALUE must name a declared argument.
run --config "$C" prompt demo/greet name=Ada country=FR
expect "an undeclared NAME=VALUE is a usage error naming the declared ones" 2 \
  --err 'has no argument "country"' --err "its arguments: name, style"
run --config "$C" prompt demo/greet Ada country=FR
expect "also after a positional value" 2 --err 'has no argument "country"'
run --config "$C" prompt demo/greet name=Ada style=formal
expect "declared NAME=VALUE pairs work" 0 --out "Ada"
run --config "$C" prompt demo/greet "1+1=2"
expect "a value that is not NAME=VALUE (1+1=2) stays positional" 0 --out "1+1=2"
run --config "$C" prompt demo/greet name=a=b
expect "NAME=VALUE passes a value holding '='" 0 --out "a=b"

# Unknown commands and subcommands.
run add x -- true
expect "mcphost add: did you mean mcp add" 2 \
  --err 'unknown command "add" (did you mean "mcp add"?)'
run mcp lst
expect "mcp lst: did you mean list" 2 \
  --err 'unknown mcp command "lst" (did you mean "list"?)'
run --config "$C" mcp get dem
expect "mcp get: the server meant" 6 --err '(did you mean "demo"?)'
run mcp add -s user every -- true
run mcp remove evry
expect "mcp remove: the server meant" 6 \
  --err 'no MCP server named "evry"' --err '(did you mean "every"?)'
run mcp remove every
run session strat
expect "session strat: did you mean start" 2 \
  --err 'unknown command "strat" (did you mean "start"?)'
# Tables: a failure's reason has its first line in the row and the
# server's stderr lines below it; the columns after a long command stay
# aligned (it is shown whole).
F="$TMP/fail.json"
LONG="$TMP/demo-server-with-a-long-name-$(printf 'x%.0s' $(seq 60))"
ln -s "$DEMO" "$LONG"
config_file "$F" "{\"bad\": {\"command\": \"sh\", \"args\": [\"-c\",
  \"echo 'fatal: boom' >&2; exit 3\"]}, \"long\": {\"command\": \"$LONG\"},
  \"demo\": {\"command\": \"$DEMO\"}}"
run --strict-mcp-config --config "$F" servers
expect "servers: the reason's first line in the row, stderr below it" 3 \
  --out "failed: server process exited with status 3
    stderr (last lines):
    fatal: boom" --no-out "<U+000A>"
run --strict-mcp-config --config "$F" mcp list
# Where each row's SOURCE column begins: one place for every row.
cols=$(printf '%s\n' "$OUT" | python3 -c '
import sys
print(len({l.find(" -  ") for l in sys.stdin.read().splitlines()[1:]}))')
check "mcp list: the columns after a long command stay aligned" [ "$cols" = 1 ]
# The version has one home, debian/changelog's first line (CMakeLists.txt
# reads it): --version says the same.
CHANGELOG_VERSION=$(sed -n '1s/^mcphost (\([0-9.]*\)) .*/\1/p' \
  "$SRCDIR/debian/changelog")
run --version
expect "--version names debian/changelog's version ($CHANGELOG_VERSION)" 0 \
  --out "mcphost $CHANGELOG_VERSION (plugin ABI"
finish
