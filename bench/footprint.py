#!/usr/bin/env python3
"""The instruction-count guard (bench/README.md, "The footprint guard").

Runs a few workloads of the mcphost of a build under valgrind's callgrind
and counts the instructions of the mcphost process and, apart, of the
processes it forks without exec (its process guardian); then runs each
natively for its peak RSS (GNU time's %M), the server started through
bench-detach so that its pages are not counted as mcphost's, and once
more with smaps_exit.so preloaded for its RSS at exit as its page tables
hold it (/proc/self/smaps). Instruction counts do not move with machine
load and the RSS at exit repeats to the KiB on one machine (but burst's
heap, which moves with its reader's pace; the libraries' pages move by
a 64 KiB window between machines): a small margin is enough. The peak,
as the kernel's approximate counters report it, moves by ~130 KiB: a
wider slack.

  footprint.py check  [--build DIR] [--baseline FILE] [--only W,W]
  footprint.py update [--build DIR] [--baseline FILE] [--only W,W] --why TEXT
  footprint.py measure [--build DIR] [--only W,W] [--peer DIR]
  footprint.py hot [--build DIR] [--hot FILE]

check: exit 0 when no figure exceeds its baseline line by more than the
margin, 1 when one does (with the top functions by instructions of each
workload that did), 77 when it cannot run here (no valgrind, a sanitizer
or non-RelWithDebInfo build, or a baseline made with another toolchain:
counts differ between them).
update: measures and rewrites the baseline with the figures measured;
the lines whose figures moved beyond the margin take --why as their
reason, the others keep theirs.
measure: prints each workload's figures as a JSON line, for any build
and no baseline (bench/run.sh sets two builds side by side with it).
--peer: the build whose bench-demo-server, bench-detach and
smaps_exit.so serve the workloads (default: --build's own); bench/run.sh
gives a candidate build its own build's, so that both count against the
same server and an older build without those programs is measured too.
hot: writes footprint.hot, the functions of mcphost the workloads run
(the guard's and `many`, 50 servers listed at once, which only the
layout and measure run; those more workloads run first) and their
source files, which the link
places first in the executable's code and read-only data
(cli/CMakeLists.txt); make baseline writes it, links again, then updates.

The environment is fixed: LC_ALL=C, TZ=UTC, HOME, XDG and TMPDIR in a new
temporary directory for every run (so every command is cold: no cache of
an earlier run), nothing else of the caller's. The peer is the C demo
server with its big tool (bench-demo-server, bench/servers/).
FOOTPRINT_PRELOAD (tests only) is given to mcphost as LD_PRELOAD: the
guard's own test makes a workload cost more with it.
"""
import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

MARGIN = 0.03  # a figure may exceed its baseline by this much
# ... and by at least this much, for figures so small that a few
# instructions or one page are more than 3% (the guardian's count).
SLACK = {
    "instructions": 2000,
    "children": 2000,
    # The peak as GNU time's %M reports it comes from the kernel's RSS
    # counters, which are per CPU and summed lazily (32 pages a CPU held
    # back): one binary's figure takes two values 128-136 KiB apart from
    # run to run (10 runs of each workload, bench/README.md).
    "rss_kib": 256,
    # The RSS at exit is read from the page tables (smaps): the same to
    # the KiB over 10 runs of each workload but burst on one machine.
    # Between machines, the libraries' part moves by a 64 KiB window: the
    # kernel maps what the page cache holds around a fault, in the folios
    # it holds (CI's fresh machine: burst's libraries 1,640 KiB, 1,576
    # here); and burst's heap moves with its reader's pace (484-520 KiB:
    # answers held while the harness does not read). 32 pages cover
    # both, and a 200 KiB regression still fails.
    "exit_kib": 128,
}
CALLS = 1000
BURST = 2000  # echo calls written at once (burst)
SERVERS = 50  # servers listed at once (many)
PEER = None  # --peer: the build of the server, bench-detach and the shim
BIG = 10 * 1024 * 1024
BUNDLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                      "bundles", "testdata", "hello-node-1.0.0.mcpb")
TOP = 25  # functions shown when a workload exceeds its baseline
TIME = "/usr/bin/time"  # GNU time, for the peak RSS
# No address-space randomization (util-linux's setarch): the peak RSS moves
# by a few pages from run to run with it.
NO_ASLR = ["setarch", "-R"]

WORKLOADS = ["version", "tools", "batch", "big", "plugins", "serve",
             "burst", "names"]
# Run for the layout (hot) and by measure, not by the guard: 50 servers
# started under valgrind take 10 s; a bundle's install runs libarchive's
# code more than mcphost's.
LAYOUT_ONLY = ["many", "bundle"]
WHAT = {
    "version": "cold `mcphost --version`",
    "tools": "cold `mcphost tools`, the demo server",
    "batch": "%d sequential echo calls in `mcphost batch`" % CALLS,
    "big": "a 10 MiB text result, `mcphost call ... big`",
    "plugins": "`mcphost plugins`, every built plugin loaded",
    "serve": "`mcphost serve --stdio` answering %d sequential calls" % CALLS,
    "burst": "%d echo calls written at once to `mcphost batch`" % BURST,
    "many": "%d servers' tools listed at once in `mcphost batch`" % SERVERS,
    "bundle": "`mcphost bundle install` of the hello-node sample bundle",
    "names": "cold `mcphost call` of a server whose tool names are "
             "non-ASCII, one of them fullwidth (NFKC makes it ASCII)",
}
# Run where a session was once started: the code every command runs
# then (looking for its session) is measured and laid out too.
SESSIONS_SEEN = ("burst", "many")
# Run with a state directory a user's months of use leave (100 other
# servers' names for completion, and the single file those names were
# once kept in): what a listing reads of it must not grow with it.
LIVED_IN = ("tools",)
LIVED_IN_SERVERS = 100
FIELDS = ["instructions", "children", "rss_kib", "exit_kib"]


def die(msg, code):
    print("footprint: " + msg, file=sys.stderr if code != 77 else sys.stdout)
    sys.exit(code)


def cmake_cache(build):
    cache = {}
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                m = re.match(r"^([A-Za-z_0-9]+):[A-Z]+=(.*)$", line.rstrip("\n"))
                if m:
                    cache[m.group(1)] = m.group(2)
    except OSError as e:
        die("%s is not a configured build: %s" % (build, e), 2)
    return cache


def first_line(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
    except OSError:
        return "none"
    return out.splitlines()[0].strip() if out else "none"


def environment(build, cache):
    """What the counts depend on besides mcphost's code."""
    cc = cache.get("CMAKE_C_COMPILER", "cc")
    cjson = "none"
    ldd = subprocess.run(["ldd", os.path.join(build, "bin", "mcphost")],
                         capture_output=True, text=True).stdout
    m = re.search(r"=> (\S*libcjson\.so\S*)", ldd)
    if m:
        cjson = os.path.basename(os.path.realpath(m.group(1)))
    return "; ".join([
        first_line([cc, "--version"]),
        os.confstr("CS_GNU_LIBC_VERSION"),
        cjson,
        first_line(["valgrind", "--version"]),
        platform.machine(),
        cache.get("CMAKE_BUILD_TYPE", "?"),
    ])


class Run:
    """One workload's run, in a temporary tree of its own."""

    def __init__(self, build, name, detach=False):
        self.build = build
        self.name = name
        self.dir = tempfile.mkdtemp(prefix="mcphost-footprint.")
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LC_ALL": "C",
            "TZ": "UTC",
            "HOME": self.path("home"),
            "XDG_CONFIG_HOME": self.path("config"),
            "XDG_STATE_HOME": self.path("state"),
            "XDG_CACHE_HOME": self.path("cache"),
            "XDG_DATA_HOME": self.path("data"),
            "XDG_RUNTIME_DIR": self.path("run"),
            "TMPDIR": self.path("tmp"),
            "MCPHOST_SYSTEM_CONFIG_DIR": self.path("system"),
        }
        for d in ("home", "config", "state", "cache", "data", "run", "tmp"):
            os.mkdir(self.path(d), 0o700)
        if name in SESSIONS_SEEN:
            # The sessions' directory (docs/sessions.md), as a session
            # once started leaves it: each command then looks for its
            # configuration's session there before running by itself.
            os.mkdir(self.path("run/mcphost"), 0o700)
        if name in LIVED_IN:
            self.live_in()
        peer = PEER or build
        server = os.path.join(peer, "bin", "bench-demo-server")
        if not os.access(server, os.X_OK):
            die("%s is missing: build it (bench/servers)" % server, 2)
        entry = {"command": server}
        env = {}
        if name == "names":
            # bench/servers/bench_features.c: accented Latin, Japanese,
            # Cyrillic, Devanagari and emoji names, already in NFKC (the
            # sanitizer's quick check), and one in fullwidth letters
            # (normalized by its tables).
            env = {"BENCH_NAMES": "icu"}
            entry["env"] = env
        if detach:
            # GNU time's %M of mcphost is the largest peak of mcphost and
            # the children it waited for: the server, started through
            # bench-detach, is never one (servers/detach.c).
            entry = {"command": os.path.join(peer, "bin", "bench-detach"),
                     "args": [server]}
            if env:
                entry["env"] = env
            if not os.access(entry["command"], os.X_OK):
                die("%s is missing: build it (bench/servers)" %
                    entry["command"], 2)
        self.config = self.path("demo.json")
        servers = {"demo": entry}
        if name == "many":
            servers = {"s%d" % i: entry for i in range(1, SERVERS + 1)}
        with open(self.config, "w") as f:
            json.dump({"mcpServers": servers}, f)

    def path(self, name):
        return os.path.join(self.dir, name)

    def live_in(self):
        state = self.path("state/mcphost")
        os.makedirs(os.path.join(state, "completion"), 0o700)
        every = {}
        for i in range(LIVED_IN_SERVERS):
            server = "server%03d" % i
            own = ["tool_number_%02d" % k for k in range(40)]
            entry = {"server": server,
                     "tools": ["mcp__%s__%s" % (server, t) for t in own],
                     "own_tools": own}
            path = os.path.join(state, "completion", server + ".json")
            with open(path, "w") as f:
                json.dump(entry, f, separators=(",", ":"))
            os.chmod(path, 0o600)
            every[server] = entry
        path = os.path.join(state, "completion-names.json")
        with open(path, "w") as f:
            json.dump({"servers": every}, f, separators=(",", ":"))
        os.chmod(path, 0o600)

    def argv(self):
        mcphost = os.path.join(self.build, "bin", "mcphost")
        cfg = ["--config", self.config]
        return {
            "version": [mcphost, "--version"],
            "tools": [mcphost] + cfg + ["tools"],
            "batch": [mcphost] + cfg + ["batch"],
            "burst": [mcphost] + cfg + ["batch"],
            "many": [mcphost] + cfg + ["batch"],
            "big": [mcphost] + cfg + ["call", "mcp__demo__big",
                                      "bytes=%d" % BIG],
            "names": [mcphost] + cfg + ["call", "demo/echo", "message=hi"],
            "bundle": [mcphost, "bundle", "install", BUNDLE, "--yes",
                       "--config", "allowed_dirs=" + self.path("tmp")],
            "plugins": [mcphost, "plugins"],
            "serve": [mcphost, "--mcp-config", self.config, "serve",
                      "--stdio"],
        }[self.name]

    def drive(self, p):
        """Feeds the workload's requests, one after the answer of the
        last; returns the error, or None."""
        if self.name == "batch":
            for i in range(1, CALLS + 1):
                req = {"id": i, "call": "mcp__demo__echo",
                       "arguments": {"message": "m%d" % i}}
                if not exchange(p, req, i):
                    return "batch: no answer to call %d" % i
        elif self.name in ("burst", "many"):
            # Every request written before any answer is read (stdin and
            # stdout at once: neither side waits for the other).
            if self.name == "burst":
                reqs = [{"id": i, "call": "mcp__demo__echo",
                         "arguments": {"message": "m%d" % i}}
                        for i in range(1, BURST + 1)]
            else:
                reqs = [{"id": i, "list": "tools", "server": "s%d" % i}
                        for i in range(1, SERVERS + 1)]
            data = "".join(json.dumps(r) + "\n" for r in reqs).encode()
            out, _ = p.communicate(data)
            answers = [json.loads(l) for l in out.splitlines() if l.strip()]
            ok = [a for a in answers if isinstance(a, dict) and
                  "result" in a]
            if len(ok) != len(reqs):
                return "%s: %d of %d requests answered" % (
                    self.name, len(ok), len(reqs))
            return None
        elif self.name == "serve":
            init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                    "params": {"protocolVersion": "2025-06-18",
                               "capabilities": {},
                               "clientInfo": {"name": "footprint",
                                              "version": "1"}}}
            if not exchange(p, init, 0):
                return "serve: no answer to initialize"
            send(p, {"jsonrpc": "2.0", "method": "notifications/initialized"})
            for i in range(1, CALLS + 1):
                req = {"jsonrpc": "2.0", "id": i, "method": "tools/call",
                       "params": {"name": "mcp__demo__echo",
                                  "arguments": {"message": "m%d" % i}}}
                if not exchange(p, req, i):
                    return "serve: no answer to call %d" % i
        p.stdin.close()
        p.stdout.read()  # what is left (the one-shot commands' output)
        return None

    def run(self, prefix, env_extra=None):
        """Runs the workload under `prefix` (a list); returns (pid,
        stderr, error or None)."""
        env = dict(self.env)
        if env_extra:
            env.update(env_extra)
        err_path = self.path("stderr")
        with open(err_path, "w") as err:
            p = subprocess.Popen(prefix + self.argv(), stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, stderr=err, env=env,
                                 cwd=self.dir)
            why = self.drive(p)
            p.wait()
        with open(err_path) as f:
            stderr = f.read()
        if not why and p.returncode != 0:
            why = "exit %d" % p.returncode
        return p.pid, stderr, why

    def cleanup(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def send(p, msg):
    p.stdin.write((json.dumps(msg) + "\n").encode())
    p.stdin.flush()


def exchange(p, msg, want_id):
    """Sends one request and reads lines until its answer."""
    send(p, msg)
    for line in p.stdout:
        try:
            got = json.loads(line)
        except ValueError:
            continue
        if isinstance(got, dict) and got.get("id") == want_id:
            return "error" not in got
    return False


def callgrind_total(path):
    with open(path) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    return 0


def preload_env():
    lib = os.environ.get("FOOTPRINT_PRELOAD")
    return {"LD_PRELOAD": lib} if lib else {}


def exit_rss(build, name, need=True):
    """mcphost's RSS at its exit (smaps_exit.so preloaded): the whole and
    its kinds, {"exe": KiB, "heap": ..., "total": ...}. Without the shim
    in the build: an error, or None when not `need`ed (measure, which
    bench/run.sh also gives a candidate build of before it)."""
    shim = os.path.join(PEER or build, "lib", "smaps_exit.so")
    if not os.access(shim, os.R_OK):
        if not need:
            return None
        die("%s is missing: build it (bench/servers)" % shim, 2)
    exe = os.path.realpath(os.path.join(build, "bin", "mcphost"))
    r = Run(build, name, detach=True)
    try:
        out = r.path("smaps")
        extra = preload_env().get("LD_PRELOAD")
        env = {"LD_PRELOAD": shim + (":" + extra if extra else ""),
               "SMAPS_EXIT_OUT": out}
        _, stderr, why = r.run(NO_ASLR, env)
        if why:
            die("%s: %s\n%s" % (name, why, stderr[-2000:]), 2)
        lines = []
        if os.path.exists(out):
            with open(out) as f:
                lines = f.read().splitlines()
        # "exe K heap K stack K files K anon K total K PATH", one line a
        # process that loaded the shim (the server, bench-detach too).
        for line in lines:
            parts = line.split(" ", 12)
            if len(parts) == 13 and parts[12] == exe:
                return {parts[i]: int(parts[i + 1]) for i in range(0, 12, 2)}
        die("%s: no line of %s at its exit in %s:\n%s" %
            (name, exe, out, "\n".join(lines)), 2)
    finally:
        r.cleanup()


def measure(build, name, need_exit=True):
    """The figures of one workload: a callgrind run, two native runs (the
    peak RSS, the RSS at exit); "exit_kinds" holds the latter's kinds."""
    r = Run(build, name)
    try:
        out = r.path("cg")
        os.mkdir(out)
        # --dump-before: the counters are written and zeroed just before
        # each fork, so a forked child starts from zero (it would inherit
        # the parent's count) and the parent's parts add up. A fork is
        # fork(), vfork() (which valgrind runs as a fork) or _Fork() (the
        # guardian's middle process: transports/stdio/guardian.c).
        vg = NO_ASLR + ["valgrind", "--tool=callgrind", "--dump-before=fork",
              "--dump-before=vfork", "--dump-before=_Fork",
              "--callgrind-out-file=" + os.path.join(out, "cg.%p"),
              "--log-file=" + os.path.join(out, "vg.%p")]
        pid, stderr, why = r.run(vg, preload_env())
        if why:
            die("%s under valgrind: %s\n%s" % (name, why, stderr[-2000:]), 2)
        main = children = 0
        for f in os.listdir(out):
            m = re.match(r"^cg\.(\d+)(\.\d+)?$", f)
            if not m:
                continue
            n = callgrind_total(os.path.join(out, f))
            if int(m.group(1)) == pid:
                main += n
            else:
                children += n
    finally:
        r.cleanup()
    # GNU time's %M: a child forked from this Python process would count
    # its pages in the child's ru_maxrss until exec. The server detached
    # (Run): the figure is mcphost's own peak (and its guardian's, which
    # is smaller).
    r = Run(build, name, detach=True)
    try:
        rss_file = r.path("rss")
        _, stderr, why = r.run(NO_ASLR + [TIME, "-f", "%M", "-o", rss_file],
                               preload_env())
        if why:
            die("%s: %s\n%s" % (name, why, stderr[-2000:]), 2)
        with open(rss_file) as f:
            rss = int(f.read().split()[-1])
    finally:
        r.cleanup()
    kinds = exit_rss(build, name, need_exit)
    return {"instructions": main, "children": children, "rss_kib": rss,
            "exit_kib": kinds and kinds["total"], "exit_kinds": kinds}


def top_functions(build, name):
    """The workload once more under callgrind, in one file: its top
    functions by instructions (their own, then with what they call)."""
    r = Run(build, name)
    try:
        f = r.path("cg.out")
        vg = NO_ASLR + ["valgrind", "--tool=callgrind",
                        "--callgrind-out-file=" + f,
              "--trace-children=no", "--log-file=" + r.path("vg.log")]
        r.run(vg, preload_env())
        text = []
        for inclusive in ("no", "yes"):
            res = subprocess.run(["callgrind_annotate", "--inclusive=" +
                                  inclusive, "--threshold=100", f],
                                 capture_output=True, text=True)
            lines = [l for l in res.stdout.splitlines()
                     if re.match(r"^\s*[\d,]+ \(", l) and
                     "PROGRAM TOTALS" not in l]
            text.append("  top %d by %s instructions:" %
                        (TOP, "inclusive" if inclusive == "yes" else "self"))
            text.extend("    " + l.strip() for l in lines[:TOP])
        return "\n".join(text)
    finally:
        r.cleanup()


def callgrind_functions(path, obj):
    """The functions of the object file obj that have costs in a
    callgrind output file, each with its source file. Read from the file
    itself: callgrind_annotate merges functions of the same file and name
    in two objects (common/ is also compiled into the plugins)."""
    names, table = {}, {"ob": {}, "fl": {}, "fn": {}}
    ob = fl = None
    with open(path) as f:
        for line in f:
            # "fn=(7) name" names 7; "fn=(7)" uses it. Files have one
            # table (fl, fi, fe and a callee's cfi, cfl), so have objects
            # (ob, cob) and functions (fn, cfn).
            m = re.match(r"^(c?)(ob|fl|fi|fe|fn)=\((\d+)\)(?: (.*))?$",
                         line.rstrip("\n"))
            if not m:
                continue
            kind, ident, text = m.group(2), m.group(3), m.group(4)
            if kind in ("fi", "fe"):
                kind = "fl"
            if text is not None:
                table[kind][ident] = text
            if m.group(1) or m.group(2) in ("fi", "fe"):
                continue  # a callee's, or inlined code's
            if kind == "ob":
                ob = table["ob"].get(ident)
            elif kind == "fl":
                fl = table["fl"].get(ident)
            elif ob == obj:
                # callgrind marks a recursive call's function "name'2"
                names[table["fn"].get(ident, "").split("'")[0]] = fl
    return names


def executed_functions(build, name):
    """The functions of the build's mcphost that a workload's mcphost
    process runs (callgrind; not its forked guardian, whose pages are its
    own), each under every name its code has (GCC merges identical
    functions). The workload runs twice in one tree, and both runs count:
    the second reads what the first left (the server's protocol era, its
    tool names for completion), as every run after a user's first does,
    with code the first does not run."""
    exe = os.path.join(build, "bin", "mcphost")
    r = Run(build, name)
    names = {}
    try:
        out = r.path("cg")
        os.mkdir(out)
        vg = NO_ASLR + ["valgrind", "--tool=callgrind",
                        "--callgrind-out-file=" + os.path.join(out, "cg.%p"),
                        "--log-file=" + os.path.join(out, "vg.%p")]
        for _ in range(2):
            pid, stderr, why = r.run(vg)
            if why:
                die("%s under valgrind: %s\n%s" % (name, why,
                                                   stderr[-2000:]), 2)
            for n, fl in callgrind_functions(
                    os.path.join(out, "cg.%d" % pid), exe).items():
                names.setdefault(n, fl)
    finally:
        r.cleanup()
    at, of = {}, {}
    nm = subprocess.run(["nm", "--defined-only", exe], capture_output=True,
                        text=True).stdout
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            at.setdefault(parts[0], set()).add(parts[2])
            of.setdefault(parts[2], set()).add(parts[0])
    for n, fl in list(names.items()):
        for addr in of.get(n, ()):
            for alias in at[addr]:
                names.setdefault(alias, fl)
    # A section is .text.NAME (or .text.NAME.constprop.0, ...): the list
    # holds NAME, without GCC's clone suffixes.
    return {n.split(".")[0]: fl for n, fl in names.items()
            if re.match(r"^[A-Za-z_][A-Za-z0-9_]*(\.|$)", n)}


# The workloads whose peak RSS the layout is for, in the order their
# code is placed (version runs nothing of its own, big's RSS is its
# result's): the one-shot commands first, where the executable's pages
# are most of the peak, a cold `tools` and a cold `call`; then batch's
# calls, a burst of them and 50 servers, serve, plugins and a bundle's
# install. The code the first five run is more than the three 64 KiB
# windows the first three each take: the burst and the 50 servers, whose
# peaks are most of all their heap, take a fourth.
HOT_ORDER = ["tools", "names", "batch", "burst", "many", "serve",
             "plugins", "bundle"]


def write_hot(build, path):
    """footprint.hot: the functions the workloads run. First those of the
    first workload of HOT_ORDER, then those of the second that the first
    does not run, and so on, so that each workload's code is together
    (a run maps its code in few 64 KiB windows) and the first ones' in as
    few pages as their code takes; within each, those more of HOT_ORDER's
    workloads run first, then by name; the other workloads' last. Then
    the source files of those functions, in the same order: their
    read-only data (strings, tables) goes first too."""
    runs = {n: executed_functions(build, n) for n in WORKLOADS + LAYOUT_ONLY}

    def key(f):
        which = [n for n in HOT_ORDER if f in runs[n]]
        first = HOT_ORDER.index(which[0]) if which else len(HOT_ORDER)
        return (first, -len(which), f)

    funcs = sorted(set().union(*runs.values()), key=key)
    top = os.path.realpath(os.path.join(os.path.dirname(__file__), ".."))
    files = []
    for f in funcs:
        src = next(r[f] for r in runs.values() if f in r) or ""
        rel = os.path.relpath(src, top) if src.startswith("/") else src
        if rel.endswith(".c") and not rel.startswith("..") and \
                rel not in files:
            files.append(rel)
    out = [
        "# What the footprint guard's workloads run of mcphost",
        "# (bench/README.md, docs/architecture.md): the functions, those",
        "# that more workloads run first, then their source files. The link",
        "# places these functions first in the code and these files'",
        "# read-only data first in .rodata, so that a run maps few pages of",
        "# the executable (cli/CMakeLists.txt). Written by `make baseline`",
        "# (footprint.py hot); a function without GCC's suffixes",
        "# (.constprop.0, .cold).",
    ]
    with open(path, "w") as f:
        f.write("\n".join(out + funcs + files) + "\n")
    print("footprint: wrote %s (%d functions, %d files)" %
          (path, len(funcs), len(files)))


def read_baseline(path):
    env, lines = None, {}
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("# environment: "):
                    env = line[len("# environment: "):].strip()
                if not line.strip() or line.startswith("#"):
                    continue
                head, _, why = line.partition("#")
                parts = head.split()
                # A line of before exit_kib has one figure less: update
                # fills it in (a check asks for it).
                if len(parts) not in (len(FIELDS), 1 + len(FIELDS)) or \
                        parts[0] not in WHAT:
                    die("%s: a line is not WORKLOAD %s # WHY: %s" %
                        (path, " ".join(f.upper() for f in FIELDS),
                         line.strip()), 2)
                figs = dict.fromkeys(FIELDS)
                figs.update(zip(FIELDS, map(int, parts[1:])))
                lines[parts[0]] = (figs, why.strip())
    except FileNotFoundError:
        pass
    return env, lines


def limit(field, base):
    return max(int(base * (1 + MARGIN)), base + SLACK[field])


def write_baseline(path, env, lines):
    out = [
        "# The footprint guard's baseline (bench/README.md): `make test` fails",
        "# when a figure exceeds its line by more than its margin.",
        "# Regenerate it (and say why it moved) with",
        "#   make baseline WHY='what changed'",
        "# instructions: of the mcphost process (callgrind); children: of the",
        "# processes it forks without exec; rss_kib: its own peak RSS (GNU",
        "# time %M, the server detached: not counted); exit_kib: its RSS at",
        "# exit from its page tables (/proc/self/smaps, smaps_exit.so).",
        "# Margins: %d%%, and at least %d instructions, %d KiB of rss_kib" %
        (int(MARGIN * 100), SLACK["instructions"], SLACK["rss_kib"]),
        "# (%M moved by 128-136 KiB over 10 runs of one binary: the kernel's",
        "# per-CPU counters), %d KiB of exit_kib (the same to the KiB over" %
        SLACK["exit_kib"],
        "# 10 runs of each workload but burst on one machine; the libraries'",
        "# part moves by a 64 KiB window between machines, burst's heap with",
        "# its reader's pace).",
        "# Counts hold for one toolchain, the one below; elsewhere the guard",
        "# skips.",
        "# environment: " + env,
        "#",
        "# workload %s  # why it last moved" % " ".join(FIELDS),
    ]
    for name in WORKLOADS:
        if name in lines:
            figs, why = lines[name]
            out.append("%-8s %12d %8d %7d %8d  # %s" %
                       ((name,) + tuple(figs[f] for f in FIELDS) + (why,)))
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["check", "update", "measure", "hot"])
    ap.add_argument("--build", default=os.path.join(here, "..", "build"))
    ap.add_argument("--baseline",
                    default=os.path.join(here, "footprint.baseline"))
    ap.add_argument("--hot", default=os.path.join(here, "footprint.hot"))
    ap.add_argument("--only", default="")
    ap.add_argument("--why", default="")
    ap.add_argument("--peer", default="")
    a = ap.parse_args()
    a.build = os.path.realpath(a.build)
    global PEER
    PEER = os.path.realpath(a.peer) if a.peer else None
    names = [n for n in a.only.split(",") if n] or WORKLOADS
    for n in names:
        if n not in WORKLOADS and not (a.mode == "measure" and
                                       n in LAYOUT_ONLY):
            die("no workload %s (%s)" % (n, ", ".join(
                WORKLOADS + (LAYOUT_ONLY if a.mode == "measure" else []))),
                2)
    cache = cmake_cache(a.build)
    if a.mode == "measure":
        for n in names:
            print(json.dumps(dict(workload=n, **measure(a.build, n, False))),
                  flush=True)
        return 0
    if cache.get("MCPHOST_SANITIZE", "OFF").upper() in ("ON", "1", "TRUE"):
        die("skipped: a sanitizer build (its counts are not the plain "
            "build's)", 77)
    if cache.get("CMAKE_BUILD_TYPE") != "RelWithDebInfo":
        die("skipped: a %s build; the baseline is of RelWithDebInfo" %
            cache.get("CMAKE_BUILD_TYPE"), 77)
    if not shutil.which("valgrind") or not shutil.which("callgrind_annotate"):
        die("skipped: no valgrind (scripts/deps.sh test installs it)", 77)
    if subprocess.run(NO_ASLR + ["true"]).returncode != 0:
        die("skipped: setarch -R cannot turn address randomization off "
            "here", 77)
    if not os.access(TIME, os.X_OK):
        die("skipped: no GNU time at %s (scripts/deps.sh test installs it)"
            % TIME, 77)
    if a.mode == "hot":
        write_hot(a.build, a.hot)
        return 0
    env = environment(a.build, cache)
    base_env, base = read_baseline(a.baseline)

    if a.mode == "update":
        if not a.why:
            die("update needs --why (make baseline WHY='...')", 2)
        lines = dict(base) if base_env == env else {}
        for n in names:
            figs = measure(a.build, n)
            old = lines.get(n)
            moved = not old or any(old[0][f] is None or
                                   figs[f] > limit(f, old[0][f]) or
                                   old[0][f] > limit(f, figs[f])
                                   for f in FIELDS)
            lines[n] = (figs, a.why if moved else old[1])
            print("%-8s %s%s" % (n, " ".join("%s %d" % (f, figs[f])
                                             for f in FIELDS),
                                 "  (moved)" if moved else ""))
        write_baseline(a.baseline, env, lines)
        print("footprint: wrote %s" % a.baseline)
        return 0

    if base_env is None:
        die("skipped: no baseline %s; make baseline WHY=... writes one" %
            a.baseline, 77)
    if base_env != env:
        die("skipped: the baseline was counted with\n  %s\nthis is\n  %s\n"
            "(counts differ between toolchains; make baseline regenerates "
            "it)" % (base_env, env), 77)
    failed = False
    for n in names:
        if n not in base or None in base[n][0].values():
            die("%s has no line for %s, or one without %s: make baseline "
                "WHY=..." % (a.baseline, n, FIELDS[-1]), 2)
        figs = measure(a.build, n)
        want = base[n][0]
        over = [f for f in FIELDS if figs[f] > limit(f, want[f])]
        print("%-8s %s  %s" % (n, " ".join(
            "%s %d (%+.1f%%)" % (f, figs[f], 100.0 * (figs[f] - want[f]) /
                                 max(want[f], 1)) for f in FIELDS),
            "OVER: " + ", ".join(over) if over else "ok"))
        if over:
            failed = True
            print("  %s exceeds the baseline by more than its margin:" %
                  WHAT[n])
            for f in over:
                print("  %s %d, baseline %d (%s)" %
                      (f, figs[f], want[f], base[n][1]))
            if "exit_kib" in over:
                print("  exit_kib by kind (KiB): " + ", ".join(
                    "%s %d" % kv for kv in figs["exit_kinds"].items()))
            if any(f in ("instructions", "children") for f in over):
                print(top_functions(a.build, n))
    if failed:
        print("footprint: over the baseline. A change that costs more on "
              "purpose updates it in the same commit:\n"
              "  make baseline WHY='why it costs more'")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
