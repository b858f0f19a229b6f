#!/usr/bin/env bash
# Bundle install against the official CLI's unpack, in one run:
# wall time and peak RSS of `mcphost bundle install --yes` (read, trailer,
# signature, manifest, safe extraction, settings) and of `mcpb unpack`
# (@anthropic-ai/mcpb 2.1.2: whole archive inflated in memory, written
# out), for the hello-node sample and a 50 MiB bundle (random bytes:
# incompressible, so 50 MiB read and 50 MiB written).
#   bench/bundles.sh [BUILD_DIR] [RUNS]   (default build, 7)
# Writes bench/results/bundles-<date>.md. Not a test: figures only.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$SRC/build}
RUNS=${2:-7}
M="$BUILD/bin/mcphost"
MCPB="$SRC/tests/interop/node_modules/.bin/mcpb"
W=$(mktemp -d "${TMPDIR:-/tmp}/mcpb-bench.XXXXXX")
trap 'rm -rf "$W"' EXIT
export HOME="$W/home" XDG_STATE_HOME="$W/state" XDG_CONFIG_HOME="$W/config"
export XDG_DATA_HOME="$W/data" MCPHOST_SYSTEM_CONFIG_DIR="$W/system"
mkdir -p "$HOME"

cp "$SRC/tests/fixtures/mcpb/hello-node-1.0.0.mcpb" "$W/hello-node.mcpb"
mkdir -p "$W/big/server"
cp "$SRC/tests/fixtures/mcpb/src/hello-bin/manifest.json" "$W/big/"
cp -r "$SRC/tests/fixtures/mcpb/src/hello-bin/"* "$W/big/"
for i in $(seq 10); do
  head -c $((5 << 20)) /dev/urandom >"$W/big/server/blob$i.bin"
done
(cd "$W" && "$MCPB" pack big "$W/big.mcpb" >/dev/null)

# measure NAME CMD...: RUNS runs; prints "median_s max_rss_kib".
measure() {
  local times=() rss=() i
  for i in $(seq "$RUNS"); do
    rm -rf "$XDG_DATA_HOME" "$W/out"
    /usr/bin/time -f "%e %M" -o "$W/t" "$@" >/dev/null 2>&1 </dev/null
    read -r t r <"$W/t"
    times+=("$t")
    rss+=("$r")
  done
  local mt mr
  mt=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
  mr=$(printf '%s\n' "${rss[@]}" | sort -n | sed -n "$(((RUNS + 1) / 2))p")
  echo "$mt $mr"
}

out="$SRC/bench/results/bundles-$(date -u +%Y-%m-%d).md"
{
  echo "# Bundle install vs mcpb unpack ($(date -u +%Y-%m-%d), $RUNS runs, medians)"
  echo
  echo "| bundle | size | mcphost bundle install | RSS | mcpb unpack | RSS | time ratio | RSS ratio |"
  echo "|---|---|---|---|---|---|---|---|"
  for b in hello-node big; do
    f="$W/$b.mcpb"
    size=$(stat -c %s "$f")
    cfg=()
    [ "$b" = hello-node ] && cfg=(--config allowed_dirs=/tmp)
    read -r mt mr < <(measure "$M" bundle install "$f" --yes "${cfg[@]}")
    read -r ot or < <(measure "$MCPB" unpack "$f" "$W/out")
    echo "| $b | $size B | ${mt} s | ${mr} KiB | ${ot} s | ${or} KiB | $(echo "scale=1; $ot / $mt" | bc 2>/dev/null || echo -) | $(echo "scale=1; $or / $mr" | bc 2>/dev/null || echo -) |"
  done
  echo
  echo "Machine: $(nproc) cores, $(uname -sr). mcphost: $BUILD; mcpb: @anthropic-ai/mcpb $("$MCPB" --version 2>/dev/null)."
} | tee "$out"
