#!/usr/bin/env python3
"""A client of mcphost serve that sends and reads JSON as bytes, so a
test sees a number's token and a string's \\u0000 exactly as they cross
the gateway (a client that parses JSON into doubles could not tell
9007199254740993 from 9007199254740992).

  gateway_exact.py TOOL ARGUMENTS stdio MCPHOST ARGS...
      runs MCPHOST ARGS (ending in serve --stdio ...) as its server
  gateway_exact.py TOOL ARGUMENTS URL
      talks streamable HTTP to a running serve --http

initializes, calls TOOL with ARGUMENTS (JSON text, sent as it is) and
prints the text of the call's response, as it arrived, on one line.
"""
import json
import subprocess
import sys
import urllib.request

INIT = ('{"jsonrpc":"2.0","id":1,"method":"initialize","params":'
        '{"protocolVersion":"2025-11-25","capabilities":{},'
        '"clientInfo":{"name":"exact","version":"1"}}}')
INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}'


def call_text(tool, arguments):
    return ('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":'
            '{"name":%s,"arguments":%s}}' % (json.dumps(tool), arguments))


def answer_to(lines, rid):
    """The first line that is the response to `rid`."""
    for line in lines:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict) and msg.get("id") == rid and \
                "method" not in msg:
            return line
    return None


def over_stdio(tool, arguments, argv):
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, encoding="utf-8")

    def lines():
        for line in p.stdout:
            yield line.rstrip("\n")

    it = lines()
    p.stdin.write(INIT + "\n")
    p.stdin.flush()
    if answer_to(it, 1) is None:
        sys.exit("no answer to initialize")
    p.stdin.write(INITIALIZED + "\n" + call_text(tool, arguments) + "\n")
    p.stdin.flush()
    got = answer_to(it, 2)
    p.stdin.close()
    p.wait()
    return got


def post(url, body, session):
    headers = {"Content-Type": "application/json",
               "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": "2025-11-25"}
    if session:
        headers["Mcp-Session-Id"] = session
    req = urllib.request.Request(url, data=body.encode("utf-8"),
                                 headers=headers, method="POST")
    with urllib.request.urlopen(req) as r:
        text = r.read().decode("utf-8")
        sid = r.headers.get("Mcp-Session-Id") or session
        if r.headers.get("Content-Type", "").startswith("text/event-stream"):
            text = "\n".join(line[5:].lstrip() for line in text.split("\n")
                             if line.startswith("data:"))
        return text, sid


def over_http(tool, arguments, url):
    text, sid = post(url, INIT, None)
    post(url, INITIALIZED, sid)
    text, _ = post(url, call_text(tool, arguments), sid)
    return answer_to(text.split("\n"), 2)


def main():
    tool, arguments, where = sys.argv[1:4]
    if where == "stdio":
        got = over_stdio(tool, arguments, sys.argv[4:])
    else:
        got = over_http(tool, arguments, where)
    if got is None:
        sys.exit("no answer to the call")
    print(got)


main()
