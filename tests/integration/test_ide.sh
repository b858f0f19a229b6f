#!/bin/bash
# The IDE integration (plugins/ide) against a fake IDE over sse-ide
# (tests/servers/fake_ide.mjs): lockfile discovery in CLAUDE_CONFIG_DIR,
# `ide list`, --ide and its environment variables, the token header, the
# two model-visible tools, ide_connected, `ide watch`; stale pids, a wrong
# token, two IDEs, an IDE without a token, lockfiles with bad permissions
# or bad fields, a working directory outside every workspace.
. "$(dirname "$0")/../lib/lib.sh"
FAKE="$SRCDIR/tests/servers/fake_ide.mjs"
command -v node >/dev/null || skip_test "node is not installed"
export INTEROP

WS="$TMP/project"
mkdir -p "$WS/src/deep"
export CLAUDE_CONFIG_DIR="$TMP/claude"
LOCKS="$CLAUDE_CONFIG_DIR/ide"

# start_ide ARGS...: a fake IDE over sse with its lockfile in $LOCKS;
# sets PORT and IDE_PID.
start_ide() {
  start_node "$FAKE" --dir "$LOCKS" --transport sse "$@" || exit 1
  PORT=$NODE_PORT
  IDE_PID=$(jobs -p | tail -1)
}
stop_ide() { # PID PORT: the IDE goes, with its lockfile
  kill "$1" 2>/dev/null
  wait "$1" 2>/dev/null
  rm -f "$LOCKS/$2.lock"
}
# wsrun ARGS...: run, from inside the workspace.
wsrun() {
  (cd "$WS/src/deep" && "$MCPHOST" "$@" >"$TMP/out" 2>"$TMP/err" </dev/null)
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

# ---- one IDE, with a token ----
start_ide --workspace "$WS" --log "$TMP/ide1.log" --token "t0k-aaaabbbbccccdddd"
P1=$PORT PID1=$IDE_PID

wsrun ide list
expect "ide list shows the lockfile: port, IDE name, live pid, cwd inside, path" 0 \
  --out "$P1" --out "Fake IDE" --out "live" --out "yes" --out "$LOCKS/$P1.lock"
wsrun ide list --json
expect "ide list --json: one entry with its fields, never the token" 0 \
  --jq "length == 1 and .[0].port == $P1 and .[0].alive == true and .[0].containsCwd == true and .[0].ideName == \"Fake IDE\" and .[0].transport == \"sse\" and .[0].hasAuthToken == true and .[0].path == \"$LOCKS/$P1.lock\"" \
  --no-out "t0k-aaaabbbbccccdddd"

wsrun --ide tools ide
expect "--ide tools ide lists only the two model-visible tools" 0 \
  --out "mcp__ide__getDiagnostics" --out "mcp__ide__executeCode" \
  --no-out "mcp__ide__openFile" --no-out "mcp__ide__openDiff"
[ "$(grep -c '^mcp__ide__' "$TMP/out")" = 2 ] && ok "exactly two IDE tools listed" ||
  bad "exactly two IDE tools listed"
wsrun --ide tools --json ide
expect "tools --json ide: the same two" 0 \
  --jq '[.[].name] | sort == ["mcp__ide__executeCode", "mcp__ide__getDiagnostics"]'
wsrun --ide tools --all ide
expect "tools --all ide lists every IDE tool" 0 \
  --out "mcp__ide__openFile" --out "mcp__ide__openDiff" \
  --out "mcp__ide__getOpenEditors" --out "mcp__ide__close_tab" \
  --out "mcp__ide__getDiagnostics"
[ "$(grep -c '^mcp__ide__' "$TMP/out")" = 12 ] && ok "all twelve listed with --all" ||
  bad "all twelve listed with --all"

wsrun --ide call ide/openFile filePath=/tmp/x.c
expect "call ide/openFile calls a tool the model does not see" 0 --out "opened /tmp/x.c"
grep -q '"event":"call","name":"openFile","arguments":{"filePath":"/tmp/x.c"}' "$TMP/ide1.log" &&
  ok "the IDE got the openFile call" || bad "the IDE got the openFile call"
if jq -e -s '[.[] | select(.event == "request")] | length > 0 and all(.headers["x-claude-code-ide-authorization"] == "t0k-aaaabbbbccccdddd")' \
  "$TMP/ide1.log" >/dev/null; then
  ok "every request carried X-Claude-Code-Ide-Authorization with the lockfile's token"
else
  bad "every request carried X-Claude-Code-Ide-Authorization with the lockfile's token"
fi
if jq -e -s --argjson p "$PID1" '[.[] | select(.event == "ide_connected")] | length > 0 and all(.params.pid | type == "number" and . > 0 and . != $p)' \
  "$TMP/ide1.log" >/dev/null; then
  ok "after initialize the host sent ide_connected {pid} with its own pid"
else
  bad "after initialize the host sent ide_connected {pid} with its own pid"
fi

http_proxy=http://127.0.0.1:9 all_proxy=http://127.0.0.1:9 no_proxy= NO_PROXY= \
  wsrun --ide call ide/openFile filePath=/direct
expect "a proxy of the environment is not used for the IDE (its token is for 127.0.0.1)" 0 \
  --out "opened /direct"

wsrun --ide -vvv call ide/openFile filePath=/quiet
expect "the token is in no log line, even at -vvv" 0 --out "opened /quiet" \
  --no-err "t0k-aaaabbbbccccdddd"
MCPHOST_OPTION_IDE=1 wsrun tools ide
expect "MCPHOST_OPTION_IDE=1 is --ide" 0 --out "mcp__ide__getDiagnostics"
MCPHOST_OPTION_IDE=0 wsrun tools ide
expect "MCPHOST_OPTION_IDE=0 is not" 6 --err "no servers configured"

wsrun --ide ide watch --count 3
expect "ide watch prints the IDE's notifications as lines" 0 \
  --out "selection_changed $WS/src/main.c 2:0-2:8 \"int main\"" \
  --out "at_mentioned $WS/src/main.c 10-20" \
  --out "diagnostics_changed {\"uris\":[\"file://$WS/src/main.c\"]}"
wsrun --ide ide watch --json --count 2
expect "ide watch --json prints JSON lines, the params as sent" 0 \
  --jq 'select(.method == "selection_changed") | .server == "ide" and .params.selection.end.character == 8 and .params.text == "int main"'
[ "$(wc -l <"$TMP/out")" = 2 ] && ok "--count 2 stops after two" || bad "--count 2 stops after two"
wsrun ide watch --count 1
expect "ide watch without --ide says how to ask for the IDE" 6 --err "give --ide"
wsrun ide watch --count 0
expect "ide watch --count 0 is a usage error" 2 --err "--count needs a positive number"

CLAUDE_CODE_AUTO_CONNECT_IDE=true wsrun tools ide
expect "CLAUDE_CODE_AUTO_CONNECT_IDE=true connects the IDE" 0 --out "mcp__ide__getDiagnostics"
CLAUDE_CODE_SSE_PORT=$P1 wsrun tools ide
expect "CLAUDE_CODE_SSE_PORT=PORT connects that IDE" 0 --out "mcp__ide__getDiagnostics"
CLAUDE_CODE_SSE_PORT=1 wsrun tools ide
expect "CLAUDE_CODE_SSE_PORT naming no lockfile is an error naming the port" 3 \
  --err "no IDE lockfile 1.lock (CLAUDE_CODE_SSE_PORT)"
wsrun tools
expect "without --ide no IDE joins" 6 --err "no servers configured"

# ---- the working directory outside every workspace ----
run --ide tools ide
expect "cwd outside every workspace: --ide fails, naming the lockfile and why" 3 \
  --err "no running IDE has the working directory in its workspace" \
  --err "$LOCKS/$P1.lock" --err "outside its workspace folders"
run ide list --json
expect "ide list says the cwd is outside" 0 --jq '.[0].containsCwd == false'
CLAUDE_CODE_AUTO_CONNECT_IDE=true run tools
expect "auto-connect without a matching IDE is quiet: no servers, no IDE error" 6 \
  --err "no servers configured" --no-err "no running IDE"

# ---- two IDEs for the same workspace ----
start_ide --workspace "$WS" --log "$TMP/ide2.log" --token "second-token-0123456789"
P2=$PORT PID2=$IDE_PID
wsrun --ide tools ide
expect "two IDEs: an error listing both, asking for CLAUDE_CODE_SSE_PORT" 3 \
  --err "several running IDEs" --err "CLAUDE_CODE_SSE_PORT" \
  --err "$LOCKS/$P1.lock (port $P1" --err "$LOCKS/$P2.lock (port $P2"
CLAUDE_CODE_SSE_PORT=$P2 wsrun --ide call ide/openFile filePath=/two
expect "CLAUDE_CODE_SSE_PORT picks one of two" 0 --out "opened /two"
grep -q '"filePath":"/two"' "$TMP/ide2.log" && ! grep -q '"filePath":"/two"' "$TMP/ide1.log" &&
  ok "the call went to the IDE of that port" || bad "the call went to the IDE of that port"
stop_ide "$PID2" "$P2"

# ---- a stale pid ----
sh -c 'exit 0' &
DEAD=$!
wait $DEAD
printf '{"pid": %s, "workspaceFolders": ["%s"], "ideName": "Gone IDE", "transport": "sse", "authToken": "abcdefabcdef"}' \
  "$DEAD" "$WS" >"$LOCKS/1.lock"
chmod 600 "$LOCKS/1.lock"
wsrun ide list
expect "ide list marks a lockfile whose pid is gone as stale" 0 --out "Gone IDE" --out "stale"
wsrun --ide -v tools ide
expect "--ide skips the stale lockfile, says so, and connects the live one" 0 \
  --out "mcp__ide__getDiagnostics" --err "$LOCKS/1.lock skipped: stale"
[ -e "$LOCKS/1.lock" ] && ok "the stale lockfile is left where it is" || bad "the stale lockfile is left where it is"
CLAUDE_CODE_SSE_PORT=1 wsrun tools ide
expect "CLAUDE_CODE_SSE_PORT of a stale IDE: the reason" 3 --err "stale: its pid is not running"
rm -f "$LOCKS/1.lock"

# ---- lockfiles that are not ours to trust, or broken ----
printf '{"pid": %s, "workspaceFolders": ["%s"], "transport": "sse"}' "$PID1" "$WS" >"$LOCKS/2.lock"
chmod 622 "$LOCKS/2.lock"
wsrun ide list
expect "a group/world-writable lockfile is refused with the reason" 0 \
  --out "refused" --out "$LOCKS/2.lock" --out "writable"
CLAUDE_CODE_SSE_PORT=2 wsrun tools ide
expect "the IDE of a writable lockfile is never connected" 3 --err "not trusted, refused"
rm -f "$LOCKS/2.lock"
printf '{"pid": "x"}' >"$LOCKS/3.lock"
chmod 600 "$LOCKS/3.lock"
printf '{"pid": 1, "workspaceFolders": "/"}' >"$LOCKS/4.lock"
printf 'not json' >"$LOCKS/5.lock"
printf '{"pid": 1, "workspaceFolders": ["/"], "authToken": "a b"}' >"$LOCKS/6.lock"
printf '{"pid": 1, "workspaceFolders": ["/"]}' >"$LOCKS/notaport.lock"
chmod 600 "$LOCKS"/*.lock
wsrun ide list --json
expect "broken lockfiles: each refused naming its field" 0 \
  --jq '[.[] | select(.port == 3)][0].error == "field \"pid\" must be a positive integer"' \
  --jq '[.[] | select(.port == 4)][0].error == "field \"workspaceFolders\" must be an array"' \
  --jq '[.[] | select(.port == 5)][0].error == "not valid JSON"' \
  --jq '[.[] | select(.port == 6)][0].error | startswith("field \"authToken\"")' \
  --jq '[.[] | select(.path | endswith("notaport.lock"))][0].error | startswith("the file name is not <port>.lock")'
wsrun --ide tools ide
expect "broken lockfiles do not stop the good one" 0 --out "mcp__ide__getDiagnostics"
rm -f "$LOCKS"/[3456].lock "$LOCKS/notaport.lock"
chmod 777 "$LOCKS"
wsrun ide list
expect "a world-writable lockfile directory is refused with the reason" 0 \
  --out "lockfile directory not trusted" --out "$LOCKS"
wsrun --ide tools ide
expect "no IDE from a world-writable directory" 3 --err "lockfile directory not trusted"
chmod 700 "$LOCKS"

# ---- a wrong token ----
cp "$LOCKS/$P1.lock" "$TMP/good.lock"
jq -c '.authToken = "wrong-token-99999999"' "$TMP/good.lock" >"$LOCKS/$P1.lock"
chmod 600 "$LOCKS/$P1.lock"
wsrun --ide tools ide
expect "a wrong token: the IDE refuses it (401), said as such, and nothing is listed" 3 \
  --err "the IDE refused the connection (HTTP 401)" --err "HTTP 401" \
  --no-out "mcp__ide__"
wsrun --ide ide watch --count 1
expect "ide watch ends with 3 when the IDE refuses the token" 3 \
  --err "ide watch: cannot connect" --err "HTTP 401"
cp "$TMP/good.lock" "$LOCKS/$P1.lock"
chmod 600 "$LOCKS/$P1.lock"
stop_ide "$PID1" "$P1"

# ---- an IDE without a token (as Emacs writes) ----
start_ide --workspace "$WS" --log "$TMP/ide3.log" --token none --name Emacs
wsrun --ide call ide/openFile filePath=/emacs
expect "an IDE whose lockfile has no authToken connects" 0 --out "opened /emacs"
if jq -e -s '[.[] | select(.event == "request")] | length > 0 and all(.headers | has("x-claude-code-ide-authorization") | not)' \
  "$TMP/ide3.log" >/dev/null; then
  ok "no X-Claude-Code-Ide-Authorization without a token"
else
  bad "no X-Claude-Code-Ide-Authorization without a token"
fi

# ---- entries written by hand ----
config_file "$TMP/far.json" '{"x": {"type": "sse-ide", "url": "http://10.0.0.1:80/sse"}}'
run --config "$TMP/far.json" tools x
expect "an sse-ide entry for another host is refused, naming the field" 3 \
  --err "field \"url\" must be http://127.0.0.1:PORT"
config_file "$TMP/local.json" '{"x": {"type": "ws-ide", "url": "ws://localhost:1"}, "y": {"type": "sse-ide", "url": "http://127.0.0.1:1/sse", "headers": {"A": "b"}}}'
run --config "$TMP/local.json" tools x
expect "a ws-ide entry for localhost (not 127.0.0.1) is refused, naming the field" 3 \
  --err "field \"url\" must be ws://127.0.0.1:PORT"
run --config "$TMP/local.json" tools y
expect "an IDE entry with headers is refused, naming the field" 3 \
  --err "field \"headers\" is not taken by sse-ide"
config_file "$TMP/hand.json" "{\"myide\": {\"type\": \"sse-ide\", \"url\": \"http://127.0.0.1:$PORT/sse\"}}"
run --config "$TMP/hand.json" tools --all myide
expect "an sse-ide entry written by hand works under its own name" 0 --out "mcp__myide__openFile"

finish
