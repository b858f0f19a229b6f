#!/bin/bash
# ws-ide: the IDE integration over WebSocket, against the fake IDE
# (tests/servers/fake_ide.mjs --transport ws, Node's ws from
# tests/interop): the token on the upgrade, subprotocol mcp, the two
# model-visible tools, ide_connected and `ide watch`, a wrong token, an IDE
# without a token. ws-ide is composed over the "ws" transport; where no
# plugin serves "ws" the test says so clearly and is skipped.
. "$(dirname "$0")/../lib/lib.sh"
FAKE="$SRCDIR/tests/servers/fake_ide.mjs"
command -v node >/dev/null || skip_test "node is not installed"
[ -d "$INTEROP/node_modules/ws" ] || skip_test "the ws package is not installed in tests/interop"
export INTEROP

WS="$TMP/project"
mkdir -p "$WS"
cd "$WS" || exit 1
export CLAUDE_CONFIG_DIR="$TMP/claude"
LOCKS="$CLAUDE_CONFIG_DIR/ide"
TOKEN=0123456789abcdef0123456789abcdef

start_node "$FAKE" --dir "$LOCKS" --transport ws --workspace "$WS" \
  --token "$TOKEN" --log "$TMP/ide.log" --name Neovim || exit 1
PORT=$NODE_PORT
IDE_PID=$(jobs -p | tail -1)

run ide list --json
expect "ide list: the ws IDE" 0 \
  --jq ".[0].port == $PORT and .[0].transport == \"ws\" and .[0].ideName == \"Neovim\""

run plugins
if ! grep -Eq 'transports: ([^ ]*,)?ws(,|$)' "$TMP/out"; then
  run --ide tools ide
  expect "without a ws transport, ws-ide fails saying what is missing" 3 \
    --err "type ws-ide needs the \"ws\" transport, which no plugin here serves"
  skip_test "no plugin serves the ws transport type"
fi

run --ide tools ide
expect "--ide tools ide over ws-ide: the two model-visible tools" 0 \
  --out "mcp__ide__getDiagnostics" --out "mcp__ide__executeCode" \
  --no-out "mcp__ide__openFile"
run --ide tools --all ide
expect "tools --all ide over ws-ide: every tool" 0 --out "mcp__ide__openFile"
run --ide call ide/openFile filePath=/ws.c
expect "call ide/openFile over ws-ide" 0 --out "opened /ws.c"
if jq -e -s --arg t "$TOKEN" '[.[] | select(.event == "request")] | length > 0 and all(.headers["x-claude-code-ide-authorization"] == $t and (.headers["sec-websocket-protocol"] | split(", ") | index("mcp")))' \
  "$TMP/ide.log" >/dev/null; then
  ok "every upgrade carried the token and asked for subprotocol mcp"
else
  bad "every upgrade carried the token and asked for subprotocol mcp"
fi
jq -e -s '[.[] | select(.event == "ide_connected")] | length > 0' "$TMP/ide.log" >/dev/null &&
  ok "ide_connected sent over ws" || bad "ide_connected sent over ws"
http_proxy=http://127.0.0.1:9 all_proxy=http://127.0.0.1:9 no_proxy= NO_PROXY= \
  run --ide call ide/openFile filePath=/direct
expect "a proxy of the environment is not used for ws-ide" 0 --out "opened /direct"
run --ide ide watch --count 3
expect "ide watch over ws-ide" 0 --out "selection_changed" --out "at_mentioned" \
  --out "diagnostics_changed"

cp "$LOCKS/$PORT.lock" "$TMP/good.lock"
jq -c '.authToken = "wrong-token-99999999"' "$TMP/good.lock" >"$LOCKS/$PORT.lock"
chmod 600 "$LOCKS/$PORT.lock"
run --ide tools ide
expect "a wrong token over ws-ide: refused, nothing listed" 3 --no-out "mcp__ide__"
kill "$IDE_PID" 2>/dev/null
rm -f "$LOCKS/$PORT.lock"

start_node "$FAKE" --dir "$LOCKS" --transport ws --workspace "$WS" \
  --token none --log "$TMP/ide2.log" --name Emacs || exit 1
run --ide call ide/openFile filePath=/emacs
expect "a ws IDE without a token connects" 0 --out "opened /emacs"
jq -e -s '[.[] | select(.event == "request")] | length > 0 and all(.headers | has("x-claude-code-ide-authorization") | not)' \
  "$TMP/ide2.log" >/dev/null && ok "no token header without a token" ||
  bad "no token header without a token"

finish
