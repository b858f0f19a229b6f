#!/usr/bin/env bash
# What a server says about itself, shown and kept: its log messages
# (notifications/message) on stderr with -v and in logs/NAME.log, its
# stderr in logs/NAME.stderr.log and quoted when it dies. Every control
# character shows as a visible escape, the quoted tail keeps the newest
# lines, and both files are private.
. "$(dirname "$0")/../lib/lib.sh"
C="$TMP/probe.json"
probe_config "$C"
LOGS="$XDG_STATE_HOME/mcphost/logs"
ESC=$(printf '\033')
BEL=$(printf '\007')
CR=$(printf '\r')

# ---- the quoted tail of a server that died ----

LONG=$(printf 'x%.0s' $(seq 1500))
run --config "$C" call p/die "text=starting $LONG
FATAL cannot open the database
"
expect "a dying server's quoted stderr keeps its newest line after a long one" 3 \
  --err "stderr (last lines):" --err "FATAL cannot open the database"

run --config "$C" call p/die "text=ok
${ESC}]0;pwned${BEL}${ESC}[2Jcleared
"
expect "controls in the quoted stderr show as escapes" 3 \
  --err "<U+001B>]0;pwned<U+0007><U+001B>[2Jcleared" --no-err "$ESC"

# ---- the stderr log file ----

run --config "$C" call p/stderr "text=first line
${ESC}[31mred${ESC}[0m	tab
windows line${CR}
"
expect "a server writing to stderr" 0 --out "written"
check "the stderr log keeps the server's lines" \
  grep -qx "first line" "$LOGS/p.stderr.log"
check "the stderr log shows controls as escapes and keeps tabs" \
  grep -qxF "<U+001B>[31mred<U+001B>[0m	tab" "$LOGS/p.stderr.log"
check "the stderr log has no raw escape character" \
  bash -c "! grep -q \$'\\033' '$LOGS/p.stderr.log'"
check "a CR before a newline is dropped, not shown" \
  grep -qx "windows line" "$LOGS/p.stderr.log"
check "NAME.stderr.log is 0600" test "$(stat -c %a "$LOGS/p.stderr.log")" = 600

# ---- log messages ----

run -v --config "$C" call p/log level=error "text=disk full
2026-12-01T00:00:00Z info forged line ${ESC}[2J"
expect "a server log line at level error shows as error, escaped, on one line" 0 \
  --err "mcphost: error: [p] server log probe: disk full<U+000A>2026-12-01T00:00:00Z info forged line <U+001B>[2J" \
  --no-err "info: [p] server log" --no-err "$ESC"
check "the log file holds the message as one line, escaped" \
  grep -qE "^[0-9T:-]+Z error disk full<U\\+000A>2026-12-01T00:00:00Z info forged line <U\\+001B>\\[2J\$" "$LOGS/p.log"
check "no line of the log file was forged" \
  bash -c "! grep -q '^2026-12-01T00:00:00Z' '$LOGS/p.log'"
check "logs/NAME.log is 0600" test "$(stat -c %a "$LOGS/p.log")" = 600

run -v --config "$C" call p/log level=warning text=careful
expect "a warning from the server is labelled warning" 0 \
  --err "mcphost: warning: [p] server log probe: careful"
run --config "$C" call p/log level=critical text=quiet
expect "server log lines still need -v" 0 --no-err "quiet"

# A log file made 0644 by an older mcphost becomes 0600 when next used.
chmod 644 "$LOGS/p.log" "$LOGS/p.stderr.log"
run --config "$C" call p/log level=info text=again
expect "a server log message" 0 --out "logged"
check "an old 0644 NAME.log is made 0600" test "$(stat -c %a "$LOGS/p.log")" = 600
check "an old 0644 NAME.stderr.log is made 0600" \
  test "$(stat -c %a "$LOGS/p.stderr.log")" = 600

# Both files are named after the server by one rule.
sed 's/"p":/"..odd name":/' "$C" >"$TMP/odd.json"
run --config "$TMP/odd.json" call "..odd name/stderr" text=hello
expect "a server with an odd name" 0 --out "written"
run --config "$TMP/odd.json" call "..odd name/log" text=hello
# Changed, so marked with a hash of the name (never another server's).
stem=$(cd "$LOGS" && ls | sed -n 's/^\(_\.odd_name-[0-9a-f]\{8\}\)\.log$/\1/p')
check "its NAME.stderr.log and NAME.log share one safe, marked name" \
  test -n "$stem" -a -f "$LOGS/$stem.stderr.log" -a -f "$LOGS/$stem.log"
finish
