#!/bin/bash
# mcphost complete PROMPT|SERVER/URI-TEMPLATE ARG PREFIX [NAME=VALUE...]:
# completion/complete with the prompt's or template's reference, the
# other arguments as context from MCP 2025-06-18 on; values one a line.
. "$(dirname "$0")/../lib/lib.sh"
[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"
command -v python3 >/dev/null || skip_test "no python3 for the test server"

RS="$SRCDIR/tests/servers/resource_server.py"
C="$TMP/c.json"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\"]},
  \"r\": {\"command\": \"python3\", \"args\": [\"$RS\"]},
  \"old\": {\"command\": \"python3\", \"args\": [\"$RS\"],
    \"env\": {\"RESOURCE_PROTOCOL\": \"2025-03-26\"}},
  \"t\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/typed_server.py\"]}}"

# server-everything's completable prompt: the department narrows the name.
run --config "$C" complete every/completable-prompt department S
expect "a prompt argument's values" 0 --out "Sales
Support"
run --config "$C" complete mcp__every__completable-prompt name '' department=Engineering
expect "the other arguments go as context" 0 --out "Alice
Bob
Charlie"
run --config "$C" complete every/completable-prompt name ''
expect "without context: none" 0 --out ''
run --config "$C" complete 'every/demo://resource/dynamic/text/{resourceId}' resourceId 7
expect "a resource template's variable" 0 --out "7"
run --config "$C" --json complete every/completable-prompt department E
expect "--json: the result" 0 --jq '.completion.values == ["Engineering"]'

# What went out, exactly (the test server answers with the params).
run --config "$C" complete r/pick b q a=1
expect "prompt reference, argument and context as sent" 0 \
  --out '{"argument":{"name":"b","value":"q"},"context":{"arguments":{"a":"1"}},"ref":{"name":"pick","type":"ref/prompt"}}
xq' --err "2 of 5 values shown"
run --config "$C" complete 'r/test://item/{kind}/{id}' id 4 kind=book
expect "template reference as sent" 0 \
  --out '{"argument":{"name":"id","value":"4"},"context":{"arguments":{"kind":"book"}},"ref":{"type":"ref/resource","uri":"test://item/{kind}/{id}"}}'
run --config "$C" complete old/pick b q a=1
expect "before 2025-06-18 no context is sent" 0 \
  --out '{"argument":{"name":"b","value":"q"},"ref":{"name":"pick","type":"ref/prompt"}}' \
  --err "the context is not sent: MCP 2025-03-26"

# Bad references get the closest names.
run --config "$C" complete every/completable-promt department S
expect "an unknown prompt: exit 6, did you mean" 6 \
  --err 'has no prompt named "completable-promt" (did you mean "completable-prompt"'
run --config "$C" complete every/completable-prompt departmnt S
expect "an undeclared argument: exit 2, did you mean" 2 \
  --err 'prompt "completable-prompt" has no argument "departmnt" (did you mean "department"'
run --config "$C" complete 'r/test://item/{kind}/{id}' idd 4
expect "a template's unknown variable: exit 2" 2 \
  --err 'has no variable "idd" (did you mean "id"'
run --config "$C" complete 'r/test://itm/{kind}/{id}' id 4
expect "an unknown template: exit 6, did you mean" 6 \
  --err 'has no resource template "test://itm/{kind}/{id}" (did you mean "test://item/{kind}/{id}"'
run --config "$C" complete r/pick b q nonsense
expect "context must be NAME=VALUE" 2 --err '"nonsense" is not NAME=VALUE'
run --config "$C" complete r/pick b q c=1
expect "context names are checked too" 2 --err 'has no argument "c"'
run --config "$C" complete r/pick b
expect "no PREFIX: usage" 2 --err "usage: mcphost complete"
run --config "$C" complete t/anything a b
expect "a server without prompts: exit 6" 6 --err 'server "t" has no prompt named "anything"'
run complete --help
expect "complete --help" 0 --out "usage: mcphost [OPTIONS] complete PROMPT ARG PREFIX"

finish
