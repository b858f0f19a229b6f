#!/usr/bin/env bash
# What a person at a terminal sees of what a server sends: escapes shown,
# never obeyed; long results cut with the note on stderr; descriptions cut
# to the width at a word; the arguments in the permission question.
# tests/servers/naming_server.c is the hostile server; docs/safety.md is
# the spec.
. "$(dirname "$0")/../lib/lib.sh"
C="$TMP/naming.json"
config_file "$C" "{\"naming\": {\"command\": \"$NAMING_SERVER\"}}"
# on_term NAME ENV... -- ARGS: mcphost with stdout on a terminal and
# stderr in a file; OUT is the screen, ERR the file.
on_term() {
  local name=$1
  shift
  term_run "$name" stdout "$@"
  OUT=$SCREEN
  ERR=$FILE
  printf '%s' "$OUT" >"$TMP/out"; printf '%s' "$ERR" >"$TMP/err"
}

# ---- escapes ----

on_term hostile -- --config "$C" call mcp__naming__hostile
expect "on a terminal a result's controls are shown, not obeyed" 0 \
  --out "A<U+001B>[2JB<U+001B>]0;pwned<U+0007>C<U+009B>31mD<U+202E>E<U+200B>F"
check "newline and tab of the text are kept" \
  bash -c 'grep -qE "^ +G$" "$1" && ! grep -q "<U+0009>\|<U+000A>" "$1"' _ "$TMP/out"
check "the window title is not the server's" test "$TITLE" != pwned

on_term hostile_off -- --config "$C" --sanitize=off call mcp__naming__hostile
expect "--sanitize=off still shows controls, and bidi as sent" 0 \
  --out "A<U+001B>[2JB" --no-out "<U+202E>"

on_term json -- --config "$C" --json call mcp__naming__hostile
expect "--json on a terminal: controls, C1 and bidi as JSON escapes" 0 \
  --out '"A\u001b[2JB\u001b]0;pwned\u0007C\u009b31mD\u202eE\u200bF\n\tG"'

# batch reads its requests on stdin: a wrapper gives it a file there, so
# that stdout alone is the terminal.
printf '%s\n' '{"id":1,"call":"mcp__naming__hostile"}' >"$TMP/batch.in"
printf '#!/bin/sh\nexec %q "$@" <%q\n' "$MCPHOST" "$TMP/batch.in" \
  >"$TMP/batch.sh"
chmod +x "$TMP/batch.sh"
MCPHOST_REAL=$MCPHOST MCPHOST=$TMP/batch.sh
on_term batch -- --config "$C" batch
MCPHOST=$MCPHOST_REAL
expect "batch on a terminal: C1 and bidi as JSON escapes, as --json call" 0 \
  --out 'A\u001b[2JB\u001b]0;pwned\u0007C\u009b31mD\u202eE\u200bF\n\tG'
check "batch on a terminal writes no raw CSI or RLO" \
  bash -c '! grep -q $'"'"'\u009b\|\u202e'"'"' "$1"' _ "$TMP/out"

on_term desc -- --config "$C" tools naming
expect "a description's escape is shown in the listing" 0 \
  --out "clears <U+001B>[2Jthe screen"

# ---- long results on a terminal ----

on_term big -- --config "$C" call mcp__naming__big
expect "on a terminal text is cut at 100,000 characters, the note on stderr" 0 \
  --err "mcphost: output truncated: 50000 of 150000 characters cut; the full text is saved to" \
  --no-out "truncated"
check "the screen shows exactly 100,000 characters" \
  test "$(tr -d '\n' <"$TMP/out" | wc -c)" = 100000
on_term big_all -- --config "$C" --max-output-chars 0 call mcp__naming__big size=120000
expect "--max-output-chars 0 never cuts, not even on a terminal" 0 \
  --no-err "truncated"
check "the screen shows all 120,000 characters" \
  test "$(tr -d '\n' <"$TMP/out" | wc -c)" = 120000

# ---- descriptions ----

on_term wordy -- --config "$C" tools naming
line=$(grep -A1 '^mcp__naming__wordy$' "$TMP/out" | sed -n 2p)
full="Reads a file from the project and returns its whole text, with the line numbers and the encoding it was read with, so that"
check "a long description is cut to the width, at a word, with …" \
  bash -c 'cut=${1#    }; cut=${cut%…}
           [[ $1 == "    Reads a file from the project"*"…" ]] &&
           [ $(printf "%s" "$1" | wc -m) -le 100 ] &&
           [ ${#cut} -ge 60 ] && [[ $2 == "$cut "* ]]' _ "$line" "$full"
run --config "$C" tools naming
expect "in a pipe the first line is whole" 0 \
  --out "which the caller can show as it likes." --no-out "Second line."
run --config "$C" -v tools naming
expect "-v shows every line" 0 --out "    Second line."
run --config "$C" tools naming
expect "a description that starts with blank lines is shown by its first text" \
  0 --out "mcp__naming__indented
    Reads a file in pages. …"
run --config "$C" grep indented naming
expect "grep shows that line too when only the name matched" 0 \
  --out "tool      mcp__naming__indented
    Reads a file in pages."
on_term indented -- --config "$C" tools naming
check "on a terminal as in a pipe" \
  grep -qx '    Reads a file in pages\. …' "$TMP/out"

# ---- servers ----

config_file "$TMP/two.json" "{\"naming\": {\"command\": \"$NAMING_SERVER\"},
  \"long\": {\"command\": \"$NAMING_SERVER\", \"args\": [\"long-info\"]}}"
run --config "$TMP/two.json" servers
hdr=$(printf '%s\n' "$OUT" | sed -n 1p)
row=$(printf '%s\n' "$OUT" | grep '^long ')
# The numbers are right-aligned under their headings.
check "the servers table is aligned: TOOLS ends where its number does" \
  test "$(($(printf '%s' "$hdr" | grep -bo 'TOOLS' | cut -d: -f1) + 5))" = \
       "$(($(printf '%s' "$row" | grep -bo ' 22 ' | cut -d: -f1) + 3))"

# ---- messages ----

config_file "$TMP/fx.json" '{"f": {"type": "fixture"}}'
run --plugin-dir "$FIXTURES/a" --config "$TMP/fx.json" call f/warns
expect "a transport's error is said without the host's internal code" 0 \
  --err "[f] the fixture's stream hiccuped" --no-err "hiccuped (-"

config_file "$TMP/every.json" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\"]}}"
run --config "$TMP/every.json" read every nope://x
expect "a JSON-RPC code the server's message names is not repeated (exit 6: no such resource)" 6 \
  --err "resources/read failed: MCP error -32602: Resource nope://x not found" \
  --no-err "not found (-32602)" --no-err "not found (error -32602)"

# ---- the permission question ----

mkdir -p "$XDG_CONFIG_HOME/mcphost"
echo '{"permissions": {"ask": ["mcp__naming__*"]}}' >"$XDG_CONFIG_HOME/mcphost/settings.json"
if command -v script >/dev/null; then
  printf 'n\n' | script -qec "$(printf '%q ' "$MCPHOST" --config "$C" call \
    mcp__naming__get_data path=/etc/passwd "note=$(printf 'a\033[2Jb')")" \
    /dev/null >"$TMP/out" 2>&1
  RC=$?; OUT=$(cat "$TMP/out"); ERR=""
  expect "the question shows the arguments, escaped" 8 \
    --out "mcphost: run mcp__naming__get_data? It needs permission" \
    --out '"path": "/etc/passwd"' --out '"note": "a\u001b[2Jb"' \
    --out "Allow it? [y/N]" --no-out "called get_data"
  args=$(printf '{'; for i in $(seq 100); do printf '"k%d": %d,' "$i" "$i"; done; printf '"z": 0}')
  printf 'n\n' | script -qec "$(printf '%q ' "$MCPHOST" --config "$C" call \
    mcp__naming__get_data "$args")" /dev/null >"$TMP/out" 2>&1
  RC=$?; OUT=$(cat "$TMP/out"); ERR=""
  expect "long arguments are cut to the screen, saying how much is left" 8 \
    --out '"k1": 1' --out "more lines" --no-out '"k90": 90' --out "Allow it? [y/N]"
else
  echo "skip the permission question checks: no script(1)"
fi
finish
