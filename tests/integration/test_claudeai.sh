#!/usr/bin/env bash
# The claude.ai connectors (plugins/claudeai, issue 15), against a loopback
# fake of Anthropic's listing API and MCP proxy
# (tests/servers/claudeai_fake.mjs): opt-in; listed with the headers
# Claude Code sends and callable through the proxy; named "claude.ai
# <display_name>" with " (2)" on a normalized-name collision; a manual
# server with the same upstream URL wins; no connectors (one line with
# -v, the other servers unaffected) without the scope, with an expired
# token, a broken credentials file, one open to others or another
# user's, the API down or slow; the 401 rule
# (retry once, only when the token on disk changed); the token in no
# output or log.
. "$(dirname "$0")/../lib/lib.sh"
command -v node >/dev/null || skip_test "node is not installed"
unset ENABLE_CLAUDEAI_MCP_SERVERS MCPHOST_CLAUDEAI_API_BASE \
  MCPHOST_CLAUDEAI_PROXY_URL
SETTINGS="$XDG_CONFIG_HOME/mcphost/settings.json"
mkdir -p "$(dirname "$SETTINGS")" "$MCPHOST_SYSTEM_CONFIG_DIR"
TOKEN="sk-ant-oat01-claudeai-test-$RANDOM$RANDOM$RANDOM"
CREDS="$TMP/credentials.json"
export MCPHOST_CLAUDE_CREDENTIALS="$CREDS"
FUTURE=4102444800000 # 2100-01-01
# creds FILE SCOPES EXPIRES: Claude Code's credentials file with $TOKEN
creds() {
  printf '{"claudeAiOauth": {"accessToken": "%s", "refreshToken": "%s-refresh", "expiresAt": %s, "scopes": %s}}\n' \
    "$TOKEN" "$TOKEN" "$3" "$2" >"$1"
  chmod 600 "$1" # as Claude Code writes it
}
GOOD_SCOPES='["user:inference", "user:profile", "user:mcp_servers"]'
creds "$CREDS" "$GOOD_SCOPES" "$FUTURE"
CONN="$TMP/connectors.json"
cat >"$CONN" <<'JSON'
[{"type": "mcp_server", "id": "srv_slack", "display_name": "Slack",
  "url": "https://mcp.slack.example/mcp", "created_at": "2026-11-01T00:00:00Z"},
 {"type": "mcp_server", "id": "srv/odd id", "display_name": "Foo Bar",
  "url": "https://foo.example/a", "created_at": "2026-11-01T00:00:00Z"},
 {"type": "mcp_server", "id": "srv_foo2", "display_name": "Foo.Bar",
  "url": "https://foo.example/b", "created_at": "2026-11-01T00:00:00Z"},
 {"type": "mcp_server", "id": "srv_beta", "display_name": "Foo (beta)",
  "url": "https://foo.example/c", "created_at": "2026-11-01T00:00:00Z"}]
JSON
# fake MODE [CREDS]: a fake of both endpoints; sets FAKE (its URL) and
# FAKELOG (a line per request it got), and points mcphost at it.
fake() {
  FAKELOG="$TMP/fake-$1-$RANDOM.log"
  : >"$FAKELOG"
  start_node "$SRCDIR/tests/servers/claudeai_fake.mjs" --mode "$1" \
    --token "$TOKEN" --creds "${2:-$CREDS}" --connectors "$CONN" \
    --log "$FAKELOG" || exit 1
  FAKE="http://127.0.0.1:$NODE_PORT"
  export MCPHOST_CLAUDEAI_API_BASE="$FAKE" MCPHOST_CLAUDEAI_PROXY_URL="$FAKE"
}
# ALL collects every output of mcphost, for the token check at the end.
ALL="$TMP/all-output"
: >"$ALL"
keep() { printf '%s\n%s\n' "$OUT" "$ERR" >>"$ALL"; }
listings() { grep -c '"kind":"list"' "$FAKELOG"; }
D="$TMP/demo.json"
config_file "$D" "{\"demo\": {\"command\": \"$DEMO\"}}"

# ---- opt-in ----

fake ok
run --config "$D" -v servers
keep
expect "disabled by default: only the configured servers" 0 \
  --out "demo" --no-out "claude.ai"
check "disabled by default: the listing API is never asked" \
  test "$(listings)" = 0

export ENABLE_CLAUDEAI_MCP_SERVERS=1
run --json servers
keep
expect "ENABLE_CLAUDEAI_MCP_SERVERS=1: one server per connector, scope claudeai, with its upstream URL" 0 \
  --jq '[.[] | select(.scope == "claudeai") | [.name, .url, .state]] == [["claude.ai Slack", "https://mcp.slack.example/mcp", "connected"], ["claude.ai Foo Bar", "https://foo.example/a", "connected"], ["claude.ai Foo.Bar (2)", "https://foo.example/b", "connected"], ["claude.ai Foo (beta)", "https://foo.example/c", "connected"]]'
check "the listing carried the token and the headers Claude Code sends (the fake checks them)" \
  grep -q '"kind":"list","status":200,"token":"initial"' "$FAKELOG"
check "the listing was made once" test "$(listings)" = 1
check "every proxied request had the run's X-Mcp-Client-Session-Id and the token" \
  sh -c "! grep '\"kind\":\"rpc\"' '$FAKELOG' | grep -v '\"status\":200'"

run servers
keep
expect "servers shows each connector with its upstream URL" 0 \
  --out "claude.ai Slack" --out "    upstream: https://mcp.slack.example/mcp" \
  --out "    upstream: https://foo.example/b"

run tools
keep
expect "tools are mcp__claude_ai_<Name>__<tool>; a normalized-name collision got \" (2)\"" 0 \
  --out "mcp__claude_ai_Slack__whoami" --out "mcp__claude_ai_Foo_Bar__whoami" \
  --out "mcp__claude_ai_Foo_Bar_2__whoami"
expect "as Claude Code names connectors: repeated _ collapsed, none at either end" 0 \
  --out "mcp__claude_ai_Foo_beta__whoami" --no-out "mcp__claude_ai_Foo__beta___"
run --json call mcp__claude_ai_Foo_beta__whoami
keep
expect "the connector is called by that name" 0 \
  --jq '.content[0].text | fromjson | .connector == "srv_beta"'

run --json call mcp__claude_ai_Foo_Bar__whoami
keep
expect "a connector is callable through the proxy, its id percent-encoded as one path segment" 0 \
  --jq '.content[0].text | fromjson | .connector == "srv/odd id" and (.session | test("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"))'
S1=$(printf '%s' "$OUT" | jq -r '.content[0].text | fromjson | .session')
run --json call mcp__claude_ai_Slack__whoami
S2=$(printf '%s' "$OUT" | jq -r '.content[0].text | fromjson | .session')
check "X-Mcp-Client-Session-Id is new for each mcphost run" \
  test -n "$S1" -a -n "$S2" -a "$S1" != "$S2"

fake expire-once
run --json call mcp__claude_ai_Slack__whoami
keep
expect "an expired proxy session is initialized again and the call resent, as for http" 0 \
  --jq '.content[0].text | fromjson | .connector == "srv_slack"'
check "(initialize was sent twice)" test "$(grep -c '"method":"initialize"' "$FAKELOG")" = 2

export ENABLE_CLAUDEAI_MCP_SERVERS=0
printf '{"claudeAiConnectors": true}\n' >"$SETTINGS"
run --config "$D" servers
expect "ENABLE_CLAUDEAI_MCP_SERVERS=0 wins over the setting" 0 --no-out "claude.ai"
unset ENABLE_CLAUDEAI_MCP_SERVERS
run servers
expect "the settings key \"claudeAiConnectors\": true enables them" 0 \
  --out "claude.ai Slack"

# ---- names and duplicates ----

M="$TMP/manual.json"
config_file "$M" "{\"slack-by-hand\": {\"type\": \"http\", \"url\": \"https://mcp.slack.example/mcp\"}}"
run --config "$M" mcp get "claude.ai Slack"
keep
expect "a manual server with a connector's upstream URL wins; the connector is skipped, naming it" 0 \
  --err "MCP server \"claude.ai Slack\" skipped — same command/URL as already-configured \"slack-by-hand\"" \
  --out "Scope: claudeai" --out "Status: skipped: same URL as already-configured \"slack-by-hand\"" \
  --out "URL: https://mcp.slack.example/mcp"
run --config "$M" mcp get "claude.ai Foo Bar"
expect "the other connectors stay" 0 --out "Status: connected"
config_file "$M" "{\"claude.ai Mine\": {\"command\": \"$DEMO\"}}"
run --config "$M" mcp list
keep
expect "a server configured by hand may not take a claude.ai connector's name" 0 \
  --err "server \"claude.ai Mine\": refused: names starting with \"claude.ai \" are reserved for claude.ai connectors" \
  --no-out "claude.ai Mine"

# ---- the enterprise turns them off ----

printf '{"managedMcpServersExclusive": false}\n' >"$MCPHOST_SYSTEM_CONFIG_DIR/managed-settings.json"
config_file "$MCPHOST_SYSTEM_CONFIG_DIR/managed-mcp.json" "{\"corp\": {\"command\": \"$DEMO\"}}"
N=$(listings)
run -v servers
keep
expect "an enterprise managed-mcp.json turns the connectors off, saying so with -v" 0 \
  --out "corp" --no-out "claude.ai" \
  --err "claude.ai connectors are off: the enterprise configuration $MCPHOST_SYSTEM_CONFIG_DIR/managed-mcp.json is in force"
check "with managed-mcp.json the listing API is not asked" test "$(listings)" = "$N"
rm -f "$MCPHOST_SYSTEM_CONFIG_DIR"/managed-*.json

# ---- no connectors: one line with -v, the other servers unaffected ----

export ENABLE_CLAUDEAI_MCP_SERVERS=1
# no_connectors NAME MESSAGE: with this state, no connector, MESSAGE once
# with -v (nothing without), and the demo server works.
no_connectors() {
  run --config "$D" -v servers
  keep
  expect "$1: no connectors, the reason once with -v" 0 --out "demo" \
    --no-out "claude.ai" --err "[mcphost.claudeai] no claude.ai connectors: $2"
  check "$1: one line" test "$(grep -c 'no claude.ai connectors' "$TMP/err")" = 1
  run --config "$D" call mcp__demo__echo message=unaffected
  keep
  expect "$1: another server is unaffected and nothing is said without -v" 0 \
    --out "Echo: unaffected" --no-err "claude.ai"
}

creds "$CREDS" '["user:inference"]' "$FUTURE"
no_connectors "a token without user:mcp_servers" \
  "the claude.ai token in $CREDS lacks the scope user:mcp_servers"
creds "$CREDS" "$GOOD_SCOPES" 1000
no_connectors "an expired token" \
  "the claude.ai token in $CREDS expired at 1970-01-01T00:00:01Z; run \`claude\` to refresh your claude.ai login"
printf '{"claudeAiOauth": {"accessToken": "%s", ' "$TOKEN" >"$CREDS"
no_connectors "a broken credentials file" "$CREDS is not valid JSON"
printf '{"claudeAiOauth": {"scopes": []}}\n' >"$CREDS"
no_connectors "a credentials file without a token" \
  "$CREDS: \"claudeAiOauth.accessToken\" is missing or not a token"
rm -f "$CREDS"
no_connectors "no credentials file" "cannot read $CREDS: No such file or directory"
# The file is a secret of the user's: open to others, or another's, it
# is refused, named with what is wrong.
creds "$CREDS" "$GOOD_SCOPES" "$FUTURE"
chmod 644 "$CREDS"
no_connectors "a credentials file others may read" \
  "$CREDS is refused: others may read it (mode 0644); it must be 0600"
chmod 620 "$CREDS"
no_connectors "a credentials file others may write" \
  "$CREDS is refused: others may write it (mode 0620); it must be 0600"
chmod 600 "$CREDS"
if [ "$(id -u)" = 0 ]; then
  chown 65534 "$CREDS"
  no_connectors "a credentials file of another user" \
    "$CREDS is refused: it is owned by uid 65534, not by you"
else
  echo "skipped: a credentials file of another user (needs root to chown)"
fi
rm -f "$CREDS" # made anew: the user's again
creds "$CREDS" "$GOOD_SCOPES" "$FUTURE"
N=$(listings)
MCPHOST_CLAUDE_CREDENTIALS="$TMP/elsewhere.json" CLAUDE_CONFIG_DIR="$TMP/cc" \
  run --config "$D" -v servers
expect "MCPHOST_CLAUDE_CREDENTIALS names the file read" 0 \
  --err "cannot read $TMP/elsewhere.json"
mkdir -p "$TMP/cc" "$HOME/.claude"
creds "$TMP/cc/.credentials.json" "$GOOD_SCOPES" "$FUTURE"
env -u MCPHOST_CLAUDE_CREDENTIALS CLAUDE_CONFIG_DIR="$TMP/cc" \
  "$MCPHOST" servers >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "without it, \$CLAUDE_CONFIG_DIR/.credentials.json" 0 --out "claude.ai Slack"
creds "$HOME/.claude/.credentials.json" "$GOOD_SCOPES" "$FUTURE"
env -u MCPHOST_CLAUDE_CREDENTIALS "$MCPHOST" servers >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "else ~/.claude/.credentials.json" 0 --out "claude.ai Slack"

MCPHOST_CLAUDEAI_API_BASE="http://127.0.0.1:1" no_connectors "the API down" \
  "GET http://127.0.0.1:1/v1/mcp_servers failed: "
export MCPHOST_CLAUDEAI_API_BASE="$FAKE"
fake slow-list
no_connectors "the API slow (past the 5 s timeout)" \
  "GET $FAKE/v1/mcp_servers failed: Timeout was reached"

# ---- the 401 rule ----

R="$TMP/rotating.json"
sha() { sha256sum "$1" | cut -d' ' -f1; }
# attempts ID: how many times the fake got request ID on srv_slack
attempts() {
  jq -s --argjson id "$1" '[.[] | select(.kind == "rpc" and .connector == "srv_slack" and .id == $id)] | length' "$FAKELOG"
}

creds "$R" "$GOOD_SCOPES" "$FUTURE"
fake rotate "$R"
MCPHOST_CLAUDE_CREDENTIALS="$R" run -vvv servers "claude.ai Slack"
keep
expect "a token rotated on disk by another process: the 401s are retried with it" 0 \
  --out "claude.ai Slack" --out "connected"
check "three concurrent requests refused: each sent twice, the second time with the new token" \
  test "$(jq -s '[.[] | select(.kind == "rpc" and (.method | test("/list$")))] | group_by(.id) | map(map(.token + ":" + (.status | tostring))) | unique' "$FAKELOG" | jq -c .)" = '[["initial:401","rotated-1:200"]]'

creds "$R" "$GOOD_SCOPES" "$FUTURE"
fake rotate-always "$R"
MCPHOST_CLAUDE_CREDENTIALS="$R" run servers "claude.ai Slack"
keep
expect "a token refused again after the retry: needs-auth, exit 7, no loop" 7 \
  --out "needs-auth" --out "run \`claude\` to refresh your claude.ai login"
check "each of the concurrent requests was sent twice, never more" \
  test "$(attempts 2)$(attempts 3)$(attempts 4)" = 222

creds "$R" "$GOOD_SCOPES" "$FUTURE"
BEFORE=$(sha "$R")
fake revoked "$R"
MCPHOST_CLAUDE_CREDENTIALS="$R" run -vv call mcp__claude_ai_Slack__whoami
keep
expect "a stale token, unchanged on disk: no retry, needs-auth (exit 7) with what to do" 7 \
  --err "run \`claude\` to refresh your claude.ai login"
check "the refused request was sent once" test "$(attempts 2)" = 1
check "mcphost never rewrote Claude Code's credentials file" test "$(sha "$R")" = "$BEFORE"
check "nor asked anything of the fake but the listing and the proxy" \
  sh -c "! grep -v '\"kind\":\"\\(list\\|rpc\\)\"' '$FAKELOG'"

creds "$R" "$GOOD_SCOPES" "$FUTURE"
fake revoked-init "$R"
MCPHOST_CLAUDE_CREDENTIALS="$R" run call mcp__claude_ai_Slack__whoami
keep
expect "a stale token at connect time: needs-auth (exit 7) with what to do" 7 \
  --err "run \`claude\` to refresh your claude.ai login"
check "initialize was sent once" test "$(attempts 1)" = 1

# ---- the token ----

cat "$XDG_STATE_HOME"/mcphost/logs/* >>"$ALL" 2>/dev/null
check "the token (nor a rotated one) is in no output and no log" \
  sh -c "! grep -q -- '$TOKEN' '$ALL'"
check "(the outputs checked are there)" grep -q "claude.ai Slack" "$ALL"

finish
