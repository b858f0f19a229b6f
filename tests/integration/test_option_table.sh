#!/usr/bin/env bash
# The global options are one table (cli/options.c) from which getopt,
# --help, the session key and completion are derived. Read from the source,
# every option of it must be in `mcphost --help` as the table spells it,
# be offered by completion (its values too), stand under OPTIONS in the man
# page (which lists no global option the program lacks), and have a class
# for the session key that it behaves by: an option of the key gives
# another session, one of the command's the same session, one that runs
# here none. So an option cannot be added to one place only. --protocol is
# of the key: it used to be in no list and bypassed the session unsaid.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 to read the table"
command -v jq >/dev/null || skip_test "no jq"

TABLE="$SRCDIR/cli/options.c"
[ -f "$TABLE" ] || { echo "the option table $TABLE is missing"; exit 1; }
export XDG_RUNTIME_DIR="$TMP/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"

# The table's entries, one a line: NAME ALIAS SHORT ARG VALUES SESSION
# ("-" for a field left out).
python3 - "$TABLE" >"$TMP/table" <<'PY'
import re, sys
text = open(sys.argv[1], encoding='utf-8').read()
body = text[text.index('table[] = {'):]
body = body[:body.index('\n};')]
for m in re.finditer(r'\{\s*\.id = (\w+),(.*?)\}(?=,\s*(?:/\*|\{|$))', body,
                     re.S):
    e = m.group(2)
    def field(name):
        f = re.search(r'\.' + name + r' = ("(?:[^"\\]|\\.)*"|\'.\'|\w+)', e)
        return f.group(1).strip('"\'') if f else '-'
    print(field('name'), field('alias'), field('short_name'), field('arg'),
          field('values'), field('session'))
PY
n=$(wc -l <"$TMP/table")
if [ "$n" -ge 20 ]; then
  ok "the table has $n options"
else
  bad "the table has its options" "$(cat "$TMP/table")"
fi

run --help
HELP=$OUT
options_section=$(sed -n '/^Options:$/,/^Environment:$/p' <<<"$HELP")
run completion complete -- mcphost --
OFFERED=$OUT
PAGE="$SRCDIR/docs/man/mcphost.1"
# The option tags of the man page's OPTIONS (the line after each .TP).
man_tags=$(awk '/^\.SH OPTIONS/ {s = 1; next} /^\.SH/ {s = 0}
                s && t {print} {t = s && /^\.TP/}' "$PAGE" |
  sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g')
man_longs=$(grep -o -- '--[a-z][a-z0-9-]*' <<<"$man_tags" | sort -u)

C="$TMP/c.json"
config_file "$C" '{}'
config_file "$TMP/other.json" '{}'
mkdir -m 700 "$TMP/dir"
# socket ARGS...: where the session of `mcphost --config C ARGS...` would
# listen, or "none" when there is no session for it.
socket() {
  run --config "$C" "$@" session status --json
  if [ "$RC" -eq 6 ]; then jq -r .socket <<<"$OUT"; else echo none; fi
}
base=$(socket)
case $base in */session-*.sock) ok "a session's socket: $base" ;;
  *) bad "session status --json names the socket" ;; esac

# sample ARG VALUES: a value the option accepts.
sample() {
  if [ "$2" != - ]; then echo "${2%%|*}"; return; fi
  case $1 in
    'FILE|JSON') echo "$TMP/other.json" ;;
    SPEC) echo "x=true" ;;
    '[NAME=]URL') echo "http://127.0.0.1:9/mcp" ;;
    TYPE) echo "http" ;;
    DIR) echo "$TMP/dir" ;;
    TOOL) echo "mcp__x__y" ;;
    MS | N) echo 1000 ;;
    LEVEL) echo "info" ;;
    *) echo "?" ;;
  esac
}

while read -r name alias short arg values class; do
  o="--$name"
  # --help: "  -X, --NAME ARG" or "      --NAME=VALUES" at a line's start.
  left="      $o"
  [ "$short" != - ] && left="  -$short, $o"
  if [ "$values" != - ]; then left="$left=$values"
  elif [ "$arg" != - ]; then left="$left $arg"; fi
  shown=$(sed 's/^ *//' <<<"$left")
  if awk -v l="$left" 'index($0, l) == 1 && (length($0) == length(l) ||
       substr($0, length(l) + 1, 1) == " ") {f = 1} END {exit !f}' \
    <<<"$options_section"; then
    ok "$o is in --help as \"${left# }\""
  else
    bad "$o is in --help as \"${left# }\"" "$options_section"
  fi
  # completion
  want=("$o")
  [ "$alias" != - ] && want+=("--$alias")
  for w in "${want[@]}"; do
    if grep -qxF -- "$w" <<<"$OFFERED"; then
      ok "completion offers $w"
    else
      bad "completion offers $w" "offered: $OFFERED"
    fi
  done
  if [ "$values" != - ]; then
    run completion complete -- mcphost "$o" ""
    got=$(tr '\n' '|' <<<"$OUT")
    [ "$got" = "$values|" ] && ok "completion offers $o's values" ||
      bad "completion offers $o's values" "got: $got"
  fi
  # the man page
  for w in "${want[@]}"; do
    if grep -qxF -- "$w" <<<"$man_longs"; then
      ok "the man page lists $w under OPTIONS"
    else
      bad "the man page lists $w under OPTIONS"
    fi
  done
  if [ "$short" != - ]; then
    grep -qE -- "(^|[^a-z-])-$short[ ,\"]+$o([^a-z-]|\$)" <<<"$man_tags" &&
      ok "the man page gives $o its -$short" ||
      bad "the man page gives $o its -$short"
  fi
  # the session key
  given=("$o")
  [ "$arg" != - ] && given+=("$(sample "$arg" "$values")")
  s=$(socket "${given[@]}")
  case $class in
    CLI_SESSION_KEY)
      if [ "$s" != none ] && [ "$s" != "$base" ]; then
        ok "$o is part of the session key"
      else
        bad "$o is part of the session key" "socket: $s (base $base)"
      fi
      if [ "$short" != - ]; then
        s2=$(socket "-$short" "${given[@]:1}")
        [ "$s2" = "$s" ] && ok "-$short is $o for the key" ||
          bad "-$short is $o for the key" "$s2 vs $s"
      fi
      if [ "$alias" != - ]; then
        s2=$(socket "--$alias" "${given[@]:1}")
        [ "$s2" = "$s" ] && ok "--$alias is $o for the key" ||
          bad "--$alias is $o for the key" "$s2 vs $s"
      fi ;;
    CLI_SESSION_COMMAND)
      [ "$s" = "$base" ] && ok "$o runs through the same session" ||
        bad "$o runs through the same session" "socket: $s (base $base)" ;;
    CLI_SESSION_HERE)
      [ "$s" = none ] && ok "$o never runs through a session" ||
        bad "$o never runs through a session" "socket: $s" ;;
    *) bad "$o is classified for the session key (.session is $class)" ;;
  esac
done <"$TMP/table"

# Nothing under the man page's OPTIONS that the program does not take.
plugin_longs=$(sed -n '/^Plugin options:$/,/^$/p' <<<"$HELP" |
  grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
table_longs=$(awk '{print "--" $1; if ($2 != "-") print "--" $2}' \
  "$TMP/table" | sort -u)
extra=$(comm -23 <(printf '%s\n' "$man_longs") \
  <(printf '%s\n' "$table_longs" "$plugin_longs" | sort -u))
if [ -z "$extra" ]; then
  ok "the man page lists no global option the program lacks"
else
  bad "the man page lists no global option the program lacks" "$extra"
fi

# --protocol end to end: a session started with it serves the commands
# given with it.
D="$TMP/demo.json"
config_file "$D" "{\"demo\": {\"command\": \"$DEMO\"}}"
on_exit "'$MCPHOST' --config '$D' --protocol auto session stop >/dev/null 2>&1"
run --config "$D" --protocol auto session start --idle 1
expect "session start with --protocol" 0 --out "session started"
run --config "$D" --protocol auto tools
expect "tools with --protocol" 0 --out "mcp__demo__echo"
run --config "$D" --protocol auto session status --json
expect "tools with --protocol ran through the session" 0 \
  --jq '.running == true and .commands == 1'
run --config "$D" --protocol legacy session status --json
expect "another --protocol is another session" 6 --jq '.running == false'
run --config "$D" --protocol auto session stop
expect "session stop with --protocol" 0

finish
