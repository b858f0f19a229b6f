#!/usr/bin/env bash
# The ABI 1.6 host services, each used by the fixture plugins
# fx-services-a and -b (tests/fixtures/fixture_services.c).
. "$(dirname "$0")/../lib/lib.sh"
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
run "${P[@]}" fxa secret-set big "$(head -c 65537 /dev/zero | tr '\0' x)"
expect "a value over MCPH_SECRET_MAX is refused as too big" 3 \
  --out "MCPH_ETOOBIG" --out "a secret is at most 65536 bytes"
run "${P[@]}" fxa secret-set big "$(head -c 65536 /dev/zero | tr '\0' x)"
expect "a value of exactly MCPH_SECRET_MAX is kept" 0 --out "stored big"
run "${P[@]}" fxa secret-rm .bad
expect "remove names a bad key as such" 3 --out "MCPH_EINVAL" \
  --out "invalid secret key"
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
expect "a name returned before the reload stays valid until control returns to the loop" 0 \
  --out "kept: one"
config_file "$R" "{\"one\": {\"command\": \"$DEMO\"}}"
run "${P[@]}" --config "$R" fxa reload "$R" '{"mcpServers": {"bad": {"command": 5}}}'
expect "a bad source read again is reported as at start-up, naming the file" 0 \
  --out "before: one" --err "config error" --err "$R"

config_file "$R" "{\"one\": {\"command\": \"$DEMO\"}}"
run "${P[@]}" --config "$R" fxa reload-busy one
expect "no reload under open connections: they point into the configuration" 3 \
  --out "MCPH_ENOTSUP" --out "1 connection made with the current configuration is open"

# ---- mcph.host.auth/1 (the rest in test_auth_provider.sh) ----

run "${P[@]}" --config "$R" fxa auth-set one
expect "a plugin that is no auth provider cannot set credentials" 3 \
  --out "MCPH_EDENIED" --out "test.services.a is not an auth provider"

# ---- finish() is scoped to the plugin (mcph.host.servers/1) ----

FIXTURE_FINISH_OTHERS=1 run "${P[@]}" fxa hold
expect "one plugin's finish() does not end another plugin's command" 0 \
  --out "test.services.b calls finish(42) on another plugin's command" \
  --out "test.services.a finished its own command" \
  --err "[test.services.b] finish() of a command of plugin test.services.a, not its own; ignored"

# ---- mcph.host.ui/1 ----

run "${P[@]}" fxa ask "Your name?"
expect "without a terminal a question is refused, naming the plugin" 3 \
  --out "MCPH_ENOTSUP" --out "test.services.a asks a question, but nobody is at a terminal"
run "${P[@]}" fxa open "https://example.com/sign-in"
expect "without a terminal no URL is opened" 3 --out "MCPH_ENOTSUP"

SOCK="$TMP/tmux.sock"
tm() { tmux -S "$SOCK" "$@"; }
on_exit "tmux -S '$SOCK' kill-server 2>/dev/null"
# term NAME ARGS...: mcphost in a terminal (stdout to a file); the screen
# is read afterwards into $ERR.
term_start() {
  local name=$1 q
  shift
  printf -v q '%q ' env XDG_STATE_HOME="$XDG_STATE_HOME" BROWSER="${TERM_BROWSER:-$TMP/browser}" \
    "$MCPHOST" "${P[@]}" "$@"
  tm new-session -d -s "$name" -x 200 -y 50 \
    "$q >'$TMP/$name.out'; echo \$? >'$TMP/$name.rc'; sleep 600"
}
term_wait() {
  local name=$1
  for _ in $(seq 300); do [ -s "$TMP/$name.rc" ] && break; sleep 0.1; done
  RC=$(cat "$TMP/$name.rc" 2>/dev/null || echo 99)
  OUT=$(cat "$TMP/$name.out" 2>/dev/null)
  ERR=$(tm capture-pane -p -J -S - -t "$name")
  printf '%s' "$OUT" >"$TMP/out"; printf '%s' "$ERR" >"$TMP/err"
}
# term_answer NAME SHOWN LINE: once the screen shows SHOWN, types LINE.
term_answer() {
  for _ in $(seq 100); do
    tm capture-pane -p -t "$1" 2>/dev/null | grep -q "$2" && break
    sleep 0.1
  done
  tm send-keys -t "$1" "$3" Enter
  term_wait "$1"
}
if command -v tmux >/dev/null; then
  term_start ask fxa ask $'Your name?\e[31m'
  term_answer ask "Your name?" Ada
  expect "at a terminal the question is shown, named after the plugin, and answered" 0 \
    --out "answer=Ada" --err "mcphost: [test.services.a] Your name?<U+001B>[31m"

  term_start ask2 fxa ask2 'First?'
  term_answer ask2 "First?" Bo
  expect "a second question while one is open is refused as busy; the first is answered" 0 \
    --out "second: MCPH_EBUSY: test.services.a asks a question while another is open" \
    --out "answer=Bo"

  printf '#!/bin/sh\nprintf "[%%s]" "$@" >"%s/opened"\n' "$TMP" >"$TMP/browser"
  chmod +x "$TMP/browser"
  term_start open fxa open 'https://example.com/sign-in?a=1&b=$(x)'
  term_wait open
  for _ in $(seq 50); do [ -s "$TMP/opened" ] && break; sleep 0.1; done
  expect "a URL is shown and opened with \$BROWSER, with progress lines" 0 \
    --err "[test.services.a] opening https://example.com/sign-in?a=1&b=\$(x)" \
    --err "[test.services.a] opening: 50%" --err "[test.services.a] done"
  check "the browser got the URL as one argument" \
    test "$(cat "$TMP/opened")" = '[https://example.com/sign-in?a=1&b=$(x)]'

  # The one $BROWSER rule (common/browser.h): a ':' list tried in order,
  # and a %s inside a word gets the URL with shell syntax percent-encoded.
  rm -f "$TMP/opened"
  TERM_BROWSER="$TMP/no-such-browser:$TMP/browser --url=%s" \
    term_start open2 fxa open 'https://example.com/sign-in?a=1&b=$(x)'
  term_wait open2
  for _ in $(seq 50); do [ -s "$TMP/opened" ] && break; sleep 0.1; done
  check "\$BROWSER is a list, and %s in a word gets the URL percent-encoded" \
    test "$(cat "$TMP/opened")" = '[--url=https://example.com/sign-in?a=1%26b=%24%28x%29]'
else
  bad "tmux is installed" "the terminal tests need it"
fi
finish
