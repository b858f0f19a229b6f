#!/usr/bin/env bash
# serve --http: the open connections are bounded (512). A client that
# opens more gets its next one held in the listen backlog, not taken:
# without the bound each idle connection cost the gateway a descriptor
# until accept(2) failed with EMFILE, and then the loop spun on the
# listening socket and the host could open no file or backend. The held
# connection is taken, and answered, when another closes.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/gateway_http.sh"
# Room for the bound and the gateway's own descriptors.
ulimit -n 2048 2>/dev/null || skip_test "cannot allow 2048 descriptors"
# Idle connections are kept for the test's length.
MCPHOST_SERVE_REQUEST_MS=600000 gateway_start

# Prints "held" when the connection beyond the bound got no answer while
# the gateway answered two requests on another one (each a loop turn at
# least, after the held connection's request was sent), then the status
# it gets once an idle connection closes.
OUT=$("$PY" - "$PORT" <<'PYEOF'
import socket, sys
port = int(sys.argv[1])
req = ("GET /elsewhere HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port).encode()

def status(s):
    data = b""
    while b"\r\n\r\n" not in data:
        try:
            chunk = s.recv(4096)
        except socket.timeout:
            return "none"
        if not chunk:
            break
        data += chunk
    return data.split(b"\r\n", 1)[0].decode(errors="replace")

def conn():
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(30)
    return s

probe = conn()
idle = [conn() for _ in range(511)]
print(status(probe) if probe.sendall(req) is None else "")
extra = conn()
extra.sendall(req)
for _ in range(2):
    probe.sendall(req)
    status(probe)
extra.setblocking(False)
try:
    print("answered" if extra.recv(4096) else "closed")
except BlockingIOError:
    print("held")
extra.settimeout(30)
idle.pop().close()
print(status(extra))
PYEOF
)
check "a request on one of 512 connections is answered" \
  test "$(echo "$OUT" | sed -n 1p)" = "HTTP/1.1 404 Not Found"
check "the 513th connection is not taken while 512 are open" \
  test "$(echo "$OUT" | sed -n 2p)" = held
check "it is taken and answered once one of them closes" \
  test "$(echo "$OUT" | sed -n 3p)" = "HTTP/1.1 404 Not Found"
check "the gateway still runs" kill -0 "$GW_PID"
finish
