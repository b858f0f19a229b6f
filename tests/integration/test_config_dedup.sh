#!/usr/bin/env bash
# Which duplicates are skipped, and how a skipped server shows (issue 12's
# dedup rule, issue 10 points 9 and 10): as in Claude Code, only servers a
# plugin provides are deduplicated against the ones configured by hand;
# a skipped server stays visible in mcp list and mcp get with its state,
# mcp add and import warn; mcp add-json refuses what would not load.
. "$(dirname "$0")/../lib/lib.sh"
SETTINGS="$XDG_CONFIG_HOME/mcphost/settings.json"
P="$HOME/proj"
mkdir -p "$P" "$(dirname "$SETTINGS")"
printf '{"mcpServers": {"u": {"command": "%s"}}}\n' "$DEMO" >"$SETTINGS"

# ---- servers configured by hand are never dropped ----

prun --mcp-config "{\"mcpServers\": {\"d\": {\"command\": \"$DEMO\", \"env\": {\"X\": \"1\"}}}}" \
  call mcp__d__echo message=dyn
expect "a --mcp-config server with a user server's command is used" 0 \
  --out "Echo: dyn" --no-err "skipped"
prun --server "s=$DEMO" call mcp__s__echo message=srv
expect "a --server with a user server's command is used" 0 --out "Echo: srv" --no-err "skipped"
prun --json --mcp-config "{\"mcpServers\": {\"d\": {\"command\": \"$DEMO\"}}}" mcp list
expect "both are listed and active" 0 \
  --jq 'map(select(.name == "u" or .name == "d") | .state) == ["active", "active"]'

# ---- a plugin's server with a configured command is skipped ----

export FIXTURE_SOURCE_DUP_CMD="$DEMO"
prun --plugin-dir "$FIXTURES/source" mcp list
expect "a plugin's duplicate is skipped with a message naming the winner" 0 \
  --err "MCP server \"plugin:test.source:dup\" skipped — same command/URL as already-configured \"u\""
check "mcp list shows it with its state" \
  sh -c "grep -q '^plugin:test.source:dup .*skipped: same command as already-configured \"u\"' '$TMP/out'"
prun --plugin-dir "$FIXTURES/source" mcp get plugin:test.source:dup
expect "mcp get shows it too" 0 --out "Status: skipped: same command as already-configured \"u\""
prun --plugin-dir "$FIXTURES/source" call mcp__plugin_test_source_dup__echo message=x
expect "calling a skipped server says why" 8 --err "is skipped: same command as already-configured \"u\""
prun --plugin-dir "$FIXTURES/source" --json mcp list
expect "--json gives its state and reason" 0 \
  --jq 'map(select(.name == "plugin:test.source:dup"))[0] | .state == "skipped" and (.reason | contains("\"u\""))'

printf '{}\n' >"$SETTINGS"
prun --plugin-dir "$FIXTURES/source" mcp add -s user mine -- "$DEMO"
expect "mcp add warns when its server makes another skipped" 0 \
  --err "warning: MCP server \"plugin:test.source:dup\" (plugin scope) is skipped: same command as already-configured \"mine\""
printf '{}\n' >"$SETTINGS"
printf '{"mcpServers": {"imported": {"command": "%s"}}}\n' "$DEMO" >"$TMP/desktop.json"
prun --plugin-dir "$FIXTURES/source" mcp import claude-desktop --from "$TMP/desktop.json" -s user
expect "mcp import warns the same way" 0 \
  --out "imported: imported" --err "is skipped: same command as already-configured \"imported\""
unset FIXTURE_SOURCE_DUP_CMD

# ---- mcp add-json refuses what the loader or the transport would ----

printf '{}\n' >"$SETTINGS"
cp "$SETTINGS" "$TMP/settings.orig"
prun mcp add-json bad '{"url": 5}'
expect "add-json refuses an entry its transport rejects" 2 \
  --err "\"url\" must be" --err "nothing written"
prun mcp add-json bad '{"type": "http"}'
expect "add-json refuses a remote entry without a URL" 2 --err "\"url\""
prun mcp add-json bad '{"command": "x", "args": "not-an-array"}'
expect "add-json refuses bad args" 2 --err "args"
prun mcp add-json bad '{"type": "nosuch", "command": "x"}'
expect "add-json refuses a type no plugin serves" 2 --err "no loaded plugin serves transport type \"nosuch\""
check "nothing was written" cmp -s "$SETTINGS" "$TMP/settings.orig"
prun servers
expect "and every command still works" 6 --no-err "bad"
prun mcp add-json good "{\"command\": \"$DEMO\"}"
expect "a good entry is added" 0 --out "Added stdio MCP server good"

# ---- JSON errors name the line and the column ----

printf '{"mcpServers": {\n  "a": {"command": "x",}\n}}\n' >"$P/.mcp.json"
prun mcp list
expect "a JSON error names file, line and column" 0 \
  --err "$P/.mcp.json: invalid JSON near line 2, column 2"
finish
