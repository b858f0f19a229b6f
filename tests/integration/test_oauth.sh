#!/usr/bin/env bash
# The OAuth plugin against a loopback authorization server of ours
# (tests/servers/oauth_server.mjs), for what the conformance suite does
# not cover: login and the stored credentials, refresh with rotation,
# invalid_grant, parallel runs refreshing once, a credential file others
# may read, a forged state or iss, the paste flow on a terminal, an AS of
# another origin, an issuer mismatch, a slow AS, logout, and no secret in
# any line mcphost wrote.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH MCPHOST_OAUTH_BROWSER
. "$(dirname "$0")/../lib/oauth.sh"
ALL_OUT="$TMP/all-output"
: >"$ALL_OUT"

keep() { cat "$TMP/out" "$TMP/err" >>"$ALL_OUT"; }
orun() { run "$@"; keep; }

server
orun --config "$C" call mcp__srv__whoami
expect "a run that no one can approve fails as needing authorization and names the login command" 7 \
  --err 'is not authorized yet; run `mcphost mcp login srv`'
[ "$(stat_of authorizations)" = 0 ] && ok "... without sending an authorization request" ||
  bad "an authorization request was sent by a non-interactive run"

# The needs-auth cache (Claude Code's, 15 minutes): the next run that no
# one can approve does not contact the server at all.
NA_CACHE="$XDG_STATE_HOME/mcphost/mcp-needs-auth-cache.json"
jq -e '.[] | .timestamp > 0' "$NA_CACHE" >/dev/null 2>&1 &&
  ok "... and the server is recorded in mcp-needs-auth-cache.json" ||
  bad "no needs-auth cache entry: $(cat "$NA_CACHE" 2>/dev/null)"
before=$(stat_of mcp_requests)
orun --config "$C" call mcp__srv__whoami
expect "a second such run within 15 minutes fails as needs-auth and names the login" 7 \
  --err 'is not authorized yet; run `mcphost mcp login srv`' --err "not contacted"
[ "$(stat_of mcp_requests)" = "$before" ] && ok "... without a request to the server" ||
  bad "the server got $(( $(stat_of mcp_requests) - before )) requests"
orun --config "$C" servers
expect "servers shows it as needs-auth" 7 --out "needs-auth"
jq '.[].timestamp -= 16 * 60 * 1000' "$NA_CACHE" >"$NA_CACHE.new" &&
  chmod 600 "$NA_CACHE.new" && mv "$NA_CACHE.new" "$NA_CACHE"
orun --config "$C" call mcp__srv__whoami
expect "after 15 minutes the server is contacted again" 7 --err 'is not authorized yet' \
  --no-err "not contacted"
[ "$(stat_of mcp_requests)" -gt "$before" ] && ok "... with a request" ||
  bad "the server got no request"

MCPHOST_OAUTH_BROWSER=follow orun -vv --config "$C" mcp login srv
expect "mcp login authorizes (follow mode) and stores the tokens" 0 --out 'Authorized server "srv"'
jq -e 'length == 0' "$NA_CACHE" >/dev/null &&
  ok "... and ends the needs-auth cache entry" || bad "cache after login: $(cat "$NA_CACHE")"

mode_dir=$(stat -c %a "$XDG_STATE_HOME/mcphost") mode_file=$(stat -c %a "$CREDS")
[ "$mode_file" = 600 ] && [ "$mode_dir" = 700 ] && ok "credentials.json is 0600 in a 0700 directory" ||
  bad "credentials.json modes: file $mode_file, directory $mode_dir"
orun -vvv --config "$C" call mcp__srv__whoami
expect "a later call uses the stored token" 0 --out "scope mcp:read"
[ "$(stat_of authorizations)" = 1 ] && ok "... without authorizing again" ||
  bad "authorized $(stat_of authorizations) times"
orun --config "$C" mcp auth-status --json
expect "auth-status shows the token's state, scope, client and AS, never the token" 0 \
  --jq '.[0].server == "srv" and .[0].token == true and .[0].scope == "mcp:read" and (.[0].clientId | startswith("client-"))' \
  --no-out '"at-' --no-out '"rt-'

BAD="$TMP/bad.json"
config_file "$BAD" "{\"srv\": {\"type\": \"http\", \"url\": \"$URL\", \"oauth\": {\"callbackPort\": \"x\"}}}"
MCPHOST_OAUTH_BROWSER=follow orun --config "$BAD" call mcp__srv__whoami
expect "a bad oauth key is named, with its server" 7 \
  --err 'server "srv": oauth.callbackPort must be a port (1-65535)'

# Refresh with rotation: the stored token expires within 5 minutes.
edit_creds '.mcpOAuth[].expiresAt = 1000'
old_rt=$(jq -r '.mcpOAuth[].refreshToken' "$CREDS")
orun --config "$C" call mcp__srv__whoami
expect "a token about to expire is refreshed" 0 --out "scope mcp:read"
new_rt=$(jq -r '.mcpOAuth[].refreshToken' "$CREDS")
[ "$(stat_of refreshes)" = 1 ] && [ "$new_rt" != "$old_rt" ] && [ -n "$new_rt" ] &&
  ok "... once, and the rotated refresh token is stored" ||
  bad "refreshes $(stat_of refreshes), refresh token rotated: $old_rt -> $new_rt"
edit_creds '.mcpOAuth[].expiresAt = 1000'
orun --config "$C" call mcp__srv__whoami
expect "the rotated refresh token works the next time (the old one is dead at the AS)" 0 --out "scope mcp:read"

# A stored expiry beyond any date (1e300, edited by hand or by another
# client) is far in the future: the token is used as it is, not taken
# for long expired (a conversion out of range read it so, and every call
# refreshed).
edit_creds '.mcpOAuth[].expiresAt = 1e300 | .mcpOAuth[].issuedAt = -1e300'
before=$(stat_of refreshes)
orun --config "$C" call mcp__srv__whoami
expect "a token that expires in 1e300 ms is used without a refresh" 0 \
  --out "scope mcp:read"
[ "$(stat_of refreshes)" = "$before" ] && ok "... no refresh was made" ||
  bad "refreshes: $before -> $(stat_of refreshes)"
orun --config "$C" mcp auth-status --json
expect "... and auth-status says it has not expired" 0 \
  --jq '.[0].expired == false'

# Ten parallel runs with an expired token refresh once (flock).
edit_creds '.mcpOAuth[].expiresAt = 1000'
before=$(stat_of refreshes)
parallel_calls 10
cat "$TMP"/par.*.out "$TMP"/par.*.err >>"$ALL_OUT"
okruns=$PAR_OK
[ "$okruns" = 10 ] && [ "$(($(stat_of refreshes) - before))" = 1 ] &&
  ok "10 parallel calls all succeed and refresh once" ||
  bad "parallel: $okruns of 10 succeeded, $(($(stat_of refreshes) - before)) refreshes"

# A refused refresh token: the tokens are dropped, a login is needed.
server --kill-refresh
MCPHOST_OAUTH_BROWSER=follow orun --config "$C" mcp login srv
kill_server_tokens
orun --config "$C" call mcp__srv__whoami
expect "a refresh token refused with invalid_grant drops the tokens and asks for a login" 7 \
  --err "invalid_grant" --err 'mcphost mcp login srv'
[ "$(jq -r '.mcpOAuth[] | has("accessToken") or has("refreshToken")' "$CREDS")" = false ] &&
  ok "... the dead tokens are gone from credentials.json (the registration kept)" ||
  bad "tokens left: $(jq -c '.mcpOAuth[] | keys' "$CREDS")"
[ "$(stat_of refreshes)" = 1 ] &&
  ok "... after one refresh request: an invalid_grant (4xx) is not tried again" ||
  bad "refresh requests: $(stat_of refreshes)"

# A registration the server forgot (invalid_client): registered anew once.
server --invalid-client-once
MCPHOST_OAUTH_BROWSER=follow orun --config "$C" mcp login srv
expect "a registration refused with invalid_client is made anew, and the login completes" 0 \
  --out 'Authorized server "srv"'
[ "$(stat_of registrations)" = 2 ] && [ "$(stat_of authorizations)" = 2 ] &&
  ok "... with one more registration and authorization" ||
  bad "registrations $(stat_of registrations), authorizations $(stat_of authorizations)"

# A credential file others may read is refused.
server
MCPHOST_OAUTH_BROWSER=follow orun --config "$C" mcp login srv
chmod 644 "$CREDS"
orun --config "$C" call mcp__srv__whoami
expect "a credential file readable by others is refused, named, and not used" 7 \
  --err "credentials.json is refused" --err "0644"
chmod 600 "$CREDS"

# Logout revokes at the AS, then removes the tokens.
orun --config "$C" mcp logout srv
expect "mcp logout revokes the tokens" 0 --out 'Logged out of server "srv" (tokens revoked)'
[ "$(stat_of revocations)" = 2 ] && ok "... refresh and access token revoked at the AS" ||
  bad "revocations: $(stat_of revocations)"
orun --config "$C" mcp auth-status
expect "auth-status after logout: needs-auth" 0 --out "srv: needs-auth"

# A forged state or iss in the redirect: refused, the code never redeemed.
server --wrong-state
MCPHOST_OAUTH_BROWSER=follow orun --config "$C" mcp login srv
expect "a callback with another state is refused" 7 --err "state is not the one sent"
server --wrong-iss
MCPHOST_OAUTH_BROWSER=follow orun --config "$C" mcp login srv
expect "a callback with another issuer (iss) is refused" 7 --err "another issuer (iss): refused"
[ "$(stat_of codes)" = 0 ] && ok "... and neither code was redeemed" || bad "codes redeemed: $(stat_of codes)"

# The authorization server at another origin: allowed.
server --as-elsewhere
MCPHOST_OAUTH_BROWSER=follow orun --config "$C" mcp login srv
expect "an authorization server of another origin named by the PRM is used" 0 --out 'Authorized server "srv"'
server --issuer-mismatch
MCPHOST_OAUTH_BROWSER=follow orun --config "$C" mcp login srv
expect "AS metadata with another issuer is refused before any authorization" 7 \
  --err "issuer is not" --err "RFC 8414"
[ "$(stat_of authorizations)" = 0 ] && ok "... no authorization request sent" || bad "authorized anyway"

# A slow AS: the flow ends at its deadline with a reason.
server --slow-metadata 60000
MCPHOST_OAUTH_TIMEOUT_MS=500 MCPHOST_OAUTH_BROWSER=follow orun --config "$C" mcp login srv
expect "an authorization server that does not answer ends the flow at its deadline" 7 \
  --err "no answer in time"

# The paste flow on a terminal: the printed URL is opened elsewhere, and
# the URL the browser ends on is pasted.
if command -v tmux >/dev/null; then
  server
  sock="$TMP/tmux.sock"
  tmux -S "$sock" new-session -d -x 250 -y 50 \
    "env MCPHOST_OAUTH_BROWSER=print '$MCPHOST' --config '$C' mcp login srv >'$TMP/paste.out' 2>'$TMP/paste.err'; echo \$? >'$TMP/paste.rc'; sleep 30"
  on_exit "tmux -S '$sock' kill-server 2>/dev/null"
  for _ in $(seq 100); do grep -q "/authorize?" "$TMP/paste.err" 2>/dev/null && break; sleep 0.1; done
  auth_url=$(grep -o 'http://[^ ]*/authorize?[^ ]*' "$TMP/paste.err" | head -n 1)
  back=$(curl -s -o /dev/null -w '%{redirect_url}' "$auth_url")
  # A URL of another login first (a stale tab): refused, still waiting.
  tmux -S "$sock" send-keys -t 0 -l "${back%%\?*}?code=stale&state=stale"
  tmux -S "$sock" send-keys -t 0 Enter
  for _ in $(seq 100); do grep -q "not this login's response" "$TMP/paste.err" && break; sleep 0.1; done
  tmux -S "$sock" send-keys -t 0 -l "$back"
  tmux -S "$sock" send-keys -t 0 Enter
  for _ in $(seq 100); do [ -s "$TMP/paste.rc" ] && break; sleep 0.1; done
  cp "$TMP/paste.out" "$TMP/out"; cp "$TMP/paste.err" "$TMP/err"; keep
  RC=$(cat "$TMP/paste.rc" 2>/dev/null || echo 99)
  OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
  [ "$(stat_of codes)" = 1 ] && ok "... the pasted code was redeemed" || bad "codes: $(stat_of codes)"
  expect "print mode: the redirect URL pasted on the terminal completes the login" 0 \
    --out 'Authorized server "srv"' --err "paste here the URL"
  expect "... after a pasted URL with another state was refused, and the terminal waited on" 0 \
    --err "that URL is not this login's response (another state)"
else
  echo "(tmux is not installed: the paste flow is not checked)"
fi

# auto mode with a display: the browser starts by the one $BROWSER rule
# (common/browser.h): a ':' list tried in order; a %s word gets the URL
# as it is, a %s inside a word gets it with shell syntax percent-encoded.
# The fake browser follows the URL to the loopback callback, as a person's
# would, in the background (mcphost waits for the command to exit).
server
cat >"$TMP/obrowser" <<EOS
#!/bin/sh
printf '%s\n' "\$1" >"$TMP/obrowser.arg"
(back=\$(curl -s -o /dev/null -w '%{redirect_url}' "\$2")
 curl -s -o /dev/null "\$back") >/dev/null 2>&1 &
EOS
chmod +x "$TMP/obrowser"
unset SSH_CONNECTION
DISPLAY=:0 BROWSER="$TMP/no-such-browser:$TMP/obrowser --url=%s %s" \
  MCPHOST_OAUTH_BROWSER=auto timeout 60 "$MCPHOST" --config "$C" mcp login srv \
  >"$TMP/out" 2>"$TMP/err" </dev/null
RC=$? OUT=$(cat "$TMP/out") ERR=$(cat "$TMP/err")
keep
expect "auto mode opens \$BROWSER by its rule and the login completes" 0 \
  --out 'Authorized server "srv"' --err "opened the browser"
grep -q '^--url=http://127.0.0.1:[0-9]*/authorize?response_type=code%26client_id=' \
  "$TMP/obrowser.arg" 2>/dev/null &&
  ok "... a %s inside a word got the URL with '&' percent-encoded" ||
  bad "the browser's --url word: $(cat "$TMP/obrowser.arg" 2>/dev/null)"

# --oauth-browser=MODE is an option of every command (the plugin's
# provides list declares it): a call with follow authorizes without a
# person, as MCPHOST_OAUTH_BROWSER=follow does; mcp login's own flag
# still wins over it.
server
orun --oauth-browser=follow --config "$C" call mcp__srv__whoami
expect "a call with the global --oauth-browser=follow authorizes and succeeds" 0 \
  --out "scope mcp:read"
[ "$(stat_of authorizations)" = 1 ] && ok "... with one authorization request" ||
  bad "authorized $(stat_of authorizations) times"
orun --oauth-browser=bogus --config "$C" mcp login srv --oauth-browser=follow
expect "mcp login's --oauth-browser wins over the global one" 0 \
  --out 'Authorized server "srv"' --no-err "is not auto, print or follow"
orun --help
expect "--help lists --oauth-browser" 0 --out "--oauth-browser=MODE"

# Discovery sends the MCP-Protocol-Version the session uses: the newest
# before any session (mcp login), the negotiated one after a 401 that
# came once the session had negotiated 2025-06-18 (the refresh token is
# dead too, so the full flow, discovery included, runs again).
server --protocol-version 2025-06-18 --refuse-after-initialize --kill-refresh
MCPHOST_OAUTH_BROWSER=follow orun --config "$C" mcp login srv
expect "login against a server that will speak 2025-06-18" 0 --out 'Authorized server "srv"'
v=$(curl -s "http://127.0.0.1:$NODE_PORT/stats" | jq -c '.discovery_versions | unique')
[ "$v" = '["2025-11-25"]' ] && ok "... discovery before any session sent the newest version" ||
  bad "login's discovery sent $v"
MCPHOST_OAUTH_BROWSER=follow orun --config "$C" call mcp__srv__whoami
expect "a 401 after the session negotiated is authorized again and the call succeeds" 0 \
  --out "scope mcp:read"
v=$(curl -s "http://127.0.0.1:$NODE_PORT/stats" | jq -c '.discovery_versions')
jq -e 'length > 2 and (.[-2:] | all(. == "2025-06-18"))' <<<"$v" >/dev/null &&
  ok "... and its discovery sent the negotiated 2025-06-18" ||
  bad "discovery versions: $v"

# A credential file that is not JSON is kept aside, never overwritten.
printf 'not json' >"$CREDS"
MCPHOST_OAUTH_BROWSER=follow orun --config "$C" mcp login srv
expect "a corrupt credential file: the login completes" 0 --out 'Authorized server "srv"'
grep -qx 'not json' "$CREDS".corrupt-* 2>/dev/null &&
  jq -e '.mcpOAuth | length == 1' "$CREDS" >/dev/null &&
  ok "... the unreadable file is kept aside as credentials.json.corrupt-TIME" ||
  bad "the corrupt file was not kept: $(ls "$XDG_STATE_HOME/mcphost")"

# No line mcphost wrote holds a token, code or secret the AS handed out.
secrets=$(grep -oE '(at|rt|code)-[0-9a-f]{24}' "$SRVLOG" | sort -u)
cat "$XDG_STATE_HOME"/mcphost/logs/* >>"$ALL_OUT" 2>/dev/null
leaked=""
for s in $secrets; do grep -qF "$s" "$ALL_OUT" && leaked="$leaked $s"; done
[ -n "$secrets" ] && [ -z "$leaked" ] &&
  ok "no token or code in any output or log line ($(echo "$secrets" | wc -l) secrets checked)" ||
  bad "leaked:${leaked:- (no secrets were seen at all)}"
finish
