#!/bin/bash
# Schema-aware arguments: KEY=VALUE words coerced by the tool's
# inputSchema, KEY:=JSON, KEY=@FILE, dotted keys, --args, and the local
# check (missing, unknown, wrong type: exit 2 with the signature), the
# same through `call` and `batch`. The typed server answers with the
# arguments it received as sorted compact JSON, compared exactly.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the typed server"

TYPED="$SRCDIR/tests/servers/typed_server.py"
C="$TMP/typed.json"
config_file "$C" "{\"t\": {\"command\": \"python3\", \"args\": [\"$TYPED\"]}}"

# A table: the words (one string, split on '|'), then the exact JSON the
# server must receive.
TABLE=(
  's=007'                                  '{"s":"007"}'
  's=true'                                 '{"s":"true"}'
  's=null'                                 '{"s":"null"}'
  's=12.50'                                '{"s":"12.50"}'
  's=[1]'                                  '{"s":"[1]"}'
  's=a=b'                                  '{"s":"a=b"}'
  's='                                     '{"s":""}'
  's=x|i=42'                               '{"i":42,"s":"x"}'
  's=x|i=-7'                               '{"i":-7,"s":"x"}'
  's=x|n=1.5'                              '{"n":1.5,"s":"x"}'
  's=x|n=2e3'                              '{"n":2e3,"s":"x"}'
  's=x|b=false'                            '{"b":false,"s":"x"}'
  's=x|e=b'                                '{"e":"b","s":"x"}'
  's=x|arr=[1,2,3]'                        '{"arr":[1,2,3],"s":"x"}'
  's=x|obj={"k":[true]}'                   '{"obj":{"k":[true]},"s":"x"}'
  's=x|ns=null'                            '{"ns":null,"s":"x"}'
  's=x|ns=007'                             '{"ns":"007","s":"x"}'
  's=x|ni=null'                            '{"ni":null,"s":"x"}'
  's=x|ni=3'                               '{"ni":3,"s":"x"}'
  's=x|any=5'                              '{"any":5,"s":"x"}'
  's=x|any=true'                           '{"any":true,"s":"x"}'
  's=x|any=five'                           '{"any":"five","s":"x"}'
  's=x|ti=5'                               '{"s":"x","ti":5}'
  's=x|ti=05x'                             '{"s":"x","ti":"05x"}'
  's=x|ti=02134'                           '{"s":"x","ti":"02134"}'
  's=x|ti=12345678901234567890'            '{"s":"x","ti":12345678901234567890}'
  's=x|n=9007199254740993'                 '{"n":9007199254740993,"s":"x"}'
  's=x|n=0.30000000000000004'              '{"n":0.30000000000000004,"s":"x"}'
  's=x|n=1.50'                             '{"n":1.50,"s":"x"}'
  's=x|i=1152921504606846977'              '{"i":1152921504606846977,"s":"x"}'
  's=x|any=0123'                           '{"any":"0123","s":"x"}'
  's=x|nest.depth=4|nest.name=007'         '{"nest":{"depth":4,"name":"007"},"s":"x"}'
  's=x|nest.deep.x=true'                   '{"nest":{"deep":{"x":true}},"s":"x"}'
  's=x|a.b=1'                              '{"a.b":"1","s":"x"}'
  's:="007"'                               '{"s":"007"}'
  's=x|obj:={"a":null}'                    '{"obj":{"a":null},"s":"x"}'
  's=x|ns:="null"'                         '{"ns":"null","s":"x"}'
  's=x|s=y'                                '{"s":"y"}'
)

# The words of a row as an array WORDS.
words_of() { IFS='|' read -r -a WORDS <<<"$1"; }

i=0
while [ $i -lt ${#TABLE[@]} ]; do
  row=${TABLE[$i]} want=${TABLE[$((i + 1))]}
  i=$((i + 2))
  words_of "$row"
  run --config "$C" call t/typed "${WORDS[@]}"
  expect "call $row -> $want" 0 --out "$want"
  [ "$OUT" = "$want" ] || bad "call $row sends exactly $want" "got: $OUT"
  args=$(printf '%s\n' "${WORDS[@]}" | jq -R . | jq -sc .)
  batch_run "$C" "{\"id\":1,\"call\":\"mcp__t__typed\",\"args\":$args}"
  got=$(printf '%s' "$OUT" | jq -r '.result.content[0].text')
  if [ "$got" = "$want" ]; then
    ok "batch $row -> $want"
  else
    bad "batch $row -> $want" "got: $got"
  fi
done

# ---- files and --args ----
printf '007\nline two' >"$TMP/text"
run --config "$C" call t/typed s=@"$TMP/text"
expect "KEY=@FILE: a string parameter gets the file as it is" 0 \
  --out '{"s":"007\nline two"}'
printf '[4,5]' >"$TMP/arr"
run --config "$C" call t/typed s=x arr=@"$TMP/arr"
expect "KEY=@FILE: an array parameter gets the file as JSON" 0 \
  --out '{"arr":[4,5],"s":"x"}'
out=$(printf 'from stdin' | "$MCPHOST" --config "$C" call t/typed s=@- 2>&1)
[ "$out" = '{"s":"from stdin"}' ] && ok "KEY=@- reads stdin" ||
  bad "KEY=@- reads stdin" "got: $out"
head -c 300000 /dev/zero | tr '\0' 'x' >"$TMP/big"
run --config "$C" call t/typed s=@"$TMP/big"
[ "$RC" = 0 ] && [ "${#OUT}" = 300008 ] &&
  ok "a value of 300000 bytes from a file" ||
  bad "a value of 300000 bytes from a file" "length ${#OUT}"
run --config "$C" call t/typed s=@"$TMP/missing"
expect "a missing file names it" 2 --err "cannot read $TMP/missing"
printf '{"s":"base","i":1}' >"$TMP/args.json"
run --config "$C" call t/typed --args @"$TMP/args.json" i=2
expect "--args @FILE with words over it" 0 --out '{"i":2,"s":"base"}'
run --config "$C" call --args '{"s":"j"}' t/typed
expect "--args JSON before TOOL" 0 --out '{"s":"j"}'
run --config "$C" call t/typed '{"s":"whole"}'
expect "one JSON object is the whole arguments, as before" 0 \
  --out '{"s":"whole"}'
batch_run "$C" '{"id":1,"call":"t/typed","args":["s=@-"]}'
expect "batch refuses @- (stdin carries the requests)" 0 \
  --jq '.error.exit == 2 and (.error.message | test("stdin cannot be read"))'

# ---- the local check ----
run --config "$C" call t/typed i=3
expect "a missing required parameter is named, with the signature" 2 \
  --err 'missing required parameter "s"' --err 'usage: mcp__t__typed(s: string, i?: integer = 2'
run --config "$C" call t/typed s=x i=abc
expect "a wrong integer is named" 2 --err 'parameter "i" takes integer, not "abc"'
run --config "$C" call t/typed s=x i=1.5
expect "1.5 is no integer" 2 --err 'parameter "i" takes integer'
run --config "$C" call t/typed s=x b=yes
expect "yes is no boolean" 2 --err 'parameter "b" takes boolean, not "yes"'
run --config "$C" call t/typed s=x e=c
expect "a value outside the enum" 2 --err 'parameter "e" takes "a"|"b", not "c"'
run --config "$C" call t/typed s=x arr='[1,"2"]'
expect "an array item of the wrong type" 2 --err 'parameter "arr[1]" takes integer'
run --config "$C" call t/typed s=x nest.depth=deep
expect "a nested parameter is named by its path" 2 \
  --err 'parameter "nest.depth" takes integer, not "deep"'
run --config "$C" call t/typed s:=5
expect "KEY:=JSON is checked too" 2 --err 'parameter "s" takes string, not 5'
run --config "$C" call t/strict nn=1
expect "missing n (a closed schema)" 2 --err 'missing required parameter "n"'
run --config "$C" call t/strict n=1 m=2
expect "an unknown key is named, with the signature" 2 \
  --err 'unknown parameter "m"' --err 'usage: mcp__t__strict(n: integer)'
run --config "$C" call t/typed s=x arrr='[1]'
expect "an unknown key gets did-you-mean" 2 \
  --err 'unknown parameter "arrr" (did you mean "arr"?)'
run --config "$C" call t/typed s=x zzz=1
expect "listed properties refuse an unknown key" 2 --err 'unknown parameter "zzz"'
run --config "$C" call t/open k=007 zzz=1
expect "additionalProperties: true takes unknown keys" 0 \
  --out '{"k":"007","zzz":1}'
run --config "$C" call --no-validate t/strict m=x
expect "--no-validate sends as is" 0 --out '{"m":"x"}'
run --config "$C" call t/strict --no-validate n=x
expect "--no-validate after TOOL" 0 --out '{"n":"x"}'
batch_run "$C" '{"id":1,"call":"t/strict","args":["n=x"]}'
expect "batch checks as call does" 0 \
  --jq '.error.exit == 2 and (.error.message | test("parameter \"n\" takes integer"))'
batch_run "$C" '{"id":1,"call":"t/strict","arguments":{"m":1},"validate":false}'
expect "batch \"validate\": false sends as is" 0 \
  --jq '.result.content[0].text == "{\"m\":1}"'
batch_run "$C" '{"id":1,"call":"t/strict","arguments":{"n":"1"}}'
expect "batch checks \"arguments\" too" 0 --jq '.error.exit == 2'

# ---- without a schema: the rule before ----
run --config "$C" call t/open a=7 b=true c=x d=007
expect "no schema for a key: JSON when it parses, else text (007 is not JSON)" 0 \
  --out '{"a":7,"b":true,"c":"x","d":"007"}'
run --config "$C" call t/unlisted a=007 b=7
expect "a SERVER/TOOL the server does not list: the rule without a schema" 0 \
  --out '{"a":"007","b":7}'

# ---- syntax ----
run --config "$C" call t/typed 's:=nope'
expect "KEY:= needs JSON" 2 --err 'the value after ":=" is not JSON'
run --config "$C" call t/typed =x
expect "a word without a key" 2 --err 'is not KEY=VALUE'
deep=$(printf 'a.%.0s' $(seq 5000))
run --config "$C" call t/open "${deep}b=1"
expect "a key dotted 5000 deep is refused, not followed" 2 \
  --err "is nested more than 32 deep"
run --config "$C" call t/typed s=x obj:=1 obj.k=2
expect "a key set as a value and as an object" 2 \
  --err 'parameter "obj" is set both as a value and as an object'

finish
