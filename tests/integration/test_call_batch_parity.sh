#!/usr/bin/env bash
# `call` and `batch` are two front ends of one pipeline (host/mcp/calls.h):
# each row of the table below runs once as `mcphost --json call REF ARGS`
# and once as one batch line, and both must give the same exit code (for
# batch: "exit", or 1 for an isError result), the same result and the same
# error message, and the same progress lines on stderr. Both run without a
# controlling terminal (setsid), so that an ask is answered only by
# --allow; the terminal rows at the end give each its own.
. "$(dirname "$0")/../lib/lib.sh"
SERVERS="$SRCDIR/tests/servers"

C="$TMP/servers.json"
config_file "$C" "{\"demo\": {\"command\": \"$DEMO\"},
                   \"guard\": {\"command\": \"$DEMO\"},
                   \"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\", \"stdio\"]}}"
mkdir -p "$XDG_CONFIG_HOME/mcphost"
chmod 700 "$XDG_CONFIG_HOME" "$XDG_CONFIG_HOME/mcphost"
printf '%s\n' '{"permissions": {"deny": ["mcp__guard__add"], "ask": ["mcp__guard__echo"]}}' \
  >"$XDG_CONFIG_HOME/mcphost/settings.json"
chmod 600 "$XDG_CONFIG_HOME/mcphost/settings.json"

cat >"$TMP/accept.sh" <<'SH'
#!/bin/sh
cat >/dev/null
echo '{"action":"accept"}'
SH
chmod +x "$TMP/accept.sh"

# A fresh streamable HTTP test server per run: its expire_session tool
# forgets the session once per process.
http_config() {
  start_node "$SERVERS/streamable_http_server.mjs" || return 1
  config_file "$TMP/http.json" \
    "{\"t\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$NODE_PORT/mcp\"}}"
}

# what_call / what_batch: "EXIT<TAB>RESULT<TAB>MESSAGE<TAB>PROGRESS" of the
# last run; RESULT through the row's jq filter NORM.
NORM='.'
what_call() {
  local result message
  if [ "$RC" -le 1 ]; then
    result=$(jq -cS "$NORM" <<<"$OUT" 2>/dev/null)
  fi
  message=$(jq -r '.error.message // empty' <<<"$OUT" 2>/dev/null)
  printf '%s\t%s\t%s\t%s' "$RC" "${result:-}" "$message" \
    "$(grep -c '^progress:' <<<"$ERR")"
}
what_batch() {
  local line=$OUT rc result message
  rc=$(jq -r 'if .error then .error.exit elif .result.isError then 1 else 0 end' \
    <<<"$line" 2>/dev/null)
  if [ "${rc:-x}" = 0 ] || [ "${rc:-x}" = 1 ]; then
    result=$(jq -cS ".result | $NORM" <<<"$line" 2>/dev/null)
  fi
  message=$(jq -r '.error.message // empty' <<<"$line" 2>/dev/null)
  printf '%s\t%s\t%s\t%s' "${rc:-none}" "${result:-}" "$message" \
    "$(grep -c '^progress:' <<<"$ERR")"
}

# row NAME WANT_EXIT CONFIG REF ARGS [OPTION...]; with PROGRESS=N set, N
# progress lines are wanted from each.
PROGRESS=
row() {
  local name=$1 want=$2 cfg=$3 ref=$4 args=$5 a b line
  shift 5
  [ "$cfg" = http ] && { http_config || return; cfg="$TMP/http.json"; }
  setsid -w "$MCPHOST" --config "$cfg" "$@" --json call "$ref" "$args" \
    >"$TMP/out" 2>"$TMP/err" </dev/null
  RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
  a=$(what_call)
  [ "$cfg" = "$TMP/http.json" ] && { http_config || return; }
  line=$(jq -cn --arg ref "$ref" --argjson args "$args" \
    '{id: 1, call: $ref, arguments: $args}')
  printf '%s\n' "$line" |
    setsid -w "$MCPHOST" --config "$cfg" "$@" batch >"$TMP/out" 2>"$TMP/err"
  OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
  b=$(what_batch)
  if [ "$a" = "$b" ] && [ "${a%%$'\t'*}" = "$want" ] &&
     { [ -z "$PROGRESS" ] || [ "${a##*$'\t'}" = "$PROGRESS" ]; }; then
    ok "$name (exit $want)"
  else
    bad "$name" "call:  $a" "batch: $b" "wanted exit $want${PROGRESS:+, $PROGRESS progress lines}"
  fi
  NORM='.'
  PROGRESS=
}

#   name                                   exit config ref                    arguments                    options
row "a tool by its mcp__ name"               0  "$C" mcp__demo__echo          '{"message":"hi"}'
row "a tool by SERVER/TOOL"                  0  "$C" demo/add                 '{"a":1,"b":2}'
row "a tool's own error (isError)"           1  "$C" demo/fail                '{"reason":"no"}'
row "an unknown tool, mcp__ form"            6  "$C" mcp__demo__nope          '{}'
row "an unknown tool, SERVER/TOOL form"      6  "$C" demo/nope                '{}'
row "an unknown server"                      6  "$C" mcp__nosuch__echo        '{}'
row "bad arguments (checked by the schema)"   2  "$C" demo/add                 '{"a":"x"}'
PROGRESS=3
row "progress reaches stderr in both"        0  "$C" mcp__demo__slow          '{"steps":3,"delay_ms":10}'
PROGRESS=0
row "--quiet hides progress in both"         0  "$C" mcp__demo__slow          '{"steps":2,"delay_ms":1}' --quiet
row "a deny rule refuses"                    8  "$C" mcp__guard__add          '{"a":1,"b":2}'
row "a deny rule refuses the SERVER/TOOL form" 8 "$C" guard/add               '{"a":1,"b":2}'
row "an ask rule without a terminal refuses" 8  "$C" mcp__guard__echo         '{"message":"x"}'
row "--allow answers an ask"                 0  "$C" mcp__guard__echo         '{"message":"x"}' --allow 'mcp__guard__*'
row "--allow does not answer a deny"         8  "$C" mcp__guard__add          '{"a":1,"b":2}' --allow 'mcp__guard__*'
if [ -f "$EVERYTHING" ]; then
  NORM='.content[0].text | sub("Elicitation ID: [-0-9a-f]+"; "ID")'
  # A server that never says its elicitation is complete: the call waits
  # for that until its deadline (test_url_elicitation.sh).
  U="$TMP/url.json"
  config_file "$U" "{\"u\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/url_elicit_server.py\"]}}"
  MCP_TOOL_TIMEOUT=2000 row "-32042: the elicitation, then the wait for its completion" 5 \
    "$U" u/needs_url '{}' --elicitation="hook:$TMP/accept.sh"
  row "-32042: a declined elicitation ends the call" 4 "$C" mcp__every__trigger-url-elicitation \
    '{"url":"https://example.com/start","errorPath":true}' --elicitation=decline
  NORM='.content[0].text | sub("s-[^ ]+"; "SID")'
  row "an expired session is re-initialized and the call resent" 0 http t/expire_session '{}'
fi

# An ask on a terminal: call asks on its own (stdin and stderr a
# terminal), batch on /dev/tty (its stdin carries the requests).
if command -v script >/dev/null; then
  for answer in y n; do
    want=0; [ "$answer" = n ] && want=8
    printf '%s\n' "$answer" | script -qec "'$MCPHOST' --config '$C' --json call mcp__guard__echo '{\"message\":\"tty\"}' >'$TMP/out'" /dev/null >"$TMP/screen" 2>&1
    RC=$?; OUT=$(cat "$TMP/out"); ERR=""
    a=$(what_call)
    printf '%s\n' "$answer" | script -qec "echo '{\"id\":1,\"call\":\"mcp__guard__echo\",\"arguments\":{\"message\":\"tty\"}}' | '$MCPHOST' --config '$C' batch >'$TMP/out'" /dev/null >"$TMP/screen" 2>&1
    OUT=$(cat "$TMP/out"); ERR=""
    b=$(what_batch)
    if [ "$a" = "$b" ] && [ "${a%%$'\t'*}" = "$want" ] &&
       grep -q '\[y/N\]' "$TMP/screen"; then
      ok "an ask on a terminal answered $answer (exit $want)"
    else
      bad "an ask on a terminal answered $answer" "call:  $a" "batch: $b" \
        "screen: $(cat "$TMP/screen")"
    fi
  done
else
  echo "skip terminal ask checks: no script(1)"
fi
finish
