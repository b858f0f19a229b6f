#!/usr/bin/env bash
# serve --http: a client without the token (or with a foreign Host or
# Origin) is answered on the head of its request, not after the gateway
# held up to 4 MiB of body for it. The attack: a head announcing a large
# body, none of it sent; before the fix the gateway waited for the body
# (and kept what came) before it looked at the token.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/gateway_http.sh"
TOK="$TMP/token"
gateway_start --token-file "$TOK"

# head EXTRA_HEADERS: sends a POST's head announcing a 4000000-byte body
# and no body; prints the status line it gets, or "none" when the
# gateway says nothing (the socket timeout only ends a test that would
# otherwise hang; no timing is asserted).
head_only() {
  "$PY" - "$PORT" "$1" <<'PYEOF'
import socket, sys
port = int(sys.argv[1])
extra = sys.argv[2].replace("\\r\\n", "\r\n")
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(20)
head = ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
        "Content-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\n"
        "%sContent-Length: 4000000\r\n\r\n" % (port, extra))
s.sendall(head.encode())
try:
    data = s.recv(4096)
except socket.timeout:
    data = b""
line = data.split(b"\r\n", 1)[0].decode(errors="replace")
print(line if line else "none")
print("close" if b"\r\nConnection: close\r\n" in data else "keep")
PYEOF
}

OUT=$(head_only "")
check "no token: 401 on the head, before any body" \
  test "$(echo "$OUT" | head -1)" = "HTTP/1.1 401 Unauthorized"
check "no token: the connection ends with the answer (the body is not read)" \
  test "$(echo "$OUT" | tail -1)" = close

OUT=$(head_only "Authorization: Bearer wrong-token-0123456789\r\n")
check "a wrong token: 401 on the head" \
  test "$(echo "$OUT" | head -1)" = "HTTP/1.1 401 Unauthorized"

OUT=$(head_only "Origin: http://evil.example\r\nAuthorization: Bearer $(head -1 "$TOK")\r\n")
check "a foreign Origin: 403 on the head" \
  test "$(echo "$OUT" | head -1)" = "HTTP/1.1 403 Forbidden"

# The right token: the gateway waits for the body (nothing said yet).
# The body then comes, and the request is answered as before.
OUT=$("$PY" - "$PORT" "$(head -1 "$TOK")" <<'PYEOF'
import socket, sys
port, tok = int(sys.argv[1]), sys.argv[2]
body = (b'{"jsonrpc":"2.0","id":1,"method":"initialize","params":'
        b'{"protocolVersion":"2025-11-25","capabilities":{},'
        b'"clientInfo":{"name":"t","version":"1"}}}')
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(20)
head = ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
        "Content-Type: application/json\r\n"
        "Accept: application/json, text/event-stream\r\n"
        "Authorization: Bearer %s\r\n"
        "Content-Length: %d\r\n\r\n" % (port, tok, len(body)))
s.sendall(head.encode())
s.sendall(body[:10])
s.sendall(body[10:])
data = s.recv(65536)
print(data.split(b"\r\n", 1)[0].decode(errors="replace"))
PYEOF
)
check "the token, the body in pieces: the request is answered (200)" \
  test "$OUT" = "HTTP/1.1 200 OK"
finish
