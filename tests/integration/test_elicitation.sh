#!/usr/bin/env bash
# Elicitation (plugins/elicitation): policies, hooks, schema checks and the
# terminal, against server-everything and tests/servers/elicit_server.c,
# with real processes; the terminal through tmux.
#
# Checks named "[flag]" use --elicitation=... on the command line (the
# CLI parses the options plugins declare, mcph.options/1); the others set
# the option through MCPHOST_OPTION_ELICITATION*.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_OPTION_ELICITATION MCPHOST_OPTION_ELICITATION_HOOK_BEFORE \
  MCPHOST_OPTION_ELICITATION_HOOK_AFTER MCPHOST_OPTION_ELICITATION_HOOK_TIMEOUT

EL="$BUILDDIR/tests/mcphost-elicit-server"
C="$TMP/servers.json"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]},
                   \"el\": {\"command\": \"$EL\"}}"

# The hooks the checks use.
H="$TMP/hooks"
mkdir -p "$H"
cat >"$H/answer.sh" <<'EOF'
#!/bin/sh
# answer.sh ANSWER_FILE [INPUT_COPY]: keeps its stdin, prints the answer.
if [ -n "${2:-}" ]; then cat >"$2"; else cat >/dev/null; fi
cat "$1"
EOF
cat >"$H/slow.sh" <<'EOF'
#!/bin/sh
cat >/dev/null
sleep 30
echo '{"action":"accept","content":{"name":"late"}}'
EOF
cat >"$H/fail.sh" <<'EOF'
#!/bin/sh
cat >/dev/null
echo "fail.sh: something broke" >&2
exit 3
EOF
cat >"$H/args.sh" <<'EOF'
#!/bin/sh
# args.sh OUT ARGS...: records its arguments, declines.
out=$1
shift
for a in "$@"; do printf '[%s]' "$a"; done >"$out"
cat >/dev/null
echo '{"action":"decline"}'
EOF
cat >"$H/browser.sh" <<'EOF'
#!/bin/sh
# A $BROWSER that records the URL it was asked to open.
printf '%s' "$1" >"$RECORD"
EOF
chmod +x "$H"/*.sh
answer() { printf '%s\n' "$2" >"$TMP/$1.json"; echo "$H/answer.sh $TMP/$1.json"; }

# ask [ENV=VALUE...] PARAMS_JSON [MCPHOST ARGS...]: el/ask with `params`;
# OUT becomes what the server got back: "result {json}" or "error CODE MSG".
ask() {
  local envs=()
  while [[ $1 == *=* && $1 != \{* ]]; do envs+=("$1"); shift; done
  local params=$1
  shift
  env "${envs[@]}" "$MCPHOST" --config "$C" "$@" call el/ask "{\"params\": $params}" \
    >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
# Then: the JSON after "result " (for --jq).
result_json() { OUT=${OUT#result }; }

FORM='{"message": "Who are you?", "requestedSchema": {"type": "object",
  "properties": {"name": {"type": "string", "minLength": 1},
                 "age": {"type": "integer", "minimum": 0, "maximum": 150},
                 "color": {"type": "string", "enum": ["red", "green"]}},
  "required": ["name"]}}'

# ---- the capability ----

run --config "$C" call el/caps
expect "the client declares elicitation with form and url modes" 0 \
  --jq '.elicitation == {"form": {}, "url": {}}'

MCPHOST_OPTION_ELICITATION=off run --config "$C" call el/caps
expect "elicitation=off declares no elicitation capability" 0 \
  --jq 'has("elicitation") | not'
ask MCPHOST_OPTION_ELICITATION=off "$FORM"
expect "elicitation=off answers a server that asks anyway with -32601" 0 \
  --out "error -32601 " --out "elicitation=off"
MCPHOST_OPTION_ELICITATION=off run --config "$C" tools every
expect "elicitation=off: server-everything does not offer its elicitation tools" 0 \
  --out "mcp__every__echo" --no-out "trigger-elicitation-request"
run --config "$C" tools every
expect "with elicitation, server-everything offers both elicitation tools" 0 \
  --out "mcp__every__trigger-elicitation-request" --out "mcp__every__trigger-url-elicitation"

# ---- policies against server-everything ----

E=mcp__every__trigger-elicitation-request
run --config "$C" call $E
expect "with no terminal and no policy the answer is decline" 0 \
  --out "User declined to provide the requested information"
MCPHOST_OPTION_ELICITATION=decline run --config "$C" call $E
expect "elicitation=decline answers decline" 0 \
  --out "User declined to provide the requested information" --out '"action": "decline"'
MCPHOST_OPTION_ELICITATION=cancel run --config "$C" call $E
expect "elicitation=cancel answers cancel" 0 \
  --out "User cancelled the elicitation dialog" --out '"action": "cancel"'
MCPHOST_OPTION_ELICITATION=accept-defaults run --config "$C" call $E
expect "elicitation=accept-defaults declines, naming the required field without a default" 0 \
  --out "User declined" --err 'required field "name" has no default; declining'
MCPHOST_OPTION_ELICITATION=bogus run --config "$C" call $E
expect "an unknown policy declines with a warning" 0 \
  --out "User declined" --err 'unknown elicitation policy "bogus"'

HOOK=$(answer every '{"action": "accept", "content": {"name": "Ada Lovelace", "check": true, "integer": 7}}')
MCPHOST_OPTION_ELICITATION="hook:$HOOK $TMP/every-in.json" run --config "$C" call $E
expect "elicitation=hook:COMMAND sends the hook's answer to server-everything" 0 \
  --out "User provided the requested information" --out "- Name: Ada Lovelace" \
  --out "- Agreed to terms: true" --out "- Favorite Integer: 7"
check "the hook gets {server, mode, message, requestedSchema} on stdin" \
  jqf '.server == "every" and .mode == "form"
         and .message == "Please provide inputs for the following fields:"
         and .requestedSchema.required == ["name"]
         and (.requestedSchema.properties | length) == 13
         and (has("url") | not)' "$TMP/every-in.json"

run --config "$C" --elicitation=cancel call $E
expect "[flag] --elicitation=cancel answers cancel" 0 --out "User cancelled the elicitation dialog"
run --config "$C" --elicitation="hook:$HOOK" call $E
expect "[flag] --elicitation=hook:COMMAND answers through the hook" 0 --out "- Name: Ada Lovelace"

# ---- accept-defaults ----

DEFAULTS='{"message": "Defaults?", "requestedSchema": {"type": "object", "properties": {
  "name": {"type": "string", "default": "John Doe"},
  "age": {"type": "integer", "default": 30},
  "score": {"type": "number", "default": 95.5},
  "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
  "verified": {"type": "boolean", "default": true},
  "tags": {"type": "array", "items": {"enum": ["a", "b"]}, "default": ["b"]},
  "note": {"type": "string"}}, "required": ["name"]}}'
ask MCPHOST_OPTION_ELICITATION=accept-defaults "$DEFAULTS"
result_json
expect "accept-defaults accepts with every default, and leaves out fields without one" 0 \
  --jq '. == {"action": "accept", "content": {"name": "John Doe", "age": 30, "score": 95.5,
              "status": "active", "verified": true, "tags": ["b"]}}'
ask "$DEFAULTS" --elicitation=accept-defaults
result_json
expect "[flag] --elicitation=accept-defaults accepts with the defaults" 0 \
  --jq '.action == "accept" and .content.age == 30'

# ---- the hook protocol ----

HOOK=$(answer ok '{"action": "accept", "content": {"name": "Grace", "age": 85, "color": "green"}}')
ask MCPHOST_OPTION_ELICITATION="hook:$HOOK $TMP/ok-in.json" "$FORM"
result_json
expect "a valid hook answer reaches the server as given" 0 \
  --jq '. == {"action": "accept", "content": {"name": "Grace", "age": 85, "color": "green"}}'
check "the hook's stdin carries the server name and the schema as sent" \
  jqf '.server == "el" and .mode == "form" and .message == "Who are you?"
         and .requestedSchema.properties.age.maximum == 150' "$TMP/ok-in.json"

HOOK=$(answer decl '{"action": "decline", "content": {"name": "x"}}')
ask MCPHOST_OPTION_ELICITATION="hook:$HOOK" "$FORM"
result_json
expect "a hook's decline goes out without content" 0 --jq '. == {"action": "decline"}'

hook_cancels() { # NAME ANSWER WARNING
  local hook
  hook=$(answer bad "$2")
  ask MCPHOST_OPTION_ELICITATION="hook:$hook" "$FORM"
  result_json
  expect "$1" 0 --jq '. == {"action": "cancel"}' --err "$3" --err "answering cancel"
}
hook_cancels "a hook answer that is not JSON is cancel, with a warning" \
  'sure, go ahead' "its output is not JSON"
hook_cancels "a hook answer with a value of the wrong type is cancel, naming the field" \
  '{"action": "accept", "content": {"name": "A", "age": "old"}}' 'field "age": not a number'
hook_cancels "a hook answer outside the schema's limits is cancel" \
  '{"action": "accept", "content": {"name": "A", "age": 200}}' "above the maximum 150"
hook_cancels "a hook answer without a required field is cancel" \
  '{"action": "accept", "content": {"age": 3}}' 'required field "name" is missing'
hook_cancels "a hook answer with a field the schema does not ask for is cancel" \
  '{"action": "accept", "content": {"name": "A", "ssn": "123"}}' '"ssn", which the schema does not ask for'
hook_cancels "a hook answer with an unknown action is cancel" \
  '{"action": "maybe"}' '"action" must be'
hook_cancels "a hook that prints nothing is cancel" \
  '' "its output is not JSON"

ask MCPHOST_OPTION_ELICITATION="hook:$H/fail.sh" "$FORM"
result_json
expect "a hook that exits non-zero is cancel; its stderr reaches the user" 0 \
  --jq '. == {"action": "cancel"}' --err "exited with status 3" \
  --err "fail.sh: something broke"

ask MCPHOST_OPTION_ELICITATION="hook:$TMP/no-such-hook" "$FORM"
result_json
expect "a hook that cannot run is cancel, with the reason" 0 \
  --jq '. == {"action": "cancel"}' --err "no-such-hook" --err "No such file"

start=$(date +%s)
ask MCPHOST_OPTION_ELICITATION="hook:$H/slow.sh" MCPHOST_OPTION_ELICITATION_HOOK_TIMEOUT=1 "$FORM"
took=$(($(date +%s) - start))
result_json
expect "a hook past elicitation-hook-timeout is killed and the answer is cancel" 0 \
  --jq '. == {"action": "cancel"}' --err "did not answer within 1 s"
check "the timed-out hook does not hold the call up ($took s)" test "$took" -lt 15

# While the server waits for an answer, its requests are not late: the
# call's deadline (1 s here) stops while the hook (2 s) answers.
cat >"$H/pause.sh" <<'EOF2'
#!/bin/sh
cat >/dev/null
sleep 2
echo '{"action":"decline"}'
EOF2
chmod +x "$H/pause.sh"
ask MCPHOST_OPTION_ELICITATION="hook:$H/pause.sh" "$FORM" --timeout 1000
expect "the call's deadline waits while the elicitation is answered" 0 \
  --out 'result {"action":"decline"}'
# ... and runs again once the answer is sent: a server that then stalls
# is late.
HOOK=$(answer quick '{"action": "decline"}')
MCPHOST_OPTION_ELICITATION="hook:$HOOK" run --config "$C" --timeout 1000 call el/ask \
  "{\"params\": $FORM, \"stall_ms\": 3000}"
expect "after the answer the call's deadline runs again" 5 --err "timed out"

# A server that withdraws its elicitation (notifications/cancelled) gets
# no answer for it; the hook (1 s) is stopped.
cat >"$H/late.sh" <<'EOF2'
#!/bin/sh
cat >/dev/null
sleep 1
echo '{"action":"decline"}'
EOF2
chmod +x "$H/late.sh"
MCPHOST_OPTION_ELICITATION="hook:$H/late.sh" run -v --config "$C" call el/withdraw \
  "{\"params\": $FORM, \"after_ms\": 200, \"wait_ms\": 2500}"
expect "a withdrawn elicitation is stopped and never answered" 0 \
  --out "no answer" --err "elicitation withdrawn by the server"

ask MCPHOST_OPTION_ELICITATION="hook:$H/args.sh $TMP/args.txt \"a b\" '\$HOME' it\\'s" "$FORM"
check "a hook command is split like a shell, without expansion" \
  test "$(cat "$TMP/args.txt" 2>/dev/null)" = "[a b][\$HOME][it's]"

ask MCPHOST_OPTION_ELICITATION="hook:$H/answer.sh 'unclosed" "$FORM"
result_json
expect "a hook command with an unclosed quote is cancel, with the reason" 0 \
  --jq '. == {"action": "cancel"}' --err "a quote is not closed"

# Before and after hooks.
B=$(answer before '{"action": "accept", "content": {"name": "Before"}}')
ask MCPHOST_OPTION_ELICITATION=cancel MCPHOST_OPTION_ELICITATION_HOOK_BEFORE="$B $TMP/before-in.json" "$FORM"
result_json
expect "a before-hook that answers replaces the policy" 0 \
  --jq '. == {"action": "accept", "content": {"name": "Before"}}'
check "the before-hook gets the request as the hook does" \
  jqf '.server == "el" and .mode == "form" and (.requestedSchema | has("properties"))' "$TMP/before-in.json"
B=$(answer quiet '')
ask MCPHOST_OPTION_ELICITATION=cancel MCPHOST_OPTION_ELICITATION_HOOK_BEFORE="$B" "$FORM"
result_json
expect "a before-hook that prints nothing lets the policy answer" 0 --jq '. == {"action": "cancel"}'

A=$(answer after '{"action": "accept", "content": {"name": "After", "color": "red"}}')
ask MCPHOST_OPTION_ELICITATION=decline MCPHOST_OPTION_ELICITATION_HOOK_AFTER="$A $TMP/after-in.json" "$FORM"
result_json
expect "an after-hook's answer replaces the answer given" 0 \
  --jq '. == {"action": "accept", "content": {"name": "After", "color": "red"}}'
check "the after-hook gets {request, answer}" \
  jqf '.request.server == "el" and .request.mode == "form" and .answer == {"action": "decline"}' \
  "$TMP/after-in.json"
A=$(answer keep '')
ask MCPHOST_OPTION_ELICITATION=accept-defaults MCPHOST_OPTION_ELICITATION_HOOK_AFTER="$A" "$DEFAULTS"
result_json
expect "an after-hook that prints nothing keeps the answer" 0 \
  --jq '.action == "accept" and .content.name == "John Doe"'
A=$(answer worse '{"action": "accept", "content": {"age": -1}}')
ask MCPHOST_OPTION_ELICITATION=decline MCPHOST_OPTION_ELICITATION_HOOK_AFTER="$A" "$FORM"
result_json
expect "an after-hook's invalid answer is cancel, with a warning" 0 \
  --jq '. == {"action": "cancel"}' --err "after-hook: its answer is invalid"

# ---- malformed requests: -32602, nobody is asked ----

malformed() { # NAME PARAMS MESSAGE
  rm -f "$TMP/never-in.json"
  local hook
  hook=$(answer never '{"action": "decline"}')
  ask MCPHOST_OPTION_ELICITATION="hook:$hook $TMP/never-in.json" "$2"
  expect "$1" 0 --out "error -32602 " --out "$3"
  check "$1: no hook was asked" test ! -e "$TMP/never-in.json"
}
malformed "a requestedSchema that is not an object is refused with -32602" \
  '{"message": "m", "requestedSchema": "name, age"}' "requestedSchema must be a JSON object"
malformed "a nested object property is refused with -32602 naming it" \
  '{"message": "m", "requestedSchema": {"type": "object", "properties":
     {"address": {"type": "object", "properties": {"city": {"type": "string"}}}}}}' \
  'property "address" is an object: nested objects are not allowed'
malformed "a property of unknown type is refused with -32602 naming the type" \
  '{"message": "m", "requestedSchema": {"type": "object", "properties": {"when": {"type": "date"}}}}' \
  'property "when" has unknown type "date"'
malformed "an array that is not a multi-select enum is refused" \
  '{"message": "m", "requestedSchema": {"type": "object", "properties": {"tags": {"type": "array", "items": {"type": "string"}}}}}' \
  'property "tags": items need "enum" or "anyOf"'
malformed "required naming a missing property is refused" \
  '{"message": "m", "requestedSchema": {"type": "object", "properties": {}, "required": ["zip"]}}' \
  'required names "zip", which is not a property'
malformed "a default of the wrong type is refused" \
  '{"message": "m", "requestedSchema": {"type": "object", "properties": {"n": {"type": "integer", "default": "ten"}}}}' \
  'property "n": its default is invalid: not a number'
malformed "a schema whose type is not object is refused" \
  '{"message": "m", "requestedSchema": {"type": "array", "properties": {}}}' \
  'requestedSchema must have "type": "object"'
malformed "a form request without requestedSchema is refused" \
  '{"message": "m"}' 'form mode needs "requestedSchema"'
malformed "an unknown mode is refused" \
  '{"mode": "telepathy", "message": "m"}' 'unknown mode "telepathy"'

# ---- URL mode, without a terminal ----

url_call() { # [ENV=VALUE...] URL ID
  local envs=()
  while [[ $1 == *=* && $1 != http* && $1 != javascript* && $1 != file* ]]; do envs+=("$1"); shift; done
  env "${envs[@]}" "$MCPHOST" -v --config "$C" call el/url "{\"url\": \"$1\", \"id\": \"$2\"}" \
    >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
url_call MCPHOST_OPTION_ELICITATION=accept-defaults "https://example.com/login" e-1
result_json
expect "accept-defaults declines a URL elicitation (nobody can visit it)" 0 \
  --jq '. == {"action": "decline"}' --err "declines URL elicitations"

HOOK=$(answer url '{"action": "accept"}')
url_call MCPHOST_OPTION_ELICITATION="hook:$HOOK $TMP/url-in.json" "https://example.com/login?x=1" e-42
result_json
expect "a hook may accept a URL elicitation" 0 --jq '. == {"action": "accept"}'
check "the hook gets {server, mode url, message, url, elicitationId}" \
  jqf '. == {"server": "el", "mode": "url", "message": "Sign in to continue.",
               "url": "https://example.com/login?x=1", "elicitationId": "e-42"}' "$TMP/url-in.json"
expect "notifications/elicitation/complete for the accepted id is shown" 0 \
  --err "the URL elicitation e-42 is complete" --no-err "never-issued"

# -32042: the host hands the error's elicitations to the plugin, then
# calls again once the server says the elicitation is complete (or the
# person does, on a terminal: test_url_elicitation.sh). server-everything
# never says so: without a terminal the call ends at its deadline.
HOOK=$(answer pre '{"action": "accept"}')
rm -f "$TMP/pre-in.json"
MCP_TOOL_TIMEOUT=2000 MCPHOST_OPTION_ELICITATION="hook:$HOOK $TMP/pre-in.json" \
  run --config "$C" call mcp__every__trigger-url-elicitation url=https://example.com/a errorPath=true
expect "a -32042 URL elicitation is answered like any other, then waits for its completion" 5 \
  --err "waits for the URL elicitation to be completed: notifications/elicitation/complete for" \
  --err "timed out after 2000 ms waiting for the URL elicitation"
check "the hook was asked the error's elicitation" \
  jqf '.mode == "url" and .server == "every"' "$TMP/pre-in.json"
MCPHOST_OPTION_ELICITATION=decline \
  run --config "$C" call mcp__every__trigger-url-elicitation url=https://example.com/a errorPath=true
expect "a declined -32042 URL elicitation fails the call, saying so" 4 \
  --err "requires a URL elicitation, which was not completed (decline)"

for bad in "javascript:alert(1)" "file:///etc/passwd"; do
  rm -f "$TMP/url-in.json"
  url_call MCPHOST_OPTION_ELICITATION="hook:$HOOK $TMP/url-in.json" "$bad" e-9
  result_json
  expect "a ${bad%%:*}: URL is declined before any hook or person sees it" 0 \
    --jq '. == {"action": "decline"}' --err "only http and https URLs are opened"
  check "a ${bad%%:*}: URL: the hook was not run" test ! -e "$TMP/url-in.json"
done

# ---- the terminal (tmux) ----

tmux_server

# term NAME [ENV=VALUE...] -- MCPHOST_ARGS...: runs mcphost in a terminal;
# stdout to $TMP/NAME.out, the exit code to $TMP/NAME.rc.
term() {
  local name=$1 envs=() q
  shift
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  printf -v q '%q ' env "${envs[@]}" "$MCPHOST" --config "$C" "$@"
  tm new-session -d -s "$name" -x 200 -y 50 \
    "$q >'$TMP/$name.out'; echo \$? >'$TMP/$name.rc'; sleep 600"
}
# The terminal helpers of lib.sh, by the names this test uses.
screen() { tm_screen "$@"; }
wait_for() { tm_wait "$@"; }
type_line() { tm_type "$@"; }
# done_term NAME: waits for mcphost to exit; RC, OUT and ERR (the screen).
done_term() {
  for _ in $(seq 300); do [ -s "$TMP/$1.rc" ] && break; sleep 0.1; done
  RC=$(cat "$TMP/$1.rc" 2>/dev/null || echo 99)
  OUT=$(cat "$TMP/$1.out" 2>/dev/null)
  ERR=$(screen "$1")
  cp "$TMP/$1.out" "$TMP/out" 2>/dev/null
  printf '%s' "$ERR" >"$TMP/err"
}

term form -- call $E
steps_ok=true
step() { # TYPED NEXT_PROMPT
  type_line form "$1"
  wait_for form "$2" || { steps_ok=false; echo "     (no \"$2\" after typing \"$1\")"; }
}
wait_for form "[1/13]" || steps_ok=false
step "" "this field is required"
step "Ada Lovelace" "[2/13]"
step "y" "[3/13]"
step "" "[4/13]"
step "ada(at)example" "not an email address"
step "ada@example.com" "[5/13]"
step "" "[6/13]"
step "1815-12-10" "[7/13]"
step "1000" "1000 is above the maximum 100"
step "7" "[8/13]"
step "" "[9/13]"
step "2" "[10/13]"
step "1,3" "[11/13]"
step "" "[12/13]"
step "" "[13/13]"
step "pet-3" "Send them?"
SCREEN=$(screen form)
type_line form "a"
done_term form
expect "on a terminal: each field is asked, bad input asked again, the answers reach the server" 0 \
  --out "- Name: Ada Lovelace" --out "- Agreed to terms: true" --out "- Email: ada@example.com" \
  --out "- Birthdate: 1815-12-10" --out "- Favorite Integer: 7" \
  --out '"firstLine": "It was a dark and stormy night."' --out '"untitledSingleSelectEnum": "Rachel"' \
  --out '"legacyTitledEnum": "pet-3"'
check "on a terminal: every prompt came in order" $steps_ok
ERR=$SCREEN
expect "on a terminal: the server's name and message come first, then the fields with their hints" 0 \
  --err '== "every" asks for information ==' --err "Please provide inputs for the following fields:" \
  --err "Your full, legal name" --err "a whole number from 1 to 100; Enter keeps 42" \
  --err "2) Green Lantern (hero-2)" --err "Integer: 7" --err "Untitled Multiple Select Enum: Guitar, Violin"
line_of() { printf '%s\n' "$2" | grep -nF -m1 -- "$1" | cut -d: -f1; }
comes_before() { # FIRST SECOND TEXT
  local a b
  a=$(line_of "$1" "$3")
  b=$(line_of "$2" "$3")
  [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}
check "on a terminal: the server's message is shown before the first field" \
  comes_before "Please provide inputs" "[1/13]" "$SCREEN"

term dec -- call $E
wait_for dec "[1/13]"
type_line dec ":decline"
done_term dec
expect "on a terminal: :decline at a prompt declines" 0 --out "User declined"

term eof -- call $E
wait_for eof "[1/13]"
type_line eof "Ada"
wait_for eof "[2/13]"
tm send-keys -t eof C-d
done_term eof
expect "on a terminal: Ctrl-D cancels" 0 --out "User cancelled the elicitation dialog"

term pol MCPHOST_OPTION_ELICITATION=cancel -- call $E
done_term pol
expect "on a terminal: an explicit policy answers, nobody is asked" 0 \
  --out "User cancelled" --no-err "[1/13]"

B=$(answer tbefore '{"action": "accept", "content": {"name": "Hooked"}}')
term hb "MCPHOST_OPTION_ELICITATION_HOOK_BEFORE=$B" -- call $E
done_term hb
expect "on a terminal: a before-hook's answer is used instead of asking" 0 \
  --out "- Name: Hooked" --no-err "[1/13]"

OKQ='{"message": "Proceed?", "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}'
term two -- call el/two "{\"params\": $OKQ}"
wait_for two "it comes next"
type_line two "y"
wait_for two "Send them?"
type_line two "a"
wait_for two "(you answered: accept)"
type_line two "n"
for _ in $(seq 100); do [ "$(screen two | grep -c 'Send them?')" -ge 2 ] && break; sleep 0.1; done
type_line two "d"
done_term two
expect "on a terminal: two questions at once are asked one after the other" 0 \
  --out 'result {"action":"accept","content":{"ok":true}}' --out 'result {"action":"decline"}'

term gone -- call el/ask "{\"exit_after_ms\": 1500, \"params\": $OKQ}"
wait_for gone "[1/1]"
done_term gone
expect "on a terminal: a question whose server went away is withdrawn, the call fails" 3 \
  --err 'the question from "el" was withdrawn: the server disconnected' --err 'server "el" went away'

term intr -- call el/ask "{\"params\": $OKQ}"
wait_for intr "[1/1]"
tm send-keys -t intr C-c
done_term intr
expect "on a terminal: Ctrl-C at a prompt interrupts mcphost cleanly" 130 \
  --err "interrupted" --no-err "Sanitizer"

term esc -- call el/ask '{"params": {"message": "\u001b]0;pwned\u0007Hi\u001b[2J\u202eevil", "requestedSchema": {"type": "object", "properties": {"\u001b[31mred": {"type": "string", "title": "T\u009bitle"}}}}}'
wait_for esc "[1/1]"
type_line esc ":cancel"
done_term esc
expect "on a terminal: control characters and bidi overrides from a server are shown as <U+XXXX>" 0 \
  --out 'result {"action":"cancel"}' --err "<U+001B>]0;pwned<U+0007>Hi<U+001B>[2J" \
  --err "evil" --no-err $'\u202e' --err "T<U+009B>itle (<U+001B>[31mred)"

# URL mode on a terminal: shown in full first, opened only on "y".
U='https://example.com/cb?a=1&b=2'
export RECORD="$TMP/browser-url.txt"
rm -f "$RECORD"
term url BROWSER="$H/browser.sh" RECORD="$RECORD" -- call mcp__every__trigger-url-elicitation "url=$U"
wait_for url "Open it in your browser?"
ERR=$(screen url)
RC=0
expect "on a terminal: a URL is shown in full, with its host, before anything opens it" 0 \
  --err '== "every" asks you to open a URL ==' --err "URL:  $U" --err "Host: example.com"
check "on a terminal: nothing was opened before the person said yes" test ! -e "$RECORD"
type_line url "y"
done_term url
for _ in $(seq 50); do [ -e "$RECORD" ] && break; sleep 0.1; done
expect "on a terminal: y opens the URL and answers accept" 0 \
  --out "User completed the URL elicitation flow" --out '"action": "accept"'
check "on a terminal: \$BROWSER got exactly the URL shown" test "$(cat "$RECORD" 2>/dev/null)" = "$U"

rm -f "$RECORD"
term pre BROWSER="$H/browser.sh" RECORD="$RECORD" -- \
  call mcp__every__trigger-url-elicitation "url=$U" errorPath=true
wait_for pre "URL:  https://modelcontextprotocol.io"
type_line pre "y"
# Opened: the call waits until the person says they are done there.
wait_for pre "press Enter once you are done:"
check "on a terminal: the call is not sent again before the person's Enter" \
  test "$(screen pre | grep -c 'Open it in your browser?')" -eq 1
type_line pre ""
for _ in $(seq 100); do [ "$(screen pre | grep -c 'Open it in your browser?')" -ge 2 ] && break; sleep 0.1; done
type_line pre "y"
done_term pre
expect "on a terminal: a -32042 prerequisite URL is asked first, then the call's own" 0 \
  --out "User completed the URL elicitation flow" --err "URL:  $U"

rm -f "$RECORD"
term urln BROWSER="$H/browser.sh" RECORD="$RECORD" -- call mcp__every__trigger-url-elicitation "url=$U"
wait_for urln "Open it in your browser?"
type_line urln "n"
done_term urln
sleep 0.3
expect "on a terminal: n declines the URL" 0 --out "User declined to open the URL"
check "on a terminal: a declined URL is not opened" test ! -e "$RECORD"

term js BROWSER="$H/browser.sh" RECORD="$RECORD" -- call el/url '{"url": "javascript:alert(document.cookie)", "id": "j1"}'
done_term js
sleep 0.3
expect "on a terminal: a javascript: URL is refused and declined without asking" 0 \
  --out 'result {"action":"decline"}' --err "refused to open the URL" --no-err "Open it in your browser?"
check "on a terminal: the javascript: URL was never opened" test ! -e "$RECORD"

term done BROWSER="$H/browser.sh" RECORD="$RECORD" -- call el/url '{"url": "https://example.com/x", "id": "id-7"}'
wait_for done "Open it in your browser?"
type_line done "y"
done_term done
expect "on a terminal: the server's elicitation/complete for the URL is shown" 0 \
  --out 'result {"action":"accept"}' --err "the URL elicitation id-7 is complete"

finish
