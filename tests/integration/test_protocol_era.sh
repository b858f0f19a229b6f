#!/bin/bash
# MCP 2026-07-28 beside the initialize era (docs/protocol.md): a TS SDK v2
# server (tests/servers/ts_v2_server.mjs) over stdio in modern-only and
# dual mode is spoken to in the modern era (server/discover, the _meta
# envelope on every request, no initialize); legacy-only servers are
# unchanged; a server that exits on the probe is started once more and
# its verdict cached; the cache holds only for the entry it was found for.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the strict server"

V2="$SRCDIR/tests/servers/ts_v2_server.mjs"
STRICT="$SRCDIR/tests/servers/strict_init_server.py"
LOG="$TMP/v2.log"
C="$TMP/v2.json"
config_file "$C" "{
  \"modern\": {\"command\": \"node\", \"args\": [\"$V2\", \"stdio\", \"modern\"],
    \"env\": {\"TS_V2_LOG\": \"$LOG\"}},
  \"dual\": {\"command\": \"node\", \"args\": [\"$V2\", \"stdio\", \"dual\"],
    \"env\": {\"TS_V2_LOG\": \"$LOG\"}},
  \"dual-legacy\": {\"command\": \"node\", \"args\": [\"$V2\", \"stdio\", \"dual\"],
    \"protocol\": \"legacy\"},
  \"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]},
  \"every-modern\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"],
    \"protocol\": \"modern\"},
  \"demo\": {\"command\": \"$DEMO\"}}"

# first METHOD: the method of the first message the server got in LOG.
first() { head -1 "$LOG" | jq -r .method; }

: >"$LOG"
run --config "$C" --json servers modern
expect "a modern-only TS v2 server is connected in the 2026-07-28 era" 0 \
  --jq '.[0].state == "connected" and .[0].era == "modern"' \
  --jq '.[0].protocolVersion == "2026-07-28"' \
  --jq '.[0].serverInfo.name == "ts-v2-test" and .[0].serverInfo.version == "2.4.0-test"' \
  --jq '.[0].instructions == "Test server for the 2026-07-28 era."' \
  --jq '.[0].tools == 8 and .[0].resources == 1 and .[0].prompts == 1'
if [ "$(first)" = server/discover ] && ! grep -q '"initialize"' "$LOG"; then
  ok "the probe is the first message, and no initialize is sent"
else
  bad "the probe is the first message, and no initialize is sent" "$(cat "$LOG")"
fi
if jq -e 'select(.method != "response") | .params._meta
    | .["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
      and (.["io.modelcontextprotocol/clientCapabilities"] | type) == "object"
      and .["io.modelcontextprotocol/clientInfo"].name == "mcphost"' \
    "$LOG" >/dev/null && ! jq -e 'select(.params._meta == null)' "$LOG" \
    >/dev/null; then
  ok "every request carries the _meta envelope"
else
  bad "every request carries the _meta envelope" "$(cat "$LOG")"
fi

run --config "$C" call mcp__modern__echo text=hi
expect "a tool call in the modern era" 0 --out "echo(modern): hi"
run --config "$C" read modern config://app
expect "a resource read in the modern era" 0 --out '{"theme":"dark"}'
run --config "$C" --json prompt mcp__modern__greet who=you
expect "a prompt in the modern era" 0 --out "hello you"

: >"$LOG"
run --config "$C" --log-level debug call mcp__modern__echo text=x
if jq -e 'select(.method == "tools/call") | .params._meta
    | .["io.modelcontextprotocol/logLevel"] == "debug"' "$LOG" >/dev/null &&
  ! grep -q logging/setLevel "$LOG"; then
  ok "--log-level goes in _meta, not logging/setLevel"
else
  bad "--log-level goes in _meta, not logging/setLevel" "$(cat "$LOG")"
fi

run --config "$C" ping modern
expect "ping in the modern era (server/discover: there is no ping)" 0 \
  --out "modern: "

# input_required: the elicitation plugin answers (a hook here), and the
# call goes again with inputResponses, the requestState and a new id.
HOOK="$TMP/accept.sh"
printf '#!/bin/sh\ncat >/dev/null\necho %s\n' \
  "'{\"action\":\"accept\",\"content\":{\"confirm\":true}}'" >"$HOOK"
chmod +x "$HOOK"
: >"$LOG"
run --config "$C" --elicitation="hook:$HOOK" call mcp__modern__confirm action=deploy
expect "an input_required call is answered through the elicitation plugin" 0 \
  --out "confirmed: deploy"
calls=$(jq -c 'select(.method == "tools/call")' "$LOG")
if [ "$(wc -l <<<"$calls")" = 2 ] &&
  jq -se '.[0].id != .[1].id and (.[0].params | has("inputResponses") | not)
    and .[1].params.inputResponses.confirm == {"action": "accept", "content": {"confirm": true}}
    and .[1].params.requestState == "eyJhY3Rpb24iOiJkZXBsb3kifQ"
    and .[1].params.arguments == {"action": "deploy"}
    and .[1].params._meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"' \
    <<<"$calls" >/dev/null; then
  ok "the retry: a new id, inputResponses, the requestState as sent"
else
  bad "the retry: a new id, inputResponses, the requestState as sent" "$calls"
fi
run --config "$C" --elicitation=decline call mcp__modern__confirm action=deploy
expect "a server that keeps asking is given up on after 10 rounds" 4 \
  --err 'server "modern" asked for input (tools/call): still input_required after 10 rounds'

# resources/subscribe in 2026-07-28: the resource joins the
# subscriptions/listen stream, whose notifications batch prints as ever.
: >"$LOG"
printf '%s\n' '{"id":1,"subscribe":"modern","uri":"config://app"}' \
  '{"id":2,"call":"mcp__modern__bump"}' >"$TMP/batch.in"
RC=0
"$MCPHOST" --config "$C" batch <"$TMP/batch.in" >"$TMP/out" 2>"$TMP/err" || RC=$?
OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
expect "batch subscribe to a modern server" 0 \
  --jq 'select(.id == 1) | .result == {}' \
  --out '"notification":"notifications/resources/updated"' \
  --out '"uri":"config://app"'
if jq -se '[.[] | select(.method == "subscriptions/listen")]
    | length > 0 and all(.params.notifications
      | .resourceSubscriptions == ["config://app"] and .toolsListChanged)' \
    "$LOG" >/dev/null &&
  ! grep -q '"resources/subscribe"' "$LOG"; then
  ok "the subscription goes in subscriptions/listen, not resources/subscribe"
else
  bad "the subscription goes in subscriptions/listen, not resources/subscribe" \
    "$(cut -c1-200 "$LOG")"
fi

# Cache hints: the server's tools/list says ttlMs 0 (taken as 1 s, so one
# command's lookups share it), so a call sent over a second after the
# first one's answer lists the tools again (a legacy server's list is
# kept for MCPHOST_LIST_CACHE_TTL, 20 s).
: >"$LOG"
coproc B { "$MCPHOST" --config "$C" batch 2>"$TMP/err"; }
echo '{"id":1,"call":"mcp__modern__echo","args":["text=a"]}' >&"${B[1]}"
read -r r1 <&"${B[0]}"
sleep 1.2
echo '{"id":2,"call":"mcp__modern__echo","args":["text=b"]}' >&"${B[1]}"
read -r r2 <&"${B[0]}"
exec {B[1]}>&-
wait "$B_PID"
RC=$? OUT="$r1 $r2" ERR=$(cat "$TMP/err")
expect "two calls in one batch" 0 --out "echo(modern): a" --out "echo(modern): b"
if [ "$(jq -c 'select(.method == "tools/list")' "$LOG" | wc -l)" = 2 ]; then
  ok "ttlMs 0: the tool list is not reused a second later"
else
  bad "ttlMs 0: the tool list is not reused a second later" "$(cut -c1-120 "$LOG")"
fi

run --config "$C" servers modern
if grep -Eq '^modern +stdio +connected +ts-v2-test 2.4.0-test +2026-07-28 modern ' \
  <<<"$OUT"; then
  ok "servers shows the era and version"
else
  bad "servers shows the era and version"
fi

run --config "$C" call mcp__dual__echo text=hi
expect "a dual-era server is spoken to as modern by default" 0 \
  --out "echo(modern): hi"
run --config "$C" call mcp__dual-legacy__echo text=hi
expect '"protocol": "legacy" sends initialize' 0 --out "echo(legacy): hi"
run --config "$C" --protocol legacy call mcp__dual__echo text=hi
expect "--protocol legacy over the entry's default" 0 --out "echo(legacy): hi"
run --config "$C" --protocol modern call mcp__dual-legacy__echo text=hi
expect "--protocol modern over the entry's key" 0 --out "echo(modern): hi"
run --config "$C" --protocol legacy call mcp__modern__echo text=hi
expect "a modern-only server refuses initialize, naming its versions" 4 \
  --err 'server "modern"' --err "Unsupported protocol version" --err "-32022"
run --config "$C" --protocol sometimes servers
expect "--protocol with another value is a usage error" 2 \
  --err '--protocol must be auto, modern or legacy; not "sometimes"'
run --config "$C" --log-level loud servers
expect "--log-level names the eight MCP levels" 2 \
  --err '--log-level must be one of debug, info, notice, warning, error, critical, alert, emergency; not "loud"'

# Legacy-only servers: the same as ever.
run --config "$C" --json servers every
expect "server-everything stays in the initialize era" 0 \
  --jq '.[0].state == "connected" and .[0].era == "legacy"' \
  --jq '.[0].protocolVersion == "2025-11-25"' \
  --jq '.[0].serverInfo.name == "mcp-servers/everything"'
run --config "$C" --json servers demo
expect "the demo server stays in the initialize era" 0 \
  --jq '.[0].state == "connected" and .[0].era == "legacy"'
run --config "$C" call mcp__every__echo message=hi
expect "server-everything's echo after the probe" 0 --out "Echo: hi"
run --config "$C" call mcp__every-modern__echo message=hi
expect '"protocol": "modern" against a legacy-only server fails naming it' 4 \
  --err 'server "every-modern"' \
  --err 'server does not speak protocol 2026-07-28 ("protocol": "modern")'

B="$TMP/bad.json"
config_file "$B" "{\"x\": {\"command\": \"node\", \"protocol\": \"2026\"}}"
run --config "$B" servers
expect "a bad \"protocol\" value names the file, the server and the field" 3 \
  --err "$B: server \"x\": \"protocol\" must be \"auto\", \"modern\" or \"legacy\" (at mcpServers.x.protocol)"

# A server that exits on anything before initialize (old rmcp servers).
SP="$TMP/spawns.log"
S="$TMP/strict.json"
strict_config() {
  config_file "$S" "{\"strict\": {\"command\": \"python3\", \"args\": [\"$STRICT\"],
    \"env\": {\"STRICT_SPAWN_LOG\": \"$SP\"$1}}}"
}
strict_config ""
: >"$SP"
run --config "$S" call mcp__strict__echo text=a
expect "a server that exits on the probe is started once more" 0 \
  --out "strict: a"
if [ "$(tr '\n' ' ' <"$SP")" = "start first server/discover start first initialize " ]; then
  ok "it was started twice: the probe, then initialize"
else
  bad "it was started twice: the probe, then initialize" "$(cat "$SP")"
fi
if [ "$(stat -c %a "$XDG_STATE_HOME/mcphost/protocol")" = 700 ] &&
  [ "$(stat -c %a "$XDG_STATE_HOME/mcphost/protocol/strict.json")" = 600 ] &&
  jq -e '.era == "legacy" and .version == "2025-11-25"
    and (.config | test("^fnv1a64:[0-9a-f]{16}$"))' \
    "$XDG_STATE_HOME/mcphost/protocol/strict.json" >/dev/null; then
  ok "the verdict is kept in the state directory (0700, 0600)"
else
  bad "the verdict is kept in the state directory (0700, 0600)" \
    "$(ls -la "$XDG_STATE_HOME/mcphost/protocol" 2>&1)"
fi
: >"$SP"
run --config "$S" call mcp__strict__echo text=b
expect "the cached verdict: a call" 0 --out "strict: b"
if [ "$(tr '\n' ' ' <"$SP")" = "start first initialize " ]; then
  ok "the cached verdict: one start, initialize first, no probe"
else
  bad "the cached verdict: one start, initialize first, no probe" "$(cat "$SP")"
fi
strict_config ", \"CHANGED\": \"1\""
: >"$SP"
run --config "$S" call mcp__strict__echo text=c
expect "a changed entry: a call" 0 --out "strict: c"
if [ "$(tr '\n' ' ' <"$SP")" = "start first server/discover start first initialize " ]; then
  ok "a changed entry invalidates the verdict: probed again"
else
  bad "a changed entry invalidates the verdict: probed again" "$(cat "$SP")"
fi
# A verdict written by an older mcphost, keyed by a SHA-256 of the entry:
# not this entry's key, so probed again once and rewritten.
V="$XDG_STATE_HOME/mcphost/protocol/strict.json"
printf '{"config":"%s","era":"legacy","version":"2025-11-25"}' \
  "$(printf %064d 0 | tr 0 a)" >"$V"
: >"$SP"
run --config "$S" call mcp__strict__echo text=d
expect "a verdict of the older key form: a call" 0 --out "strict: d"
if [ "$(tr '\n' ' ' <"$SP")" = "start first server/discover start first initialize " ] &&
  jq -e '.era == "legacy" and (.config | startswith("fnv1a64:"))' "$V" >/dev/null; then
  ok "a verdict of the older key form is a miss: probed again, rewritten"
else
  bad "a verdict of the older key form is a miss: probed again, rewritten" \
    "$(cat "$SP")" "$(cat "$V")"
fi

# batch passes a result on as its text (json_raw.h) without a tree, but
# one whose resultType is not "complete" is read: a type no version
# knows fails the call, as in `call`.
O="$TMP/odd.json"
config_file "$O" "{\"odd\": {\"command\": \"python3\",
  \"args\": [\"$SRCDIR/tests/servers/era_error_server.py\", \"stdio\", \"odd\"]}}"
printf '%s\n' '{"id": 1, "call": "odd/echo", "arguments": {"text": "x"}}' >"$TMP/in"
"$MCPHOST" --config "$O" batch <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "batch: a modern result of an unknown resultType is an error, not passed on" 0 \
  --out '{"id":1,"error":{' --out 'resultType \"later\"' --no-out '"not yet"'

finish
