#!/usr/bin/env bash
# `mcphost call` through a running session (docs/sessions.md) against a
# cold `mcphost call` (the server started for the call) and against a raw
# pipe round trip, in one run; writes bench/results/session-<date>.md.
#
#   bench/session.sh            # the build in build/ (BENCH_BUILD=DIR)
#   BENCH_RUNS=50 bench/session.sh
#
# Two servers: the C demo server (its start costs little) and the
# reference server-everything on Node.js (tests/interop, pinned), whose
# start is what a session saves. `/bin/true` is the floor of any command
# (starting a process); `mcphost --version` starts the host (plugins
# loaded), which a command through a session skips. Needs hyperfine (bench/deps.sh), jq, cc.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$(cd "$ROOT" && realpath -m "${BENCH_BUILD:-build}")
RUNS=${BENCH_RUNS:-30}
M=$BUILD/bin/mcphost
DEMO=$BUILD/bin/mcphost-demo-server
EVERY=$ROOT/tests/interop/node_modules/@modelcontextprotocol/server-everything/dist/index.js
for need in "$M" "$DEMO" "$EVERY"; do
  [ -e "$need" ] || { echo "bench/session.sh: $need is missing" >&2; exit 1; }
done
command -v hyperfine >/dev/null || { echo "bench/session.sh: no hyperfine (bench/deps.sh)" >&2; exit 1; }

T=$(mktemp -d "${TMPDIR:-/tmp}/mcphost-bench-session.XXXXXX")
export HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_STATE_HOME=$T/state
export XDG_RUNTIME_DIR=$T/run MCPHOST_SYSTEM_CONFIG_DIR=$T/system
mkdir -p "$HOME" && mkdir -m 700 "$XDG_RUNTIME_DIR"
cleanup() {
  (cd "$T" && "$M" --config "$T/servers.json" session stop >/dev/null 2>&1) || true
  (cd "$T" && "$ROOT/bench/node_modules/.bin/mcporter" daemon stop >/dev/null 2>&1) || true
  "$ROOT/bench/node_modules/.bin/mcpc" close @demo >/dev/null 2>&1 || true
  "$ROOT/bench/node_modules/.bin/mcpc" close @every >/dev/null 2>&1 || true
  rm -rf "$T"
}
trap cleanup EXIT
cd "$T"
printf '{"mcpServers": {"demo": {"command": "%s"}, "every": {"command": "node", "args": ["%s", "stdio"]}}}\n' \
  "$DEMO" "$EVERY" >"$T/servers.json"

cc -O2 -o "$T/floor-pipe" "$ROOT/bench/floor_pipe.c"
pipe_us=$("$T/floor-pipe" --hops 1 --calls 5000 | jq .lat_p50_us)

DEMO_CALL="$M --config $T/servers.json call demo/echo message=hi"
EVERY_CALL="$M --config $T/servers.json call every/echo message=hi"
"$M" --config "$T/servers.json" session start --idle 10 >/dev/null
# The servers connected once, before the warm runs.
$DEMO_CALL >/dev/null && $EVERY_CALL >/dev/null

# The peers' daemons, when bench/node_modules has them (bench/package.json
# pins mcporter and mcpc; `make bench` installs them): mcporter's
# keep-alive daemon and an mcpc session, each warmed once as ours is.
peers=()
MCPORTER=$ROOT/bench/node_modules/.bin/mcporter
MCPC=$ROOT/bench/node_modules/.bin/mcpc
if [ -x "$MCPORTER" ] && [ -x "$MCPC" ]; then
  mkdir -p "$T/config"
  jq '.mcpServers |= map_values(. + {lifecycle: "keep-alive"})' \
    "$T/servers.json" >"$T/config/mcporter.json"
  cp "$T/servers.json" "$T/mcpc.json"
  "$MCPORTER" call demo.echo message=hi >/dev/null
  "$MCPORTER" call every.echo message=hi >/dev/null
  "$MCPC" connect "$T/mcpc.json:demo" @demo >/dev/null
  "$MCPC" connect "$T/mcpc.json:every" @every >/dev/null
  peers=(-n mcporter-demo "$MCPORTER call demo.echo message=hi"
    -n mcpc-demo "$MCPC @demo tools-call echo message:=hi"
    -n mcporter-every "$MCPORTER call every.echo message=hi"
    -n mcpc-every "$MCPC @every tools-call echo message:=hi")
fi
hyperfine -N --runs "$RUNS" --warmup 3 --export-json "$T/h.json" \
  -n exec /bin/true \
  -n version "$M --version" \
  -n demo-cold "$M --no-session --config $T/servers.json call demo/echo message=hi" \
  -n demo-session "$DEMO_CALL" \
  -n every-cold "$M --no-session --config $T/servers.json call every/echo message=hi" \
  -n every-session "$EVERY_CALL" "${peers[@]}" >"$T/hyperfine.txt"

med() { jq -r --arg n "$1" '.results[] | select(.command == $n) | .median * 1000' "$T/h.json"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3g", a / b }'; }
ms() { awk -v a="$1" 'BEGIN { printf "%.2f", a }'; }
x=$(med exec) v=$(med version)
dc=$(med demo-cold) ds=$(med demo-session)
ec=$(med every-cold) es=$(med every-session)
pipe_ms=$(awk -v u="$pipe_us" 'BEGIN { printf "%.4f", u / 1000 }')

out=$ROOT/bench/results/session-$(date +%Y-%m-%d).md
{
  echo "# mcphost call through a session ($(date +%Y-%m-%d), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
  echo
  echo "bench/session.sh, $RUNS runs each (hyperfine -N, medians); the command:"
  echo "\`mcphost --config servers.json call SERVER/echo message=hi\`."
  echo
  echo "| what | median ms | ÷ cold | ÷ pipe round trip |"
  echo "|---|---|---|---|"
  echo "| raw pipe round trip (bench-floor-pipe --hops 1) | $pipe_ms | | 1 |"
  echo "| \`/bin/true\` (starting a process) | $(ms "$x") | | $(ratio "$x" "$pipe_ms") |"
  echo "| \`mcphost --version\` (starting the host: plugins loaded) | $(ms "$v") | | $(ratio "$v" "$pipe_ms") |"
  echo "| demo (C) server, cold: \`--no-session\` | $(ms "$dc") | 1 | $(ratio "$dc" "$pipe_ms") |"
  echo "| demo (C) server, through the session | $(ms "$ds") | $(ratio "$ds" "$dc") | $(ratio "$ds" "$pipe_ms") |"
  echo "| server-everything (Node.js), cold | $(ms "$ec") | 1 | $(ratio "$ec" "$pipe_ms") |"
  echo "| server-everything (Node.js), through the session | $(ms "$es") | $(ratio "$es" "$ec") | $(ratio "$es" "$pipe_ms") |"
  if [ ${#peers[@]} -gt 0 ]; then
    for p in mcporter mcpc; do
      for srv in demo every; do
        v=$(med "$p-$srv")
        ours=$ds
        [ "$srv" = every ] && ours=$es
        echo "| $srv server through $( [ $p = mcporter ] && echo "mcporter's keep-alive daemon" || echo "an mcpc session") | $(ms "$v") | | $(ratio "$v" "$pipe_ms") (mcphost's session: $(ratio "$v" "$ours")x faster) |"
      done
    done
  fi
  echo
  echo "A call through the session less \`/bin/true\`: demo $(ms "$(awk -v a="$ds" -v b="$x" 'BEGIN{print a-b}')") ms,"
  echo "server-everything $(ms "$(awk -v a="$es" -v b="$x" 'BEGIN{print a-b}')") ms (the hand-over, the call in the session, the"
  echo "answer); the issue's target, a warm call within 2x a raw pipe round trip"
  echo "plus the server's own time, is met when that is at most 2 x $pipe_ms ms"
  echo "plus the server's time."
  echo
  echo '```'
  cat "$T/hyperfine.txt"
  echo '```'
} >"$out"
cat "$out"
