#!/bin/bash
# A command through a session asks on its caller's terminal: a permission
# question on the terminal that is stdin and stderr (call), and on the
# terminal behind a piped stdin (batch, through the terminal handed over);
# the "still running" line of a terminal, timed by the caller's
# environment. The same as without the session (docs/sessions.md).
. "$(dirname "$0")/../lib/lib.sh"
command -v script >/dev/null || skip_test "no script(1) for a terminal"
command -v jq >/dev/null || skip_test "no jq"

export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
C="$TMP/demo.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}}"
mkdir -p "$XDG_CONFIG_HOME/mcphost"
echo '{"permissions": {"ask": ["mcp__demo__echo"]}}' \
  >"$XDG_CONFIG_HOME/mcphost/settings.json"
on_exit "'$MCPHOST' --config '$C' session stop >/dev/null 2>&1"

# on_term ANSWER CMD: CMD on a terminal of its own, ANSWER typed into it.
# The terminal echoes the answer when it arrives, before or after the
# question is written: that echo is taken out, so two runs compare equal
# whichever came first.
on_term() {
  printf '%s\n' "$1" | script -qec "$2" /dev/null >"$TMP/out" 2>&1
  RC=$?
  OUT=$(tr -d '\r' <"$TMP/out" | ANSWER=$1 python3 -c '
import os, sys
a = os.environ["ANSWER"]
t = sys.stdin.read()
if a:
    t = t.replace("[y/N] " + a + "\n", "[y/N] ")
    t = "\n".join(l for l in t.split("\n") if l != a)
sys.stdout.write(t)')
  ERR=""
}
commands() {
  "$MCPHOST" --config "$C" session status --json | jq .commands
}
CALL=$(printf '%q ' "$MCPHOST" --config "$C" call demo/echo message=hi)
CALL_DIRECT=$(printf '%q ' "$MCPHOST" --no-session --config "$C" call demo/echo message=hi)
BATCH="echo '{\"id\":1,\"call\":\"mcp__demo__echo\",\"arguments\":{\"message\":\"hi\"}}' | $(printf '%q ' "$MCPHOST" --config "$C" batch)"

run --config "$C" session start --idle 10
expect "session start" 0 --out "session started"
before=$(commands)

on_term y "$CALL"
expect "call: the question on the caller's terminal, answered yes" 0 \
  --out "Allow it? [y/N]" --out "Echo: hi"
with_yes=$OUT
on_term n "$CALL"
expect "call: answered no, exit 8" 8 --out "Allow it? [y/N]" --no-out "Echo: hi"
with_no=$OUT
on_term y "$BATCH"
expect "batch: the question on the terminal behind its piped stdin" 0 \
  --out "Allow it? [y/N]" --out '"text":"Echo: hi"'
with_batch=$OUT
on_term "" "MCPHOST_STILL_RUNNING_MS=300 $(printf '%q ' "$MCPHOST" --config "$C" call demo/slow steps=1 delay_ms=1500)"
expect "the still-running line on the caller's terminal, at its interval" 0 \
  --out 'tools/call on server "demo" still running ('
[ "$(commands)" = $((before + 4)) ] &&
  ok "all four ran through the session" ||
  bad "all four ran through the session" "commands: $before, then $(commands)"

# The same lines without the session.
on_term y "$CALL_DIRECT"
[ "$OUT" = "$with_yes" ] && ok "call, yes: the same terminal output without" ||
  bad "call, yes: the same terminal output without" "$with_yes"
on_term n "$CALL_DIRECT"
[ "$OUT" = "$with_no" ] && ok "call, no: the same terminal output without" ||
  bad "call, no: the same terminal output without" "$with_no"
on_term y "export MCPHOST_NO_SESSION=1; $BATCH"
[ "$OUT" = "$with_batch" ] && ok "batch: the same terminal output without" ||
  bad "batch: the same terminal output without" "$with_batch"
finish
