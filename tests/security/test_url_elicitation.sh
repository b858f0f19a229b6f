#!/usr/bin/env bash
# Issue 11, points 6 and 12: what a URL-mode elicitation shows is what is
# opened, and a $BROWSER that hands the URL to a shell runs nothing of it.
#
# - http://evil.example\@good.example/ reads as good.example to libcurl
#   (the "Host:" line) and as evil.example to browsers (WHATWG: '\' is
#   '/'): refused, like user information before the host and any URL the
#   two read differently; the hook or the person is never asked.
# - The URL shown, given to a hook and opened is rebuilt from the parsed
#   parts, not the server's text.
# - BROWSER="sh -c 'echo %s >FILE'" with a URL holding $(...): the shell
#   gets the URL with its shell characters percent-encoded.
# Against tests/servers/elicit_server.c's el/url tool, with a recording
# hook, and on a terminal through tmux.
. "$(dirname "$0")/../lib/lib.sh"
C="$TMP/servers.json"
config_file "$C" "{\"el\": {\"command\": \"$BUILDDIR/tests/mcphost-elicit-server\"}}"
ASKED="$TMP/asked.jsonl"
cat >"$TMP/accept.sh" <<SH
#!/bin/sh
# Records each elicitation it is asked, and accepts it.
cat >>"$ASKED"; echo >>"$ASKED"
echo '{"action":"accept"}'
SH
chmod +x "$TMP/accept.sh"

url_call() { # URL: el/url with that URL, answered by the recording hook
  rm -f "$ASKED"
  run --config "$C" --elicitation="hook:$TMP/accept.sh" \
    call el/url "{\"url\": $(jq -Rn --arg u "$1" '$u'), \"id\": \"u1\"}"
}

url_call 'http://evil.example\@good.example/'
expect "a backslash before the host's end is refused and declined" 0 \
  --out 'result {"action":"decline"}' --err "it holds a backslash"
check "... before the hook was asked" test ! -e "$ASKED"

url_call 'https://good.example@evil.example/login'
expect "user information before the host is refused and declined" 0 \
  --out 'result {"action":"decline"}' --err "user name or password before the host"
check "... before the hook was asked" test ! -e "$ASKED"

url_call 'https:/evil.example/x'
expect "a URL not written scheme://host is refused" 0 \
  --out 'result {"action":"decline"}' --err "not written as scheme://host/"

url_call 'HTTPS://Example.COM/a/../b?q=1'
expect "an ordinary URL is accepted" 0 --out 'result {"action":"accept"}'
check "... and the hook is given the URL rebuilt from its parts" \
  jq -e -s '.[0].url == "https://Example.COM/b?q=1"' "$ASKED"

# ---- $BROWSER through a shell, on a terminal ----

tmux_server
RECORD="$TMP/opened.txt"
WORK="$TMP/work"
mkdir -p "$WORK"
URL='https://example.com/cb?q=$(touch${IFS}pwned)&next=`touch${IFS}pwned2`'
printf -v q '%q ' env "BROWSER=sh -c 'echo %s >$RECORD'" "$MCPHOST" --config "$C" \
  call el/url "{\"url\": $(jq -Rn --arg u "$URL" '$u'), \"id\": \"u2\"}"
tm new-session -d -s b -x 200 -y 50 -c "$WORK" "$q >'$TMP/b.out'; echo \$? >'$TMP/b.rc'; sleep 600"
for _ in $(seq 200); do
  tm capture-pane -p -J -t b | grep -qF "Open it in your browser?" && break
  sleep 0.1
done
tm send-keys -t b -l -- y
tm send-keys -t b Enter
for _ in $(seq 300); do [ -s "$TMP/b.rc" ] && break; sleep 0.1; done
for _ in $(seq 50); do [ -s "$RECORD" ] && break; sleep 0.1; done
RC=$(cat "$TMP/b.rc" 2>/dev/null || echo 99)
OUT=$(cat "$TMP/b.out" 2>/dev/null)
ERR=$(tm capture-pane -p -J -S - -t b)
expect "on a terminal: the URL is accepted and opened with \$BROWSER" 0 \
  --out 'result {"action":"accept"}'
check "the shell in \$BROWSER got the URL with its shell characters encoded" \
  test "$(cat "$RECORD" 2>/dev/null)" = 'https://example.com/cb?q=%24%28touch%24%7BIFS%7Dpwned%29%26next=%60touch%24%7BIFS%7Dpwned2%60'
check "... and ran nothing the URL said" \
  test ! -e "$WORK/pwned" -a ! -e "$WORK/pwned2"
finish
