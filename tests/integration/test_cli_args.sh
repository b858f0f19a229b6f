#!/usr/bin/env bash
# The command line: global options after the command, each command's own
# --help, prompt arguments by name.
. "$(dirname "$0")/lib.sh"
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
expect "after the first KEY=VALUE, --json is an argument of the tool" 2 \
  --err 'argument "--json" is not KEY=VALUE'
run --config "$C" call demo/echo '{"message": "hi"}' -v
expect "after a JSON argument too" 2 --err 'but "-v" follows it'
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
finish
