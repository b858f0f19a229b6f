#!/usr/bin/env bash
# Issue 11, points 1 and 4 (the "MCPoison" pattern, CVE-2025-54136): an
# approval of a project server holds only for the entry it was given to.
# After `mcp approve tools`, a pull that rewrites the entry's command,
# args, env, cwd, url or headers must not run the new command without a
# question; blanket approvals warn and are bound the same way.
. "$(dirname "$0")/../lib/other_user.sh"
SETTINGS="$XDG_CONFIG_HOME/mcphost/settings.json"
R="$HOME/repo"
mkdir -p "$R/.git" "$(dirname "$SETTINGS")"
EVIL="$TMP/evil-server"
marker_server "$EVIL" "$TMP/pwned"
entry() { printf '{"mcpServers": {"tools": %s}}\n' "$1" >"$R/.mcp.json"; }

BASE="\"command\": \"$DEMO\", \"env\": {\"MODE\": \"ro\", \"TOKEN\": \"\${GITHUB_TOKEN:-none}\"}"
entry "{$BASE}"
in_dir "$R" call mcp__tools__echo message=x
expect "a pending server's message shows what it would run" 8 \
  --err "awaiting approval (it runs command: $DEMO; env: MODE, TOKEN; variables: \${GITHUB_TOKEN})"
echo '{}' >"$SETTINGS"
chmod 0644 "$SETTINGS"
in_dir "$R" mcp approve tools
expect "approve shows the command, env names and \${VAR} references it approves" 0 \
  --out "Approved project server tools" --out "from $R/.mcp.json" \
  --out "command: $DEMO" --out "env: MODE, TOKEN" \
  --out "variables: \${GITHUB_TOKEN}"
check "the approval stores a digest of the entry and its file" \
  jq -e --arg k "$R" --arg f "$R/.mcp.json" \
  '.projects[$k].approvedMcpjsonEntries.tools | (.file == $f) and (.sha256 | length == 64) and (.entry.command | length > 0)' "$SETTINGS"
check "the record keeps digests of env values, never the values" \
  jq -e --arg k "$R" '.projects[$k].approvedMcpjsonEntries.tools.entry.env | to_entries | all(.value | test("^sha256:[0-9a-f]{64}$"))' "$SETTINGS"
check "the settings holding approval records are private" test "$(stat -c %a "$SETTINGS")" = 600
check "the names stay in Claude Code's enabledMcpjsonServers" \
  jq -e --arg k "$R" '.projects[$k].enabledMcpjsonServers == ["tools"]' "$SETTINGS"
in_dir "$R" call mcp__tools__echo message=ok
expect "the approved server runs" 0 --out "Echo: ok"

# The pull: the same name, another command.
entry "{${BASE/$DEMO/$EVIL}}"
in_dir "$R" call mcp__tools__echo message=x
expect "a rewritten command is pending again, with the difference" 8 \
  --err "changed since approval" --err "command: $DEMO -> $EVIL"
check "the new command never ran" test ! -e "$TMP/pwned"
in_dir "$R" mcp list
check "mcp list says it changed" sh -c "grep -q '^tools .*pending approval: changed since approval' '$TMP/out'"
in_dir "$R" mcp get tools
expect "mcp get shows the change" 0 --out "Approval: project server from $R/.mcp.json changed since approval (command: $DEMO -> $EVIL)"

for change in \
  "args|{$BASE, \"args\": [\"--other\"]}|args: (none) -> --other" \
  "env|{\"command\": \"$DEMO\", \"env\": {\"MODE\": \"rw\", \"TOKEN\": \"\${GITHUB_TOKEN:-none}\", \"LD_PRELOAD\": \"/x.so\"}}|env: MODE changed, +LD_PRELOAD" \
  "cwd|{$BASE, \"cwd\": \"/tmp\"}|cwd: (none) -> /tmp" \
  "variables|{\"command\": \"$DEMO\", \"env\": {\"MODE\": \"ro\", \"TOKEN\": \"\${AWS_SECRET_ACCESS_KEY:-none}\"}}|variables: \${GITHUB_TOKEN} -> \${AWS_SECRET_ACCESS_KEY}"; do
  IFS='|' read -r what json diff <<<"$change"
  entry "$json"
  in_dir "$R" call mcp__tools__echo message=x
  expect "a changed $what is pending again, naming the change" 8 \
    --err "changed since approval" --err "$diff"
done

# A remote entry: url and headers are bound too.
entry '{"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"X-A": "1"}}'
in_dir "$R" mcp approve tools
expect "approve shows a URL and header names" 0 --out "url: http://127.0.0.1:9/mcp (http)" --out "headers: X-A"
entry '{"type": "http", "url": "http://127.0.0.1:8/mcp", "headers": {"X-A": "1"}}'
in_dir "$R" call mcp__tools__echo message=x
expect "a changed url is pending again" 8 --err "url: http://127.0.0.1:9/mcp -> http://127.0.0.1:8/mcp"
entry '{"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"X-A": "2"}}'
in_dir "$R" call mcp__tools__echo message=x
expect "a changed header is pending again (its value is not shown)" 8 \
  --err "headers: X-A changed" --no-err '"2"'
entry '{"type": "http", "url": "http://127.0.0.1:9/mcp", "headers": {"X-A": "hdr-s3cret"}}'
in_dir "$R" mcp approve tools
check "an approved header's value is not copied into the settings" bash -c "! grep -q hdr-s3cret '$SETTINGS'"

# Keys that widen what a server may do are shown, and so are removals.
entry "{\"command\": \"$DEMO\", \"roots\": [\"/\"], \"tls\": {\"insecure\": true}, \"timeout\": 5}"
in_dir "$R" call mcp__tools__echo message=x
expect "the pending message shows roots, tls and other keys by name" 8 \
  --err 'roots: ["/"]' --err 'tls: {"insecure":true}' --err "other keys: timeout"
in_dir "$R" mcp approve tools
expect "approve shows them too" 0 --out 'roots: ["/"]' --out 'tls: {"insecure":true}'
entry "{\"command\": \"$DEMO\"}"
in_dir "$R" call mcp__tools__echo message=x
expect "removed keys are named in the difference" 8 \
  --err 'roots: ["/"] -> (none)' --err 'tls: {"insecure":true} -> (none)' \
  --err "keys removed: timeout" --no-err "the entry was rewritten"

# The same entry moved to another file of the walk is another approval.
mkdir -p "$R/sub"
entry "{\"command\": \"$DEMO\"}"
in_dir "$R/sub" mcp approve tools
mv "$R/.mcp.json" "$R/sub/.mcp.json"
in_dir "$R/sub" call mcp__tools__echo message=x
expect "an entry from another file is pending again" 8 \
  --err "file: $R/.mcp.json -> $R/sub/.mcp.json"
mv "$R/sub/.mcp.json" "$R/.mcp.json"
rm -rf "$R/sub"

# Approving again approves what it runs now.
entry "{\"command\": \"$EVIL\"}"
in_dir "$R" mcp approve tools
expect "approving again shows the new command and the change" 0 \
  --out "command: $EVIL" --out "changed since its last approval: command: $DEMO -> $EVIL"
in_dir "$R" call mcp__tools__echo message=now
expect "and then it runs" 0 --out "Echo: now"
rm -f "$TMP/pwned"

# ---- approvals that name no entry ----

# A blanket switch, in a repository where nothing was approved one by one,
# approves nothing: pending, saying why and what it would run.
in_dir "$R" mcp reset-project-choices
echo '{"enableAllProjectMcpServers": true}' >"$SETTINGS"
entry "{\"command\": \"$DEMO\"}"
in_dir "$R" call mcp__tools__echo message=all
expect "enableAllProjectMcpServers alone leaves a server pending, saying why" 8 \
  --err "enableAllProjectMcpServers" --err "approves it whatever it runs" \
  --err "honoured only in a repository where \"mcphost mcp approve\" was used" \
  --err "command: $DEMO"
check "and binds nothing" \
  jq -e --arg k "$R" '.projects[$k].approvedMcpjsonEntries == null' "$SETTINGS"
# Where a server of the repository was approved, it binds at first use.
printf '{"mcpServers": {"tools": {"command": "%s"}, "other": {"command": "%s"}}}\n' "$DEMO" "$DEMO" >"$R/.mcp.json"
in_dir "$R" mcp approve other
in_dir "$R" call mcp__tools__echo message=all
expect "in a repository approved in, enableAllProjectMcpServers warns and approves" 0 \
  --out "Echo: all" --err "approved by enableAllProjectMcpServers" --err "whatever it runs" \
  --err "command: $DEMO"
check "and binds what it approved" \
  jq -e --arg k "$R" '.projects[$k].approvedMcpjsonEntries.tools.sha256 | length == 64' "$SETTINGS"
in_dir "$R" call mcp__tools__echo message=again
expect "a second use is silent" 0 --no-err "whatever it runs"
entry "{\"command\": \"$EVIL\"}"
in_dir "$R" call mcp__tools__echo message=x
expect "under enableAllProjectMcpServers a changed entry is pending again" 8 --err "changed since approval"
check "the changed command never ran" test ! -e "$TMP/pwned"

echo '{"enabledMcpjsonServers": ["tools"]}' >"$SETTINGS"
entry "{\"command\": \"$DEMO\"}"
in_dir "$R" call mcp__tools__echo message=x
expect "a top-level enabledMcpjsonServers alone leaves a server pending" 8 \
  --err "a name approved in every repository" --err "honoured only in a repository where" \
  --err "command: $DEMO"

# An approval by name alone (an older mcphost, a hand edit) is pending,
# showing what it runs, until approved as it is.
printf '{"projects": {"%s": {"enabledMcpjsonServers": ["tools"]}}}\n' "$R" >"$SETTINGS"
entry "{\"command\": \"$EVIL\"}"
in_dir "$R" call mcp__tools__echo message=legacy
expect "a name-only approval is pending, showing what it runs" 8 \
  --err "approved by name only" --err "command: $EVIL" --err "mcphost mcp approve tools"
check "nothing planted ever ran unapproved" test ! -e "$TMP/pwned"

# mcp import claude-code approves names alone: it keeps the record of an
# earlier approval, so a later rewrite is still noticed.
rm -f "$SETTINGS"
entry "{\"command\": \"$DEMO\"}"
in_dir "$R" mcp approve tools
printf '{"projects": {"%s": {"enabledMcpjsonServers": ["tools"]}}}\n' "$R" >"$HOME/.claude.json"
in_dir "$R" mcp import claude-code
expect "import claude-code carries the approval over" 0 --out "1 approved"
check "and keeps the record of what was approved" \
  jq -e --arg k "$R" '.projects[$k].approvedMcpjsonEntries.tools.sha256 | length == 64' "$SETTINGS"
entry "{\"command\": \"$EVIL\"}"
in_dir "$R" call mcp__tools__echo message=x
expect "after an import a rewritten command is pending, not run" 8 --err "changed since approval"
check "the rewritten command never ran" test ! -e "$TMP/pwned"
rm -f "$HOME/.claude.json"

# Control characters in a planted entry are shown, never obeyed.
printf '{"mcpServers": {"esc": {"command": "%s", "args": ["\\u001b]0;pwned\\u0007"]}}}\n' "$DEMO" >"$R/.mcp.json"
in_dir "$R" mcp approve esc
expect "approve escapes controls in what it shows" 0 --out "<U+001B>]0;pwned<U+0007>"
check "no raw escape reaches the terminal" bash -c "! grep -q $'\x1b' '$TMP/out'"
printf '{"mcpServers": {"n\\u001b]0;t\\u0007": {"command": "%s"}}}\n' "$DEMO" >"$R/.mcp.json"
in_dir "$R" mcp list
expect "a server name with a control character is refused, naming file and server" 0 \
  --err "$R/.mcp.json: server \"n<U+001B>]0;t<U+0007>\": refused: its name has a control character"
check "config messages quoting a file escape its controls" \
  bash -c "! grep -q $'\x1b' '$TMP/err' && ! grep -q $'\x1b' '$TMP/out'"

# mcp list, get and approve print what files and servers say escaped:
# args that clear the screen or hide the rest of the command line (\e[8m),
# env and header names, and a server's initialize error.
noesc() { ! grep -q $'\x1b' "$TMP/out" && ! grep -q $'\x1b' "$TMP/err"; }
printf '{"mcpServers": {"ev": {"command": "%s", "args": ["\\u001b[2J", "\\u001b[8mhidden"], "env": {"E\\u001b[8m": "1"}}, "hv": {"type": "http", "url": "http://127.0.0.1:9/mcp\\u001b[2J", "headers": {"H\\u001b]0;x\\u0007": "1"}}}}\n' "$DEMO" >"$R/.mcp.json"
in_dir "$R" mcp approve ev hv
expect "approve shows the planted args escaped" 0 --out "<U+001B>[8mhidden"
check "approve prints no raw escape" noesc
in_dir "$R" mcp list
expect "mcp list shows args escaped" 3 --out "'<U+001B>[2J' '<U+001B>[8mhidden'"
check "mcp list prints no raw escape (stdout and stderr)" noesc
in_dir "$R" mcp get ev
expect "mcp get shows args and env names escaped; a failed check exits as mcp list" 3 \
  --out "Args: '<U+001B>[2J' '<U+001B>[8mhidden'" --out "Environment: E<U+001B>[8m"
check "mcp get ev prints no raw escape" noesc
in_dir "$R" --json mcp get ev
expect "mcp get --json exits as mcp list too" 3
in_dir "$R" mcp get hv
expect "mcp get shows the URL and header names escaped" 3 \
  --out "<U+001B>[2J" --out "Headers: H<U+001B>]0;x<U+0007>"
check "mcp get hv prints no raw escape" noesc

BADINIT="$TMP/bad-init"
cat >"$BADINIT" <<'SH'
#!/bin/sh
# (server/discover, the era probe, gets -32601: a legacy server)
while read -r line; do
  id=$(printf '%s' "$line" | sed 's/.*"id": *\([0-9]*\).*/\1/')
  case $line in *'"initialize"'*) break ;; esac
  printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id"
done
printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"\\u001b]0;TITLE\\u0007\\u001b[2J"}}\n' "$id"
sleep 1
SH
chmod 0755 "$BADINIT"
printf '{"mcpServers": {"bad": {"command": "%s"}}}\n' "$BADINIT" >"$R/.mcp.json"
in_dir "$R" mcp approve bad
in_dir "$R" mcp list
expect "a server's initialize error is shown escaped by mcp list" 4 --out "<U+001B>]0;TITLE<U+0007>"
check "mcp list prints no raw escape from the server" noesc
in_dir "$R" mcp get bad
expect "and by mcp get" 4 --out "<U+001B>]0;TITLE<U+0007>"
check "mcp get prints no raw escape from the server" noesc
finish
