#!/usr/bin/env bash
# A stdio server killed under a long-lived front end is connected again,
# as batch, the session and the gateway do (mcp/session.h's backoff and
# limits): under `mcphost shell` its state shows in `servers`, the next
# call waits for the new connection and succeeds, and `reconnect [SERVER]`
# connects again at once; `mcphost session reconnect [SERVER]` does the
# same in a session. The server writes its pid to a file at start.
. "$(dirname "$0")/../lib/lib.sh"
LIFE="$SRCDIR/tests/servers/lifecycle_server.py"
export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
D="$TMP/life"
mkdir -p "$D"
C="$TMP/life.json"
config_file "$C" "{\"life\": {\"command\": \"python3\", \"args\": [\"$LIFE\"],
                   \"env\": {\"LIFE_DIR\": \"$D\"}}}"
on_exit "'$MCPHOST' --config '$C' session stop >/dev/null 2>&1"

# ---- the shell ----

# The shell on a pipe, driven line by line: each line's output is read
# before the next is written, and the server is killed between two lines,
# then waited for until it has exited (a zombie or gone), so the shell
# meets it dead.
python3 - "$D" "$MCPHOST" --no-session --config "$C" shell \
  <<'PY' >"$TMP/out" 2>"$TMP/err"
import os, select, signal, subprocess, sys
life, argv = sys.argv[1], sys.argv[2:]
p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
got = b""
def run(line, until):
    """Writes `line`, reads stdout until it has `until`; returns it all."""
    global got
    p.stdin.write(line.encode() + b"\n")
    p.stdin.flush()
    out = b""
    while until.encode() not in out:
        r, _, _ = select.select([p.stdout], [], [], 60)
        data = os.read(p.stdout.fileno(), 4096) if r else b""
        if not data:
            sys.exit("no %r after %r: %r" % (until, line, out))
        out += data
    return out.decode()
def server_pid():
    with open(os.path.join(life, "pid")) as f:
        return int(f.read())
def exited(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True
first = run("call life/pid", "\n").strip()
print("first:", first, server_pid())
os.kill(server_pid(), signal.SIGKILL)
while not exited(int(first)):
    select.select([], [], [], 0.05)
print("servers after the kill:", run("servers", "\n").splitlines()[-1])
second = run("call life/pid", "\n").strip()
print("second:", second)
print("servers after the call:", run("servers", "\n").splitlines()[-1])
print("reconnect:", run("reconnect life", "\n").strip())
print("third:", run("call life/pid", "\n").strip())
p.stdin.close()
print("exit:", p.wait())
PY
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
pids=$(sed -n 's/^\(first\|second\|third\): \([0-9]*\).*/\2/p' "$TMP/out" | sort -u | wc -l)
expect "shell: servers shows a killed server reconnecting, with why" 0 \
  --out "servers after the kill: life  stdio  reconnecting: server process killed by signal 9 (SIGKILL)"
expect "shell: the next call succeeds, on the server started again" 0 \
  --out "second: " --no-out "cannot send" --out "servers after the call: life  stdio  connected"
expect "shell: reconnect SERVER connects again at once" 0 \
  --out "reconnect: life: connected" --out "third: " --out "exit: 0"
check "shell: three calls, three server processes" test "$pids" = 3

# ---- the session ----

run --config "$C" session start --idle 10
expect "session start" 0 --out "session started"
run --config "$C" call life/pid
expect "session: a call" 0
first=$OUT
# The session noticed the exit once its own view of the server says so:
# reconnecting, or connected to a new process (which wrote its pid). The
# stderr log's mark is not enough: the child is reaped, and the mark
# written, before the session reads the end of the server's stdout (a
# call at the very instant of the death would still meet it alive).
old=$(cat "$D/pid")
kill -9 "$old"
for _ in $(seq 300); do
  [ "$(cat "$D/pid")" != "$old" ] && break
  "$MCPHOST" --config "$C" servers life 2>/dev/null | grep -q reconnecting &&
    break
  sleep 0.1
done
run --config "$C" call life/pid
expect "session: a call after the server was killed succeeds" 0 --no-out "$first"
second=$OUT
run --config "$C" session reconnect life
expect "session reconnect SERVER connects again" 0 --out "life: connected"
run --config "$C" call life/pid
expect "session: the call after it reaches a new process" 0 \
  --no-out "$first" --no-out "$second"
run --config "$C" session reconnect
expect "session reconnect: every server" 0 --out "life: connected"
run --config "$C" session reconnect nosuch
expect "session reconnect: an unknown server" 6 --err 'no server named "nosuch"'
run --config "$C" session stop
expect "session stop" 0
run --config "$C" session reconnect
expect "session reconnect without a session" 6 --err "no session runs here"

finish
