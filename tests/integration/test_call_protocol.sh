#!/bin/bash
# How a tool call meets the server's answer and the schema's rules:
# null for a parameter the schema does not require is sent as given (a
# required one is still refused locally, exit 2); a -32601 "Unknown
# tool" answer (fastmcp's) is "no such tool", exit 6 with the closest
# names, as a -32602 one is.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the typed server"

TYPED="$SRCDIR/tests/servers/typed_server.py"
C="$TMP/typed.json"
config_file "$C" "{\"t\": {\"command\": \"python3\", \"args\": [\"$TYPED\"]}}"

run --config "$C" call t/typed s=x b:=null
expect "null for an optional boolean is sent" 0 --out '{"b":null,"s":"x"}'
run --config "$C" call mcp__t__typed '{"s":"x","i":null,"nest":{"depth":null}}'
expect "null for optional parameters, at any depth, is sent" 0 \
  --out '{"i":null,"nest":{"depth":null},"s":"x"}'
run --config "$C" call t/typed s:=null
expect "null for a required parameter is still refused" 2 \
  --err 'parameter "s" takes string, not null'
run --config "$C" call t/strict n:=null
expect "null for a required integer is still refused" 2 \
  --err 'parameter "n" takes integer, not null'
printf '%s\n' '{"id":1,"call":"t/typed","args":["s=x","b:=null"]}' |
  "$MCPHOST" -q --config "$C" batch >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "batch sends it the same" 0 --out '{\"b\":null,\"s\":\"x\"}'

run --config "$C" call t/typd s=x
expect "-32601 Unknown tool: no such tool, with the closest name" 6 \
  --err 'server "t" has no tool named "typd" (did you mean "typed"?)'
run --config "$C" --json call t/typd s=x
expect "--json: the same error, exit 6" 6 --jq '.error.code == 6'
printf '%s\n' '{"id":1,"call":"t/typd","args":["s=x"]}' |
  "$MCPHOST" -q --config "$C" batch >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
v=$(jq -r '.error.exit == 6 and (.error.message | test("did you mean \"typed\""))' <<<"$OUT")
[ "$v" = true ] && ok "batch: exit 6 and the suggestion" ||
  bad "batch: exit 6 and the suggestion"
finish
