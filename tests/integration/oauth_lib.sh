# Sourced by the OAuth tests after lib.sh: the loopback AS and MCP server
# of tests/servers/oauth_server.mjs, started fresh with a clean state.
SRVLOG="$TMP/as.log"

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
