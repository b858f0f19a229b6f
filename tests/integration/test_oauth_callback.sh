#!/usr/bin/env bash
# The loopback redirect target of an OAuth login, against the
# authorization server of tests/servers/oauth_server.mjs: the redirect
# URI names the address the listener holds (http://127.0.0.1:PORT, RFC
# 8252 §7.3), the same in the registration and the authorization request;
# any local process can reach the port, so a request that is not the
# response (another state, none, another path) is answered 400 and the
# login goes on waiting, and a connection that says nothing (half a
# request) holds up no other.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH MCPHOST_OAUTH_BROWSER
. "$(dirname "$0")/../lib/oauth.sh"

server
MCPHOST_OAUTH_BROWSER=follow run --config "$C" mcp login srv
expect "a login (follow mode)" 0 --out 'Authorized server "srv"'
st=$(curl -s "http://127.0.0.1:$NODE_PORT/stats")
jq -e '(.registered_redirects | length == 1) and
       (.registered_redirects[0] | test("^http://127\\.0\\.0\\.1:[0-9]+/callback$")) and
       .last_redirect == .registered_redirects[0]' <<<"$st" >/dev/null &&
  ok "the redirect URI is http://127.0.0.1:PORT/callback, registered and asked for alike" ||
  bad "redirect URIs: $(jq -c '[.registered_redirects, .last_redirect]' <<<"$st")"
check "... and kept with the registration" \
  jq -e --argjson s "$st" '[.mcpOAuth[].clients[].redirectUri] == [$s.last_redirect]' "$CREDS"

# A login waiting on the listener (print mode, no terminal to paste on).
server
MCPHOST_OAUTH_BROWSER=print timeout 120 "$MCPHOST" --config "$C" mcp login srv \
  >"$TMP/login.out" 2>"$TMP/login.err" </dev/null &
LPID=$!
on_exit "kill $LPID 2>/dev/null"
for _ in $(seq 100); do grep -q "/authorize?" "$TMP/login.err" && break; sleep 0.1; done
auth_url=$(grep -o 'http://[^ ]*/authorize?[^ ]*' "$TMP/login.err" | head -n 1)
back=$(curl -s -o /dev/null -w '%{redirect_url}' "$auth_url")
port=$(sed -n 's|^http://127\.0\.0\.1:\([0-9]*\)/callback?.*|\1|p' <<<"$back")
[ -n "$port" ] && ok "the AS sends the browser to http://127.0.0.1:$port/callback" ||
  bad "the redirect: $back"

# A silent connection: half a request line, then nothing.
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /callback?code=' >&3
status() { curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$1"; }
check "a callback with another state is answered 400 while the silent one is open" \
  test "$(status '/callback?code=forged&state=forged')" = 400
check "one without a state is answered 400" test "$(status '/callback?code=forged')" = 400
check "another path is answered 400" test "$(status '/favicon.ico')" = 400
check "the silent connection is still open, unanswered (read at once, not in turn)" \
  bash -c '! read -r -t 0 -u 3'
kill -0 "$LPID" 2>/dev/null && ok "the login still waits" || bad "the login ended"
page=$(curl -s "$back")
wait "$LPID"
RC=$? OUT=$(cat "$TMP/login.out") ERR=$(cat "$TMP/login.err")
exec 3>&-
grep -q "mcphost received the authorization response" <<<"$page" &&
  ok "the response with the login's state gets the page" || bad "its page: $page"
expect "then the login completes" 0 --out 'Authorized server "srv"' \
  --err "not its response was refused; still waiting"
check "... saying so once for the 3 refused requests" \
  test "$(grep -c "not its response was refused" "$TMP/login.err")" = 1
check "only the right code was redeemed" test "$(stat_of codes)" = 1
check "the forged code never reached the token endpoint" \
  sh -c "! grep -q 'code=forged' '$SRVLOG'"
finish
