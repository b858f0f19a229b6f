#!/usr/bin/env bash
# mcphost shell: one session on the client, driven through tmux as a
# person would (completion, a call, an elicitation, Ctrl-C, history,
# exit), and through a pipe (the argument rule of `call`).
. "$(dirname "$0")/../lib/lib.sh"
EL="$BUILDDIR/tests/mcphost-elicit-server"
TYPED="$SRCDIR/tests/servers/typed_server.py"
C="$TMP/servers.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"}, \"el\": {\"command\": \"$EL\"},
                   \"t\": {\"command\": \"python3\", \"args\": [\"$TYPED\"]}}"
HIST="$XDG_STATE_HOME/mcphost/shell_history"
# A permission rule that asks before mcp__demo__add runs.
mkdir -p "$XDG_CONFIG_HOME/mcphost"
echo '{"permissions": {"ask": ["mcp__demo__add"]}}' >"$XDG_CONFIG_HOME/mcphost/settings.json"

tmux_server
# shell NAME: mcphost shell in a terminal; its exit code to $TMP/NAME.rc.
shell() {
  local q
  printf -v q '%q ' "$MCPHOST" --config "$C" shell
  tm new-session -d -s "$1" -x 200 -y 50 \
    "$q; echo \$? >'$TMP/$1.rc'; sleep 600"
}
# prompts NAME N: until the terminal shows N prompts.
prompts() {
  for _ in $(seq 200); do
    [ "$(tm_screen "$1" | grep -c '^mcphost> ')" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 1
}
keys() { tm send-keys -t "$1" -l -- "$2"; }
# done_shell NAME: waits for the shell to end; RC and ERR (the screen).
done_shell() {
  for _ in $(seq 300); do [ -s "$TMP/$1.rc" ] && break; sleep 0.1; done
  RC=$(cat "$TMP/$1.rc" 2>/dev/null || echo 99)
  ERR=$(tm_screen "$1")
  printf '%s' "$ERR" >"$TMP/err"
  : >"$TMP/out"
}
# on_screen NAME DESCRIPTION TEXT: a check that the terminal shows TEXT.
on_screen() {
  if tm_wait "$1" "$3"; then
    ok "$2"
  else
    RC=
    tm_screen "$1" >"$TMP/err"
    : >"$TMP/out"
    bad "$2" "screen lacks: $3"
  fi
}

shell s1
on_screen s1 "the shell starts with every server connected" "3 of 3 servers connected"
prompts s1 1

# Completion of a tool name, then of an argument name from its schema.
keys s1 "call mcp__demo__ec"
tm send-keys -t s1 Tab
on_screen s1 "Tab completes a tool name" "mcphost> call mcp__demo__echo "
keys s1 "mes"
tm send-keys -t s1 Tab
on_screen s1 "Tab completes an argument name from the tool's schema, with its '='" \
  "mcphost> call mcp__demo__echo message="
tm_type s1 "hello-shell"
on_screen s1 "a call's result is printed" "Echo: hello-shell"
prompts s1 2

# A line may begin with the tool's name.
tm_type s1 "demo/echo message=short-form"
on_screen s1 "a line that begins with a tool's name calls it" "Echo: short-form"
prompts s1 3

# SERVER/ completes to the server's own tool names.
keys s1 "call demo/ec"
tm send-keys -t s1 Tab
on_screen s1 "Tab completes SERVER/TOOL" "mcphost> call demo/echo "
tm_type s1 "message=own-name"
on_screen s1 "the completed SERVER/TOOL is called" "Echo: own-name"
prompts s1 4

# Ctrl-C during a slow call cancels that call; the shell and its sessions
# go on (the demo server finishes its sleep before it reads more, so the
# next call goes to another server).
tm_type s1 "call mcp__demo__slow steps=1 delay_ms=4000"
sleep 0.5
tm send-keys -t s1 C-c
on_screen s1 "Ctrl-C cancels the running call" "tools/call: interrupted"
prompts s1 5
tm_type s1 "call t/typed s=after-ctrl-c"
on_screen s1 "after Ctrl-C the shell runs the next call" '"s":"after-ctrl-c"'
prompts s1 6

# Ctrl-C at the prompt drops the line typed so far.
keys s1 "call mcp__demo__echo message=dropped"
tm send-keys -t s1 C-c
prompts s1 7
tm_type s1 "call mcp__demo__echo message=next"
on_screen s1 "the next line runs after a Ctrl-C at the prompt" "Echo: next"
check "Ctrl-C at the prompt ran nothing" \
  bash -c "! tmux -S '$SOCK' capture-pane -p -J -S - -t s1 | grep -q 'Echo: dropped'"
prompts s1 8

# An elicitation is asked inline; the answer reaches the server.
FORM='{"params": {"message": "Who are you?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}}'
tm_type s1 "call el/ask '$FORM'"
on_screen s1 "an elicitation is asked inline, with the server's message" "Who are you?"
tm_wait s1 "[1/1]"
tm_type s1 "Ada"
tm_wait s1 "Send them?"
tm_type s1 "a"
on_screen s1 "the elicitation's answer reaches the server" '"name":"Ada"'
prompts s1 9

# A permission question is asked inline; yes runs the call, no refuses it.
tm_type s1 "call mcp__demo__add a=2 b=3"
on_screen s1 "a permission question is asked inline" "Allow it? [y/N]"
tm_type s1 "y"
prompts s1 10
check "yes runs the call" \
  bash -c "tmux -S '$SOCK' capture-pane -p -J -S - -t s1 | grep -qx 5"
tm_type s1 "call mcp__demo__add a=4 b=4"
tm_wait s1 "Allow it? [y/N]"
sleep 0.2
tm_type s1 "n"
prompts s1 11
check "no refuses the call, and the shell goes on" \
  bash -c "! tmux -S '$SOCK' capture-pane -p -J -S - -t s1 | grep -qx 8"

# Errors are those of the commands; a misspelt command gets did-you-mean.
tm_type s1 "tols"
on_screen s1 "an unknown command names the closest one" 'did you mean "tools"'
tm_type s1 " call mcp__demo__echo message=not-kept"
on_screen s1 "a line that begins with a space runs" "Echo: not-kept"
tm_type s1 "call mcp__demo__echo message=from-history"
on_screen s1 "the last call runs" "Echo: from-history"
prompts s1 14
tm_type s1 "exit"
done_shell s1
expect "exit leaves the shell with 0" 0

# The history is in the state directory, private, without space lines.
check "the history is kept in \$XDG_STATE_HOME/mcphost/shell_history" \
  grep -qxF "call mcp__demo__echo message=hello-shell" "$HIST"
check "the history file is 0600" test "$(stat -c %a "$HIST" 2>/dev/null)" = 600
check "a line that begins with a space is not kept in the history" \
  bash -c "! grep -q not-kept '$HIST'"

# A new shell recalls the last session's lines (up arrow).
shell s2
prompts s2 1
tm send-keys -t s2 Up
tm send-keys -t s2 Up
on_screen s2 "the up arrow recalls a line of the last session" \
  "mcphost> call mcp__demo__echo message=from-history"
tm send-keys -t s2 Enter
prompts s2 2
# Ctrl-C at an elicitation's question cancels that call only.
tm_type s2 "call el/ask '$FORM'"
tm_wait s2 "[1/1]"
tm send-keys -t s2 C-c
prompts s2 3
tm_type s2 "call t/typed s=after-question"
on_screen s2 "Ctrl-C at an elicitation's question cancels that call, not the shell" \
  '"s":"after-question"'
prompts s2 4
tm send-keys -t s2 C-d
done_shell s2
expect "a recalled line runs, and Ctrl-D leaves with 0" 0 --err "Echo: from-history"

# Through a pipe: no prompt, the same argument rule as call, and the exit
# of the last command.
# piped LINE...: the shell reading LINEs from a pipe; RC, OUT and ERR.
piped() {
  printf '%s\n' "$@" | "$MCPHOST" --config "$C" shell >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
piped 'call t/typed s=007 i=7 b=true' 'call t/typed s=x'
expect "a string parameter keeps 007, integer and boolean typed, as call does" 0 \
  --out '{"b":true,"i":7,"s":"007"}' --out '{"s":"x"}' --no-out "mcphost>"
piped 'tools --json --all t'
expect "--json and tools --all in a line, as after the command" 0 \
  --jq '.[0].name == "mcp__t__typed"'
# stdout a pipe its reader closed (at once, so the first write fails):
# the shell ends quietly with 141, as call and batch do, and runs no more.
python3 - "$MCPHOST" --config "$C" shell <<'PY' >"$TMP/out" 2>"$TMP/err"
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], input=b"tools\n" * 6, stdout=w)
print(p.returncode)
PY
RC=$(cat "$TMP/out")
OUT=""
ERR=$(cat "$TMP/err")
expect "a pipe closed by its reader ends the shell quietly, 141" 141 \
  --no-err "cannot write"
piped 'call t/strict n=abc'
expect "a wrong type is refused before the call, as call does (exit 2)" 2 \
  --err 'usage: mcp__t__strict(n: integer)'
# Typed UTF-8 on a terminal (python3's pty), in the "C" locale of a
# machine without LANG: the line reaches the server whole, and the
# history keeps it whole (the up arrow runs it again, the file has it).
LIFE_DIR="$TMP/utf8"
mkdir -p "$LIFE_DIR"
CU="$TMP/utf8.json"
config_file "$CU" "{\"life\": {\"command\": \"python3\",
  \"args\": [\"$SRCDIR/tests/servers/lifecycle_server.py\"],
  \"env\": {\"LIFE_DIR\": \"$LIFE_DIR\"}}}"
TYPED_LINE='call life/echo s=Zoë-日本-🙂'
env -u LANG -u LANGUAGE LC_ALL=C python3 - "$LIFE_DIR" "$MCPHOST" --config "$CU" shell \
  <<'PY' >"$TMP/out" 2>"$TMP/err"
import os, pty, select, sys
life, argv = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
seen = b""
def until(text):
    """Reads the terminal until it shows `text` (after what was seen)."""
    global seen
    while text not in seen:
        r, _, _ = select.select([fd], [], [], 60)
        data = os.read(fd, 4096) if r else b""
        if not data:
            sys.exit("the terminal never showed %r: %r" % (text, seen[-300:]))
        seen += data
    seen = seen[seen.index(text) + len(text):]
def typed(keys):
    os.write(fd, keys.encode())
def echoed():
    with open(os.path.join(life, "echo"), encoding="utf-8") as f:
        return f.read()
def runs(keys, result):
    """Types `keys`, waits for the line `result` and the next prompt."""
    typed(keys)
    until(b"\n" + result.encode() + b"\r\n")
    until(b"mcphost> ")
until(b"mcphost> ")
runs("call life/echo s=Zoë-日本-🙂\r", "Zoë-日本-🙂")
print("sent:", echoed())
runs("call life/echo s=other\r", "other")
runs("\x1b[A\x1b[A\r", "Zoë-日本-🙂")
print("recalled:", echoed())
typed("exit\r")
_, status = os.waitpid(pid, 0)
print("exit:", os.waitstatus_to_exitcode(status))
PY
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "typed UTF-8 reaches the server whole, in the C locale too" 0 \
  --out "sent: Zoë-日本-🙂" --out "exit: 0"
expect "the up arrow recalls the UTF-8 line whole" 0 \
  --out "recalled: Zoë-日本-🙂"
check "the history file keeps the UTF-8 line whole" \
  grep -qxF "$TYPED_LINE" "$HIST"
finish
