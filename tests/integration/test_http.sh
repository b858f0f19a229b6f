#!/usr/bin/env bash
# End to end over streamable HTTP (the http transport plugin): against the
# official server-everything, against a test server of our own that
# misbehaves on purpose (tests/servers/streamable_http_server.mjs), over
# TLS, and through a proxy taken from the environment.
. "$(dirname "$0")/../lib/lib.sh"
SERVERS="$SRCDIR/tests/servers"
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy

wait_port() {
  for _ in $(seq 150); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# start_everything PORT: server-everything's streamable HTTP on PORT.
start_everything() {
  PORT=$1 node "$EVERYTHING" streamableHttp >>"$TMP/everything.log" 2>&1 &
  EVERY_PID=$!
  on_exit "kill $EVERY_PID 2>/dev/null"
  wait_port "$1"
}

# ---- server-everything ----

EPORT=$(free_port)
start_everything "$EPORT" || echo "server-everything did not start: $(cat "$TMP/everything.log")"
EURL="http://127.0.0.1:$EPORT/mcp"
C="$TMP/every.json"
config_file "$C" "{\"every\": {\"type\": \"http\", \"url\": \"$EURL\"}}"

run --config "$C" --json servers
expect "server-everything connects over streamable HTTP" 0 \
  --jq '.[0].name == "every" and .[0].type == "http" and .[0].state == "connected"' \
  --jq '.[0].serverInfo.name == "mcp-servers/everything" and .[0].protocolVersion == "2025-11-25"' \
  --jq '.[0].tools >= 12 and .[0].resources >= 7 and .[0].prompts >= 4'

run --config "$C" tools
expect "its tools are listed with the mcp__every__ prefix" 0 \
  --out "mcp__every__echo" --out "mcp__every__get-sum"

run --config "$C" call mcp__every__echo message=hi
expect "call echo over POST with an event-stream reply" 0 --out "Echo: hi"

run --config "$C" call mcp__every__get-sum a=2 b=3
expect "call get-sum" 0 --out "5"

run --config "$C" read every demo://resource/static/document/architecture.md
expect "read a static resource" 0 --out "Architecture"

run --config "$C" prompt mcp__every__args-prompt Paris
expect "get a prompt with a positional argument" 0 \
  --out "What's weather in Paris?"

run --config "$C" call mcp__every__trigger-long-running-operation duration=1 steps=2
expect "progress notifications arrive on the POST's event stream" 0 \
  --err "progress: 1/2" --err "progress: 2/2" --out "Long running operation completed"

run --config "$C" call mcp__every__get-roots-list
expect "a server request (roots/list) during a call is answered" 0 \
  --out "file://"

kill "$EVERY_PID" 2>/dev/null
wait "$EVERY_PID" 2>/dev/null
start_everything "$EPORT"
run --config "$C" call mcp__every__echo message="after restart"
expect "a restarted server gets a new session in the next invocation" 0 \
  --out "Echo: after restart"

# A server that dies during a long call: the broken stream is resumed
# once, the refused connection is terminal, and the call fails with the
# reason instead of backing off against a closed port (issue 10, 14).
run_until_kill "progress: 1/30" "$EVERY_PID" --config "$C" \
  call mcp__every__trigger-long-running-operation duration=30 steps=30
wait "$EVERY_PID" 2>/dev/null
expect "a server killed during a call fails the call: the server cannot be reached" 3 \
  --err "progress: 1/30" \
  --err "the event stream broke before the response arrived, and the server at $EURL cannot be reached: Failed to connect" \
  --no-err "could not be resumed"
start_everything "$EPORT"

# ---- failures to connect ----

DEAD=$(free_port)
config_file "$TMP/dead.json" \
  "{\"dead\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$DEAD/mcp\"}}"
run --config "$TMP/dead.json" call mcp__dead__echo message=x
expect "a refused connection fails the server, naming the URL" 3 \
  --err "http://127.0.0.1:$DEAD/mcp" --err "onnect"

config_file "$TMP/dns.json" \
  '{"nohost": {"type": "http", "url": "http://no-such-host.invalid/mcp"}}'
run --config "$TMP/dns.json" servers
expect "an unknown host fails the server, naming the URL" 3 \
  --out "no-such-host.invalid/mcp"

# ---- configuration errors name the field ----

bad_config() { # NAME JSON TEXT
  config_file "$TMP/bad.json" "{\"bad\": $2}"
  run --config "$TMP/bad.json" servers
  expect "$1" 3 --out "$3"
}
bad_config "a missing url is an error naming \"url\"" \
  '{"type": "http"}' '"url" is required'
bad_config "a non-http url is refused" \
  '{"type": "http", "url": "ftp://example.com/mcp"}' '"url" must be an absolute http or https URL (the scheme is "ftp"'
bad_config "a malformed url is refused" \
  '{"type": "http", "url": "http://exa mple.com/"}' '"url" must be an absolute http or https URL (Bad hostname): http://exa mple.com/'
bad_config "headers must be an object" \
  '{"type": "http", "url": "http://127.0.0.1:1/", "headers": ["x"]}' '"headers" must be an object'
bad_config "a header value must be a string" \
  '{"type": "http", "url": "http://127.0.0.1:1/", "headers": {"X-N": 5}}' '"headers.X-N" must be a string'
bad_config "timeout must be a number of milliseconds" \
  '{"type": "http", "url": "http://127.0.0.1:1/", "timeout": "60s"}' '"timeout" must be'
bad_config "tls.insecure must be a boolean" \
  '{"type": "http", "url": "http://127.0.0.1:1/", "tls": {"insecure": "yes"}}' '"tls.insecure" must be true or false'
bad_config "tls.caFile must be a readable file" \
  '{"type": "http", "url": "https://127.0.0.1:1/", "tls": {"caFile": "/nonexistent/ca.pem"}}' '"tls.caFile": cannot read /nonexistent/ca.pem'

# ---- our test server: headers, resumption, the GET stream, errors ----

start_node "$SERVERS/streamable_http_server.mjs"
TPORT=$NODE_PORT
TURL="http://127.0.0.1:$TPORT/mcp"
T="$TMP/test.json"
config_file "$T" "{\"t\": {\"type\": \"http\", \"url\": \"$TURL\",
  \"headers\": {\"X-Api-Key\": \"secret-123\", \"Authorization\": \"Bearer tok-9\"}}}"

run --config "$T" call t/echo_headers
expect "configured headers reach the server" 0 \
  --jq '.["x-api-key"] == "secret-123" and .authorization == "Bearer tok-9"' \
  --jq '.["user-agent"] | startswith("mcphost/")' \
  --jq '.accept == "application/json, text/event-stream" and .["content-type"] == "application/json"' \
  --jq '(.["mcp-session-id"] | startswith("s-")) and .["mcp-protocol-version"] == "2025-11-25"'

run --config "$T" call t/drop_and_resume
expect "a POST stream closed before the response is resumed by GET with Last-Event-ID" 0 \
  --out "resumed with Last-Event-ID e1"
waited=$(printf '%s' "$OUT" | sed -n 's/.* after \([0-9]*\) ms.*/\1/p')
check "the resumption waited the server's retry (200 ms), not less" \
  test "${waited:-0}" -ge 199

# A server's retry beyond the cap waits the cap (30 s, common/backoff.h),
# as every other wait of the backoff: the call ends at its own deadline
# first, and the debug log says the wait it scheduled.
run --config "$T" -vv --timeout 2000 call t/drop_long_retry
expect "a server's retry: beyond 30 s waits 30 s" 5 \
  --err "request's event stream: reconnecting in 30000 ms" \
  --no-out "resumed with Last-Event-ID"

run --config "$T" call t/get_roundtrip
expect "a server request on the standalone GET stream is answered" 0 \
  --out "roots via the GET stream: file://"

run --config "$T" call t/close_get
expect "a standalone GET stream that ends is reopened with Last-Event-ID" 0 \
  --out "standalone stream reopened with Last-Event-ID g1"

run --config "$T" call t/drop_forever
expect "a resumption that keeps failing gives up after 5 attempts" 3 \
  --err "could not be resumed (5 attempts; last: HTTP 503 Service Unavailable from $TURL"
check "... naming the URL once" \
  test "$(grep "could not be resumed" "$TMP/err" | grep -o "$TURL" | wc -l)" = 1

run --config "$T" call t/sse_reply
expect "event-stream replies skip priming events and other event types" 0 \
  --out "sse ok" --no-out "WRONG"

run --config "$T" call t/batch_reply
expect "a JSON array reply is delivered as a batch" 0 --out "batch ok"

run --config "$T" call t/http_error
expect "an HTTP 500 names the status, the URL and the body" 3 \
  --err "HTTP 500 Internal Server Error from $TURL: boom: the tool broke"

run --config "$T" call t/odd_error
expect "a reason phrase keeps its UTF-8, a body's controls are shown as <U+XXXX>" 3 \
  --err "HTTP 502 Café from $TURL: boom<U+001B>[2J tab line 2"

run --config "$T" call t/unauthorized
expect "an HTTP 401 carries the WWW-Authenticate challenge" 7 \
  --err "HTTP 401 from $TURL; WWW-Authenticate: Bearer resource_metadata=\"http://127.0.0.1/.well-known/oauth-protected-resource\", scope=\"mcp:read\""

run --config "$T" call t/expire_session
expect "an expired session (HTTP 404) is re-initialized and the call resent" 0 \
  --out "answered on s-" --out "after the session expired"

config_file "$TMP/small.json" \
  "{\"t\": {\"type\": \"http\", \"url\": \"$TURL\", \"maxMessageBytes\": 4096}}"
run --config "$TMP/small.json" call t/big_result
expect "a JSON reply over maxMessageBytes fails that request" 3 \
  --err "exceeds the 4096-byte message limit"
run --config "$TMP/small.json" call --no-validate t/big_result sse=true
expect "an event over maxMessageBytes fails the request it answered" 3 \
  --err "the 4096-byte message limit"

config_file "$TMP/slow.json" \
  "{\"t\": {\"type\": \"http\", \"url\": \"$TURL\", \"timeout\": 500}}"
run --config "$TMP/slow.json" call t/hang
expect "a POST with no response within \"timeout\" fails, naming the URL" 3 \
  --err "no response from $TURL within 500 ms"

# ---- proxies come from the environment ----

start_node "$SERVERS/forward_proxy.mjs"
PROXY_PORT=$NODE_PORT
http_proxy="http://127.0.0.1:$PROXY_PORT" run --config "$T" call t/echo_headers
expect "http_proxy from the environment is used" 0 \
  --jq '.["x-via-proxy"] == "mcphost-test"'
http_proxy="http://127.0.0.1:$PROXY_PORT" NO_PROXY=127.0.0.1 run --config "$T" call t/echo_headers
expect "NO_PROXY bypasses the proxy" 0 --jq 'has("x-via-proxy") | not'

# ---- TLS ----

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$TMP/key.pem" -out "$TMP/cert.pem" \
  >/dev/null 2>&1
start_node "$SERVERS/streamable_http_server.mjs" --tls "$TMP/cert.pem" "$TMP/key.pem"
SURL="https://127.0.0.1:$NODE_PORT/mcp"

config_file "$TMP/tls.json" "{\"s\": {\"type\": \"http\", \"url\": \"$SURL\"}}"
run --config "$TMP/tls.json" call s/echo_headers
expect "a self-signed certificate is refused, naming the URL" 3 \
  --err "certificate" --err "$SURL"

config_file "$TMP/tls-ca.json" \
  "{\"s\": {\"type\": \"http\", \"url\": \"$SURL\", \"tls\": {\"caFile\": \"$TMP/cert.pem\"}}}"
run --config "$TMP/tls-ca.json" call s/echo_headers
expect "tls.caFile makes the certificate trusted" 0 \
  --jq '.["user-agent"] | startswith("mcphost/")'

config_file "$TMP/tls-insecure.json" \
  "{\"insec\": {\"type\": \"http\", \"url\": \"$SURL\", \"tls\": {\"insecure\": true}}}"
run --config "$TMP/tls-insecure.json" call insec/echo_headers
expect "tls.insecure connects, with a warning naming the server" 0 \
  --out "mcphost/" --err "TLS certificate verification is off for server \"insec\""

finish
