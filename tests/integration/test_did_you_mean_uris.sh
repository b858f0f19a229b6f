#!/bin/bash
# Did you mean for resource URIs (read and batch: one rule, in the client
# library) and for the commands plugins add.
. "$(dirname "$0")/../lib/lib.sh"
[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"

C="$TMP/c.json"
config_file "$C" "{\"every\": {\"command\": \"node\", \"args\": [\"$EVERYTHING\"]}}"

run --config "$C" read every demo://resource/static/document/architecture.mdx
expect "read: an unknown URI gets the closest ones, exit 6" 6 \
  --err 'not found (did you mean "demo://resource/static/document/architecture.md"'
batch_run "$C" '{"id":1,"read":"every","uri":"demo://resource/static/document/architectur.md"}'
if jq -e '.error.exit == 6 and (.error.message | contains("(did you mean \"demo://resource/static/document/architecture.md\""))' <<<"$OUT" >/dev/null; then
  ok "batch: the same suggestion"
else
  bad "batch: the same suggestion"
fi
run --config "$C" read every zzz://nothing/like/it
expect "nothing close: no suggestion" 6 --no-err "did you mean"

run bundel list
expect "a plugin's command misspelt: did you mean, exit 2" 2 \
  --err 'unknown command "bundel" (did you mean "bundle"?)'
run chanels
expect "another plugin's command" 2 --err '(did you mean "channels"?)'
run grepp x
expect "a built-in one still" 2 --err '(did you mean "grep"?)'

finish
