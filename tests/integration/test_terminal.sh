#!/usr/bin/env bash
# What a person at a terminal sees while a tool call runs long.
. "$(dirname "$0")/lib.sh"
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

# Not on a terminal: no such line (stderr is a file here).
MCPHOST_STILL_RUNNING_MS=300 run --config "$C" call mcp__demo__slow steps=1 delay_ms=1000
expect "no still-running line when stderr is not a terminal" 0 --no-err "still running"
finish
