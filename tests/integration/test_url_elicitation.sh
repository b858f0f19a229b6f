#!/usr/bin/env bash
# A tools/call answered with JSON-RPC error -32042 (URL elicitation
# required): the host runs the listed elicitations through the elicitation
# plugin, then sends the call again (at most 3 times in all).
. "$(dirname "$0")/lib.sh"
C="$TMP/every.json"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]}}"
cat >"$TMP/accept.sh" <<SH
#!/bin/sh
# Records each elicitation it is asked, and accepts it.
cat >>"$TMP/asked.jsonl"; echo >>"$TMP/asked.jsonl"
echo '{"action":"accept"}'
SH
chmod +x "$TMP/accept.sh"

run --config "$C" --elicitation="hook:$TMP/accept.sh" \
  call mcp__every__trigger-url-elicitation url=https://example.com/start errorPath=true
expect "the prerequisite of a -32042 is run, then the call is sent again and succeeds" 0 \
  --out "User completed the URL elicitation flow" --out "URL: https://example.com/start"
check "the hook was asked the prerequisite (from the error) and then the call's own" \
  sh -c "grep -c '\"url\"' '$TMP/asked.jsonl' | grep -qx 2 &&
         head -n 1 '$TMP/asked.jsonl' | grep -q 'https://modelcontextprotocol.io' &&
         tail -n 2 '$TMP/asked.jsonl' | grep -q 'https://example.com/start'"

run --config "$C" --elicitation=decline \
  call mcp__every__trigger-url-elicitation url=https://example.com/start errorPath=true
expect "a declined prerequisite ends the call with a clear error" 4 \
  --err "requires a URL elicitation, which was not completed (decline)"
finish
