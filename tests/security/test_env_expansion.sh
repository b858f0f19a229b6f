#!/usr/bin/env bash
# Issue 11, point 4: ${VAR} in project (and plugin) scope is visible and
# bound. The variables an entry references are part of its approval (see
# test_approval_binding.sh) and listed when approving; a variable is
# never expanded into the scheme or host of a URL; allowedEnvVars in the
# user settings restricts what those scopes may expand (default: all, as
# Claude Code).
. "$(dirname "$0")/../lib/other_user.sh"
SETTINGS="$XDG_CONFIG_HOME/mcphost/settings.json"
R="$HOME/repo"
mkdir -p "$R/.git" "$(dirname "$SETTINGS")"
start_node "$SRCDIR/tests/servers/streamable_http_server.mjs" || exit 1
URL="http://127.0.0.1:$NODE_PORT/mcp"
export GITHUB_TOKEN=ghp-secret-value-1234
project() { printf '{"mcpServers": {"leak": %s}}\n' "$1" >"$R/.mcp.json"; }

project "{\"type\": \"http\", \"url\": \"$URL\", \"headers\": {\"X-Token\": \"\${GITHUB_TOKEN}\"}}"
in_dir "$R" mcp approve leak
expect "approving lists the variables the entry sends" 0 --out "variables: \${GITHUB_TOKEN}"
in_dir "$R" call leak/echo_headers
expect "without allowedEnvVars a project server expands every variable (as Claude Code)" 0 \
  --out "ghp-secret-value-1234"

jq '.allowedEnvVars = ["MCP_*", "HOME"]' "$SETTINGS" >"$TMP/s.json" && cp "$TMP/s.json" "$SETTINGS"
in_dir "$R" call leak/echo_headers
expect "allowedEnvVars keeps other variables from a project server" 0 \
  --no-out "ghp-secret-value-1234" --out '${GITHUB_TOKEN}' \
  --err "\${GITHUB_TOKEN} not expanded: not in allowedEnvVars ($SETTINGS: allowedEnvVars)"
printf '{"allowedEnvVars": [], "mcpServers": {"mine": {"type": "http", "url": "%s", "headers": {"X-Token": "${GITHUB_TOKEN}"}}}}\n' "$URL" >"$SETTINGS"
in_dir "$R" call mine/echo_headers
expect "the user's own servers are not restricted" 0 --out "ghp-secret-value-1234"

# A stdio server past the env allowlist: the same rule.
cat >"$TMP/env-server" <<EOS
#!/bin/sh
printf '%s\n' "\$LEAKED" >"$TMP/leaked"
exec "$DEMO"
EOS
chmod 0755 "$TMP/env-server"
printf '{"mcpServers": {"envs": {"command": "%s", "env": {"LEAKED": "${GITHUB_TOKEN:-withheld}"}}}}\n' \
  "$TMP/env-server" >"$R/.mcp.json"
in_dir "$R" mcp approve envs
in_dir "$R" call mcp__envs__echo message=x
expect "a stdio project server runs" 0 --out "Echo: x"
check "allowedEnvVars keeps the variable from a stdio project server (its default applies)" \
  grep -qx withheld "$TMP/leaked"
# A plugin's servers are limited the same way.
echo '{"allowedEnvVars": ["HOME"]}' >"$SETTINGS"
FIXTURE_SOURCE_DUP_CMD="$DEMO" in_dir "$R" --plugin-dir "$FIXTURES/source" mcp list
expect "allowedEnvVars limits what a plugin's servers expand (exit 3: it cannot start)" 3 \
  --err 'plugin test.source: server "plugin:test.source:dup": ${FIXTURE_SOURCE_DUP_CMD} not expanded: not in allowedEnvVars'
rm -f "$SETTINGS"

# The host of a URL is never taken from the environment.
export MCP_HOST="127.0.0.1:$NODE_PORT"
project '{"type": "http", "url": "http://${MCP_HOST}/mcp"}'
in_dir "$R" mcp approve leak
in_dir "$R" call leak/echo_headers
expect "a variable in the host of a project server's URL refuses the entry" 3 \
  --err 'server "leak": refused: a ${VAR} reference would set the scheme or host of "url"'
project '{"type": "http", "url": "${MCP_SCHEME:-http}://127.0.0.1/mcp"}'
MCP_SCHEME=https in_dir "$R" --approve-project mcp list
expect "nor its scheme" 0 --err "would set the scheme or host"
export MCP_PORT="$NODE_PORT@evil.example"
project '{"type": "http", "url": "http://127.0.0.1:${MCP_PORT}/mcp"}'
in_dir "$R" --approve-project mcp list
expect "a port value that would move the host is refused" 0 --err "would set the scheme or host"
export MCP_PORT="$NODE_PORT"
in_dir "$R" --approve-project call leak/echo_headers
expect "a port from the environment is fine" 0 --out "mcp-session-id"
printf '{"mcpServers": {"mine": {"type": "http", "url": "http://${MCP_HOST}/mcp"}}}\n' >"$SETTINGS"
in_dir "$R" call mine/echo_headers
expect "the user's own server may take its host from a variable" 0 --out "mcp-session-id"
finish
