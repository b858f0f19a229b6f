#!/usr/bin/env bash
# ABI 1.6 authorization: the http transport takes its Authorization value
# from an auth provider ("mcph.auth/1", fixture fx-auth) and hands the
# provider the parsed challenge of a 401, and the provider sets a new
# value through "mcph.host.auth/1". The server requires a bearer token.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH

start_node "$SRCDIR/tests/servers/streamable_http_server.mjs" --bearer fixture-good
URL="http://127.0.0.1:$NODE_PORT/mcp"
C="$TMP/auth.json"
config_file "$C" "{
  \"good\": {\"type\": \"http\", \"url\": \"$URL\",
             \"headers\": {\"Authorization\": \"Bearer configured\"}},
  \"stale\": {\"type\": \"http\", \"url\": \"$URL\"},
  \"plain\": {\"type\": \"http\", \"url\": \"$URL\"}}"

run --plugin-dir "$FIXTURES/auth" --config "$C" call mcp__good__echo_headers
expect "the provider's Authorization value is sent, replacing the configured one" 0 \
  --out '"authorization":"Bearer fixture-good"' --no-out "configured"

run --plugin-dir "$FIXTURES/auth" --config "$C" call mcp__stale__echo_headers
expect "a 401 fails the call as needing authorization" 7
expect "the provider gets the challenge the transport parsed" 7 \
  --err "[test.auth] challenge for stale: HTTP 401 scheme=Bearer error=invalid_token resource_metadata=http://127.0.0.1:$NODE_PORT/.well-known/oauth-protected-resource"
expect "the provider sets a new value through mcph.host.auth/1" 7 \
  --err "[test.auth] new value set: MCPH_OK"

run --plugin-dir "$FIXTURES/auth" --config "$C" call mcp__plain__echo_headers
expect "without a value from the provider nothing is sent, and its challenge has no error" 7 \
  --err "challenge for plain: HTTP 401 scheme=Bearer error=- resource_metadata=http"

run --config "$C" call mcp__good__echo_headers
expect "without the provider the configured header is sent (and refused)" 7 \
  --no-err "[test.auth]"
# A 401 on the http transport's standalone GET stream is reported the
# same way as one on a POST.
start_node "$SRCDIR/tests/servers/streamable_http_server.mjs" --bearer fixture-good \
  --get-status 401
GC="$TMP/get.json"
config_file "$GC" "{\"good\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$NODE_PORT/mcp\"}}"
run --plugin-dir "$FIXTURES/auth" --config "$GC" call mcp__good__echo_headers
expect "a 401 on the http standalone event stream reaches the provider as a parsed challenge" 0 \
  --out '"authorization":"Bearer fixture-good"' \
  --err "[test.auth] challenge for good: HTTP 401 scheme=Bearer error=insufficient_scope resource_metadata=http://127.0.0.1:$NODE_PORT/.well-known/oauth-protected-resource"

# The sse transport takes the provider's value too (set_authorization),
# on its event stream and its POSTs, replacing a configured header.
SSE_LOG="$TMP/sse-auth.log"
SSE_AUTH_PORT="$TMP/sse-auth.port"
node "$SRCDIR/tests/servers/legacy_sse_server.mjs" --port-file "$SSE_AUTH_PORT" \
  --log "$SSE_LOG" 2>>"$TMP/sse.err" &
SSE_AUTH_PID=$!
on_exit "kill $SSE_AUTH_PID 2>/dev/null"
for _ in $(seq 1 100); do [ -s "$SSE_AUTH_PORT" ] && break; sleep 0.1; done
SA="$TMP/sse-auth.json"
config_file "$SA" "{\"good\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:$(cat "$SSE_AUTH_PORT")/sse\",
  \"headers\": {\"Authorization\": \"Bearer configured\"}}}"
run --plugin-dir "$FIXTURES/auth" --config "$SA" call mcp__good__echo message=sse
expect "an sse server is called with the provider's Authorization value" 0 --out "sse"
check "every request to the sse server carried the provider's value, never the configured one" \
  jq -se '[.[] | select(.method) | .headers.authorization] as $a
    | ($a | length) >= 2 and all($a[]; . == "Bearer fixture-good")' "$SSE_LOG"

# The sse transport reports a 401 on its event stream the same way.
SSE_PORT_FILE="$TMP/sse.port"
node "$SRCDIR/tests/servers/legacy_sse_server.mjs" --port-file "$SSE_PORT_FILE" \
  --get-status 401 --www-authenticate \
  'Bearer error="invalid_token", resource_metadata="http://127.0.0.1/prm"' \
  2>>"$TMP/sse.err" &
SSE_PID=$!
on_exit "kill $SSE_PID 2>/dev/null"
for _ in $(seq 1 100); do [ -s "$SSE_PORT_FILE" ] && break; sleep 0.1; done
SC="$TMP/sse.json"
config_file "$SC" "{\"stale\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:$(cat "$SSE_PORT_FILE")/sse\"}}"
run --plugin-dir "$FIXTURES/auth" --config "$SC" call mcp__stale__echo
expect "a 401 on the sse event stream reaches the provider as a parsed challenge" 7 \
  --err "[test.auth] challenge for stale: HTTP 401 scheme=Bearer error=invalid_token resource_metadata=http://127.0.0.1/prm" \
  --err "[test.auth] new value set: MCPH_OK"
finish
