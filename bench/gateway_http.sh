#!/usr/bin/env bash
# One echo tool call, three ways (issue 18's figure; docs/gateway.md):
#   1. through `mcphost serve --http` fronting the TS SDK server on stdio
#      (a warm session: median per call, the TS SDK's client);
#   2. the TS SDK's own streamable HTTP server, the same client;
#   3. a cold `mcphost call` (spawns the TS SDK server each time).
# usage: bench/gateway_http.sh [BUILD_DIR]   (default: build)
set -eu
cd "$(dirname "$0")/.."
M="${1:-build}/bin/mcphost"
CALLS=${BENCH_CALLS:-300}
TMP=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$TMP"' EXIT
CFG="{\"mcpServers\":{\"ts\":{\"command\":\"node\",\"args\":[\"$PWD/bench/servers/ts-server.mjs\",\"stdio\"]}}}"

"$M" --mcp-config "$CFG" serve --http 127.0.0.1:0 2>"$TMP/gw.err" &
for _ in $(seq 100); do
  URL=$(sed -n 's/^mcphost serve: listening on //p' "$TMP/gw.err")
  [ -n "$URL" ] && break
  sleep 0.1
done
echo "serve --http (fronting ts-server stdio): $(node bench/gateway_http.mjs "$URL" mcp__ts__echo "$CALLS")"

node bench/servers/ts-server.mjs http 0 >"$TMP/ts.out" &
for _ in $(seq 100); do
  PORT=$(head -1 "$TMP/ts.out")
  [ -n "$PORT" ] && break
  sleep 0.1
done
echo "TS SDK streamable HTTP server:           $(node bench/gateway_http.mjs "http://127.0.0.1:$PORT/mcp" echo "$CALLS")"

RUNS=${BENCH_RUNS:-10}
for i in $(seq "$RUNS"); do
  s=$(date +%s%N)
  "$M" --mcp-config "$CFG" call ts/echo '{"message":"hi"}' >/dev/null
  e=$(date +%s%N)
  echo $(((e - s) / 1000))
done | sort -n | awk -v n="$RUNS" '{a[NR]=$1} END {printf "cold mcphost call (spawns the server):   {\"median_ms\": %.1f, \"runs\": %d}\n", a[int((n+1)/2)]/1000, n}'
