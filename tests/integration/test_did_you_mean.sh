#!/bin/bash
# Did you mean: an unknown server, tool, prompt or command gets the
# closest names (edit distance over normalized names) in its error, exit
# 6 (2 for a command), the same through call, batch and the listings.
# (Tools: test_tool.sh.)
. "$(dirname "$0")/../lib/lib.sh"
[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"

E="every=node $EVERYTHING stdio"

run -q --server "$E" tools evry
expect "tools SERVER: a misspelt server" 6 \
  --err 'no server named "evry" is configured (did you mean "every"?)'
run -q --server "$E" call mcp__evry__echo message=x
expect "call mcp__SERVER__TOOL: a misspelt server" 6 \
  --err '(did you mean "every"?)'
run -q --server "$E" call Every/echo message=x
expect "case folded" 6 --err '(did you mean "every"?)'
run -q --server "$E" read evry demo://x
expect "read SERVER: a misspelt server" 6 --err '(did you mean "every"?)'
run -q --server "$E" tools nothing-like-it
expect "nothing close: no suggestion" 6 --no-err "did you mean"
printf '%s\n' '{"id":1,"read":"evry","uri":"x"}' \
  '{"id":2,"call":"evry/echo","args":["message=x"]}' |
  "$MCPHOST" -q --server "$E" batch >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
v=$(jq -s 'map(.error.exit == 6 and
  (.error.message | test("did you mean \"every\""))) == [true, true]' <<<"$OUT")
[ "$v" = true ] && ok "batch: the same suggestion for read and call" ||
  bad "batch: the same suggestion for read and call"

run -q --server "$E" prompt every/simple-promt
expect "a misspelt prompt" 6 \
  --err 'has no prompt named "simple-promt" (did you mean "simple-prompt"?)'
run -q --server "$E" prompt mcp__every__simple_promp
expect "a misspelt prompt, mcp__ form" 6 --err '(did you mean "simple-prompt"?)'

run tols
expect "a misspelt command" 2 \
  --err 'unknown command "tols" (did you mean "tools"?)'
run frobnicate-quux
expect "no close command: no suggestion" 2 --err 'unknown command "frobnicate-quux"' \
  --no-err "did you mean"

finish
