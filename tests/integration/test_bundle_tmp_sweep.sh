#!/usr/bin/env bash
# A bundle install extracts into .tmp-<name>-XXXXXX in the bundles
# directory and holds a lock on it while it runs. An install that was
# killed (SIGKILL, a crash, a reboot) left that directory for good (19 MB
# for one bundle); the next install or `bundle list` now removes every
# .tmp- directory nobody holds the lock of, and leaves the one of an
# install still running (its lock held) alone.
. "$(dirname "$0")/../lib/lib.sh"
FX="$SRCDIR/bundles/testdata"
BUNDLES="$HOME/.local/share/mcphost/bundles"

# What a killed install leaves: a directory with part of a bundle.
leftover() {
  mkdir -p "$BUNDLES/$1/server"
  head -c 200000 /dev/zero >"$BUNDLES/$1/server/part.bin"
  chmod 700 "$BUNDLES" "$BUNDLES/$1"
}

run bundle install "$FX/hello-node-1.0.0.mcpb" --yes \
  --config allowed_dirs=/tmp
expect "a bundle installs" 0 --out "Installed hello-node"
check "an install leaves no .tmp- directory of its own" \
  test -z "$(find "$BUNDLES" -maxdepth 1 -name '.tmp-*')"

leftover .tmp-hello-node-Kd93jX
leftover .tmp-other-QQ12ab
# An install running in another process: its lock is held.
leftover .tmp-busy-Zz00aa
python3 -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)
fcntl.flock(fd, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(600)' "$BUNDLES/.tmp-busy-Zz00aa" >"$TMP/locked" 2>&1 </dev/null &
FLOCK_PID=$!
on_exit "kill $FLOCK_PID 2>/dev/null"
for _ in $(seq 150); do
  grep -q locked "$TMP/locked" && break
  sleep 0.1
done

run bundle list
expect "bundle list runs" 0 --out "hello-node"
check "bundle list removed a killed install's directory" \
  test ! -e "$BUNDLES/.tmp-hello-node-Kd93jX"
check "  and another's" test ! -e "$BUNDLES/.tmp-other-QQ12ab"
check "  and kept the one whose install still runs (locked)" \
  test -e "$BUNDLES/.tmp-busy-Zz00aa/server/part.bin"
check "  and the installed bundle" test -d "$BUNDLES/hello-node"

leftover .tmp-hello-node-Aa11bb
run bundle install "$FX/hello-node-1.0.0.mcpb" --yes \
  --config allowed_dirs=/tmp
expect "a second install" 0 --out "Installed hello-node"
check "the next install removed a killed install's directory" \
  test ! -e "$BUNDLES/.tmp-hello-node-Aa11bb"
check "  and kept the running one's" test -e "$BUNDLES/.tmp-busy-Zz00aa"
kill "$FLOCK_PID"; wait "$FLOCK_PID" 2>/dev/null
run bundle list
check "once its install ends (the lock released), it is swept too" \
  test ! -e "$BUNDLES/.tmp-busy-Zz00aa"
finish
