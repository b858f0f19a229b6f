#!/usr/bin/env python3
"""mcphost-url-elicit: a stdio MCP server (newline-delimited JSON-RPC) whose
tool "needs_url" answers -32042 (URL elicitation required, 2025-11-25)
until the elicitation is complete, as a server behind a browser sign-in
does.

The elicitation completes when a line arrives on the FIFO named by the
first argument (a test writes it once mcphost says it waits): the server
then sends notifications/elicitation/complete for that line's id, and
the elicitation counts as complete when the id is its own. Without an
argument it never completes. The call's answer says how many times it
was called: "signed in after N calls".
"""
import json
import sys
import threading

ID = "el-1"
lock = threading.Lock()
state = {"complete": False, "calls": 0}


def send(msg):
    with lock:
        sys.stdout.write(json.dumps(msg) + "\n")
        sys.stdout.flush()


def watch(fifo):
    # Blocks until the test opens the FIFO for writing.
    with open(fifo) as f:
        for line in f:
            eid = line.strip()
            if eid == ID:
                state["complete"] = True
            send({"jsonrpc": "2.0",
                  "method": "notifications/elicitation/complete",
                  "params": {"elicitationId": eid}})


if len(sys.argv) > 1:
    threading.Thread(target=watch, args=(sys.argv[1],), daemon=True).start()

TOOL = {"name": "needs_url", "description": "Needs a browser sign-in.",
        "inputSchema": {"type": "object", "properties": {}}}

for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    mid = msg.get("id")
    method = msg.get("method")
    if mid is None:
        continue
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": "2025-11-25",
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "mcphost-url-elicit", "version": "1"}}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [TOOL]}})
    elif method == "tools/call":
        state["calls"] += 1
        if state["complete"]:
            send({"jsonrpc": "2.0", "id": mid, "result": {"content": [
                {"type": "text",
                 "text": "signed in after %d calls" % state["calls"]}]}})
        else:
            send({"jsonrpc": "2.0", "id": mid, "error": {
                "code": -32042, "message": "Sign-in required",
                "data": {"elicitations": [{
                    "mode": "url", "elicitationId": ID,
                    "url": "https://example.com/signin",
                    "message": "Sign in to continue"}]}}})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
    else:
        send({"jsonrpc": "2.0", "id": mid,
              "error": {"code": -32601, "message": "no method " + method}})
