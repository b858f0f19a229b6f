#!/usr/bin/env bash
# Hostile servers (issue 5). tests/servers/hostile.c ($HOSTILE) misbehaves
# in each way the issue lists; each check asserts what the host does about
# it: a clear error or a correct recovery, the host still answering, the
# other servers unaffected, no server process left behind. In the ASan
# build every check also fails on a sanitizer report (a leak makes the exit
# code wrong as well).
. "$(dirname "$0")/../lib/lib.sh"

GOOD="\"good\": {\"command\": \"$DEMO\"}"

# hostile NAME [ARG...]: the config entry of a hostile server NAME. It logs
# every line it receives to $TMP/NAME.log and carries a tag in its command
# line, so that `gone NAME` can tell whether it still runs. Extra JSON
# members of the entry may be given in $HX.
hostile() {
  local name=$1 args="" a
  shift
  for a in --tag "$TMP/tag-$name" --log "$TMP/$name.log" "$@"; do
    args="$args, \"$a\""
  done
  printf '"%s": {"command": "%s", "args": [%s]%s}' "$name" "$HOSTILE" \
    "${args#, }" "${HX:+, $HX}"
}

# gone NAME: no process of hostile server NAME is left.
gone() { ! pgrep -f -- "$TMP/tag-$1 " >/dev/null; }
# Whatever a failed check leaves running is killed, by process id.
on_exit 'for p in $(pgrep -f -- "$TMP/tag-"); do kill -9 "$p"; done 2>/dev/null'

# xpect: expect, and no sanitizer report on stderr.
xpect() {
  local name=$1 rc=$2
  shift 2
  expect "$name" "$rc" "$@" --no-err "Sanitizer" --no-err "runtime error:"
}

# Batch as a coprocess: bstart ARGS... runs `mcphost ARGS batch` with its
# stderr in $TMP/err; bsend LINE writes a request; brecv reads the next
# answer into LINE (giving up after 120 s, so that a host that stopped
# answering fails its check instead of hanging the suite); bstop closes
# its stdin and waits for it, setting RC and ERR.
bstart() {
  coproc B { exec "$MCPHOST" "$@" batch 2>"$TMP/err"; }
  BPID=$B_PID BIN=${B[1]} BOUT=${B[0]}
}
bsend() { printf '%s\n' "$1" >&"$BIN"; }
brecv() {
  LINE=""
  read -r -t 120 LINE <&"$BOUT" || true
}
bstop() {
  exec {BIN}>&- 2>/dev/null
  wait "$BPID"
  RC=$?
  ERR=$(cat "$TMP/err")
}
# answers LINE...: the batch answers to check, as OUT (and in $TMP/out,
# which a failed check prints).
answers() {
  OUT=$(printf '%s\n' "$@")
  printf '%s\n' "$OUT" >"$TMP/out"
}
# wait_for PATTERN FILE: waits (at most 60 s) until FILE holds PATTERN.
wait_for() {
  for _ in $(seq 1 600); do
    grep -q -- "$1" "$2" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}
# count PATTERN FILE: lines of FILE holding PATTERN.
count() { grep -c -- "$1" "$2" 2>/dev/null || true; }

# ---- crash during a call --------------------------------------------------

config_file "$TMP/crash.json" "{$GOOD, $(hostile crasher)}"
run --config "$TMP/crash.json" call crasher/crash
xpect "crash during a call: exit 3 naming the call, the signal and the server's stderr" 3 \
  --err "server \"crasher\" went away during tools/call: server process killed by signal 11 (SIGSEGV)" \
  --err "stderr (last lines):" \
  --err "hostile: received tools/call crash" \
  --err "hostile: crashing on purpose during a call"

run --config "$TMP/crash.json" call crasher/crash partial=true
xpect "crash in the middle of writing an answer: still the signal and stderr, not a parse error" 3 \
  --err "warning: [crasher] server ended in the middle of a message" \
  --err "server \"crasher\" went away during tools/call: server process killed by signal 11 (SIGSEGV)" \
  --err "hostile: crashing on purpose during a call"

rm -f "$TMP/crasher.log"
bstart -v --config "$TMP/crash.json"
bsend '{"id":1,"call":"crasher/crash"}'
brecv; L1=$LINE
bsend '{"id":2,"call":"good/echo","arguments":{"message":"unaffected"}}'
brecv; L2=$LINE
bsend '{"id":3,"call":"crasher/echo","arguments":{"message":"back"}}'
brecv; L3=$LINE
bstop
answers "$L1"
xpect "batch: the crashed call fails with exit 3 and the signal" 0 \
  --jq '.id == 1 and .error.exit == 3' \
  --jq '.error.message | contains("killed by signal 11 (SIGSEGV)")'
answers "$L2"
xpect "batch: the good server answers after the other one crashed" 0 \
  --jq '.id == 2 and .result.content[0].text == "Echo: unaffected"'
answers "$L3"
xpect "batch: the crashed server is respawned and answers the next call" 0 \
  --jq '.id == 3 and .result.content[0].text == "Echo: back"'
check "batch: the crashed server was started twice" \
  test "$(count '"method":"initialize"' "$TMP/crasher.log")" -eq 2

# ---- crash during initialize ----------------------------------------------

config_file "$TMP/crashinit.json" "{$GOOD, $(hostile initcrash --mode crash-init)}"
run --config "$TMP/crashinit.json" --json servers
xpect "crash during initialize: that server failed with its exit status and stderr; the other connected" 3 \
  --jq '(.[] | select(.name == "initcrash") | .state) == "failed"' \
  --jq '(.[] | select(.name == "initcrash") | .error | contains("server process exited with status 42") and contains("hostile: crashing on purpose during initialize"))' \
  --jq '(.[] | select(.name == "good") | .state) == "connected"'
run --config "$TMP/crashinit.json" call initcrash/echo
xpect "crash during initialize: a call fails with exit 3, the exit status and stderr" 3 \
  --err "server \"initcrash\" failed: server process exited with status 42" \
  --err "stderr (last lines):" --err "hostile: received initialize"
run --config "$TMP/crashinit.json" call good/echo message=ok
xpect "crash during initialize: a call to the other server works" 0 --out "Echo: ok"

config_file "$TMP/crashinit2.json" "{$(hostile halfinit --mode crash-init-partial)}"
run --config "$TMP/crashinit2.json" call halfinit/echo
xpect "crash in the middle of the initialize answer: the signal and stderr, not a parse error" 3 \
  --err "server \"halfinit\" failed: server process killed by signal 11 (SIGSEGV)" \
  --err "hostile: crashing on purpose in the middle of the initialize answer"

# ---- hang forever on a call -----------------------------------------------

config_file "$TMP/hang.json" "{$GOOD, $(hostile hanger --mode stubborn)}"
run --config "$TMP/hang.json" --timeout 2000 call hanger/hang
xpect "hang on a call: the --timeout deadline fails it with exit 5" 5 \
  --err "server \"hanger\": tools/call timed out after 2000 ms"
hang_id=$(jq -r 'select(.method == "tools/call") | .id' "$TMP/hanger.log")
check "hang on a call: notifications/cancelled was sent for that request" \
  test "$(jq -c "select(.method == \"notifications/cancelled\") | .params.requestId == ${hang_id:-0}" \
    "$TMP/hanger.log")" = true
check "hang on a call: the server (deaf to SIGINT and SIGTERM) was killed" gone hanger

rm -f "$TMP/hanger.log"
bstart --timeout 10000 --config "$TMP/hang.json"
bsend '{"id":0,"call":"good/echo","arguments":{"message":"warm"}}'
brecv
bsend '{"id":1,"call":"hanger/hang"}'
bsend '{"id":2,"call":"good/echo","arguments":{"message":"meanwhile"}}'
brecv; L1=$LINE
brecv; L2=$LINE
bstop
answers "$L1"
xpect "batch: a call to another server is answered while one hangs" 0 \
  --jq '.id == 2 and .result.content[0].text == "Echo: meanwhile"'
answers "$L2"
xpect "batch: the hanging call then fails at its deadline with exit 5" 0 \
  --jq '.id == 1 and .error.exit == 5 and (.error.message | contains("timed out"))'
check "batch: the hanging server was killed when batch ended" gone hanger

# ---- never answer initialize ----------------------------------------------

config_file "$TMP/mute.json" "{$GOOD, $(hostile mute --mode no-init --mode stubborn)}"
run --config "$TMP/mute.json" --timeout 3000 --json servers
xpect "no answer to initialize: the deadline fails that server with exit 5; the other connects" 5 \
  --jq '(.[] | select(.name == "mute") | .error) == "server did not answer initialize in time"' \
  --jq '(.[] | select(.name == "good") | .state) == "connected"'
check "no answer to initialize: the server was killed" gone mute
check "no answer to initialize: initialize is not cancelled (the spec forbids it)" \
  test "$(count 'notifications/cancelled' "$TMP/mute.log")" -eq 0

# ---- answers with an unknown id, twice, invalid JSON ----------------------

config_file "$TMP/odd.json" "{$GOOD, $(hostile odd)}"
# call_id NAME: the id of the last tools/call server NAME received.
call_id() { jq -r 'select(.method == "tools/call") | .id' "$TMP/$1.log" | tail -n 1; }

run --config "$TMP/odd.json" call odd/unknown_id
xpect "answer with an unknown id: the real answer gets through; a warning names the id" 0 \
  --out "the real answer" --no-out "for nobody" \
  --err "warning: [odd] dropped a response with unknown id $(($(call_id odd) + 1000))"

run --config "$TMP/odd.json" call odd/twice
xpect "answer twice: the first answer is used; a warning names the repeated id" 0 \
  --out "first answer" --no-out "second answer" \
  --err "warning: [odd] dropped a response with unknown id $(call_id odd)"

bad='{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":'
run --config "$TMP/odd.json" call odd/invalid_json
xpect "a line of invalid JSON: the answer after it gets through; a warning says so" 0 \
  --out "after the garbage" \
  --err "warning: [odd] dropped a message that is not valid JSON (${#bad} bytes)"
check "a line that is not JSON at all: one warning quoting it, its ESC as <U+001B>, its UTF-8 kept" \
  test "$(count 'server wrote a non-JSON line to stdout: hostile: this line is not JSON <U+001B>.2Jcafé' "$TMP/err")" -eq 1

run --config "$TMP/odd.json" --timeout 60000 call odd/garbled
xpect "an answer that is invalid JSON fails its call at once, not at the deadline" 3 \
  --err "server \"odd\": tools/call failed: the server's answer" \
  --err "is not valid JSON or is nested too deeply" --no-err "timed out"

rm -f "$TMP/odd.log"
bstart --config "$TMP/odd.json"
bsend '{"id":1,"call":"odd/twice"}'
brecv; L1=$LINE
bsend '{"id":2,"call":"odd/unknown_id"}'
brecv; L2=$LINE
bsend '{"id":3,"call":"odd/garbled"}'
brecv; L3=$LINE
bsend '{"id":4,"call":"odd/echo","arguments":{"message":"still fine"}}'
brecv; L4=$LINE
bstop
answers "$L1" "$L2" "$L3" "$L4"
xpect "batch: after duplicate, stray and garbled answers each request still gets its own" 0 \
  --jq 'select(.id == 1) | .result.content[0].text == "first answer"' \
  --jq 'select(.id == 2) | .result.content[0].text == "the real answer"' \
  --jq 'select(.id == 3) | .error.exit == 3' \
  --jq 'select(.id == 4) | .result.content[0].text == "Echo: still fine"'
check "batch: all of it on one connection" \
  test "$(count '"method":"initialize"' "$TMP/odd.log")" -eq 1

# ---- a 100 MiB line, over the 64 MiB cap ----------------------------------

config_file "$TMP/huge.json" "{$GOOD, $(hostile huge)}"
run --config "$TMP/huge.json" --timeout 120000 call huge/big mib=100
xpect "a 100 MiB answer over the 64 MiB cap fails its call at once, naming the limit" 3 \
  --err "server \"huge\": tools/call failed: message from server exceeds the 67108864-byte limit; dropped" \
  --no-err "timed out"

rm -f "$TMP/huge.log"
bstart --timeout 120000 --config "$TMP/huge.json"
bsend '{"id":1,"call":"huge/big","arguments":{"mib":100}}'
brecv; L1=$LINE
bsend '{"id":2,"call":"huge/echo","arguments":{"message":"next"}}'
brecv; L2=$LINE
bsend '{"id":3,"call":"good/echo","arguments":{"message":"other"}}'
brecv; L3=$LINE
bstop
answers "$L1"
xpect "batch: the oversized answer fails its request with the limit" 0 \
  --jq '.id == 1 and .error.exit == 3' \
  --jq '.error.message | contains("exceeds the 67108864-byte limit")'
answers "$L2" "$L3"
xpect "batch: the next request on the same connection, and one to another server, work" 0 \
  --jq 'select(.id == 2) | .result.content[0].text == "Echo: next"' \
  --jq 'select(.id == 3) | .result.content[0].text == "Echo: other"'
check "batch: the oversized answer did not cost the connection" \
  test "$(count '"method":"initialize"' "$TMP/huge.log")" -eq 1

config_file "$TMP/capped.json" "{$(HX='"maxMessageBytes": 1048576' hostile capped)}"
run --config "$TMP/capped.json" call capped/big mib=2
xpect "maxMessageBytes sets the cap, and the message names it" 3 \
  --err "message from server exceeds the 1048576-byte limit; dropped"

# ---- a 10 MiB valid result ------------------------------------------------

pattern='abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/'
want=$(yes "$pattern" | tr -d '\n' | head -c $((10 << 20)) | sha256sum | cut -d' ' -f1)
config_file "$TMP/ten.json" "{$GOOD, $(hostile ten)}"
run --config "$TMP/ten.json" --json call ten/big mib=10
got=$(jq -j '.content[0].text' "$TMP/out" | sha256sum | cut -d' ' -f1)
len=$(jq -j '.content[0].text' "$TMP/out" | wc -c)
OUT=""
xpect "a 10 MiB result exits 0" 0
check "a 10 MiB result arrives whole: 10485760 bytes" test "$len" -eq $((10 << 20))
check "a 10 MiB result arrives intact: same SHA-256" test "$got" = "$want"

# Into a file: bash's `read` takes a long line a byte at a time.
printf '%s\n' '{"id":1,"call":"ten/big","arguments":{"mib":10}}' \
  '{"id":2,"call":"good/echo","arguments":{"message":"small"}}' |
  "$MCPHOST" --config "$TMP/ten.json" batch >"$TMP/ten.out" 2>"$TMP/err"
RC=$?; ERR=$(cat "$TMP/err")
jq -j 'select(.id == 1) | .result.content[0].text' "$TMP/ten.out" >"$TMP/ten.txt"
answers "$(jq -c 'select(.id == 2)' "$TMP/ten.out")"
xpect "batch: a 10 MiB result and a small one to another server both arrive" 0 \
  --jq 'select(.id == 2) | .result.content[0].text == "Echo: small"'
check "batch: the 10 MiB result is intact" \
  test "$(sha256sum <"$TMP/ten.txt" | cut -d' ' -f1)" = "$want"

# A driver slow to read batch's output must not stall the host: while the
# 10 MiB answer waits for the reader (7 s here), the answer of a 1 s call
# to the other server must still be taken in before its 4 s deadline.
mkfifo "$TMP/slow.fifo"
{ sleep 7; cat; } <"$TMP/slow.fifo" >"$TMP/slow.out" &
reader=$!
printf '%s\n' '{"id":1,"call":"good/slow","arguments":{"steps":1,"delay_ms":1000}}' \
  '{"id":2,"call":"ten/big","arguments":{"mib":10}}' |
  "$MCPHOST" --timeout 4000 --config "$TMP/ten.json" batch >"$TMP/slow.fifo" 2>"$TMP/err"
RC=$?; ERR=$(cat "$TMP/err")
wait "$reader"
answers "$(jq -c 'select(.id == 1)' "$TMP/slow.out")"
xpect "batch: a slow reader of the output does not make another server's call time out" 0 \
  --jq '.id == 1 and .result.content[0].text == "done after 1 steps"'

# ---- drip one byte at a time ----------------------------------------------

long=$(printf 'drip%.0s' $(seq 1 250))
config_file "$TMP/drip.json" "{$(hostile dripper --mode drip)}"
run --config "$TMP/drip.json" call dripper/echo "message=$long"
xpect "a server that writes one byte at a time: the answer is correct" 0 \
  --out "Echo: $long"
run --config "$TMP/drip.json" --json tools dripper
xpect "a server that writes one byte at a time: its tool list is complete" 0 \
  --jq 'length == 14'

# ---- close stdout but keep running ----------------------------------------

config_file "$TMP/closer.json" "{$GOOD, $(hostile closer --mode stubborn)}"
run --config "$TMP/closer.json" call closer/close_stdout
xpect "stdout closed during a call: exit 3, saying so, and how the server was stopped" 3 \
  --err "server \"closer\" went away during tools/call: server closed its stdout; server process killed by signal 9 (SIGKILL)" \
  --err "hostile: closing stdout during a call"
check "stdout closed during a call: no process left after mcphost exits" gone closer

config_file "$TMP/closer2.json" "{$GOOD, $(hostile closer2 --mode close-stdout-init --mode stubborn)}"
run --config "$TMP/closer2.json" --json servers
xpect "stdout closed during initialize: that server failed saying so; the other connected" 3 \
  --jq '(.[] | select(.name == "closer2") | .error | startswith("server closed its stdout; server process killed by signal 9 (SIGKILL)"))' \
  --jq '(.[] | select(.name == "good") | .state) == "connected"'
check "stdout closed during initialize: no process left after mcphost exits" gone closer2

# ---- exit and come back ---------------------------------------------------

config_file "$TMP/phoenix.json" "{$GOOD, $(hostile phoenix)}"
bstart -v --config "$TMP/phoenix.json"
bsend '{"id":1,"call":"phoenix/pid"}'
brecv; L1=$LINE
bsend '{"id":2,"call":"phoenix/exit","arguments":{"status":0}}'
brecv; L2=$LINE
wait_for "reconnecting in" "$TMP/err"
bsend '{"id":3,"call":"phoenix/pid"}'
brecv; L3=$LINE
bsend '{"id":4,"call":"good/echo","arguments":{"message":"steady"}}'
brecv; L4=$LINE
bstop
pid1=$(printf '%s' "$L1" | jq -r '.result.content[0].text')
pid3=$(printf '%s' "$L3" | jq -r '.result.content[0].text')
answers "$L2" "$L4"
xpect "a server that exits by itself: its last answer arrives, the exit is logged with a reconnect" 0 \
  --jq 'select(.id == 2) | .result.content[0].text == "exiting"' \
  --jq 'select(.id == 4) | .result.content[0].text == "Echo: steady"' \
  --err "server process exited with status 0" --err "reconnecting in 1000 ms (attempt 1 of 5)"
check "a server that exits by itself comes back as a new process and answers" \
  test -n "$pid3" -a "$pid3" != null -a "$pid1" != "$pid3"
check "the server that exited was reaped" \
  bash -c "[[ '$pid1' =~ ^[0-9]+\$ ]] && ! kill -0 '$pid1' 2>/dev/null"

# ---- notifications in a tight loop ----------------------------------------

# Stubborn: it floods on through the host's SIGINT and SIGTERM, until the
# SIGKILL a second later, so notifications keep coming while batch ends.
config_file "$TMP/flood.json" "{$GOOD, $(hostile flooder --mode flood --mode stubborn)}"
# Under ASan, freed memory waits in a quarantine of up to 256 MB: keep it
# small so that the bound below means the same there.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8" \
  bstart --config "$TMP/flood.json"
bsend '{"id":1,"call":"flooder/echo","arguments":{"message":"amid the flood"}}'
brecv; L1=$LINE
wait_for "flood: 100000 sent" "$TMP/flooder.log"
flooded=$?
bsend '{"id":2,"call":"good/echo","arguments":{"message":"responsive"}}'
brecv; L2=$LINE
bsend '{"id":3,"call":"flooder/echo","arguments":{"message":"again"}}'
brecv; L3=$LINE
hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$BPID/status" 2>/dev/null)
bstop
check "flood: the server sent 100000 notifications while connected" test "$flooded" -eq 0
answers "$L1" "$L2" "$L3"
brc=$RC RC=0
expect "flood: every request is answered, to the flooding server and the other one" 0 \
  --jq 'select(.id == 1) | .result.content[0].text == "Echo: amid the flood"' \
  --jq 'select(.id == 2) | .result.content[0].text == "Echo: responsive"' \
  --jq 'select(.id == 3) | .result.content[0].text == "Echo: again"'
RC=$brc
xpect "flood: batch ends cleanly (exit 0) though notifications keep coming while it shuts down" 0
# ASan's shadow memory and allocator caches add their own share.
limit_kb=$((64 * 1024))
if ldd "$MCPHOST" 2>/dev/null | grep -q libasan; then limit_kb=$((128 * 1024)); fi
check "flood: mcphost's peak RSS stays under $((limit_kb / 1024)) MB (was ${hwm:-?} kB)" \
  test -n "$hwm" -a "${hwm:-0}" -lt "$limit_kb"
check "flood: the flooding server was stopped" gone flooder

# ---- 10,000 tools, paginated ----------------------------------------------

config_file "$TMP/many.json" "{$GOOD, $(hostile many --tools 10000 --page-size 100)}"
run --config "$TMP/many.json" --json tools many
xpect "10000 tools in pages of 100: tools lists exactly 10000, in order" 0 \
  --jq 'length == 10000' \
  --jq '(map(.name) | unique | length) == 10000' \
  --jq '.[0].name == "mcp__many__t00000" and .[9999].name == "mcp__many__t09999"'
check "10000 tools in pages of 100: 100 tools/list requests" \
  test "$(count '"method":"tools/list"' "$TMP/many.log")" -eq 100
run --config "$TMP/many.json" call mcp__many__t09999 message=last
xpect "10000 tools: calling the last one by its mcp__ name works" 0 --out "t09999: last"
run --config "$TMP/many.json" --json servers
xpect "10000 tools: servers counts them; the other server is listed too" 0 \
  --jq '(.[] | select(.name == "many") | .tools) == 10000' \
  --jq '(.[] | select(.name == "good") | .state) == "connected"'
printf '%s\n' '{"id":1,"call":"mcp__many__t09999","arguments":{"message":"batched"}}' |
  "$MCPHOST" --config "$TMP/many.json" batch >"$TMP/out" 2>"$TMP/err"
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
xpect "10000 tools: batch resolves and calls the last one" 0 \
  --jq '.result.content[0].text == "t09999: batched"'
config_file "$TMP/many1.json" "{$(hostile single --tools 10000 --page-size 1)}"
run --config "$TMP/many1.json" --json tools single
xpect "10000 tools one per page: all 10000 are listed" 0 --jq 'length == 10000'

# ---- JSON nested 10,000 levels deep ---------------------------------------

config_file "$TMP/deep.json" "{$GOOD, $(hostile deep)}"
run --config "$TMP/deep.json" --timeout 60000 call deep/deep
xpect "an answer nested 10000 deep fails its call at once with a clear message" 3 \
  --err "server \"deep\": tools/call failed: the server's answer (" \
  --err "bytes) is not valid JSON or is nested too deeply" \
  --err "warning: [deep] dropped a message that is not valid JSON" \
  --no-err "timed out"

run --config "$TMP/deep.json" --timeout 10000 call --no-validate deep/deep id_last=true
xpect "nested 10000 deep with the id at the end: still fails at once, not at the deadline" 3 \
  --err "is not valid JSON or is nested too deeply" --no-err "timed out"

run --config "$TMP/deep.json" --json call deep/deep levels=900
brackets=$(tr -cd '[' <"$TMP/out" | wc -c)
OUT=""
xpect "an answer nested 900 deep (under the limit) is accepted" 0
check "an answer nested 900 deep is printed whole (901 brackets with content)" \
  test "$brackets" -eq 901

rm -f "$TMP/deep.log"
bstart --config "$TMP/deep.json"
bsend '{"id":1,"call":"deep/deep"}'
brecv; L1=$LINE
bsend '{"id":2,"call":"deep/echo","arguments":{"message":"shallow"}}'
brecv; L2=$LINE
bstop
answers "$L1" "$L2"
xpect "batch: after the deep answer, the next request on the same connection works" 0 \
  --jq 'select(.id == 1) | .error.exit == 3' \
  --jq 'select(.id == 2) | .result.content[0].text == "Echo: shallow"'
check "batch: the deep answer did not cost the connection" \
  test "$(count '"method":"initialize"' "$TMP/deep.log")" -eq 1

# ---- hostile tool names (tests/servers/naming_server.c covers the rules) ---

config_file "$TMP/weird.json" "{$(hostile weird --mode weird-names)}"
run --config "$TMP/weird.json" --json tools weird
check "tool names with zero-width, bidi, private-use characters and invalid UTF-8 do not crash the host" \
  test "$RC" -lt 128
xpect "tool names with hostile characters: no sanitizer report" "$RC"

finish
