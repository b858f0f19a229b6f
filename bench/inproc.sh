#!/usr/bin/env bash
# In-process servers ("type": "sdk") against stdio, through the client
# library (bench-inproc, inproc.c): calls per second and CPU per call of
# the same echo tool, sequential and with 64 calls in flight, the median
# of BENCH_RUNS runs (default 5) taking turns; then the instructions per
# call of each (callgrind, the difference of 1,000 and 3,000 calls over
# 2,000: start-up and the warm-up cancel out). Writes
# results/inproc-<date>.md; run alone, not by run.sh.
#
# With --api LOOP the same through the public library (bench-inproc-api,
# inproc_api.c: libmcphost.so.1, <mcphost/client.h> alone) with the loop
# on the library's thread (thread) or the caller's (caller); writes
# results/inproc-api-LOOP-<date>.md.
#
#   bench/inproc.sh [--api thread|caller] [BUILD]
#                               (default build-bench; -DMCPHOST_BENCH=ON)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prog=bench-inproc src=inproc.c api=() name=inproc
how="through mcp_client_start as batch calls it"
if [ "${1:-}" = --api ]; then
  case ${2:-} in thread | caller) ;; *) echo "bench/inproc.sh: --api thread|caller" >&2; exit 2 ;; esac
  prog=bench-inproc-api src=inproc_api.c api=(--loop "$2") name=inproc-api-$2
  how="through libmcphost.so.1 (mcphost_start, the loop on the $([ "$2" = thread ] && echo "library's thread" || echo "caller's thread"))"
  shift 2
fi
build=$(cd "${1:-$here/../build-bench}" && pwd)
bin="$build/bin"
runs=${BENCH_RUNS:-5}
calls=${BENCH_CALLS:-20000}
for f in $prog bench-demo-server; do
  [ -x "$bin/$f" ] || { echo "bench/inproc.sh: no $bin/$f (configure with -DMCPHOST_BENCH=ON)" >&2; exit 2; }
done
command -v jq >/dev/null || { echo "bench/inproc.sh: needs jq" >&2; exit 2; }
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
server=(--server "$bin/bench-demo-server")

one() { # one MODE INFLIGHT: one run's JSON line
  "$bin/$prog" "$1" --calls "$calls" --inflight "$2" "${server[@]}" "${api[@]}"
}
for ((r = 0; r < runs; r++)); do
  for k in 1 64; do
    if ((r % 2)); then order="stdio sdk"; else order="sdk stdio"; fi
    for m in $order; do one "$m" "$k" >>"$raw/$m-$k.jsonl"; done
  done
done
median() { # median FILE FIELD
  jq -s "map(.$2) | sort | .[length / 2 | floor]" "$1"
}
instr() { # instr MODE [FN]: instructions per call, of the process or of FN
  local n t=()
  for n in 1000 3000; do
    valgrind --tool=callgrind --callgrind-out-file="$raw/cg.$1.$n" \
      "$bin/$prog" "$1" --calls "$n" "${server[@]}" "${api[@]}" >/dev/null 2>&1
    if [ -n "${2:-}" ]; then
      t+=("$(callgrind_annotate --inclusive=yes "$raw/cg.$1.$n" |
        grep -m1 -F "$2 [" | awk '{gsub(",", "", $1); print $1}')")
    else
      t+=("$(callgrind_annotate "$raw/cg.$1.$n" | grep -m1 'PROGRAM TOTALS' |
        awk '{gsub(",", "", $1); print $1}')")
    fi
  done
  echo $(((t[1] - t[0]) / 2000))
}
# stdio_both: instructions per call of the client and the server it
# execs together (callgrind traces the child too, one file each).
stdio_both() {
  local n t=()
  for n in 1000 3000; do
    mkdir -p "$raw/both.$n"
    valgrind --tool=callgrind --trace-children=yes \
      --callgrind-out-file="$raw/both.$n/cg.%p" \
      "$bin/$prog" stdio --calls "$n" "${server[@]}" "${api[@]}" >/dev/null 2>&1
    t+=("$(for f in "$raw/both.$n"/cg.*; do
      callgrind_annotate "$f" | grep -m1 'PROGRAM TOTALS' |
        awk '{gsub(",", "", $1); print $1}'
    done | awk '{s += $1} END {print s}')")
  done
  echo $(((t[1] - t[0]) / 2000))
}
sdk_all=$(instr sdk)
sdk_srv=$(instr sdk "bench/$src:on_message")
stdio_all=$(instr stdio)
stdio_sum=$(stdio_both)

date=$(date -u +%Y-%m-%d)
out="$here/results/$name-$date.md"
rev=$(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
  echo "# In-process servers against stdio${api:+ through the public library, the loop on ${api[1]}}, $date"
  echo
  echo "bench/inproc.sh against the build $(basename "$build") (mcphost $rev, $(sed -n "s/^CMAKE_BUILD_TYPE:[A-Z]*=//p" "$build/CMakeCache.txt")), $(nproc) cores,"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg). $calls calls a run, the"
  echo "median of $runs runs; the same echo tool, $how."
  echo "CPU is this process's ($prog): for sdk the"
  echo "server's work is in it, for stdio the server is another process,"
  echo "whose CPU per call is given beside it."
  echo
  echo "| figure | sdk (in-process) | stdio (bench-demo-server) | in-process ahead by |"
  echo "|---|---|---|---|"
  for k in 1 64; do
    what=$([ "$k" = 1 ] && echo "sequential" || echo "64 in flight")
    s=$(median "$raw/sdk-$k.jsonl" calls_per_s)
    t=$(median "$raw/stdio-$k.jsonl" calls_per_s)
    echo "| calls per second, $what | $s | $t | $(jq -n "$s / $t * 100 | round / 100")× |"
    s=$(median "$raw/sdk-$k.jsonl" cpu_us_per_call)
    t=$(median "$raw/stdio-$k.jsonl" cpu_us_per_call)
    u=$(median "$raw/stdio-$k.jsonl" server_cpu_us_per_call)
    echo "| CPU per call, $what (µs): the client process | $s | $t (+ $u the server's) | $(jq -n "($t + $u) / $s * 100 | round / 100")× (the server's CPU included) |"
  done
  echo "| instructions per call, client and server (callgrind) | $sdk_all | $stdio_sum | $(jq -n "$stdio_sum / $sdk_all * 100 | round / 100")× |"
  echo "| instructions per call, the client alone | $((sdk_all - sdk_srv)) | $stdio_all | $(jq -n "$stdio_all / ($sdk_all - $sdk_srv) * 100 | round / 100")× |"
  echo "| instructions per call, the server alone | $sdk_srv | $((stdio_sum - stdio_all)) | – |"
  echo
  echo "Instructions are user space only (callgrind): the pipe's system"
  echo "calls (a write and a read each way, an epoll_wait per turn) are"
  echo "in the CPU figures, not here. The in-process server is the same"
  echo "work as the C server's (cJSON parse, answer built with cJSON)."
} >"$out"
cat "$out"
