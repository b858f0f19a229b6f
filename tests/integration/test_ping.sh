#!/bin/bash
# mcphost ping SERVER...: one line per server with its round trip, --json
# as a list; an unknown server is exit 6, a server that cannot start 3.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the typed server"

TYPED="$SRCDIR/tests/servers/typed_server.py"
C="$TMP/typed.json"
config_file "$C" "{\"t\": {\"command\": \"python3\", \"args\": [\"$TYPED\"]},
  \"u\": {\"command\": \"python3\", \"args\": [\"$TYPED\"]},
  \"gone\": {\"command\": \"$TMP/no-such-server\"}}"

run --config "$C" ping t u
expect "ping two servers" 0
if grep -Eq '^t: [0-9]+\.[0-9]{3} ms$' <<<"$OUT" &&
  grep -Eq '^u: [0-9]+\.[0-9]{3} ms$' <<<"$OUT" &&
  [ "$(wc -l <<<"$OUT")" = 2 ]; then
  ok "a line per server with its round trip in ms"
else
  bad "a line per server with its round trip in ms"
fi
run --config "$C" --json ping t
expect "ping --json" 0 \
  --jq 'length == 1 and .[0].server == "t" and (.[0].ms | type) == "number" and .[0].ms >= 0'
run --config "$C" ping T
expect "an unknown server: exit 6, did you mean" 6 \
  --err 'no server named "T" is configured (did you mean "t"' --out ''
run --config "$C" ping t gone
expect "a server that cannot start: exit 3, the others still pinged" 3 \
  --out "t: " --err 'server "gone"'
run --config "$C" ping
expect "ping without a server is a usage error" 2 --err "usage: mcphost ping"
run ping --help
expect "ping --help" 0 --out "usage: mcphost [OPTIONS] ping SERVER..."
run tool --help
expect "tool --help" 0 --out "usage: mcphost [OPTIONS] tool TOOL"

finish
