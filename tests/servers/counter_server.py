#!/usr/bin/env python3
"""mcphost-counter: a stdio MCP server (newline-delimited JSON-RPC) whose
state lives as long as its process, for the session tests.

Tools:
  count ()      adds one to the process's counter; answers "count N pid P"
  wait ()       answers only when cancelled (notifications/cancelled), or
                after an hour; with COUNTER_WAITING set, first creates the
                file it names, so a test knows the call is running
  fail ()       answers with isError and "failed as asked"
"""
import json
import os
import sys

count = 0
waiting = None  # the id of the wait call running


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def text(s, error=False):
    return {"content": [{"type": "text", "text": s}], "isError": error}


TOOLS = [
    {"name": n, "description": d, "inputSchema": {"type": "object"}}
    for n, d in (("count", "count one more"), ("wait", "wait to be cancelled"),
                 ("fail", "fail"))
]

for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    method, mid = msg.get("method"), msg.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": msg["params"].get("protocolVersion",
                                                 "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "counter", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS}})
    elif method == "tools/call":
        name = msg["params"]["name"]
        if name == "count":
            count += 1
            send({"jsonrpc": "2.0", "id": mid,
                  "result": text("count %d pid %d" % (count, os.getpid()))})
        elif name == "wait":
            waiting = mid
            mark = os.environ.get("COUNTER_WAITING")
            if mark:
                open(mark, "w").close()
        elif name == "fail":
            send({"jsonrpc": "2.0", "id": mid,
                  "result": text("failed as asked", True)})
        else:
            send({"jsonrpc": "2.0", "id": mid,
                  "error": {"code": -32602, "message": "no tool " + name}})
    elif method == "notifications/cancelled":
        if msg.get("params", {}).get("requestId") == waiting:
            waiting = None
            with open(os.environ.get("COUNTER_CANCELLED", os.devnull), "a") as f:
                f.write("cancelled\n")
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
    elif mid is not None and method:
        send({"jsonrpc": "2.0", "id": mid,
              "error": {"code": -32601, "message": "no method " + method}})
