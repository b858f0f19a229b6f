#!/usr/bin/env bash
# Configuration scopes end to end: `mcphost mcp` add/get/list/remove, the
# project approval flow with .mcp.json at two depths, the enterprise
# directory (deny, allow, exclusive mode), tool permissions, servers from
# a plugin, ${VAR} expansion, and importing from Claude Desktop and Claude
# Code. Every server is a wrapper script that leaves a mark when started,
# so "never started" is checked, not assumed.
. "$(dirname "$0")/../lib/lib.sh"
SETTINGS="$XDG_CONFIG_HOME/mcphost/settings.json"
SYS="$MCPHOST_SYSTEM_CONFIG_DIR"
P="$HOME/proj/sub"
mkdir -p "$TMP/bin" "$TMP/spawned" "$SYS" "$P"
REALP=$(cd "$P" && pwd -P)

# server NAME: an executable that marks $TMP/spawned/NAME and runs the demo.
server() {
  printf '#!/bin/sh\ntouch "%s/spawned/%s"\nexec "%s" "$@"\n' "$TMP" "$1" \
    "$DEMO" >"$TMP/bin/$1"
  chmod +x "$TMP/bin/$1"
}
for s in a b c rootsrv shadow deep denied ent desk desk2 ccuser cclocal x; do
  server "$s"
done
spawned() { [ -e "$TMP/spawned/$1" ]; }
not_spawned() { ! spawned "$1"; }

# prun (lib.sh) runs mcphost in $P, the project's subdirectory.
# out_has REGEX: a line of the last stdout matches (extended regex).
out_has() { printf '%s\n' "$OUT" | grep -Eq "$1"; }
settings_jq() { [ "$(jq -r "$1" "$SETTINGS")" = true ]; }

# Keys mcphost does not know, to be kept by every write.
mkdir -p "$(dirname "$SETTINGS")"
cat >"$SETTINGS" <<'EOF'
{"theme": "dark", "futureKey": {"nested": [1, 2.5, "x"]},
 "projects": {"/elsewhere": {"somethingElse": true}}}
EOF

# ---- mcp add / get / list / remove ----

prun mcp add a -- "$TMP/bin/a"
expect "mcp add stores a stdio server in the local scope by default" 0 \
  --out "Added stdio MCP server a with command: $TMP/bin/a to local config"
check "the local server is recorded under this project's real path" \
  settings_jq ".projects[\"$REALP\"].mcpServers.a.command == \"$TMP/bin/a\""
check "writes keep every key they do not understand" \
  settings_jq '.theme == "dark" and .futureKey.nested == [1, 2.5, "x"] and .projects["/elsewhere"].somethingElse == true'

prun mcp add b -s user -e TOKEN=s3cret -e MODE=fast -- "$TMP/bin/b"
expect "mcp add -s user with -e" 0 --out "to user config ($SETTINGS)"
prun mcp get b
expect "mcp get shows scope, status, type, command and env names, never values" 0 \
  --out "Scope: user" --out "Status: connected" --out "Type: stdio" \
  --out "Command: $TMP/bin/b" --out "Environment: TOKEN, MODE" --no-out "s3cret"

prun mcp add r -s project --transport http -H "Authorization: Bearer hdr-s3cret" \
  http://127.0.0.1:9/mcp
expect "mcp add -s project writes a remote server to ./.mcp.json" 0 \
  --out "Added http MCP server r with URL http://127.0.0.1:9/mcp to project config ($P/.mcp.json)"
check "a new project file holding headers is private (0600)" \
  test "$(stat -c %a "$P/.mcp.json")" = 600
prun --timeout 3000 mcp get r
expect "mcp get shows header names only, and a project server its author added is approved" 3 \
  --out "Scope: project" --out "Headers: Authorization" --no-out "hdr-s3cret" \
  --no-out "pending"

sum_before=$(cksum <"$SETTINGS")
prun mcp add a -- "$TMP/bin/b"
expect "a second add of a name in the same scope is refused" 2 --err "already exists"
check "the refused add changed nothing" test "$(cksum <"$SETTINGS")" = "$sum_before"
prun mcp add "bad name" -- "$TMP/bin/a"
expect "mcp add refuses a name with characters other than letters, digits, - and _" 2 \
  --err "invalid server name"
prun mcp add q --transport http -- "$TMP/bin/a"
expect "a remote transport needs a URL" 2 --err "takes one URL"

prun mcp add-json c "{\"command\": \"$TMP/bin/c\", \"args\": []}" -s user
expect "mcp add-json adds an entry as given" 0 --out "Added stdio MCP server c"
prun mcp add-json c2 '{"command": 5}'
expect "mcp add-json checks the entry" 2 --err "\"command\" must be a non-empty string"

prun --timeout 3000 mcp list
expect "mcp list runs; it exits 3 like servers: r failed" 3
check "mcp list shows a local server with its health" out_has "^a +local +stdio +$TMP/bin/a +- +connected"
check "mcp list shows a user server" out_has "^c +user +stdio +$TMP/bin/c +- +connected"
check "mcp list shows a project server" out_has "^r +project +http +http://127.0.0.1:9/mcp +$P/.mcp.json +(failed|needs-auth)"
prun --json --timeout 3000 mcp list
expect "mcp list --json (exit 3: r failed)" 3 \
  --jq 'map(select(.name == "b"))[0] | .scope == "user" and .status == "connected" and .env == ["TOKEN", "MODE"]' \
  --jq '(tostring | contains("s3cret")) | not'

prun mcp remove c
expect "mcp remove finds the only scope that has the name" 0 \
  --out "Removed MCP server c from user config"
prun mcp add a -s user -- "$TMP/bin/a"
prun mcp remove a
expect "mcp remove asks for a scope when several have the name" 2 --err "several scopes"
prun mcp remove a -s user
expect "mcp remove -s picks the scope" 0 --out "Removed MCP server a from user config"
prun mcp remove nothing
expect "mcp remove of an unknown name" 6 --err "no MCP server named \"nothing\""
prun mcp remove r -s project
expect "mcp remove -s project" 0

# A symbolic link (dotfiles) stays a link; the file it points to changes.
mkdir -p "$TMP/dotfiles" "$TMP/config2/mcphost"
echo '{}' >"$TMP/dotfiles/settings.json"
ln -s "$TMP/dotfiles/settings.json" "$TMP/config2/mcphost/settings.json"
XDG_CONFIG_HOME="$TMP/config2" prun mcp add -s user linked -- "$TMP/bin/a"
check "a symlinked settings file stays a symlink and its target is written" \
  sh -c "[ -L '$TMP/config2/mcphost/settings.json' ] && jq -e '.mcpServers.linked' '$TMP/dotfiles/settings.json' >/dev/null"

# ---- project servers: two depths, approval ----

config_file "$HOME/proj/.mcp.json" \
  "{\"rootsrv\": {\"command\": \"$TMP/bin/rootsrv\"}, \"both\": {\"command\": \"$TMP/bin/shadow\"}}"
config_file "$P/.mcp.json" "{\"both\": {\"command\": \"$TMP/bin/deep\"}}"
prun mcp list
check "a parent's .mcp.json is read, and its servers are pending" \
  out_has "^rootsrv +project +stdio +$TMP/bin/rootsrv +$HOME/proj/.mcp.json +pending approval \(mcphost mcp approve rootsrv\)"
check "the deeper .mcp.json wins a name clash" out_has "^both +project +stdio +$TMP/bin/deep +$P/.mcp.json +pending"
prun servers
prun tools
expect "tools says how to approve a pending server" 0 \
  --err "server \"rootsrv\" not started: project server from $HOME/proj/.mcp.json awaiting approval"
prun call mcp__rootsrv__echo message=x
expect "calling a pending server is refused and says how to approve" 8 \
  --err "mcphost mcp approve rootsrv" --no-err "--approve-project"
check "a pending server is never started (list, servers, tools, call)" \
  sh -c "! [ -e '$TMP/spawned/rootsrv' ] && ! [ -e '$TMP/spawned/deep' ] && ! [ -e '$TMP/spawned/shadow' ]"

prun mcp approve rootsrv both
expect "mcp approve" 0 --out "Approved project server rootsrv for $REALP"
prun call mcp__both__echo message=deep
expect "an approved project server runs" 0 --out "Echo: deep"
check "the deeper definition is the one started" sh -c "[ -e '$TMP/spawned/deep' ] && ! [ -e '$TMP/spawned/shadow' ]"
check "approvals are recorded per project in the user settings" \
  settings_jq ".projects[\"$REALP\"].enabledMcpjsonServers | contains([\"rootsrv\", \"both\"])"
in_dir "$HOME/proj" mcp list
check "an approval in one project does not approve another" \
  out_has "^rootsrv +project +stdio +$TMP/bin/rootsrv +[^ ]+ +pending"

prun mcp reject rootsrv
prun call mcp__rootsrv__echo message=x
expect "a rejected project server is refused" 8 --err "is rejected"
prun --approve-project call mcp__rootsrv__echo message=x
expect "--approve-project never overrides a rejection" 8 --err "is rejected"
prun mcp reset-project-choices
expect "mcp reset-project-choices" 0 --out "pending approval again"
prun mcp list
check "after a reset the project servers are pending again" out_has "^both +project .* pending"
prun --approve-project call mcp__rootsrv__echo message=ci
expect "--approve-project outside a repository covers only the working directory's file" 8 \
  --err "is pending"
mkdir "$HOME/proj/.git"
prun --approve-project call mcp__rootsrv__echo message=ci
expect "--approve-project runs a pending server of the working directory's repository" 0 --out "Echo: ci"
(cd "$P" && MCPHOST_APPROVE_PROJECT_SERVERS=1 "$MCPHOST" call mcp__rootsrv__echo message=env >"$TMP/out" 2>"$TMP/err" </dev/null)
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "MCPHOST_APPROVE_PROJECT_SERVERS=1 does the same for CI" 0 --out "Echo: env"
rmdir "$HOME/proj/.git"
prun mcp approve nosuch
expect "approving a name no .mcp.json defines is an error" 6 --err "no server named \"nosuch\""
rm -f "$HOME/proj/.mcp.json" "$P/.mcp.json"

# ---- enterprise: deny, allow, exclusive ----

D="$TMP/dyn.json"
config_file "$D" "{\"denied\": {\"command\": \"$TMP/bin/denied\"}, \"evil\": {\"url\": \"https://mcp.evil.example/x\"}}"
cat >"$SYS/managed-settings.json" <<EOF
{"deniedMcpServers": [{"serverCommand": ["$TMP/bin/denied"]}, {"serverUrl": "https://*.evil.example/*"}]}
EOF
prun --mcp-config "$D" servers
check "a denied server is listed with the reason" \
  out_has "^denied +stdio +denied: denied by deniedMcpServers entry \{\"serverCommand\":\[\"$TMP/bin/denied\"\]\} \($SYS/managed-settings.json: deniedMcpServers\[0\]\)"
check "a URL wildcard denies a remote server" out_has "^evil +http +denied: .*serverUrl"
prun --mcp-config "$D" call mcp__denied__echo message=x
expect "calling a denied server is refused" 8 --err "is denied"
prun --mcp-config "$D" tools
prun --mcp-config "$D" mcp list
prun --mcp-config "$D" mcp get denied
expect "mcp get shows why a server is denied" 0 --out "Status: denied: denied by deniedMcpServers"
(cd "$P" && printf '%s\n' '{"id": 1, "call": "mcp__denied__echo", "arguments": {}}' |
  "$MCPHOST" --mcp-config "$D" batch >"$TMP/out" 2>"$TMP/err")
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "batch refuses a denied server" 0 --jq '.error.exit == 8'
check "a denied server is never started (servers, tools, call, list, get, batch)" not_spawned denied

cat >"$SYS/managed-settings.json" <<'EOF'
{"allowedMcpServers": [{"serverName": "a"}]}
EOF
prun --mcp-config "$D" servers
check "an allow list refuses what it does not list" \
  out_has "^denied +stdio +denied: not in allowedMcpServers \($SYS/managed-settings.json: allowedMcpServers\)"
check "an allow list admits what it lists" out_has "^a +stdio +connected"
echo '{"allowedMcpServers": []}' >"$SYS/managed-settings.json"
prun servers
check "an empty allow list admits nothing" out_has "^a +stdio +denied: not allowed: allowedMcpServers is empty"
rm -f "$SYS/managed-settings.json"

config_file "$SYS/managed-mcp.json" "{\"ent\": {\"command\": \"$TMP/bin/ent\"}}"
prun --mcp-config "$D" mcp list
expect "exclusive mode: managed-mcp.json's servers only" 0 --no-out "denied" \
  --err "the servers given on the command line are not used"
check "exclusive mode lists the enterprise server" out_has "^ent +enterprise +stdio"
check "exclusive mode hides the local server" sh -c "! printf '%s' \"\$1\" | grep -q '^a '" _ "$OUT"
echo '{"managedMcpServersExclusive": false}' >"$SYS/managed-settings.json"
prun mcp list
check "managedMcpServersExclusive: false merges enterprise servers first" \
  sh -c "printf '%s\n' \"\$1\" | sed -n 2p | grep -q '^ent '" _ "$OUT"
rm -f "$SYS/managed-mcp.json" "$SYS/managed-settings.json"

# ---- tool permissions ----

jq '.permissions = {"ask": ["mcp__a__echo"], "allow": ["mcp__a__add"]}' "$SETTINGS" >"$TMP/s.json" && cp "$TMP/s.json" "$SETTINGS"
echo '{"permissions": {"deny": ["mcp__a__add"]}}' >"$SYS/managed-settings.json"
prun call mcp__a__add a=1 b=2
expect "an enterprise deny is not loosened by a user allow" 8 \
  --err "tool call refused: mcp__a__add: deny rule \"mcp__a__add\" (enterprise settings $SYS/managed-settings.json: permissions.deny[0])"
prun call mcp__a__echo message=x
expect "an ask rule without a terminal refuses and names --allow" 8 \
  --err "needs permission" --err "pass --allow mcp__a__echo"
prun --allow 'mcp__a__*' call mcp__a__echo message=allowed
expect "--allow answers an ask" 0 --out "Echo: allowed"
prun --allow 'mcp__a__*' call mcp__a__add a=1 b=2
expect "--allow does not answer a deny" 8 --err "deny rule"
if command -v script >/dev/null; then
  printf 'y\n' | (cd "$P" && script -qec "'$MCPHOST' call mcp__a__echo message=tty" /dev/null) >"$TMP/out" 2>&1
  RC=$?; OUT=$(cat "$TMP/out"); ERR=""
  expect "an ask on a terminal: y runs the call" 0 --out "[y/N]" --out "Echo: tty"
  printf 'n\n' | (cd "$P" && script -qec "'$MCPHOST' call mcp__a__echo message=tty" /dev/null) >"$TMP/out" 2>&1
  RC=$?; OUT=$(cat "$TMP/out"); ERR=""
  expect "an ask on a terminal: n refuses it" 8 --out "denied at the terminal" --no-out "Echo: tty"
else
  echo "skip terminal prompt checks: no script(1)"
fi
rm -f "$SYS/managed-settings.json"

# ---- servers from a plugin; permission plugins ----

prun --plugin-dir "$FIXTURES/source" --json mcp list
expect "a plugin's server appears as plugin:<id>:<name>" 0 \
  --jq 'map(select(.name == "plugin:test.source:hello"))[0] | .scope == "plugin" and .status == "connected"'
prun --plugin-dir "$FIXTURES/source" --json plugins
expect "plugins shows a server source and a permission decider" 0 \
  --jq 'map(select(.id == "test.source"))[0] | .serverSource == "test servers" and .permissionDecider == true'
prun --plugin-dir "$FIXTURES/source" call mcp__plugin_test_source_hello__whoami
expect "a plugin's server is called by its mcp__ name" 0 --out "served by test.source"
(cd "$P" && FIXTURE_SOURCE_DUP_CMD="$TMP/bin/a" "$MCPHOST" --plugin-dir "$FIXTURES/source" mcp list >"$TMP/out" 2>"$TMP/err" </dev/null)
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "a plugin's server with a configured command is skipped, naming the winner" 0 \
  --err "MCP server \"plugin:test.source:dup\" skipped — same command/URL as already-configured \"a\""
jq '.permissions = {"ask": ["mcp__plugin_test_source_hello__*", "mcp__plugin_test_source14_hello__*"]}' "$SETTINGS" >"$TMP/s.json" && cp "$TMP/s.json" "$SETTINGS"
prun --plugin-dir "$FIXTURES/source" call mcp__plugin_test_source_hello__yes_tool
expect "a permission plugin answers an ask (later, from a timer)" 0 --out "served by test.source"
prun --plugin-dir "$FIXTURES/source" call mcp__plugin_test_source_hello__no_tool
expect "a permission plugin refuses an ask (at once)" 8 --err "denied by plugin test.source: the fixture refuses no_ tools"
prun --plugin-dir "$FIXTURES/source" call mcp__plugin_test_source_hello__maybe_tool
expect "when every plugin abstains and there is no terminal, an ask is refused" 8 \
  --err "nobody can answer"
prun --plugin-dir "$FIXTURES/source" call mcp__plugin_test_source_hello__three_tool
expect "a plugin that withdraws (ABSTAIN, ABI 1.5) leaves the question to the others" 8 \
  --err "nobody can answer" --no-err "denied by plugin"
prun --plugin-dir "$FIXTURES/source14" call mcp__plugin_test_source14_hello__three_tool
expect "a 1.4 plugin's answer 3 is still a refusal" 8 \
  --err "denied by plugin test.source14: the fixture answers 3 to three_ tools"
if command -v script >/dev/null; then
  mkfifo "$TMP/quiet"
  exec 9<>"$TMP/quiet" # a terminal where nobody types
  (cd "$P" && script -qec "'$MCPHOST' --plugin-dir '$FIXTURES/source' call mcp__plugin_test_source_hello__yes_tool" /dev/null <"$TMP/quiet") >"$TMP/out" 2>&1
  RC=$?; OUT=$(cat "$TMP/out"); ERR=""
  exec 9>&-
  expect "the plugin answers first while the terminal waits" 0 \
    --out "allowed by plugin test.source" --out "served by test.source"
fi
jq 'del(.permissions)' "$SETTINGS" >"$TMP/s.json" && cp "$TMP/s.json" "$SETTINGS"

# ---- ${VAR} expansion ----

prun mcp add-json x '{"command": "${MCPHOST_T_BIN:-/nonexistent}/x", "env": {"K": "${MCPHOST_T_UNSET}"}}'
check "\${VAR} is stored as written" \
  settings_jq ".projects[\"$REALP\"].mcpServers.x.command == \"\${MCPHOST_T_BIN:-/nonexistent}/x\""
(cd "$P" && MCPHOST_T_BIN="$TMP/bin" "$MCPHOST" call mcp__x__echo message=expanded >"$TMP/out" 2>"$TMP/err" </dev/null)
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "\${VAR} is expanded at load time; an unset one is a warning naming server and field" 0 \
  --out "Echo: expanded" \
  --err "server \"x\": \${MCPHOST_T_UNSET} is not set and has no default; left as written (at projects[\"$REALP\"].mcpServers.x.env.K)"
check "the expansion is never written back" \
  settings_jq ".projects[\"$REALP\"].mcpServers.x.command == \"\${MCPHOST_T_BIN:-/nonexistent}/x\""
prun mcp remove x

# ---- import ----

mkdir -p "$XDG_CONFIG_HOME/Claude"
cat >"$XDG_CONFIG_HOME/Claude/claude_desktop_config.json" <<EOF
{"globalShortcut": "Ctrl+Space",
 "mcpServers": {"desk": {"command": "$TMP/bin/desk", "env": {"API": "k"}},
                "bad": {"command": 7}}}
EOF
prun mcp import claude-desktop
expect "import claude-desktop copies its servers into the local scope" 0 \
  --out "imported: desk" --err "skipped"
prun mcp get desk
expect "an imported server works" 0 --out "Scope: local" --out "Status: connected"
prun mcp import claude-desktop
expect "importing again skips what is already there unchanged" 0 --out "already there: desk"
jq ".mcpServers.desk.command = \"$TMP/bin/desk2\"" "$XDG_CONFIG_HOME/Claude/claude_desktop_config.json" >"$TMP/d.json"
prun mcp import claude-desktop --from "$TMP/d.json" -s user
expect "--from and --scope; a different entry of the same name" 0 \
  --out "into user config" --out "imported: desk"
prun mcp import claude-desktop --from "$TMP/d.json" -s user
prun mcp import claude-desktop --from "$TMP/d.json"
expect "a changed entry whose name is taken is imported as NAME_1" 0 --out "imported: desk_1"

config_file "$P/.mcp.json" "{\"rootsrv\": {\"command\": \"$TMP/bin/rootsrv\"}}"
cat >"$HOME/.claude.json" <<EOF
{"numStartups": 3,
 "mcpServers": {"ccuser": {"type": "stdio", "command": "$TMP/bin/ccuser", "args": []}},
 "projects": {"$REALP": {"mcpServers": {"cclocal": {"command": "$TMP/bin/cclocal"}},
                         "enabledMcpjsonServers": ["rootsrv"]}}}
EOF
prun mcp import claude-code
expect "import claude-code: user servers to user, this project's to local, approvals too" 0 \
  --out "imported: ccuser" --out "imported: cclocal" --out "1 approved"
prun --json mcp list
expect "the imported servers are in their scopes; a name approved without a record is pending, showing what it runs" 0 \
  --jq 'map(select(.name == "ccuser"))[0].scope == "user"' \
  --jq 'map(select(.name == "cclocal"))[0].scope == "local"' \
  --jq 'map(select(.name == "rootsrv"))[0] | .state == "pending" and (.reason | contains("approved by name only")) and (.reason | contains("it runs command: '"$TMP"'/bin/rootsrv"))'
prun mcp approve rootsrv
prun --json mcp list
expect "approved as it is, it holds" 0 \
  --jq 'map(select(.name == "rootsrv"))[0].state == "approved"'
rm -f "$P/.mcp.json"

# ---- keys that are slips: warned, never refused ----
T="$TMP/typo.json"
config_file "$T" "{\"a\": {\"command\": \"$DEMO\", \"arg\": [\"-x\"]},
  \"d\": {\"command\": \"$DEMO\", \"disabled\": true},
  \"h\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:9/mcp\", \"header\": {}},
  \"k\": {\"command\": \"$DEMO\", \"args\": [], \"someToolsKey\": 1}}"
run --strict-mcp-config --config "$T" mcp list --json
# (exit 3: h's port has no server)
expect "a key close to a known one: warned with the file, server, key and the one meant" 3 \
  --err "$T: server \"a\": unknown key \"arg\" (did you mean \"args\"?): not read (at mcpServers.a.arg)" \
  --err "server \"h\": unknown key \"header\" (did you mean \"headers\"" \
  --jq 'map(.name) | index("a") != null'
expect "\"disabled\": true is said not to be read, naming disabledMcpServers" 3 \
  --err "$T: server \"d\": \"disabled\" is not read" \
  --err "disabledMcpServers" \
  --jq 'map(select(.name == "d"))[0].state == "active"'
expect "a key far from every known one stays silent, as before" 3 \
  --no-err "someToolsKey"

# A warning about one server comes with what uses that server and with
# the lists of servers, not with every command.
run --strict-mcp-config --config "$T" call a/echo message=hi
expect "a call to one server says nothing of the others' slips" 0 \
  --err 'server "a": unknown key "arg"' --no-err 'server "d"' \
  --no-err 'server "h"'
run --strict-mcp-config --config "$T" tools d
expect "a command that uses the server says its warnings" 0 \
  --err "$T: server \"d\": \"disabled\" is not read" --no-err 'server "a"'
run --strict-mcp-config --config "$T" servers
expect "servers says every server's warnings, once each" 3 \
  --err 'server "a": unknown key "arg"' --err 'server "d": "disabled"' \
  --err 'server "h": unknown key "header"'
check "servers says each warning once" \
  test "$(grep -c 'server "d": "disabled"' "$TMP/err")" = 1
run --strict-mcp-config --config "$T" mcp get d
expect "mcp get NAME says that server's warnings" 0 \
  --err 'server "d": "disabled"' --no-err 'server "a"'

finish
