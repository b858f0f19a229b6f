#!/usr/bin/env bash
# ABI 1.6: each plugin has its own host table, so the host knows who
# calls (logs, options); a plugin with a provides list is initialized only
# when something it provides is needed. fx-v1_6 and fx-lazy are built
# against the frozen 1.6 headers; the frozen 1.0 to 1.5 fixtures are in
# test_plugins.sh.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH MCPHOST_OPTION_FX16_GREETING

V="$TMP/v16.json"
config_file "$V" '{"v": {"type": "fixture-v1.6"}}'

run --plugin-dir "$FIXTURES/v1.6" --config "$V" --fx16-greeting=hi \
  --elicitation=off fx16
expect "a line logged without a source is attributed to the plugin" 0 \
  --err "mcphost: warning: [test.v1_6] fx16 says hello"
expect "a plugin reads its own option" 0 --out "greeting=hi"
expect "another plugin's option is not the caller's to read" 0 \
  --out "other=(unset)"

run --plugin-dir "$FIXTURES/v1.6" --config "$V" -vv --fx16-greeting=hi fx16
expect "the host logs which plugin read which option" 0 \
  --err "mcphost: debug: [test.v1_6] reads option --fx16-greeting" \
  --err "[test.v1_6] reads option --elicitation, which it did not declare"

MCPHOST_OPTION_FX16_GREETING=env run --plugin-dir "$FIXTURES/v1.6" \
  --config "$V" fx16
expect "its option from the environment" 0 --out "greeting=env"

run --plugin-dir "$FIXTURES/v1.6" --config "$V" fx16 v
expect "a feature reads the server's serverInfo and the negotiated version" 0 \
  --out 'info={"name":"test.v1_6","version":"1.0"} version=2025-11-25'
expect "a JSON-RPC error answering request() carries its code and data" 0 \
  --out 'error=MCPH_EPROTO rpc_code=-32042 rpc_data={"why":"test.v1_6"}'

run --plugin-dir "$FIXTURES/v1.6" --config "$V" call mcp__v__whoami
expect "a 1.6 plugin's transport works" 0 --out "served by test.v1_6"

# ---- deferred init ----

L="$TMP/lazy.json"
config_file "$L" '{"z": {"type": "fixture-lazy"}}'
D="$TMP/demo.json"
config_file "$D" "{\"demo\": {\"command\": \"$DEMO\"}}"

run --plugin-dir "$FIXTURES/lazy" -v plugins
expect "a plugin with a provides list is listed with its types before init" 0 \
  --out "loaded   test.lazy 1.0 (ABI 1.6)" \
  --out "transports: fixture-lazy" --no-err "[test.lazy] initialized"
run --plugin-dir "$FIXTURES/lazy" -v --config "$D" call mcp__demo__echo \
  message=x
expect "a command that does not use it never initializes it" 0 \
  --out "Echo: x" --no-err "[test.lazy] initialized"
run --plugin-dir "$FIXTURES/lazy" -v nosuchcommand
expect "looking up a command it does not list leaves it asleep" 2 \
  --no-err "[test.lazy] initialized"
run --plugin-dir "$FIXTURES/lazy" -v fxlazy
expect "its own command initializes and runs it" 0 --out "lazy ran" \
  --err "[test.lazy] initialized"
run --plugin-dir "$FIXTURES/lazy" -v --config "$L" call mcp__z__whoami
expect "the first transport of its type initializes it, once" 0 \
  --out "served by test.lazy" --err "mcphost: warning: [test.lazy] initialized"
check "init ran once" test "$(grep -c 'initialized' <<<"$ERR")" = 1

# ---- ABI 1.7: a deferred server source says when it has servers ----
# (fx-v1_7, built against the frozen 1.7 headers)

run --plugin-dir "$FIXTURES/v1.7" -v --config "$D" tools
expect "a source whose has_servers says none is not initialized to list" 0 \
  --out "mcp__demo__echo" --no-out "seventeen" \
  --no-err "[test.v1_7] initialized"
# Its feature sleeps (below); describing the servers (-v) is a use of it.
run --plugin-dir "$FIXTURES/v1.7" -v --config "$D" servers
expect "  servers -v wakes its sleeping feature to describe them" 0 \
  --out "demo" --no-out "seventeen" --err "[test.v1_7] initialized"
FIXTURE_V1_7_SERVERS=$DEMO run --plugin-dir "$FIXTURES/v1.7" -v \
  --config "$D" servers
expect "  one that says it may have some is initialized and lists them" 0 \
  --out "demo" --out "seventeen" --err "[test.v1_7] initialized"
# A feature asleep: its capabilities come from the list, without init.
cat >"$TMP/first-line.sh" <<EOF
#!/bin/bash
IFS= read -r line
printf '%s\n' "\$line" >"$TMP/first-line"
EOF
chmod +x "$TMP/first-line.sh"
config_file "$TMP/first.json" "{\"f\": {\"command\": \"$TMP/first-line.sh\"}}"
run --plugin-dir "$FIXTURES/v1.7" -v --config "$TMP/first.json" tools
expect "a feature's capabilities come from its list, the plugin asleep" 3 \
  --no-err "[test.v1_7] initialized"
check "  the handshake declares them" \
  grep -q '"fixture17":{}' "$TMP/first-line"
FIXTURE_V1_7_INIT=1 run --plugin-dir "$FIXTURES/v1.7" -v \
  --config "$TMP/first.json" tools
expect "  one that asks for init gets it, and its feature's capabilities" 3 \
  --err "[test.v1_7] initialized"
check "  which the handshake declares" \
  grep -q '"fixture17-initialized":{}' "$TMP/first-line"
run --plugin-dir "$FIXTURES/v1.7" -v plugins
expect "  mcphost plugins lists it with its source, from the list alone" 0 \
  --out "loaded   test.v1_7 1.0 (ABI 1.7)" \
  --out "server source: the ABI 1.7 fixture's server" \
  --no-err "[test.v1_7] initialized"

# ---- ABI 1.8: an options table gives the size of its elements ----
# (fx-v1_8, built against the frozen 1.8 headers: elements one field
# larger than 1.7's, as a later minor's)

run --plugin-dir "$FIXTURES/v1.8" --help
expect "the host steps through the options by their option_size" 0 \
  --out "--eighteen-a=VALUE" --out "--eighteen-b " \
  --out "a flag of the ABI 1.8 fixture"
run --plugin-dir "$FIXTURES/v1.8" --eighteen-a=x --eighteen-b fx18
expect "  and both reach the plugin through option()" 0 \
  --out "fx18: eighteen-a=x eighteen-b=(flag)"
FIXTURE_V1_8_BROKEN=1 run --plugin-dir "$FIXTURES/v1.8" --eighteen-a=x fx18
expect "a table whose option_size is below an option's is refused whole" 2 \
  --err "its options table is broken (option_size is below the size of an option)" \
  --no-out "fx18:"
FIXTURE_V1_8_BROKEN=1 run plugin check "$FIXTURES/v1.8/fx-v1_8.so"
expect "  and plugin check names it" 23 --out "option_size (8) is below"
finish
