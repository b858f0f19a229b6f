#!/usr/bin/env bash
# What a person at a terminal sees while a tool call runs long.
. "$(dirname "$0")/../lib/lib.sh"
C="$TMP/demo.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}}"
SOCK="$TMP/tmux.sock"
tm() { tmux -S "$SOCK" "$@"; }
on_exit "tmux -S '$SOCK' kill-server 2>/dev/null"

# run_term NAME ENV... -- ARGS: mcphost in a terminal; stdout to a file,
# the screen (stderr) read afterwards.
run_term() {
  local name=$1 envs=() q
  shift
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  printf -v q '%q ' env "${envs[@]}" "$MCPHOST" --config "$C" "$@"
  tm new-session -d -s "$name" -x 200 -y 50 \
    "$q >'$TMP/$name.out'; echo \$? >'$TMP/$name.rc'; sleep 600"
  for _ in $(seq 300); do [ -s "$TMP/$name.rc" ] && break; sleep 0.1; done
  RC=$(cat "$TMP/$name.rc" 2>/dev/null || echo 99)
  OUT=$(cat "$TMP/$name.out" 2>/dev/null)
  ERR=$(tm capture-pane -p -J -S - -t "$name")
  printf '%s' "$OUT" >"$TMP/out"; printf '%s' "$ERR" >"$TMP/err"
}

run_term long MCPHOST_STILL_RUNNING_MS=300 -- call mcp__demo__slow steps=1 delay_ms=1500
expect "a long tool call shows it is still running on a terminal" 0 \
  --out "done after 1 steps" \
  --err 'mcphost: tools/call on server "demo" still running ('
# A loaded machine may fire the first line late, so its figure is only
# checked to be whole seconds.
[[ $ERR =~ still\ running\ \([0-9]+\ s\) ]]
check "the still-running line says the seconds since the call began" [ $? -eq 0 ]

run_term quiet MCPHOST_STILL_RUNNING_MS=300 -- --quiet call mcp__demo__slow steps=1 delay_ms=1000
expect "--quiet hides the still-running line" 0 --no-err "still running"

# Progress on a terminal: one line, updated in place ("\r", cleared to
# its end), not a line per update.
run_term progress -- call mcp__demo__slow steps=5 delay_ms=20
expect "progress on a terminal is one line, the last update" 0 \
  --out "done after 5 steps" --err "progress: 5/5 step 5"
check "  no other progress line stays on the screen" \
  test "$(grep -c 'progress:' "$TMP/err")" = 1
run_term mixed MCPHOST_STILL_RUNNING_MS=300 -- call mcp__demo__slow steps=2 delay_ms=800
check "another line on stderr starts below the progress line" \
  bash -c 'grep -q "^mcphost: tools/call on server \"demo\" still running" "$1" &&
           ! grep -q "progress:.*mcphost:" "$1"' _ "$TMP/err"
# stdout on the same terminal: the result below the last progress line.
printf -v q '%q ' "$MCPHOST" --config "$C" call mcp__demo__slow steps=3 delay_ms=20
tm new-session -d -s both -x 200 -y 50 "$q; echo \$? >'$TMP/both.rc'; sleep 600"
for _ in $(seq 300); do [ -s "$TMP/both.rc" ] && break; sleep 0.1; done
tm capture-pane -p -J -S - -t both >"$TMP/both.screen"
check "the result starts on a line of its own, below the progress line" \
  bash -c 'grep -qx "progress: 3/3 step 3" "$1" && grep -qx "done after 3 steps" "$1"' \
  _ "$TMP/both.screen"
# In a pipe or a file: one line per update, as before.
run --config "$C" call mcp__demo__slow steps=3 delay_ms=1
check "in a file, one progress line per update" \
  test "$(grep -c '^progress: [123]/3 step [123]$' "$TMP/err")" = 3

# Not on a terminal: no such line (stderr is a file here).
MCPHOST_STILL_RUNNING_MS=300 run --config "$C" call mcp__demo__slow steps=1 delay_ms=1000
expect "no still-running line when stderr is not a terminal" 0 --no-err "still running"
finish
