#!/usr/bin/env python3
"""Raw 2026-07-28 lines to `mcphost serve --stdio` for the gateway's
input_required rounds (test_gateway_mrtr.sh):

    gateway_mrtr_raw.py SCENARIO MCPHOST ARGS...

runs mcphost ARGS (ending in "serve --stdio") and plays SCENARIO
("rounds": forged, replayed and mismatched retries, URL mode, a cancel;
"expire": a retry after the gateway's timeout; "bounds": the operations
parked for one client; "legacy": a legacy client asked for a modern
backend's input; "routing": two calls at once, each asked its own
question; "own_id": a backend's request id that looks like the
gateway's; "listen": subscriptions/listen's bounds and subscriptions), then prints what it saw
as one JSON object. Waits are bounded by counts of lines, never timed,
except where the scenario is the gateway's own timeout."""
import json
import os
import select
import subprocess
import sys
import time

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "mrtr-raw", "version": "1"},
}


class Gateway:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        self.next_id = 0
        self.seen = {}

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()

    def request(self, method, params, caps=None):
        self.next_id += 1
        meta = dict(META)
        meta["io.modelcontextprotocol/clientCapabilities"] = caps or {}
        params = dict(params)
        params["_meta"] = meta
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method,
                   "params": params})
        return self.next_id

    def answer(self, rid):
        """The answer to request `rid` (other lines are kept aside)."""
        while rid not in self.seen:
            line = self.p.stdout.readline()
            if not line:
                return {"eof": True}
            msg = json.loads(line)
            if "id" in msg and "method" not in msg:
                self.seen[msg["id"]] = msg
        return self.seen.pop(rid)

    def call(self, tool, args, caps=None, extra=None):
        params = {"name": tool, "arguments": args}
        params.update(extra or {})
        return self.answer(self.request("tools/call", params, caps))

    def legacy_call(self, elicitation, tool, args, wait=True):
        """Starts as an initialize-era client declaring `elicitation`, then
        sends a tools/call of `tool`; its id. With `wait`, the initialize
        answer is read first."""
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id,
                   "method": "initialize",
                   "params": {"protocolVersion": "2025-11-25",
                              "capabilities": {"elicitation": elicitation},
                              "clientInfo": {"name": "legacy",
                                             "version": "1"}}})
        if wait:
            self.answer(self.next_id)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id,
                   "method": "tools/call",
                   "params": {"name": tool, "arguments": args}})
        return self.next_id

    def close(self):
        self.p.stdin.close()
        rest = self.p.stdout.read()
        self.p.wait()
        return rest


FORM = {"elicitation": {"form": {}}}


def result(msg):
    return msg.get("result", {})


def state_of(msg):
    return result(msg).get("requestState")


def key_of(msg):
    reqs = result(msg).get("inputRequests") or {}
    return next(iter(reqs), None)


def text(msg):
    return "".join(c.get("text", "") for c in result(msg).get("content", []))


def error_code(msg):
    return msg.get("error", {}).get("code")


def retry(gw, tool, args, first, response, caps=FORM, state=None):
    extra = {"inputResponses": {key_of(first): response},
             "requestState": state if state is not None else state_of(first)}
    return gw.call(tool, args, caps, extra)


def lastask(gw, action):
    """What the backend's last ask got, once its action is `action`
    (bounded by a count of polls), else the last seen."""
    got = None
    for _ in range(400):
        said = text(gw.call("mcp__grow__lastask", {}))
        got = None if said == "none" else json.loads(said)
        if isinstance(got, dict) and got.get("got", {}).get("action") == action:
            break
        time.sleep(0.05)
    return got


def rounds(gw):
    out = {}
    name = {"action": "accept", "content": {"name": "Ada"}}
    first = gw.call("mcp__grow__ask", {}, FORM)
    out["first"] = first
    st = state_of(first)
    # A forged token: one character changed.
    forged = st[:-1] + ("A" if st[-1] != "A" else "B")
    out["forged"] = retry(gw, "mcp__grow__ask", {}, first, name, state=forged)
    out["garbage"] = retry(gw, "mcp__grow__ask", {}, first, name,
                           state="not-a-token")
    # The same token with other params, then without the input.
    out["other_args"] = retry(gw, "mcp__grow__ask", {"x": 1}, first, name)
    out["other_tool"] = retry(gw, "mcp__grow__askurl", {}, first, name)
    out["no_input"] = gw.call("mcp__grow__ask", {}, FORM,
                              {"inputResponses": {}, "requestState": st})
    # Still parked: the right retry resumes it, once.
    out["resumed"] = retry(gw, "mcp__grow__ask", {}, first, name)
    out["replayed"] = retry(gw, "mcp__grow__ask", {}, first, name)
    # URL mode: asked only of a request that declared it.
    out["url_undeclared"] = gw.call("mcp__grow__askurl", {}, FORM)
    url_caps = {"elicitation": {"form": {}, "url": {}}}
    url = gw.call("mcp__grow__askurl", {}, url_caps)
    out["url"] = url
    out["url_done"] = retry(gw, "mcp__grow__askurl", {}, url,
                            {"action": "accept"}, caps=url_caps)
    # A cancel of the request answered input_required ends the park: the
    # backend's elicitation is answered "cancel", the call cancelled.
    asked = gw.call("mcp__grow__ask", {}, FORM)
    out["cancel_first"] = asked
    gw.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
             "params": {"requestId": gw.next_id}})
    out["cancel_backend"] = lastask(gw, "cancel")
    out["after_cancel"] = retry(gw, "mcp__grow__ask", {}, asked, name)
    # A question the backend withdraws (notifications/cancelled) need not
    # be answered by the retry: refused (-32602 naming it) until the
    # withdrawal reached the gateway, then taken (bounded by a count).
    withdrawn = gw.call("mcp__grow__askcancel", {}, FORM)
    out["withdrawn_first"] = withdrawn
    for _ in range(200):
        got = gw.call("mcp__grow__askcancel", {}, FORM,
                      {"inputResponses": {},
                       "requestState": state_of(withdrawn)})
        if "inputResponse" not in got.get("error", {}).get("data", {}):
            break
        time.sleep(0.05)
    out["withdrawn"] = got
    return out


def ended(gw):
    """A retry is checked once its operation ended while parked: the
    backend withdraws its question and answers at once; retries with
    other params or another method keep being refused (a count of them,
    while the answer reaches the gateway), then the right one takes it."""
    out = {"refused": []}
    first = gw.call("mcp__grow__askcancel", {}, FORM)
    out["first"] = first
    plain = {"inputResponses": {}, "requestState": state_of(first)}
    for i in range(20):
        if i % 2:
            got = gw.call("mcp__grow__askcancel", {"x": i}, FORM, plain)
        else:
            got = gw.answer(gw.request("prompts/get",
                                       dict(plain, name="mcp__grow__askcancel"),
                                       FORM))
        out["refused"].append(error_code(got))
        time.sleep(0.05)
    out["right"] = gw.call("mcp__grow__askcancel", {}, FORM, plain)
    return out


def expire(gw):
    out = {}
    first = gw.call("mcp__grow__ask", {}, FORM)
    out["first"] = first
    out["backend"] = lastask(gw, "cancel")  # by the gateway's timeout
    out["late"] = retry(gw, "mcp__grow__ask", {}, first,
                        {"action": "accept", "content": {"name": "Ada"}})
    return out


def bounds(gw):
    """16 operations parked for one client; the 17th backend question is
    answered as for a client that cannot be asked (declined)."""
    answers = [gw.call("mcp__grow__asktied", {}, FORM) for _ in range(17)]
    return {"kinds": [result(a).get("resultType") for a in answers],
            "last": text(answers[-1])}


def first_answer(gw, rids):
    """The id among `rids` answered first, and that answer."""
    while True:
        for rid in rids:
            if rid in gw.seen:
                return rid, gw.seen.pop(rid)
        line = gw.p.stdout.readline()
        if not line:
            return None, {"eof": True}
        msg = json.loads(line)
        if "id" in msg and "method" not in msg:
            gw.seen[msg["id"]] = msg


def cancel(gw, rid):
    gw.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
             "params": {"requestId": rid, "reason": "done with it"}})


def routing(gw):
    """Two calls at once on one backend: each question goes to the call
    that asked it. A modern backend's (A: confirm) while B (slow) runs;
    a legacy backend's tied by its progressToken (asktied) while a wait
    runs; one nothing ties, while two calls run, is declined."""
    out = {}
    a = gw.request("tools/call", {"name": "mcp__v2__confirm",
                                  "arguments": {"action": "delete A's files"}},
                   FORM)
    b = gw.request("tools/call", {"name": "mcp__v2__slow", "arguments": {}},
                   FORM)
    rid, first = first_answer(gw, [a, b])
    out["modern_first"] = "A" if rid == a else "B" if rid == b else None
    out["modern_asked"] = [r.get("params", {}).get("message") for r in
                           (result(first).get("inputRequests") or {}).values()]
    if rid == a:
        out["modern_a"] = text(retry(
            gw, "mcp__v2__confirm", {"action": "delete A's files"}, first,
            {"action": "accept", "content": {"confirm": True}}))
    cancel(gw, b)
    w = gw.request("tools/call", {"name": "mcp__grow__wait", "arguments": {}},
                   FORM)
    tied = gw.call("mcp__grow__asktied", {}, FORM)
    out["tied"] = result(tied).get("resultType")
    if out["tied"] == "input_required":
        out["tied_done"] = json.loads(text(retry(
            gw, "mcp__grow__asktied", {}, tied,
            {"action": "accept", "content": {"name": "Ada"}})))
    untied = gw.call("mcp__grow__ask", {}, FORM)
    out["untied"] = result(untied).get("resultType")
    out["untied_got"] = text(untied)
    cancel(gw, w)
    return out


def listen_reply(gw, rid):
    """A listen's acknowledgement (its notifications) or its error."""
    while True:
        line = gw.p.stdout.readline()
        if not line:
            return {"eof": True}
        msg = json.loads(line)
        sub = (msg.get("params") or {}).get("_meta", {}).get(
            "io.modelcontextprotocol/subscriptionId")
        if (msg.get("method") == "notifications/subscriptions/acknowledged"
                and sub == rid):
            return {"ack": msg["params"].get("notifications")}
        if msg.get("id") == rid and "method" not in msg:
            return msg


def backend_listens(log):
    """The resourceSubscriptions of each subscriptions/listen the backend
    got, and how many server/discover it got (TS_V2_LOG)."""
    listens, discovers = [], 0
    with open(log) as f:
        for line in f:
            m = json.loads(line)
            if m.get("method") == "subscriptions/listen":
                n = (m.get("params") or {}).get("notifications") or {}
                listens.append(n.get("resourceSubscriptions") or [])
            elif m.get("method") == "server/discover":
                discovers += 1
    return listens, discovers


def listen(gw):
    """subscriptions/listen bounds: copies of a URI are one, more than 256
    URIs or 16 listens of one client are -32602, the backend's own listen
    drops a URI when the last listen naming it ends. LISTEN_LOG names the
    backend's TS_V2_LOG file."""
    log = os.environ["LISTEN_LOG"]
    out = {}
    gw.answer(gw.request("resources/list", {}))
    many = gw.request("subscriptions/listen", {"notifications": {
        "resourceSubscriptions": ["config://app"] * 2000}})
    out["copies"] = listen_reply(gw, many)
    wide = gw.request("subscriptions/listen", {"notifications": {
        "resourceSubscriptions": ["config://app"] +
        ["x://%d" % i for i in range(256)]}})
    out["wide"] = listen_reply(gw, wide)
    more = [many]
    for _ in range(15):
        rid = gw.request("subscriptions/listen", {"notifications": {
            "resourceSubscriptions": ["config://app"]}})
        out.setdefault("more", []).append("ack" in listen_reply(gw, rid))
        more.append(rid)
    extra = gw.request("subscriptions/listen", {"notifications": {
        "toolsListChanged": True}})
    out["seventeenth"] = listen_reply(gw, extra)
    # All but one end: the backend keeps the URI.
    for rid in more[:-1]:
        cancel(gw, rid)
    gw.answer(gw.request("tools/list", {}))  # the cancels were read
    out["kept"], _ = backend_listens(log)
    cancel(gw, more[-1])
    listens = []
    for _ in range(400):
        gw.answer(gw.request("tools/list", {}))
        listens, discovers = backend_listens(log)
        if listens and "config://app" not in listens[-1]:
            break
        time.sleep(0.05)
    out["last_listen"] = listens[-1] if listens else None
    out["backend_listens"] = len(listens)
    out["discovers"] = discovers
    return out


def legacy(gw):
    """A legacy (initialize) client: a modern backend's inputRequests come
    to it as elicitation/create requests, its answer goes back."""
    rid = gw.legacy_call({}, "mcp__v2__confirm", {"action": "ship"})
    asked = []
    while True:
        line = gw.p.stdout.readline()
        if not line:
            return {"eof": True, "asked": asked}
        msg = json.loads(line)
        if msg.get("method") == "elicitation/create":
            asked.append(msg["params"].get("message"))
            gw.send({"jsonrpc": "2.0", "id": msg["id"],
                     "result": {"action": "accept",
                                "content": {"confirm": True}}})
        elif msg.get("id") == rid and "method" not in msg:
            return {"asked": asked, "result": text(msg)}


def own_id(gw):
    """A legacy client asked a legacy backend's elicitation whose id is
    the string "mcphost-mrtr-1" (ELICIT_SERVER_ID_PREFIX): its answer
    reaches the backend. A dropped answer leaves the call without an end:
    the wait for it is bounded (60 s without a line), then "stuck"."""
    fd, buf = gw.p.stdout.fileno(), [b""]

    def line():
        while b"\n" not in buf[0]:
            ready, _, _ = select.select([fd], [], [], 60)
            chunk = os.read(fd, 65536) if ready else b""
            if not chunk:
                return None
            buf[0] += chunk
        one, buf[0] = buf[0].split(b"\n", 1)
        return json.loads(one)

    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    rid = gw.legacy_call({}, "mcp__el__ask", {
        "params": {"message": "Name?", "requestedSchema": schema}},
        wait=False)
    asked = []
    while True:
        msg = line()
        if msg is None:
            gw.p.kill()  # it would wait for the call at the end of input
            return {"stuck": True, "asked": asked}
        if msg.get("method") == "elicitation/create":
            asked.append(msg["params"].get("message"))
            gw.send({"jsonrpc": "2.0", "id": msg["id"],
                     "result": {"action": "accept",
                                "content": {"name": "Ada"}}})
        elif msg.get("id") == rid and "method" not in msg:
            return {"asked": asked, "result": text(msg)}


def legacy_url(gw):
    """A legacy client that declared URL elicitation: a modern backend's
    URL-mode input (which has no elicitationId) comes to it with an id of
    the gateway's, as its revision requires."""
    rid = gw.legacy_call({"form": {}, "url": {}}, "mcp__v2__login",
                         {"url": "https://example.com/sign-in"})
    asked = []
    while True:
        line = gw.p.stdout.readline()
        if not line:
            return {"eof": True, "asked": asked}
        msg = json.loads(line)
        if msg.get("method") == "elicitation/create":
            asked.append(msg["params"])
            gw.send({"jsonrpc": "2.0", "id": msg["id"],
                     "result": {"action": "accept"}})
        elif msg.get("id") == rid and "method" not in msg:
            return {"asked": asked, "result": text(msg)}


def permission(gw):
    """A permission rule's "ask" (mcp__demo__echo) put to a modern client
    as an input_required round of its own: allowed, refused, not
    askable, cancelled."""
    out = {}
    tool, args = "mcp__demo__echo", {"message": "hi"}
    first = gw.call(tool, args, FORM)
    out["first"] = first
    out["allowed"] = retry(gw, tool, args, first,
                           {"action": "accept", "content": {"allow": True}})
    second = gw.call(tool, args, FORM)
    out["refused"] = retry(gw, tool, args, second,
                           {"action": "accept", "content": {"allow": False}})
    out["no_form"] = gw.call(tool, args, {})
    third = gw.call(tool, args, FORM)
    out["third"] = third
    gw.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
             "params": {"requestId": gw.next_id, "reason": "changed my mind"}})
    out["after_cancel"] = retry(gw, tool, args, third,
                                {"action": "accept", "content": {"allow": True}})
    out["still_works"] = gw.call("mcp__demo__add", {"a": 2, "b": 3}, FORM)
    return out


def main():
    scenario, argv = sys.argv[1], sys.argv[2:]
    gw = Gateway(argv)
    out = {"rounds": rounds, "expire": expire, "bounds": bounds,
           "legacy": legacy, "legacy_url": legacy_url, "routing": routing,
           "own_id": own_id, "listen": listen,
           "permission": permission, "ended": ended}[scenario](gw)
    gw.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
