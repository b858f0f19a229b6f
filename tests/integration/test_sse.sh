#!/usr/bin/env bash
# The legacy HTTP+SSE transport (type "sse"): against the official reference
# server's `sse` transport, and against tests/servers/legacy_sse_server.mjs
# for what a well-behaved server never does (foreign endpoints, lost
# streams, refusals, redirects, TLS, proxies).
. "$(dirname "$0")/../lib/lib.sh"
SERVER="$SRCDIR/tests/servers/legacy_sse_server.mjs"
# Loopback servers only: no proxy from the caller's environment (the proxy
# test sets its own).
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY

# Waits (bounded) until http://127.0.0.1:$1/ answers anything.
wait_http() {
  for _ in $(seq 1 100); do
    curl -s -o /dev/null -m 1 "http://127.0.0.1:$1/ready" && return 0
    sleep 0.1
  done
  return 1
}

# serve ARGS...: starts legacy_sse_server.mjs with ARGS; sets P (its port),
# LOG (its request log) and URL (its SSE URL). Stopped at exit.
NSERVE=0
serve() {
  NSERVE=$((NSERVE + 1))
  local pf="$TMP/port.$NSERVE"
  LOG="$TMP/log.$NSERVE"
  node "$SERVER" --port-file "$pf" --log "$LOG" "$@" 2>>"$TMP/server.err" &
  local pid=$!
  on_exit "kill $pid 2>/dev/null"
  for _ in $(seq 1 100); do [ -s "$pf" ] && break; sleep 0.1; done
  P=$(cat "$pf" 2>/dev/null)
  URL="http://127.0.0.1:$P/sse"
  touch "$LOG"
}

# logged EXPR: the jq expression over the whole request log is true.
logged() { jq -se "$1" "$LOG" >/dev/null; }

# How many requests the server logged with this method and path.
count() { jq -s "[.[] | select(.method == \"$1\" and (.url | startswith(\"$2\")))] | length" "$LOG"; }

# sse_config FILE NAME URL [EXTRA JSON MEMBERS]
sse_config() {
  config_file "$1" "{\"$2\": {\"type\": \"sse\", \"url\": \"$3\"${4:+, $4}}}"
}

# ---- the reference server ----

EPORT=$(free_port)
PORT=$EPORT node "$EVERYTHING" sse >"$TMP/everything.log" 2>&1 &
EPID=$!
on_exit "kill $EPID 2>/dev/null"
check "server-everything listens on its sse port" wait_http "$EPORT"
C="$TMP/every.json"
sse_config "$C" every "http://127.0.0.1:$EPORT/sse"

run --config "$C" --json servers
expect "server-everything connects over sse with its serverInfo" 0 \
  --jq '.[0].state == "connected" and .[0].type == "sse"' \
  --jq '.[0].serverInfo.name == "mcp-servers/everything" and .[0].tools >= 12 and .[0].resources >= 7 and .[0].prompts >= 4'
run --config "$C" tools
expect "its tools are listed over sse" 0 --out "mcp__every__echo" \
  --out "mcp__every__get-sum"
run --config "$C" call mcp__every__echo message=hi
expect "call echo over sse" 0 --out "Echo: hi"
run --config "$C" call mcp__every__get-sum a=2 b=3
expect "call get-sum over sse" 0 --out "5"
run --config "$C" read every demo://resource/static/document/architecture.md
expect "read a resource over sse" 0 --out "Architecture"
run --config "$C" prompt mcp__every__args-prompt Paris
expect "get a prompt over sse" 0 --out "What's weather in Paris?"
run --config "$C" call mcp__every__trigger-long-running-operation duration=1 steps=2
expect "progress notifications arrive on the stream during a long call" 0 \
  --err "progress: 2/2" --out "Long running operation completed"
config_file "$TMP/ide.json" "{\"ide\": {\"type\": \"sse-ide\", \"url\": \"http://127.0.0.1:$EPORT/sse\"}}"
run --config "$TMP/ide.json" --json servers
expect "type sse-ide rides the sse transport (composed by the ide plugin)" 0 \
  --jq '.[0].state == "connected" and .[0].type == "sse-ide"'

# A server that dies during a long call: the refused reconnect is
# terminal, and the call fails with the reason at once instead of after
# five reconnects with a growing backoff (issue 10, 14).
run_until_kill "progress: 1/30" "$EPID" --config "$C" \
  call mcp__every__trigger-long-running-operation duration=30 steps=30
expect "a server killed during a call fails it: the server cannot be reached" 3 \
  --err "progress: 1/30" \
  --err "cannot connect to http://127.0.0.1:$EPORT/sse: Failed to connect" \
  --no-err "reconnect attempts failed"

# ---- requests as sent ----

serve
sse_config "$TMP/h.json" t "$URL" '"headers": {"X-Api-Key": "k1", "X-Empty": ""}'
run --config "$TMP/h.json" call mcp__t__echo message=headers
expect "a call through the test server works" 0 --out "Echo: headers"
check "the GET asks for an event stream, as mcphost/VERSION, with the configured headers" \
  logged '[.[] | select(.method == "GET")][0].headers |
    .accept == "text/event-stream" and (."user-agent" | startswith("mcphost/")) and
    ."x-api-key" == "k1" and ."x-empty" == "" and ."last-event-id" == null'
check "POSTs carry JSON, the configured headers, and the protocol version once known" \
  logged '[.[] | select(.method == "POST")] |
    (.[0].headers | ."content-type" == "application/json" and ."x-api-key" == "k1" and ."mcp-protocol-version" == null) and
    (.[1].headers."mcp-protocol-version" == "2025-11-25")'
check "POSTs go to the endpoint the stream named, resolved against the SSE URL" \
  logged '[.[] | select(.method == "POST")] | length >= 3 and all(.url | startswith("/message?sessionId="))'

# ---- the endpoint ----

serve --endpoint "http://evil:1/message"
sse_config "$TMP/o.json" t "$URL"
run --config "$TMP/o.json" call mcp__t__echo message=x
expect "an endpoint on another origin is refused, naming both origins" 3 \
  --err "endpoint origin http://evil:1 differs from the SSE URL's origin http://127.0.0.1:$P"
check "nothing was POSTed to the foreign endpoint" test "$(count POST /)" = 0

serve --endpoint "http://127.0.0.1:{port}/message?sessionId={sid}&stream=1"
sse_config "$TMP/abs.json" t "$URL"
run --config "$TMP/abs.json" --timeout 3000 servers
expect "an absolute endpoint on the same origin works" 0 --out "connected"
check "... and is used as it is" \
  logged '[.[] | select(.method == "POST")][0].url | test("^/message[?]sessionId=[-0-9a-f]+&stream=1$")'

serve --endpoint none --end-after-ms 200
sse_config "$TMP/ne.json" t "$URL"
run --config "$TMP/ne.json" servers
expect "a stream that ends before its endpoint event fails the server" 3 \
  --out "the server ended the SSE stream at $URL before its endpoint event"

# ---- the first GET ----

sse_config "$TMP/refused.json" t "http://127.0.0.1:$(free_port)/sse"
run --config "$TMP/refused.json" call mcp__t__echo message=x
expect "connection refused: exit 3 naming the URL" 3 \
  --err "cannot connect to http://127.0.0.1:" --err "/sse: " \
  --err "Couldn't connect to server"

serve --get-status 404
sse_config "$TMP/404.json" t "$URL"
run --config "$TMP/404.json" call mcp__t__echo message=x
expect "a 404 on the GET fails at once, naming the status and the URL" 3 \
  --err "GET $URL failed: HTTP 404 Not Found"
sleep 0.3
check "a 404 on the GET is not retried" test "$(count GET /sse)" = 1

serve --get-status 401 --www-authenticate 'Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"'
sse_config "$TMP/401.json" t "$URL"
run --config "$TMP/401.json" servers
check "a 401 on the GET fails, quoting WWW-Authenticate" \
  test "$RC" -ne 0 -a "$(count GET /sse)" = 1
expect "... and the reason names the status and the header" "$RC" \
  --out "HTTP 401 Unauthorized; WWW-Authenticate: Bearer resource_metadata="

serve --content-type text/html
sse_config "$TMP/ct.json" t "$URL"
run --config "$TMP/ct.json" servers
expect "a GET answered with another content type is refused" 3 \
  --out "Content-Type \"text/html\", not text/event-stream"

serve
sse_config "$TMP/redir.json" t "http://127.0.0.1:$P/redirect"
run --config "$TMP/redir.json" call mcp__t__echo message=redirected
expect "a redirect within the origin is followed" 0 --out "Echo: redirected"
sse_config "$TMP/away.json" t "http://127.0.0.1:$P/redirect-away"
run --config "$TMP/away.json" servers
expect "a redirect to another origin is not followed" 3 \
  --out "HTTP 302 Found redirected to another origin (http://localhost:$P); not followed"

# ---- losing the stream ----

serve --drop-after-id 5 --retry 100
sse_config "$TMP/drop.json" t "$URL"
run --config "$TMP/drop.json" call mcp__t__echo message=survived
expect "a call survives the stream being cut: the client reconnects" 0 \
  --out "Echo: survived"
check "the reconnect carries Last-Event-ID: 5" \
  logged '[.[] | select(.method == "GET")] | length == 2 and .[1].headers."last-event-id" == "5"'
check "after the reconnect, POSTs go to the newest endpoint" \
  logged '[.[] | select(.method == "POST")][-1].url | endswith("&stream=2")'

serve --drop-after-id 5 --retry 100 --after-drop 503,503
sse_config "$TMP/503.json" t "$URL"
run --config "$TMP/503.json" call mcp__t__echo message=patient
expect "503 answers to a reconnect are retried until the stream is back" 0 \
  --out "Echo: patient"
check "... with one GET per attempt" test "$(count GET /sse)" = 4

serve --drop-after-id 5 --retry 100 --after-drop 404
sse_config "$TMP/gone.json" t "$URL"
run --config "$TMP/gone.json" call mcp__t__echo message=x
expect "a 404 to a reconnect ends the server at once" 3 \
  --err "went away during tools/call" --err "GET $URL failed: HTTP 404 Not Found"
sleep 0.3
check "... without further attempts" test "$(count GET /sse)" = 2

serve --drop-after-id 5 --retry 50 --after-drop 503,503,503,503,503,503,503
sse_config "$TMP/never.json" t "$URL"
run --config "$TMP/never.json" call mcp__t__echo message=x
expect "reconnecting gives up after 5 failed attempts, naming the last error" 3 \
  --err "lost the SSE stream and 5 reconnect attempts failed; the last: GET $URL failed: HTTP 503 Service Unavailable"
check "... naming the URL once" \
  test "$(grep "reconnect attempts failed" "$TMP/err" | grep -o "$URL" | wc -l)" = 1
check "... after exactly 5 reconnect attempts" test "$(count GET /sse)" = 6

# ---- an SSE server given as http (the spec's backwards compatibility) ----

serve
run -v --url "s=$URL" call mcp__s__echo message=fallback
expect "--url without --transport: a 4xx to the initialize POST falls back to SSE, saying so with -v" 0 \
  --out "Echo: fallback" \
  --err "not a streamable HTTP server (HTTP 404 Not Found from $URL: not found); trying the legacy SSE transport"
config_file "$TMP/untyped.json" "{\"s\": {\"url\": \"$URL\"}}"
run --config "$TMP/untyped.json" call mcp__s__echo message=untyped
expect "a config entry with a url and no type falls back the same way" 0 \
  --out "Echo: untyped"
run --json --config "$TMP/untyped.json" servers
expect "servers shows the transport it fell back to" 0 --out '"type":	"sse"'
run --transport http --url "s=$URL" call mcp__s__echo message=x
expect "a type given explicitly is not second-guessed" 3 \
  --err "HTTP 404 Not Found from $URL" --no-err "legacy SSE"
run --url "s=http://127.0.0.1:$P/nothing" call mcp__s__echo message=x
expect "when both fail, the error says so and hints at the URL" 3 \
  --err "as streamable HTTP: HTTP 404 Not Found from http://127.0.0.1:$P/nothing" \
  --err "Neither transport answers at this URL"

# ---- POST failures ----

serve --post-status 401 --www-authenticate 'Bearer realm="mcp"'
sse_config "$TMP/p401.json" t "$URL"
run --config "$TMP/p401.json" --timeout 2000 servers
check "a refused POST does not pass for success" test "$RC" -ne 0
# Where the host shows it (a server state or a warning) is the host's call.
check "a 401 on a POST is reported with the status, URL and WWW-Authenticate" \
  grep -q "POST http://127.0.0.1:$P/message?sessionId=.* failed: HTTP 401 Unauthorized; WWW-Authenticate: Bearer realm=\"mcp\"" \
  "$TMP/out" "$TMP/err"

# ---- limits ----

serve
sse_config "$TMP/big.json" t "$URL" '"maxMessageBytes": 1024'
run --config "$TMP/big.json" --timeout 2000 call mcp__t__echo \
  message="$(head -c 2000 /dev/zero | tr '\0' x)"
expect "an event over maxMessageBytes is dropped with a message naming the limit" 5 \
  --err "exceeds the 1024-byte limit (maxMessageBytes); dropped" \
  --no-err "dropped (-9)"

# ---- configuration ----

config_file "$TMP/bad1.json" '{"t": {"type": "sse", "url": "http://127.0.0.1:1/sse", "headers": {"X": 1}}}'
run --config "$TMP/bad1.json" servers
expect "a header that is not a string is named" 3 --out '"headers.X" must be a string'
config_file "$TMP/bad2.json" '{"t": {"type": "sse", "url": "ws://127.0.0.1:1/sse"}}'
run --config "$TMP/bad2.json" servers
expect "a URL that is not http or https is refused" 3 \
  --out '"url" must be an absolute http or https URL'
config_file "$TMP/bad3.json" '{"t": {"type": "sse", "url": "http://x/", "tls": {"insecure": "yes"}}}'
run --config "$TMP/bad3.json" servers
expect "tls.insecure must be a boolean" 3 --out '"tls.insecure" must be true or false'
config_file "$TMP/bad4.json" '{"t": {"type": "sse", "url": "http://x/", "timeout": -5}}'
run --config "$TMP/bad4.json" servers
expect "timeout must be a positive number of milliseconds" 3 --out '"timeout" must be'

# ---- TLS ----

openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$TMP/key.pem" \
  -out "$TMP/cert.pem" >/dev/null 2>&1
serve --cert "$TMP/cert.pem" --key "$TMP/key.pem"
TURL="https://127.0.0.1:$P/sse"
sse_config "$TMP/tls1.json" tls "$TURL"
run --config "$TMP/tls1.json" servers
expect "an unknown certificate is refused, naming the URL" 3 \
  --out "cannot connect to $TURL: SSL certificate problem"
sse_config "$TMP/tls2.json" tls "$TURL" "\"tls\": {\"caFile\": \"$TMP/cert.pem\"}"
run --config "$TMP/tls2.json" call mcp__tls__echo message=trusted
expect "tls.caFile trusts the server's certificate" 0 --out "Echo: trusted" \
  --no-err "verification is off"
sse_config "$TMP/tls3.json" tls "$TURL" '"tls": {"insecure": true}'
run --config "$TMP/tls3.json" call mcp__tls__echo message=insecure
expect "tls.insecure connects and warns, naming the server" 0 \
  --out "Echo: insecure" \
  --err "warning: [tls] TLS certificate verification is off for server \"tls\""

# ---- an http URL redirected to https ----

# The only cross-scheme redirect followed is http -> https on the same host
# with both default ports, so this needs ports 80 and 443 of 127.0.0.1.
serve --cert "$TMP/cert.pem" --key "$TMP/key.pem" --port 443
TLS_LOG=$LOG TLS_PID=$!
if [ "$P" = 443 ]; then
  serve --port 80 --redirect-sse https://127.0.0.1/sse
fi
if [ "$P" = 80 ]; then
  UPG="\"tls\": {\"caFile\": \"$TMP/cert.pem\"}"
  sse_config "$TMP/upgrade.json" up http://127.0.0.1/sse "$UPG"
  run --config "$TMP/upgrade.json" call mcp__up__echo message=upgraded
  expect "after an http -> https redirect a relative endpoint is resolved against https" 0 \
    --out "Echo: upgraded"
  check "the POSTs went to the https server, none to the http one" \
    bash -c '[ "$(jq -s "[.[] | select(.method == \"POST\")] | length" "$1")" -gt 0 ] &&
      [ "$(jq -s "[.[] | select(.method == \"POST\")] | length" "$2")" = 0 ]' \
    _ "$TLS_LOG" "$LOG"
  kill "$TLS_PID"
  wait "$TLS_PID" 2>/dev/null
  serve --cert "$TMP/cert.pem" --key "$TMP/key.pem" --port 443 \
    --endpoint 'https://127.0.0.1/message?sessionId={sid}&stream={stream}'
  if [ "$P" = 443 ]; then
    run --config "$TMP/upgrade.json" call mcp__up__echo message=absolute
    expect "after an http -> https redirect an absolute https endpoint of that origin is used" 0 \
      --out "Echo: absolute" --no-out "differs from"
  else
    bad "the https server with an absolute endpoint listens on port 443"
  fi
else
  echo "skip the http -> https redirect checks: ports 80 and 443 of 127.0.0.1 are not free (or not root)"
fi

# ---- proxies ----

serve
sse_config "$TMP/proxy.json" t "http://mcp.example.invalid/sse"
http_proxy="http://127.0.0.1:$P" no_proxy="" NO_PROXY="" \
  run --config "$TMP/proxy.json" call mcp__t__echo message=proxied
expect "http_proxy from the environment is used" 0 --out "Echo: proxied"
check "... for the stream and the POSTs" \
  logged '[.[] | select(.method != null)] | length >= 3 and all(.url | startswith("http://mcp.example.invalid/"))'

finish
