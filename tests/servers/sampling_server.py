#!/usr/bin/env python3
"""mcphost-sampling: a stdio MCP server (newline-delimited JSON-RPC) that
asks its client for sampling/createMessage, for the tests of the sampling
plugin's bounds.

Tools:
  flood (n)  sends n sampling/createMessage requests at once, then answers
             "answered A declined D: MESSAGE" (MESSAGE: the first error's)
             once every one has its answer
With SAMPLING_SERVER_ASK_ON_LIST set, tools/list first asks for one
sampling/createMessage (outside any call) and answers only once that is
answered; the tool's description then says "asked during tools/list:
answered" or "... declined: MESSAGE".
With SAMPLING_SERVER_LOG set, each answer to a request of ours is
appended to that file: "result ID" or "error ID CODE MESSAGE".
"""
import json
import os
import sys

LOG = os.environ.get("SAMPLING_SERVER_LOG")


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def ask(rid):
    send({"jsonrpc": "2.0", "id": rid, "method": "sampling/createMessage",
          "params": {"messages": [{"role": "user", "content": {
              "type": "text", "text": "request %s" % rid}}],
              "maxTokens": 5}})


def tools(note):
    return [{"name": "flood", "description": "sampling requests at once" +
             note, "inputSchema": {"type": "object", "properties": {
                 "n": {"type": "integer"}}}}]


flood = None   # {"id", "left", "answered", "declined", "first"}
listing = None  # the id of the tools/list waiting for its sampling answer

for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    method, mid = msg.get("method"), msg.get("id")
    if method is None and mid is not None:  # an answer to one of ours
        err = msg.get("error")
        if LOG:
            with open(LOG, "a") as f:
                f.write("result %s\n" % mid if err is None else
                        "error %s %s %s\n" % (mid, err.get("code"),
                                              err.get("message")))
        if mid == "list" and listing is not None:
            note = (": asked during tools/list: answered" if err is None else
                    ": asked during tools/list: declined: " +
                    str(err.get("message")))
            send({"jsonrpc": "2.0", "id": listing,
                  "result": {"tools": tools(note)}})
            listing = None
        elif flood is not None and str(mid).startswith("s"):
            flood["left"] -= 1
            if err is None:
                flood["answered"] += 1
            else:
                flood["declined"] += 1
                flood["first"] = flood["first"] or str(err.get("message"))
            if flood["left"] == 0:
                send({"jsonrpc": "2.0", "id": flood["id"], "result": {
                    "content": [{"type": "text", "text":
                                 "answered %d declined %d: %s" % (
                                     flood["answered"], flood["declined"],
                                     flood["first"])}]}})
                flood = None
        continue
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "protocolVersion": msg["params"].get("protocolVersion",
                                                 "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "sampling", "version": "1"}}})
    elif method == "tools/list":
        if os.environ.get("SAMPLING_SERVER_ASK_ON_LIST"):
            listing = mid
            ask("list")
        else:
            send({"jsonrpc": "2.0", "id": mid, "result": {"tools": tools("")}})
    elif method == "tools/call":
        n = int(msg["params"].get("arguments", {}).get("n", 1))
        flood = {"id": mid, "left": n, "answered": 0, "declined": 0,
                 "first": ""}
        for i in range(n):
            ask("s%d" % i)
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
    elif mid is not None:
        send({"jsonrpc": "2.0", "id": mid,
              "error": {"code": -32601, "message": "method not found"}})
