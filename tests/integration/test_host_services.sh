#!/usr/bin/env bash
# The ABI 1.6 host services, each used by the fixture plugins
# fx-services-a and -b (tests/fixtures/fixture_services.c).
. "$(dirname "$0")/lib.sh"
unset MCPHOST_PLUGIN_PATH
export XDG_STATE_HOME="$TMP/state"
mkdir -p "$XDG_STATE_HOME"
chmod 700 "$XDG_STATE_HOME"
P=(--plugin-dir "$FIXTURES/services")
S="$XDG_STATE_HOME/mcphost/secrets"

# ---- mcph.host.secrets/1 ----

run "${P[@]}" fxa secret-set token s3cret
expect "a plugin stores a secret" 0 --out "stored token"
check "it is a file of mode 0600" test "$(stat -c %a "$S/test.services.a/token")" = 600
check "in a directory of mode 0700" test "$(stat -c %a "$S/test.services.a")" = 700
check "holding the value" test "$(cat "$S/test.services.a/token")" = s3cret
run "${P[@]}" fxa secret-get token
expect "the plugin reads it back" 0 --out "token=s3cret"
run "${P[@]}" fxb secret-get token
expect "another plugin cannot read it: its store is its own" 3 \
  --out "MCPH_ENOTFOUND" --no-out "s3cret"
run "${P[@]}" fxa secret-set token n3w
run "${P[@]}" fxa secret-get token
expect "a value is replaced whole" 0 --out "token=n3w"
run "${P[@]}" fxa secret-set ../escape x
expect "a key that is not a file name is refused" 3 \
  --out "MCPH_EINVAL" --out "invalid secret key"
chmod 750 "$S/test.services.a"
run "${P[@]}" fxa secret-get token
expect "a store readable by others is refused, naming it" 3 \
  --out "MCPH_EIO" --out "$S/test.services.a" --no-out "n3w"
chmod 700 "$S/test.services.a"
run "${P[@]}" fxa secret-rm token
run "${P[@]}" fxa secret-get token
expect "a removed secret is gone" 3 --out "MCPH_ENOTFOUND"
# ---- mcph.host.transports/1 ----

O="$TMP/over.json"
config_file "$O" "{
  \"o\": {\"type\": \"fixture-over\", \"inner\": {\"type\": \"stdio\", \"command\": \"$DEMO\"}},
  \"h\": {\"type\": \"fixture-over\", \"inner\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:1/mcp\"}},
  \"self\": {\"type\": \"fixture-over\", \"inner\": {\"type\": \"fixture-over\"}},
  \"none\": {\"type\": \"fixture-over\", \"inner\": {\"type\": \"nosuch\"}}}"
run --plugin-dir "$FIXTURES/compose" -vv --config "$O" call mcp__o__echo message=composed
expect "a transport built on a stdio transport it created by type works" 0 \
  --out "Echo: composed" \
  --err "[test.compose] created a \"stdio\" transport of mcphost.transport.stdio" \
  --err "[test.compose] over: "
run --plugin-dir "$FIXTURES/compose" -vv --config "$O" call mcp__h__x
expect "an inner http transport is loaded on demand and its failure comes through" 3 \
  --err "created a \"http\" transport of mcphost.transport.http" \
  --err "over: " --err "127.0.0.1:1"
run --plugin-dir "$FIXTURES/compose" --config "$O" call mcp__self__x
expect "a plugin cannot compose its own type" 3 \
  --err "served by test.compose itself"
run --plugin-dir "$FIXTURES/compose" --config "$O" call mcp__none__x
expect "an inner type nobody serves is named" 3 \
  --err "no plugin serves transport type \"nosuch\""
# ---- mcph.host.config/1 ----

R="$TMP/reload.json"
config_file "$R" "{\"one\": {\"command\": \"$DEMO\"}}"
run "${P[@]}" --config "$R" fxa reload "$R" \
  "{\"mcpServers\": {\"two\": {\"command\": \"$DEMO\"}, \"three\": {\"command\": \"$DEMO\"}}}"
expect "the server sources are read again on request" 0 \
  --out "before: one" --out "after: two three"
config_file "$R" "{\"one\": {\"command\": \"$DEMO\"}}"
run "${P[@]}" --config "$R" fxa reload "$R" '{"mcpServers": {"bad": {"command": 5}}}'
expect "a bad source read again is reported as at start-up, naming the file" 0 \
  --out "before: one" --err "config error" --err "$R"
finish
