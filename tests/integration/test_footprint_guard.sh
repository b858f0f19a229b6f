#!/bin/bash
# The footprint guard (bench/footprint.py) catches a regression: a library
# preloaded into mcphost that spins before main makes the workload cost
# more instructions, and the check fails naming the workload, the figure
# and the function that spun. Against a baseline of its own, made here,
# so that it holds on any toolchain.
. "$(dirname "$0")/../lib/lib.sh"
G="$SRCDIR/bench/footprint.py"
SPIN="$BUILDDIR/tests/libfootprint-spin.so"
B="$TMP/baseline"
command -v python3 >/dev/null || skip_test "no python3"

run_cmd python3 "$G" update --build "$BUILDDIR" --baseline "$B" \
  --only version --why "the test's own baseline"
[ "$RC" -eq 77 ] && skip_test "$OUT"
expect "a baseline is written" 0 --out "wrote $B"
check "  it names the environment the counts hold for" \
  grep -q "^# environment: .*valgrind" "$B"
check "  and says why each line last moved" \
  grep -q "^version .*# the test's own baseline$" "$B"

run_cmd python3 "$G" check --build "$BUILDDIR" --baseline "$B" --only version
expect "the same build is within its baseline" 0 --out "version" --out "ok"

FOOTPRINT_PRELOAD="$SPIN" run_cmd python3 "$G" check --build "$BUILDDIR" \
  --baseline "$B" --only version
expect "a spinning mcphost exceeds it: the check fails" 1 \
  --out "OVER: instructions" --out "cold \`mcphost --version\` exceeds" \
  --out "make baseline WHY="
expect "  with the top functions, the spinning one among them" 1 \
  --out "top 25 by self instructions" --out "footprint_spin"

# 200 KiB more resident, held to the exit (tests/footprint/grow.c),
# against a baseline counted with the same library preloaded making
# nothing resident: a few hundred instructions more, within their margin,
# and within the peak's slack (256 KiB: %M moves by ~130 KiB between
# runs); the RSS at exit, read from the page tables, repeats to the KiB
# on one machine and catches it: 72 KiB over its slack (128 KiB).
GROW="$BUILDDIR/tests/libfootprint-grow.so"
GROW0="$BUILDDIR/tests/libfootprint-grow0.so"
GB="$TMP/grow-baseline"
FOOTPRINT_PRELOAD="$GROW0" run_cmd python3 "$G" update --build "$BUILDDIR" \
  --baseline "$GB" --only version --why "the test's own baseline"
expect "a baseline with the library that makes nothing resident" 0 \
  --out "wrote $GB"
FOOTPRINT_PRELOAD="$GROW0" run_cmd python3 "$G" check --build "$BUILDDIR" \
  --baseline "$GB" --only version
expect "  the same run again is within it" 0 --out "version" --out "ok"
FOOTPRINT_PRELOAD="$GROW" run_cmd python3 "$G" check --build "$BUILDDIR" \
  --baseline "$GB" --only version
expect "200 KiB more resident at the exit fails the check" 1 \
  --out "exit_kib by kind" --out "make baseline WHY=" \
  --no-out "OVER: instructions"
check "  naming the figure and its baseline" \
  grep -q "^  exit_kib [0-9]*, baseline [0-9]*" <<<"$OUT"

# A baseline lowered by hand: a peak RSS over it fails too.
sed -E 's/^(version +[0-9]+ +[0-9]+ +)[0-9]+/\1100/' "$B" >"$TMP/low"
run_cmd python3 "$G" check --build "$BUILDDIR" --baseline "$TMP/low" \
  --only version
expect "a peak RSS over the baseline fails" 1 --out "OVER: rss_kib"

# rss_kib is mcphost's own peak: the 10 MiB result's server (which holds
# it more than twice) is not counted as mcphost's (GNU time's %M of a
# process counts the children it waited for: bench/servers/detach.c).
run_cmd python3 "$G" update --build "$BUILDDIR" --baseline "$B" --only big \
  --why "the test's own baseline"
expect "the big workload is measured" 0 --out "big "
BIG_RSS=$(awk '$1 == "big" {print $4}' "$B")
check "  its peak RSS is mcphost's: one copy of the result and at most \
5 MiB more ($BIG_RSS KiB)" test "$BIG_RSS" -le $((15 * 1024))

# Another toolchain's counts are not comparable: skipped, said why.
sed 's/^# environment: .*/# environment: another compiler/' "$B" >"$TMP/other"
run_cmd python3 "$G" check --build "$BUILDDIR" --baseline "$TMP/other" \
  --only version
expect "a baseline of another toolchain is skipped (77), saying so" 77 \
  --out "another compiler" --out "make baseline regenerates"
finish
