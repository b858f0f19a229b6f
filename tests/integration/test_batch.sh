#!/usr/bin/env bash
# mcphost batch: JSON requests on stdin, one JSON answer line each.
. "$(dirname "$0")/lib.sh"
C="$TMP/demo.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}}"

batch() { # runs batch with the lines given as arguments on stdin
  printf '%s\n' "$@" | "$MCPHOST" --config "$C" batch >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
}

batch '{"id":1,"call":"mcp__demo__echo","arguments":{"message":"a"}}' \
      '{"id":2,"call":"demo/add","arguments":{"a":1,"b":2}}' \
      '{"id":"r","read":"demo","uri":"demo://item/9"}' \
      '{"id":4,"prompt":"mcp__demo__greet","arguments":{"name":"Z"}}' \
      '{"id":5,"list":"tools","server":"demo"}'
OUT=$(jq -sc 'map({(.id|tostring): .}) | add' "$TMP/out")
expect "each request gets one answer, matched by id" 0 \
  --jq 'keys == ["1","2","4","5","r"]'
expect "answers carry results" 0 \
  --jq '."1".result.content[0].text == "Echo: a"' \
  --jq '."2".result.content[0].text == "3"' \
  --jq '."r".result.contents[0].text == "item 9"' \
  --jq '."4".result.messages[0].content.text == "Say hello to Z in a friendly way."' \
  --jq '."5".result.tools | length == 5'

batch '{"id":1,"call":"mcp__demo__nope"}' 'garbage' '{"id":3,"call":"mcp__zz__x"}' \
      '{"id":4,"read":"demo"}' '{"id":5}' '{"id":6,"call":"demo/fail"}' \
      '{"id":7,"call":"demo/echo","arguments":[1]}'
OUT=$(jq -sc 'map({(.id|tostring): .}) | add' "$TMP/out")
expect "errors carry the exit code the single command would give" 0 \
  --jq '."1".error.exit == 6 and (."1".error.message | contains("no tool named \"nope\""))' \
  --jq '."null".error.exit == 2' \
  --jq '."3".error.exit == 6' \
  --jq '."4".error.exit == 2 and (."4".error.message | contains("uri"))' \
  --jq '."5".error.exit == 2' \
  --jq '."6".result.isError == true' \
  --jq '."7".error.exit == 2'

lines=()
for i in $(seq 1 64); do lines+=("{\"id\":$i,\"call\":\"demo/echo\",\"arguments\":{\"message\":\"m$i\"}}"); done
batch "${lines[@]}"
OUT=$(jq -s '.' "$TMP/out")
expect "64 requests at once all complete" 0 \
  --jq 'length == 64 and all(.[]; .result.content[0].text == "Echo: m\(.id)")'

# Sequential use: the next request is written after the previous answer.
coproc B { "$MCPHOST" --config "$C" batch 2>"$TMP/err"; }
echo '{"id":1,"call":"demo/echo","arguments":{"message":"first"}}' >&"${B[1]}"
read -r first <&"${B[0]}"
echo '{"id":2,"call":"demo/echo","arguments":{"message":"second"}}' >&"${B[1]}"
read -r second <&"${B[0]}"
exec {B[1]}>&-
wait "$B_PID"; RC=$?
OUT="$first
$second"; ERR=$(cat "$TMP/err")
expect "one process serves requests written one after another" 0 \
  --out '"text":"Echo: first"' --out '"text":"Echo: second"'

printf '{"id":1,"call":"demo/echo","arguments":{"message":"file"}}\n' >"$TMP/req"
"$MCPHOST" --config "$C" batch <"$TMP/req" >"$TMP/out" 2>"$TMP/err"; RC=$?
OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "stdin may be a regular file" 0 --out "Echo: file"

finish
