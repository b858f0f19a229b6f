#!/usr/bin/env python3
"""mcphost-probe: a stdio MCP server (newline-delimited JSON-RPC) whose
tools do what the log, file and security tests need to watch mcphost
handle: send log messages, write to stderr, die, return an image, and
read other processes' /proc files.

Tools (arguments in parentheses):
  log (level, text)      sends notifications/message, then answers "logged"
  stderr (text)          writes text to stderr, then answers "written"
  die (text)             writes text to stderr and exits with status 3
  image ()               answers with a small PNG image
  echo (text)            answers with the text; with PROBE_ARGS set, first
                         writes it, as UTF-8, to the file that names
  wait (file)            answers "waited" once the file exists (the test
                         says when a call ends; nothing else is read
                         meanwhile)
  environ (pid | comm)   reads /proc/PID/environ (default: the parent's;
                         with comm, the first live process of that name
                         owned by this user) and answers with its variables, or
                         with isError and the reason
With PROBE_MARK set, the file it names is created at start-up.
"""
import base64
import json
import os
import sys
import time

PNG = base64.b64encode(
    bytes.fromhex(
        "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
        "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049"
        "454e44ae426082"
    )
).decode()

TOOLS = ["log", "stderr", "die", "image", "echo", "wait", "environ"]


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def text(s, error=False):
    return {"content": [{"type": "text", "text": s}], "isError": error}


def find_comm(name):
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                stat = f.read()
            # "PID (COMM) STATE ...": a zombie (one of an earlier run not
            # yet reaped) has no environment left to read.
            comm = stat[stat.index("(") + 1:stat.rindex(")")]
            if comm != name or stat[stat.rindex(")") + 2] == "Z":
                continue
            if os.stat("/proc/%s" % entry).st_uid == os.getuid():
                return int(entry)
        except OSError:
            continue
    return None


def environ(args):
    pid = args.get("pid")
    if args.get("comm"):
        pid = find_comm(args["comm"])
        if pid is None:
            return text("no process named %s" % args["comm"], True)
    if pid is None:
        pid = os.getppid()
    try:
        with open("/proc/%d/environ" % int(pid), "rb") as f:
            data = f.read()
    except OSError as e:
        return text("cannot read /proc/%s/environ: %s" % (pid, e.strerror), True)
    names = [v.split(b"=", 1)[0].decode() for v in data.split(b"\0") if v]
    return text("read %d variables: %s" % (len(names), " ".join(names)))


def call(name, args):
    if name == "log":
        send({"jsonrpc": "2.0", "method": "notifications/message",
              "params": {"level": args.get("level", "info"),
                         "logger": args.get("logger", "probe"),
                         "data": args.get("text", "")}})
        return text("logged")
    if name == "stderr":
        sys.stderr.write(args.get("text", ""))
        sys.stderr.flush()
        return text("written")
    if name == "die":
        sys.stderr.write(args.get("text", ""))
        sys.stderr.flush()
        os._exit(3)
    if name == "image":
        return {"content": [{"type": "image", "data": PNG,
                             "mimeType": "image/png"}]}
    if name == "echo":
        kept = os.environ.get("PROBE_ARGS")
        if kept:
            with open(kept, "wb") as f:
                f.write(args.get("text", "").encode("utf-8", "surrogatepass"))
        return text(args.get("text", ""))
    if name == "wait":
        while not os.path.exists(args.get("file", "")):
            time.sleep(0.02)
        return text("waited")
    if name == "environ":
        return environ(args)
    return None


def main():
    mark = os.environ.get("PROBE_MARK")
    if mark:
        open(mark, "w").close()
    for line in sys.stdin:
        m = json.loads(line)
        method, mid = m.get("method"), m.get("id")
        if mid is None:
            continue
        if method == "initialize":
            result = {"protocolVersion": "2025-11-25",
                      "capabilities": {"tools": {}, "logging": {}},
                      "serverInfo": {"name": "probe", "version": "1"}}
        elif method == "tools/list":
            result = {"tools": [{"name": t, "inputSchema": {"type": "object"}}
                                for t in TOOLS]}
        elif method == "tools/call":
            p = m.get("params", {})
            result = call(p.get("name"), p.get("arguments") or {})
            if result is None:
                send({"jsonrpc": "2.0", "id": mid,
                      "error": {"code": -32602, "message": "no such tool"}})
                continue
        elif method in ("ping", "logging/setLevel"):
            result = {}
        else:
            send({"jsonrpc": "2.0", "id": mid,
                  "error": {"code": -32601, "message": "Method not found"}})
            continue
        send({"jsonrpc": "2.0", "id": mid, "result": result})


main()
