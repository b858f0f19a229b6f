#!/bin/bash
# mcphost grep [-i] PATTERN [SERVER]: tools, prompts, resources and
# templates across servers whose name or description matches a POSIX
# ERE; --json the items with what matched; the match highlighted on a
# terminal only, never with NO_COLOR.
. "$(dirname "$0")/../lib/lib.sh"
[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"
command -v python3 >/dev/null || skip_test "no python3 for the typed server"

C="$TMP/c.json"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\"]},
  \"t\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/typed_server.py\"]}}"

run --config "$C" grep 'sum'
expect "a tool by its name" 0 --out "tool      mcp__every__get-sum
    Returns the sum of two numbers" --no-out "mcp__t__"
run --config "$C" grep 'arguments'
expect "across servers, by description" 0 \
  --out "tool      mcp__t__typed
    Echoes its arguments." --out "prompt    mcp__every__args-prompt"
run --config "$C" grep 'architecture\.md$'
expect "a resource by its URI" 0 \
  --out "resource  every  demo://resource/static/document/architecture.md  architecture.md"
run --config "$C" grep 'dynamic/text/\{'
expect "a resource template" 0 \
  --out "template  every  demo://resource/dynamic/text/{resourceId}"
run --config "$C" grep '^ECHO'
expect "case matters without -i: exit 6" 6 --out '' --err 'nothing matches "^ECHO"'
run --config "$C" grep -i '^ECHO'
expect "-i: case ignored" 0 --out "tool      mcp__every__echo"
run --config "$C" grep -i echo t
expect "SERVER: only that server" 0 --out "mcp__t__typed" --no-out "mcp__every__"
run --config "$C" --json grep -i 'echo'
expect "--json: the items, with the fields that matched" 0 \
  --jq 'map(select(.kind == "tool" and .server == "every" and .name == "mcp__every__echo" and .tool == "echo")) | length == 1' \
  --jq '(map(select(.name == "mcp__every__echo"))[0].matched) == ["name", "title", "description"]' \
  --jq 'all(.[]; has("inputSchema") | not)'
run --config "$C" --json grep 'zzzz-nothing'
expect "--json with nothing: [] and exit 6" 6 --jq '. == []'
run --config "$C" grep '('
expect "a bad regular expression: exit 2" 2 --err 'grep: bad regular expression "("'
run --config "$C" grep
expect "no pattern: usage" 2 --err "usage: mcphost grep"
run --config "$C" grep -x sum
expect "an unknown option: exit 2" 2 --err 'unknown option "-x"'
run --config "$C" grep -- -sum
expect "-- before a pattern that starts with '-'" 0 --out "mcp__every__get-sum"
run --config "$C" grep sum nosuch
expect "an unknown server: exit 6" 6 --err 'no server named "nosuch"'

# A pipe gets no escape sequences; a terminal gets the match in colour,
# and NO_COLOR turns it off.
run --config "$C" grep sum
if [[ $OUT != *$'\e['* ]]; then ok "no colour in a pipe"; else bad "no colour in a pipe"; fi
if command -v tmux >/dev/null; then
  term_run g1 stdout -u NO_COLOR TERM=xterm -- --config "$C" grep 'get-s.m'
  tmux -S "$TMP/tmux.sock" capture-pane -e -p -t g1 >"$TMP/g1.ansi"
  # tmux writes the SGR again in its own way: bold, then red.
  if grep -q $'mcp__every__\e\\[1m\e\\[31mget-sum' "$TMP/g1.ansi"; then
    ok "on a terminal the match is highlighted"
  else
    bad "on a terminal the match is highlighted" "$(cat -v "$TMP/g1.ansi")"
  fi
  term_run g2 stdout NO_COLOR=1 TERM=xterm -- --config "$C" grep 'get-s.m'
  tmux -S "$TMP/tmux.sock" capture-pane -e -p -t g2 >"$TMP/g2.ansi"
  if grep -q 'mcp__every__get-sum' "$TMP/g2.ansi" &&
    ! grep -q $'\e\\[' "$TMP/g2.ansi"; then
    ok "NO_COLOR: no highlight on a terminal"
  else
    bad "NO_COLOR: no highlight on a terminal" "$(cat -v "$TMP/g2.ansi")"
  fi
else
  bad "tmux is installed (scripts/deps.sh test installs it)"
fi
run grep --help
expect "grep --help" 0 --out "usage: mcphost [OPTIONS] grep [-i] PATTERN [SERVER]"

finish
