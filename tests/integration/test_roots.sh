#!/usr/bin/env bash
# Roots (docs/config.md, Roots): which directories a server is offered in
# roots/list. A server such as @modelcontextprotocol/server-filesystem
# replaces its own allowed directories with them, so they must be what the
# user chose: the working directory by default (never "/"), --root DIR,
# a per-server "roots" list, --no-roots; a server's "cwd" is not a root.
# Checked with server-everything's get-roots-list, which shows the roots
# the server received.
. "$(dirname "$0")/../lib/lib.sh"
if [ ! -f "$EVERYTHING" ]; then
  skip_test "server-everything is not installed in tests/interop"
fi
P=$(realpath "$TMP")/proj
mkdir -p "$P/sub" "$TMP/cfg/data" "$TMP/other" "$TMP/r1" "$TMP/r2"
R=$(realpath "$TMP")
C="$TMP/cfg/every.json"
entry() { printf '{"every": {"command": "node", "args": ["%s", "stdio"]%s}}' "$EVERYTHING" "$1"; }
config_file "$C" "$(entry '')"

cd "$P" || exit 1
run --config "$C" call every/get-roots-list
expect "by default the working directory is the one root" 0 \
  --out "Current MCP Roots (1 total)" --out "URI: file://$P"

cd / || exit 1
run --config "$C" call every/get-roots-list
expect "run from /, the whole disk is not offered: no roots" 0 \
  --out "no roots are currently configured" --no-out "URI: file:///"
run --config "$C" --root / call every/get-roots-list
expect "--root / offers it when asked" 0 --out "URI: file:///"$'\n'
cd "$P" || exit 1

run --config "$C" --root "$TMP/r1" --root ../r2 call every/get-roots-list
expect "--root DIR replaces the working directory, repeatable, relative to it" 0 \
  --out "Current MCP Roots (2 total)" --out "URI: file://$R/r1" \
  --out "URI: file://$R/r2" --no-out "URI: file://$P"$'\n'

config_file "$C" "$(entry ', "roots": ["data", "/tmp"]')"
run --config "$C" call every/get-roots-list
expect "a server's \"roots\" are its roots, relative ones from its file's directory" 0 \
  --out "Current MCP Roots (2 total)" --out "URI: file://$R/cfg/data" \
  --out "URI: file:///tmp" --no-out "URI: file://$P"
run --config "$C" --root "$TMP/r1" call every/get-roots-list
expect "--root wins over a server's \"roots\"" 0 \
  --out "Current MCP Roots (1 total)" --out "URI: file://$R/r1"

config_file "$C" "$(entry ', "roots": []')"
run --config "$C" call every/get-roots-list
expect "\"roots\": [] offers none (the capability stays, the list is empty)" 0 \
  --out "no roots are currently configured"

config_file "$C" "$(entry ", \"cwd\": \"$TMP/other\"")"
run --config "$C" call every/get-roots-list
expect "a server's cwd is not a root" 0 \
  --out "URI: file://$P" --no-out "other"

config_file "$C" "$(entry ', "roots": ["data", "missing"]')"
run --config "$C" call every/get-roots-list
expect "a root that is not a directory is left out with a warning naming it" 0 \
  --out "Current MCP Roots (1 total)" --out "URI: file://$R/cfg/data" \
  --err "mcpServers.every.roots[1]" --err "missing"

config_file "$C" "$(entry '')"
run --config "$C" --no-roots -vvv call every/get-roots-list
expect "--no-roots declares no roots capability (the server offers no get-roots-list)" 6 \
  --err '"method":"initialize"' --no-err '"roots":{'

run --config "$C" --root "$TMP/nowhere" tools
expect "--root with a missing directory is a usage error" 2 \
  --err "--root $TMP/nowhere" --err "No such file or directory"
run --config "$C" --root "$TMP/r1" --no-roots tools
expect "--root and --no-roots together are a usage error" 2 \
  --err "exclude each other"

config_file "$C" "$(entry ', "roots": "data"')"
run --config "$C" call every/get-roots-list
expect "\"roots\" that is not a list is a config error naming the field" 3 \
  --err "\"roots\" must be a list" --err "mcpServers.every.roots"
config_file "$C" "$(entry ', "roots": ["data", 7]')"
run --config "$C" call every/get-roots-list
expect "a root that is not a string is a config error naming the element" 3 \
  --err "mcpServers.every.roots[1]"

# A long session: new roots are announced (notifications/roots/list_changed)
# and the server asks again. Each step waits until the server logged that
# it received roots, so the check never races the server's request.
config_file "$C" "$(entry '')"
LOG="$XDG_STATE_HOME/mcphost/logs/every.log"
rm -f "$LOG"
received() { [ "$(grep -c 'Roots updated' "$LOG" 2>/dev/null)" -ge "$1" ]; }
wait_received() {
  for _ in $(seq 300); do received "$1" && return 0; sleep 0.1; done
  return 1
}
coproc B { "$MCPHOST" -vvv --config "$C" batch 2>"$TMP/err"; }
BPID=$B_PID # bash unsets B_PID once the coprocess ends
echo '{"id":1,"call":"every/get-roots-list"}' >&"${B[1]}"
read -r first <&"${B[0]}"
echo "{\"id\":2,\"roots\":[\"$TMP/r1\", \"sub\"]}" >&"${B[1]}"
read -r second <&"${B[0]}"
wait_received 2
echo '{"id":3,"call":"every/get-roots-list"}' >&"${B[1]}"
read -r third <&"${B[0]}"
echo '{"id":4,"roots":["'"$TMP"'/nowhere"]}' >&"${B[1]}"
read -r fourth <&"${B[0]}"
exec {B[1]}>&-
wait "$BPID"; RC=$?
OUT="$first
$second
$third
$fourth"; ERR=$(cat "$TMP/err")
expect "batch: the first call sees the working directory" 0 \
  --out '"id":1,"result"' --out "URI: file://$P\\n"
expect "batch: {\"roots\": [...]} answers with the roots as offered" 0 \
  --out "{\"id\":2,\"result\":{\"roots\":[{\"uri\":\"file://$R/r1\",\"name\":\"r1\"},{\"uri\":\"file://$P/sub\",\"name\":\"sub\"}]}}"
expect "batch: connected servers are sent notifications/roots/list_changed" 0 \
  --err '-> {"jsonrpc":"2.0","method":"notifications/roots/list_changed"}'
expect "batch: and the server's next roots/list gets the new set" 0 \
  --out '"id":3,"result"' --out "Current MCP Roots (2 total)" \
  --out "URI: file://$R/r1" --out "URI: file://$P/sub"
expect "batch: a root that is not a directory is a usage error" 0 \
  --out '{"id":4,"error":{"exit":2,"message":"\"roots\"[0]: '
finish
