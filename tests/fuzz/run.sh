#!/bin/bash
# make fuzz: builds the libFuzzer binaries with clang in a build directory
# of their own and runs each for FUZZ_TIME seconds on a scratch copy of its
# seed corpus (the tree's corpus is only read). Fails on any finding and
# prints the path of the input at fault.
#   FUZZ_TIME=60        seconds per target
#   FUZZ_TARGETS=a,b    only these targets (default: every one)
#   FUZZ_JOBS=N         targets run at once (default and at most: nproc)
#   FUZZ_BUILD=dir      build directory (default build-fuzz)
#   FUZZ_ARGS='...'     more libFuzzer options, e.g. -runs=10000000
set -u
cd "$(dirname "$0")/../.."
build=${FUZZ_BUILD:-build-fuzz}
time=${FUZZ_TIME:-60}
cores=$(nproc)
jobs=${FUZZ_JOBS:-$cores}
[ "$jobs" -ge 1 ] && [ "$jobs" -le "$cores" ] || jobs=$cores

mkdir -p "$build"
if ! CC=clang cmake -S . -B "$build" -DMCPHOST_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/configure.log" 2>&1; then
  cat "$build/configure.log"
  echo "fuzz: configure failed" >&2
  exit 1
fi
if ! cmake --build "$build" --target fuzz_all -j"$jobs"; then
  echo "fuzz: build failed" >&2
  exit 1
fi

specs="$build/tests/fuzz/targets"
if [ -n "${FUZZ_TARGETS:-}" ]; then
  names=$(echo "$FUZZ_TARGETS" | tr ',' ' ')
else
  names=$(cd "$specs" && ls -- *.txt | sed 's/\.txt$//')
fi
for n in $names; do
  if [ ! -f "$specs/$n.txt" ]; then
    echo "fuzz: no target '$n' (known: $(cd "$specs" && ls -- *.txt |
      sed 's/\.txt$//' | tr '\n' ' '))" >&2
    exit 2
  fi
done

# One target: scratch corpus and artifacts under BUILD/fuzz-run/NAME.
fuzz_one() {
  local n=$1 bin="" dict="" kind path
  local dir="$build/fuzz-run/$n"
  rm -rf "$dir"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  while read -r kind path; do
    case $kind in
      bin) bin=$path ;;
      dict) dict=$path ;;
      corpus)
        if [ -d "$path" ]; then
          find "$path" -maxdepth 1 -type f ! -name '.*' \
            -exec cp -t "$dir/corpus" {} +
        else
          cp "$path" "$dir/corpus/"
        fi ;;
    esac
  done <"$specs/$n.txt"
  local args=(-max_total_time="$time" -print_final_stats=1 -timeout=10
    -rss_limit_mb=2048 -artifact_prefix="$dir/artifacts/")
  [ -n "$dict" ] && args+=(-dict="$dict")
  # shellcheck disable=SC2206
  args+=(${FUZZ_ARGS:-})
  "$bin" "${args[@]}" "$dir/corpus" >"$dir/log" 2>&1
  local rc=$?
  local runs speed
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log")
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$dir/log")
  local found
  found=$(find "$dir/artifacts" -type f | sort)
  if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
    echo "fuzz $n: FAILED (exit $rc), log $dir/log"
    grep -m 3 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$dir/log"
    for f in $found; do
      echo "fuzz $n: input at fault: $f"
    done
    return 1
  fi
  echo "fuzz $n: ok, ${runs:-?} runs, ${speed:-?} exec/s"
}

failed=0
running=0
for n in $names; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || failed=$((failed + 1))
    running=$((running - 1))
  fi
  fuzz_one "$n" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=$((failed + 1))
  running=$((running - 1))
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: $failed target(s) with findings" >&2
  exit 1
fi
echo "fuzz: every target ran ${time}s without a finding"
