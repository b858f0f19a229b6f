#!/usr/bin/env bash
# The ws transport (transports/ws) against a WebSocket MCP server of ours
# (tests/servers/ws_server.mjs, on the npm ws package): ws and wss with a
# CA made here, mTLS, headers and headersHelper, big, fragmented and
# binary messages, frame heads cut when the reading changes hands (or
# may), the message cap, a dropped connection and the
# reconnect, an upgrade never answered, a refused subprotocol, proxies,
# lazy loading, and no thread or fd left after a close.
. "$(dirname "$0")/../lib/lib.sh"
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy
WS_SERVER="$SRCDIR/tests/servers/ws_server.mjs"
[ -d "$INTEROP/node_modules/ws" ] || skip_test "the npm ws package is not installed"
command -v openssl >/dev/null || skip_test "no openssl to make certificates"

# start_ws VAR ARGS...: starts the test server; its port in $VAR_PORT and
# the file it prints to (close codes, tunnels) in $VAR_LOG.
start_ws() {
  local var=$1
  shift
  start_listener node "$WS_SERVER" "$@" || exit 1
  printf -v "${var}_PORT" '%s' "$LISTEN_PORT"
  printf -v "${var}_LOG" '%s' "$LISTEN_LOG"
}
# wait_log FILE TEXT: until FILE holds TEXT (bounded).
wait_log() {
  for _ in $(seq 100); do grep -qF -- "$2" "$1" && return 0; sleep 0.05; done
  return 1
}

# A batch process kept open across requests: batch_open CONFIG [FLAG...]
# (more flags for mcphost); ask LINE
# (writes one request, reads its answer into OUT, line by line);
# wait_reconnect (until stderr says it reconnects); batch_close (RC, ERR).
batch_open() {
  coproc B { exec "$MCPHOST" -v "${@:2}" --config "$1" batch 2>"$TMP/err"; }
  BPID=$B_PID
  OUT=""
}
ask() {
  local line
  echo "$1" >&"${B[1]}"
  read -r line <&"${B[0]}"
  OUT="$OUT${OUT:+
}$line"
}
wait_reconnect() {
  for _ in $(seq 100); do grep -q "reconnecting in" "$TMP/err" && return; sleep 0.1; done
}
batch_close() {
  exec {B[1]}>&-
  wait "$BPID"
  RC=$?
  ERR=$(cat "$TMP/err")
}

# ---- certificates: a CA, a server (localhost and 127.0.0.1), a server
# for localhost only, a client ----
C="$TMP/certs"
mkdir -p "$C"
mkcert() { # NAME CN [SAN]
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -keyout "$C/$1.key" -out "$C/$1.csr" -subj "/CN=$2" 2>/dev/null
  if [ -n "${3:-}" ]; then echo "subjectAltName=$3" >"$C/$1.ext"; else : >"$C/$1.ext"; fi
  openssl x509 -req -in "$C/$1.csr" -CA "$C/ca.pem" -CAkey "$C/ca.key" \
    -CAcreateserial -out "$C/$1.pem" -days 2 -extfile "$C/$1.ext" 2>/dev/null
}
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
  -keyout "$C/ca.key" -out "$C/ca.pem" -subj "/CN=mcphost test CA" -days 2 2>/dev/null
mkcert server localhost "DNS:localhost,IP:127.0.0.1"
mkcert named localhost "DNS:localhost"
mkcert client mcphost-test-client
check "the test CA and certificates were made" test -s "$C/client.pem"

# ---- plain ws ----
start_ws W
cfg() { config_file "$TMP/$1.json" "$2"; }
cfg w "{\"w\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$W_PORT/mcp\"}}"

run --config "$TMP/w.json" tools
expect "tools over ws" 0 --out "mcp__w__echo" --out "mcp__w__fragmented"
run --config "$TMP/w.json" call w/echo message=hello
expect "a call over ws" 0 --out "hello"
check "the close is a clean one: code 1000" wait_log "$W_LOG" "close 1000"
run --url "sock=ws://127.0.0.1:$W_PORT/" call sock/echo message=inferred
expect "--url NAME=ws://... is a ws server" 0 --out "inferred"

run --config "$TMP/w.json" call w/echo_headers
expect "the upgrade asks for the subprotocol mcp, says who we are, sends no Origin" 0 \
  --out '"sec-websocket-protocol":"mcp"' --out '"user-agent":"mcphost/' \
  --no-out '"origin"'

run --config "$TMP/w.json" call w/big size=10485760
check "a 10 MiB message arrives whole" test "${#OUT}" -eq 10485760
run --config "$TMP/w.json" call w/fragmented parts=9 size=300000
expect "a message in 9 continuation frames is reassembled" 0 \
  --out "in 9 parts: yyyy"
check "... to its full length" test "${#OUT}" -eq $((300000 + 12))

# Requests either side of the frame a send writes at once (4096 bytes,
# WS_SEND_NOW_MAX) and past one fragment (64 KiB) arrive whole: each
# message comes back as sent.
reqs=() want=()
for n in 1 4000 4060 4080 4096 4097 4200 65536 70000; do
  m=$(head -c "$n" /dev/zero | tr '\0' 'q')
  reqs+=("{\"id\":$n,\"call\":\"w/echo\",\"arguments\":{\"message\":\"$m\"}}")
  want+=(--out "{\"id\":$n,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"$m\"}]}}")
done
batch_run "$TMP/w.json" "${reqs[@]}"
expect "requests of 1 B to 70000 B, around the frame written at once, come back whole" 0 \
  "${want[@]}"
run --config "$TMP/w.json" call w/binary
expect "a binary frame is refused with a clear warning, the text after it delivered" 0 \
  --out "after the binary frame" \
  --err "a binary message (4 bytes) from ws://127.0.0.1:$W_PORT/mcp was refused: MCP over WebSocket carries JSON text messages only"
run --config "$TMP/w.json" call w/empty
expect "an empty text message is ignored with a warning, the text after it delivered" 0 \
  --out "after the empty message" \
  --err "an empty text message from ws://127.0.0.1:$W_PORT/mcp was ignored"

# The cap fails the message, not the connection: the next call works.
cfg cap "{\"w\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$W_PORT/\", \"maxMessageBytes\": 100000}}"
batch_run "$TMP/cap.json" '{"id":1,"call":"w/big","arguments":{"size":200000}}' \
  '{"id":2,"call":"w/echo","arguments":{"message":"still here"}}'
expect "a message over maxMessageBytes fails that call only" 0 \
  --out '"id":1,"error"' --out "exceeds the 100000-byte message limit" \
  --out '"text":"still here"'

# ---- the control frames of a ws:// connection, read by the transport
# itself once it is open (transports/ws/ws_in.c), not by libwebsockets ----
run --config "$TMP/w.json" call w/pinged payload=ping-payload
expect "a ping from the server is answered with a pong of its payload" 0 \
  --out "pong ping-payload"
batch_run "$TMP/w.json" '{"id":1,"call":"w/echo","arguments":{"message":"first"}}' \
  '{"id":2,"call":"w/close","arguments":{"code":4001,"reason":"bye now"}}'
expect "a close frame from the server ends the connection with its code and reason" 0 \
  --out '"text":"first"' --out '"id":2,"error"' \
  --out "the server at ws://127.0.0.1:$W_PORT/mcp closed the WebSocket (code 4001: bye now)"
check "... and is answered with a close frame of its code" wait_log "$W_LOG" "close 4001"
run --config "$TMP/w.json" call w/trickle
expect "frames cut anywhere by the reads (heads, a ping between fragments) arrive whole" 0 \
  --out "trickled zzzz"
check "... all of it" test "${#OUT}" -eq $((9 + 200))
batch_run "$TMP/w.json" '{"id":1,"call":"w/bad_frame"}'
expect "a frame that breaks the protocol ends the connection, named" 0 \
  --out '"id":1,"error"' \
  --out "the WebSocket connection to ws://127.0.0.1:$W_PORT/mcp was ended: the server sent a reserved bit set (no extension was agreed)"

# ---- frame heads cut at the moments the reading may change hands: the
# 101 answer carries a head's first byte (lws has read it: lws reads the
# connection), or comes alone (the transport reads it); each answer
# carries the start of the next head, completed only when the client
# sends again ----
for mode in with alone; do
  if [ $mode = alone ]; then
    start_ws X --cut-heads --upgrade-alone
    reader="read by the transport"
    label="the 101 answer alone"
  else
    start_ws X --cut-heads
    reader="read by lws (some came with the upgrade)"
    label="a head's first byte with the 101 answer"
  fi
  cfg x "{\"x\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$X_PORT/\"}}"
  batch_open "$TMP/x.json" -v -v
  for i in 1 2 3 4 5 6; do
    ask "{\"id\":$i,\"call\":\"x/echo\",\"arguments\":{\"message\":\"m$i\"}}"
  done
  batch_close
  expect "heads cut by the writes arrive whole ($label)" 0 \
    --out '"id":1,"result"' --out '"text":"m1"' --out '"text":"m6"' \
    --err "server log: note 1 nnnnnnnnnn" --err "server log: note 2 nnnn" \
    --err "server log: note 3 nnnn" --err "server log: note 4 nnnn" \
    --err "server log: note 5 nnnnnnnnnn" --err "server log: note 7 nnnn" \
    --err "frames from ws://127.0.0.1:$X_PORT/ $reader"
  check "... with no error" test "$(printf '%s\n' "$OUT" | grep -c '"error"')" -eq 0
  check "... and a clean close" wait_log "$X_LOG" "close 1000"
done

# ---- a dropped connection: reported, reconnected; no fd or thread left ----
start_ws D
cfg d "{\"d\": {\"type\": \"ws\", \"url\": \"ws://localhost:$D_PORT/\"}}"
batch_open "$TMP/d.json"
ask '{"id":1,"call":"d/connections"}'
fds1=$(ls /proc/$BPID/fd | wc -l)
threads1=$(ls /proc/$BPID/task | wc -l)
ask '{"id":2,"call":"d/drop"}'
wait_reconnect
ask '{"id":3,"call":"d/connections"}'
fds2=$(ls /proc/$BPID/fd | wc -l)
threads2=$(ls /proc/$BPID/task | wc -l)
batch_close
expect "a dropped connection is reported and the next call reconnects" 0 \
  --out '"text":"connections: 1"' --out '"id":2,"error"' \
  --out '"text":"connections: 2"' \
  --err "the WebSocket connection to ws://localhost:$D_PORT/ was lost (no close frame)" \
  --err "reconnecting in 1000 ms (attempt 1 of 5)"
check "no fd is left from the dropped connection ($fds1 then $fds2)" \
  test "$fds1" -eq "$fds2"
check "the transport runs no thread of its own ($threads1 then $threads2)" \
  test "$threads1" -eq 1 -a "$threads2" -eq 1

# SIGPIPE: the server goes away while a 4 MiB message is being written.
head -c 4194304 /dev/zero | tr '\0' 'z' >"$TMP/z"
printf '{"id":1,"call":"d/drop"}\n{"id":2,"call":"d/echo","arguments":{"message":"%s"}}\n' \
  "$(cat "$TMP/z")" >"$TMP/pipe.req"
"$MCPHOST" --config "$TMP/d.json" batch <"$TMP/pipe.req" >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
check "a server gone mid-write never kills mcphost with SIGPIPE (exit $RC)" \
  test "$RC" -ne 141 -a "$RC" -lt 128
expect "... and both requests are answered" "$RC" --out '"id":1' --out '"id":2'

# ---- keepalive: pings from host timers; no pong ends the connection ----
# A ping every 500 ms, each answered within as long: a server slowed by
# a loaded machine (the sanitizers' build) still answers in time.
cfg k "{\"d\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$D_PORT/\", \"pingInterval\": 500}}"
batch_open "$TMP/k.json"
ask '{"id":1,"call":"d/connections"}'
first=$OUT
sleep 3 # six pings, each answered
ask '{"id":2,"call":"d/connections"}'
batch_close
n=$(sed -n 's/.*connections: \([0-9]*\).*/\1/p' <<<"$first")
expect "answered pings keep the connection: no reconnect" 0 \
  --out "\"text\":\"connections: $n\"" --no-err "reconnecting"
check "... the same connection served both calls" \
  test "$(grep -c "connections: $n\"" <<<"$OUT")" -eq 2
check "... and the server saw the pings" test "$(grep -c '^ping$' "$D_LOG")" -ge 3
start_ws Q --no-pong
cfg q "{\"q\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$Q_PORT/\", \"pingInterval\": 200}}"
batch_open "$TMP/q.json"
ask '{"id":1,"call":"q/connections"}'
wait_reconnect
ask '{"id":2,"call":"q/connections"}'
batch_close
expect "a server that never answers a ping is dropped, and reconnected" 0 \
  --out '"text":"connections: 1"' --out '"text":"connections: 2"' \
  --err "was lost: no answer to a ping within 200 ms"
cfg kbad "{\"q\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$Q_PORT/\", \"pingInterval\": -1}}"
run --config "$TMP/kbad.json" tools
expect "a bad pingInterval is named" 3 --err "\"pingInterval\" must be a whole number"

# An upgrade request too big for libwebsockets' buffer is reported, not
# lost (4.1.6 closes such a connection without a callback).
big=$(head -c 40000 /dev/zero | tr '\0' 'h')
cfg huge "{\"w\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$W_PORT/\", \"headers\": {\"X-Big\": \"$big\"}, \"timeout\": 5000}}"
run --config "$TMP/huge.json" tools
expect "headers too big for the upgrade fail at once, with the reason" 3 \
  --err "do not fit"

# ---- handshake failures ----
start_ws N --never-upgrade
cfg n "{\"n\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$N_PORT/\", \"timeout\": 800}}"
run --config "$TMP/n.json" tools
expect "an upgrade never answered fails at the transport's deadline" 3 \
  --err "no WebSocket connection to ws://127.0.0.1:$N_PORT/ within 800 ms (waiting for an answer to the upgrade)"
start_ws S --subprotocol none
cfg s "{\"s\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$S_PORT/\"}}"
run --config "$TMP/s.json" tools
expect "a server that does not accept the subprotocol mcp is refused" 3 \
  --err "the WebSocket upgrade at ws://127.0.0.1:$S_PORT/ failed: the server did not accept the subprotocol \"mcp\""
start_ws O --subprotocol graphql-ws
cfg o "{\"o\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$O_PORT/\"}}"
run --config "$TMP/o.json" tools
expect "a server that picks another subprotocol is refused" 3 \
  --err "the server chose a subprotocol other than \"mcp\""
cfg bad '{"b": {"type": "ws", "url": "http://127.0.0.1:1/"}}'
run --config "$TMP/bad.json" tools
expect "an http URL for a ws server is named as the fault" 3 \
  --err "\"url\" must be an absolute ws or wss URL (the scheme is \"http\", not ws or wss)"
closed=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
cfg refused "{\"r\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$closed/\"}}"
run --config "$TMP/refused.json" tools
expect "a closed port: the server cannot be reached" 3 \
  --err "the server at ws://127.0.0.1:$closed/ cannot be reached: Connection refused"

# ---- headers and headersHelper ----
start_ws H --require-header X-Token secret
cfg h "{\"h\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$H_PORT/\"}}"
run --config "$TMP/h.json" tools
expect "without the required header the upgrade is refused (401: needs authorization)" 7 \
  --err "HTTP 401"
cfg h "{\"h\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$H_PORT/\", \"headers\": {\"X-Token\": \"secret\"}}}"
run --config "$TMP/h.json" tools
expect "a configured header is sent with the upgrade" 0 --out "mcp__h__echo"

cat >"$TMP/helper.sh" <<'SH'
#!/bin/sh
# Prints the headers; says what it was told.
echo "$CLAUDE_CODE_MCP_SERVER_NAME $CLAUDE_CODE_MCP_SERVER_URL $*" >"$HELPER_SAW"
printf '{"X-Token": "secret", "X-From": "helper"}'
SH
chmod +x "$TMP/helper.sh"
export HELPER_SAW="$TMP/helper.saw"
cfg hh "{\"h\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$H_PORT/\", \"headers\": {\"X-Token\": \"wrong\", \"X-Kept\": \"1\"}, \"headersHelper\": \"$TMP/helper.sh 'one arg'\"}}"
run --config "$TMP/hh.json" call h/echo_headers
expect "headersHelper's headers are merged over the configured ones" 0 \
  --out '"x-token":"secret"' --out '"x-from":"helper"' --out '"x-kept":"1"'
check "the helper ran without a shell, told the server's name and URL" \
  grep -qx "h ws://127.0.0.1:$H_PORT/ one arg" "$HELPER_SAW"

printf '#!/bin/sh\necho "no token for you" >&2\nexit 3\n' >"$TMP/fail.sh"
chmod +x "$TMP/fail.sh"
cfg hf "{\"h\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$H_PORT/\", \"headersHelper\": \"$TMP/fail.sh\"}}"
run --config "$TMP/hf.json" tools
expect "a failing headersHelper is named, with the server and its stderr" 3 \
  --err "server \"h\": headersHelper \"$TMP/fail.sh\" exited with status 3: no token for you"
printf '#!/bin/sh\necho "[1, 2]"\n' >"$TMP/notobj.sh"
chmod +x "$TMP/notobj.sh"
cfg hn "{\"h\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$H_PORT/\", \"headersHelper\": \"$TMP/notobj.sh\"}}"
run --config "$TMP/hn.json" tools
expect "a headersHelper printing no JSON object is named" 3 \
  --err "headersHelper \"$TMP/notobj.sh\" did not print a JSON object of headers"

# An auth provider (fixture fx-auth, as test_auth_provider.sh) gives the
# Authorization of the upgrade; a 401 reaches it as a parsed challenge.
cfg a "{\"good\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$W_PORT/\", \"headers\": {\"Authorization\": \"Bearer configured\"}}, \"plain\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$H_PORT/\"}}"
run --plugin-dir "$FIXTURES/auth" --config "$TMP/a.json" call good/echo_headers
expect "the auth provider's Authorization replaces the configured one" 0 \
  --out '"authorization":"Bearer fixture-good"' --no-out "configured"
run --plugin-dir "$FIXTURES/auth" --config "$TMP/a.json" call plain/echo
expect "a 401 at the upgrade reaches the provider with its WWW-Authenticate" 7 \
  --err "[test.auth] challenge for plain: HTTP 401 scheme=Bearer"

# A project server's helper runs only once the server is approved.
mkdir -p "$TMP/proj"
printf '#!/bin/sh\ntouch "%s"\nprintf "{}"\n' "$TMP/proj-helper-ran" >"$TMP/proj-helper.sh"
chmod +x "$TMP/proj-helper.sh"
printf '{"mcpServers": {"p": {"type": "ws", "url": "ws://127.0.0.1:%s/", "headersHelper": "%s"}}}\n' \
  "$W_PORT" "$TMP/proj-helper.sh" >"$TMP/proj/.mcp.json"
(cd "$TMP/proj" && "$MCPHOST" tools >"$TMP/out" 2>"$TMP/err"); RC=$?
ERR=$(cat "$TMP/err"); OUT=$(cat "$TMP/out")
expect "an unapproved project server is not started; the pending message shows its helper" 0 \
  --err "awaiting approval" --err "headersHelper: \"$TMP/proj-helper.sh\""
check "... and its headersHelper did not run" test ! -e "$TMP/proj-helper-ran"
(cd "$TMP/proj" && "$MCPHOST" --approve-project tools >"$TMP/out" 2>"$TMP/err"); RC=$?
ERR=$(cat "$TMP/err"); OUT=$(cat "$TMP/out")
expect "approved, the project server connects" 0 --out "mcp__p__echo"
check "... and its headersHelper ran" test -e "$TMP/proj-helper-ran"

# ---- wss ----
start_ws T --tls "$C/server.pem" "$C/server.key"
cfg t "{\"t\": {\"type\": \"ws\", \"url\": \"wss://localhost:$T_PORT/\", \"tls\": {\"caFile\": \"$C/ca.pem\"}}}"
run --config "$TMP/t.json" call t/echo message=secure
expect "wss to a host name, verified with tls.caFile" 0 --out "secure"
cfg t0 "{\"t\": {\"type\": \"ws\", \"url\": \"wss://127.0.0.1:$T_PORT/\"}}"
run --config "$TMP/t0.json" tools
expect "wss without the CA: the certificate is refused, with the reason" 3 \
  --err "the server's certificate was refused: unable to get local issuer certificate"
cfg ti "{\"t\": {\"type\": \"ws\", \"url\": \"wss://127.0.0.1:$T_PORT/\", \"tls\": {\"insecure\": true}}}"
run --config "$TMP/ti.json" call t/echo message=unverified
expect "tls.insecure connects, with a warning" 0 --out "unverified" \
  --err "TLS certificate verification is off for server \"t\""
start_ws U --tls "$C/named.pem" "$C/named.key"
cfg tn "{\"t\": {\"type\": \"ws\", \"url\": \"wss://127.0.0.1:$U_PORT/\", \"tls\": {\"caFile\": \"$C/ca.pem\"}}}"
run --config "$TMP/tn.json" tools
expect "a certificate for another name is refused" 3 \
  --err "the server's certificate was refused: IP address mismatch"

start_ws M --tls "$C/server.pem" "$C/server.key" --client-ca "$C/ca.pem"
cfg m "{\"m\": {\"type\": \"ws\", \"url\": \"wss://localhost:$M_PORT/\", \"tls\": {\"caFile\": \"$C/ca.pem\", \"certFile\": \"$C/client.pem\", \"keyFile\": \"$C/client.key\"}}}"
run --config "$TMP/m.json" call m/echo message=mutual
expect "mTLS: the client certificate is accepted" 0 --out "mutual"
cfg m0 "{\"m\": {\"type\": \"ws\", \"url\": \"wss://localhost:$M_PORT/\", \"tls\": {\"caFile\": \"$C/ca.pem\"}}}"
run --config "$TMP/m0.json" tools
expect "mTLS: without a client certificate the server refuses" 3 \
  --err "wss://localhost:$M_PORT/"

echo "not a certificate" >"$C/junk.pem"
cfg mj "{\"m\": {\"type\": \"ws\", \"url\": \"wss://localhost:$M_PORT/\", \"tls\": {\"caFile\": \"$C/ca.pem\", \"certFile\": \"$C/junk.pem\", \"keyFile\": \"$C/client.key\"}}}"
run --config "$TMP/mj.json" tools
expect "a client certificate that cannot be used is named" 3 \
  --err "the TLS client certificate or key cannot be used (\"tls.certFile\", \"tls.keyFile\")"

# ---- proxies from the environment ----
start_ws P --connect-proxy
https_proxy="http://127.0.0.1:$P_PORT" run --config "$TMP/t.json" call t/echo message=tunnelled
expect "wss goes through https_proxy" 0 --out "tunnelled"
check "... through the proxy's tunnel" grep -q "proxied localhost:$T_PORT" "$P_LOG"
: >"$P_LOG"
https_proxy="http://127.0.0.1:$P_PORT" NO_PROXY="example.com,localhost" \
  run --config "$TMP/t.json" call t/echo message=direct
expect "NO_PROXY names a host reached directly" 0 --out "direct"
check "... without the proxy" test ! -s "$P_LOG"
http_proxy="http://127.0.0.1:$P_PORT" run --config "$TMP/w.json" call w/echo message=plain
expect "ws goes through http_proxy" 0 --out "plain"
check "... through the proxy" grep -q "proxied 127.0.0.1:$W_PORT" "$P_LOG"

# ---- server-everything through a WebSocket bridge ----
if [ -f "$EVERYTHING" ]; then
  start_node "$SRCDIR/tests/servers/ws_bridge.mjs" node "$EVERYTHING" stdio
  cfg e "{\"every\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$NODE_PORT/\"}}"
  run --config "$TMP/e.json" tools
  expect "server-everything's tools over ws" 0 --out "mcp__every__echo" \
    --out "mcp__every__get-sum"
  run --config "$TMP/e.json" call every/get-sum a=2 b=40
  expect "a server-everything call over ws" 0 --out "42"
  run --config "$TMP/e.json" read every "demo://resource/static/document/architecture.md"
  expect "a server-everything resource over ws" 0 --out "Architecture"
else
  echo "(server-everything is not installed: its checks over ws are left out)"
fi

# ---- lazy loading: a stdio-only run maps neither lws nor libuv ----
config_file "$TMP/demo.json" "{\"demo\": {\"command\": \"$DEMO\"}, \"w\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$W_PORT/\"}}"
batch_open "$TMP/demo.json"
ask '{"id":1,"call":"demo/echo","arguments":{"message":"x"}}'
maps1=$(grep -cE "libwebsockets|libuv" /proc/$BPID/maps)
ask '{"id":2,"call":"w/echo","arguments":{"message":"y"}}'
maps2=$(grep -cE "libwebsockets|libuv" /proc/$BPID/maps)
batch_close
check "a stdio-only run maps no libwebsockets or libuv" test "$maps1" -eq 0
check "the first ws server maps them" test "$maps2" -gt 0

finish
