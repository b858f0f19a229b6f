#!/usr/bin/env bash
# Sampling through a hook (plugins/sampling): off by default, as in Claude
# Code (no "sampling" capability, a request declined); with
# --sampling=hook:COMMAND the capability is declared and the hook answers
# sampling/createMessage, its answer checked first. Against
# server-everything's trigger-sampling-request and tests/servers/
# task_server.py's ask_model, which asks whatever the client declared.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_OPTION_SAMPLING MCPHOST_OPTION_SAMPLING_HOOK_TIMEOUT
if [ ! -f "$EVERYTHING" ]; then
  skip_test "server-everything is not installed in tests/interop"
fi
command -v python3 >/dev/null || skip_test "no python3 for the task server"
mkdir -p "$TMP/tasks"
C="$TMP/servers.json"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]},
  \"el\": {\"command\": \"$BUILDDIR/tests/mcphost-elicit-server\"},
  \"t\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/task_server.py\"],
          \"env\": {\"TASK_DIR\": \"$TMP/tasks\"}}}"

H="$TMP/hooks"
mkdir -p "$H"
# answer.sh ANSWER_FILE: keeps its stdin in $H/in.json, prints the answer.
cat >"$H/answer.sh" <<'SH'
#!/bin/sh
cat >"$(dirname "$0")/in.json"
cat "$1"
SH
cat >"$H/fail.sh" <<'SH'
#!/bin/sh
cat >/dev/null
echo "fail.sh: no model here" >&2
exit 3
SH
cat >"$H/slow.sh" <<'SH'
#!/bin/sh
cat >/dev/null
sleep 30
SH
chmod +x "$H"/*.sh
answer() { printf '%s\n' "$2" >"$TMP/$1.json"; echo "hook:$H/answer.sh $TMP/$1.json"; }
GOOD=$(answer good '{"role": "assistant", "content": {"type": "text", "text": "four"}, "model": "hook-model", "stopReason": "endTurn"}')

# ---- off by default ----

run --config "$C" call el/caps
expect "by default no sampling capability is declared" 0 \
  --jq 'has("sampling") | not'
run --config "$C" --sampling=decline call el/caps
expect "--sampling=decline declares none either" 0 --jq 'has("sampling") | not'
run --config "$C" --sampling="$GOOD" call el/caps
expect "with a hook the sampling capability is declared" 0 \
  --jq '.sampling == {}'
run --config "$C" tools every
expect "by default server-everything does not offer its sampling tool" 0 \
  --out "mcp__every__echo" --no-out "mcp__every__trigger-sampling-request"
run --config "$C" call t/ask_model
expect "a server that asks anyway is declined with error -1" 0 \
  --out "error -1 sampling declined" --out "--sampling=hook:COMMAND"
MCPHOST_OPTION_SAMPLING=bogus run --config "$C" call t/ask_model
expect "an unknown policy declines, with a warning" 0 \
  --out "error -1 sampling declined" --err 'unknown sampling policy "bogus"'

# ---- the hook answers ----

run --config "$C" --sampling="$GOOD" tools every
expect "with a hook server-everything offers trigger-sampling-request" 0 \
  --out "mcp__every__trigger-sampling-request"
run --config "$C" --sampling="$GOOD" call every/trigger-sampling-request prompt=hello maxTokens:=7
expect "the hook's answer reaches server-everything" 0 \
  --out '"model": "hook-model"' --out '"text": "four"' --out '"stopReason": "endTurn"'
check "the hook gets the request's params with the server's name on stdin" \
  jq -e '.server == "every" and .maxTokens == 7
         and .systemPrompt == "You are a helpful test server."
         and (.messages[0].content.text | endswith("context: hello"))' "$H/in.json"
MCPHOST_OPTION_SAMPLING="$GOOD" run --config "$C" call t/ask_model
expect "MCPHOST_OPTION_SAMPLING sets the hook too; the answer is the hook's" 0 \
  --out 'result {"content": {"text": "four", "type": "text"}, "model": "hook-model", "role": "assistant", "stopReason": "endTurn"}'

# ---- bad answers: an error to the server, and on stderr ----

NBAD=0
bad_answer() { # NAME OUTPUT TEXT
  local hook
  NBAD=$((NBAD + 1))
  hook=$(answer "bad$NBAD" "$2")
  run --config "$C" --sampling="$hook" call t/ask_model
  expect "$1: an error to the server and a warning" 0 \
    --out "error -32603 the sampling hook's answer is invalid: $3" \
    --err "[t] sampling/createMessage failed: the sampling hook's answer is invalid: $3"
}
bad_answer "output that is not JSON" 'four, I think' "its output is not JSON: four, I think"
bad_answer "no model" '{"role": "assistant", "content": {"type": "text", "text": "4"}}' \
  '"model" must be a string'
bad_answer "a bad role" '{"role": "robot", "content": {"type": "text", "text": "4"}, "model": "m"}' \
  '"role" must be "assistant" or "user"'
bad_answer "content without a type" '{"role": "assistant", "content": {"text": "4"}, "model": "m"}' \
  '"content" must be a content block'
bad_answer "an empty answer" '' "it printed nothing"
run --config "$C" --sampling="hook:$H/fail.sh" call t/ask_model
expect "a hook that fails: the error names its exit status" 0 \
  --out 'error -32603 the sampling hook failed: the hook "' --out 'exited with status 3' \
  --err "fail.sh: no model here"
run --config "$C" --sampling="hook:$H/slow.sh" --sampling-hook-timeout=300ms call t/ask_model
expect "a hook past its timeout is stopped, naming the option" 0 \
  --out "did not answer within 0.3 s (option sampling-hook-timeout)"
run --config "$C" --sampling="$GOOD" --sampling-hook-timeout=soon call t/ask_model
expect "a timeout that is not one: the default, with a warning" 0 \
  --out '"model": "hook-model"' \
  --err 'sampling-hook-timeout "soon" is not a number of seconds; using 120'
run --config "$C" --sampling="hook:$TMP/no-such-hook" call t/ask_model
expect "a hook that cannot start: the error says so" 0 \
  --out "error -32603 the sampling hook failed: " --out "no-such-hook"
run --config "$C" --sampling="$(answer nojson 'nope')" call every/trigger-sampling-request prompt=x
expect "server-everything sees the error as its tool's failure" 1 \
  --out "the sampling hook's answer is invalid" --err "sampling/createMessage failed"

finish
