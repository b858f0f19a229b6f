#!/bin/bash
# prompt PROMPT --help shows the prompt's arguments as `tool` shows a
# tool's parameters; `tool` shows a prompt when the name is a prompt's.
. "$(dirname "$0")/../lib/lib.sh"
[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"

C="$TMP/c.json"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\"]}}"

want="mcp__every__args-prompt(city, state?)

Title: Arguments Prompt

  A prompt with two arguments, one required and one optional

Arguments:
  city  string, required
      Name of the city
  state  string

Get it with: mcphost prompt mcp__every__args-prompt [ARG | NAME=VALUE ...]"
run --config "$C" prompt every/args-prompt --help
expect "prompt PROMPT --help" 0
[ "$OUT" = "$want" ] && ok "its signature, description and arguments" ||
  bad "its signature, description and arguments" "wanted: $want"
run --config "$C" prompt mcp__every__args-prompt -h --json
expect "--help --json: the prompt object" 0 \
  --jq '.name == "args-prompt" and (.arguments | length) == 2'
run --config "$C" tool mcp__every__args-prompt
expect "tool PROMPT: the prompt" 0
[ "$OUT" = "$want" ] && ok "tool shows it as prompt --help does" ||
  bad "tool shows it as prompt --help does" "wanted: $want"
run --config "$C" tool every/simple-prompt
expect "a prompt without arguments" 0 --out "mcp__every__simple-prompt()" \
  --out "Arguments: none"
run --config "$C" tool every/echo
expect "a tool is still a tool" 0 --out "mcp__every__echo(message: string)"
run --config "$C" tool every/args-promt
expect "neither a tool nor a prompt: the tool's error, exit 6" 6 \
  --err 'server "every" has no tool named "args-promt"'
run --config "$C" prompt every/args-promt --help
expect "prompt --help of no such prompt: did you mean, exit 6" 6 \
  --err 'has no prompt named "args-promt" (did you mean "args-prompt"'
run prompt --help
expect "prompt --help alone: the command's help" 0 \
  --out "usage: mcphost [OPTIONS] prompt PROMPT"

finish
