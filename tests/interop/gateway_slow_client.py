#!/usr/bin/env python3
"""Two clients of a running `mcphost serve --http` (test_gateway_http.sh):
    gateway_slow_client.py URL
one sends 60000 pipelined requests (pings, answered at once) on one
keep-alive connection and reads none of the answers, until the kernel
takes no more; the other then initializes and calls a tool on its own
connection. Prints one JSON object: what the other got, and how many
answers the slow one finds once it reads at last. The other's socket
times out after 30 s: a gateway stalled by the slow client never
answers it."""
import json
import socket
import sys
import time
from urllib.parse import urlparse

u = urlparse(sys.argv[1])
PORT = u.port
N = 60000
INIT = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                              "clientInfo": {"name": "slow", "version": "1"}}})


def req(body, sid=None):
    h = (f"POST {u.path} HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\n"
         "Content-Type: application/json\r\n"
         "Accept: application/json, text/event-stream\r\n")
    if sid:
        h += f"Mcp-Session-Id: {sid}\r\n"
    return (h + f"Content-Length: {len(body)}\r\n\r\n" + body).encode()


def read_response(s):
    """One HTTP response (Content-Length, or until close): status, headers, body."""
    buf = b""
    while b"\r\n\r\n" not in buf:
        buf += s.recv(65536)
    head, rest = buf.split(b"\r\n\r\n", 1)
    lines = head.decode().split("\r\n")
    hdrs = {k.lower(): v for k, v in (l.split(": ", 1) for l in lines[1:])}
    if "content-length" in hdrs:
        n = int(hdrs["content-length"])
        while len(rest) < n:
            rest += s.recv(65536)
    else:
        while True:
            d = s.recv(65536)
            if not d:
                break
            rest += d
    return lines[0], hdrs, rest.decode()


def initialize():
    s = socket.create_connection(("127.0.0.1", PORT))
    s.settimeout(30)
    s.sendall(req(INIT))
    _, hdrs, _ = read_response(s)
    sid = hdrs["mcp-session-id"]
    s.sendall(req('{"jsonrpc":"2.0","method":"notifications/initialized"}', sid))
    read_response(s)
    return s, sid


out = {}
slow, sid = initialize()
data = b"".join(req('{"jsonrpc":"2.0","id":%d,"method":"ping"}' % i, sid)
                for i in range(N))
slow.setblocking(False)
sent = 0
idle = 0
while sent < len(data) and idle < 100:  # stop once the kernel takes no more
    try:
        sent += slow.send(data[sent:sent + 65536])
        idle = 0
    except BlockingIOError:
        idle += 1
        time.sleep(0.01)
out["slow_unsent"] = sent < len(data)

try:
    other, sid2 = initialize()
    body = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "tools/call",
                       "params": {"name": "mcp__demo__echo",
                                  "arguments": {"message": "still here"}}})
    other.sendall(req(body, sid2))
    _, _, text = read_response(other)
    out["other"] = [json.loads(l[6:]) for l in text.split("\n")
                    if l.startswith("data: {")][-1]["result"]["content"][0]["text"]
except OSError as e:
    out["other"] = "stalled: %s" % e

# The slow client reads at last (and sends the rest): every answer comes.
slow.setblocking(True)
slow.settimeout(30)
got = 0
tail = b""
try:
    while got < N:
        if sent < len(data):
            slow.setblocking(False)
            try:
                sent += slow.send(data[sent:sent + 65536])
            except BlockingIOError:
                pass
            slow.setblocking(True)
            slow.settimeout(30)
        d = slow.recv(1 << 20)
        if not d:
            break
        t = tail + d
        got += t.count(b'"result":{}')
        tail = t[-10:]  # shorter than the pattern: never counted twice
except OSError:
    pass
out["slow_answers"] = got
print(json.dumps(out))
