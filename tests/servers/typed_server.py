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
  exact      "n" a number, "i" an integer, "ns" a number or a string, "d"
             a number with a default of 9007199254740991; anything else
             too. Its answer also carries the arguments as its
             structuredContent.
Any other name is answered -32601 "Unknown tool: NAME", as fastmcp does.

Numbers are kept as their tokens and strings whole (U+0000 included):
the answer is the very JSON a client sent, keys sorted.
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
    {"name": "exact", "description": "Echoes numbers as sent.",
     "inputSchema": {"type": "object", "additionalProperties": True,
                     "properties": {
                         "n": {"type": "number"},
                         "i": {"type": "integer"},
                         "ns": {"type": ["number", "string"]},
                         "d": {"type": "number",
                               "default": "DEFAULT_TOKEN"}}}},
]

# "unlisted" is called, not listed: it echoes as typed does.
NAMES = [t["name"] for t in TOOLS] + ["unlisted"]


class Tok(str):
    """A number's token, kept as the client wrote it."""


def dump(v):
    """JSON text with sorted keys and no spaces, numbers as their tokens."""
    if isinstance(v, Tok):
        return str(v)
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k) + ":" + dump(v[k])
                              for k in sorted(v)) + "}"
    if isinstance(v, list):
        return "[" + ",".join(dump(x) for x in v) + "]"
    return json.dumps(v)


def send_text(text):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def send(msg):
    send_text(json.dumps(msg))


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
        # The default's token as written, not as a Python float prints.
        send_text(json.dumps({"jsonrpc": "2.0", "id": mid,
                              "result": {"tools": TOOLS}}).replace(
            '"DEFAULT_TOKEN"', "9007199254740991"))
    elif method == "tools/call" and msg["params"].get("name") not in NAMES:
        # As fastmcp answers a tool it does not have.
        send({"jsonrpc": "2.0", "id": mid, "error": {
            "code": -32601,
            "message": "Unknown tool: " + str(msg["params"].get("name"))}})
    elif method == "tools/call" and \
            "fail_with" in (msg["params"].get("arguments") or {}):
        # A JSON-RPC error whose message is the argument, as long as it is.
        send({"jsonrpc": "2.0", "id": mid, "error": {
            "code": -32000,
            "message": str(msg["params"]["arguments"]["fail_with"])}})
    elif method == "tools/call":
        exact = json.loads(line, parse_int=Tok, parse_float=Tok)
        text = dump(exact["params"].get("arguments", {}))
        structured = ""
        if msg["params"].get("name") == "exact":
            structured = ',"structuredContent":' + text
        send_text('{"jsonrpc":"2.0","id":%s,"result":{"content":'
                  '[{"type":"text","text":%s}]%s}}'
                  % (json.dumps(mid), json.dumps(text), structured))
    else:
        send({"jsonrpc": "2.0", "id": mid,
              "error": {"code": -32601, "message": "no method " + method}})
