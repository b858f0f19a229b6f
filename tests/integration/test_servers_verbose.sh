#!/bin/bash
# servers -v: each server's protocol version, capabilities and
# instructions; on a terminal the table fits its width and the state is
# coloured, never with NO_COLOR nor in a pipe.
. "$(dirname "$0")/../lib/lib.sh"
[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"

C="$TMP/c.json"
LONG="$TMP/a-server-binary-whose-path-is-far-too-long-for-a-narrow-terminal"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\"]},
  \"gone\": {\"command\": \"$LONG\"}}"

run --config "$C" servers -v every
expect "-v: protocol, capabilities, instructions" 0 \
  --out "    protocol: 2025-11-25 (legacy)" \
  --out "    capabilities:" --out "resources (subscribe," \
  --out "completions" \
  --out "    instructions:
      # Everything Server – Server Instructions"
run --config "$C" servers every
expect "without -v: none of it" 0 --no-out "instructions:" --no-out "capabilities:"
run --config "$C" servers -v
expect "a failed server has no capabilities to show" 3 --out "gone " --out "failed: "
if [[ $OUT != *$'\e['* ]]; then ok "no colour in a pipe"; else bad "no colour in a pipe"; fi
if [[ $OUT == *"$LONG"* ]]; then ok "a pipe gets the whole error"; else bad "a pipe gets the whole error"; fi

tmux_server
# shot NAME COLS ENV...: `servers` (or $SHOT_CMD) in a COLS-wide
# terminal; its screen with escapes in $TMP/NAME.ansi, joined lines in
# $TMP/NAME.txt.
shot() {
  local name=$1 cols=$2 q
  shift 2
  printf -v q '%q ' env "$@" "$MCPHOST" --config "$C" ${SHOT_CMD:-servers}
  tm new-session -d -s "$name" -x "$cols" -y 40 \
    "$q 2>/dev/null; echo \$? >'$TMP/$name.rc'; sleep 600"
  for _ in $(seq 300); do [ -s "$TMP/$name.rc" ] && break; sleep 0.1; done
  tm capture-pane -e -p -t "$name" >"$TMP/$name.ansi"
  tm capture-pane -J -p -t "$name" >"$TMP/$name.txt"
}
shot wide 100 -u NO_COLOR TERM=xterm
if grep -q $'\e\\[32mconnected' "$TMP/wide.ansi" &&
  grep -q $'\e\\[31mfailed' "$TMP/wide.ansi"; then
  ok "on a terminal: connected green, failed red"
else
  bad "on a terminal: connected green, failed red" "$(cat -v "$TMP/wide.ansi")"
fi
shot plain 100 NO_COLOR=1 TERM=xterm
if grep -q "connected" "$TMP/plain.ansi" && ! grep -q $'\e\\[' "$TMP/plain.ansi"; then
  ok "NO_COLOR: no colour on a terminal"
else
  bad "NO_COLOR: no colour on a terminal" "$(cat -v "$TMP/plain.ansi")"
fi
shot narrow 60 NO_COLOR=1 TERM=xterm
longest=$(sed 's/[[:space:]]*$//' "$TMP/narrow.txt" | LC_ALL=C.UTF-8 wc -L)
if [ "$longest" -le 60 ] && grep -q "failed: .*…$" "$TMP/narrow.txt"; then
  ok "a 60-column terminal: every line fits, the error cut with …"
else
  bad "a 60-column terminal: every line fits, the error cut with …" "longest $longest" "$(cat "$TMP/narrow.txt")"
fi
SHOT_CMD="resources every" shot res 50 NO_COLOR=1 TERM=xterm
longest=$(sed 's/[[:space:]]*$//' "$TMP/res.txt" | LC_ALL=C.UTF-8 wc -L)
if [ "$longest" -le 50 ] &&
  grep -q "^every  demo://resource/static/document/arch.*…$" "$TMP/res.txt"; then
  ok "resources: a 50-column terminal gets lines that fit"
else
  bad "resources: a 50-column terminal gets lines that fit" "longest $longest" "$(cat "$TMP/res.txt")"
fi
run --config "$C" resources every
expect "resources in a pipe: whole lines" 0 \
  --out "every  demo://resource/static/document/architecture.md  architecture.md  text/markdown"

finish
