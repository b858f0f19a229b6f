#!/usr/bin/env python3
"""mcphost-tasks: a stdio MCP server (newline-delimited JSON-RPC) whose
tasks (MCP 2025-11-25) outlive it: each task is a JSON file in $TASK_DIR
and its state follows from the clock, so a task started by one mcphost
run is finished by the next (detach and resume) though each run starts
its own server process.

Tools:
  countdown  execution.taskSupport "optional": "steps" (integer, default
             3) steps of $TASK_STEP_MS ms (default 200) each; "fail"
             (boolean) ends it failed. Without a task it answers at once.
             A task's tasks/get sends notifications/progress (step of
             steps) under the progressToken of the tools/call first,
             each step once.
  plain      no execution member (task support forbidden): answers at once
  ask_model  sends sampling/createMessage whatever the client declared and
             answers with what came back: "result {json}" or
             "error CODE MESSAGE"
Every request is logged to $TASK_DIR/requests.log (one JSON line each).
SIGINT is ignored: the client's close (stdin, then SIGTERM) ends it, so a
tasks/cancel sent just before the close is still handled.
"""
import json
import os
import signal
import sys
import time
import uuid

signal.signal(signal.SIGINT, signal.SIG_IGN)
DIR = os.environ["TASK_DIR"]
STEP_MS = int(os.environ.get("TASK_STEP_MS", "200"))
# A hostile server's ids: TASK_ID_PREFIX comes before each (no "/").
ID_PREFIX = os.environ.get("TASK_ID_PREFIX", "")
RELATED = "io.modelcontextprotocol/related-task"

TOOLS = [
    {"name": "countdown", "description": "Counts down, as a task or not.",
     "inputSchema": {"type": "object", "properties": {
         "steps": {"type": "integer", "default": 3},
         "fail": {"type": "boolean"}}},
     "execution": {"taskSupport": "optional"}},
    {"name": "plain", "description": "Answers at once.",
     "inputSchema": {"type": "object", "properties": {}}},
    {"name": "ask_model", "description": "Asks the client for sampling.",
     "inputSchema": {"type": "object", "properties": {}}},
]


def send(msg):
    sys.stdout.write(json.dumps(msg) + "\n")
    sys.stdout.flush()


def answer(mid, result):
    send({"jsonrpc": "2.0", "id": mid, "result": result})


def error(mid, code, message):
    send({"jsonrpc": "2.0", "id": mid,
          "error": {"code": code, "message": message}})


def now_ms():
    return int(time.time() * 1000)


def iso(ms):
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(ms / 1000)) + "Z"


def path(tid):
    return os.path.join(DIR, "task-" + tid + ".json")


def load(tid):
    if not tid or "/" in tid:
        return None
    try:
        with open(path(tid)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def save(t):
    with open(path(t["id"]) + ".tmp", "w") as f:
        json.dump(t, f)
    os.replace(path(t["id"]) + ".tmp", path(t["id"]))


def step_of(t):
    return min(t["steps"], (now_ms() - t["created"]) // STEP_MS)


def status(t):
    """The task as tasks/get shows it (the clock decides, unless ended)."""
    st, msg = t.get("ended"), None
    step = step_of(t)
    if not st:
        if step >= t["steps"]:
            st = "failed" if t["fail"] else "completed"
        else:
            st, msg = "working", "step %d of %d" % (step + 1, t["steps"])
    task = {"taskId": t["id"], "status": st, "createdAt": iso(t["created"]),
            "lastUpdatedAt": iso(now_ms()), "ttl": 600000,
            "pollInterval": 100}
    if msg:
        task["statusMessage"] = msg
    elif st == "cancelled":
        task["statusMessage"] = "cancelled by the client"
    return task


def sample(mid):
    """sampling/createMessage to the client, then the tool's answer."""
    rid = "s-" + uuid.uuid4().hex[:8]
    send({"jsonrpc": "2.0", "id": rid, "method": "sampling/createMessage",
          "params": {"messages": [{"role": "user", "content": {
              "type": "text", "text": "What is 2+2?"}}],
              "maxTokens": 20}})
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("id") == rid and "method" not in msg:
            if "error" in msg:
                text = "error %d %s" % (msg["error"]["code"],
                                        msg["error"]["message"])
            else:
                text = "result " + json.dumps(msg["result"], sort_keys=True)
            answer(mid, {"content": [{"type": "text", "text": text}]})
            return
        handle(msg)


def call(mid, params):
    name = params.get("name")
    args = params.get("arguments") or {}
    if name == "ask_model":
        sample(mid)
        return
    if name == "plain" or (name == "countdown" and "task" not in params):
        answer(mid, {"content": [{"type": "text", "text": "at once"}]})
        return
    if name != "countdown":
        error(mid, -32602, "Unknown tool: %s" % name)
        return
    token = (params.get("_meta") or {}).get("progressToken")
    t = {"id": ID_PREFIX + uuid.uuid4().hex[:12], "created": now_ms(),
         "steps": int(args.get("steps", 3)), "fail": bool(args.get("fail")),
         "token": token, "ended": None}
    save(t)
    answer(mid, {"task": status(t)})


def handle(msg):
    mid, method = msg.get("id"), msg.get("method")
    params = msg.get("params") or {}
    with open(os.path.join(DIR, "requests.log"), "a") as f:
        f.write(json.dumps(msg, sort_keys=True) + "\n")
    if mid is None or method is None:
        return
    if method == "initialize":
        answer(mid, {
            "protocolVersion": params.get("protocolVersion", "2025-11-25"),
            "capabilities": {"tools": {}, "tasks": {
                "list": {}, "cancel": {},
                "requests": {"tools": {"call": {}}}}},
            "serverInfo": {"name": "mcphost-tasks", "version": "1"}})
    elif method == "ping":
        answer(mid, {})
    elif method == "tools/list":
        answer(mid, {"tools": TOOLS})
    elif method == "tools/call":
        call(mid, params)
    elif method in ("tasks/get", "tasks/result", "tasks/cancel"):
        t = load(params.get("taskId"))
        if not t:
            error(mid, -32602, "no task %s" % params.get("taskId"))
            return
        task = status(t)
        if method == "tasks/get":
            if (t["token"] is not None and task["status"] == "working"
                    and t.get("sent") != step_of(t)):
                t["sent"] = step_of(t)
                save(t)
                send({"jsonrpc": "2.0", "method": "notifications/progress",
                      "params": {"progressToken": t["token"],
                                 "progress": step_of(t),
                                 "total": t["steps"]}})
            answer(mid, task)
        elif method == "tasks/cancel":
            if task["status"] != "working":
                error(mid, -32602, "task %s is already %s"
                      % (t["id"], task["status"]))
                return
            t["ended"] = "cancelled"
            save(t)
            answer(mid, status(t))
        else:
            while task["status"] == "working":
                time.sleep(STEP_MS / 1000)
                task = status(load(t["id"]))
            meta = {RELATED: {"taskId": t["id"]}}
            if task["status"] == "cancelled":
                error(mid, -32602, "task %s was cancelled" % t["id"])
            elif task["status"] == "failed":
                answer(mid, {"isError": True, "_meta": meta, "content": [
                    {"type": "text", "text": "failed at the end"}]})
            else:
                answer(mid, {"_meta": meta, "content": [{"type": "text",
                       "text": "done after %d steps" % t["steps"]}]})
    elif method == "tasks/list":
        tasks = []
        for n in sorted(os.listdir(DIR)):
            if n.startswith("task-") and n.endswith(".json"):
                tasks.append(status(load(n[5:-5])))
        answer(mid, {"tasks": tasks})
    else:
        error(mid, -32601, "no method " + method)


for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    handle(m)
