#!/bin/bash
# After a crash and a reboot the IDE's lockfile (the user's own, trusted)
# names a port and a pid that may since be another user's. Two attacks:
# another user binds the lockfile's port and waits for
# X-Claude-Code-Ide-Authorization (then plays the IDE: its tool results
# reach the model); and the lockfile's pid, reused by another user's
# process, kept the lockfile "live" (kill(pid, 0) failing with EPERM was
# taken as alive). Now the token goes only to a port the user's own
# process listens on, and a pid of another user's is stale.
. "$(dirname "$0")/../lib/other_user.sh"
other_user_setup
[ "$OTHER_HOW" = useradd ] || skip_test "needs a second user to listen as"
SYSPY=/usr/bin/python3
[ -x "$SYSPY" ] || skip_test "no $SYSPY"
WS="$TMP/project"
mkdir -p "$WS"
export CLAUDE_CONFIG_DIR="$TMP/claude"
mkdir -p "$CLAUDE_CONFIG_DIR/ide"
chmod 700 "$CLAUDE_CONFIG_DIR" "$CLAUDE_CONFIG_DIR/ide"
TOKEN=tok-SECRET-4f1c2b9e

# listen WHO LOG: a TCP listener on 127.0.0.1 as WHO ("other" or "self")
# that writes whatever it receives to LOG; sets LPORT and LPID.
listen() {
  local who=$1 log=$2 out="$TMP/listen-$RANDOM.out"
  : >"$out"
  : >"$log"
  local cmd=("$SYSPY" -u -c '
import os, socket, sys, threading
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print("pid", os.getpid(), flush=True)
print("listening on", s.getsockname()[1], flush=True)
def take(c):
    c.settimeout(5)
    try:
        while True:
            b = c.recv(65536)
            if not b:
                break
            sys.stderr.buffer.write(b); sys.stderr.flush()
    except OSError:
        pass
    c.close()
while True:
    c, _ = s.accept()
    threading.Thread(target=take, args=(c,), daemon=True).start()
')
  if [ "$who" = other ]; then
    as_other "${cmd[@]}" >"$out" 2>"$log" </dev/null &
  else
    "${cmd[@]}" >"$out" 2>"$log" </dev/null &
  fi
  LPORT=
  for _ in $(seq 150); do
    LPORT=$(sed -n 's/^listening on //p' "$out")
    LPID=$(sed -n 's/^pid //p' "$out")
    [ -n "$LPORT" ] && on_exit "kill $LPID 2>/dev/null" && return 0
    sleep 0.1
  done
  echo "the listener did not start"
  exit 1
}

# lockfile PORT PID: the user's own lockfile for an sse IDE on PORT.
lockfile() {
  rm -f "$CLAUDE_CONFIG_DIR"/ide/*.lock
  printf '{"pid": %s, "workspaceFolders": ["%s"], "ideName": "Fake IDE", "transport": "sse", "authToken": "%s", "runningInWindows": false}' \
    "$2" "$WS" "$TOKEN" >"$CLAUDE_CONFIG_DIR/ide/$1.lock"
  chmod 600 "$CLAUDE_CONFIG_DIR/ide/$1.lock"
}

# The other user's listener on the lockfile's port: no token sent.
listen other "$TMP/other.log"
lockfile "$LPORT" $$
in_dir "$WS" --ide call ide/openFile filePath=/x
expect "a port another user listens on gets no connection" 3 \
  --err "that port is another user's (uid $OTHER_UID)"
check "the other user's listener never saw the token" \
  bash -c "! grep -q '$TOKEN' '$TMP/other.log'"
kill "$LPID" 2>/dev/null

# The same listener as the user's own: the token is sent (so the check
# above could fail). It is no MCP server, so the call itself fails.
listen self "$TMP/self.log"
lockfile "$LPORT" $$
in_dir "$WS" --ide call ide/openFile filePath=/x
check "the user's own listener gets the token" \
  grep -q "X-Claude-Code-Ide-Authorization: $TOKEN" "$TMP/self.log"
kill "$LPID" 2>/dev/null

# A lockfile whose pid is now another user's process: stale.
# (its pid from itself: $! would be the subshell running as_other)
as_other sh -c 'echo $$; exec sleep 600' >"$TMP/other.pid" 2>/dev/null \
  </dev/null &
for _ in $(seq 150); do
  OTHER_PID=$(cat "$TMP/other.pid")
  [ -n "$OTHER_PID" ] && break
  sleep 0.1
done
on_exit "kill $OTHER_PID 2>/dev/null"
lockfile 4099 "$OTHER_PID"
in_dir "$WS" ide list --json
expect "a lockfile whose pid is another user's process is stale" 0 \
  --jq '.[0].alive == false'
lockfile 4099 $$
in_dir "$WS" ide list --json
expect "a lockfile whose pid is the user's own process is live" 0 \
  --jq '.[0].alive == true'
finish
