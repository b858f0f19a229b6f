#!/usr/bin/env bash
# serve --http: the session table (256) does not fill for good. Before,
# sessions never expired and 256 initialize requests locked every other
# client out (503) until the gateway restarted. Now a session idle for
# --session-idle (MCPHOST_SERVE_SESSION_IDLE_MS here) ends and its id
# answers 404, and a full table ends the session idle the longest (with
# no stream open); 503 only when every session is active.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/gateway_http.sh"
ulimit -n 2048 2>/dev/null || skip_test "cannot allow 2048 descriptors"

# sessions PORT MODE: "full" fills the table, keeping the oldest session
# busy with an open GET stream, and prints the status of the 257th
# initialize, of the oldest and the second oldest sessions after it, then
# the status of one more initialize once every session has a stream
# open; "idle" prints the status of a session after 1 s of idleness and
# of one whose stream stayed open as long.
sessions() {
  "$PY" - "$1" "$2" <<'PYEOF'
import json, socket, sys, time
port, mode = int(sys.argv[1]), sys.argv[2]
init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25",
                              "capabilities": {},
                              "clientInfo": {"name": "t", "version": "1"}}})
note = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})

def conn():
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(30)
    return s

def head(s):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    h, _, rest = data.partition(b"\r\n\r\n")
    lines = h.decode(errors="replace").split("\r\n")
    hdrs = {}
    for l in lines[1:]:
        k, _, v = l.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    return lines[0].split(" ")[1] if lines[0] else "none", hdrs, rest

def post(s, body, sid=None):
    extra = "Mcp-Session-Id: %s\r\n" % sid if sid else ""
    s.sendall(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
               "Content-Type: application/json\r\n"
               "Accept: application/json, text/event-stream\r\n%s"
               "Content-Length: %d\r\n\r\n%s"
               % (port, extra, len(body), body)).encode())
    status, hdrs, rest = head(s)
    want = int(hdrs.get("content-length", "0"))
    while len(rest) < want:
        rest += s.recv(65536)
    return status, hdrs.get("mcp-session-id")

def stream(sid):
    s = conn()
    s.sendall(("GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
               "Accept: text/event-stream\r\nMcp-Session-Id: %s\r\n\r\n"
               % (port, sid)).encode())
    status, _, _ = head(s)
    assert status == "200", status
    return s

c = conn()
if mode == "full":
    ids = [post(c, init)[1] for _ in range(256)]
    streams = [stream(ids[0])]
    status, new = post(c, init)
    print(status)
    print(post(c, note, ids[0])[0])
    print(post(c, note, ids[1])[0])
    live = [new] + ids[2:] if new else ids[1:]
    streams += [stream(sid) for sid in live]
    print(post(c, init)[0])
else:
    quiet = post(c, init)[1]
    busy = post(c, init)[1]
    held = stream(busy)
    time.sleep(1)
    print(post(c, note, quiet)[0])
    print(post(c, note, busy)[0])
PYEOF
}

# line_is N WANT: line N of OUT is WANT.
line_is() { test "$(echo "$OUT" | sed -n "$1p")" = "$2"; }

# An idle floor of 1 ms for eviction here (a minute by default; the floor has
# its test in test_gateway_http_limits.sh).
MCPHOST_SERVE_EVICT_MS=1 MCPHOST_SERVE_REQUEST_MS=600000 gateway_start
OUT=$(sessions "$PORT" full)
check "a 257th initialize takes the place of the idlest session" line_is 1 200
check "the oldest session, its stream open, is kept" line_is 2 202
check "the idlest session without a stream is ended (404)" line_is 3 404
check "a full table of active sessions refuses (503)" line_is 4 503
check "the gateway still runs" kill -0 "$GW_PID"
kill "$GW_PID"
wait "$GW_PID" 2>/dev/null

MCPHOST_SERVE_SESSION_IDLE_MS=300 gateway_start
OUT=$(sessions "$PORT" idle)
check "a session idle beyond --session-idle is ended (404)" line_is 1 404
check "a session with a stream open does not expire" line_is 2 202

check "--session-idle takes seconds only" \
  sh -c "'$MCPHOST' --mcp-config '$C' serve --http 127.0.0.1:0 --session-idle 0 2>&1 | grep -q 'session-idle: \"0\" is not a number of seconds'"
finish
