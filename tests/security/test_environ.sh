#!/usr/bin/env bash
# Issue 11, point 9: the env allowlist withholds variables from stdio
# servers, but a server running as the same user could read them all from
# /proc/$PPID/environ of mcphost (or of its guardian). mcphost and the
# guardian are not dumpable, so /proc/PID/environ and mem are closed to
# other processes of the user; what mcphost itself reads in /proc/self
# (its executable, the plugins loaded through /proc/self/fd) still works.
# Root may read any process's environ, so this needs a second user.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/second_user.sh"
C="$TMP/probe.json"
probe_config "$C"
make_victim || skip_test "the environ checks need a second user"
SECRET=MCPHOST_TEST_WITHHELD_TOKEN

# The check can fail: a dumpable process of the same user is readable.
setpriv --reuid="$VUSER" --regid="$VUSER" --init-groups \
  env -i "$SECRET=1" sleep 60 &
CHILD=$!
on_exit "kill $CHILD 2>/dev/null"
for _ in $(seq 50); do
  grep -qa "$SECRET" "/proc/$CHILD/environ" 2>/dev/null && break
  sleep 0.1
done
vrun -- --config "$C" call p/environ "pid=$CHILD"
expect "a server can read the environment of an ordinary process of its user" 0 \
  --out "$SECRET"

vrun "$SECRET=s3cret" -- --config "$C" call p/environ
expect "a stdio server cannot read mcphost's /proc/PID/environ" 1 \
  --out "Permission denied" --no-out "$SECRET"

vrun "$SECRET=s3cret" -- --config "$C" call p/environ comm=mcphost-guard
expect "a stdio server cannot read the guardian's /proc/PID/environ" 1 \
  --out "Permission denied" --no-out "$SECRET"

# mcphost still finds its plugins (/proc/self/exe) and loads them and the
# http implementation through /proc/self/fd as a user that is not root.
vrun -- plugins
expect "as another user, the plugins load" 0 \
  --out "loaded   mcphost.transport.stdio" --out "loaded   mcphost.transport.http"
vrun -- --url "h=http://127.0.0.1:9/mcp" servers
expect "as another user, the http implementation loads on first use" 3 \
  --out "h" --no-out "cannot load" --no-err "cannot load"
finish
