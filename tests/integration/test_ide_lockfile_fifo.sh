#!/usr/bin/env bash
# A lockfile that is not a regular file (a FIFO named <port>.lock in the
# IDE lockfile directory) is refused with the reason, like any other bad
# lockfile: opening it must not wait for a writer that never comes.
. "$(dirname "$0")/../lib/lib.sh"
export CLAUDE_CONFIG_DIR="$TMP/claude"
LOCKS="$CLAUDE_CONFIG_DIR/ide"
mkdir -p "$LOCKS" "$TMP/ws"
chmod 700 "$CLAUDE_CONFIG_DIR" "$LOCKS"
mkfifo "$LOCKS/4321.lock"

# bounded RUN...: a bound on the run that fails the test (137), not a
# timed assertion: before the fix the run waits forever in open().
bounded() {
  (cd "$TMP/ws" && timeout -s KILL 20 "$MCPHOST" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null)
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
bounded ide list --json
expect "ide list: a FIFO lockfile is refused, with the reason" 0 \
  --jq ".[0].port == 4321 and (.[0].error | contains(\"not a regular file\"))"
bounded ide list
expect "ide list (text): the same, as a refused row" 0 \
  --out "refused" --out "$LOCKS/4321.lock"
CLAUDE_CODE_SSE_PORT=4321 bounded --ide servers
expect "--ide with CLAUDE_CODE_SSE_PORT naming it fails, naming the lockfile" 3 \
  --err "$LOCKS/4321.lock" --err "not a regular file"

finish
