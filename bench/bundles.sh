#!/usr/bin/env bash
# Bundle install against the official CLI's unpack, in one run:
# wall time and peak RSS of `mcphost bundle install --yes` (trailer,
# signature, manifest, safe extraction, settings; the file read a block at
# a time) and of `mcpb unpack` (@anthropic-ai/mcpb 2.1.2: whole archive
# inflated in memory, written out), for the hello-node sample, a 50 MiB
# and a 150 MiB bundle (random bytes: incompressible, so 50 MiB read and
# 50 MiB written). mcphost's peak RSS should not grow with the bundle.
#   bench/bundles.sh [BUILD_DIR] [RUNS]   (default build-bench, 7)
# BUILD_DIR without bin/mcphost is configured and built (Release, as
# `make bench` does); the mcpb CLI comes from tests/interop/node_modules
# (npm ci there when missing, as `make interop-deps` does).
# BENCH_CANDIDATE=DIR (a build directory with bin/mcphost, say main's)
# adds its install time and RSS, measured in the same run.
# Writes bench/results/bundles-<date>.md. Not a test: figures only.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "$SRC" && realpath -m "${1:-build-bench}")
RUNS=${2:-7}
M="$BUILD/bin/mcphost"
CAND=""
if [ -n "${BENCH_CANDIDATE:-}" ]; then
  CAND=$(cd "$SRC" && realpath "$BENCH_CANDIDATE")
  [ -x "$CAND/bin/mcphost" ] || {
    echo "bundles: $CAND/bin/mcphost is missing" >&2
    exit 1
  }
fi
if [ ! -x "$M" ]; then
  cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release \
    -DMCPHOST_BENCH=ON -DMCPHOST_TESTS=OFF >/dev/null
  cmake --build "$BUILD" -j"$(nproc)" >/dev/null
fi
MCPB="$SRC/tests/interop/node_modules/.bin/mcpb"
if [ ! -x "$MCPB" ]; then
  (cd "$SRC/tests/interop" && npm ci --no-audit --no-fund >/dev/null)
fi
W=$(mktemp -d "${TMPDIR:-/tmp}/mcpb-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
export HOME="$W/home" XDG_STATE_HOME="$W/state" XDG_CONFIG_HOME="$W/config"
export XDG_DATA_HOME="$W/data" MCPHOST_SYSTEM_CONFIG_DIR="$W/system"
mkdir -p "$HOME"

cp "$SRC/bundles/testdata/hello-node-1.0.0.mcpb" "$W/hello-node.mcpb"
# big: 10 blobs of 5 MiB; big150: 30 of them.
for b in big:10 big150:30; do
  name=${b%:*}
  mkdir -p "$W/$name/server"
  cp -r "$SRC/bundles/testdata/src/hello-bin/"* "$W/$name/"
  for i in $(seq "${b#*:}"); do
    head -c $((5 << 20)) /dev/urandom >"$W/$name/server/blob$i.bin"
  done
  (cd "$W" && "$MCPB" pack "$name" "$W/$name.mcpb" >/dev/null)
  rm -rf "${W:?}/$name"
done

# measure CMD...: RUNS runs; prints "median_s median_max_rss_kib
# median_cpu_s" (CPU: user + system, which the load moves less).
measure() {
  local times=() rss=() cpu=() i
  for i in $(seq "$RUNS"); do
    rm -rf "$XDG_DATA_HOME" "$W/out"
    /usr/bin/time -f "%e %M %U %S" -o "$W/t" "$@" >/dev/null 2>&1 </dev/null
    read -r t r u s <"$W/t"
    times+=("$t")
    rss+=("$r")
    cpu+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')")
  done
  echo "$(median "${times[@]}") $(median "${rss[@]}") $(median "${cpu[@]}")"
}
median() {
  printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"
}

ratio() {
  awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'
}

out="$SRC/bench/results/bundles-$(date -u +%Y-%m-%d).md"
load0=$(cut -d' ' -f1 /proc/loadavg)
{
  echo "# Bundle install vs mcpb unpack ($(date -u +%Y-%m-%d), $RUNS runs, medians)"
  echo
  head="| bundle | size | mcphost bundle install | RSS | mcpb unpack | RSS | time ratio | RSS ratio |"
  rule="|---|---|---|---|---|---|---|---|"
  if [ -n "$CAND" ]; then
    head="$head candidate install | RSS |"
    rule="$rule---|---|"
  fi
  echo "$head"
  echo "$rule"
  cpu="| CPU s (user + system) | mcphost | mcpb unpack | ratio |${CAND:+ candidate |}"
  cpu="$cpu
|---|---|---|---|${CAND:+---|}"
  for b in hello-node big big150; do
    f="$W/$b.mcpb"
    size=$(stat -c %s "$f")
    cfg=()
    [ "$b" = hello-node ] && cfg=(--config allowed_dirs=/tmp)
    read -r mt mr mc < <(measure "$M" bundle install "$f" --yes "${cfg[@]}")
    read -r ot or oc < <(measure "$MCPB" unpack "$f" "$W/out")
    row="| $b | $size B | ${mt} s | ${mr} KiB | ${ot} s | ${or} KiB | $(ratio "$ot" "$mt") | $(ratio "$or" "$mr") |"
    crow="| $b | $mc | $oc | $(ratio "$oc" "$mc") |"
    if [ -n "$CAND" ]; then
      read -r ct cr cc < <(measure "$CAND/bin/mcphost" bundle install "$f" \
        --yes "${cfg[@]}")
      row="$row ${ct} s | ${cr} KiB |"
      crow="$crow $cc |"
    fi
    echo "$row"
    cpu="$cpu
$crow"
  done
  echo
  echo "$cpu"
  echo
  echo "Machine: $(nproc) cores, $(uname -sr); load average $load0 at the start, $(cut -d' ' -f1 /proc/loadavg) at the end (times are wall clock: they move with the load, RSS does not). mcphost: $BUILD; mcpb: @anthropic-ai/mcpb $("$MCPB" --version 2>/dev/null)${CAND:+; candidate: $CAND}."
} | tee "$out"
