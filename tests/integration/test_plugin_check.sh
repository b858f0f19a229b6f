#!/usr/bin/env bash
# mcphost plugin check FILE [--json]: every built plugin and
# implementation gets its verdict, and each way a plugin can be wrong
# (tests/fixtures/fixture_check.c and the loader's fixtures) gets its own
# class, exit code and reason naming the file, while mcphost itself goes on.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH
CHK="$FIXTURES/check"
IMPLDIR="$(dirname "$PLUGINDIR")/impl"
MINOR=$("$MCPHOST" --version | sed -n 's/.*plugin ABI 1\.\([0-9]*\)).*/\1/p')

# check_json NAME FILE RC CLASS [expect options...]: --json's verdict,
# class and exit code for FILE, and more jq checks.
check_json() {
  local name=$1 file=$2 rc=$3 cls=$4
  shift 4
  local want_cls='.class == null and .verdict == "loadable" and (.errors | length) == 0'
  [ "$cls" != - ] && want_cls=".class == \"$cls\" and .verdict == \"not loadable\" and (.reason | length) > 0"
  run plugin check "$file" --json
  expect "$name" "$rc" --jq "$want_cls" --jq ".exitCode == $rc" \
    --jq ".file == \"$file\"" "$@"
}

# Every plugin of the build loads, with what it offers.
n=0
for f in "$PLUGINDIR"/*.so; do
  n=$((n + 1))
  check_json "built plugin $(basename "$f") is loadable" "$f" 0 - \
    --jq '(.plugin.id | length) > 0 and .plugin.status == "loaded"' \
    --jq '.exports == ["mcph_plugin_entry"]' \
    --jq '.step == "done" and .stderr == null and .stdout == null'
done
[ "$n" -ge 5 ] && ok "the build has plugins to check ($n)" ||
  bad "the build has plugins to check ($n)"

run plugin check "$PLUGINDIR/transport-http.so" --json
expect "a stub is checked with its implementation: deferred, provides as its factory" 0 \
  --jq '.deferred == true and .provides.implementation == "transport-http.so"' \
  --jq '.provides.transportTypes == ["http"] and .plugin.transports[0].type == "http"' \
  --jq '.extensions == ["mcph.transport/1"]'

run plugin check "$PLUGINDIR/feature-channels.so" --json
expect "the services it looks up, its extensions and struct sizes are listed" 0 \
  --jq '.services | any(.service == "mcph.host.features/1" and .offered)' \
  --jq '.extensions | index("mcph.feature/1") != null' \
  --jq '.sizes | any(.struct == "mcph_entry" and .declared == .host)' \
  --jq '.commands | any(.name == "channels")'

run plugin check "$PLUGINDIR/transport-stdio.so"
expect "the text names the file, the verdict, the plugin, its ABI and transports" 0 \
  --out "$PLUGINDIR/transport-stdio.so: loadable" \
  --out "mcphost.transport.stdio" --out "ABI         1." \
  --out "transports  stdio (local)"

# The implementations: a transport's loads alone (it is noted where it
# is); the bundle plugin's tools and signature code are no plugin (no
# init).
for f in "$IMPLDIR"/*.so; do
  case $(basename "$f") in
    mcpb-tools.so | mcpb-sig.so)
      check_json "implementation $(basename "$f") is not a plugin of its own (entry)" \
        "$f" 22 entry --jq '.reason | contains("init")' ;;
    *)
      check_json "implementation $(basename "$f") is loadable, noted as an implementation" \
        "$f" 0 - --jq '.warnings | any(contains("implementation directory"))' ;;
  esac
done

# The loader's refusals, each its class.
check_json "a plugin for another ABI major: abi (23)" "$FIXTURES/bad/fx-abi2.so" 23 abi \
  --jq '.reason | contains("built for plugin ABI 2.")' --jq '.plugin.abi | startswith("2.")'
check_json "a shared object without the entry: entry (22)" "$FIXTURES/bad/fx-noentry.so" 22 entry \
  --jq '.reason | contains("no \"mcph_plugin_entry\" symbol")' --jq '.step == "done"'
check_json "a plugin whose init fails: init (24), with its message" \
  "$FIXTURES/bad/fx-initfail.so" 24 init \
  --jq '.reason | contains("fixture refuses to start")' --jq '.plugin.id == "test.initfail"'
check_json "a plugin built for a newer minor is loadable, with a warning" \
  "$CHK/fx-check-minor.so" 0 - \
  --jq ".plugin.abi == \"1.$((MINOR + 3))\"" \
  --jq '.warnings | any(contains("newer than this mcphost"))'

# What a plugin's process does.
check_json "a plugin that segfaults in init: crash (25), in init" "$CHK/fx-check-crash.so" 25 crash \
  --jq '.step == "init" and (.reason | contains("SIGSEGV")) and (.reason | contains("in its init"))' \
  --jq '.plugin.id == "test.check.crash"'
check_json "a plugin that aborts in init: crash (25)" "$CHK/fx-check-abort.so" 25 crash \
  --jq '.reason | contains("SIGABRT")'
check_json "a plugin that calls exit() in init: exit (26)" "$CHK/fx-check-exit.so" 26 exit \
  --jq '.step == "init" and (.reason | contains("exit(3)"))'
run --timeout 1500 plugin check "$CHK/fx-check-hang.so" --json
expect "a plugin that hangs in init: timeout (27) after --timeout" 27 \
  --jq '.class == "timeout" and .step == "init" and (.reason | contains("1500 ms"))'
if pgrep -f "__plugin-probe $CHK/fx-check-hang.so" >/dev/null; then
  bad "the hanging plugin's process is gone"
else
  ok "the hanging plugin's process is gone"
fi
check_json "a plugin that writes to stdout: stdout (28), what it wrote kept apart" \
  "$CHK/fx-check-stdout.so" 28 stdout \
  --jq '.stdout | contains("garbage <U+001B>[31m{not json")'

for kind in crash abort exit stdout; do
  run plugin check "$CHK/fx-check-$kind.so"
  expect "text verdict for $kind names the file" "$(jq -n "{crash:25,abort:25,exit:26,stdout:28}.$kind")" \
    --out "$CHK/fx-check-$kind.so: not loadable: it "
done
run plugin check "$CHK/fx-check-stdout.so"
if [[ $OUT == *$'\e'* || $OUT == *$'\a'* ]]; then
  bad "what the plugin says and prints reaches the terminal escaped"
else
  expect "what the plugin says and prints reaches the terminal escaped" 28 \
    --out 'prints <U+001B>]0;owned<U+0007> to stdout' --out 'garbage <U+001B>[31m'
fi

# What it declares against what it registers.
check_json "provides against what init registers: mismatch (29)" "$CHK/fx-check-mismatch.so" 29 mismatch \
  --jq '[.errors[].message] | any(contains("mcph.command/1"))' \
  --jq '[.errors[].message] | any(contains("\"check-listed\" is in its provides list but not in its transport factory"))' \
  --jq '[.errors[].message] | any(contains("\"check-real\" is in its transport factory but not in its provides list"))' \
  --jq '.provides.commands == ["check-cmd"] and .extensions == ["mcph.transport/1"]'
check_json "a second export is a warning naming it" "$CHK/fx-check-exports.so" 0 - \
  --jq '.exports | index("check_extra_export") != null' \
  --jq '.warnings | any(contains("check_extra_export"))'
check_json "undefined symbols: load (21), every one listed" "$CHK/fx-check-unresolved.so" 21 load \
  --jq '.unresolved == ["check_missing_one", "check_missing_two"]'

# The file itself.
printf 'not an ELF file\n' >"$TMP/text.so"
chmod 644 "$TMP/text.so"
check_json "a file that is no shared object: load (21)" "$TMP/text.so" 21 load
head -c 3000 "$PLUGINDIR/transport-stdio.so" >"$TMP/cut.so"
chmod 644 "$TMP/cut.so"
check_json "a shared object cut short: load (21), refused before dlopen" "$TMP/cut.so" 21 load \
  --jq '.reason | contains("cut short")'
run --plugin-dir "$TMP" --json plugins
expect "a plugin cut short in a plugin directory is refused, and mcphost goes on" 0 \
  --jq '.[] | select(.file | endswith("/cut.so")) | .status == "refused" and (.error | contains("cut short"))' 
check_json "a missing file: file (20)" "$TMP/nothing.so" 20 file
cp "$PLUGINDIR/transport-stdio.so" "$TMP/open.so"
chmod 666 "$TMP/open.so"
check_json "a file others may write: file (20), as the loader refuses it" "$TMP/open.so" 20 file \
  --jq '.reason | contains("writable")'
cp "$PLUGINDIR/transport-stdio.so" "$TMP/mine.so"
chmod 644 "$TMP/mine.so"
(cd "$TMP" && "$MCPHOST" plugin check mine.so --json >"$TMP/out" 2>"$TMP/err")
RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
expect "a relative FILE is taken from the working directory" 0 \
  --jq ".file == \"$TMP/mine.so\" and .verdict == \"loadable\""

# The plugin runs in the child and can write on its report pipe: the
# child's own report, written last, is the one read, and a malformed one
# is taken apart field by field (never a crash of mcphost).
run plugin check "$CHK/fx-check-forge.so" --json
expect "a report the plugin wrote from init is not the one read" 0 \
  --jq '.verdict == "loadable" and (.errors | length) == 0' \
  --jq '[.. | strings | select(. == "forged")] == []'
run plugin check "$CHK/fx-check-forgeexit.so" --json
expect "a malformed report alone: its classless error is a load error" 21 \
  --jq '.class == "load" and .reason == "forged" and .verdict == "not loadable"' \
  --jq '.errors[1].message == "(the check'"'"'s child gave no message)"' \
  --jq '.warnings == [] and .sizes == [] and .exitCode == 21'
run plugin check "$CHK/fx-check-forgeexit.so"
expect "and in text" 21 --out "error (load): forged"

# A plugin's own text (here a version holding an OSC sequence) is
# escaped where mcphost prints it, as a server's is.
run plugin check "$CHK/fx-check-escape.so"
expect "plugin check escapes the plugin's version" 0 \
  --out '1.0<U+001B>]0;owned<U+0007>' --no-out $'\x1b'
mkdir -p "$TMP/esc" && chmod 700 "$TMP/esc"
cp "$CHK/fx-check-escape.so" "$TMP/esc/" && chmod 644 "$TMP/esc/fx-check-escape.so"
run --plugin-dir "$TMP/esc" plugins
expect "mcphost plugins escapes the plugin's version" 0 \
  --out 'loaded   test.check.escape 1.0<U+001B>]0;owned<U+0007> (ABI' \
  --no-out $'\x1b'

# The command line.
run plugin
expect "plugin without a subcommand is a usage error" 2 --err "usage: mcphost plugin check FILE.so"
run plugin frob x.so
expect "an unknown subcommand is a usage error" 2 --err 'unknown subcommand "frob"'
run plugin check
expect "check without a file is a usage error" 2
run plugin --help
expect "plugin --help says what check does and its exit codes" 0 \
  --out "plugin check FILE.so [--json]" --out "29 mismatch"
run --help
expect "--help lists plugin check" 0 --out "plugin check FILE.so"
run completion complete -- mcphost pl
expect "completion offers the command" 0 --out "plugin"
run completion complete -- mcphost plugin ''
expect "completion offers its subcommand" 0 --out "check"

finish
