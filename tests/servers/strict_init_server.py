#!/usr/bin/env python3
"""A legacy-only stdio MCP server that, like rmcp servers up to 2.2,
exits without a reply when its first message is anything but
`initialize`. Each start appends a line to the file $STRICT_SPAWN_LOG
names ("start"), and each first message its method ("first METHOD").
Tools: echo (text)."""
import json
import os
import sys

LOG = os.environ.get("STRICT_SPAWN_LOG")


def note(line):
    if LOG:
        with open(LOG, "a") as f:
            f.write(line + "\n")


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def main():
    note("start")
    first = True
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        method = msg.get("method")
        if first:
            note("first " + str(method))
            first = False
            if method != "initialize":
                sys.exit(1)
        if "id" not in msg or method is None:
            continue
        mid = msg["id"]
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": mid, "result": {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "strict-init", "version": "1.0"}}})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": [{
                "name": "echo", "inputSchema": {
                    "type": "object",
                    "properties": {"text": {"type": "string"}}}}]}})
        elif method == "tools/call":
            text = msg["params"]["arguments"].get("text", "")
            send({"jsonrpc": "2.0", "id": mid, "result": {
                "content": [{"type": "text", "text": "strict: " + text}]}})
        else:
            send({"jsonrpc": "2.0", "id": mid, "error": {
                "code": -32601, "message": "Method not found"}})


main()
