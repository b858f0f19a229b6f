#!/usr/bin/env bash
# headersHelper for the http and sse transports (transports/common/
# headers_helper.c; the ws transport's checks are in test_ws.sh, but for
# the wording of a failure, checked here for all three): the
# command's JSON object of headers is merged over "headers" and sent with
# every request; a failure names the server and the command.
. "$(dirname "$0")/../lib/lib.sh"
unset http_proxy https_proxy HTTPS_PROXY ALL_PROXY all_proxy NO_PROXY no_proxy
SERVERS="$SRCDIR/tests/servers"

cat >"$TMP/helper.sh" <<'SH'
#!/bin/sh
printf '{"X-Token": "from-helper", "X-Name": "%s"}' "$CLAUDE_CODE_MCP_SERVER_NAME"
SH
chmod +x "$TMP/helper.sh"
printf '#!/bin/sh\necho "expired" >&2\nexit 2\n' >"$TMP/fail.sh"
chmod +x "$TMP/fail.sh"

start_node "$SERVERS/streamable_http_server.mjs"
config_file "$TMP/h.json" "{\"h\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$NODE_PORT/mcp\", \"headers\": {\"X-Token\": \"configured\", \"X-Kept\": \"yes\"}, \"headersHelper\": \"$TMP/helper.sh\"}}"
run --config "$TMP/h.json" call h/echo_headers
expect "http: the helper's headers are sent, over the configured ones" 0 \
  --out '"x-token":"from-helper"' --out '"x-name":"h"' --out '"x-kept":"yes"' \
  --no-out "configured"
config_file "$TMP/hf.json" "{\"h\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$NODE_PORT/mcp\", \"headersHelper\": \"$TMP/fail.sh --now\"}}"
run --config "$TMP/hf.json" tools
expect "http: a failing helper names the server and the command" 3 \
  --err "server \"h\": headersHelper \"$TMP/fail.sh --now\" exited with status 2: expired"
config_file "$TMP/hm.json" "{\"h\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$NODE_PORT/mcp\", \"headersHelper\": \"$TMP/no-such-helper\"}}"
run --config "$TMP/hm.json" tools
expect "http: a helper that cannot be run is named" 3 \
  --err "no-such-helper"

# A helper that never ends is killed at 10 s, with its children.
printf '#!/bin/sh\nsleep 300 &\necho $! >"%s"\nwait\n' "$TMP/slow.child" >"$TMP/slow.sh"
chmod +x "$TMP/slow.sh"
config_file "$TMP/hs.json" "{\"h\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$NODE_PORT/mcp\", \"headersHelper\": \"$TMP/slow.sh\"}}"
run --config "$TMP/hs.json" tools
expect "a headersHelper still running after 10 s fails the connection" 3 \
  --err "server \"h\": headersHelper \"$TMP/slow.sh\" did not finish within 10000 ms; killed"
# (Gone, or a zombie waiting for a reaper that is not ours.)
check "... and what it started is gone too" pid_gone "$(cat "$TMP/slow.child")"

LOG="$TMP/sse.log"
node "$SERVERS/legacy_sse_server.mjs" --port-file "$TMP/sse.port" --log "$LOG" >"$TMP/sse.out" 2>&1 &
on_exit "kill $! 2>/dev/null"
for _ in $(seq 100); do [ -s "$TMP/sse.port" ] && break; sleep 0.1; done
SP=$(cat "$TMP/sse.port")
config_file "$TMP/s.json" "{\"s\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:$SP/sse\", \"headersHelper\": \"$TMP/helper.sh\"}}"
run --config "$TMP/s.json" call s/echo message=hi
expect "sse: a server with a headersHelper works" 0 --out "hi"
check "sse: the stream and the POSTs carry the helper's headers" \
  test "$(grep -c '"x-token":"from-helper"' "$LOG")" -ge 2
config_file "$TMP/sf.json" "{\"s\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:$SP/sse\", \"headersHelper\": \"$TMP/fail.sh\"}}"
run --config "$TMP/sf.json" tools
expect "sse: a failing helper names the server and the command" 3 \
  --err "server \"s\": headersHelper \"$TMP/fail.sh\" exited with status 2: expired"
config_file "$TMP/bad.json" '{"s": {"type": "sse", "url": "http://127.0.0.1:1/sse", "headersHelper": 3}}'
run --config "$TMP/bad.json" tools
expect "a headersHelper that is no string is named as the fault" 3 \
  --err "\"headersHelper\" must be a non-empty string (a command)"

# A helper whose output does not merge: every transport words the failure
# the one way (headers_helper_message): the command escaped and cut at
# 300 bytes. The helper runs before any connection, so no server is needed.
printf '#!/bin/sh\necho "not json"\n' >"$TMP/bad.sh"
chmod +x "$TMP/bad.sh"
pad=$(printf 'A%.0s' $(seq 320))
for kind in http sse ws; do
  case $kind in
  ws) url="ws://127.0.0.1:1/" ;;
  *) url="http://127.0.0.1:1/mcp" ;;
  esac
  config_file "$TMP/hb-$kind.json" "{\"b\": {\"type\": \"$kind\", \"url\": \"$url\", \"headersHelper\": \"$TMP/bad.sh x\\u001by $pad TAIL\"}}"
  run --config "$TMP/hb-$kind.json" call b/echo
  expect "$kind: a helper's output that does not merge names the server and the command, escaped" 3 \
    --err "server \"b\": headersHelper \"$TMP/bad.sh x<U+001B>y AAAA"
  check "... $kind: the command is cut at 300 bytes, no raw control character" \
    sh -c '! grep -q -e TAIL -e "$(printf "\033")" "$1"' sh "$TMP/err"
done

finish
