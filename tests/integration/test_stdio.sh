#!/usr/bin/env bash
# The stdio transport (transports/stdio/README.md, docs/config.md "Server
# entries"), end to end with the C demo server and the official reference
# server (server-everything): the server is a child speaking one JSON
# message a line; its tools are listed and called; its entry's command,
# args, env and cwd are what it runs with; a wrong field and a command
# that cannot start are named; what it writes outside the protocol is a
# warning, its stderr is kept in logs/NAME.stderr.log and quoted when it
# dies; each connection is a process of its own, started again on
# `reconnect` and gone when mcphost ends.
# The rest of stdio is in its own tests: every command against the demo
# (test_demo.sh) and server-everything (test_everything.sh), the connect
# queue (test_connect.sh), how a server is ended (test_server_exit.sh), a
# killed server connected again (test_reconnect.sh), what a server logs
# (test_server_logs.sh), hostile servers (test_hostile.sh,
# test_bad_servers.sh, test_no_survivors.sh), the line splitter
# (unit_framing, fuzz_framing) and a large result (test_big_result.sh).
. "$(dirname "$0")/../lib/lib.sh"
[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"
LOGS="$XDG_STATE_HOME/mcphost/logs"

# Each server is started through sh, which notes its pid in NAME.pids and
# then becomes the server (exec): the pid noted is the server's.
pids_of() { cat "$TMP/$1.pids" 2>/dev/null; }
# all_gone: both servers were started, and every process noted is gone.
all_gone() {
  local p
  [ -n "$(pids_of demo)" ] && [ -n "$(pids_of every)" ] || return 1
  for p in $(pids_of demo) $(pids_of every); do pid_gone "$p" || return 1; done
}
# noted NAME ARGV_JSON: the entry's members that run ARGV (JSON strings)
# through sh, noting its pid in NAME.pids.
noted() {
  local note='echo $$ >>%s/%s.pids; exec \\"$0\\" \\"$@\\"'
  printf '"command": "sh", "args": ["-c", "'"$note"'", %s]' "$TMP" "$1" "$2"
}
C="$TMP/stdio.json"
config_file "$C" "{
  \"demo\": {$(noted demo "\"$DEMO\"")},
  \"every\": {$(noted every "\"node\", \"$EVERYTHING\", \"stdio\"")}}"

# ---- tools and calls ----

run --config "$C" servers
expect "both servers connect over stdio" 0 \
  --out "demo   stdio  connected" --out "every  stdio  connected" \
  --out "mcphost-demo 0.1.0" --out "mcp-servers/everything"
run --config "$C" tools
expect "the tools of both, under mcp__SERVER__" 0 \
  --out "mcp__demo__echo" --out "mcp__demo__add" \
  --out "mcp__every__echo" --out "mcp__every__get-sum"
run --config "$C" call mcp__demo__add a=2 b=3
expect "a call to the demo server" 0 --out "5"
run --config "$C" call mcp__every__get-sum a=19 b=23
expect "a call to server-everything" 0 --out "The sum of 19 and 23 is 42."
check "each run's server processes are gone when it returns" \
  all_gone

# ---- the entry: command, args, env, cwd ----

mkdir -p "$TMP/bin" "$TMP/wd"
ln -s "$DEMO" "$TMP/bin/path-demo"
ln -s "$DEMO" "$TMP/wd/cwd-demo"
config_file "$TMP/entry.json" "{
  \"path\": {\"command\": \"path-demo\", \"env\": {\"PATH\": \"$TMP/bin\"}},
  \"rel\": {\"command\": \"./cwd-demo\", \"cwd\": \"$TMP/wd\"},
  \"sh\": {\"command\": \"sh\", \"args\": [\"-c\",
    \"pwd >$TMP/sh.cwd; echo \$GREETING >$TMP/sh.env; exec $DEMO\"],
    \"cwd\": \"$TMP/wd\", \"env\": {\"GREETING\": \"hello from env\"}}}"
run --config "$TMP/entry.json" call mcp__path__echo message=path
expect "a command without a / is found in the PATH of the server's env" 0 \
  --out "Echo: path"
run --config "$TMP/entry.json" call mcp__rel__echo message=cwd
expect "a relative command starts from the server's cwd" 0 --out "Echo: cwd"
run --config "$TMP/entry.json" call mcp__sh__echo message=args
expect "args are the command's arguments" 0 --out "Echo: args"
check "... and it runs in its cwd" test "$(cat "$TMP/sh.cwd")" = "$TMP/wd"
check "... with its env" test "$(cat "$TMP/sh.env")" = "hello from env"

config_file "$TMP/typed.json" "{\"a\": {\"command\": \"$DEMO\", \"args\": [\"x\", 1]}}"
run --config "$TMP/typed.json" tools
expect "a field of the wrong type fails the server, naming the file and the field" 3 \
  --err "server \"a\" failed: $TMP/typed.json: server \"a\": \"args[1]\" must be a string"
config_file "$TMP/absent.json" "{\"a\": {\"command\": \"no-such-server-here\"}}"
run --config "$TMP/absent.json" call mcp__a__echo message=x
expect "a command that cannot start is named, with why" 3 \
  --err "cannot start \"no-such-server-here\": No such file or directory"

# ---- what a server writes besides its messages ----

cat >"$TMP/chatty.sh" <<SH
#!/bin/sh
echo "starting up, on stderr" >&2
echo "a banner, on stdout"
exec "$DEMO"
SH
chmod +x "$TMP/chatty.sh"
config_file "$TMP/chatty.json" "{\"chatty\": {\"command\": \"$TMP/chatty.sh\"}}"
run --config "$TMP/chatty.json" call mcp__chatty__echo message=after
expect "a line on stdout that is no JSON is a warning, and the call goes on" 0 \
  --out "Echo: after" \
  --err "warning: [chatty] server wrote a non-JSON line to stdout: a banner, on stdout" \
  --no-err "starting up"
after_start=$(grep -A1 "started pid [0-9]*: $TMP/chatty.sh ---\$" \
  "$LOGS/chatty.stderr.log" | tail -n 1)
check "the server's stderr is kept in logs/NAME.stderr.log, after its start" \
  test "$after_start" = "starting up, on stderr"
check "... and its end" \
  grep -q "server process exited with status 0 ---\$" "$LOGS/chatty.stderr.log"

# A server whose lines end in CR LF (as some written on Windows do).
config_file "$TMP/crlf.json" "{\"crlf\": {\"command\": \"sh\", \"args\": [\"-c\",
  \"$DEMO | sed -u 's/\$/\\\\r/'\"]}}"
run --config "$TMP/crlf.json" --json call mcp__crlf__echo message=crlf
expect "lines ending in CR LF are read as messages" 0 \
  --jq '.content[0].text == "Echo: crlf"'

cat >"$TMP/dies.sh" <<'SH'
#!/bin/sh
echo "fatal: no API key" >&2
exit 3
SH
chmod +x "$TMP/dies.sh"
config_file "$TMP/dies.json" "{\"dies\": {\"command\": \"$TMP/dies.sh\"}}"
run --config "$TMP/dies.json" call mcp__dies__echo message=x
expect "a server that dies before it answers: exit 3, its status and its stderr" 3 \
  --err "server \"dies\" failed: server process exited with status 3" \
  --err "fatal: no API key"

# ---- exit and restart ----

# The shell keeps both servers; `reconnect` closes each connection (the
# server ends as the MCP lifecycle says) and starts the server again.
rm -f "$TMP"/*.pids "$LOGS"/*.stderr.log
printf '%s\n' 'call demo/echo message=one' 'call every/get-sum a=1 b=2' \
  reconnect 'call demo/echo message=two' 'call every/get-sum a=2 b=2' |
  "$MCPHOST" --no-session --config "$C" shell >"$TMP/out" 2>"$TMP/err"
RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
expect "shell: calls before and after reconnect are answered" 0 \
  --out "Echo: one" --out "The sum of 1 and 2 is 3." \
  --out "demo: connected" --out "every: connected" \
  --out "Echo: two" --out "The sum of 2 and 2 is 4."
dp=$(pids_of demo | sort -u | wc -l) ep=$(pids_of every | sort -u | wc -l)
check "... each server ran as two processes, one a connection" \
  test "$dp $ep" = "2 2"
check "... all four gone when the shell ends" all_gone
# The demo server ends when its stdin closes; server-everything keeps
# timers running and is sent SIGTERM once MCPHOST_STDIO_EXIT_MS passed.
exits=$(grep -c 'server process exited with status 0 ---$' \
  "$LOGS/demo.stderr.log")
check "... the demo server exited by itself, twice" test "$exits" = 2
starts=$(grep -c '^Starting default (STDIO) server' "$LOGS/every.stderr.log")
check "... server-everything said on stderr that it started, twice" \
  test "$starts" = 2

finish
