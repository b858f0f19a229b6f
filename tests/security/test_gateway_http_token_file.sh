#!/usr/bin/env bash
# serve --token-file names something that is not a regular file of the
# user's. The attack: a FIFO (anyone who can plant one where the user
# keeps the token, or a slip): before the fix open(2) blocked until a
# writer came, and SIGINT/SIGTERM were ignored until SIGKILL. Now the
# file is opened without blocking and refused, naming it (exit 2). The
# `timeout` only ends a run that would hang; no time is asserted.
. "$(dirname "$0")/../lib/lib.sh"
. "$(dirname "$0")/../lib/gateway_http.sh"
mkfifo "$TMP/fifo.token"
run_bounded() {
  timeout -s KILL 30 "$MCPHOST" --mcp-config "$C" serve --http 127.0.0.1:0 \
    "$@" >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
run_bounded --token-file "$TMP/fifo.token"
expect "a FIFO as --token-file is refused, not waited on" 2 \
  --err "fifo.token: must be a regular file of yours"
mkdir "$TMP/dir.token"
run_bounded --token-file "$TMP/dir.token"
expect "a directory as --token-file is refused" 2 --err "dir.token"
finish
