#!/usr/bin/env bash
# Content safety end to end, against a server with hostile names,
# descriptions and results (tests/servers/naming_server.c): sanitizing,
# name shortening and collisions, description and output limits, secrets
# kept out of logs and error messages. docs/safety.md is the spec.
. "$(dirname "$0")/../lib/lib.sh"
C="$TMP/naming.json"
LONGSRV=a-very-long-server-name-for-testing-limits
config_file "$C" "{\"naming\": {\"command\": \"$NAMING_SERVER\"},
                   \"$LONGSRV\": {\"command\": \"$NAMING_SERVER\", \"args\": [\"2\"]}}"
ZWSP=$(printf '\xe2\x80\x8b')
FFFD=$(printf '\xef\xbf\xbd')
L1=search_repository_issues_by_label_and_milestone_with_full_text_and_more
L2=search_repository_issues_by_label_and_milestone_with_full_text_and_less
S1=mcp__naming__search_repository_issues_by_label_and_mile_83878e88
S2=mcp__naming__search_repository_issues_by_label_and_mile_008d2ad0

# ---- names ----

run --config "$C" --json tools naming
expect "listed names are sanitized, shortened and kept apart, in server order" 0 \
  --jq "map(.name) == [\"mcp__naming__zwspace\", \"mcp__naming__bidievil\",
        \"mcp__naming__puax\", \"mcp__naming__tags\", \"mcp__naming__unassigned\",
        \"mcp__naming__bad__name\", \"mcp__naming__file_find\", \"$S1\", \"$S2\",
        \"mcp__naming__get_data\", \"mcp__naming__get_data_5b3061e3\",
        \"mcp__naming__get_data_109d0d15\", \"mcp__naming__describe\",
        \"mcp__naming__big\", \"mcp__naming__token\", \"mcp__naming__leak\",
        \"mcp__naming__structured\", \"mcp__naming__hostile\",
        \"mcp__naming__exact\", \"mcp__naming__badesc\", \"mcp__naming__wordy\",
        \"mcp__naming__indented\"]"
expect "every name fits in 64 characters" 0 --jq 'all(.[]; .name | length <= 64)'
expect "--json keeps the server's own (sanitized) name as tool" 0 \
  --jq '.[0].tool == "zwspace" and .[5].tool == "bad\ufffd\ufffdname"' \
  --jq ".[7].tool == \"$L1\" and .[8].tool == \"$L2\"" \
  --jq '.[10].tool == "get.data" and .[11].tool == "get data" and .[9].tool == "get_data"'
expect "descriptions are sanitized" 0 \
  --jq '.[0].description == "zerowidth described"' \
  --jq '.[1].description == "isolated text"' \
  --jq '.[2].description == "private use"' \
  --jq '.[5].description == "invalid \ufffd UTF-8"' \
  --jq '.[6].description == "Fullwidth and fi ligature"'
expect "no removed character reaches the output" 0 --no-out "$ZWSP" \
  --no-out "$(printf '\xe2\x80\xae')" --no-out "$(printf '\xef\xbb\xbf')"
expect "a 3000-character description is cut at 2048 with a note" 0 \
  --jq '.[12].description | length == 2048 + 15' \
  --jq '.[12].description | endswith("\u00e9... [truncated]")'

first=$OUT
run --config "$C" --json tools naming
[ "$OUT" = "$first" ] && ok "names are the same in every run" ||
  bad "names are the same in every run" "second run differs"

run --config "$C" tools naming
expect "human output shows the original name where it differs" 0 \
  --out "mcp__naming__get_data_5b3061e3  (original name: \"get.data\")" \
  --out "mcp__naming__get_data_109d0d15  (original name: \"get data\")" \
  --out "$S1  (original name: \"$L1\")" \
  --out "mcp__naming__file_find
" --no-out "mcp__naming__get_data  (original"

run --config "$C" --json tools "$LONGSRV"
expect "a long server name is cut and hashed in every name" 0 \
  --jq 'all(.[]; .name | startswith("mcp__a-very-long-server-_efaaca7e__"))' \
  --jq 'all(.[]; .name | length <= 64)'

# ---- calling by the assigned names ----

run --config "$C" call "$S1"
expect "a shortened name reaches its tool" 0 --out "called $L1"
run --config "$C" call "$S2"
expect "the other shortened name reaches the other tool" 0 --out "called $L2"
run --config "$C" call mcp__naming__get_data
expect "the already-normalized name keeps its tool" 0 --out "called get_data"
run --config "$C" call mcp__naming__get_data_5b3061e3
expect "a colliding name reaches its tool (get.data)" 0 --out "called get.data"
run --config "$C" call mcp__naming__get_data_109d0d15
expect "a colliding name reaches its tool (get data)" 0 --out "called get data"
run --config "$C" call naming/get.data
expect "server/tool takes the server's own name" 0 --out "called get.data"
run --config "$C" call mcp__naming__zwspace
expect "a tool is called by its sanitized name" 0 --out "called zwspace"
run --config "$C" call mcp__naming__bad__name
expect "invalid UTF-8 in a name became U+FFFD, sent back as such" 0 \
  --out "called bad${FFFD}${FFFD}name"
run --config "$C" call "mcp__a-very-long-server-_efaaca7e__get_data_5b3061e3"
expect "a shortened server part resolves" 0 --out "called get.data"

printf '%s\n' "{\"id\":1,\"call\":\"$S2\"}" \
  '{"id":2,"call":"mcp__naming__get_data_109d0d15"}' |
  "$MCPHOST" --config "$C" batch >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(jq -sc 'map({(.id|tostring): .}) | add' "$TMP/out"); ERR=$(cat "$TMP/err")
expect "batch resolves the same names" 0 \
  --jq "(.\"1\".result.content[0].text == \"called $L2\") and
        (.\"2\".result.content[0].text == \"called get data\")"

MCPHOST_MAX_NAME_CHARS=40 run --config "$C" --json tools naming
expect "MCPHOST_MAX_NAME_CHARS sets the limit" 0 \
  --jq 'all(.[]; .name | length <= 40)'
short=$(printf '%s' "$OUT" | jq -r ".[] | select(.tool == \"$L2\") | .name")
MCPHOST_MAX_NAME_CHARS=40 run --config "$C" call "$short"
expect "a name under a lower limit resolves too" 0 --out "called $L2"

# Permission rules name the full normalized name; an alias must not get
# around them.
mkdir -p "$MCPHOST_SYSTEM_CONFIG_DIR"
printf '{"permissions": {"deny": ["mcp__naming__get_data", "mcp__naming__%s"]}}\n' \
  "$L1" >"$MCPHOST_SYSTEM_CONFIG_DIR/managed-settings.json"
run --config "$C" call mcp__naming__get_data_5b3061e3
expect "a deny rule holds for a hashed alias" 8 --err "deny rule" --no-out "called"
run --config "$C" call "$S1"
expect "a deny rule holds for a shortened name" 8 --err "deny rule" --no-out "called"
printf '%s\n' '{"id":1,"call":"mcp__naming__get_data_109d0d15"}' "{\"id\":2,\"call\":\"$S1\"}" |
  "$MCPHOST" --config "$C" batch >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(jq -sc 'map({(.id|tostring): .}) | add' "$TMP/out"); ERR=$(cat "$TMP/err")
expect "batch holds deny rules for aliases too" 0 \
  --jq '."1".error.exit == 8 and ."2".error.exit == 8'
rm "$MCPHOST_SYSTEM_CONFIG_DIR/managed-settings.json"

# ---- descriptions ----

MCPHOST_MAX_DESCRIPTION_CHARS=10 run --config "$C" --json tools naming
expect "MCPHOST_MAX_DESCRIPTION_CHARS sets the limit" 0 \
  --jq '.[12].description == "\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9... [truncated]"' \
  --jq '.[13].description == "returns 15... [truncated]"'
run --config "$C" --json prompts naming
expect "prompt descriptions are cut too" 0 \
  --jq '.[0].description | length == 2048 + 15'

# ---- results ----

# In a pipe or a file the text is whole: no cut, no note in the data.
run --config "$C" call mcp__naming__big
expect "in a pipe a long text result is whole, with no note" 0 \
  --no-out "[output truncated" --no-err "truncated"
check "all 150,000 characters reach the file" \
  test "$(head -n 1 "$TMP/out" | tr -d '\n' | wc -c)" = 150000
run --config "$C" --json call mcp__naming__big
expect "--json prints the whole result" 0 --jq '.content[0].text | length == 150000'

# A cut asked for holds everywhere: the note on stderr, exit 9.
MCPHOST_MAX_OUTPUT_CHARS=1000 run --config "$C" call mcp__naming__big size=5000
DIR="$TMP/mcphost-$(id -u)"
expect "MCPHOST_MAX_OUTPUT_CHARS cuts in a pipe, note on stderr, exit 9" 9 \
  --err "mcphost: output truncated: 4000 of 5000 characters cut; the full text is saved to $DIR/mcp-resource-" \
  --no-out "truncated"
check "exactly 1000 characters are written" \
  test "$(head -n 1 "$TMP/out" | tr -d '\n' | wc -c)" = 1000
saved=$(sed -n 's/.*the full text is saved to \(.*\)$/\1/p' "$TMP/err")
check "the full text is saved whole" test "$(wc -c <"$saved")" = 5000
check "the saved file is named mcp-resource-<time>-<index>-<random>.txt" \
  bash -c "[[ \$(basename '$saved') =~ ^mcp-resource-[0-9]+-[0-9]+-[0-9a-f]{8}\.txt$ ]]"
check "the saved file is private (600 in a 700 directory)" \
  test "$(stat -c %a "$saved")$(stat -c %a "$DIR")" = 600700
run --config "$C" --max-output-chars 100 --json call mcp__naming__big size=5000
expect "--max-output-chars cuts --json text too, which stays JSON" 9 \
  --jq '.content[0].text | length == 100' --err "4900 of 5000 characters cut"
run --config "$C" --max-output-chars 5000 call mcp__naming__big size=5000
expect "text at the limit is not cut" 0 --no-err "truncated"
run --config "$C" --max-output-chars=lots call mcp__naming__big size=10
expect "a bad --max-output-chars is a usage error" 2 --err "--max-output-chars"
MCPHOST_MAX_OUTPUT_CHARS=lots run --config "$C" call mcp__naming__big size=10
expect "a bad limit is ignored with a warning" 0 \
  --out "abcdefghij" --err "ignoring MCPHOST_MAX_OUTPUT_CHARS=\"lots\""

# Results are kept as sent (docs/safety.md): no NFKC, nothing removed.
EXACT=$(printf 'x\xc2\xb2 \xef\xac\x81 \xef\xbc\xa6\xef\xbd\x95\xef\xbd\x8c\xef\xbd\x8c \xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9 e\xcc\x81 t\xf3\xa0\x81\x81 so\xc2\xadft\r')
"$MCPHOST" --config "$C" call mcp__naming__exact >"$TMP/exact.out" 2>"$TMP/err"
RC=$?; OUT=$(cat "$TMP/exact.out"); ERR=$(cat "$TMP/err")
printf '%s\n%s\n' "$EXACT" "$EXACT" >"$TMP/exact.want"
expect "a text result reaches a pipe byte for byte" 0
check "(superscript, ligature, full-width, ZWJ emoji, tag, soft hyphen, CRLF)" \
  cmp "$TMP/exact.out" "$TMP/exact.want"
run --config "$C" --json call mcp__naming__exact
expect "--json results are byte-exact" 0 \
  --jq '.content[0].text == "x\u00b2 \ufb01 \uff26\uff55\uff4c\uff4c \ud83d\udc68\u200d\ud83d\udc69 e\u0301 t\udb40\udc41 so\u00adft\r\n"' \
  --jq '.content[1].resource.text == .content[0].text'
batch_run "$C" '{"id":1,"call":"naming/exact"}'
expect "batch results are byte-exact" 0 \
  --jq '.result.content[0].text == "x\u00b2 \ufb01 \uff26\uff55\uff4c\uff4c \ud83d\udc68\u200d\ud83d\udc69 e\u0301 t\udb40\udc41 so\u00adft\r\n"'
run --config "$C" --sanitize=full --json call mcp__naming__exact
expect "--sanitize=full applies Claude Code's sanitizing to results too" 0 \
  --jq '.content[0].text == "x2 fi Full \ud83d\udc68\ud83d\udc69 \u00e9 t soft\r\n"'
run --config "$C" --sanitize=display --json tools naming
expect "--sanitize=display keeps names and descriptions as sent" 0 \
  --jq '.[0].tool == "zw\u200bsp\u200dace" and .[0].name == "mcp__naming__zw_sp_ace"' \
  --jq '.[0].description == "zero\u200bwidth \ufeffdescribed"'
run --config "$C" --sanitize=bogus tools naming
expect "a bad --sanitize is a usage error" 2 --err "--sanitize must be full, display or off"

# In a pipe a result is exact even when it holds escapes; messages on
# stderr never pass them on.
run --config "$C" call mcp__naming__hostile
expect "a hostile result reaches a pipe as sent" 0 \
  --out "$(printf 'A\x1b[2JB\x1b]0;pwned\x07C')"
expect "its progress message on stderr is shown escaped" 0 \
  --err "progress: 1/2 step <U+001B>[2J<U+001B>]0;pwned<U+0007>one" \
  --no-err "$(printf '\x1b')"
run --config "$C" call mcp__naming__badesc
expect "an error text from a server is shown escaped" 4 \
  --err "bad <U+001B>[31mred<U+001B>[0m <U+202E>right-to-left" \
  --no-err "$(printf '\x1b')"
expect "a JSON-RPC code is said once" 4 --err "(error -32000)"
run --config "$C" --json call mcp__naming__hostile
expect "--json output stays valid JSON with the escapes JSON-escaped" 0 \
  --jq '.content[0].text | startswith("A\u001b[2JB\u001b]0;pwned\u0007C\u009b31mD\u202eE\u200bF\n\tG")' \
  --no-out "$(printf '\x1b')"

run --config "$C" --json call mcp__naming__structured
expect "--json keeps structuredContent" 0 \
  --jq '.structuredContent == {"answer": 42} and .content[0].text == "{\"answer\":42}"'

# ---- secrets ----

run --config "$C" -vvv call mcp__naming__token
expect "the -vvv wire log never shows a token" 0 \
  --err '<- {"jsonrpc"' --err '[REDACTED]' --no-err "secret123"
expect "(the result itself is the tool's output, printed as is)" 0 \
  --out 'secret123'
run --config "$C" call mcp__naming__leak
expect "an error message from the server is redacted" 4 \
  --err '"refresh_token":"[REDACTED]"' --err "Authorization: [REDACTED]" \
  --no-err "rt-secret-456" --no-err "abc-secret-789"
run --config "$C" -vvv call mcp__naming__leak
expect "nor does it leak through the wire log" 4 \
  --no-err "rt-secret-456" --no-err "abc-secret-789"
printf '%s\n' '{"id":1,"call":"naming/leak"}' |
  "$MCPHOST" --config "$C" batch >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "batch error messages are redacted" 0 \
  --out '[REDACTED]' --no-out "rt-secret-456" --no-out "abc-secret-789"

finish
