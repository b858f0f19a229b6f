#!/usr/bin/env bash
# A tools/call answered with JSON-RPC error -32042 (URL elicitation
# required): the host runs the listed elicitations through the elicitation
# plugin; accepting one sends the person to the URL, so the call is sent
# again only once the server says the elicitation is complete
# (notifications/elicitation/complete for its elicitationId) or the person
# says so on the terminal (Enter), within the call's deadline (at most 3
# attempts in all); stderr says what it waits for.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the test server"
cat >"$TMP/accept.sh" <<SH
#!/bin/sh
# Records each elicitation it is asked, and accepts it.
cat >>"$TMP/asked.jsonl"; echo >>"$TMP/asked.jsonl"
echo '{"action":"accept"}'
SH
chmod +x "$TMP/accept.sh"

# ---- a server that completes the elicitation later ----
FIFO="$TMP/complete.fifo"
mkfifo "$FIFO"
U="$TMP/url.json"
config_file "$U" "{\"u\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/url_elicit_server.py\", \"$FIFO\"]}}"
"$MCPHOST" --config "$U" --elicitation="hook:$TMP/accept.sh" \
  call u/needs_url >"$TMP/out" 2>"$TMP/err" </dev/null &
PID=$!
for _ in $(seq 200); do
  grep -q "waits for the URL elicitation" "$TMP/err" && break
  sleep 0.1
done
check "after the hook accepted, the call waits, and says for what" \
  grep -q 'waiting: \[u\] tools/call needs_url waits for the URL elicitation to be completed: notifications/elicitation/complete for el-1' "$TMP/err"
# The server completes it now: only then may the call go again (a server
# already gone never reads it: not waited for beyond 20 s).
timeout 20 sh -c "echo el-1 >'$FIFO'"
wait "$PID"
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "notifications/elicitation/complete sends the call again, once" 0 \
  --out "signed in after 2 calls"

U0="$TMP/url0.json"
config_file "$U0" "{\"u\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/url_elicit_server.py\"]}}"
MCP_TOOL_TIMEOUT=1500 run --config "$U0" --elicitation="hook:$TMP/accept.sh" \
  call u/needs_url
expect "no completion within the call's deadline: exit 5, naming what it waited for" 5 \
  --err 'server "u": tools/call timed out after 1500 ms waiting for the URL elicitation el-1 to be completed (no notifications/elicitation/complete came for it)'

# ---- server-everything's error path (it sends no completion) ----
C="$TMP/every.json"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]}}"
run --config "$C" --elicitation=decline \
  call mcp__every__trigger-url-elicitation url=https://example.com/start errorPath=true
expect "a declined prerequisite ends the call with a clear error" 4 \
  --err "requires a URL elicitation, which was not completed (decline)"

# On a terminal the person says when they are done: Enter.
tmux_server
: >"$TMP/asked.jsonl"
printf -v q '%q ' "$MCPHOST" --config "$C" --elicitation="hook:$TMP/accept.sh" \
  call mcp__every__trigger-url-elicitation url=https://example.com/start errorPath=true
tm new-session -d -s t -x 200 -y 50 "$q >'$TMP/t.out'; echo \$? >'$TMP/t.rc'; sleep 600"
if tm_wait t "press Enter once you are done:"; then
  check "nothing was sent again before the person said so" \
    sh -c "grep -c '\"url\"' '$TMP/asked.jsonl' | grep -qx 1"
  tm_type t ""
fi
for _ in $(seq 200); do [ -s "$TMP/t.rc" ] && break; sleep 0.1; done
RC=$(cat "$TMP/t.rc" 2>/dev/null || echo 99)
OUT=$(cat "$TMP/t.out" 2>/dev/null)
ERR=$(tm_screen t)
expect "on a terminal, Enter sends the call again, which then succeeds" 0 \
  --out "User completed the URL elicitation flow" --out "URL: https://example.com/start" \
  --err "Enter here once you are done in the browser"
check "the hook was asked the prerequisite (from the error) and then the call's own" \
  sh -c "grep -c '\"url\"' '$TMP/asked.jsonl' | grep -qx 2 &&
         head -n 1 '$TMP/asked.jsonl' | grep -q 'https://modelcontextprotocol.io' &&
         tail -n 2 '$TMP/asked.jsonl' | grep -q 'https://example.com/start'"
finish
