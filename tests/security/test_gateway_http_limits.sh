#!/usr/bin/env bash
# serve --http under a flood from one client. Three attacks:
#   - 300 initialize requests: before the fix each one past the table's
#     256 ended the idlest session, so every other client's session went;
#     now a session is ended for room only after a minute idle
#     (MCPHOST_SERVE_EVICT_MS), else the new one gets 503;
#   - another local user opens connections and sends nothing: before the
#     fix all 512 slots could be theirs (the gateway's own user locked
#     out); now one peer (another user, or an address) holds 128 at most,
#     the next is told 503 at once, and the gateway's own user still gets
#     in;
#   - a head begun and never finished: it held its connection for the
#     whole request deadline (30 s); now the head has its own
#     (MCPHOST_SERVE_HEAD_MS), answered 408, while a body may still take
#     the request's time.
. "$(dirname "$0")/../lib/other_user.sh"
. "$(dirname "$0")/../lib/gateway_http.sh"

INIT='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'

gateway_start
OUT=$("$PY" - "$PORT" "$INIT" <<'PYEOF'
import http.client, json, sys
port, init = int(sys.argv[1]), sys.argv[2]
hdr = {"Content-Type": "application/json",
       "Accept": "application/json, text/event-stream"}
c = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
def post(body, extra={}):
    c.request("POST", "/mcp", body, {**hdr, **extra})
    r = c.getresponse()
    return r.status, r.getheader("Mcp-Session-Id"), r.read().decode()
st, first, _ = post(init)
codes = {}
for i in range(300):
    st, _, text = post(init)
    codes[st] = codes.get(st, 0) + 1
print("codes", " ".join("%d:%d" % kv for kv in sorted(codes.items())))
print("busy-text", "none idle long enough" in text)
st, _, text = post(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}),
                   {"Mcp-Session-Id": first,
                    "MCP-Protocol-Version": "2025-06-18"})
print("first", st)
PYEOF
)
check "300 initializes: 255 sessions made, then 503" \
  grep -qx "codes 200:255 503:45" <<<"$OUT"
check "the 503 says why" grep -qx "busy-text True" <<<"$OUT"
check "the first session was not ended for them" grep -qx "first 200" <<<"$OUT"
kill "$GW_PID"; wait "$GW_PID" 2>/dev/null

# Another user's silent connections.
other_user_setup
if [ "$OTHER_HOW" = useradd ] && [ -x /usr/bin/python3 ]; then
  gateway_start
  : >"$TMP/other.out"
  setpriv --reuid="$OTHER_UID" --regid="$OTHER_GID" --clear-groups \
    /usr/bin/python3 - "$PORT" "$TMP/release" >"$TMP/other.out" 2>&1 \
    </dev/null <<'PYEOF' &
import os, socket, sys, time
port, release = int(sys.argv[1]), sys.argv[2]
held = [socket.create_connection(("127.0.0.1", port)) for _ in range(128)]
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(20)
try:
    data = s.recv(4096)
except socket.timeout:
    data = b""
print("129th", data.split(b"\r\n", 1)[0].decode() or "none")
print("why", b"too many connections from this client" in data)
print("holding", flush=True)
for _ in range(600):  # until the test says so, 60 s at most
    if os.path.exists(release):
        break
    time.sleep(0.1)
PYEOF
  HOLD=$!
  on_exit "kill $HOLD 2>/dev/null"
  for _ in $(seq 300); do
    grep -q holding "$TMP/other.out" && break
    sleep 0.1
  done
  OUT=$(cat "$TMP/other.out")
  check "another user's 129th connection is refused at once with 503" \
    grep -qx "129th HTTP/1.1 503 Service Unavailable" <<<"$OUT"
  check "  saying why" grep -qx "why True" <<<"$OUT"
  ST=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -d "$INIT" \
    "http://127.0.0.1:$PORT/mcp")
  check "while they are held, the gateway's own user is served" \
    test "$ST" = 200
  touch "$TMP/release"
  wait "$HOLD"
  kill "$GW_PID"; wait "$GW_PID" 2>/dev/null
else
  echo "skipped: no second user to connect as"
fi

# A head begun and never finished; a body that takes longer than the
# head's deadline (the head's own ends with the head).
MCPHOST_SERVE_HEAD_MS=300 gateway_start
OUT=$("$PY" - "$PORT" "$INIT" <<'PYEOF'
import socket, sys, time
port, init = int(sys.argv[1]), sys.argv[2].encode()
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(20)
s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
try:
    data = s.recv(4096)
except socket.timeout:
    data = b""
print("half", data.split(b"\r\n", 1)[0].decode() or "none")
print("why", b"head did not arrive in time" in data)
s = socket.create_connection(("127.0.0.1", port))
s.settimeout(20)
s.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"
          b"Content-Type: application/json\r\n"
          b"Accept: application/json, text/event-stream\r\n"
          b"Content-Length: %d\r\n\r\n" % len(init))
time.sleep(1)  # longer than the head's deadline: the body may take it
s.sendall(init)
data = s.recv(4096)
print("slow-body", data.split(b"\r\n", 1)[0].decode() or "none")
PYEOF
)
check "a head not finished is answered 408 by the head's own deadline" \
  grep -qx "half HTTP/1.1 408 Request Timeout" <<<"$OUT"
check "  saying so" grep -qx "why True" <<<"$OUT"
check "a whole head's body may take longer: answered 200" \
  grep -qx "slow-body HTTP/1.1 200 OK" <<<"$OUT"
finish
