#!/usr/bin/env bash
# Runs every benchmark workload for every client, side by side in one run,
# and writes bench/results/<date>.md, .csv and the latency plot (through
# bench/report.mjs). `make bench` installs what this needs and calls it;
# see bench/README.md.
#
# Environment:
#   BENCH_BUILD  the build directory (default: build-bench)
#   BENCH_RUNS   runs of each workload per client (default 5)
#   BENCH_QUICK  1: few calls and runs, to try the pipeline (figures are
#                not worth publishing)
#   BENCH_CANDIDATE  a second mcphost build (a directory with bin/mcphost
#                and lib/mcphost/plugins/) run as a fourth client,
#                "candidate", side by side with the first: before/after
#                figures for a change
#   BENCH_LABEL  names a variant run (say, a prototype build in another
#                BENCH_BUILD): results/<date>-<label>.*, README untouched
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "$ROOT" && realpath -m "${BENCH_BUILD:-build-bench}")
RUNS=${BENCH_RUNS:-5}
SEQ_CALLS=2000 SEQ_WARMUP=200
CONC_CALLS=5000 CONC_INFLIGHT=64 CONC_WARMUP=200
COLD_RUNS=20
PAIR_RUNS=400
SEQ_PAIR_RUNS=40
WHOLE_RUNS=21
MANY=50
MANY_RUNS=$RUNS TS_MANY_RUNS=3
BIG_BYTES=$((10 * 1024 * 1024))
PLUGIN_RUNS=20
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  RUNS=2 SEQ_CALLS=300 SEQ_WARMUP=50 CONC_CALLS=1000 CONC_WARMUP=50
  COLD_RUNS=3 PAIR_RUNS=10 SEQ_PAIR_RUNS=3 WHOLE_RUNS=3 MANY_RUNS=1 TS_MANY_RUNS=1 PLUGIN_RUNS=5
fi

B=$BUILD/bin
H=$B/bench-harness
CLIENTS=(mcphost sdk1 sdk2)
CAND=""
if [ -n "${BENCH_CANDIDATE:-}" ]; then
  CAND=$(cd "$ROOT" && realpath "$BENCH_CANDIDATE")
  [ -x "$CAND/bin/mcphost" ] || { echo "bench: $CAND/bin/mcphost is missing" >&2; exit 1; }
  CLIENTS+=(candidate)
fi
STAMP=$(date +%Y-%m-%d)
RAW=$ROOT/bench/results/raw/$STAMP-$(date +%H%M%S)${BENCH_LABEL:+-$BENCH_LABEL}
OUT=$RAW/results.jsonl
mkdir -p "$RAW/lat" "$RAW/state"
: >"$OUT"
# mcphost writes each server's stderr log under XDG_STATE_HOME; keep them
# with the raw data. Nothing here reads ./.mcp.json: run from $RAW.
export XDG_STATE_HOME=$RAW/state
# The TS SDK clients wait up to 60 s for initialize (their request timeout);
# give mcphost the same connect deadline (its default is 30 s), which 50
# Node.js servers starting at once on 2 cores can need.
export MCP_TIMEOUT=60000
cd "$RAW"

# Each line also records the load average: the machine may be shared, and
# absolute times move with what else runs (the report shows the range).
log() {
  printf '[bench %s] %s (load %s)\n' "$(date +%H:%M:%S)" "$*" \
    "$(cut -d' ' -f1 /proc/loadavg)" >&2
  printf '%s %s\n' "$(date +%s)" "$(cut -d' ' -f1 /proc/loadavg)" >>"$RAW/load.txt"
}

load1=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load1" -v n="$(nproc)" 'BEGIN { exit !(l > n) }'; then
  log "warning: load average $load1 on $(nproc) cores: other jobs are running; absolute times will move, ratios less so"
fi
for f in "$H" "$B/mcphost" "$B/bench-demo-server"; do
  [ -x "$f" ] || { echo "bench: $f is missing; run 'make bench'" >&2; exit 1; }
done
[ -d "$ROOT/bench/node_modules/@modelcontextprotocol/sdk" ] ||
  { echo "bench: bench/node_modules is missing; run 'make bench-deps' (npm ci from bench/package-lock.json)" >&2; exit 1; }

# ---- the machine, for the report ----
{
  printf '{"date":"%s",' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  printf '"cpu":"%s",' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
  printf '"cores":%s,' "$(nproc)"
  printf '"mem_gib":%s,' "$(awk '/MemTotal/{printf "%.0f", $2/1048576}' /proc/meminfo)"
  printf '"kernel":"%s",' "$(uname -r)"
  printf '"os":"%s",' "$(. /etc/os-release && echo "$PRETTY_NAME")"
  printf '"node":"%s",' "$(node --version)"
  printf '"gcc":"%s",' "$(gcc -dumpfullversion)"
  printf '"libcurl":"%s",' "$(curl-config --version 2>/dev/null | cut -d' ' -f2 || echo '?')"
  printf '"load_start":"%s",' "$(cut -d' ' -f1-3 /proc/loadavg)"
  printf '"nice":%s,' "$(nice)"
  printf '"build_type":"%s",' "$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)"
  if [ -n "$CAND" ]; then
    src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$CAND/CMakeCache.txt" 2>/dev/null)
    printf '"candidate":"%s","candidate_commit":"%s","candidate_build_type":"%s",' "$CAND" \
      "$(git -C "${src:-$CAND}" rev-parse --short HEAD 2>/dev/null || echo '?')" \
      "$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$CAND/CMakeCache.txt" 2>/dev/null)"
  fi
  printf '"commit":"%s",' "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
  printf '"dirty":%s,' "$([ -n "$(git -C "$ROOT" status --porcelain -- host transports sdk 2>/dev/null)" ] && echo true || echo false)"
  printf '"sdk1":"%s","sdk2":"%s",' \
    "$(node -p "require('$ROOT/bench/node_modules/@modelcontextprotocol/sdk/package.json').version")" \
    "$(node -p "require('$ROOT/bench/node_modules/@modelcontextprotocol/client/package.json').version")"
  printf '"runs":%s,"seq_calls":%s,"conc_calls":%s,"conc_inflight":%s,"cold_runs":%s,"pair_runs":%s,"seq_pair_runs":%s,"big_bytes":%s,"many":%s}\n' \
    "$RUNS" "$SEQ_CALLS" "$CONC_CALLS" "$CONC_INFLIGHT" "$COLD_RUNS" "$PAIR_RUNS" "$SEQ_PAIR_RUNS" "$BIG_BYTES" "$MANY"
} >"$RAW/machine.json"

# ---- servers and configurations ----
C_SERVER="{\"command\":\"$B/bench-demo-server\",\"args\":[]}"
TS_SERVER="{\"command\":\"node\",\"args\":[\"$ROOT/bench/servers/ts-server.mjs\",\"stdio\"]}"
one() { printf '{"mcpServers":{"s":%s}}\n' "$1" >"$2"; }
many() {
  local def=$1 out=$2 i sep=""
  { printf '{"mcpServers":{'
    for i in $(seq 1 "$MANY"); do printf '%s"s%d":%s' "$sep" "$i" "$def"; sep=,; done
    printf '}}\n'; } >"$out"
}
# The C server with non-ASCII tool names (bench/servers/bench_features.c):
# "intl", all already in NFKC; "icu", one more that only NFKC makes ASCII.
C_INTL="{\"command\":\"$B/bench-demo-server\",\"env\":{\"BENCH_NAMES\":\"intl\"}}"
C_ICU="{\"command\":\"$B/bench-demo-server\",\"env\":{\"BENCH_NAMES\":\"icu\"}}"
one "$C_SERVER" c.json
one "$C_INTL" intl.json
one "$C_ICU" icu.json
one "$TS_SERVER" ts.json
many "$C_SERVER" c50.json
many "$TS_SERVER" ts50.json
for i in $(seq 1 "$MANY"); do printf '{"id":@ID@,"list":"tools","server":"s%d"}\n' "$i"; done >list50.txt

HTTP_PID="" SSE_PID=""
start_one() { # MODE -> prints "PID PORT"
  local portfile=$RAW/$1.port pid
  : >"$portfile"
  node "$ROOT/bench/servers/ts-server.mjs" "$1" 0 >"$portfile" 2>>"$RAW/ts-$1.log" &
  pid=$!
  for _ in $(seq 1 200); do
    [ -s "$portfile" ] && break
    sleep 0.05
  done
  [ -s "$portfile" ] || { echo "bench: the TS $1 server did not start" >&2; exit 1; }
  echo "$pid $(head -1 "$portfile")"
}
start_http() {
  local pid port
  read -r pid port < <(start_one http)
  HTTP_PID=$pid
  one "{\"type\":\"http\",\"url\":\"http://127.0.0.1:$port/mcp\"}" http.json
  read -r pid port < <(start_one sse)
  SSE_PID=$pid
  one "{\"type\":\"sse\",\"url\":\"http://127.0.0.1:$port/sse\"}" sse.json
}
stop_http() {
  [ -n "$HTTP_PID" ] && kill "$HTTP_PID" 2>/dev/null && wait "$HTTP_PID" 2>/dev/null || true
  [ -n "$SSE_PID" ] && kill "$SSE_PID" 2>/dev/null && wait "$SSE_PID" 2>/dev/null || true
  HTTP_PID="" SSE_PID=""
}
trap stop_http EXIT

# The client command lines, all reading the same configuration file.
client_cmd() { # CLIENT CONFIG COMMAND -> CMD array
  case $1 in
    mcphost) CMD=("$B/mcphost" --config "$2" "$3") ;;
    sdk1) CMD=(node "$ROOT/bench/drivers/sdk1.mjs" --config "$2" "$3") ;;
    sdk2) CMD=(node "$ROOT/bench/drivers/sdk2.mjs" --config "$2" "$3") ;;
    candidate) CMD=("$CAND/bin/mcphost" --config "$2" "$3") ;;
    ws-peer) CMD=(node "$ROOT/bench/drivers/ws_peer.mjs" --config "$2" "$3") ;;
    sdk2-2026) CMD=(node "$ROOT/bench/drivers/sdk2_2026.mjs" --config "$2" "$3") ;;
  esac
}

# Alternates the order of the clients from run to run, so that none is
# always first or last (page cache, CPU frequency, the other core's load).
order() { # RUN
  if [ $(($1 % 2)) = 1 ]; then echo "${CLIENTS[@]}"; else echo "${CLIENTS[@]}" | tr ' ' '\n' | tac | tr '\n' ' '; fi
}

record() { # WORKLOAD SERVER CLIENT RUN -- HARNESS ARGS...
  local w=$1 s=$2 c=$3 r=$4 line rc=0
  shift 5
  local mode=$1
  shift
  line=$("$H" "$mode" --stderr "$RAW/stderr-$w-$s-$c.log" "$@") || rc=$?
  if [ -z "$line" ]; then
    log "FAILED: $w $s $c run $r (exit $rc)"
    line='{"failed":true}'
  elif [ $rc != 0 ]; then
    log "errors: $w $s $c run $r: $line"
  fi
  printf '{"workload":"%s","server":"%s","client":"%s","run":%s,%s\n' \
    "$w" "$s" "$c" "$r" "${line#\{}" >>"$OUT"
}

ECHO='{"id":@ID@,"call":"s/echo","arguments":{"message":"hello from the benchmark"}}'
ECHO2026='{"id":@ID@,"call":"s/echo","arguments":{"text":"hello from the benchmark"}}'
BIG="{\"id\":@ID@,\"call\":\"s/big\",\"arguments\":{\"bytes\":$BIG_BYTES}}"
# The floor "none": the harness talks JSON-RPC to the stdio server itself,
# with no client between them: what is left is the server's own time.
INIT='{"jsonrpc":"2.0","id":@ID@,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench-floor","version":"1"}}}'
RAW_ECHO='{"jsonrpc":"2.0","id":@ID@,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello from the benchmark"}}}'
RAW_BIG="{\"jsonrpc\":\"2.0\",\"id\":@ID@,\"method\":\"tools/call\",\"params\":{\"name\":\"big\",\"arguments\":{\"bytes\":$BIG_BYTES}}}"
server_cmd() { # SERVER -> CMD array: the stdio server itself
  case $1 in
    c) CMD=("$B/bench-demo-server") ;;
    ts) CMD=(node "$ROOT/bench/servers/ts-server.mjs" stdio) ;;
  esac
}

# ---- 1. cold command ----
# Traced (CPU and peak RSS at the exit), then untraced (the wall alone:
# a traced client stops at each signal until the harness lets it go on).
log "1. cold command: start, connect, list tools, exit ($COLD_RUNS runs, then $COLD_RUNS untraced)"
for s in c ts intl icu; do
  for r in $(seq 1 "$COLD_RUNS"); do
    for c in $(order "$r"); do
      client_cmd "$c" "$s.json" tools
      record cold "$s" "$c" "$r" -- cold -- "${CMD[@]}"
    done
  done
  for r in $(seq 1 "$COLD_RUNS"); do
    for c in $(order "$r"); do
      client_cmd "$c" "$s.json" tools
      record cold_untraced "$s" "$c" "$r" -- cold --untraced -- "${CMD[@]}"
    done
  done
  if command -v hyperfine >/dev/null; then
    hf=()
    for c in "${CLIENTS[@]}"; do client_cmd "$c" "$s.json" tools; hf+=(-n "$c" "${CMD[*]}"); done
    hyperfine -N --warmup 2 --runs "$COLD_RUNS" --export-json "$RAW/hyperfine-cold-$s.json" \
      "${hf[@]}" >"$RAW/hyperfine-cold-$s.txt" 2>&1 || log "hyperfine failed (see $RAW/hyperfine-cold-$s.txt)"
  fi
done

# ---- 1b. the cold command, mcphost and the candidate paired ----
# A few per cent between two builds of mcphost is less than what the
# machine moves a run by (its other jobs, where the scheduler puts the
# server): each build runs right after the other, the first of the two
# alternating, PAIR_RUNS times, traced then untraced, so that each pair
# shares the machine's state. The report takes the median of the pairs'
# ratios and its 95% confidence interval.
if [ -n "$CAND" ]; then
  log "1b. cold command, mcphost and the candidate paired: $PAIR_RUNS pairs"
  for r in $(seq 1 "$PAIR_RUNS"); do
    for mode in cold_pair cold_pair_untraced; do
      how=(cold)
      [ "$mode" = cold_pair_untraced ] && how+=(--untraced)
      for c in $(if [ $((r % 2)) = 1 ]; then echo mcphost candidate; else echo candidate mcphost; fi); do
        client_cmd "$c" c.json tools
        record "$mode" c "$c" "$r" -- "${how[@]}" -- "${CMD[@]}"
      done
    done
  done
fi

# ---- 2. sequential calls ----
start_http
log "2. sequential echo calls: $SEQ_CALLS per run, $RUNS runs, 6 servers"
for s in c ts http sse intl icu; do
  for r in $(seq 1 "$RUNS"); do
    for c in $(order "$r"); do
      client_cmd "$c" "$s.json" batch
      record seq "$s" "$c" "$r" -- seq --calls "$SEQ_CALLS" --warmup "$SEQ_WARMUP" \
        --request "$ECHO" --lat-out "$RAW/lat/seq-$s-$c-$r.txt" -- "${CMD[@]}"
    done
    if [ "$s" = c ] || [ "$s" = ts ]; then
      server_cmd "$s"
      record seq "$s" none "$r" -- seq --calls "$SEQ_CALLS" --warmup "$SEQ_WARMUP" \
        --init "$INIT" --request "$RAW_ECHO" \
        --lat-out "$RAW/lat/seq-$s-none-$r.txt" -- "${CMD[@]}"
    fi
    # The pipe floors right after the clients' run, in the same machine
    # state: the relay's CPU per call pairs with this run's clients. The
    # target's floor is the relay that waits in epoll_wait() before each
    # read (--epoll), as mcphost's loop does: the plain relay's blocking
    # read() makes 4 system calls a round trip, any event loop 6.
    if [ "$s" = c ]; then
      for floor in "--hops 1" "--hops 2" "--hops 2 --epoll"; do
        line=$("$B/bench-floor-pipe" $floor)
        printf '{"workload":"floor_pipe","server":"-","client":"floor","run":%s,%s\n' "$r" "${line#\{}" >>"$OUT"
      done
    fi
  done
done
stop_http

# ---- 2b. sequential calls: mcphost, the candidate and the relay in turn ----
# A client's CPU per call moves by a fifth from run to run here (where
# the scheduler puts the three processes, what else runs): five runs
# cannot tell a few per cent, nor hold it against the relay measured
# after them. Here each build runs SEQ_CALLS calls right after the other
# (the first of the two alternating), then the relay that waits in
# epoll_wait() as many round trips, SEQ_PAIR_RUNS times; the report takes
# the median of the per-turn ratios and its 95% confidence interval.
log "2b. sequential echo calls, in turn with the relay: $SEQ_PAIR_RUNS turns"
for r in $(seq 1 "$SEQ_PAIR_RUNS"); do
  pair=(mcphost)
  if [ -n "$CAND" ]; then
    pair=(mcphost candidate)
    [ $((r % 2)) = 0 ] && pair=(candidate mcphost)
  fi
  for c in "${pair[@]}"; do
    client_cmd "$c" c.json batch
    record seq_pair c "$c" "$r" -- seq --calls "$SEQ_CALLS" --warmup "$SEQ_WARMUP" \
      --request "$ECHO" -- "${CMD[@]}"
  done
  line=$("$B/bench-floor-pipe" --hops 2 --epoll --calls "$SEQ_CALLS")
  printf '{"workload":"floor_pipe_pair","server":"-","client":"floor","run":%s,%s\n' "$r" "${line#\{}" >>"$OUT"
done

# ---- 3. calls in flight ----
start_http
log "3. $CONC_INFLIGHT calls in flight: $CONC_CALLS per run, $RUNS runs, 4 servers"
for s in c ts http sse; do
  for r in $(seq 1 "$RUNS"); do
    for c in $(order "$r"); do
      client_cmd "$c" "$s.json" batch
      record conc "$s" "$c" "$r" -- conc --calls "$CONC_CALLS" --inflight "$CONC_INFLIGHT" \
        --warmup "$CONC_WARMUP" --request "$ECHO" -- "${CMD[@]}"
    done
  done
done
stop_http

# ---- 4. one 10 MiB result ----
log "4. one $BIG_BYTES-byte text result, $RUNS runs, 2 servers"
for s in c ts; do
  for r in $(seq 1 "$RUNS"); do
    for c in $(order "$r"); do
      client_cmd "$c" "$s.json" batch
      record big "$s" "$c" "$r" -- big --warmup 5 --warmup-request "$ECHO" \
        --request "$BIG" --expect-bytes "$BIG_BYTES" -- "${CMD[@]}"
    done
    server_cmd "$s"
    record big "$s" none "$r" -- big --init "$INIT" --warmup 5 --warmup-request "$RAW_ECHO" \
      --request "$RAW_BIG" --expect-bytes "$BIG_BYTES" -- "${CMD[@]}"
  done
done

# ---- 5. many servers at once ----
log "5. $MANY stdio servers connected and listed at once"
for s in c ts; do
  n=$MANY_RUNS
  [ "$s" = ts ] && n=$TS_MANY_RUNS
  for r in $(seq 1 "$n"); do
    for c in $(order "$r"); do
      client_cmd "$c" "${s}50.json" batch
      record many "${s}" "$c" "$r" -- multi --requests list50.txt -- "${CMD[@]}"
    done
  done
done

# ---- 6. plugins ----
log "6. loading and initializing every built plugin ($PLUGIN_RUNS processes)"
# plugin_load CLIENT BUILD-DIR RUN: one record; a failed load (a candidate
# built without MCPHOST_BENCH has no bench-plugin-load) is recorded as one.
plugin_load() {
  local line
  line=$("$2/bin/bench-plugin-load" "$2/lib/mcphost/plugins") || line=""
  if [ -z "$line" ]; then
    log "plugin load failed: $1 run $3 ($2/bin/bench-plugin-load)"
    line='{"failed":true}'
  fi
  printf '{"workload":"plugins","server":"-","client":"%s","run":%s,%s\n' "$1" "$3" "${line#\{}" >>"$OUT"
}
for r in $(seq 1 "$PLUGIN_RUNS"); do
  plugin_load mcphost "$BUILD" "$r"
  if [ -n "$CAND" ]; then
    plugin_load candidate "$CAND" "$r"
  fi
done

# ---- 7. WebSocket echo ----
# The TS SDK has no WebSocket client: the peer is a Node client on the npm
# ws package (drivers/ws_peer.mjs); the server, the tests' Node ws server.
#
# seq_node WORKLOAD SERVER-LABEL CONFIG-TYPE PATH REQUEST SCRIPT [ARGS...]
# (the clients in SEQ_CLIENTS): a Node server of the tests that says
# "listening on PORT", then sequential calls from each client, in
# alternating order, against type://127.0.0.1:PORT/PATH.
seq_node() {
  local w=$1 label=$2 type=$3 path=$4 req=$5 pid port r c order
  shift 5
  : >"$RAW/$label-server.log"
  node "$@" >"$RAW/$label-server.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 200); do grep -q '^listening on' "$RAW/$label-server.log" && break; sleep 0.05; done
  port=$(sed -n 's/^listening on //p' "$RAW/$label-server.log")
  local scheme=$type
  [ "$type" = http ] || scheme=ws
  one "{\"type\":\"$type\",\"url\":\"$scheme://127.0.0.1:$port/$path\"}" "$label.json"
  for r in $(seq 1 "$RUNS"); do
    [ $((r % 2)) = 1 ] && order=("${SEQ_CLIENTS[@]}") || order=($(printf '%s\n' "${SEQ_CLIENTS[@]}" | tac))
    for c in "${order[@]}"; do
      client_cmd "$c" "$label.json" batch
      record "$w" "$label" "$c" "$r" -- seq --calls "$SEQ_CALLS" --warmup "$SEQ_WARMUP" \
        --request "$req" --lat-out "$RAW/lat/$label-$c-$r.txt" -- "${CMD[@]}"
    done
  done
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
}
SEQ_CLIENTS=(mcphost ws-peer)
# A candidate older than the ws transport (before 2026-12) has none.
[ -n "$CAND" ] && ls "$CAND/lib/mcphost/plugins/" | grep -q ws && SEQ_CLIENTS+=(candidate)
if [ -d "$ROOT/tests/interop/node_modules/ws" ]; then
  log "7. sequential echo calls over a WebSocket: $SEQ_CALLS per run, $RUNS runs"
  seq_node seq ws ws "" "$ECHO" "$ROOT/tests/servers/ws_server.mjs"
else
  log "7. skipped: tests/interop/node_modules/ws is missing (make interop-deps)"
fi

# ---- 8. MCP 2026-07-28 ----
# Sequential echo calls at 2026-07-28 over streamable HTTP against the TS
# SDK v2 server (tests/servers/ts_v2_server.mjs, modern only, on
# tests/interop's @modelcontextprotocol/server 2.4.0): mcphost (it finds
# the era by probing) against the TS v2 client pinned to 2026-07-28.
SEQ_CLIENTS=(mcphost sdk2-2026)
[ -n "$CAND" ] && SEQ_CLIENTS+=(candidate)
if [ -d "$ROOT/tests/interop/node_modules/@modelcontextprotocol/server" ]; then
  log "8. sequential echo calls at 2026-07-28 over HTTP: $SEQ_CALLS per run, $RUNS runs"
  seq_node seq http2026 http mcp "$ECHO2026" "$ROOT/tests/servers/ts_v2_server.mjs" http modern
else
  log "8. skipped: tests/interop/node_modules/@modelcontextprotocol/server is missing (make interop-deps)"
fi

# ---- floors ----
log "floors: a plain JSON parse of the 10 MiB message (the pipe floors ran with workload 2)"
for r in $(seq 1 3); do
  line=$("$B/bench-floor-json" "$BIG_BYTES")
  printf '{"workload":"floor_json","server":"-","client":"floor","run":%s,%s\n' "$r" "${line#\{}" >>"$OUT"
  line=$(node "$ROOT/bench/floor_json.mjs" "$BIG_BYTES")
  printf '{"workload":"floor_json","server":"-","client":"floor-node","run":%s,%s\n' "$r" "${line#\{}" >>"$OUT"
done

# ---- 9. whole commands, counted (mcphost and the candidate) ----
# The footprint guard's workloads (footprint.py measure: callgrind's
# instructions of the process and of its forked children, GNU time's
# peak RSS), and GNU time's peak RSS of `batch` given 2,000 echo calls at
# once and of one `call` of the servers with non-ASCII names.
BUILDS=(mcphost)
[ -n "$CAND" ] && BUILDS+=(candidate)
build_dir() { [ "$1" = candidate ] && echo "$CAND" || echo "$BUILD"; }
if command -v valgrind >/dev/null && [ -x /usr/bin/time ]; then
  log "9. whole commands: instructions (callgrind) and peak RSS (GNU time)"
  for c in "${BUILDS[@]}"; do
    # serve --stdio is newer than some candidates: counted where it runs.
    ws=version,tools,batch,big,plugins,names
    "$(build_dir "$c")/bin/mcphost" serve --help >/dev/null 2>&1 && ws=$ws,serve
    # Both builds against this build's server, detach helper and shim
    # (--peer): the same peer, and a candidate older than them measured.
    python3 "$ROOT/bench/footprint.py" measure --build "$(build_dir "$c")" --peer "$BUILD" --only "$ws" \
      2>>"$RAW/footprint-$c.log" | while read -r line; do
      line=${line/\"workload\"/\"step\"}
      printf '{"workload":"footprint","server":"-","client":"%s","run":1,%s\n' "$c" "${line#\{}" >>"$OUT"
    done || log "footprint.py measure failed for $c (see $RAW/footprint-$c.log)"
  done
else
  log "9. skipped: valgrind or GNU time (/usr/bin/time) is missing"
fi
if [ -x /usr/bin/time ]; then
  for i in $(seq 1 "$SEQ_CALLS"); do
    printf '{"id":%d,"call":"s/echo","arguments":{"message":"hello from the benchmark"}}\n' "$i"
  done >batch-at-once.txt
  # GNU time's %M moves by 128-136 KiB between runs of one binary (the
  # kernel's per-CPU counters): the median of many short runs, the
  # builds taking turns.
  for r in $(seq 1 "$WHOLE_RUNS"); do
    for c in "${BUILDS[@]}"; do
      for w in batch:c call:intl call:icu; do
        s=${w#*:}
        if [ "${w%%:*}" = batch ]; then
          args=(batch) in=batch-at-once.txt
        else
          args=(call s/echo message=hi) in=/dev/null
        fi
        /usr/bin/time -f %M -o "$RAW/time.out" "$(build_dir "$c")/bin/mcphost" --config "$s.json" \
          "${args[@]}" <"$in" >/dev/null 2>>"$RAW/stderr-whole-$c.log" ||
          log "errors: ${w%%:*} $s $c run $r"
        printf '{"workload":"whole_%s","server":"%s","client":"%s","run":%s,"rss_kb":%s}\n' \
          "${w%%:*}" "$s" "$c" "$r" "$(tail -1 "$RAW/time.out")" >>"$OUT"
      done
    done
  done
fi

# The load average at the end, beside the one at the start.
sed -i "s/}\$/,\"load_end\":\"$(cut -d' ' -f1-3 /proc/loadavg)\"}/" "$RAW/machine.json"

log "report"
node "$ROOT/bench/report.mjs" "$RAW"
