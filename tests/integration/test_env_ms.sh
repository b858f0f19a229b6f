#!/bin/bash
# Millisecond environment variables go through the one strict parser of
# --timeout: a value that is not a whole number of milliseconds ("30s",
# "1e3") is warned about, naming the variable and the value, and the
# default is used; it is never read as the number it starts with
# (MCPHOST_SERVE_REQUEST_MS=30s was 30 ms).
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3"
C="$TMP/demo.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}}"

MCP_TIMEOUT=30s run --config "$C" servers
expect "MCP_TIMEOUT=30s: warned, the default used" 0 --out "connected" \
  --err 'warning: ignoring MCP_TIMEOUT="30s": not a positive number of milliseconds; using 30000'
MCP_TOOL_TIMEOUT=1e3 run --config "$C" call mcp__demo__echo message=hi
expect "MCP_TOOL_TIMEOUT=1e3: warned, the call runs" 0 --out "hi" \
  --err 'ignoring MCP_TOOL_TIMEOUT="1e3"'
MCPHOST_ROOTS_SETTLE_MS=soon run --config "$C" servers
expect "MCPHOST_ROOTS_SETTLE_MS=soon: warned (0 is its own value)" 0 \
  --err 'ignoring MCPHOST_ROOTS_SETTLE_MS="soon": not a whole number'
MCPHOST_LIST_CACHE_TTL=20s run --config "$C" call mcp__demo__echo message=hi
expect "MCPHOST_LIST_CACHE_TTL=20s: warned, not 20 ms" 0 --out "hi" \
  --err 'ignoring MCPHOST_LIST_CACHE_TTL="20s": not a whole number'
MCPHOST_ROOTS_SETTLE_MS=0 MCP_TIMEOUT=20000 MCPHOST_LIST_CACHE_TTL=0 run --config "$C" servers
expect "good values: nothing said" 0 --no-err "warning"
run --config "$C" --timeout 30s servers
expect "--timeout 30s: the same parser refuses it" 2 \
  --err '--timeout needs a positive number of milliseconds, not "30s"'

# The gateway: 30s is not 30 ms. A client that waits a moment before its
# request is still answered (with 30 ms it found the connection closed).
MCPHOST_SERVE_REQUEST_MS=30s start_gateway "$C" || exit 1
PORT=${GW_URL#http://127.0.0.1:}
PORT=${PORT%%/*}
python3 - "$PORT" >"$TMP/out" 2>"$TMP/err" <<'PY'
import json, socket, sys, time
port = int(sys.argv[1])
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(20)
time.sleep(0.5)  # the condition under test: longer than 30 ms idle
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"})
try:
    s.sendall(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
               "Content-Type: application/json\r\n"
               "Accept: application/json, text/event-stream\r\n"
               "Connection: close\r\nContent-Length: %d\r\n\r\n%s"
               % (port, len(body), body)).encode())
    print(s.recv(4096).decode(errors="replace").split("\r\n")[0] or "closed")
except OSError as e:
    print("closed", e)
PY
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "serve --http with MCPHOST_SERVE_REQUEST_MS=30s: a request after 0.5 s is answered" 0 \
  --out "HTTP/1.1" --no-out "closed"
stop_gateway
expect "the gateway said which variable it ignored" 0 \
  --err 'ignoring MCPHOST_SERVE_REQUEST_MS="30s": not a positive number of milliseconds; using 30000'
finish
