#!/usr/bin/env bash
# ABI 1.6, one way to answer a pending request: a permission question and
# a server source's listing are mcph_request handles answered with the
# respond family of mcph.host.features/1 (fixture fx-respond,
# tests/fixtures/fixture_source.c built with FIXTURE_RESPOND), as a
# feature's server request is; the 1.3 ways (reply, emit) are thin
# wrappers over the same path (fixture fx-source, in test_config.sh).
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH
mkdir -p "$XDG_CONFIG_HOME/mcphost"
printf '%s\n' '{"permissions": {"ask": ["mcp__plugin_test_respond_hello__*"]}}' \
  >"$XDG_CONFIG_HOME/mcphost/settings.json"
chmod 600 "$XDG_CONFIG_HOME/mcphost/settings.json"
R=(--plugin-dir "$FIXTURES/respond")
S=mcp__plugin_test_respond_hello

run "${R[@]}" --json mcp list
expect "a server source's listing answered with respond() is read" 0 \
  --jq 'map(select(.name == "plugin:test.respond:hello"))[0] | .scope == "plugin"'
FIXTURE_RELOAD_IN_LIST=1 run "${R[@]}" --json mcp list
expect "a server source cannot have the configuration read again from inside its listing" 0 \
  --out "reload inside list: MCPH_EINVAL: the configuration cannot be read again from inside a server source's listing"
run "${R[@]}" --allow "${S}__whoami" call "${S}__whoami"
expect "its server is called by its mcp__ name" 0 --out "served by test.respond"

run "${R[@]}" call "${S}__yes_tool"
expect "a permission question answered later with respond() allows the call" 0 \
  --out "served by test.respond"
run "${R[@]}" call "${S}__no_tool"
expect "a permission question answered at once with respond() refuses it" 8 \
  --err "denied by plugin test.respond: the fixture refuses no_ tools"
run "${R[@]}" call "${S}__three_tool"
expect "respond_error() on a permission question abstains" 8 \
  --err "nobody can answer" --no-err "denied by plugin"
run "${R[@]}" call "${S}__bad_tool"
expect "an answer the question does not take is refused, and the question stays open" 8 \
  --out 'answer "perhaps": MCPH_EINVAL: a permission answer needs "decision": "allow", "deny" or "abstain"' \
  --err "denied by plugin test.respond: after a refused answer"
FIXTURE_ANSWER_OTHERS=1 run "${R[@]}" --plugin-dir "$FIXTURES/services" \
  call "${S}__cross_tool"
expect "a request answered through another plugin's table is refused" 8 \
  --out "test.services.a answers another plugin's request: MCPH_EDENIED: plugin test.services.a answers a request handed to plugin test.respond" \
  --err "[test.services.a] answers a request handed to plugin test.respond; refused" \
  --err "denied by plugin test.respond: after another plugin tried"
finish
