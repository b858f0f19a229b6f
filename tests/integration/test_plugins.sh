#!/usr/bin/env bash
# The plugin loader: search order, ABI checks, refusals with reasons, and
# a host that keeps working whatever a plugin does.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH
# The ABI minor grows with every extension: take it from the host.
MINOR=$("$MCPHOST" --version | sed -n 's/.*plugin ABI 1\.\([0-9]*\)).*/\1/p')
D="$TMP/demo.json"
config_file "$D" "{\"demo\": {\"command\": \"$DEMO\"}}"
F="$TMP/fixture.json"
config_file "$F" '{"f": {"type": "fixture"}}'

run --plugin-dir "$FIXTURES/bad" --json plugins
expect "a plugin built for another ABI major is refused, naming file and versions" 0 \
  --jq ".[] | select(.file | endswith(\"fx-abi2.so\")) | .status == \"refused\" and (.error | contains(\"built for plugin ABI 2.$MINOR\")) and (.error | contains(\"this mcphost speaks ABI 1.$MINOR\"))"
expect "a shared object without the entry symbol is refused" 0 \
  --jq '.[] | select(.file | endswith("fx-noentry.so")) | .status == "refused" and (.error | contains("no \"mcph_plugin_entry\" symbol"))'
expect "  the symbol's error names no /proc/self/fd path" 0 \
  --jq '.[] | select(.file | endswith("fx-noentry.so")) | .error | contains("/proc/self/fd") | not'
expect "a plugin whose init fails is refused with its message" 0 \
  --jq '.[] | select(.file | endswith("fx-initfail.so")) | .status == "refused" and (.error | contains("fixture refuses to start"))'
expect "the built-in stdio plugin still loads after refused ones" 0 \
  --jq '[.[] | select(.id == "mcphost.transport.stdio")][0].status == "loaded"'

run --plugin-dir "$FIXTURES/bad" plugins
expect "plugins (human) lists refused plugins with the reason" 0 \
  --out "refused  $FIXTURES/bad/fx-abi2.so" --out "built for plugin ABI 2.$MINOR; this mcphost speaks ABI 1.$MINOR"

run plugins
expect "plugins lists the type the library serves itself, which a configuration may name" 0 \
  --out "built-in sdk: servers inside the program that embeds libmcphost (none in mcphost: such an entry is skipped)"

run --plugin-dir "$FIXTURES/bad" --config "$D" call mcp__demo__echo message=still-works
expect "the host works with refused plugins in its path" 0 --out "Echo: still-works"

run --plugin-dir "$FIXTURES/bad" --config "$F" servers
expect "a server whose type only a refused plugin would serve names the type, the search path and the refusals" 3 \
  --out "no plugin serves transport type \"fixture\"" \
  --out "$FIXTURES/bad" --out "refused $FIXTURES/bad/fx-abi2.so"

run --plugin-dir "$FIXTURES/a" --plugin-dir "$FIXTURES/b" --config "$F" call mcp__f__whoami
expect "two plugins serve one type: the first --plugin-dir wins" 0 --out "served by test.alpha"
run --plugin-dir "$FIXTURES/b" --plugin-dir "$FIXTURES/a" --config "$F" call mcp__f__whoami
expect "reversing --plugin-dir reverses the winner" 0 --out "served by test.beta"

run --plugin-dir "$FIXTURES/a" --plugin-dir "$FIXTURES/b" plugins
expect "plugins says which one is shadowed" 0 \
  --out "transports: fixture (shadowed by $FIXTURES/a/fx-alpha.so)"
run --plugin-dir "$FIXTURES/a" --plugin-dir "$FIXTURES/b" --json plugins
expect "plugins --json marks the active and the shadowed type" 0 \
  --jq '(.[] | select(.id == "test.alpha") | .transports[0].active) == true' \
  --jq '(.[] | select(.id == "test.beta") | .transports[0].shadowedBy | endswith("fx-alpha.so"))'

MCPHOST_PLUGIN_PATH="$FIXTURES/a" run --plugin-dir "$FIXTURES/b" --config "$F" call mcp__f__whoami
expect "--plugin-dir comes before MCPHOST_PLUGIN_PATH" 0 --out "served by test.beta"
MCPHOST_PLUGIN_PATH="$FIXTURES/a:$FIXTURES/b" run --config "$F" call mcp__f__whoami
expect "MCPHOST_PLUGIN_PATH is searched in order" 0 --out "served by test.alpha"
MCPHOST_PLUGIN_PATH="$FIXTURES/a" run --json plugins
expect "the built-in directory comes after MCPHOST_PLUGIN_PATH" 0 \
  --jq '.[0].id == "test.alpha" and (.[-1].file | startswith("'"$PLUGINDIR"'/"))'

# A private copy of the stdio plugin ahead of the built-in one: same id,
# so the built-in copy is refused as a duplicate and the first serves.
mkdir -p "$TMP/override"
cp "$PLUGINDIR/transport-stdio.so" "$TMP/override/"
run --plugin-dir "$TMP/override" --json plugins
expect "a second plugin with the same id is refused, naming the first" 0 \
  --jq '[.[] | select(.id == "mcphost.transport.stdio")] | .[0].status == "loaded" and .[1].status == "refused" and (.[1].error | contains("already loaded from '"$TMP"'/override/transport-stdio.so"))'

config_file "$TMP/v10.json" '{"v": {"type": "fixture-v1.0"}}'
run --plugin-dir "$FIXTURES/v1.0" --config "$TMP/v10.json" call mcp__v__whoami
expect "a plugin built against the frozen ABI 1.0 headers loads and works" 0 \
  --out "served by test.v1_0"
run --plugin-dir "$FIXTURES/v1.0" --json plugins
expect "the ABI 1.0 plugin is listed with its own ABI version" 0 \
  --jq '(.[] | select(.id == "test.v1_0") | .abi) == "1.0"'

# 1.1 and 1.2, each built against its frozen headers: a message the
# transport could not deliver, or an answer it dropped, fails its request
# at once with the transport's reason (a host that ignored them would
# leave the call to its deadline: --timeout, and another message).
config_file "$TMP/v11.json" '{"v": {"type": "fixture-v1.1"}}'
run --plugin-dir "$FIXTURES/v1.1" --config "$TMP/v11.json" call mcp__v__whoami
expect "a plugin built against the frozen ABI 1.1 headers serves its transport" 0 \
  --out "served by test.v1_1"
run --plugin-dir "$FIXTURES/v1.1" --config "$TMP/v11.json" --timeout 20000 \
  call mcp__v__undeliverable
expect "its on_send_failed (ABI 1.1) fails the call with its reason" 3 \
  --err 'server "v": tools/call failed: the fixture could not deliver it'
config_file "$TMP/v12.json" '{"v": {"type": "fixture-v1.2"}}'
run --plugin-dir "$FIXTURES/v1.2" --config "$TMP/v12.json" --timeout 20000 \
  call mcp__v__oversized
expect "a 1.2 plugin's on_message_dropped fails the call its first bytes name" 3 \
  --err 'server "v": tools/call failed: the fixture dropped an oversized answer'
run --plugin-dir "$FIXTURES/v1.2" --config "$TMP/v12.json" --timeout 20000 \
  call mcp__v__undeliverable
expect "and its on_send_failed too" 3 \
  --err 'server "v": tools/call failed: the fixture could not deliver it'
run --plugin-dir "$FIXTURES/v1.1" --plugin-dir "$FIXTURES/v1.2" --json plugins
expect "the ABI 1.1 and 1.2 plugins are listed with their own ABI versions" 0 \
  --jq '(.[] | select(.id == "test.v1_1") | .abi) == "1.1"' \
  --jq '(.[] | select(.id == "test.v1_2") | .abi) == "1.2"'

# 1.4 (fx-source14, built against the frozen 1.4 headers): its server
# source (the 1.3 extension, first published in the 1.4 headers); its
# permission decider's answers are in test_config.sh.
run --plugin-dir "$FIXTURES/source14" call mcp__plugin_test_source14_hello__whoami
expect "a plugin built against the frozen ABI 1.4 headers contributes a server" 0 \
  --out "served by test.source14"
run --plugin-dir "$FIXTURES/source14" --json plugins
expect "the ABI 1.4 plugin is listed with its own ABI version" 0 \
  --jq '(.[] | select(.id == "test.source14") | .abi) == "1.4"'

config_file "$TMP/v15.json" '{"v": {"type": "fixture-v1.5"}}'
run --plugin-dir "$FIXTURES/v1.5" --config "$TMP/v15.json" call mcp__v__whoami
expect "a plugin built against the frozen ABI 1.5 headers serves its transport" 0 \
  --out "served by test.v1_5"
run --plugin-dir "$FIXTURES/v1.5" --config "$TMP/v15.json" fx15 v
expect "its command connects through mcph.host.servers/1 and its feature hears the server" 0 \
  --out 'fx15: v: {"tools":{}}'
run --plugin-dir "$FIXTURES/v1.5" --config "$TMP/v15.json" fx15 v fail
expect "a JSON-RPC error reaches a 1.5 plugin in a struct no larger than its own (no rpc_code/rpc_data)" 0 \
  --out "fx15: error struct_size=520 fits=yes code=-7 message=the fixture fails"
run --plugin-dir "$FIXTURES/v1.5" --json plugins
expect "the ABI 1.5 plugin is listed with its own ABI version" 0 \
  --jq '(.[] | select(.id == "test.v1_5") | .abi) == "1.5"'

run --plugin-dir "$TMP/does-not-exist" --config "$D" call mcp__demo__echo message=x
expect "a missing plugin directory is not an error" 0 --out "Echo: x"

printf 'not an ELF file' >"$TMP/override/garbage.so"
run --plugin-dir "$TMP/override" --json plugins
expect "a file that is not a shared object is refused with dlopen's reason" 0 \
  --jq '.[] | select(.file | endswith("garbage.so")) | .status == "refused" and (.error | startswith("cannot load:"))'

finish
