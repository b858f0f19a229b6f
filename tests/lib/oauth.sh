# Sourced by the OAuth tests after lib.sh: the loopback AS and MCP server
# of tests/servers/oauth_server.mjs, started fresh with a clean state.
SRVLOG="$TMP/as.log"
CREDS="$XDG_STATE_HOME/mcphost/credentials.json"

# server ARGS...: a fresh AS + MCP server; sets URL and C (its config).
server() {
  start_node "$SRCDIR/tests/servers/oauth_server.mjs" --log "$SRVLOG" "$@" || exit 1
  URL="http://127.0.0.1:$NODE_PORT/mcp"
  C="$TMP/oauth-$NODE_PORT.json"
  config_file "$C" "{\"srv\": {\"type\": \"http\", \"url\": \"$URL\"}}"
  rm -rf "$XDG_STATE_HOME/mcphost"
}
# stat_of FIELD: the server's count (or value) of FIELD, 0 when none.
stat_of() { curl -s "http://127.0.0.1:$NODE_PORT/stats" | jq -r ".$1 // 0"; }
# parallel_calls N: N runs of `call mcp__srv__whoami` at once (config
# $C); their output in $TMP/par.I.out and .err, and PAR_OK, how many of
# them got the tool's answer.
parallel_calls() {
  local pids="" i p
  rm -f "$TMP"/par.*
  for i in $(seq "$1"); do
    "$MCPHOST" --config "$C" call mcp__srv__whoami >"$TMP/par.$i.out" 2>"$TMP/par.$i.err" </dev/null &
    pids="$pids $!"
  done
  for p in $pids; do wait "$p"; done
  PAR_OK=$(grep -l "scope mcp:read" "$TMP"/par.*.out | wc -l)
}
# edit_creds EXPR: the stored entries rewritten with jq EXPR (kept 0600).
edit_creds() {
  jq "$1" "$CREDS" >"$CREDS.new" && chmod 600 "$CREDS.new" && mv "$CREDS.new" "$CREDS"
}
# kill_server_tokens: the AS forgets the stored access token (the refresh
# token still works): the next request gets a 401.
kill_server_tokens() {
  local at
  at=$(jq -r '.mcpOAuth[].accessToken' "$CREDS")
  curl -s -d "token=$at" "http://127.0.0.1:$NODE_PORT/revoke" >/dev/null
}
