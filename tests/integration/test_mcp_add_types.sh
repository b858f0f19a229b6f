#!/bin/bash
# mcp add -t takes the transport types of the plugin registry, not a
# fixed list: ws-ide (the ide plugin's), a --plugin-dir plugin's own
# type; a type no loaded plugin serves is refused, naming those it has.
. "$(dirname "$0")/../lib/lib.sh"
P="$TMP/proj"
mkdir -p "$P"
cd "$P" || exit 1
SETTINGS="$XDG_CONFIG_HOME/mcphost/settings.json"

run mcp add ide -t ws-ide ws://127.0.0.1:9/ide
expect "ws-ide: the ide plugin's type is taken" 0 \
  --out "Added ws-ide MCP server ide with URL ws://127.0.0.1:9/ide"
check "written as a ws-ide entry with its URL" \
  jq -e '.projects[].mcpServers.ide == {"type": "ws-ide", "url": "ws://127.0.0.1:9/ide"}' "$SETTINGS" >/dev/null

run --plugin-dir "$FIXTURES/a" mcp add fx -t fixture fixture://one
expect "a --plugin-dir plugin's own type is taken" 0 \
  --out "Added fixture MCP server fx with URL fixture://one"
run --plugin-dir "$FIXTURES/a" call mcp__fx__whoami
expect "and the server added so is used through that plugin" 0 \
  --out "served by test.alpha"

run mcp add fy -t fixture fixture://two
expect "without the plugin its type is refused, naming the types there are" 2 \
  --err 'no loaded plugin serves transport type "fixture"' \
  --err "ws-ide" --err "--plugin-dir"
run mcp add fz -t nonsense http://127.0.0.1:9/mcp
expect "an unknown type is refused (exit 2)" 2 \
  --err 'transport type "nonsense" (--transport takes'
check "the refused adds wrote nothing" \
  jq -e '[.projects[].mcpServers | keys[]] | sort == ["fx", "ide"]' "$SETTINGS" >/dev/null
run mcp add st -t stdio -- /bin/true
expect "stdio is still a command" 0 --out "Added stdio MCP server st with command: /bin/true"
finish
