#!/usr/bin/env bash
# Corrupt and hostile configuration files, and concurrent writers: each
# bad file costs that file (with an error naming it), the other sources
# still work, nothing is rewritten or lost, nothing hangs.
#
# The tests run as root, for whom permission bits make nothing unreadable;
# "unreadable" is covered by files that cannot be read for other reasons:
# a FIFO (a read would block forever), a dangling symbolic link, a
# directory (EISDIR), a file over the 16 MiB limit.
. "$(dirname "$0")/../lib/lib.sh"
SETTINGS="$XDG_CONFIG_HOME/mcphost/settings.json"
P="$HOME/proj"
mkdir -p "$P" "$(dirname "$SETTINGS")" "$MCPHOST_SYSTEM_CONFIG_DIR"
GOOD="$TMP/good.json"
config_file "$GOOD" "{\"good\": {\"command\": \"$DEMO\"}}"

unchanged() { cmp -s "$1" "$2"; }

# ---- the user settings file ----

printf '{"mcpServers": {"u": {"command": "%s"}},\n  "oops": [1, 2,,]}\n' "$DEMO" >"$SETTINGS"
cp "$SETTINGS" "$TMP/settings.orig"
prun --mcp-config "$GOOD" call mcp__good__echo message=still
expect "invalid JSON in the user settings: an error naming file and line, other sources used" 0 \
  --out "Echo: still" --err "config error: $SETTINGS: invalid JSON near line 2, column 17"
prun mcp add x -s user -- "$DEMO"
expect "mcp add refuses to rewrite a settings file that is not valid JSON" 3 \
  --err "$SETTINGS: invalid JSON near line 2, column 17: a value was expected; not changing it"
prun mcp approve whatever
check "nothing rewrote or lost the broken settings file" unchanged "$SETTINGS" "$TMP/settings.orig"

# A string holding \u0000 and numbers a double does not hold: a rewrite
# keeps them as written.
printf '{"mcpServers": {},\n  "note": "before\\u0000after", "n": [12345678901234567890, 1.0]}\n' >"$SETTINGS"
prun mcp add x -s user -- "$DEMO"
expect "mcp add rewrites a settings file whose string holds \\u0000" 0
check "and keeps that string whole" \
  grep -qF '"note": "before\u0000after"' "$SETTINGS"
check "and the numbers as written" grep -qF '12345678901234567890,' "$SETTINGS"
printf '{"mcpServers": {},\n  "note": "a \\\\u0000 is text here"}\n' >"$SETTINGS"
prun mcp add x -s user -- "$DEMO"
expect "an escaped backslash before u0000 is only text: the file is rewritten" 0
check "and keeps that text" grep -qF 'a \\u0000 is text here' "$SETTINGS"

echo '{"mcpServers": [], "projects": 5, "disabledMcpServers": "good", "permissions": []}' >"$SETTINGS"
prun --mcp-config "$GOOD" call mcp__good__echo message=types
expect "wrong types in the user settings are errors with their JSON path; the rest works" 0 \
  --out "Echo: types" \
  --err "$SETTINGS: \"mcpServers\" must be an object (at mcpServers)" \
  --err "$SETTINGS: \"projects\" must be an object (at projects)" \
  --err "must be an array of server names (at disabledMcpServers)" \
  --err "\"permissions\" must be an object (at permissions)"
cp "$SETTINGS" "$TMP/settings.orig"
prun mcp add x -s user -- "$DEMO"
expect "mcp add will not replace an mcpServers of another type" 3 --err "is not an object; not changing the file"
check "the settings file is as it was" unchanged "$SETTINGS" "$TMP/settings.orig"
rm -f "$SETTINGS"

# ---- .mcp.json: bad entries, bad files ----

cat >"$P/.mcp.json" <<EOF
{"mcpServers": {
  "num": {"command": 5},
  "str": "not an object",
  "type": {"type": 3, "command": "$DEMO"},
  "fine": {"command": "$DEMO"}}}
EOF
prun --approve-project call mcp__fine__echo message=entries
expect "a bad entry costs that entry only, each error naming file, server and path" 0 \
  --out "Echo: entries" \
  --err "$P/.mcp.json: server \"num\": \"command\" must be a non-empty string (at mcpServers.num.command)" \
  --err "$P/.mcp.json: server \"str\": must be an object (at mcpServers.str)" \
  --err "$P/.mcp.json: server \"type\": \"type\" must be a string (at mcpServers.type.type)"

head -c 17000000 /dev/zero | tr '\0' ' ' >"$P/.mcp.json"
prun --mcp-config "$GOOD" call mcp__good__echo message=huge
expect "a huge .mcp.json is refused unread; the other sources work" 0 \
  --out "Echo: huge" --err "$P/.mcp.json: too large (17000000 bytes; the limit is 16777216)"
rm -f "$P/.mcp.json"

mkfifo "$P/.mcp.json"
prun --mcp-config "$GOOD" call mcp__good__echo message=fifo
expect "a FIFO as .mcp.json is refused without blocking" 0 \
  --out "Echo: fifo" --err "$P/.mcp.json: not a regular file"
rm -f "$P/.mcp.json"

ln -s "$TMP/nowhere.json" "$P/.mcp.json"
prun --mcp-config "$GOOD" call mcp__good__echo message=dangling
expect "a dangling symlink as .mcp.json is an error; the other sources work" 0 \
  --out "Echo: dangling" --err "$P/.mcp.json: cannot open: a symbolic link to a file that does not exist"
prun mcp add y -s project -- "$DEMO"
expect "mcp add will not write through a dangling symlink" 3 --err "cannot be resolved"
check "the dangling symlink is left alone" test -L "$P/.mcp.json"
rm -f "$P/.mcp.json"

mkdir "$TMP/dir.json"
prun --mcp-config "$TMP/dir.json" --mcp-config "$GOOD" call mcp__good__echo message=dir
expect "a directory given as --mcp-config is a usage error; nothing starts" 2 \
  --no-out "Echo: dir" --err "$TMP/dir.json: is a directory, not a config file"
mkdir "$P/.mcp.json"
prun --mcp-config "$GOOD" call mcp__good__echo message=dir2
expect "a directory named .mcp.json is an error; the other sources work" 0 \
  --out "Echo: dir2" --err "$P/.mcp.json: is a directory"
prun mcp add z -s project -- "$DEMO"
expect "mcp add does not replace a directory named .mcp.json" 3 --err "is a directory"
rmdir "$P/.mcp.json"

prun --mcp-config '{"mcpServers": {"inline": {"command": "'"$DEMO"'"}}}' call mcp__inline__echo message=text
expect "--mcp-config takes JSON text" 0 --out "Echo: text"
prun --mcp-config '{"mcpServers": {' --mcp-config "$GOOD" call mcp__good__echo message=badtext
expect "bad JSON text in --mcp-config is a usage error naming the argument" 2 \
  --no-out "Echo: badtext" --err "--mcp-config argument 1: invalid JSON"
prun --mcp-config "$TMP/none.json" --mcp-config "$GOOD" call mcp__good__echo message=missing
expect "a missing --mcp-config file is a usage error; nothing starts" 2 \
  --no-out "Echo: missing" --err "$TMP/none.json: cannot open"

# ---- the enterprise files ----

echo '{"deniedMcpServers": [' >"$MCPHOST_SYSTEM_CONFIG_DIR/managed-settings.json"
prun --mcp-config "$GOOD" call mcp__good__echo message=x
expect "an unreadable enterprise policy fails closed: nothing starts" 8 \
  --err "managed-settings.json: invalid JSON" --err "cannot be read"
echo '{"deniedMcpServers": [{"serverName": "x", "serverUrl": "y"}, {"bogus": 1}, {"serverName": "good"}]}' \
  >"$MCPHOST_SYSTEM_CONFIG_DIR/managed-settings.json"
prun --mcp-config "$GOOD" servers
expect "bad policy entries are errors with their path; the good ones apply" 0 \
  --err "exactly one of \"serverName\", \"serverCommand\", \"serverUrl\" (at deniedMcpServers[0])" \
  --err "unknown policy key \"bogus\"" --out "denied: denied by deniedMcpServers entry {\"serverName\":\"good\"}"
rm -f "$MCPHOST_SYSTEM_CONFIG_DIR/managed-settings.json"

# ---- concurrent writers ----

echo '{"keep": "me", "mcpServers": {"old": {"command": "/bin/true"}}}' >"$SETTINGS"
for i in $(seq 1 50); do
  (cd "$P" && "$MCPHOST" mcp add "p$i" -s user -- "/bin/srv$i" >/dev/null 2>"$TMP/add$i.err") &
done
wait
check "50 parallel mcp add: the file is valid JSON" jq -e . "$SETTINGS"
check "50 parallel mcp add: every entry is there, and the old ones" \
  sh -c "[ \"\$(jq '.mcpServers | length' '$SETTINGS')\" = 51 ] && [ \"\$(jq -r .keep '$SETTINGS')\" = me ]"
check "50 parallel mcp add: each wrote its own command" \
  sh -c "for i in \$(seq 1 50); do [ \"\$(jq -r .mcpServers.p\$i.command '$SETTINGS')\" = /bin/srv\$i ] || exit 1; done"
check "no temporary file is left behind" \
  sh -c "! ls -A '$(dirname "$SETTINGS")' | grep -q tmp"
check "the settings file kept its mode" test "$(stat -c %a "$SETTINGS")" = 644

for i in $(seq 1 20); do
  (cd "$P" && "$MCPHOST" mcp add "q$i" -s project -- "/bin/q$i" >/dev/null 2>&1) &
  (cd "$P" && "$MCPHOST" mcp remove "p$i" -s user >/dev/null 2>&1) &
done
wait
check "concurrent adds and removes on two files: nothing lost, nothing resurrected" \
  sh -c "[ \"\$(jq '.mcpServers | length' '$P/.mcp.json')\" = 20 ] && [ \"\$(jq '.mcpServers | length' '$SETTINGS')\" = 31 ]"

finish
