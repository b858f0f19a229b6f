#!/usr/bin/env bash
# Data passes through exactly (docs/safety.md, "Exact data"): a number
# leaves mcphost as its token came in, at any size and precision, and a
# string keeps U+0000, through call (text and --json), batch, the schema
# `tool` shows, and the gateway (serve --stdio and --http, with and
# without --passthrough) both ways. Real peers: server-everything's echo,
# the TS SDK client (tests/interop/gateway_client.mjs), and
# tests/servers/typed_server.py, whose tools answer with the arguments as
# they arrived (numbers as their tokens); tests/interop/gateway_exact.py
# reads the gateway's answers as bytes.
. "$(dirname "$0")/../lib/lib.sh"

[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"
command -v node >/dev/null || skip_test "no node for the TS SDK client"
PY=$(command -v python3) || skip_test "no python3 for the typed server"

C="$TMP/servers.json"
config_file "$C" "{
  \"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]},
  \"t\": {\"command\": \"$PY\", \"args\": [\"$SRCDIR/tests/servers/typed_server.py\"]}}"

# Numbers a double does not hold, or holds but cJSON printed otherwise
# (2^53 - 1 as 9.00719925474099e+15, 0.30000000000000004 as 0.3).
NUMS='[9007199254740991,9007199254740993,1152921504606846977,12345678901234567890,1e400,-0,0.30000000000000004,1.0,2.50]'

# ---- call ----
run --config "$C" call mcp__every__echo 'message:="a\u0000b"'
check "call: U+0000 reaches server-everything and comes back, a NUL byte in a pipe" \
  cmp -s <(printf 'Echo: a\0b') "$TMP/out"
run --config "$C" call mcp__every__echo --args '{"message": "a\u0000b"}'
check "call --args: the same" cmp -s <(printf 'Echo: a\0b') "$TMP/out"
if command -v script >/dev/null; then
  script -qec "'$MCPHOST' --config '$C' call mcp__every__echo 'message:=\"a\\u0000b\"'" \
    /dev/null </dev/null >"$TMP/out" 2>&1
  RC=$?
  OUT=$(cat "$TMP/out")
  ERR=
  expect "call on a terminal: U+0000 shown as <U+0000>" 0 --out "Echo: a<U+0000>b"
fi
run --config "$C" --json call mcp__every__echo 'message:="a\u0000b"'
expect "call --json: U+0000 as \\u0000" 0 \
  --jq '.content[0].text == "Echo: a\u0000b"' --out '"Echo: a\u0000b"'

run --config "$C" call t/exact "x:=$NUMS"
expect "call: KEY:=JSON numbers are sent as typed" 0 --out "{\"x\":$NUMS}"
run --config "$C" --json call t/exact "x:=$NUMS"
expect "call --json: the result's numbers as the server sent them" 0 \
  --out '"x":	[9007199254740991, 9007199254740993, 1152921504606846977, 12345678901234567890, 1e400, -0, 0.30000000000000004, 1.0, 2.50]'
run --config "$C" call t/exact n=9007199254740993 i=1152921504606846977 \
  ns=12345678901234567890
expect "call: KEY=VALUE numbers typed by the schema are sent as typed" 0 \
  --out '{"i":1152921504606846977,"n":9007199254740993,"ns":12345678901234567890}'
run --config "$C" call t/exact ns=02134 n=1e400
expect "call: number|string 02134 is the string (it would not come back the same as a number)" 0 \
  --out '{"n":1e400,"ns":"02134"}'

# A server's error message of 3,000 characters, whole, where the
# library's error report holds 1,023 (mcphost_error.message_long).
LONG="$(printf 'E%.0s' $(seq 3000))END"
run --config "$C" call t/open "fail_with=$LONG"
expect "call: a server's long error message said whole" 4 \
  --err "${LONG}"
run --config "$C" --json call t/open "fail_with=$LONG"
expect "call --json: the same in the error object" 4 \
  --jq '.error.message | test("E{3000}END")'
printf '{"call":"mcp__t__open","arguments":{"fail_with":"%s"}}\n' "$LONG" \
  >"$TMP/long.jsonl"
"$MCPHOST" --config "$C" batch <"$TMP/long.jsonl" >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "batch: the same in its error line (exit 0: the batch ran)" 0 \
  --jq '.error.exit == 4 and (.error.message | test("E{3000}END"))'

run --config "$C" tool t/exact
expect "tool: a schema default as the server wrote it" 0 \
  --out "d?: number = 9007199254740991" --out "default 9007199254740991"

# ---- batch ----
printf '%s\n' \
  "{\"id\":12345678901234567890,\"call\":\"mcp__t__exact\",\"arguments\":{\"x\":$NUMS,\"s\":\"a\\u0000b\"}}" \
  '{"id":"e\u0000","call":"mcp__every__echo","arguments":{"message":"a\u0000b"}}' \
  >"$TMP/batch.jsonl"
"$MCPHOST" --config "$C" batch <"$TMP/batch.jsonl" >"$TMP/out" 2>"$TMP/err"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "batch: ids, arguments and results keep their numbers and U+0000" 0 \
  --out "{\"id\":12345678901234567890,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"s\\\":\\\"a\\\\u0000b\\\",\\\"x\\\":$NUMS}\"}],\"structuredContent\":{\"s\":\"a\\u0000b\",\"x\":$NUMS}}}" \
  --out '{"id":"e\u0000","result":{"content":[{"type":"text","text":"Echo: a\u0000b"}]}}'

# A call's arguments go to the server as their text came (the wire log
# of -vvv shows the request), not as their tree written again; from the
# tree when the text has a line break (--args), a raw C0 80 (U+0000 as
# the tree holds it) or words set over it.
printf '%s\n' '{"id":1,"call":"t/exact","arguments":{"s": "caf\u00e9", "n": 1.50}}' |
  "$MCPHOST" -vvv --config "$C" batch >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "batch: the arguments are sent as their text came" 0 \
  --err '"arguments":{"s": "caf\u00e9", "n": 1.50}' --out '"n\":1.50'
printf '{"id":1,"call":"t/exact","arguments":{"s": "a\300\200b"}}\n' |
  "$MCPHOST" -vvv --config "$C" batch >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "batch: a raw C0 80 in them is sent as \\u0000" 0 \
  --err '"arguments":{"s":"a\u0000b"}'
run -vvv --config "$C" call t/exact --args $'{"s":\n "x", "n": 2.0}'
expect "call --args with a line break: one line, from the tree" 0 \
  --err '"arguments":{"s":"x","n":2.0}'
run -vvv --config "$C" call t/exact --args '{"s": "x"}' n=2.0
expect "call --args and words: from the tree" 0 \
  --err '"arguments":{"s":"x","n":2.0}'

# ---- the gateway ----
client() { run_cmd node "$INTEROP/gateway_client.mjs" "$@"; }
EXACT_JQ='.nul == "Echo: a\u0000b" and .numbers.back == true and .numbers.text == "{\"f\":0.30000000000000004,\"n\":9007199254740991,\"s\":\"x\\u0000y\"}"'
client exact "$MCPHOST" --mcp-config "$C" serve --stdio
expect "serve --stdio: the TS SDK client's U+0000 and numbers, both ways" 0 \
  --jq "$EXACT_JQ"
client exact-every "$MCPHOST" --mcp-config "$C" serve --stdio --server every --passthrough
expect "serve --stdio --passthrough: U+0000 to server-everything and back" 0 \
  --jq '.nul == "Echo: a\u0000b"'

# The gateway's answer as bytes: JSON.parse would round the numbers.
ARGS="{\"x\":$NUMS,\"s\":\"a\\u0000b\"}"
WANT="\"structuredContent\":{\"s\":\"a\\u0000b\",\"x\":$NUMS}"
exact() { run_cmd "$PY" "$INTEROP/gateway_exact.py" "$@"; }
exact mcp__t__exact "$ARGS" stdio "$MCPHOST" --mcp-config "$C" serve --stdio
expect "serve --stdio: number tokens and U+0000, both ways, as bytes" 0 --out "$WANT"
exact exact "$ARGS" stdio "$MCPHOST" --mcp-config "$C" serve --stdio --server t --passthrough
expect "serve --stdio --passthrough: the same" 0 --out "$WANT"
exact mcp__t__open "{\"fail_with\":\"$LONG\"}" stdio "$MCPHOST" --mcp-config "$C" serve --stdio
expect "serve --stdio: a backend's long error message passed on whole" 0 \
  --out "\"code\":-32000" --out "${LONG}"

start_gateway "$C" 127.0.0.1:0 || exit 1
exact mcp__t__exact "$ARGS" "$GW_URL"
expect "serve --http: number tokens and U+0000, both ways, as bytes" 0 --out "$WANT"
client exact "$GW_URL"
expect "serve --http: the TS SDK client's U+0000 and numbers" 0 --jq "$EXACT_JQ"
stop_gateway
start_gateway "$C" 127.0.0.1:0 --server t --passthrough || exit 1
exact exact "$ARGS" "$GW_URL"
expect "serve --http --passthrough: number tokens and U+0000 as bytes" 0 --out "$WANT"
stop_gateway

finish
