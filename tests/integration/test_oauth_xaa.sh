#!/usr/bin/env bash
# Cross-app access (SEP-990) with the login at the identity provider:
# `mcp login --idp` against an OpenID Connect IdP of ours
# (tests/servers/oidc_idp.mjs: discovery, authorize with PKCE, id_token and
# refresh_token, the token exchange), two MCP servers with their own
# authorization servers (tests/servers/oauth_server.mjs, jwt-bearer), the
# browser step followed without a browser (--oauth-browser=follow). One
# login serves both servers; an expiring ID token is renewed with the
# refresh token without a browser; logout removes the login; a run with no
# person and no login exits 7 naming the command.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH MCPHOST_OAUTH_BROWSER
ALL_OUT="$TMP/all-output"
: >"$ALL_OUT"
# Every run's output is kept, to look for tokens in it at the end.
orun() { run "$@"; cat "$TMP/out" "$TMP/err" >>"$ALL_OUT"; }
CREDS="$XDG_STATE_HOME/mcphost/credentials.json"

start_node "$SRCDIR/tests/servers/oidc_idp.mjs" || exit 1
IDP="http://127.0.0.1:$NODE_PORT"
idp_stat() { curl -s "$IDP/stats" | jq -r ".$1 // 0"; }
start_node "$SRCDIR/tests/servers/oauth_server.mjs" || exit 1
P1=$NODE_PORT
start_node "$SRCDIR/tests/servers/oauth_server.mjs" || exit 1
P2=$NODE_PORT
as_stat() { curl -s "http://127.0.0.1:$1/stats" | jq -r ".$2 // 0"; }

mkdir -p "$XDG_CONFIG_HOME/mcphost"
printf '{"xaaIdp": {"issuer": "%s", "clientId": "idp-client"}}\n' "$IDP" \
  >"$XDG_CONFIG_HOME/mcphost/settings.json"
C="$TMP/xaa.json"
xaa='"oauth": {"xaa": true, "clientId": "mcp-client"}'
config_file "$C" "{\"one\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$P1/mcp\", $xaa},
  \"two\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:$P2/mcp\", $xaa}}"

orun --config "$C" call mcp__one__whoami
expect "without an IdP login a run that no one can answer exits 7 naming the command" 7 \
  --err 'run `mcphost mcp login --idp`'
[ "$(idp_stat authorizations)" = 0 ] && ok "... without an authorization request at the IdP" ||
  bad "the IdP got $(idp_stat authorizations) authorization requests"

orun --config "$C" mcp login --idp http://127.0.0.1:1
expect "mcp login --idp with another issuer is refused, naming the configured one" 2 \
  --err "is not the configured identity provider (xaaIdp.issuer is $IDP)"

orun --config "$C" mcp login --idp "$IDP" --oauth-browser=follow
expect "mcp login --idp logs in at the IdP (OIDC discovery, code with PKCE)" 0 \
  --out "Logged in at the identity provider $IDP"
[ "$(idp_stat codes)" = 1 ] && [ "$(idp_stat last_scope)" = "openid offline_access" ] &&
  ok "... asking for openid and offline_access, which the IdP offers" ||
  bad "codes $(idp_stat codes), scope '$(idp_stat last_scope)'"
entry=".mcpXaaIdp[\"$IDP|idp-client\"]"
jq -e "$entry | (.idToken | split(\".\") | length == 3) and (.refreshToken | startswith(\"idp-rt-\")) and .expiresAt > 0" \
  "$CREDS" >/dev/null && [ "$(stat -c %a "$CREDS")" = 600 ] &&
  ok "... the ID token and refresh token are kept in credentials.json (0600) by issuer and client" ||
  bad "stored: $(jq -c '.mcpXaaIdp' "$CREDS" 2>/dev/null)"

orun --config "$C" mcp auth-status --json
expect "auth-status shows the IdP login, never its tokens" 0 \
  --jq ".[] | select(.identityProvider == \"$IDP\") | .token == true and .refreshable == true and .clientId == \"idp-client\"" \
  --no-out 'idp-rt-' --no-out 'eyJ'
orun --config "$C" mcp auth-status
expect "... and in text" 0 --out "identity provider $IDP: authenticated"

orun -vvv --config "$C" call mcp__one__whoami
expect "a run with no person: server one gets a token by the token exchange and jwt-bearer" 0 \
  --out "scope mcp:read"
orun --config "$C" call mcp__two__whoami
expect "... and server two with the same IdP login" 0 --out "scope mcp:read"
[ "$(idp_stat authorizations)" = 1 ] && [ "$(idp_stat exchanges)" = 2 ] &&
  [ "$(as_stat "$P1" jwt_bearer)" = 1 ] && [ "$(as_stat "$P2" jwt_bearer)" = 1 ] &&
  ok "... one IdP authorization served both servers (2 exchanges, one jwt-bearer grant at each AS)" ||
  bad "IdP authorizations $(idp_stat authorizations), exchanges $(idp_stat exchanges), jwt-bearer $(as_stat "$P1" jwt_bearer)/$(as_stat "$P2" jwt_bearer)"

# The ID token expires within its refresh margin: the next exchange renews
# it with the refresh token (rotated), without a browser.
old_rt=$(jq -r "$entry.refreshToken" "$CREDS")
jq "$entry.expiresAt = 1000 | $entry.issuedAt = 0 | del(.mcpOAuth)" "$CREDS" >"$CREDS.new" &&
  chmod 600 "$CREDS.new" && mv "$CREDS.new" "$CREDS"
orun --config "$C" call mcp__one__whoami
expect "an expired ID token is renewed by the refresh token and the call succeeds" 0 \
  --out "scope mcp:read"
new_rt=$(jq -r "$entry.refreshToken" "$CREDS")
[ "$(idp_stat refreshes)" = 1 ] && [ "$(idp_stat authorizations)" = 1 ] &&
  [ "$new_rt" != "$old_rt" ] && jq -e "$entry.expiresAt > 1000" "$CREDS" >/dev/null &&
  ok "... once, without an authorization request, the rotated refresh token and new expiry stored" ||
  bad "refreshes $(idp_stat refreshes), authorizations $(idp_stat authorizations), rt $old_rt -> $new_rt"

# The IdP refuses the ID token of the stored login (revoked there): it is
# forgotten and renewed with the refresh token once, in the same run.
curl -s -X POST "$IDP/forget" >/dev/null
refused=$(idp_stat refused) refreshes=$(idp_stat refreshes)
jq 'del(.mcpOAuth)' "$CREDS" >"$CREDS.new" && chmod 600 "$CREDS.new" && mv "$CREDS.new" "$CREDS"
orun --config "$C" call mcp__two__whoami
expect "an ID token the IdP refuses in the exchange is renewed once and the call succeeds" 0 \
  --out "scope mcp:read"
[ "$(idp_stat refused)" = $((refused + 1)) ] && [ "$(idp_stat refreshes)" = $((refreshes + 1)) ] &&
  [ "$(idp_stat authorizations)" = 1 ] &&
  ok "... one refused exchange, one refresh, no authorization request" ||
  bad "refused $(idp_stat refused) (was $refused), refreshes $(idp_stat refreshes) (was $refreshes), authorizations $(idp_stat authorizations)"

# A refresh token the IdP refuses: the login is dropped, and a run with no
# person names the command again.
jq "$entry.expiresAt = 1000 | $entry.refreshToken = \"idp-rt-dead\" | del(.mcpOAuth)" "$CREDS" >"$CREDS.new" &&
  chmod 600 "$CREDS.new" && mv "$CREDS.new" "$CREDS"
orun --config "$C" call mcp__two__whoami
expect "a refused IdP refresh token exits 7 naming the login" 7 \
  --err 'the refresh token was refused (invalid_grant) at the identity provider' \
  --err 'run `mcphost mcp login --idp`'

orun --config "$C" mcp login --idp --oauth-browser=follow
expect "mcp login --idp without ISSUER uses the configured one" 0 --out "Logged in at the identity provider"
orun --config "$C" mcp logout --idp
expect "mcp logout --idp removes the IdP login and revokes its refresh token" 0 \
  --out "Logged out of the identity provider (refresh token revoked)"
jq -e '(.mcpXaaIdp // {}) | length == 0' "$CREDS" >/dev/null &&
  [ "$(idp_stat revocations)" = 1 ] && ok "... it is gone from credentials.json" ||
  bad "left: $(jq -c '.mcpXaaIdp' "$CREDS")"
orun --config "$C" mcp logout --idp
expect "a second logout says there is none" 0 --out "No identity provider login stored"
jq 'del(.mcpOAuth)' "$CREDS" >"$CREDS.new" && chmod 600 "$CREDS.new" && mv "$CREDS.new" "$CREDS"
orun --config "$C" call mcp__one__whoami
expect "after logout a run with no person exits 7 naming the login" 7 \
  --err 'run `mcphost mcp login --idp`'

# A person at the terminal is not needed when the mode is follow: the
# call logs in at the IdP itself.
orun --oauth-browser=follow --config "$C" call mcp__one__whoami
expect "a call in follow mode logs in at the IdP itself" 0 --out "scope mcp:read"
[ "$(idp_stat authorizations)" = 3 ] && ok "... with one more IdP authorization" ||
  bad "IdP authorizations $(idp_stat authorizations)"

# idTokenFile (an ID token got elsewhere) still works, and the token
# endpoint is found by OIDC discovery when not configured.
jq -r "$entry.idToken" "$CREDS" >"$TMP/idt"
printf '{"xaaIdp": {"issuer": "%s", "clientId": "idp-client", "idTokenFile": "%s"}}\n' \
  "$IDP" "$TMP/idt" >"$XDG_CONFIG_HOME/mcphost/settings.json"
rm -f "$CREDS"
before=$(idp_stat authorizations)
orun --config "$C" call mcp__two__whoami
expect "idTokenFile without tokenEndpoint: the endpoint is discovered, the call succeeds" 0 \
  --out "scope mcp:read"
[ "$(idp_stat authorizations)" = "$before" ] && ok "... without a login" ||
  bad "the IdP got an authorization request"

# An issuer that is neither https nor loopback http is never asked.
printf '{"xaaIdp": {"issuer": "http://idp.example", "clientId": "idp-client"}}\n' \
  >"$XDG_CONFIG_HOME/mcphost/settings.json"
orun --config "$C" mcp login --idp --oauth-browser=follow
expect "an http issuer that is not loopback is refused before any request" 7 \
  --err 'xaaIdp.issuer http://idp.example is not https'
rm "$XDG_CONFIG_HOME/mcphost/settings.json"
orun --config "$C" mcp login --idp
expect "mcp login --idp without xaaIdp says where to set it" 2 \
  --err 'no identity provider configured: set xaaIdp {issuer, clientId}'

leaked=$(grep -oE 'idp-(rt|at|code)-[0-9a-f]+|eyJ[A-Za-z0-9_-]+|\b(at|rt)-[0-9a-f]{24}' "$ALL_OUT" | head -3)
[ -z "$leaked" ] && ok "no ID token, refresh token, code or access token in any output (-vvv included)" ||
  bad "leaked: $leaked"
finish
