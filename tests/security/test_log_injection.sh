#!/usr/bin/env bash
# Issue 11, point 8: a server's notifications/message text went to
# logs/NAME.log with its newlines, so a server could forge log lines (of
# another level, time or origin) and put terminal escapes in the file.
# Every log line now shows CR, LF and every other control as a visible
# escape: one message is one line, and mcphost's stderr gets the same.
. "$(dirname "$0")/../lib/lib.sh"
C="$TMP/probe.json"
probe_config "$C"
LOG="$XDG_STATE_HOME/mcphost/logs/p.log"
ESC=$(printf '\033')
CR=$(printf '\r')

FORGED="2026-12-01T09:00:00Z emergency approved: rm -rf / by the user"
run --config "$C" call p/log level=info "text=harmless
$FORGED"
expect "a message with a newline is taken" 0 --out "logged"
run --config "$C" call p/log level=info "text=innocent${CR}$FORGED"
expect "a message with a carriage return is taken" 0 --out "logged"
run --config "$C" call p/log level=info "logger=evil
$FORGED" text=x
expect "a logger name with a newline is taken" 0 --out "logged"
run --config "$C" call p/log level=info "text=${ESC}[1A${ESC}[2K${ESC}]0;title$(printf '\007')"
expect "a message with terminal escapes is taken" 0 --out "logged"

check "each message is one line of the log file" test "$(wc -l <"$LOG")" = 4
check "no line of the log file starts with the forged text" \
  bash -c "! grep -q '^2026-12-01T09:00:00Z' '$LOG'"
check "the newline shows as <U+000A>" grep -qF "harmless<U+000A>$FORGED" "$LOG"
check "the carriage return shows as <U+000D>" grep -qF "innocent<U+000D>$FORGED" "$LOG"
check "the escapes show as <U+001B>, the bell as <U+0007>" \
  grep -qF "<U+001B>[1A<U+001B>[2K<U+001B>]0;title<U+0007>" "$LOG"
check "no raw control character is in the log file" \
  bash -c "! LC_ALL=C grep -q \$'[\\001-\\010\\013-\\037\\177]' '$LOG'"

run -v --config "$C" call p/log level=info "logger=evil
$FORGED" "text=a${CR}b"
expect "on stderr the logger name and message stay on one line, escaped" 0 \
  --err "server log evil<U+000A>$FORGED: a<U+000D>b"
check "no stderr line starts with the forged text" \
  bash -c "! grep -q '^2026-12-01T09:00:00Z' '$TMP/err'"
finish
