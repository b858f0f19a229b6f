#!/bin/bash
# The 2026-07-28 era through the front ends not covered elsewhere
# (docs/protocol.md): `mcphost session` kept connected to a modern-only TS
# v2 server (tests/servers/ts_v2_server.mjs) runs a tool call, a read, a
# prompt and an input_required elicitation through it; and a URL-mode
# elicitation asked in an input_required result is answered by the
# elicitation plugin and sent back in the retry.
. "$(dirname "$0")/../lib/lib.sh"
command -v jq >/dev/null || skip_test "no jq"

V2="$SRCDIR/tests/servers/ts_v2_server.mjs"
LOG="$TMP/v2.log"
C="$TMP/v2.json"
export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
config_file "$C" "{
  \"modern\": {\"command\": \"node\", \"args\": [\"$V2\", \"stdio\", \"modern\"],
    \"env\": {\"TS_V2_LOG\": \"$LOG\"}}}"
on_exit "'$MCPHOST' --config '$C' session stop >/dev/null 2>&1"

# A hook that keeps what it is asked (one JSON object a line) and accepts.
HOOK="$TMP/accept.sh"
cat >"$HOOK" <<SH
#!/bin/sh
cat >>"$TMP/asked.jsonl"; echo >>"$TMP/asked.jsonl"
echo "\$ACCEPT"
SH
chmod +x "$HOOK"

# ---- session ----
: >"$LOG"
run --config "$C" session start --idle 10
expect "session start with a modern-only server" 0 --out "session started"
run --config "$C" --json servers
expect "servers through the session: the 2026-07-28 era" 0 \
  --jq '.[0].name == "modern" and .[0].state == "connected"' \
  --jq '.[0].era == "modern" and .[0].protocolVersion == "2026-07-28"'
run --config "$C" call mcp__modern__echo text=hi
expect "a tool call through the session" 0 --out "echo(modern): hi"
run --config "$C" read modern config://app
expect "a resource read through the session" 0 --out '{"theme":"dark"}'
run --config "$C" prompt mcp__modern__greet who=you
expect "a prompt through the session" 0 --out "hello you"
# --elicitation is a plugin's option, which runs a command directly; its
# variable is the caller's environment, which the session runs with.
ACCEPT='{"action":"accept","content":{"confirm":true}}' \
  MCPHOST_OPTION_ELICITATION="hook:$HOOK" \
  run --config "$C" call mcp__modern__confirm action=deploy
expect "an input_required call through the session, answered by the hook" 0 \
  --out "confirmed: deploy"
calls=$(jq -c 'select(.method == "tools/call"
  and .params.name == "confirm")' "$LOG")
if [ "$(wc -l <<<"$calls")" = 2 ] &&
  jq -se '.[1].params.inputResponses.confirm
      == {"action": "accept", "content": {"confirm": true}}
    and .[1].params.requestState == "eyJhY3Rpb24iOiJkZXBsb3kifQ"' \
    <<<"$calls" >/dev/null; then
  ok "the session's retry carries the answer and the requestState"
else
  bad "the session's retry carries the answer and the requestState" "$calls"
fi
run --config "$C" session status --json
expect "the commands ran in the session" 0 \
  --jq '.commands >= 5 and .servers == [{"name": "modern", "state": "connected"}]'
# One server process for all of them: it was probed once, never initialized.
if [ "$(grep -c '"server/discover"' "$LOG")" = 1 ] &&
  ! grep -q '"initialize"' "$LOG" &&
  ! jq -e 'select(.method != "response" and .method != "server/discover")
    | .params._meta["io.modelcontextprotocol/protocolVersion"]
      != "2026-07-28"' "$LOG" >/dev/null; then
  ok "one server, one probe, no initialize, every request at 2026-07-28"
else
  bad "one server, one probe, no initialize, every request at 2026-07-28" \
    "$(cut -c1-200 "$LOG")"
fi
run --config "$C" session stop
expect "session stop" 0 --out "session stopped"
run --config "$C" session status
expect "no session after stop" 6 --out "no session runs here"

# ---- URL-mode elicitation in an input_required result ----
: >"$LOG" && : >"$TMP/asked.jsonl"
ACCEPT='{"action":"accept"}' \
  run --config "$C" --elicitation="hook:$HOOK" call mcp__modern__login \
  url=https://example.com/signin
expect "a URL elicitation through input_required: the call's result" 0 \
  --out "login: accept"
if jq -se 'length == 1 and .[0].mode == "url"
    and .[0].url == "https://example.com/signin"
    and .[0].message == "Sign in to go on"' "$TMP/asked.jsonl" >/dev/null; then
  ok "the elicitation plugin is asked the URL, in url mode"
else
  bad "the elicitation plugin is asked the URL, in url mode" \
    "$(cat "$TMP/asked.jsonl")"
fi
calls=$(jq -c 'select(.method == "tools/call")' "$LOG")
if [ "$(wc -l <<<"$calls")" = 2 ] &&
  jq -se '.[0].id != .[1].id and (.[0].params | has("inputResponses") | not)
    and .[1].params.inputResponses == {"visit": {"action": "accept"}}
    and .[1].params.requestState
      == "eyJ1cmwiOiJodHRwczovL2V4YW1wbGUuY29tL3NpZ25pbiJ9"
    and .[1].params.arguments == {"url": "https://example.com/signin"}' \
    <<<"$calls" >/dev/null; then
  ok "the retry carries the URL elicitation's response and the requestState"
else
  bad "the retry carries the URL elicitation's response and the requestState" \
    "$calls"
fi
ACCEPT='{"action":"decline"}' \
  run --config "$C" --elicitation="hook:$HOOK" call mcp__modern__login \
  url=https://example.com/signin
expect "a declined URL elicitation goes back as declined" 0 \
  --out "login: decline"
finish
