#!/usr/bin/env bash
# serve --http: a request's length is one plain number. Two
# Content-Length headers that differ, or one that is not digits only
# ("+4", "-1"), get 400 and the connection's end: before, the last one
# won and strtoull's sign was taken, so a proxy in front that framed by
# the first would see a different next request than the gateway
# (request smuggling). Likewise a head read two ways: a NUL (it ended
# the head, so a Content-Length after it was not read), a bare CR (it
# ended a line), a header name that is no token ("Content-Length :" was
# an unknown header), two Hosts.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/gateway_http.sh"
gateway_start

# send HEADERS BODY: a GET /mcp with HEADERS (\r\n-separated) and BODY;
# prints the first status line, the number of responses it got before
# the gateway closed the connection, and what the 400 said ("framing":
# the length; "session": the request was taken, without a session).
send() {
  "$PY" - "$PORT" "$1" "$2" <<'PYEOF'
import socket, sys
port = int(sys.argv[1])
extra = sys.argv[2].replace("\\r\\n", "\r\n").replace("\\r", "\r")
extra = extra.replace("\\x00", "\x00")
body = sys.argv[3].replace("\\r\\n", "\r\n")
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(20)
s.sendall(("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
           "Accept: text/event-stream\r\n%s\r\n%s" % (port, extra, body))
          .encode())
data = b""
try:
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
except socket.timeout:
    pass
lines = [l for l in data.split(b"\r\n") if l.startswith(b"HTTP/1.1 ")]
print(lines[0].decode() if lines else "none")
print(len(lines))
print("framing" if b"its Content-Length" in data else
      "session" if b"Mcp-Session-Id header is needed" in data else "other")
PYEOF
}
# The body hides a second request: framed by the first length (0) it is
# one, by the second (its length) it is the body of the first.
HIDDEN="GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1:$PORT\r\nConnection: close\r\n\r\n"
HLEN=$(printf "$HIDDEN" | wc -c)
OUT=$(send "Content-Length: 0\r\nContent-Length: $HLEN\r\n" "$HIDDEN")
check "two differing Content-Length headers: 400 for the length" \
  test "$(echo "$OUT" | sed -n 1p),$(echo "$OUT" | sed -n 3p)" = "HTTP/1.1 400 Bad Request,framing"
check "two differing Content-Length headers: nothing more is read" \
  test "$(echo "$OUT" | sed -n 2p)" = 1
OUT=$(send "Content-Length: +4\r\n" "abcd")
check "Content-Length +4: 400 for the length" \
  test "$(echo "$OUT" | sed -n 1p),$(echo "$OUT" | sed -n 3p)" = "HTTP/1.1 400 Bad Request,framing"
OUT=$(send "Content-Length: 0\r\nContent-Length: 0\r\nConnection: close\r\n" "")
check "the same length twice is one length (the request is taken: 400 for its missing session)" \
  test "$(echo "$OUT" | sed -n 3p)" = session
# A head read two ways: each gets 400 for its head and ends the
# connection, the hidden request unread.
for h in "X-A: a\\x00\\r\\nContent-Length: $HLEN\\r\\n" \
    "Content-Length: 0\\r\\nContent-Length : $HLEN\\r\\n" \
    "X-A: a\\rContent-Length: $HLEN\\r\\n" \
    "Host: 127.0.0.1:$PORT\\r\\nContent-Length: $HLEN\\r\\n"; do
  OUT=$(send "$h" "$HIDDEN")
  check "$h: 400 for the head, nothing more is read" \
    test "$(echo "$OUT" | tr '\n' ,)" = "HTTP/1.1 400 Bad Request,1,framing,"
done
finish
