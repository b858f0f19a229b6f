#!/bin/bash
# Another local user plants a claude.ai login for mcphost to use: a
# credentials file of theirs, holding their token, in a Claude Code
# config directory they can write (a shared CLAUDE_CONFIG_DIR). With it
# mcphost would list their account's connectors, servers they control,
# and hand their tools' results to the user's model. The file is refused,
# named with its owner, and their token is never sent; and the user's own
# file open to others is refused too (it gives others the login).
. "$(dirname "$0")/../lib/other_user.sh"
command -v node >/dev/null || skip_test "node is not installed"
other_user_setup
unset MCPHOST_CLAUDE_CREDENTIALS MCPHOST_CLAUDEAI_API_BASE \
  MCPHOST_CLAUDEAI_PROXY_URL
export ENABLE_CLAUDEAI_MCP_SERVERS=1
TOKEN="sk-ant-oat01-other-user-$RANDOM$RANDOM"
CONN="$TMP/connectors.json"
echo '[{"type": "mcp_server", "id": "srv_evil", "display_name": "Evil",
  "url": "https://evil.example/mcp", "created_at": "2026-11-01T00:00:00Z"}]' >"$CONN"
D="$TMP/demo.json"
config_file "$D" "{\"demo\": {\"command\": \"$DEMO\"}}"
SHARED="$TMP/shared-claude"
other_mkdir "$SHARED"
CREDS="$SHARED/.credentials.json"
printf '{"claudeAiOauth": {"accessToken": "%s", "expiresAt": 4102444800000, "scopes": ["user:mcp_servers"]}}\n' \
  "$TOKEN" | other_write "$CREDS"
as_other chmod 600 "$CREDS" 2>/dev/null || chmod 600 "$CREDS"
start_node "$SRCDIR/tests/servers/claudeai_fake.mjs" --mode ok --token "$TOKEN" \
  --creds "$CREDS" --connectors "$CONN" --log "$TMP/fake.log" || exit 1
export MCPHOST_CLAUDEAI_API_BASE="http://127.0.0.1:$NODE_PORT" \
  MCPHOST_CLAUDEAI_PROXY_URL="http://127.0.0.1:$NODE_PORT"

CLAUDE_CONFIG_DIR="$SHARED" run --config "$D" -v servers
expect "the other user's credentials file is refused, named with its owner: no connectors" 0 \
  --out demo --no-out "claude.ai Evil" \
  --err "no claude.ai connectors: $CREDS is refused: it is owned by uid $OTHER_UID, not by you"
check "their token was never sent (the fake got no request)" test ! -s "$TMP/fake.log"

# The user's own file, readable by others: refused, not used.
MINE="$TMP/mine.json"
printf '{"claudeAiOauth": {"accessToken": "%s", "expiresAt": 4102444800000, "scopes": ["user:mcp_servers"]}}\n' \
  "$TOKEN" >"$MINE"
chmod 644 "$MINE"
MCPHOST_CLAUDE_CREDENTIALS="$MINE" run --config "$D" -v servers
expect "the user's own credentials file readable by others is refused and named" 0 \
  --no-out "claude.ai Evil" \
  --err "no claude.ai connectors: $MINE is refused: others may read it (mode 0644); it must be 0600"
check "... and its token was not sent either" test ! -s "$TMP/fake.log"
chmod 600 "$MINE"
MCPHOST_CLAUDE_CREDENTIALS="$MINE" run --config "$D" servers
expect "(the same file at 0600 is used: the fake lists its connector)" 0 --out "claude.ai Evil"
finish
