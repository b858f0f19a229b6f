#!/usr/bin/env bash
# mcphost serve at its edges (docs/gateway.md): the capabilities the
# backends together give (resources.subscribe), a loopback address other
# than 127.0.0.1 taking its own URL, the 16 KiB head limit whatever the
# reads, a port in use, the listen backlog, a backend's roots/list that
# no call caused, results sanitized as text bound for a model (and kept
# with --sanitize=off), and a signal with calls in flight (answered, and
# cancelled at the backend). The TS SDK's client
# (tests/interop/gateway_edges.mjs), curl and raw sockets.
. "$(dirname "$0")/../lib/lib.sh"

command -v curl >/dev/null || skip_test "no curl"
. "$(dirname "$0")/../lib/gateway_setup.sh"

BLOG="$TMP/backend.log"
: >"$BLOG"
C2="$TMP/edges.json"
config_file "$C2" "{
  \"demo\": {\"command\": \"$DEMO\"},
  \"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]},
  \"grow\": {\"command\": \"node\", \"args\": [\"$INTEROP/gateway_backend.mjs\"],
             \"env\": {\"GATEWAY_BACKEND_LOG\": \"$BLOG\"}}}"

# edges SCENARIO: the SDK client plays SCENARIO against GW_URL.
edges() {
  node "$INTEROP/gateway_edges.mjs" "$1" "$GW_URL" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
J=(-H "Content-Type: application/json" -H "Accept: application/json, text/event-stream")
INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'

# Capabilities: resources.subscribe when a backend has it.
start_gateway "$C2" 127.0.0.1:0 || exit 1
edges caps
expect "serve: a backend that supports resources/subscribe makes the gateway advertise it" 0 \
  --jq '.capabilities.resources.subscribe == true and .capabilities.resources.listChanged == true and .capabilities.tools.listChanged == true'
stop_gateway
start_gateway "$C2" 127.0.0.1:0 --server demo || exit 1
edges caps
expect "serve: without such a backend, no resources.subscribe" 0 \
  --jq '.capabilities.resources.listChanged == true and (.capabilities.resources | has("subscribe") | not)'
stop_gateway

# Results bound for a model: sanitized, unless --sanitize=off.
start_gateway "$C2" 127.0.0.1:0 || exit 1
edges sanitize
expect "serve: a result's zero-width space, right-to-left override and tag characters do not reach the client" 0 \
  --jq '.tool == "Echo: abcd" and (.prompt | contains("abcd")) and .read == "item abcd"'
stop_gateway
GW_OPTS=(--sanitize=off)
start_gateway "$C2" 127.0.0.1:0 || exit 1
GW_OPTS=()
edges sanitize
expect "serve --sanitize=off: results leave as the backend sent them" 0 \
  --jq '.tool == "Echo: a\u200bb\u202ec\udb40\udc41\udb40\udc42d" and (.prompt | contains("a\u200bb\u202ec\udb40\udc41\udb40\udc42d")) and .read == "item a\u200bb\u202ec\udb40\udc41\udb40\udc42d"'
stop_gateway

# A roots/list that no call caused: the gateway's roots, not the client's.
mkdir -p "$TMP/gwroot"
node "$INTEROP/gateway_edges.mjs" roots "$MCPHOST" --root "$TMP/gwroot" \
  --mcp-config "$C2" serve --stdio --server every >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "serve: a backend's roots/list tied to no call is not put to the client whose call runs" 0 \
  --jq '.asked_roots == 0 and (.long | startswith("Long running operation completed")) and (.held | contains("gwroot")) and (.held | contains("client/secret") | not)'

# Another loopback address: its own URL is taken (Host and Origin).
start_gateway "$C2" 127.0.0.2:0 --server demo || exit 1
check "serve --http 127.0.0.2:0 says its URL" \
  grep -Eq '^mcphost serve: listening on http://127.0.0.2:[0-9]+/mcp$' "$GW_ERR"
HOSTPORT=${GW_URL#http://}
HOSTPORT=${HOSTPORT%/mcp}
curl -s -o /dev/null -w '%{http_code}' "${J[@]}" -d "$INIT" "$GW_URL" >"$TMP/code"
check "serve --http 127.0.0.2: a request to its own URL is answered (not 421)" \
  grep -qx 200 "$TMP/code"
curl -s -o /dev/null -w '%{http_code}' "${J[@]}" -H "Origin: http://$HOSTPORT" \
  -d "$INIT" "$GW_URL" >"$TMP/code"
check "serve --http 127.0.0.2: a page of its own origin is let through" \
  grep -qx 200 "$TMP/code"
curl -s -o /dev/null -w '%{http_code}' "${J[@]}" -H "Host: evil.example" \
  -d "$INIT" "$GW_URL" >"$TMP/code"
check "serve --http 127.0.0.2: a foreign Host is still 421" grep -qx 421 "$TMP/code"
stop_gateway

# The head limit, 16 KiB exactly, whole or in pieces; the backlog.
start_gateway "$C2" 127.0.0.1:0 --server demo || exit 1
PORT=${GW_URL#http://127.0.0.1:}
PORT=${PORT%/mcp}
"$PY" - "$PORT" >"$TMP/heads" <<'EOF'
import socket, sys
port = int(sys.argv[1])
def status(size, piece):
    # A GET of exactly `size` bytes of head, its empty line included.
    start = b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: "
    end = b"\r\n\r\n"
    head = start + b"a" * (size - len(start) - len(end)) + end
    assert len(head) == size
    s = socket.create_connection(("127.0.0.1", port))
    for i in range(0, len(head), piece):
        s.sendall(head[i:i + piece])
    answer = b""
    while b"\r\n" not in answer:
        got = s.recv(4096)
        if not got:
            break
        answer += got
    s.close()
    return answer.split(b" ")[1].decode() if answer else "closed"
# (A larger head is refused before it all arrived: the client's further
# writes then meet a closed connection, not a test of the limit.)
for size in (16384, 16385):
    for piece in (size, 1000, 16384, 16383):
        print(size, piece, status(size, piece))
EOF
check "serve --http: a head of 16384 bytes is read, whole or in pieces (not 431)" \
  bash -c "! grep -Eq '^16384 [0-9]+ (431|closed)$' '$TMP/heads' && [ \$(grep -c '^16384 ' '$TMP/heads') = 4 ]"
check "serve --http: a head of 16385 bytes is 431, whole or in pieces" \
  bash -c "[ \$(grep -Ec '^16385 [0-9]+ 431$' '$TMP/heads') = 4 ]"
BACKLOG=$(ss -ltnH "sport = :$PORT" 2>/dev/null | awk '{print $3}' | head -1)
if [ -n "$BACKLOG" ] && [ -r /proc/sys/net/core/somaxconn ]; then
  check "serve --http: the listen backlog is the system's maximum" \
    [ "$BACKLOG" = "$(cat /proc/sys/net/core/somaxconn)" ]
fi

# A port in use: a usage error that says so.
run --mcp-config "$C2" serve --http "127.0.0.1:$PORT" --server demo
expect "serve --http on a port in use is a usage error naming it" 2 \
  --err "127.0.0.1:$PORT: the address is already in use"
stop_gateway

# A signal with calls in flight: each is answered, and cancelled at its
# backend.
start_gateway "$C2" 127.0.0.1:0 --server grow || exit 1
curl -s -D "$TMP/head" "${J[@]}" -d "$INIT" "$GW_URL" >/dev/null
SID=$(sed -n 's/^Mcp-Session-Id: \([0-9a-f]*\).*/\1/ip' "$TMP/head")
curl -s "${J[@]}" -H "Mcp-Session-Id: $SID" \
  -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$GW_URL" >/dev/null
curl -s -N "${J[@]}" -H "Mcp-Session-Id: $SID" \
  -d '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mcp__grow__wait","arguments":{}}}' \
  "$GW_URL" >"$TMP/stream" 2>/dev/null &
CURL=$!
for _ in $(seq 150); do
  grep -q "wait started" "$BLOG" && break
  sleep 0.1
done
stop_gateway
wait "$CURL"
check "serve --http: SIGTERM answers a call in flight with an error saying the gateway stops" \
  bash -c "grep '^data: {' '$TMP/stream' | sed 's/^data: //' | jq -se 'any(.[]; .id == 7 and .error.data.kind == \"interrupted\" and (.error.message | contains(\"gateway is stopping\")))'"
check "serve --http: ... and cancels it at the backend" grep -q "wait cancelled" "$BLOG"

: >"$BLOG"
mkfifo "$TMP/in"
"$MCPHOST" --mcp-config "$C2" serve --stdio --server grow <"$TMP/in" >"$TMP/stdout" 2>"$TMP/stderr" &
SPID=$!
on_exit "kill $SPID 2>/dev/null"
exec 3>"$TMP/in"
printf '%s\n' "$INIT" '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"mcp__grow__wait","arguments":{}}}' >&3
for _ in $(seq 150); do
  grep -q "wait started" "$BLOG" && break
  sleep 0.1
done
kill -TERM "$SPID"
wait "$SPID"
exec 3>&-
check "serve --stdio: SIGTERM answers a call in flight with an error saying the gateway stops" \
  jq -se 'any(.[]; .id == 7 and .error.data.kind == "interrupted" and (.error.message | contains("gateway is stopping")))' "$TMP/stdout"
check "serve --stdio: ... and cancels it at the backend" grep -q "wait cancelled" "$BLOG"

finish
