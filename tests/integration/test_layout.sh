#!/bin/bash
# The executable's layout (docs/architecture.md, "The executable's
# layout"): the functions bench/footprint.hot lists are one block at the
# start of the one .text, the listed source files' read-only data comes
# first in .rodata, the Unicode tables right after it (before the other
# files'), and
# `footprint.py hot` (make baseline) lists what a run calls and not what
# it does not. Left in source order, a `tools` run had all 412 KiB of
# the code resident (the kernel maps 64 KiB around each page touched).
# The exit code (_fini) is among the first code too.
. "$(dirname "$0")/../lib/lib.sh"
LIST="$SRCDIR/bench/footprint.hot"
for tool in nm readelf objdump awk; do
  command -v $tool >/dev/null || skip_test "no $tool"
done
grep -q '^MCPHOST_LINK_HOT_FIRST:INTERNAL=1$' "$BUILDDIR/CMakeCache.txt" ||
  skip_test "this build's linker takes no script fragment (cli/CMakeLists.txt)"

# Where .text starts (readelf: "[16] .text PROGBITS ADDRESS ...").
TEXT_START=$(readelf -SW "$MCPHOST" |
  sed -n 's/.*\] \.text  *PROGBITS  *\([0-9a-f]*\) .*/\1/p')
check "the executable has one .text" \
  test "$(readelf -SW "$MCPHOST" | grep -c ' \.text ')" -eq 1

# Every function symbol: address, listed (1) or not (0), name. A symbol's
# base name is the function's (GCC's foo.constprop.0, foo.cold are foo's).
grep -E '^[A-Za-z_][A-Za-z0-9_]*$' "$LIST" >"$TMP/hot"
nm --defined-only "$MCPHOST" | awk -v list="$TMP/hot" '
  BEGIN { while ((getline f < list) > 0) hot[f] = 1 }
  $2 ~ /^[tT]$/ { base = $3; sub(/\..*/, "", base)
                  print $1, (base in hot) ? 1 : 0, $3 }' |
  sort >"$TMP/syms"
check "  the list names functions the executable has ($(wc -l <"$TMP/hot"))" \
  test "$(awk '$2 == 1' "$TMP/syms" | wc -l)" -gt 100
# From the first listed function to the last, nothing unlisted.
awk '$2 == 1 { if (!first) first = NR; last = NR }
     { line[NR] = $0 }
     END { for (i = first; i <= last; i++) {
             split(line[i], f, " ")
             if (f[2] == 0) print f[3] } }' "$TMP/syms" >"$TMP/between"
check "  the listed functions are one block, nothing else among them\
 ($(head -3 "$TMP/between" | tr '\n' ' '))" test ! -s "$TMP/between"
FIRST=$(awk '$2 == 1 { print $1; exit }' "$TMP/syms")
check "  at the start of .text, after the C runtime's start-up code" \
  test $((16#$FIRST - 16#$TEXT_START)) -lt 4096
# The exit code (_fini, .fini) runs in every process: among the first
# code, not alone in the last 64 KiB of it (where the default script
# puts it).
FINI=$(nm --defined-only "$MCPHOST" | awk '$3 == "_fini" { print $1 }')
check "  the exit code _fini before them" \
  test -n "$FINI" -a $((16#${FINI:-0} - 16#$TEXT_START)) -lt 4096
check "  cli_main among them, the shell's cmd_shell after them" \
  awk '$3 == "cli_main" { m = "x" $1 } $3 == "cmd_shell" { s = "x" $1 }
       END { exit !(m != "" && s != "" && m < s) }' "$TMP/syms"

# Every segment aligned to 64 KiB, the kernel's fault-around window: the
# executable is then loaded at a multiple of 64 KiB, with or without
# address randomization, and each segment starts a window. At 4 KiB,
# the code and the read-only data of a cold call took one window more
# each than they need.
if grep -q '^MCPHOST_LINK_ALIGN64K:INTERNAL=1$' "$BUILDDIR/CMakeCache.txt"; then
  ALIGNS=$(readelf -lW "$MCPHOST" | awk '$1 == "LOAD" { print $NF }')
  SMALL=""
  for a in $ALIGNS; do
    [ $((a)) -ge 65536 ] || SMALL="$SMALL $a"
  done
  check "  its loadable segments aligned to 64 KiB ($(echo $ALIGNS))" \
    test -n "$ALIGNS" -a -z "$SMALL"
fi

# Read-only data: the named objects of listed files before those of the
# others (nm -l: the file a symbol was declared in).
grep -E '^[A-Za-z0-9_/.-]+[.]c$' "$LIST" | sed 's|.*/||' >"$TMP/files"
nm -l --defined-only "$MCPHOST" | awk -v list="$TMP/files" '
  BEGIN { while ((getline f < list) > 0) hot[f] = 1 }
  $2 ~ /^[rR]$/ && NF >= 4 {
    file = $4; sub(/:[0-9]+$/, "", file); sub(/.*\//, "", file)
    if (file ~ /\.c$/) print $1, (file in hot) ? 1 : 0, $3, file }' |
  sort >"$TMP/data"
LAST_HOT=$(awk '$2 == 1 { a = $1 } END { print a }' "$TMP/data")
FIRST_COLD=$(awk '$2 == 0 { print $1; exit }' "$TMP/data")
check "  the listed files' read-only data first in .rodata" \
  test -n "$LAST_HOT" -a -n "$FIRST_COLD" -a "$LAST_HOT" \< "$FIRST_COLD"
TABLES=$(nm --defined-only "$MCPHOST" | awk '$3 == "unicode_tables" { print $1 }')
check "  the Unicode tables right after it, before the other files' data" \
  test -n "$TABLES" -a "$LAST_HOT" \< "$TABLES" -a "$TABLES" \< "$FIRST_COLD"

# footprint.py hot lists what a run calls (only from a plain
# RelWithDebInfo build with valgrind: it skips elsewhere).
run_cmd python3 "$SRCDIR/bench/footprint.py" hot --build "$BUILDDIR" \
  --hot "$TMP/new.hot"
[ "$RC" -eq 77 ] && skip_test "$OUT"
expect "footprint.py hot writes a list" 0 --out "wrote $TMP/new.hot"
check "  with main, cli_main and the JSON parser's json_parse" \
  bash -c "grep -qx main '$TMP/new.hot' && grep -qx cli_main '$TMP/new.hot' &&
           grep -qx json_parse '$TMP/new.hot'"
check "  and what a command runs where a session was once started\
 (daemon_key_scan), and with 50 servers (mcp_client_find_server)" \
  bash -c "grep -qx daemon_key_scan '$TMP/new.hot' &&
           grep -qx mcp_client_find_server '$TMP/new.hot'"
check "  and what a run after the first runs to read its caches\
 (state_file_open, the tool names kept for completion)" \
  grep -qx state_file_open "$TMP/new.hot"
check "  not the shell, which no workload runs" \
  bash -c "! grep -qx cmd_shell '$TMP/new.hot'"
check "  then the source files, cli/main.c among them" \
  grep -qx cli/main.c "$TMP/new.hot"
finish
