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
finish
