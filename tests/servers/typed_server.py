#!/usr/bin/env python3
"""mcphost-typed: a stdio MCP server (newline-delimited JSON-RPC) whose
tools take parameters of every JSON Schema shape the argument coercion
handles, and answer with the arguments exactly as they arrived: the
text content is their JSON (sorted keys, no spaces), so a test compares
what `call` and `batch` sent byte for byte.

Tools:
  typed      string, integer, number, boolean, enum, array, object,
             nullable (type array and "nullable"), anyOf, nested, a
             parameter named "a.b"; "s" required
  strict     one integer "n" (required), additionalProperties false
  open       "k" a string, additionalProperties true: anything goes
  unlisted   not listed, but called it echoes its arguments as typed does
Any other name is answered -32601 "Unknown tool: NAME", as fastmcp does.
"""
import json
import sys

TYPED = {
    "type": "object",
    "properties": {
        "s": {"type": "string", "description": "a string"},
        "i": {"type": "integer", "default": 2},
        "n": {"type": "number"},
        "b": {"type": "boolean"},
        "e": {"type": "string", "enum": ["a", "b"]},
        "arr": {"type": "array", "items": {"type": "integer"}},
        "obj": {"type": "object"},
        "ns": {"type": ["string", "null"]},
        "ni": {"type": "integer", "nullable": True},
        "any": {"anyOf": [{"type": "integer"}, {"type": "boolean"},
                          {"type": "string"}]},
        "ti": {"type": ["integer", "string"]},
        "nest": {
            "type": "object",
            "properties": {
                "depth": {"type": "integer"},
                "name": {"type": "string"},
                "deep": {"type": "object",
                         "properties": {"x": {"type": "boolean"}}},
            },
        },
        "a.b": {"type": "string"},
    },
    "required": ["s"],
}

TOOLS = [
    {"name": "typed", "description": "Echoes its arguments.",
     "inputSchema": TYPED},
    {"name": "strict", "description": "Takes one integer.",
     "inputSchema": {"type": "object",
                     "properties": {"n": {"type": "integer"}},
                     "required": ["n"], "additionalProperties": False}},
    {"name": "open", "description": "Takes anything.",
     "inputSchema": {"type": "object", "additionalProperties": True,
                     "properties": {"k": {"type": "string"}}}},
]

# "unlisted" is called, not listed: it echoes as typed does.
NAMES = [t["name"] for t in TOOLS] + ["unlisted"]


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


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
            "protocolVersion": msg["params"].get("protocolVersion",
                                                 "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "mcphost-typed", "version": "1"}}})
    elif method == "ping":
        send({"jsonrpc": "2.0", "id": mid, "result": {}})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": mid, "result": {"tools": TOOLS}})
    elif method == "tools/call" and msg["params"].get("name") not in NAMES:
        # As fastmcp answers a tool it does not have.
        send({"jsonrpc": "2.0", "id": mid, "error": {
            "code": -32601,
            "message": "Unknown tool: " + str(msg["params"].get("name"))}})
    elif method == "tools/call":
        args = msg["params"].get("arguments", {})
        text = json.dumps(args, sort_keys=True, separators=(",", ":"))
        send({"jsonrpc": "2.0", "id": mid, "result": {
            "content": [{"type": "text", "text": text}]}})
    else:
        send({"jsonrpc": "2.0", "id": mid,
              "error": {"code": -32601, "message": "no method " + method}})
