#!/usr/bin/env bash
# The connection manager: servers connect concurrently, local (stdio) ones
# at most MCP_SERVER_CONNECTION_BATCH_SIZE at a time (default 3).
. "$(dirname "$0")/../lib/lib.sh"
LOG="$TMP/starts.log"
# Each server logs "start" when spawned and "up" just before it can answer.
cat >"$TMP/slow-start.sh" <<SH
#!/bin/sh
echo start >>"$LOG"
sleep 0.2
echo up >>"$LOG"
exec "$DEMO"
SH
chmod +x "$TMP/slow-start.sh"
servers=""
for i in 1 2 3 4 5 6 7; do
  servers="$servers${servers:+,} \"s$i\": {\"command\": \"$TMP/slow-start.sh\"}"
done
config_file "$TMP/many.json" "{$servers}"

# The most servers that were started but not yet up at any moment.
max_in_flight() {
  awk '/start/ {n++; if (n > m) m = n} /up/ {n--} END {print m}' "$LOG"
}

: >"$LOG"
run --config "$TMP/many.json" --json servers
expect "seven stdio servers all connect" 0 --jq 'length == 7 and all(.[]; .state == "connected")'
check "at most 3 local servers connect at once by default" test "$(max_in_flight)" -le 3
check "and more than one at a time" test "$(max_in_flight)" -ge 2

: >"$LOG"
MCP_SERVER_CONNECTION_BATCH_SIZE=1 run --config "$TMP/many.json" --json servers
expect "MCP_SERVER_CONNECTION_BATCH_SIZE=1 still connects all" 0 --jq 'all(.[]; .state == "connected")'
check "MCP_SERVER_CONNECTION_BATCH_SIZE=1 connects one at a time" test "$(max_in_flight)" -eq 1

# One server that never answers does not hold the others back beyond its
# own deadline: the others are all connected when it times out.
config_file "$TMP/mixed.json" "{$servers, \"mute\": {\"command\": \"$DEMO\", \"args\": [\"--no-initialize\"]}}"
: >"$LOG"
run --config "$TMP/mixed.json" --timeout 3000 --json servers
expect "a mute server fails alone; the others connect" 5 \
  --jq '[.[] | select(.state == "connected")] | length == 7' \
  --jq '(.[] | select(.name == "mute") | .error) == "server did not answer initialize in time"'
# The connect deadline covers the whole connect: a stdio server silent to
# the 2026-07-28 probe gets half of it for that, initialize the rest (a
# fresh state directory: no verdict cached).
mkdir -m 700 "$TMP/probe-state"
XDG_STATE_HOME="$TMP/probe-state" run -vv --config "$TMP/mixed.json" \
  --timeout 2000 servers mute
expect "probe and initialize share one connect deadline" 5 \
  --err "no answer to server/discover in time" \
  --err "left of the 2000 ms connect deadline" \
  --out "failed: server did not answer initialize in time"
finish
