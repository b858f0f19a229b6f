#!/usr/bin/env python3
"""mcphost-lifecycle: a stdio MCP server (newline-delimited JSON-RPC)
that shows how it was ended, for the shutdown and reconnect tests. Every
file it writes is in the directory $LIFE_DIR.

At start it writes its pid to "pid" (whole, by a rename).

At the end of its stdin, as $LIFE_ON_EOF says:
  save    (default) it takes $LIFE_SAVE_MS (300) to "save", then writes
          "saved after the last answer" to stderr, sends a log message
          "logged after the last answer" (notifications/message), writes
          the file "saved" and exits 0: a server killed before the end of
          its save leaves no file;
  ignore  it goes on running (a server that does not follow the MCP
          lifecycle).
A SIGINT or SIGTERM writes the file of its name ("SIGINT", "SIGTERM"),
then ends the process by that signal; with $LIFE_ON_TERM=ignore a
SIGTERM only writes its file.

Tools:
  echo (s)  answers s as it arrived, and writes it to the file "echo"
  pid ()    answers the process's pid
"""
import json
import os
import signal
import sys
import time

DIR = os.environ["LIFE_DIR"]


def put(name, data):
    tmp = os.path.join(DIR, name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data.encode("utf-8"))
    os.rename(tmp, os.path.join(DIR, name))


def on_signal(signo, _frame):
    put(signal.Signals(signo).name, "")
    if signo == signal.SIGTERM and os.environ.get("LIFE_ON_TERM") == "ignore":
        return
    signal.signal(signo, signal.SIG_DFL)
    os.kill(os.getpid(), signo)


signal.signal(signal.SIGINT, on_signal)
signal.signal(signal.SIGTERM, on_signal)
put("pid", str(os.getpid()))


def send(msg):
    sys.stdout.buffer.write(
        json.dumps(msg, ensure_ascii=False).encode("utf-8") + b"\n")
    sys.stdout.flush()


TOOLS = [
    {"name": "echo", "description": "Answers s as it arrived.",
     "inputSchema": {"type": "object",
                     "properties": {"s": {"type": "string"}},
                     "required": ["s"]}},
    {"name": "pid", "description": "Answers the server's pid.",
     "inputSchema": {"type": "object"}},
]

for raw in sys.stdin.buffer:
    try:
        msg = json.loads(raw.decode("utf-8"))
    except ValueError:
        continue
    mid, method = msg.get("id"), msg.get("method")
    if mid is None:
        continue
    if method == "initialize":
        result = {"protocolVersion": msg["params"].get("protocolVersion",
                                                       "2025-06-18"),
                  "capabilities": {"tools": {}},
                  "serverInfo": {"name": "mcphost-lifecycle", "version": "1"}}
    elif method == "ping":
        result = {}
    elif method == "tools/list":
        result = {"tools": TOOLS}
    elif method == "tools/call":
        args = msg["params"].get("arguments") or {}
        if msg["params"]["name"] == "echo":
            text = args.get("s", "")
            put("echo", text)
        else:
            text = str(os.getpid())
        result = {"content": [{"type": "text", "text": text}]}
    else:
        send({"jsonrpc": "2.0", "id": mid,
              "error": {"code": -32601, "message": "no method " + method}})
        continue
    send({"jsonrpc": "2.0", "id": mid, "result": result})

if os.environ.get("LIFE_ON_EOF") == "ignore":
    while True:
        time.sleep(3600)
time.sleep(int(os.environ.get("LIFE_SAVE_MS", "300")) / 1000)
sys.stderr.write("saved after the last answer\n")
sys.stderr.flush()
send({"jsonrpc": "2.0", "method": "notifications/message",
      "params": {"level": "info", "data": "logged after the last answer"}})
put("saved", "")
