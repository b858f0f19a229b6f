#!/usr/bin/env bash
# call --detach says how to fetch the task's result later, as a command
# line to paste. The task id is the server's text: a hostile one
# ("x;touch PWNED;...", "it's a ...") must stay one word of that line.
# Before, it was pasted as it was, and the line ran the server's
# command.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the task server"
mkdir -p "$TMP/paste"
# t's ids run a command when pasted as they are; q's have a quote and a
# space in them.
C="$TMP/servers.json"
config_file "$C" "{\"t\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/task_server.py\"],
  \"env\": {\"TASK_DIR\": \"$TMP/t\", \"TASK_ID_PREFIX\": \"x;touch PWNED;\"}},
  \"q\": {\"command\": \"python3\", \"args\": [\"$SRCDIR/tests/servers/task_server.py\"],
  \"env\": {\"TASK_DIR\": \"$TMP/q\", \"TASK_ID_PREFIX\": \"it's a \"}}}"
mkdir -p "$TMP/t" "$TMP/q"

for S in t q; do
  rm -f "$TMP/paste/PWNED"
  run --config "$C" call --detach $S/countdown steps=2
  expect "$S: --detach with a hostile id prints it and the hint" 0 \
    --err "its result: mcphost task result $S "
  ID=$OUT
  HINT=$(printf '%s\n' "$ERR" | sed -n 's/^.*its result: //p')
  # The pasted line, with mcphost a function that prints its arguments.
  ARGS=$(cd "$TMP/paste" && bash -c 'mcphost() { printf "%s\n" "$@"; }; '"$HINT" 2>&1)
  check "$S: the pasted line runs nothing of the server's" test ! -e "$TMP/paste/PWNED"
  check "$S: the pasted line gives mcphost the id as one argument" \
    test "$ARGS" = "task
result
$S
$ID"
  run --config "$C" task result $S "$ID"
  expect "$S: ... and that id fetches the result" 0 --out "done after 2 steps"
done
finish
