#!/bin/bash
# Sanitizing runs on the server -> host direction of a session only: what
# mcphost sends a server (a tool call's arguments) leaves byte for byte,
# while what the server sends back is sanitized as --sanitize says. A
# JSON-RPC engine that sanitized every message it parsed would normalize
# the arguments a gateway relays from its own clients.
. "$(dirname "$0")/../lib/lib.sh"

C="$TMP/probe.json"
probe_config "$C" "{\"PROBE_ARGS\": \"$TMP/args\"}"

# A ligature and a fullwidth letter (NFKC changes both), a zero-width
# space and a bidi override (the full sanitizing removes both).
TEXT=$(printf 'a\xef\xac\x81b\xef\xbc\xa1c\xe2\x80\x8bd\xe2\x80\xaee')
printf '%s' "$TEXT" >"$TMP/want"
ARGS=$(jq -cn --arg t "$TEXT" '{text: $t}')

run --config "$C" --sanitize=full --json call mcp__p__echo "$ARGS"
expect "a call with --sanitize=full succeeds" 0
check "the server received the arguments byte for byte" \
  cmp -s "$TMP/args" "$TMP/want"
expect "the server's result is sanitized (NFKC, invisible characters gone)" 0 \
  --jq '.content[0].text == "afibAcde"'

rm -f "$TMP/args"
run --config "$C" --json call mcp__p__echo "$ARGS"
check "by default too the arguments leave byte for byte" \
  cmp -s "$TMP/args" "$TMP/want"
expect "by default a result is kept as sent" 0 \
  --jq ".content[0].text == $(jq -n --arg t "$TEXT" '$t')"

# batch sends the same way: its request line's arguments reach the
# server unchanged, its answer line carries the sanitized result.
rm -f "$TMP/args"
printf '%s\n' "{\"id\":1,\"call\":\"mcp__p__echo\",\"arguments\":$ARGS}" |
  "$MCPHOST" --config "$C" --sanitize=full batch >"$TMP/out" 2>"$TMP/err"
RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
check "batch sends the arguments byte for byte" cmp -s "$TMP/args" "$TMP/want"
expect "batch's answer carries the sanitized result" 0 \
  --jq '.result.content[0].text == "afibAcde"'

finish
