#!/usr/bin/env bash
# Roots against the real @modelcontextprotocol/server-filesystem, the
# server whose sandbox they decide: it replaces the directories of its
# command line with the client's roots once it has asked for them (an
# empty list keeps its own). Each session is a batch that first waits
# until the server's stderr says what it did with the roots, so the checks
# never race the server's roots/list request.
. "$(dirname "$0")/../lib/lib.sh"
FS="$INTEROP/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
if [ ! -f "$FS" ]; then
  skip_test "server-filesystem is not installed in tests/interop"
fi
R=$(realpath "$TMP")
A="$R/allowed" W="$R/work"
mkdir -p "$A" "$W"
echo "in allowed" >"$A/a.txt"
echo "in work" >"$W/w.txt"
C="$TMP/fs.json"
entry() {
  config_file "$C" "{\"fs\": {\"command\": \"node\", \"args\": [\"$FS\", \"$A\"]$1}}"
}
LOG="$XDG_STATE_HOME/mcphost/logs/fs.stderr.log"
on_exit "'$MCPHOST' --config '$C' session stop >/dev/null 2>&1"

# session MARKER FILE ARGS...: a batch session with ARGS before "batch";
# waits (bounded) until the server's stderr shows MARKER, then lists the
# allowed directories and reads FILE. OUT holds both answers.
session() {
  local marker=$1 file=$2 first second
  shift 2
  rm -f "$LOG"
  coproc S { "$MCPHOST" "$@" batch 2>"$TMP/err"; }
  local spid=$S_PID
  echo '{"id":1,"call":"fs/list_allowed_directories"}' >&"${S[1]}"
  read -r first <&"${S[0]}"
  for _ in $(seq 300); do
    grep -q "$marker" "$LOG" 2>/dev/null && break
    sleep 0.1
  done
  echo '{"id":2,"call":"fs/list_allowed_directories"}' >&"${S[1]}"
  read -r second <&"${S[0]}"
  echo "{\"id\":3,\"call\":\"fs/read_text_file\",\"arguments\":{\"path\":\"$file\"}}" >&"${S[1]}"
  read -r third <&"${S[0]}"
  exec {S[1]}>&-
  wait "$spid"
  RC=$?
  MARKED=no
  grep -q "$marker" "$LOG" 2>/dev/null && MARKED=yes
  OUT="$second
$third"
  ERR=$(cat "$TMP/err")
  printf '%s\n' "$OUT" >"$TMP/out"
}

entry ''
cd "$W" || exit 1
session "Updated allowed directories from MCP roots" "$W/w.txt" --config "$C"
expect "by default the working directory replaces the server's own directory (Claude Code's rule)" 0 \
  --out "$W" --out "in work"
check "the server took the working directory as its root" [ "$MARKED" = yes ]

cd / || exit 1
session "No valid root directories provided by client" /etc/hostname --config "$C"
expect "run from /, the disk is not opened: the server keeps its own directory" 0 \
  --out "$A" --no-out "in work" --out '"isError":true'
check "the server was given no root" [ "$MARKED" = yes ]
cd "$W" || exit 1

entry ', "roots": []'
session "No valid root directories provided by client" "$W/w.txt" --config "$C"
expect "\"roots\": [] keeps the server's own directory and refuses the working one" 0 \
  --out "$A" --out '"isError":true' --no-out "in work"

session "Client does not support MCP Roots" "$A/a.txt" --no-roots --config "$C"
expect "--no-roots: the server uses its command line and reads there" 0 \
  --out "$A" --out "in allowed"
check "the server saw no roots capability" [ "$MARKED" = yes ]

entry ''
session "Updated allowed directories from MCP roots" "$A/a.txt" --root "$A" --config "$C"
expect "--root DIR is what the server gets" 0 --out "$A" --out "in allowed"
# The server asks roots/list when told "initialized" and applies the
# answer asynchronously: the first request waits until it had them
# (docs/config.md), whichever front end sends it, every time.
entry ''
cd "$W" || exit 1
for i in 1 2 3; do
  run --config "$C" call fs/read_text_file path="$W/w.txt"
  expect "call, run $i: the first request reaches the server after its roots" 0 \
    --out "in work" --no-out "Access denied"
  printf 'call fs/read_text_file path=%s\n' "$W/w.txt" >"$TMP/line"
  "$MCPHOST" --config "$C" shell <"$TMP/line" >"$TMP/out" 2>"$TMP/err"
  RC=$?
  OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
  expect "shell, run $i: the same line reads the file" 0 \
    --out "in work" --no-out "Access denied"
  run --config "$C" session start --idle 1
  expect "session start, run $i" 0 --out "session started"
  run --config "$C" call fs/read_text_file path="$W/w.txt"
  expect "session, run $i: the first call through it reads the file" 0 \
    --out "in work" --no-out "Access denied"
  run --config "$C" session stop
done
run -vv --config "$C" call fs/read_text_file path="$W/w.txt"
expect "-vv says the requests were held for the roots it asked" 0 \
  --out "in work" --err "roots given; sending the requests held for them"
config_file "$TMP/demo.json" "{\"demo\": {\"command\": \"$DEMO\"}}"
run -vvv --config "$TMP/demo.json" call demo/echo message=hi
expect "a server that does not ask for roots is not waited for" 0 \
  --out "hi" --no-err "roots given"
run -vvv --no-roots --config "$C" call fs/read_text_file path="$A/a.txt"
expect "without roots nothing is held (no ping before the call)" 0 \
  --out "in allowed" --no-err '"method":"ping"'
finish
