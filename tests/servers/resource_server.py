#!/usr/bin/env python3
"""mcphost-resources: a stdio MCP server (newline-delimited JSON-RPC) for
the tests of subscribe, --follow-links and complete. Every request it
gets is appended to the log file named by $RESOURCE_LOG as one JSON line
{"server": $RESOURCE_NAME, "method": ..., "params": ...}, so a test says
what was read, subscribed and asked, and of which server.

Resources: test://doc/N (N = 1..20) read as "doc N, version V" (V counts
the updates sent for it), test://self, test://bye.
  resources/subscribe URI  answers, then sends 3 updates of URI;
                           test://bye: one update, then the server exits.
Tools:
  links   a text block, then resource links: test://doc/1 twice, the
          embedded test://doc/2 again, test://doc/3 .. test://doc/14,
          and test://missing (not found)
  fail    isError true, with a link to test://doc/1
Prompts: linked (a message with a link to test://doc/5), pick(a, b).
Templates: test://item/{kind}/{id}.
completion/complete answers one value: the request's params as JSON
(sorted keys, no spaces), then "x" + the argument's value.
$RESOURCE_PROTOCOL, when set, is the protocol version it answers.
"""
import json
import os
import sys

LOG = os.environ.get("RESOURCE_LOG")
NAME = os.environ.get("RESOURCE_NAME", "r")
versions = {}


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def log(method, params):
    if LOG:
        with open(LOG, "a") as f:
            f.write(json.dumps({"server": NAME, "method": method,
                                "params": params}) + "\n")


def result(mid, res):
    send({"jsonrpc": "2.0", "id": mid, "result": res})


def updated(uri):
    versions[uri] = versions.get(uri, 0) + 1
    send({"jsonrpc": "2.0", "method": "notifications/resources/updated",
          "params": {"uri": uri}})


def link(uri):
    return {"type": "resource_link", "uri": uri, "name": uri}


def known(uri):
    if uri in ("test://self", "test://bye"):
        return True
    if uri.startswith("test://doc/"):
        n = uri[len("test://doc/"):]
        return n.isdigit() and 1 <= int(n) <= 20
    return False


RESOURCES = [{"uri": "test://doc/%d" % n, "name": "doc %d" % n}
             for n in range(1, 21)]
RESOURCES.append({"uri": "test://self", "name": "self"})

for line in sys.stdin:
    try:
        msg = json.loads(line)
    except ValueError:
        continue
    mid = msg.get("id")
    method = msg.get("method")
    params = msg.get("params")
    if mid is None:
        continue
    log(method, params)
    if method == "initialize":
        result(mid, {
            "protocolVersion": os.environ.get("RESOURCE_PROTOCOL") or
            params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}, "prompts": {},
                             "resources": {"subscribe": True},
                             "completions": {}},
            "serverInfo": {"name": "mcphost-resources", "version": "1"}})
    elif method == "ping":
        result(mid, {})
    elif method == "tools/list":
        result(mid, {"tools": [
            {"name": "links", "description": "Returns resource links.",
             "inputSchema": {"type": "object"}},
            {"name": "fail", "description": "Fails, with a link.",
             "inputSchema": {"type": "object"}}]})
    elif method == "tools/call":
        if params["name"] == "fail":
            result(mid, {"isError": True, "content": [
                {"type": "text", "text": "failed\n"},
                link("test://doc/1")]})
            continue
        content = [{"type": "text", "text": "links:\n"},
                   link("test://doc/1"), link("test://doc/1"),
                   {"type": "resource", "resource": {
                       "uri": "test://doc/2", "text": "embedded doc 2\n"}},
                   link("test://doc/2")]
        content += [link("test://doc/%d" % n) for n in range(3, 15)]
        content.append(link("test://missing"))
        result(mid, {"content": content})
    elif method == "prompts/list":
        result(mid, {"prompts": [
            {"name": "linked", "description": "A message with a link."},
            {"name": "pick", "description": "Two arguments.",
             "arguments": [{"name": "a", "required": True},
                           {"name": "b"}]}]})
    elif method == "prompts/get":
        result(mid, {"messages": [{"role": "user", "content": [
            {"type": "text", "text": "see\n"}, link("test://doc/5")]}]})
    elif method == "resources/list":
        result(mid, {"resources": RESOURCES})
    elif method == "resources/templates/list":
        result(mid, {"resourceTemplates": [
            {"uriTemplate": "test://item/{kind}/{id}", "name": "item"}]})
    elif method == "resources/read":
        uri = params["uri"]
        if not known(uri):
            send({"jsonrpc": "2.0", "id": mid, "error": {
                "code": -32002, "message": "Resource not found: " + uri}})
            continue
        result(mid, {"contents": [{"uri": uri, "text": "%s, version %d\n" % (
            uri, versions.get(uri, 0))}]})
    elif method == "resources/subscribe":
        uri = params["uri"]
        result(mid, {})
        if uri == "test://bye":
            updated(uri)
            sys.exit(0)
        for _ in range(3):
            updated(uri)
    elif method == "resources/unsubscribe":
        result(mid, {})
    elif method == "completion/complete":
        params.pop("_meta", None)  # the progress token of every request
        text = json.dumps(params, sort_keys=True, separators=(",", ":"))
        result(mid, {"completion": {
            "values": [text, "x" + params["argument"]["value"]],
            "total": 5, "hasMore": True}})
    else:
        send({"jsonrpc": "2.0", "id": mid,
              "error": {"code": -32601, "message": "no method " + method}})
