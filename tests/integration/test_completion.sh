#!/usr/bin/env bash
# mcphost completion bash|zsh|fish: the scripts parse, and what they
# offer comes from the configuration and the names the last listing saw,
# never from a server started to complete; a bash session under tmux
# completes `mcphost call mcp__d<TAB>`.
. "$(dirname "$0")/../lib/lib.sh"
# A server that says each time it starts (a line in $TMP/starts).
cat >"$TMP/demo.sh" <<EOF
#!/bin/sh
echo started >>"$TMP/starts"
exec "$DEMO"
EOF
chmod +x "$TMP/demo.sh"
C="$TMP/servers.json"
config_file "$C" "{\"demo\": {\"command\": \"$TMP/demo.sh\"}}"
starts() { wc -l <"$TMP/starts" 2>/dev/null || echo 0; }

# complete WORD...: the candidates for the last word of the line.
complete() { run completion complete -- mcphost --config "$C" "$@"; }

for sh in bash zsh fish; do
  run completion "$sh"
  printf '%s' "$OUT" >"$TMP/script.$sh"
  expect "completion $sh prints a script" 0 --out "completion complete --"
done
check "the bash script parses (bash -n)" bash -n "$TMP/script.bash"
if command -v zsh >/dev/null; then
  check "the zsh script parses (zsh -n)" zsh -n "$TMP/script.zsh"
else
  echo "     (zsh is not installed: its script is not parsed)"
fi
if command -v fish >/dev/null; then
  check "the fish script parses (fish --no-execute)" \
    fish --no-execute "$TMP/script.fish"
else
  echo "     (fish is not installed: its script is not parsed)"
fi
run completion tcsh
expect "a shell without a script is a usage error" 2 --err 'no script for "tcsh"'

complete sh
expect "commands are completed" 0 --out "shell"
complete --js
expect "global options are completed" 0 --out "--json"
complete call --no
expect "a command's own options are completed" 0 --out "--no-validate"
complete tools ""
expect "server names come from the configuration" 0 --out "demo"
complete mcp imp
expect "mcp subcommands are completed" 0 --out "import"
complete mcp import c
expect "mcp import completes the clients" 0 --out "cursor" --out "codex" \
  --out "claude-desktop" --no-out "vscode"

complete call mcp__d
expect "before any listing there are no tool names to offer" 0 --no-out "mcp__"
check "completing started no server" test "$(starts)" -eq 0

run --config "$C" tools
expect "a listing" 0 --out "mcp__demo__echo"
n=$(starts)
complete call mcp__d
expect "after a listing, tool names are offered" 0 \
  --out "mcp__demo__echo" --out "mcp__demo__slow"
complete call mcp__demo__ec
[ "$OUT" = "mcp__demo__echo" ]
check "only the names that start with the word are offered" [ $? -eq 0 ]
complete call demo/
expect "SERVER/ is completed to the server's own tool names" 0 \
  --out "demo/echo" --out "demo/add" --no-out "mcp__"
complete call demo/ad
[ "$OUT" = "demo/add" ]
check "SERVER/PREFIX offers the tools that start with it" [ $? -eq 0 ]
complete call demo/echo --follow
expect "call's options after the tool" 0 --out "--follow-links"
check "completing a tool name started no server" test "$(starts)" -eq "$n"
run completion complete -- mcphost --config "$TMP/none.json" call mcp__d
expect "names of servers not configured are not offered" 0 --no-out "mcp__demo"
check "the names are kept in the state directory, a file a server, 0600" \
  test "$(stat -c %a "$XDG_STATE_HOME/mcphost/completion/demo.json")" = 600
check "the directory of those files is 0700" \
  test "$(stat -c %a "$XDG_STATE_HOME/mcphost/completion")" = 700
# A listing reads and writes its own server's file alone: another
# server's is left as it was.
config_file "$TMP/two.json" "{\"demo\": {\"command\": \"$TMP/demo.sh\"}, \"other\": {\"command\": \"$TMP/demo.sh\"}}"
run --config "$TMP/two.json" tools other
expect "a second server's listing" 0 --out "mcp__other__echo"
before=$(cat "$XDG_STATE_HOME/mcphost/completion/demo.json")
run --config "$TMP/two.json" tools other
[ "$(cat "$XDG_STATE_HOME/mcphost/completion/demo.json")" = "$before" ]
check "listing one server leaves another's names as they were" [ $? -eq 0 ]
run completion complete -- mcphost --config "$TMP/two.json" call mcp__
expect "both servers' names are offered" 0 --out "mcp__demo__echo" \
  --out "mcp__other__echo"
# A file that names another server (two names made one file name) or is
# not JSON offers nothing and is replaced by the next listing.
printf '{"server":"someone-else","tools":["mcp__demo__forged"]}' \
  >"$XDG_STATE_HOME/mcphost/completion/demo.json"
complete call mcp__d
expect "a file of another server's is not offered" 0 --no-out "forged"
printf 'not json' >"$XDG_STATE_HOME/mcphost/completion/demo.json"
complete call mcp__d
expect "a file that is not JSON offers nothing" 0 --no-out "mcp__demo"
run --config "$C" tools
complete call mcp__d
expect "the next listing writes the file again" 0 --out "mcp__demo__echo"
n=$(starts)

# bash, as a person uses it.
tmux_server
mkdir -p "$TMP/bin"
ln -s "$MCPHOST" "$TMP/bin/mcphost"
cat >"$TMP/bashrc" <<EOF
PS1='$ '
PATH="$TMP/bin:\$PATH"
source <(mcphost completion bash)
EOF
tm new-session -d -s b -x 200 -y 50 "bash --rcfile '$TMP/bashrc' -i"
tm_wait b '$ '
tm send-keys -t b -l -- "mcphost --config $C call mcp__d"
tm send-keys -t b Tab
tm_wait b "call mcp__demo__"
ERR=$(tm_screen b)
printf '%s' "$ERR" >"$TMP/err"
expect "bash completes mcphost call mcp__d<TAB> to the server's prefix" 0 \
  --err "call mcp__demo__"
tm send-keys -t b Tab Tab
tm_wait b "mcp__demo__image"
ERR=$(tm_screen b)
printf '%s' "$ERR" >"$TMP/err"
expect "a second Tab lists the server's tools" 0 \
  --err "mcp__demo__echo" --err "mcp__demo__image" --err "mcp__demo__fail"
tm send-keys -t b -l -- "ec"
tm send-keys -t b Tab
tm_wait b "call mcp__demo__echo "
ERR=$(tm_screen b)
printf '%s' "$ERR" >"$TMP/err"
expect "bash completes a whole tool name" 0 --err "call mcp__demo__echo "
check "completing in bash started no server" test "$(starts)" -eq "$n"
finish
