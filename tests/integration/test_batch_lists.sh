#!/usr/bin/env bash
# batch lists: what a server does not offer is an empty list, as the
# `prompts` command shows it; a list without "server" covers every server.
. "$(dirname "$0")/lib.sh"
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

run --json --config "$C" batch extra
expect "batch: under --json a usage error is an object on stdout too" 2 \
  --jq '.error.code == 2 and (.error.message | test("takes no arguments"))'
finish
