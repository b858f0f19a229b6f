#!/usr/bin/env bash
# A 10 MiB result is held once (issue 27): the line stays in the buffer it
# was read into (the stdio transport hands it over, ABI 1.7
# on_message_owned), is parsed or minified there, and is written out of
# it. Peak RSS of `call` (text and --json) and `batch` receiving one stays
# within 10 MiB + 6 MiB, measured by GNU time's %M (the largest process of
# the tree: the server, tests/servers/hostile.c's big tool, streams its
# answer and stays small, so the figure is mcphost's). The data passes
# exactly: U+0000 and numbers a double does not hold, inside a large
# result, through call, --json and batch.
. "$(dirname "$0")/../lib/lib.sh"

TIME=/usr/bin/time
PATTERN='abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/'
TEN=$((10 << 20))
LIMIT_KB=$(((10 + 6) << 10))
NUMS='[12345678901234567890,9007199254740993,1e400,-0,0.30000000000000004,1.0]'

config_file "$TMP/ten.json" "{\"ten\": {\"command\": \"$HOSTILE\"}}"

# The text of big (mib=10), and of big_exact.
yes "$PATTERN" | tr -d '\n' | head -c "$TEN" >"$TMP/ten.txt"
{ printf 'a\0b'; cat "$TMP/ten.txt"; } >"$TMP/exact.txt"

# measure NAME ARGS...: runs mcphost ARGS (stdin from $TMP/in) under GNU
# time; sets RC, RSS_KB (its peak) and ERR; stdout in $TMP/out.
measure() {
  local name=$1
  shift
  "$TIME" -f %M -o "$TMP/rss.$name" "$MCPHOST" "$@" <"$TMP/in" \
    >"$TMP/out" 2>"$TMP/err"
  RC=$?
  ERR=$(cat "$TMP/err")
  RSS_KB=$(tail -n 1 "$TMP/rss.$name")
}

# under_limit NAME: the last measure's peak is within the bound.
under_limit() {
  if [[ ! $RSS_KB =~ ^[0-9]+$ ]]; then
    bad "$1" "no peak RSS measured: $RSS_KB"
  elif [ "$RSS_KB" -le "$LIMIT_KB" ]; then
    ok "$1 ($RSS_KB KiB)"
  else
    bad "$1" "peak RSS $RSS_KB KiB, over $LIMIT_KB KiB"
  fi
}

# A sanitizer's shadow memory and quarantine are no measure of this.
rss=true
if [ ! -x "$TIME" ]; then
  echo "     (no GNU time at $TIME: peak RSS not checked)"
  rss=false
elif ldd "$MCPHOST" 2>/dev/null | grep -q 'libasan\|libtsan\|libmsan'; then
  echo "     (a sanitizer build: peak RSS not checked)"
  rss=false
fi

: >"$TMP/in"

# ---- call: the text into a file ----
measure call --config "$TMP/ten.json" call ten/big mib=10
check "call: a 10 MiB result exits 0" test "$RC" -eq 0
check "call: the 10 MiB text arrives whole, byte for byte" \
  cmp -s "$TMP/out" "$TMP/ten.txt"
$rss && under_limit "call: peak RSS within 10 MiB + 6 MiB"

measure call_exact --config "$TMP/ten.json" call ten/big_exact mib=10
check "call, U+0000 and big numbers: exits 0" test "$RC" -eq 0
check "call: U+0000 inside a 10 MiB text is a NUL byte in a file" \
  cmp -s "$TMP/out" "$TMP/exact.txt"
$rss && under_limit "call, U+0000 and big numbers: peak RSS within 10 MiB + 6 MiB"

# A large answer that is not usable (nested too deeply after its 1 MiB
# text, its id last), parsed in place: the text is lost, the tokens around
# it are not, so the call still fails at once, naming why.
run --config "$TMP/ten.json" --timeout 20000 call --no-validate ten/deep \
  levels=2000 id_last=true text_kib=1024
expect "a large answer nested too deeply, id last: fails its call at once" 3 \
  --err "is not valid JSON or is nested too deeply" --no-err "timed out"

# ---- call --json ----
measure json --config "$TMP/ten.json" --json call ten/big_exact mib=10
check "call --json: exits 0" test "$RC" -eq 0
check "call --json: the text, U+0000 as \\u0000, whole" \
  test "$(jq -j '.content[0].text' "$TMP/out" | cmp - "$TMP/exact.txt" && echo same)" = same
check "call --json: the numbers as the server wrote them" \
  grep -qF '"n":	[12345678901234567890, 9007199254740993, 1e400, -0, 0.30000000000000004, 1.0]' "$TMP/out"
check "call --json: U+0000 written as \\u0000" grep -qF '"text":	"a\u0000b' "$TMP/out"
$rss && under_limit "call --json: peak RSS within 10 MiB + 6 MiB"

# ---- batch ----
# The answer line as batch writes it: the result as the server sent it.
expected_line() { # TEXT_PREFIX TAIL
  printf '{"id":1,"result":{"content":[{"type":"text","text":"%s' "$1"
  cat "$TMP/ten.txt"
  printf '"}]%s}}\n' "$2"
}
printf '%s\n' '{"id":1,"call":"ten/big","arguments":{"mib":10}}' >"$TMP/in"
measure batch --config "$TMP/ten.json" batch
check "batch: exits 0" test "$RC" -eq 0
expected_line '' '' >"$TMP/want"
check "batch: the 10 MiB answer line, byte for byte" cmp -s "$TMP/out" "$TMP/want"
$rss && under_limit "batch: peak RSS within 10 MiB + 6 MiB"

printf '%s\n' '{"id":1,"call":"ten/big_exact","arguments":{"mib":10}}' >"$TMP/in"
measure batch_exact --config "$TMP/ten.json" batch
check "batch, U+0000 and big numbers: exits 0" test "$RC" -eq 0
expected_line 'a\u0000b' ",\"structuredContent\":{\"n\":$NUMS}" >"$TMP/want"
check "batch: U+0000 and big numbers inside a 10 MiB result, byte for byte" \
  cmp -s "$TMP/out" "$TMP/want"
$rss && under_limit "batch, U+0000 and big numbers: peak RSS within 10 MiB + 6 MiB"

# A small result passed on as text is copied into the answer line as it
# came (cli/batch.c, emit_raw), U+0000 and the numbers too.
printf '%s\n' '{"id":5,"call":"ten/big_exact","arguments":{"mib":0}}' >"$TMP/in"
"$MCPHOST" --config "$TMP/ten.json" batch <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
RC=$?
printf '%s\n' "{\"id\":5,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"a\\u0000b\"}],\"structuredContent\":{\"n\":$NUMS}}}" >"$TMP/want"
check "batch: a small result, U+0000 and big numbers, byte for byte" \
  cmp -s "$TMP/out" "$TMP/want"

# Several answers in flight into a pipe (written as the reader takes
# them, the rest waiting in their own buffers): in the order the server
# answered, each large one byte for byte.
printf '%s\n' '{"id":1,"call":"ten/big","arguments":{"mib":10}}' \
  '{"id":2,"call":"ten/echo","arguments":{"message":"small"}}' \
  '{"id":3,"call":"ten/big_exact","arguments":{"mib":10}}' >"$TMP/in"
"$MCPHOST" --config "$TMP/ten.json" batch <"$TMP/in" 2>"$TMP/err" |
  cat >"$TMP/out"
RC=${PIPESTATUS[0]}
check "batch into a pipe: exits 0" test "$RC" -eq 0
{
  expected_line '' ''
  printf '%s\n' '{"id":2,"result":{"content":[{"type":"text","text":"Echo: small"}]}}'
  expected_line 'a\u0000b' ",\"structuredContent\":{\"n\":$NUMS}" |
    sed 's/^{"id":1,/{"id":3,/'
} >"$TMP/want"
check "batch into a pipe: three answers in order, the large ones byte for byte" \
  cmp -s "$TMP/out" "$TMP/want"

# The stdout pipe grows while a large message comes (transports/stdio/
# pipes.c: 160 hand-overs between server and mcphost for 10 MiB become
# ten) and has its room back once it is in: the server reports its
# pipe's size (tools pipe_size) before, during and after one.
if [ "$(cat /proc/sys/fs/pipe-max-size 2>/dev/null || echo 0)" -lt 1048576 ]; then
  echo "     (pipe-max-size below 1 MiB here: the growth is not checked)"
else
  coproc B { "$MCPHOST" --config "$TMP/ten.json" batch 2>"$TMP/err"; }
  BPID=$B_PID # bash unsets B_PID once the coprocess ends
  sizes=()
  for kib in 0 1024 0; do
    echo "{\"id\":$kib,\"call\":\"ten/pipe_size\",\"arguments\":{\"kib\":$kib}}" >&"${B[1]}"
    line=$(head -n 1 <&"${B[0]}")
    size=${line##*pipe=}
    sizes+=("${size%%\"*}")
  done
  exec {B[1]}>&-
  wait "$BPID"
  if [[ ! ${sizes[0]} =~ ^[0-9]+$ ]]; then
    bad "the server's stdout pipe: its size" "got: ${sizes[*]}"
  elif [ "${sizes[0]}" -ge 1048576 ]; then
    echo "     (a pipe has 1 MiB from the start here: nothing to grow)"
  else
    check "the server's stdout pipe: ${sizes[0]} bytes, 1 MiB while a large answer comes, ${sizes[0]} after (${sizes[*]})" \
      test "${sizes[1]} ${sizes[2]}" = "1048576 ${sizes[0]}"
  fi
fi

finish
