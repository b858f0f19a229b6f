#!/usr/bin/env bash
# Where images and binary results are saved: --output-dir is created
# (0700) when missing and refused with exit 2, before any server starts,
# when it cannot be used; a result that cannot be saved never exits 0.
. "$(dirname "$0")/../lib/lib.sh"
MARK="$TMP/started"
C="$TMP/probe.json"
probe_config "$C" "{\"PROBE_MARK\": \"$MARK\"}"

run --config "$C" --output-dir "$TMP/new/images" call p/image
expect "a missing --output-dir is created and the image saved in it" 0 \
  --out "saved to $TMP/new/images/mcp-resource-"
check "the created --output-dir is 0700" \
  test "$(stat -c %a "$TMP/new/images")" = 700
check "the saved file is there" \
  bash -c "ls '$TMP/new/images'/mcp-resource-*.png >/dev/null"

(cd "$TMP" && "$MCPHOST" --config "$C" --output-dir rel call p/image \
  >"$TMP/out" 2>"$TMP/err" </dev/null)
RC=$?; OUT=$(cat "$TMP/out"); ERR=$(cat "$TMP/err")
expect "a relative --output-dir is taken from the working directory" 0 \
  --out "saved to $TMP/rel/mcp-resource-"

: >"$TMP/a-file"
rm -f "$MARK"
run --config "$C" --output-dir "$TMP/a-file" call p/image
expect "a file given as --output-dir is a usage error" 2 \
  --err "--output-dir: $TMP/a-file is not a directory" --no-out "not saved"
check "no server was started for it" test ! -e "$MARK"

mkdir -p "$TMP/shared"
chmod 777 "$TMP/shared"
rm -f "$MARK"
run --config "$C" --output-dir "$TMP/shared" call p/image
expect "a world-writable --output-dir is refused before connecting" 2 \
  --err "--output-dir: $TMP/shared is writable by everyone"
check "no server was started for the refused directory" test ! -e "$MARK"

# The default private directory cannot be made: the result is not lost
# silently.
: >"$TMP/tmpfile"
TMPDIR="$TMP/tmpfile" XDG_RUNTIME_DIR= run --config "$C" call p/image
expect "an image that cannot be saved is not exit 0" 2 --out "not saved"
finish
