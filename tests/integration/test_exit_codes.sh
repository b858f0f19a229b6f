#!/usr/bin/env bash
# Exit codes (README, `mcphost --help`): one map from what went wrong to
# the code, the same for every command and for both forms of a name.
. "$(dirname "$0")/../lib/lib.sh"
H="h=$HOSTILE --log $TMP/hostile.log"

# An unknown tool is 6 however it is named and however the server says so.
run --server "$H" call h/nope
expect "call SERVER/TOOL: a -32602 \"Unknown tool\" error is exit 6, said as batch says it" 6 \
  --err 'has no tool named "nope"'
run --server "$H" call mcp__h__nope
expect "call mcp__SERVER__TOOL: a name missing from the list is exit 6" 6 \
  --err 'has no tool named "nope"'
run --server "$H" call h/big mib=99999
expect "another -32602 (bad arguments) stays a protocol error, exit 4" 4 \
  --err "mib must be"
if [ -f "$EVERYTHING" ]; then
  E="every=node $EVERYTHING stdio"
  run --server "$E" call every/nope
  expect "an SDK server's isError \"Tool nope not found\" is exit 6, not 1" 6 \
    --err 'has no tool named "nope"'
  run --server "$E" call --no-validate every/get-sum a=x b=1
  expect "a tool's own error stays exit 1" 1
else
  echo "server-everything is not installed; its checks skipped"
fi

# A server without resources/templates/list has no templates.
run --server "h=$HOSTILE --mode no-templates" resources
expect "resources: -32601 to resources/templates/list means none, exit 0" 0 \
  --out "hostile://only"
run --server "h=$HOSTILE --mode no-templates" --json resources
expect "resources --json: the same" 0 --jq 'length == 1'

# A signal N ends the run with 128 + N; pending requests are cancelled.
signal_run() { # SIGNAL: a hanging call, stopped by SIGNAL once it is out
  rm -f "$TMP/hostile.log"
  "$MCPHOST" --server "$H" call h/hang >"$TMP/out" 2>"$TMP/err" &
  local pid=$!
  for _ in $(seq 300); do
    grep -q '"tools/call"' "$TMP/hostile.log" 2>/dev/null && break
    sleep 0.1
  done
  kill -s "$1" "$pid"
  wait "$pid"; RC=$?
  OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
}
signal_run TERM
expect "SIGTERM exits 143 (128 + 15)" 143
signal_run INT
expect "SIGINT exits 130 (128 + 2)" 130

# A signal while the lists are out (tools, servers, grep list every server
# at once): each is withdrawn, and the run ends as the signal says, with
# no error of the list's own.
cat >"$TMP/nolist.py" <<'PY'
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if 'id' not in m or 'method' not in m:
        continue
    if m['method'] == 'initialize':
        r = {'protocolVersion': '2025-06-18', 'capabilities': {'tools': {}},
             'serverInfo': {'name': 'nolist', 'version': '1'}}
        print(json.dumps({'jsonrpc': '2.0', 'id': m['id'], 'result': r}),
              flush=True)
    elif m['method'] == 'tools/list':
        open(sys.argv[1], 'w').close()  # asked, and never answered
    else:
        print(json.dumps({'jsonrpc': '2.0', 'id': m['id'], 'error':
                          {'code': -32601, 'message': 'no'}}), flush=True)
PY
rm -f "$TMP/listed"
"$MCPHOST" --server "n=python3 $TMP/nolist.py $TMP/listed" tools \
  >"$TMP/out" 2>"$TMP/err" &
pid=$!
for _ in $(seq 300); do
  [ -f "$TMP/listed" ] && break
  sleep 0.1
done
kill -s INT "$pid"
wait "$pid"; RC=$?
OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "SIGINT while tools/list is out: withdrawn, exit 130" 130 \
  --no-err "cancelled" --no-err "ERROR"

# mcp list exits like servers when a server fails its check.
config_file "$TMP/bad.json" "{\"gone\": {\"command\": \"$TMP/no-such-server\"}, \"ok\": {\"command\": \"$DEMO\"}}"
run --config "$TMP/bad.json" servers
want=$RC
run --config "$TMP/bad.json" mcp list
expect "mcp list exits like servers ($want) when a server failed" "$want" \
  --out "gone"
run --config "$TMP/bad.json" --json mcp list
expect "mcp list --json too" "$want" --jq 'length == 2'
check "and that code is 3 (the server could not start)" test "$want" -eq 3

# --json: a failure is an object on stdout as well.
run --json --server "$H" call h/nope
expect "--json: an error goes to stdout as {\"error\": {code, message, server}}" 6 \
  --jq '.error.code == 6 and .error.server == "h" and (.error.message | test("no tool named \"nope\""))'
run --json --server "$H" tools nosuch
expect "--json: an error without a server has \"server\": null" 6 \
  --jq '.error.code == 6 and .error.server == null and (.error.message | test("nosuch"))'
run --json --server "$H" call h/echo message=hi
expect "--json: success prints the result only" 0 --jq '.content[0].text == "Echo: hi"' \
  --no-out '"error"'

# The README's table has every code --help lists.
run --help
for code in $(printf '%s\n' "$OUT" | sed -n '/^Exit codes:/,$p' | awk '/^  [0-9]+ /{print $1}'); do
  check "README's exit-code table lists $code" grep -q "^| $code |" "$SRCDIR/README.md"
done
finish
