#!/usr/bin/env bash
# What a new user meets first: results written exactly into pipes and
# files, write errors said, broken content never exit 0, command-line
# mistakes named (also in --json), tables measured in screen columns.
# tests/servers/hostile.c --mode printing is the server.
. "$(dirname "$0")/../lib/lib.sh"
H="h=$HOSTILE --mode printing"
FS="$INTEROP/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"

# ---- text results are written exactly in a pipe or a file ----
blocks() { run --server "$H" call h/blocks "content=$1"; }
"$MCPHOST" --server "$H" call h/blocks \
  'content=[{"type":"text","text":"no newline"}]' >"$TMP/copy" 2>"$TMP/err"
printf 'no newline' >"$TMP/want"
check "a text result without a final newline is written without one" \
  cmp -s "$TMP/want" "$TMP/copy"
"$MCPHOST" --server "$H" call h/blocks \
  'content=[{"type":"text","text":""}]' >"$TMP/copy" 2>"$TMP/err"
check "an empty text result is an empty file" test ! -s "$TMP/copy"
"$MCPHOST" --server "$H" call h/blocks \
  'content=[{"type":"text","text":"a"},{"type":"text","text":"b\n"},{"type":"text","text":"c"}]' \
  >"$TMP/copy" 2>"$TMP/err"
printf 'a\nb\nc' >"$TMP/want"
check "text blocks: a newline between them only where one is missing, none after the last" \
  cmp -s "$TMP/want" "$TMP/copy"
if [ -f "$FS" ]; then
  mkdir -p "$TMP/files"
  printf 'no newline' >"$TMP/files/nn.txt"
  : >"$TMP/files/empty.txt"
  FSS="fs=node $FS $TMP/files"
  for f in nn.txt empty.txt; do
    "$MCPHOST" --no-roots --server "$FSS" call fs/read_text_file \
      "path=$TMP/files/$f" >"$TMP/copy" 2>"$TMP/err"
    check "server-filesystem read_text_file $f > copy: cmp finds no difference" \
      cmp -s "$TMP/files/$f" "$TMP/copy"
  done
else
  echo "server-filesystem is not installed; its checks skipped"
fi

"$MCPHOST" --server "d=$DEMO" read d demo://item/7 >"$TMP/copy" 2>"$TMP/err"
printf 'item 7' >"$TMP/want"
check "read: a text resource without a final newline is written exactly" \
  cmp -s "$TMP/want" "$TMP/copy"

# ---- write errors on stdout ----
full() {
  "$MCPHOST" "$@" >/dev/full 2>"$TMP/err" </dev/null
  RC=$?
  OUT=""
  ERR=$(cat "$TMP/err")
}
full --server "$H" call h/echo message=hi
expect "call > /dev/full: said, exit 10" 10 \
  --err "mcphost: cannot write the output: No space left on device"
full --server "$H" call h/big mib=1
expect "a 1 MiB result > /dev/full: said, exit 10" 10 \
  --err "cannot write the output: No space left on device"
full --server "$H" tools
expect "tools > /dev/full: exit 10" 10 --err "cannot write the output"
full --server "$H" tools --json
expect "tools --json > /dev/full: exit 10" 10 --err "cannot write the output"
printf '%s\n' '{"id":1,"call":"h/echo","arguments":{"message":"x"}}' |
  "$MCPHOST" --server "$H" batch >/dev/full 2>"$TMP/err"
RC=$?
ERR=$(cat "$TMP/err")
expect "batch > /dev/full: exit 10" 10 \
  --err "cannot write the output: No space left on device"
"$MCPHOST" --server "$H" call h/big mib=1 2>"$TMP/err" | head -c1 >/dev/null
RC=${PIPESTATUS[0]}
ERR=$(cat "$TMP/err")
expect "a pipe closed by its reader ends quietly, 128 + SIGPIPE" 141 \
  --no-err "cannot write"

# ---- content that cannot be saved ----
blocks '[{"type":"image","data":"!!not base64!!","mimeType":"image/png"}]'
expect "an image with invalid base64 is exit 4, naming the server" 4 \
  --out "invalid base64 data, not saved" \
  --err 'server "h" sent an image with invalid base64 data'

# ---- --json errors carry the real reason ----
touch "$TMP/afile"
json_reason() {
  local name=$1 want=$2
  shift 2
  run --json "$@"
  expect "--json $name: the message is the reason" 2 \
    --jq ".error.code == 2 and (.error.message | contains(\"$want\"))"
}
json_reason "--output-dir FILE" "is not a directory" \
  --output-dir "$TMP/afile" tools
json_reason "--bogus-opt" 'unknown option \"--bogus-opt\"' --bogus-opt tools
json_reason "--timeout abc" 'not \"abc\"' --timeout abc tools
json_reason "--root /nonexist" "--root $TMP/nonexist" --root "$TMP/nonexist" tools
json_reason "an unknown command" 'unknown command \"frob\"' frob

# ---- messages name mcphost and the command ----
run --bogus-opt tools
expect "an unknown option: \"mcphost: ...\", not getopt's path" 2 \
  --err 'mcphost: unknown option "--bogus-opt"' --no-err "bin/mcphost:" \
  --no-err "unrecognized"
run --ver tools
expect "an ambiguous prefix is said so" 2 --err 'ambiguous option "--ver"'
for cmd in servers tools resources prompts; do
  run --server "$H" "$cmd" a b
  expect "$cmd a b: the message names $cmd" 2 \
    --err "mcphost: $cmd takes at most one SERVER argument"
done
run --server "$H" call h/echo message=hi --max-output-chars 5
expect "a global option after the command gets a hint" 2 \
  --err 'call: "--max-output-chars" is a global option: it goes before the command'
run --server "$H" call h/echo message=hi --nope
expect "an unknown option gets no such hint" 2 --err 'call: unknown option "--nope"' \
  --no-err "global option"

# ---- bad servers on the command line are usage errors ----
run --url s=127.0.0.1:38412/mcp tools
expect "--url without a scheme: exit 2 naming it" 2 \
  --err '"127.0.0.1:38412/mcp": not a URL' --no-err "no servers configured"
run --transport bogus --url http://127.0.0.1:1/mcp tools
expect "--transport bogus: exit 2 naming it" 2 \
  --err '--transport "bogus"' --no-err "no servers configured"
run --mcp-config '{"mcpServers": {' tools
expect "a broken --mcp-config JSON: exit 2, its own error only" 2 \
  --err "invalid JSON" --no-err "no servers configured"
printf '{x}' >"$TMP/bad.json"
run --mcp-config "$TMP/bad.json" tools
expect "an unquoted key: the column is the key's" 2 \
  --err "bad.json: invalid JSON near line 1, column 2"
run --output-dir "" --server "$H" tools
expect "--output-dir \"\" is refused" 2 --err "--output-dir needs a directory"

# ---- --plugin-dir that is not there ----
run --plugin-dir "$TMP/nonexistent" plugins
expect "--plugin-dir DIR missing: a warning naming it, shown in plugins" 0 \
  --err "warning: --plugin-dir $TMP/nonexistent: No such file or directory" \
  --out "missing  $TMP/nonexistent"

# ---- -vv: server stderr relayed escaped ----
run -vv --server "$H" call --no-validate h/blocks $'stderr=zero\u200bwidth rtl\u202eover'
expect "a relayed server stderr line shows invisible and bidi characters" 0 \
  --err "zero<U+200B>width rtl<U+202E>over" --no-err $'\u200b' \
  --no-err $'\u202e'

# ---- descriptions and columns ----
run --server "$H" tools
expect "tools in a pipe: a description cut to its first line ends with \" …\"" 0 \
  --out "as given, …"
run --server "$H" -v tools
expect "tools -v: every line" 0 --out "For tests of how results are printed."
run --mcp-config "{\"mcpServers\": {\"数据库\": {\"command\": \"$HOSTILE\"}, \"abcdef\": {\"command\": \"$HOSTILE\"}}}" servers
expect "servers: a CJK name (two columns a character) stays aligned" 0 \
  --out "数据库  stdio" --out "abcdef  stdio"
term_run cjk stdout -- --server "$H" tools
line=$(printf '%s\n' "$SCREEN" | grep -F "这是一个")
width=$(printf '%s' "$line" | LC_ALL=C.UTF-8 wc -L)
if [ -n "$line" ] && [ "$width" -le 100 ] && [[ $line == *"…" ]]; then
  ok "tools on a terminal: a CJK description is cut to the width in columns"
else
  RC=$width
  bad "tools on a terminal: a CJK description is cut to the width in columns" \
    "line ($width columns): $line"
fi

# ---- mcp import: what is there already is not copied again ----
mkdir -p "$XDG_CONFIG_HOME/Claude" "$TMP/proj"
printf '{"mcpServers": {"mem": {"command": "mcp-server-memory"}}}\n' \
  >"$XDG_CONFIG_HOME/Claude/claude_desktop_config.json"
(cd "$TMP/proj" && "$MCPHOST" mcp add -s user mem -- mcp-server-memory) \
  >/dev/null 2>&1
# import_times N: mcp import claude-desktop -s user N times; the last
# run's RC, OUT and ERR.
import_times() {
  for _ in $(seq "$1"); do
    (cd "$TMP/proj" && "$MCPHOST" mcp import claude-desktop -s user) \
      >"$TMP/out" 2>"$TMP/err"
    RC=$?
  done
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}
import_times 3
SETTINGS="$XDG_CONFIG_HOME/mcphost/settings.json"
expect "import of an entry mcp add wrote the same: \"already there\"" 0 \
  --out "already there: mem" --no-out "imported"
check "three imports leave one mem" \
  test "$(jq -r '.mcpServers | keys | join(",")' "$SETTINGS")" = mem
printf '{"mcpServers": {"mem": {"command": "other-memory"}}}\n' \
  >"$XDG_CONFIG_HOME/Claude/claude_desktop_config.json"
import_times 2
expect "a different entry is imported once as mem_1, then already there" 0 \
  --out "already there: mem_1"
check "two imports of a different mem leave mem and mem_1" \
  test "$(jq -r '.mcpServers | keys | join(",")' "$SETTINGS")" = mem,mem_1

# ---- the forced limit replaces the terminal's default ----
run --help
expect "--help: MCPHOST_MAX_OUTPUT_CHARS replaces the terminal's limit" 0 \
  --out "replaces the" --no-out "anyway"
finish
