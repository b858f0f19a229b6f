#!/usr/bin/env bash
# mcphost batch: JSON requests on stdin, one JSON answer line each.
. "$(dirname "$0")/../lib/lib.sh"
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

# More requests than run at once (256, cli/batch.c): the lines after
# them wait, read from a regular file or a pipe, and every one is
# answered, in any order.
lines=()
for i in $(seq 1 700); do lines+=("{\"id\":$i,\"call\":\"demo/echo\",\"arguments\":{\"message\":\"m$i\"}}"); done
printf '%s\n' "${lines[@]}" >"$TMP/many"
for from in file pipe; do
  if [ $from = file ]; then
    "$MCPHOST" --config "$C" batch <"$TMP/many" >"$TMP/out" 2>"$TMP/err"
  else
    cat "$TMP/many" | "$MCPHOST" --config "$C" batch >"$TMP/out" 2>"$TMP/err"
  fi
  RC=$?
  OUT=$(jq -s '.' "$TMP/out"); ERR=$(cat "$TMP/err")
  expect "700 requests at once from a $from all complete" 0 \
    --jq 'length == 700 and ([.[].id] | unique | length) == 700' \
    --jq 'all(.[]; .result.content[0].text == "Echo: m\(.id)")'
done

# The line after the 256 running is read only once one of them ends: 256
# calls that never answer, then an echo. The echo goes to the server
# only after the first of them timed out, so its answer is not the
# first (a batch that started every line at once answered it first).
# Each of the 256 ends in its timeout (5), or, when the timeouts come
# apart, in the connection closed after three failures in a row (3, as
# Claude Code does: BREAKER_ERRORS, host/mcp/session.h), and the echo
# runs on a new one.
config_file "$TMP/hang.json" "{\"h\": {\"command\": \"$HOSTILE\"}}"
{ for i in $(seq 1 256); do printf '{"id":%d,"call":"h/hang"}\n' "$i"; done
  printf '{"id":257,"call":"h/echo","arguments":{"message":"after"}}\n'
} >"$TMP/hangs"
for from in file pipe; do
  if [ $from = file ]; then
    "$MCPHOST" --config "$TMP/hang.json" --timeout 500 batch <"$TMP/hangs" \
      >"$TMP/out" 2>"$TMP/err"
  else
    cat "$TMP/hangs" |
      "$MCPHOST" --config "$TMP/hang.json" --timeout 500 batch >"$TMP/out" \
        2>"$TMP/err"
  fi
  RC=$?
  OUT=$(jq -s '.' "$TMP/out"); ERR=$(cat "$TMP/err")
  expect "at most 256 requests run at once ($from): the next starts as one ends" 0 \
    --jq 'length == 257 and .[0].id != 257' \
    --jq '[.[] | select(.id <= 256) | .error.exit] | all(. == 5 or . == 3)' \
    --jq '.[] | select(.id == 257) | .result.content[0].text == "Echo: after"'
done

# A result of a few MiB with every kind of character JSON escapes: batch
# writes answers with its own writer, which must give cJSON's very bytes.
chunk='\"quoted\" back\\slash \/ tab\t nl\n cr\r bs\b ff\f '
chunk+='\u0001\u0002\u0007\u000b\u000e\u001b\u001f del\u007f café 漢字 😀 '
{ printf '{"id":1,"call":"demo/echo","arguments":{"message":"'
  yes "$chunk" | head -n 40000 | tr -d '\n'
  printf '"}}\n'; } >"$TMP/bigreq"
"$MCPHOST" --config "$C" batch <"$TMP/bigreq" >"$TMP/out" 2>"$TMP/err"; RC=$?
OUT=$(head -c 300 "$TMP/out"); ERR=$(cat "$TMP/err")
"$BUILDDIR/tests/mcphost-json-reprint" <"$TMP/out" >"$TMP/reprinted"
want=$({ printf 'Echo: '; jq -j '.arguments.message' "$TMP/bigreq"; } | sha256sum)
got=$(jq -j '.result.content[0].text' "$TMP/out" | sha256sum)
expect "a result of $(($(wc -c <"$TMP/out") >> 20)) MiB is answered" 0 --out '{"id":1,"result":{"content":[{'
check "its answer line is byte for byte what cJSON prints" cmp -s "$TMP/out" "$TMP/reprinted"
check "its text arrives intact" test "$got" = "$want"

# An ASCII-only result that large, in the forms cJSON writes, is passed
# on without a tree (json_raw.h): the same bytes, the same text.
chunk='plain \"quoted\" back\\slash / tab\t nl\n \u0001\u001b ascii only '
{ printf '{"id":2,"call":"demo/echo","arguments":{"message":"'
  yes "$chunk" | head -n 60000 | tr -d '\n'
  printf '"}}\n'; } >"$TMP/bigreq"
"$MCPHOST" --config "$C" batch <"$TMP/bigreq" >"$TMP/out" 2>"$TMP/err"; RC=$?
OUT=$(head -c 300 "$TMP/out"); ERR=$(cat "$TMP/err")
"$BUILDDIR/tests/mcphost-json-reprint" <"$TMP/out" >"$TMP/reprinted"
want=$({ printf 'Echo: '; jq -j '.arguments.message' "$TMP/bigreq"; } | sha256sum)
got=$(jq -j '.result.content[0].text' "$TMP/out" | sha256sum)
expect "an ASCII result of $(($(wc -c <"$TMP/out") >> 20)) MiB is answered" 0 --out '{"id":2,"result":{"content":[{'
check "its answer line is what cJSON prints" cmp -s "$TMP/out" "$TMP/reprinted"
check "its text arrives intact" test "$got" = "$want"

# The usual call line ({"id": N, "call": ..., "arguments": {...}}) is
# read without a tree of it (cli/batch.c, plain_call); a member nothing
# reads ("x") makes the same line take the full parse. Each line gives
# the very same answer bytes either way: ids, numbers, U+0000, escapes,
# spacing, and the errors of bad lines.
plain=(
  '{"id":1,"call":"mcp__demo__echo","arguments":{"message":"a"}}'
  ' { "call" : "demo/echo" ,  "id" : 123456789012345 , "arguments" : { "message" : "s p" } } '
  '{"id":-0,"call":"demo/echo","arguments":{"message":"minus zero"}}'
  '{"id":-42,"call":"demo/echo","arguments":{"message":"nul \u0000 tab \t é 😀"}}'
  '{"id":2,"call":"demo/add","arguments":{"a":1.50,"b":1e2}}'
  '{"call":"demo/echo","arguments":{"message":"no id"},"id":3}'
  '{"arguments":{"message":"no id at all"},"call":"demo/echo"}'
  '{"id":4,"call":"demo/echo"}'
  '{"id":5,"call":"demo/echo","arguments":{}}'
  '{"id":6,"call":"mcp__demo__nope","arguments":{"message":"x"}}'
  '{"id":7,"call":"","arguments":{"message":"x"}}'
  '{"id":8,"call":"demo/echo","arguments":[1]}'
  '{"id":9,"call":"demo/echo","arguments":{"message":"a"},"id":10}'
  '{"id":11,"call":"demo/echo","arguments":{"message":"bad}'
  '{"id":12,"call":"demo/echo","arguments":{"message":"a"}} trailing'
  '{"id":13,"call":"de\u006do/echo","arguments":{"message":"escaped"}}'
  '{"id":14,"call":5}'
  '{"id":1234567890123456,"call":"demo/echo","arguments":{"message":"16"}}'
  '{"id":015,"call":"demo/echo","arguments":{"message":"zero"}}'
  '{"id":"s","call":"demo/echo","arguments":{"message":"string id"}}'
  '{"id":16,"call":"demo/echo","arguments":{"message":"a","deep":[[[{"k":null}]]]}}'
)
full=()
for l in "${plain[@]}"; do full+=("${l/\{/\{\"x\":0,}"); done
batch "${plain[@]}"
sort "$TMP/out" >"$TMP/plain.out"
batch "${full[@]}"
sort "$TMP/out" >"$TMP/full.out"
check "a plain call line is answered as its full parse is, byte for byte" \
  cmp "$TMP/plain.out" "$TMP/full.out"
check "... every line of them" test "$(wc -l <"$TMP/plain.out")" -eq ${#plain[@]}
OUT=$(cat "$TMP/plain.out")
expect "... their ids as they came" 0 \
  --out '{"id":-0,"result":' --out '{"id":123456789012345,"result":' \
  --out '{"id":-42,"result":' --out '{"id":"s","result":'

# Sequential use: the next request is written after the previous answer.
coproc B { "$MCPHOST" --config "$C" batch 2>"$TMP/err"; }
BPID=$B_PID # bash unsets B_PID once the coprocess ends
echo '{"id":1,"call":"demo/echo","arguments":{"message":"first"}}' >&"${B[1]}"
read -r first <&"${B[0]}"
echo '{"id":2,"call":"demo/echo","arguments":{"message":"second"}}' >&"${B[1]}"
read -r second <&"${B[0]}"
exec {B[1]}>&-
wait "$BPID"; RC=$?
OUT="$first
$second"; ERR=$(cat "$TMP/err")
expect "one process serves requests written one after another" 0 \
  --out '"text":"Echo: first"' --out '"text":"Echo: second"'

# The reference that resolved last is remembered (host/mcp/client.c,
# ref_memo); each other reference still resolves on its own: the longest
# server part wins, "a__b" before "a".
AB="$TMP/ab.json"
config_file "$AB" "{\"a\": {\"command\": \"$DEMO\"}, \"a__b\": {\"command\": \"$DEMO\"}}"
printf '%s\n' '{"id":1,"call":"mcp__a__nope"}' '{"id":2,"call":"mcp__a__b__nope"}' \
  '{"id":3,"call":"mcp__a__b__nope"}' '{"id":4,"call":"mcp__a__nope"}' |
  "$MCPHOST" --config "$AB" batch >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(jq -sc 'map({(.id|tostring): .error.message}) | add' "$TMP/out")
expect "each reference resolves to its own server, the last one remembered" 0 \
  --jq '."1" | startswith("server \"a\" has no tool named \"nope\"")' \
  --jq '."2" | startswith("server \"a__b\" has no tool named \"nope\"")' \
  --jq '."3" | startswith("server \"a__b\" has no tool named \"nope\"")' \
  --jq '."4" | startswith("server \"a\" has no tool named \"nope\"")'

# A tool found by its name is remembered with the list it came from, and
# forgotten with it: after tools/list_changed, the same call is checked
# by the tool's new schema ("shape" takes "b", no longer "a").
LC="$TMP/lc.json"
config_file "$LC" "{\"lc\": {\"command\": \"$(command -v python3)\", \"args\": [\"$SRCDIR/tests/servers/list_changed_server.py\"]}}"
coproc B { "$MCPHOST" --config "$LC" batch 2>"$TMP/err"; }
BPID=$B_PID
answers=()
for req in '{"id":1,"call":"mcp__lc__shape","arguments":{"a":1}}' \
           '{"id":2,"call":"mcp__lc__shape","arguments":{"a":2}}' \
           '{"id":3,"call":"mcp__lc__grow","arguments":{}}' \
           '{"id":4,"call":"mcp__lc__shape","arguments":{"a":3}}' \
           '{"id":5,"call":"mcp__lc__shape","arguments":{"b":4}}'; do
  echo "$req" >&"${B[1]}"
  read -r line <&"${B[0]}"
  answers+=("$line")
done
exec {B[1]}>&-
wait "$BPID"; RC=$?
OUT=$(printf '%s\n' "${answers[@]}"); ERR=$(cat "$TMP/err")
expect "a tool's new schema checks its calls after tools/list_changed" 0 \
  --out '{"id":2,"result":{"content":[{"type":"text","text":"shaped"}]}}' \
  --out '{"id":4,"error":{"exit":2,"message":"tool \"mcp__lc__shape\": missing required parameter \"b\"' \
  --out '{"id":5,"result":{"content":[{"type":"text","text":"shaped"}]}}'

printf '{"id":1,"call":"demo/echo","arguments":{"message":"file"}}\n' >"$TMP/req"
"$MCPHOST" --config "$C" batch <"$TMP/req" >"$TMP/out" 2>"$TMP/err"; RC=$?
OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "stdin may be a regular file" 0 --out "Echo: file"

# A server that crashes is respawned, and later requests work.
UNIQ="$TMP/demo-crash-$$"
cp "$DEMO" "$UNIQ"
on_exit 'pkill -9 -f "$UNIQ" 2>/dev/null'
config_file "$TMP/crash.json" "{\"d\": {\"command\": \"$UNIQ\"}}"
coproc B { "$MCPHOST" -v --config "$TMP/crash.json" batch 2>"$TMP/err"; }
BPID=$B_PID # bash unsets B_PID once the coprocess ends
echo '{"id":1,"call":"d/echo","arguments":{"message":"before"}}' >&"${B[1]}"
read -r first <&"${B[0]}"
pid1=$(pgrep -f "$UNIQ")
pkill -9 -f "$UNIQ"
for _ in $(seq 1 100); do grep -q "reconnecting in" "$TMP/err" && break; sleep 0.1; done
echo '{"id":2,"call":"d/echo","arguments":{"message":"after"}}' >&"${B[1]}"
read -r second <&"${B[0]}"
pid2=$(pgrep -f "$UNIQ")
exec {B[1]}>&-
wait "$BPID"; RC=$?
OUT="$first
$second"; ERR=$(cat "$TMP/err")
expect "a crashed server is respawned and serves the next request" 0 \
  --out '"text":"Echo: before"' --out '"text":"Echo: after"' \
  --err "reconnecting in 1000 ms (attempt 1 of 5)"
check "the respawned server is a new process" test -n "$pid2" -a "$pid1" != "$pid2"

# Circuit breaker: three requests in a row time out; the connection is
# closed and the server marked unavailable; the next use connects again.
coproc B { "$MCPHOST" --timeout 400 --config "$TMP/crash.json" batch 2>"$TMP/err"; }
BPID=$B_PID # bash unsets B_PID once the coprocess ends
for i in 1 2 3; do
  echo "{\"id\":$i,\"call\":\"d/slow\",\"arguments\":{\"steps\":1,\"delay_ms\":5000}}" >&"${B[1]}"
done
for i in 1 2 3; do read -r line <&"${B[0]}"; OUT="$OUT
$line"; done
timeouts=$(printf '%s\n' "$OUT" | grep -c '"exit":5')
echo '{"id":4,"call":"d/echo","arguments":{"message":"again"}}' >&"${B[1]}"
read -r fourth <&"${B[0]}"
exec {B[1]}>&-
wait "$BPID"; RC=$?
OUT="$fourth"; ERR=$(cat "$TMP/err")
check "three calls in a row time out" test "$timeouts" -eq 3
expect "the breaker trips after three failures and the next use reconnects" 0 \
  --out '"text":"Echo: again"' --err "server unavailable: 3 requests in a row failed"

finish
