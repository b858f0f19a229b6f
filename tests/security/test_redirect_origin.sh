#!/usr/bin/env bash
# Issue 11, point 5: a streamable-HTTP server that answers 307 to another
# origin must not get mcphost to send the configured headers (X-Api-Key,
# PRIVATE-TOKEN), the session id or the JSON-RPC body there. Two origins
# are two ports of 127.0.0.1 (tests/servers/redirect_server.mjs, which
# logs every request it gets).
. "$(dirname "$0")/../lib/lib.sh"
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy
LOG="$TMP/requests.jsonl"
: >"$LOG"
start_node "$SRCDIR/tests/servers/redirect_server.mjs" "$LOG"
A=${NODE_PORT% *}
B=${NODE_PORT#* }
HEADERS='"headers": {"X-Api-Key": "key-123", "PRIVATE-TOKEN": "tok-456"}'

config_file "$TMP/away.json" \
  "{\"r\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$A/away\", $HEADERS}}"
run --config "$TMP/away.json" call r/echo_headers
expect "a 307 to another origin fails the server, saying so" 3 \
  --err "redirected to another origin (http://127.0.0.1:$B); not followed"
check "the other origin got no request: no configured header, session id or body" \
  test "$(jq -s '[.[] | select(.origin == "B")] | length' "$LOG")" = 0

: >"$LOG"
config_file "$TMP/moved.json" \
  "{\"r\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$A/moved\", $HEADERS}}"
run --config "$TMP/moved.json" call r/echo_headers
expect "a 307 within the origin is followed, the configured headers with it" 0 \
  --jq '.["x-api-key"] == "key-123" and .["private-token"] == "tok-456"' \
  --jq '.["mcp-session-id"] == "sess-1"'
check "... by POSTing the same body to the new path" \
  test "$(jq -s '[.[] | select(.origin == "A" and .url == "/mcp" and (.body | contains("tools/call")))] | length' "$LOG")" = 1
finish
