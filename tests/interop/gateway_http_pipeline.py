#!/usr/bin/env python3
"""Two 2026-07-28 POSTs pipelined on one connection to mcphost serve
--http: a tools/call of mcp__probe__wait (which ends once GATE exists),
then server/discover (answered by the gateway at once). What arrives
before GATE is made is read for a while, then GATE is made.

  gateway_http_pipeline.py URL GATE answers   prints {"early": [ids],
      "order": [ids], "texts": {id: text}, "status": {id: status}}: the
      responses seen before GATE and all of them, in their order
  gateway_http_pipeline.py URL GATE close     closes the connection
      and leaves GATE to the caller; prints {"early": [ids]}
"""
import json
import os
import socket
import sys
import urllib.parse

META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}


def post(host, rid, method, name, params):
    params = dict(params, _meta=META)
    body = json.dumps({"jsonrpc": "2.0", "id": rid, "method": method,
                       "params": params}).encode()
    head = ("POST /mcp HTTP/1.1\r\nHost: %s\r\n"
            "Content-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\n"
            "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: %s\r\n"
            % (host, method))
    if name:
        head += "Mcp-Name: %s\r\n" % name
    head += "Content-Length: %d\r\n\r\n" % len(body)
    return head.encode() + body


class Responses:
    """HTTP/1.1 responses with a Content-Length, parsed as they come."""

    def __init__(self, sock):
        self.sock, self.buf, self.got = sock, b"", []

    def parse(self):
        while True:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = self.buf[:end].decode("latin-1").split("\r\n")
            length = 0
            for line in head[1:]:
                k, _, v = line.partition(":")
                if k.strip().lower() == "content-length":
                    length = int(v.strip())
            if len(self.buf) < end + 4 + length:
                return
            body = self.buf[end + 4:end + 4 + length]
            self.buf = self.buf[end + 4 + length:]
            self.got.append((int(head[0].split()[1]), json.loads(body)))

    def read(self, timeout, want):
        """Reads until `want` responses came, the peer closed, or
        `timeout` seconds passed without data."""
        self.sock.settimeout(timeout)
        while len(self.got) < want:
            try:
                d = self.sock.recv(65536)
            except socket.timeout:
                return
            if not d:
                return
            self.buf += d
            self.parse()


def main():
    url, gate, mode = sys.argv[1], sys.argv[2], sys.argv[3]
    u = urllib.parse.urlsplit(url)
    s = socket.create_connection((u.hostname, u.port))
    host = u.netloc
    s.sendall(post(host, 1, "tools/call", "mcp__probe__wait",
                   {"name": "mcp__probe__wait",
                    "arguments": {"file": gate}}) +
              post(host, 2, "server/discover", None, {}))
    r = Responses(s)
    # Beyond the gateway's request deadline (the test sets it to 1 s).
    r.read(2.5, 2)
    early = [m.get("id") for _, m in r.got]
    if mode == "close":
        s.close()
        print(json.dumps({"early": early}))
        return
    open(gate, "w").close()
    r.read(60, 2)
    s.close()
    texts = {}
    for _, m in r.got:
        content = m.get("result", {}).get("content") or [{}]
        texts[str(m.get("id"))] = content[0].get("text")
    print(json.dumps({"early": early,
                      "order": [m.get("id") for _, m in r.got],
                      "texts": texts,
                      "status": {str(m.get("id")): st for st, m in r.got}}))


if __name__ == "__main__":
    main()
