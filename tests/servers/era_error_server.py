#!/usr/bin/env python3
"""mcphost-era-errors: a 2026-07-28-only MCP server that refuses an
ordinary request once with the era's corrective errors, over stdio
(newline-delimited JSON-RPC) or streamable HTTP.

  era_error_server.py stdio|http MODE

MODE says what the first tools/call gets:
  version   -32022 UnsupportedProtocolVersion, data.supported naming
            a version mcphost does not know and 2026-07-28
  foreign   -32022 with data.supported naming only unknown versions
            (every time: there is nothing to correct)
  header    -32020 HeaderMismatch (HTTP): the first tools/list gives the
            tool "geo" without its x-mcp-header annotation, the next ones
            with it (Region on "region"); a call without the matching
            Mcp-Param-Region header is refused
  slow      as version (the first call gets -32022 once); a call of
            "slow" is never answered: it waits for its
            notifications/cancelled
  cut       (HTTP) the first tools/call's response stream breaks: the
            headers of an event stream, a comment, then the connection
            is closed
  ask       the first call of "slow" answers input_required (an
            elicitation "confirm", requestState "st-1"); the call sent
            again with its inputResponses is slow
  odd       every call of "echo" answers a resultType no version knows
            ("later")
Over HTTP a slow call's response stream stays open until the client
closes it, which is logged as {"method": "closed", "id": ID}.
Tools: echo (text) answers "echo: TEXT @VERSION" (the _meta version);
geo (region) answers "geo: REGION header=HEADER"; slow. Over HTTP it
listens on 127.0.0.1 (an ephemeral port, said as "listening on PORT").
With ERA_LOG=FILE each message's method, id and params (and over HTTP
its mcp-* headers) go there, one JSON line each.
"""
import json
import os
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MODERN = "2026-07-28"
MODE = sys.argv[2] if len(sys.argv) > 2 else "version"
LOG = os.environ.get("ERA_LOG")
lock = threading.Lock()
state = {"calls": 0, "lists": 0}
cancelled = threading.Condition(lock)
cancelled_ids = set()
CUT = object()   # over HTTP: the response stream breaks
SLOW = object()  # over HTTP: the response stream stays open


def note(msg, headers=None):
    if not LOG:
        return
    rec = {"method": msg.get("method"), "id": msg.get("id"),
           "params": msg.get("params")}
    if headers is not None:
        rec["headers"] = {k.lower(): v for k, v in headers.items()
                          if k.lower().startswith("mcp-")}
    with open(LOG, "a") as f:
        f.write(json.dumps(rec) + "\n")


def tool(name, props, annotate):
    schema = {"type": "object", "properties": {}}
    for p in props:
        schema["properties"][p] = {"type": "string"}
        if annotate and p == "region":
            schema["properties"][p]["x-mcp-header"] = "Region"
    return {"name": name, "description": name, "inputSchema": schema}


def error(rid, code, message, data=None):
    e = {"code": code, "message": message}
    if data is not None:
        e["data"] = data
    return {"jsonrpc": "2.0", "id": rid, "error": e}


def answer(msg, headers):
    """The response to one message (None for a notification)."""
    method = msg.get("method")
    rid = msg.get("id")
    params = msg.get("params") or {}
    meta = params.get("_meta") or {}
    version = meta.get("io.modelcontextprotocol/protocolVersion")
    if rid is None:
        if method == "notifications/cancelled":
            with lock:
                cancelled_ids.add(params.get("requestId"))
                cancelled.notify_all()
        return None
    if method == "server/discover":
        return {"jsonrpc": "2.0", "id": rid, "result": {
            "resultType": "complete", "supportedVersions": [MODERN],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "era-errors", "version": "1"}}}
    if method == "initialize":
        return error(rid, -32022, "2026-07-28 only",
                     {"supported": [MODERN], "requested": "legacy"})
    if method == "tools/list":
        with lock:
            state["lists"] += 1
            annotate = MODE != "header" or state["lists"] > 1
        return {"jsonrpc": "2.0", "id": rid, "result": {
            "resultType": "complete",
            "tools": [tool("echo", ["text"], False),
                      tool("geo", ["region"], annotate),
                      tool("slow", [], False)]}}
    if method != "tools/call":
        return error(rid, -32601, "method not found")
    with lock:
        state["calls"] += 1
        first = state["calls"] == 1
    name = params.get("name")
    args = params.get("arguments") or {}
    if MODE == "foreign":
        return error(rid, -32022, "unsupported protocol version",
                     {"supported": ["2099-01-01"], "requested": version})
    if MODE == "cut" and first and headers is not None:
        return CUT
    if MODE == "ask" and name == "slow" and "inputResponses" not in params:
        return {"jsonrpc": "2.0", "id": rid, "result": {
            "resultType": "input_required", "requestState": "st-1",
            "inputRequests": {"confirm": {
                "method": "elicitation/create",
                "params": {"mode": "form", "message": "Go on?",
                           "requestedSchema": {
                               "type": "object",
                               "properties": {"go": {"type": "boolean"}}}}}}}}
    if MODE == "odd" and name == "echo":
        return {"jsonrpc": "2.0", "id": rid, "result": {
            "resultType": "later",
            "content": [{"type": "text", "text": "not yet"}]}}
    if MODE in ("version", "slow") and first:
        return error(rid, -32022, "unsupported protocol version",
                     {"supported": ["2099-01-01", MODERN],
                      "requested": version})
    if name == "geo":
        hdr = (headers or {}).get("mcp-param-region")
        if MODE == "header" and hdr != args.get("region"):
            return error(rid, -32020, "header mismatch",
                         {"header": "Mcp-Param-Region"})
        text = "geo: %s header=%s" % (args.get("region"), hdr)
    elif name == "slow" and headers is not None:
        return SLOW
    elif name == "slow":
        with lock:
            while rid not in cancelled_ids:
                cancelled.wait()
        return None  # a cancelled request gets no answer
    else:
        text = "echo: %s @%s" % (args.get("text"), version)
    return {"jsonrpc": "2.0", "id": rid, "result": {
        "resultType": "complete",
        "content": [{"type": "text", "text": text}]}}


def stdio():
    # The client's Ctrl-C reaches this process group too: what the client
    # sends after it (its cancel) is still read and logged.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out_lock = threading.Lock()

    def handle(msg):
        resp = answer(msg, None)
        if resp is not None:
            with out_lock:
                sys.stdout.write(json.dumps(resp) + "\n")
                sys.stdout.flush()

    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        note(msg)
        if "method" not in msg:
            continue
        # A slow call waits for its cancel on a thread of its own.
        threading.Thread(target=handle, args=(msg,), daemon=True).start()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self):
        n = int(self.headers.get("Content-Length", "0"))
        msg = json.loads(self.rfile.read(n))
        hdrs = {k.lower(): v for k, v in self.headers.items()}
        note(msg, hdrs)
        resp = answer(msg, hdrs)
        if resp is CUT or resp is SLOW:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.end_headers()
            self.wfile.write(b": open\n\n")
            self.wfile.flush()
            self.close_connection = True
            if resp is SLOW:
                # Until the client closes the stream (its cancel).
                while self.connection.recv(4096):
                    pass
                note({"method": "closed", "id": msg.get("id")})
            return
        body = b"" if resp is None else json.dumps(resp).encode()
        self.send_response(202 if resp is None else 200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def http():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    print("listening on %d" % srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    (http if sys.argv[1:2] == ["http"] else stdio)()
