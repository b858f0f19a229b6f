#!/bin/bash
# mcphost subscribe SERVER URI: each notifications/resources/updated as a
# line until Ctrl-C (exit 130, after resources/unsubscribe), --read the
# resource again under each, --json lines; a server that goes away ends
# it with 3; the exit codes of the other commands otherwise.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the test server"

RS="$SRCDIR/tests/servers/resource_server.py"
LOG="$TMP/requests.log"
C="$TMP/r.json"
config_file "$C" "{\"r\": {\"command\": \"python3\", \"args\": [\"$RS\"],
    \"env\": {\"RESOURCE_LOG\": \"$LOG\"}},
  \"t\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/typed_server.py\"]}}"

# sub_until N TEXT ARGS...: mcphost ARGS in the background until its
# stdout (stderr when $IN is err) has N lines containing TEXT (bounded),
# then Ctrl-C; sets RC, OUT and ERR.
sub_until() {
  local n=$1 text=$2 pid
  shift 2
  : >"$TMP/out"
  : >"$TMP/err"
  "$MCPHOST" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null &
  pid=$!
  for _ in $(seq 300); do
    [ "$(grep -cF -- "$text" "$TMP/${IN:-out}")" -ge "$n" ] && break
    sleep 0.1
  done
  kill -INT "$pid"
  wait "$pid"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

sub_until 3 "updated test://doc/7" --config "$C" subscribe r test://doc/7
expect "each update a line; Ctrl-C ends with 130" 130 \
  --err "subscribed to test://doc/7 on server \"r\"; Ctrl-C ends"
if [ "$(grep -cx "updated test://doc/7" <<<"$OUT")" = 3 ]; then
  ok "three updates, three lines"
else
  bad "three updates, three lines"
fi
if jq -se '[.[] | select(.method == "resources/unsubscribe" and
    .params.uri == "test://doc/7")] | length == 1' "$LOG" >/dev/null; then
  ok "Ctrl-C unsubscribes first"
else
  bad "Ctrl-C unsubscribes first" "log: $(cat "$LOG")"
fi

sub_until 3 "version" --config "$C" subscribe r test://doc/8 --read
expect "--read: the resource read again under each update" 130 \
  --out "updated test://doc/8
test://doc/8, version"
if [ "$(grep -c "^test://doc/8, version [0-9]" <<<"$OUT")" = 3 ]; then
  ok "--read: one read per update"
else
  bad "--read: one read per update"
fi

sub_until 3 '"uri"' --config "$C" --json subscribe r test://doc/9
expect "--json: a JSON line per update" 130
if [ "$(jq -c 'select(.server == "r" and .params.uri == "test://doc/9")' \
    <<<"$OUT" | wc -l)" = 3 ] && [ "$(wc -l <<<"$OUT")" = 3 ]; then
  ok "--json: three lines, each {server, params}"
else
  bad "--json: three lines, each {server, params}"
fi

run --config "$C" subscribe r test://bye
expect "the server goes away: exit 3" 3 --out "updated test://bye" \
  --err 'server "r" went away'

run --config "$C" subscribe t test://x
expect "no resources.subscribe capability: exit 4" 4 \
  --err 'server "t" does not offer resource subscriptions'
run --config "$C" subscribe R test://x
expect "an unknown server: exit 6, did you mean" 6 \
  --err 'no server named "R" is configured (did you mean "r"'
run --config "$C" subscribe r
expect "no URI: usage" 2 --err "usage: mcphost subscribe SERVER URI"
run --config "$C" subscribe r test://x --bogus
expect "an unknown option: usage" 2 --err 'unknown option "--bogus"'
run subscribe --help
expect "subscribe --help" 0 --out "usage: mcphost [OPTIONS] subscribe SERVER URI"

# server-everything takes the subscription (its updates come only after
# its toggle tool, in the same session); Ctrl-C still ends with 130.
if [ -f "$EVERYTHING" ]; then
  E="$TMP/every.json"
  config_file "$E" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\"]}}"
  IN=err sub_until 1 "subscribed to" --config "$E" subscribe every \
    demo://resource/dynamic/text/1
  expect "server-everything takes the subscription" 130 \
    --err "subscribed to demo://resource/dynamic/text/1 on server \"every\""
else
  bad "server-everything is installed (tests/interop)"
fi

finish
