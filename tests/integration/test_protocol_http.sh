#!/bin/bash
# MCP 2026-07-28 over streamable HTTP (docs/protocol.md): against a TS SDK
# v2 server (tests/servers/ts_v2_server.mjs) in modern-only and dual
# mode, every POST carries MCP-Protocol-Version and Mcp-Method (and
# Mcp-Name, Mcp-Param-* from x-mcp-header), no session id and no GET; a
# tool whose x-mcp-header breaks the rules is left out, named; a
# cancelled call's response stream is closed; a broken response stream is
# sent again with a new id; legacy servers (server-everything) unchanged.
. "$(dirname "$0")/../lib/lib.sh"
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy
V2="$SRCDIR/tests/servers/ts_v2_server.mjs"

LOG="$TMP/http.log"
TS_V2_LOG="$LOG" start_node "$V2" http modern || exit 1
MPORT=$NODE_PORT
TS_V2_LOG="$TMP/dual.log" start_node "$V2" http dual || exit 1
DPORT=$NODE_PORT
C="$TMP/c.json"
config_file "$C" "{
  \"m\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$MPORT/mcp\"},
  \"d\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$DPORT/mcp\"}}"

# posts METHOD: the logged POSTs of METHOD, one JSON line each.
posts() { jq -c "select(.method == \"POST $1\") | .params" "$LOG"; }

: >"$LOG"
run --config "$C" --json servers m
expect "a modern-only TS v2 server over HTTP is modern" 0 \
  --jq '.[0].state == "connected" and .[0].era == "modern"' \
  --jq '.[0].protocolVersion == "2026-07-28" and .[0].tools == 7'
if [ "$(head -1 "$LOG" | jq -r .method)" = "POST server/discover" ] &&
  ! grep -q '"GET \|"DELETE \|initialize' "$LOG" &&
  jq -e 'select(.method | startswith("POST ")) | .params.headers
      | .["mcp-protocol-version"] == "2026-07-28" and .["mcp-session-id"] == null' \
    "$LOG" >/dev/null &&
  ! jq -e 'select(.method | startswith("POST ")) | .params.headers
      | .["mcp-protocol-version"] != "2026-07-28"' "$LOG" >/dev/null; then
  ok "POSTs only: the probe first, MCP-Protocol-Version on each, no session, no GET"
else
  bad "POSTs only: the probe first, MCP-Protocol-Version on each, no session, no GET" \
    "$(cut -c1-300 "$LOG")"
fi
if posts tools/list | jq -e '.headers["mcp-method"] == "tools/list"' >/dev/null; then
  ok "Mcp-Method on tools/list"
else
  bad "Mcp-Method on tools/list" "$(posts tools/list)"
fi
if grep -q 'tool "bad_header" left out: property "n": x-mcp-header on a number' \
  <<<"$ERR"; then
  ok "a tool with x-mcp-header on a number is left out, named"
else
  bad "a tool with x-mcp-header on a number is left out, named"
fi
run --config "$C" tools m
expect "the left-out tool is not listed" 0 --out "mcp__m__geo" \
  --no-out "mcp__m__bad_header"

: >"$LOG"
run --config "$C" call mcp__m__geo \
  '{"region":"Hello, 世界","count":42,"flag":false,"q":" padded "}'
expect "a call with x-mcp-header arguments" 0 --out "region=Hello, 世界"
if posts tools/call | jq -e '.headers == {"mcp-protocol-version": "2026-07-28",
    "mcp-method": "tools/call", "mcp-name": "geo",
    "mcp-param-region": "=?base64?SGVsbG8sIOS4lueVjA==?=",
    "mcp-param-count": "42", "mcp-param-flag": "false"}' >/dev/null; then
  ok "Mcp-Name and Mcp-Param-* (base64 for non-ASCII; unannotated not sent)"
else
  bad "Mcp-Name and Mcp-Param-* (base64 for non-ASCII; unannotated not sent)" \
    "$(posts tools/call)"
fi
: >"$LOG"
run --config "$C" read m config://app
expect "a resource read over HTTP" 0 --out '{"theme":"dark"}'
if posts resources/read | jq -e '.headers["mcp-name"] == "config://app"' >/dev/null; then
  ok "Mcp-Name on resources/read is the URI"
else
  bad "Mcp-Name on resources/read is the URI" "$(posts resources/read)"
fi
run --config "$C" prompt mcp__m__greet who=you
expect "a prompt over HTTP" 0 --out "hello you"

: >"$LOG"
run --config "$C" call mcp__m__flaky '{}'
expect "a broken response stream: the call is sent again and answered" 0 \
  --out "flaky ok"
if [ "$(posts tools/call | wc -l)" = 2 ] &&
  [ "$(posts tools/call | jq -s '.[0].id != .[1].id and (.[1].id | type) == "number"')" = true ] &&
  grep -q '"closed"' "$LOG"; then
  ok "the second POST has a new id"
else
  bad "the second POST has a new id" "$(cut -c1-200 "$LOG")"
fi

: >"$LOG"
run --config "$C" --timeout 3000 call mcp__m__slow '{}'
expect "a call past its deadline fails" 5 --err "timed out"
for _ in $(seq 50); do grep -q '"closed"' "$LOG" && break; sleep 0.1; done
if jq -e 'select(.method == "closed") | .params.name == "slow"' "$LOG" \
  >/dev/null && ! grep -q 'notifications/cancelled' "$LOG"; then
  ok "cancelling closes the request's response stream, with no POST"
else
  bad "cancelling closes the request's response stream, with no POST" \
    "$(cut -c1-200 "$LOG")"
fi

run --config "$C" call mcp__d__echo text=hi
expect "a dual-era server over HTTP is modern by default" 0 \
  --out "echo(modern): hi"
run --config "$C" --protocol legacy call mcp__d__echo text=hi
expect "and legacy with --protocol legacy" 0 --out "echo(legacy): hi"

# server-everything's streamable HTTP: the probe's 400 is no modern answer.
EPORT=$(free_port)
PORT=$EPORT node "$EVERYTHING" streamableHttp >"$TMP/every.log" 2>&1 &
on_exit "kill $! 2>/dev/null"
for _ in $(seq 150); do
  (exec 3<>"/dev/tcp/127.0.0.1/$EPORT") 2>/dev/null && break
  sleep 0.1
done
E="$TMP/e.json"
config_file "$E" "{\"every\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$EPORT/mcp\"}}"
run --config "$E" --json servers
expect "server-everything over HTTP stays in the initialize era" 0 \
  --jq '.[0].state == "connected" and .[0].era == "legacy"' \
  --jq '.[0].protocolVersion == "2025-11-25"'
run --config "$E" call mcp__every__echo message=hi
expect "and answers calls" 0 --out "Echo: hi"

finish
