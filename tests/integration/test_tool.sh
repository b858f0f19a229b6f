#!/bin/bash
# mcphost tool TOOL [--json]: the signature, description, parameters,
# output schema and annotations, compared with committed expectations
# for server-everything's and server-filesystem's tools
# (tests/integration/expected); tools -v
# shows signatures; an unknown tool gets the closest names.
. "$(dirname "$0")/../lib/lib.sh"
[ -f "$EVERYTHING" ] || skip_test "server-everything is not installed"
command -v python3 >/dev/null || skip_test "no python3 for the typed server"

E="every=node $EVERYTHING stdio"
X="$SRCDIR/tests/integration/expected"

for t in echo get-sum get-structured-content gzip-file-as-resource \
  get-annotated-message; do
  run -q --server "$E" tool "mcp__every__$t"
  if [ "$RC" = 0 ] && diff <(printf '%s\n' "$OUT") "$X/tool_everything_$t.txt" \
    >"$TMP/diff"; then
    ok "tool mcp__every__$t as expected"
  else
    bad "tool mcp__every__$t as expected" "$(cat "$TMP/diff")"
  fi
done

# server-filesystem's tools: nested array items, defaults, annotations.
FS="$INTEROP/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
if [ -f "$FS" ]; then
  mkdir -p "$TMP/fsroot"
  for t in read_text_file edit_file directory_tree; do
    run -q --server "fs=node $FS $TMP/fsroot" tool "mcp__fs__$t"
    if [ "$RC" = 0 ] &&
      diff <(printf '%s\n' "$OUT") "$X/tool_filesystem_$t.txt" >"$TMP/diff"; then
      ok "tool mcp__fs__$t as expected"
    else
      bad "tool mcp__fs__$t as expected" "$(cat "$TMP/diff")"
    fi
  done
else
  echo "skipped: server-filesystem is not installed"
fi

run -q --server "$E" -v tools every
if diff <(grep '^mcp__' <<<"$OUT") "$X/tools_v_everything.txt" >"$TMP/diff"; then
  ok "tools -v shows each tool's signature"
else
  bad "tools -v shows each tool's signature" "$(cat "$TMP/diff")"
fi
run -q --server "$E" tools every
expect "tools without -v shows names only" 0 --out "mcp__every__echo" \
  --no-out "mcp__every__echo("

run -q --server "$E" --json tool every/get-sum
expect "tool --json is the tool object" 0 \
  --jq '.name == "get-sum" and .inputSchema.required == ["a","b"]'
run -q --server "$E" tool every/get-sum --json
expect "--json after the command too" 0 --jq '.name == "get-sum"'

TYPED="$SRCDIR/tests/servers/typed_server.py"
C="$TMP/typed.json"
config_file "$C" "{\"t\": {\"command\": \"python3\", \"args\": [\"$TYPED\"]}}"
run --config "$C" tool t/typed
expect "types, defaults, nullable, anyOf and nested objects" 0 \
  --out 'mcp__t__typed(s: string, i?: integer = 2, n?: number, b?: boolean, e?: "a"|"b", arr?: integer[], obj?: object, ns?: string|null, ni?: integer|null, any?: integer|boolean|string, ti?: integer|string, nest?: {depth?: integer, name?: string, deep?: {x?: boolean}}, a.b?: string)' \
  --out '  s  string, required' --out '  i  integer, default 2' \
  --out '    nest.depth  integer' --out '      nest.deep.x  boolean'
run --config "$C" tool t/open
expect "a tool with one parameter" 0 --out 'mcp__t__open(k?: string)'

# ---- did you mean: tools ----
run -q --server "$E" tool mcp__every__ech
expect "an unknown tool gets the closest name" 6 \
  --err 'has no tool named "ech" (did you mean "echo"?)'
run -q --server "$E" call mcp__every__get_sum a=1 b=2
expect "normalized names: get_sum finds get-sum" 6 \
  --err '(did you mean "get-sum"?)'
run -q --server "$E" tool every/Echo
expect "SERVER/TOOL suggests the server's own names" 6 \
  --err 'has no tool named "Echo" (did you mean "echo"?)'
run -q --server "$E" tool every/zzzzzzzz
expect "nothing close: no suggestion" 6 --err 'has no tool named "zzzzzzzz"' \
  --no-err "did you mean"

finish
