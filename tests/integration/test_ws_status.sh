#!/bin/bash
# The ws transport reads the answer to its upgrade by its HTTP status, as
# http and sse read theirs (common/http_status.c, one classification for
# the three): 401 and 403 are authorization (exit 7, the login hint, the
# challenge for an auth provider); another status fails the connect
# (exit 3) naming the status. A plain HTTP server on
# 127.0.0.1 answers each upgrade with the status its path names.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the HTTP server"

PORTFILE="$TMP/port"
python3 -u - "$PORTFILE" >"$TMP/http.log" 2>&1 <<'PY' &
import socket, sys, threading
srv = socket.socket()
srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", 0))
srv.listen(16)
REASONS = {401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
           503: "Service Unavailable"}
def answer(c):
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = c.recv(4096)
        if not chunk:
            return
        head += chunk
    path = head.split(b" ")[1].decode()
    status = int(path.strip("/").split("/")[0])
    extra = ""
    if status in (401, 403):
        extra = ('WWW-Authenticate: Bearer error="insufficient_scope", '
                 'scope="files:read"\r\n')
    c.sendall(("HTTP/1.1 %d %s\r\n%sContent-Type: text/plain\r\n"
               "Content-Length: 2\r\nConnection: close\r\n\r\nno"
               % (status, REASONS[status], extra)).encode())
    c.close()
open(sys.argv[1] + ".tmp", "w").write(str(srv.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
while True:
    c, _ = srv.accept()
    threading.Thread(target=answer, args=(c,), daemon=True).start()
PY
on_exit "kill $! 2>/dev/null"
for _ in $(seq 100); do [ -s "$PORTFILE" ] && break; sleep 0.1; done
PORT=$(cat "$PORTFILE")
cfg() { config_file "$TMP/$1.json" "{\"w\": {\"type\": \"ws\", \"url\": \"ws://127.0.0.1:$PORT/$1\"}}"; }

cfg 403
run --config "$TMP/403.json" tools
expect "403 on the upgrade: authorization, exit 7, with the status" 7 \
  --err "the WebSocket upgrade at ws://127.0.0.1:$PORT/403 was refused: HTTP 403 Forbidden (authorization needed)" \
  --err 'WWW-Authenticate: Bearer error="insufficient_scope"'
run --config "$TMP/403.json" --json servers
expect "servers: needs-auth, as http and sse show a 403" 7 \
  --jq '.[0].state == "needs-auth"'
run --config "$TMP/403.json" call mcp__w__x
expect "a call: exit 7 and the login hint" 7 --err "mcphost mcp login w"

cfg 401
run --config "$TMP/401.json" tools
expect "401 on the upgrade: authorization, exit 7" 7 \
  --err "HTTP 401 Unauthorized (authorization needed)"

cfg 503
run --config "$TMP/503.json" tools
expect "503 on the upgrade: the server failing, exit 3" 3 \
  --err "answered HTTP 503 Service Unavailable without switching protocols"
cfg 404
run --config "$TMP/404.json" tools
expect "404 on the upgrade: the status said, a server that failed to connect" 3 \
  --err "answered HTTP 404 Not Found without switching protocols"

# The same statuses through the http transport: the one classification.
config_file "$TMP/h403.json" "{\"h\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$PORT/403\"}}"
run --config "$TMP/h403.json" tools
expect "http: the same 403 is the same exit 7" 7 --err "HTTP 403"
finish
