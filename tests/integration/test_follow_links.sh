#!/bin/bash
# --follow-links[=N] for call and prompt: the resource links of a result
# are read from the same server and printed after it; at most N (10 by
# default), each URI once, none the result embeds; a link that cannot be
# read is said and the exit stays.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the test server"

RS="$SRCDIR/tests/servers/resource_server.py"
LOG="$TMP/requests.log"
C="$TMP/c.json"
config_file "$C" "{\"r\": {\"command\": \"python3\", \"args\": [\"$RS\"],
    \"env\": {\"RESOURCE_LOG\": \"$LOG\", \"RESOURCE_NAME\": \"r\"}},
  \"r2\": {\"command\": \"python3\", \"args\": [\"$RS\"],
    \"env\": {\"RESOURCE_LOG\": \"$LOG\", \"RESOURCE_NAME\": \"r2\"}}}"

# reads: the URIs resources/read was asked for, in order, as SERVER:URI.
reads() {
  jq -r 'select(.method == "resources/read") | "\(.server):\(.params.uri)"' \
    "$LOG" 2>/dev/null | paste -sd ' '
}

: >"$LOG"
run --config "$C" call r/links
expect "without the option nothing is read" 0 --out "[resource link: test://doc/1"
[ -z "$(reads)" ] && ok "no resources/read" || bad "no resources/read" "$(reads)"

: >"$LOG"
run --config "$C" call r/links --follow-links
expect "the links after the result" 0 \
  --out "[resource link: test://missing test://missing]
[linked resource test://doc/1]
test://doc/1, version 0
[linked resource test://doc/3]" \
  --err "4 more resource links not followed (at most 10; --follow-links=N)"
want="r:test://doc/1 r:test://doc/3 r:test://doc/4 r:test://doc/5 r:test://doc/6 r:test://doc/7 r:test://doc/8 r:test://doc/9 r:test://doc/10 r:test://doc/11"
if [ "$(reads)" = "$want" ]; then
  ok "ten read, each URI once, the embedded one not, all from the same server"
else
  bad "ten read, each URI once, the embedded one not, all from the same server" "reads: $(reads)"
fi

: >"$LOG"
run --config "$C" call --follow-links=20 r/links
expect "--follow-links=N; a link that cannot be read is said, the exit stays" 0 \
  --out "[linked resource test://doc/14]" \
  --err "resource link test://missing not read:" --err "Resource not found: test://missing" \
  --no-err "not followed"
if [ "$(reads | wc -w)" = 14 ] && ! reads | grep -q "r2:\|test://doc/2 "; then
  ok "fourteen distinct links read, from r only"
else
  bad "fourteen distinct links read, from r only" "reads: $(reads)"
fi

: >"$LOG"
run --config "$C" --json call r/links --follow-links=2
expect "--json: {result, links}" 0 \
  --jq '.result.content[0].text == "links:\n"' \
  --jq '[.links[].uri] == ["test://doc/1", "test://doc/3"]' \
  --jq '.links[0].contents[0].text == "test://doc/1, version 0\n"'

: >"$LOG"
run --config "$C" call r/links n=1 --follow-links=2
expect "--follow-links after the arguments, as docs/cli.md shows it" 0 \
  --out "[linked resource test://doc/3]" --no-err "is not KEY=VALUE"
[ "$(reads)" = "r:test://doc/1 r:test://doc/3" ] &&
  ok "two read after KEY=VALUE" || bad "two read after KEY=VALUE" "$(reads)"
run --config "$C" --json call r/links --follow-links=20
expect "--json: a link not read has its error" 0 \
  --jq '(.links | map(select(.uri == "test://missing"))[0].error.exit) == 6'

: >"$LOG"
run --config "$C" call r/fail --follow-links
expect "a tool error: no link followed, exit 1" 1 --no-out "[linked resource"
[ -z "$(reads)" ] && ok "nothing read after isError" || bad "nothing read after isError" "$(reads)"

: >"$LOG"
run --config "$C" prompt r/linked --follow-links
expect "prompt: the messages' links" 0 \
  --out "[linked resource test://doc/5]
test://doc/5, version 0"
[ "$(reads)" = "r:test://doc/5" ] && ok "prompt: read once" || bad "prompt: read once" "$(reads)"

run --config "$C" call r/links --follow-links=0
expect "--follow-links=0: usage" 2 --err "--follow-links=N needs a number of links from 1 to 100"
run --config "$C" call r/links --follow-links=x
expect "--follow-links=x: usage" 2 --err 'not "x"'

if [ -f "$EVERYTHING" ]; then
  E="$TMP/every.json"
  config_file "$E" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\"]}}"
  run --config "$E" --output-dir "$TMP/files" call every/get-resource-links --follow-links count=2
  expect "server-everything's links" 0 \
    --out "[linked resource demo://resource/dynamic/blob/1]" \
    --out "[linked resource demo://resource/dynamic/text/2]
Resource 2: This is a plaintext resource"
else
  bad "server-everything is installed (tests/interop)"
fi

finish
