#!/bin/bash
# Channels against a 2026-07-28 server (docs/channels.md): the server can
# push only on a subscriptions/listen stream, so with channels on (a listen
# running, or --channels) the client declares
# experimental["claude/channel"] in its clientCapabilities and, for a
# server that declared it in server/discover, asks for it in the listen
# filter (notifications.experimental); the messages that come on the
# stream are admitted, sanitized and printed as a legacy server's are.
# Against the TS SDK v2 server (tests/servers/ts_v2_server.mjs,
# TS_V2_CHANNEL=1) over streamable HTTP.
. "$(dirname "$0")/../lib/lib.sh"
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy
V2="$SRCDIR/tests/servers/ts_v2_server.mjs"

LOG="$TMP/ch.log"
TS_V2_CHANNEL=1 TS_V2_LOG="$LOG" start_node "$V2" http modern || exit 1
CPORT=$NODE_PORT
start_node "$V2" http modern || exit 1
PPORT=$NODE_PORT
C="$TMP/c.json"
config_file "$C" "{
  \"ch\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$CPORT/mcp\"},
  \"plain\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$PPORT/mcp\"}}"

# listens FILE: the params of the subscriptions/listen POSTs in FILE.
listens() { jq -c 'select(.method == "POST subscriptions/listen") | .params.params' "$1"; }
# listen_once ARGS...: `mcphost ARGS` (a listen with --count 1); one still
# waiting after a bound gets Ctrl-C (exit 130: the check fails, no hang).
listen_once() {
  "$MCPHOST" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null &
  local pid=$!
  for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  RC=$?
  OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
}
CAP='.["_meta"]["io.modelcontextprotocol/clientCapabilities"].experimental["claude/channel"] == {}'

: >"$LOG"
listen_once --config "$C" channels listen --server ch --count 1
expect "a modern server's channel message on its listen stream is printed" 0 \
  --out '<channel source="ch" chat_id="7" user="ann">deploy &lt;done&gt; &amp; ok</channel>'
# The zero-width space is gone (sanitized as text bound for a model), the
# forged source and the bad key are dropped.
if [ "$OUT" = '<channel source="ch" chat_id="7" user="ann">deploy &lt;done&gt; &amp; ok</channel>' ]; then
  ok "the message is sanitized and filtered as a legacy one"
else
  bad "the message is sanitized and filtered as a legacy one"
fi
if [ "$(listens "$LOG" | jq -s "length >= 1 and all(.notifications.experimental == {\"claude/channel\": {}} and $CAP)")" = true ]; then
  ok "the listen filter asks for claude/channel; the client declares it"
else
  bad "the listen filter asks for claude/channel; the client declares it" "$(listens "$LOG")"
fi

listen_once --config "$C" --json channels listen --server ch --count 1
expect "--json on a modern server" 0 \
  --jq '.source == "ch" and .content == "deploy <done> & ok" and .meta == {"chat_id": "7", "user": "ann"}'

run --config "$C" channels listen --server plain
expect "a modern server without the capability is not listened to" 8 \
  --err "plain skipped: server did not declare the claude/channel capability"

run --config "$C" --channels plain channels listen --server ch
expect "the --channels allow list leaves a modern server out" 8 \
  --err "ch skipped: not in the session's allow list (--channels)" \
  --no-out "<channel"

: >"$LOG"
run --config "$C" call mcp__ch__echo text=x
if jq -e 'select(.method == "POST tools/call") | .params.params._meta["io.modelcontextprotocol/clientCapabilities"].experimental == null' \
  "$LOG" >/dev/null; then
  ok "without channels on, the capability is not declared"
else
  bad "without channels on, the capability is not declared" "$(cat "$LOG")"
fi

# A server that ends each listen stream at once (TS_V2_CHANNEL=only: it
# honours nothing of the filter but the channel message it writes) is
# asked again after 1 s, then 2 s, then 4 s: not every second for ever.
OLOG="$TMP/only.log"
TS_V2_CHANNEL=only TS_V2_LOG="$OLOG" start_node "$V2" http modern || exit 1
O="$TMP/o.json"
config_file "$O" "{\"ch\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$NODE_PORT/mcp\"}}"
"$MCPHOST" --config "$O" -vv channels listen --server ch >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
for _ in $(seq 600); do
  grep -q "listening again in 4 s" "$TMP/err" && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
kill -INT "$pid" 2>/dev/null
wait "$pid"
waits=$(sed -n 's/.*subscriptions\/listen stream ended.*listening again in \([0-9]*\) s.*/\1/p' "$TMP/err" | head -3 | tr '\n' ' ')
if [ "$waits" = "1 2 4 " ]; then
  ok "listen streams that end at once are asked for again after 1, 2, 4 s"
else
  bad "listen streams that end at once are asked for again after 1, 2, 4 s" \
    "waits: $waits; $(grep -i listen "$TMP/err" | head -5)"
fi
if [ "$(listens "$OLOG" | wc -l)" -ge 3 ] && grep -c '<channel source="ch"' "$TMP/out" | grep -qv '^0$'; then
  ok "each listen again gets the server's channel message"
else
  bad "each listen again gets the server's channel message" "$(head -3 "$TMP/out")"
fi

mkdir -p "$MCPHOST_SYSTEM_CONFIG_DIR"
echo '{"channelsEnabled": false}' >"$MCPHOST_SYSTEM_CONFIG_DIR/managed-settings.json"
run --config "$C" --channels ch channels listen --server ch
expect "the enterprise policy turns a modern server's channel off" 8 \
  --err "channels are turned off by the enterprise policy" --no-out "<channel"
finish
