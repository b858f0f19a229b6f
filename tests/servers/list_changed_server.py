#!/usr/bin/env python3
"""mcphost-list-changed: a stdio MCP server (newline-delimited JSON-RPC)
whose tool list grows, for the client library's list_changed test
(tests/unit/test_client_api.c).

Tools: grow () adds the tool "late" to the list, makes "shape" take
"b" where it took "a", sends notifications/tools/list_changed, then
answers "grown"; late () answers "late"; shape (a or b) answers
"shaped". It declares tools.listChanged.
"""
import json
import sys

def shape(key):
    return {"name": "shape",
            "inputSchema": {"type": "object",
                            "properties": {key: {"type": "integer"}},
                            "required": [key]}}


tools = [{"name": "grow", "inputSchema": {"type": "object"}}, shape("a")]


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def text(s):
    return {"content": [{"type": "text", "text": s}]}


for line in sys.stdin:
    msg = json.loads(line)
    method, mid = msg.get("method"), msg.get("id")
    if mid is None:
        continue
    if method == "initialize":
        result = {"protocolVersion": msg["params"]["protocolVersion"],
                  "capabilities": {"tools": {"listChanged": True}},
                  "serverInfo": {"name": "list-changed", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": tools}
    elif method == "tools/call" and msg["params"]["name"] == "grow":
        if len(tools) == 2:
            tools[1] = shape("b")
            tools.append({"name": "late", "inputSchema": {"type": "object"}})
        send({"jsonrpc": "2.0",
              "method": "notifications/tools/list_changed"})
        result = text("grown")
    elif method == "tools/call" and msg["params"]["name"] == "late":
        result = text("late")
    elif method == "tools/call" and msg["params"]["name"] == "shape":
        result = text("shaped")
    elif method == "ping":
        result = {}
    else:
        send({"jsonrpc": "2.0", "id": mid,
              "error": {"code": -32601, "message": "no " + str(method)}})
        continue
    send({"jsonrpc": "2.0", "id": mid, "result": result})
