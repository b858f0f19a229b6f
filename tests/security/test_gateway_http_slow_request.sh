#!/usr/bin/env bash
# serve --http: a connection has MCPHOST_SERVE_REQUEST_MS (30 s; 500 ms
# here) to deliver a request, from its start or its previous answer. A
# client that trickles a head gets 408 and the connection's end, and an
# idle connection is closed: before, either held a connection (one of
# the 512) for as long as the client liked (slowloris). An SSE stream is
# not bound by it.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/gateway_http.sh"
MCPHOST_SERVE_REQUEST_MS=500 gateway_start

# client MODE: "partial" sends half a head, "idle" nothing, "sse" opens
# a session's GET stream; then reads until the gateway closes (the 20 s
# socket timeout only ends a test that would hang: "open") and prints
# the first status line ("none" without one) and "closed" or "open".
client() {
  "$PY" - "$PORT" "$1" <<'PYEOF'
import json, socket, sys
port, mode = int(sys.argv[1]), sys.argv[2]
def conn():
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(20)
    return s
s = conn()
if mode == "partial":
    s.sendall(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port).encode())
elif mode == "sse":
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"protocolVersion": "2025-11-25",
                                  "capabilities": {},
                                  "clientInfo": {"name": "t", "version": "1"}}})
    s.sendall(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
               "Content-Type: application/json\r\n"
               "Accept: application/json, text/event-stream\r\n"
               "Connection: close\r\nContent-Length: %d\r\n\r\n%s"
               % (port, len(body), body)).encode())
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    sid = [l.split(b":", 1)[1].strip() for l in data.split(b"\r\n")
           if l.lower().startswith(b"mcp-session-id:")][0].decode()
    s = conn()
    s.settimeout(3)  # the stream stays open: this is what is checked
    s.sendall(("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
               "Accept: text/event-stream\r\nMcp-Session-Id: %s\r\n\r\n"
               % (port, sid)).encode())
data, state = b"", "closed"
try:
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
except socket.timeout:
    state = "open"
line = data.split(b"\r\n", 1)[0].decode(errors="replace")
print(line or "none")
print(state)
PYEOF
}

OUT=$(client partial)
check "half a head: 408 Request Timeout" \
  test "$(echo "$OUT" | sed -n 1p)" = "HTTP/1.1 408 Request Timeout"
check "half a head: the connection is closed" \
  test "$(echo "$OUT" | sed -n 2p)" = closed
OUT=$(client idle)
check "an idle connection is closed, without an answer" \
  test "$(echo "$OUT" | tr '\n' ,)" = "none,closed,"
OUT=$(client sse)
check "an SSE stream stays open beyond the request time" \
  test "$(echo "$OUT" | tr '\n' ,)" = "HTTP/1.1 200 OK,open,"
finish
