#!/usr/bin/env bash
# End to end over stdio against the official reference server
# @modelcontextprotocol/server-everything (pinned in tests/interop).
. "$(dirname "$0")/../lib/lib.sh"
C="$TMP/every.json"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]}}"

run --config "$C" --json servers
expect "server-everything connects" 0 \
  --jq '.[0].state == "connected" and .[0].serverInfo.name == "mcp-servers/everything"' \
  --jq '.[0].protocolVersion == "2025-11-25" and (.[0].instructions | length) > 0' \
  --jq '.[0].tools >= 12 and .[0].resources >= 7 and .[0].prompts >= 4'

run --config "$C" tools
expect "its tools carry the mcp__every__ prefix" 0 \
  --out "mcp__every__echo" --out "mcp__every__get-sum" --out "mcp__every__get-tiny-image" \
  --out "mcp__every__trigger-long-running-operation" --out "mcp__every__get-roots-list"

run --config "$C" call mcp__every__echo message="hi from mcphost"
expect "call echo" 0 --out "Echo: hi from mcphost"
config_file "$TMP/env.json" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"], \"env\": {\"FROM_CONFIG\": \"yes\"}}}"
MCPHOST_TEST_SECRET=hunter2 LANG=C.UTF-8 run --config "$TMP/env.json" call mcp__every__get-env
expect "a server sees the allowlisted environment plus the config's env, nothing else" 0 \
  --out '"FROM_CONFIG": "yes"' --out '"LANG": "C.UTF-8"' --out '"PATH"' \
  --no-out "MCPHOST_TEST_SECRET" --no-out "hunter2"

run --config "$C" call mcp__every__get-sum a=19 b=23
expect "call get-sum" 0 --out "42"
run --config "$C" --output-dir "$TMP/img" call mcp__every__get-tiny-image
expect "call get-tiny-image saves the PNG" 0 \
  --out "[image image/png" --out "saved to $TMP/img/"
png=$(ls "$TMP"/img/*.png 2>/dev/null | head -n 1)
check "the tiny image is a real PNG" \
  sh -c "[ -n '$png' ] && head -c 4 '$png' | od -An -c | grep -q 'P   N   G'"

run --config "$C" call mcp__every__get-roots-list
expect "roots/list is answered with the working directory" 0 \
  --out "file://$(pwd | sed 's/ /%20/g')"

run --config "$C" call mcp__every__trigger-long-running-operation duration=1 steps=2
expect "a long-running call reports progress" 0 \
  --err "progress: 1/2" --err "progress: 2/2" --out "Long running operation completed"

run --config "$C" read every demo://resource/static/document/architecture.md
expect "read a static resource" 0 --out "Architecture"
run --config "$C" --json read every demo://resource/dynamic/text/7
expect "read a templated resource" 0 \
  --jq '.contents[0].uri == "demo://resource/dynamic/text/7" and (.contents[0].text | length) > 0'

run --config "$C" prompt mcp__every__args-prompt Paris
expect "prompt args-prompt with a positional argument" 0 \
  --out "[user]" --out "Paris"
run --config "$C" --json prompt every/args-prompt city=Lyon state=Rhone
expect "prompt args-prompt with named arguments" 0 \
  --jq '(.messages[0].content.text | contains("Lyon")) and (.messages[0].content.text | contains("Rhone"))'
run --config "$C" prompt mcp__every__args-prompt
expect "args-prompt without its required city" 2 --err "\"city\""

# Resource subscriptions: updates are delivered to the caller (batch),
# and the server's log messages reach its log file with --log-level.
U=demo://resource/static/document/architecture.md
coproc B { "$MCPHOST" --log-level debug --config "$C" batch 2>"$TMP/err"; }
BPID=$B_PID # bash unsets B_PID once the coprocess ends
echo "{\"id\":1,\"subscribe\":\"every\",\"uri\":\"$U\"}" >&"${B[1]}"
echo '{"id":2,"call":"every/toggle-subscriber-updates"}' >&"${B[1]}"
OUT=""
for _ in 1 2 3 4 5 6; do
  read -r -t 20 line <&"${B[0]}" || break
  OUT="$OUT$line
"
  case $line in *'"notification"'*) break ;; esac
done
exec {B[1]}>&-
wait "$BPID"; RC=$?
ERR=$(cat "$TMP/err")
expect "resources/subscribe is answered and updates arrive as lines" 0 \
  --out '{"id":1,"result":{}}' \
  --out "{\"server\":\"every\",\"notification\":\"notifications/resources/updated\",\"params\":{\"uri\":\"$U\"}}"
check "the server's log messages are kept in its log file" \
  grep -q "Subscribed to resource: $U\|$U" "$XDG_STATE_HOME/mcphost/logs/every.log"

finish
