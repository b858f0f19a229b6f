#!/usr/bin/env bash
# batch lists: what a server does not offer is an empty list, as the
# `prompts` command shows it; a list without "server" covers every server.
. "$(dirname "$0")/../lib/lib.sh"
C="$TMP/two.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}, \"h\": {\"command\": \"$HOSTILE\"}}"
batch_with() { local cfg=$1; shift; printf '%s\n' "$@" >"$TMP/req"
  "$MCPHOST" --config "$cfg" batch <"$TMP/req" >"$TMP/out" 2>"$TMP/err"
  RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
}

run --config "$C" prompts h
expect "prompts on a server without prompts prints nothing, exit 0" 0 --no-out "h"
batch_with "$C" '{"id":1,"list":"prompts","server":"h"}'
expect "batch: a list the server does not offer is empty, not an error" 0 \
  --out '{"id":1,"result":{"prompts":[]}}'

batch_with "$C" '{"id":2,"list":"tools"}'
expect "batch: a list without \"server\" gathers every server's items" 0 \
  --jq '.id == 2 and (.result.tools | map(.server) | unique) == ["demo", "h"]' \
  --jq '.result.tools | map(select(.server == "demo" and .name == "echo")) | length == 1' \
  --jq '.result | has("errors") | not'

config_file "$TMP/bad.json" "{\"demo\": {\"command\": \"$DEMO\"}, \"gone\": {\"command\": \"$TMP/no-such-server\"}}"
batch_with "$TMP/bad.json" '{"id":3,"list":"tools"}' '{"id":4,"list":"nothing"}'
expect "batch: servers that failed are listed under \"errors\" with their exit code" 0 \
  --out '"id":3' \
  --out '"errors":[{"server":"gone","exit":3,' \
  --out '{"id":4,"error":{"exit":2,"message":"\"list\" must be tools, resources or prompts"}}'

batch_with "$C" '{"id":5,"call":"h/nope"}' '{"id":6,"call":"mcp__h__nope"}' \
  '{"id":7,"call":"h/echo","arguments":{"message":"hi"}}'
expect "batch: an unknown tool is exit 6 in both forms, as with call" 0 \
  --out '{"id":5,"error":{"exit":6,"message":"server \"h\" has no tool named \"nope\""}}' \
  --out '{"id":6,"error":{"exit":6,' --out '"id":7,"result":{"content":[{"type":"text","text":"Echo: hi"}'
if [ -f "$EVERYTHING" ]; then
  config_file "$TMP/every.json" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]}}"
  batch_with "$TMP/every.json" '{"id":8,"call":"every/nope"}'
  expect "batch: also where the server would answer with an isError result" 0 \
    --out '{"id":8,"error":{"exit":6,'
fi

run --json --config "$C" batch extra
expect "batch: under --json a usage error is an object on stdout too" 2 \
  --jq '.error.code == 2 and (.error.message | test("takes no arguments"))'
finish
