#!/usr/bin/env bash
# The OAuth checks of the 2026-07-28 authorization scenarios
# (reference/mcp-2026-07-28.md §4.3), against our own authorization
# server (tests/servers/oauth_server.mjs): RFC 9207 iss (advertised and
# sent; not advertised and absent; advertised and missing; another
# issuer; unexpected and wrong; the issuer with a '/' added), metadata
# whose issuer is another one, a server that moves to another
# authorization server (SEP-2352), a PRM for another resource, and
# offline_access only where the AS lists it (SEP-2207). Each is a login
# in follow mode; a refusal never redeems the code.
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH MCPHOST_OAUTH_BROWSER
. "$(dirname "$0")/../lib/oauth.sh"
login() { MCPHOST_OAUTH_BROWSER=follow run --config "$C" mcp login srv; }
# refused NAME MESSAGE: the login failed with MESSAGE and no code was
# redeemed.
refused() {
  expect "$1" 7 --err "$2"
  [ "$(stat_of codes)" = 0 ] && ok "... and the code was never redeemed" ||
    bad "$(stat_of codes) codes redeemed"
}

server --iss-advertised --iss correct
login
expect "iss-supported: the advertised iss, the issuer's, is accepted" 0 \
  --out 'Authorized server "srv"'

server --iss omit
login
expect "iss-not-advertised: no iss, none promised: accepted" 0 \
  --out 'Authorized server "srv"'

server --iss-advertised --iss omit
login
refused "iss-supported-missing: no iss where the metadata promised it: refused" \
  "has no iss"

server --iss-advertised --iss wrong
login
refused "iss-wrong-issuer: another issuer's iss: refused" "another issuer (iss)"

server --iss wrong
login
refused "iss-unexpected: an iss nobody promised is still compared: refused" \
  "another issuer (iss)"

server --iss-advertised --iss normalized
login
refused "iss-normalized: the issuer with a '/' added is another string: refused" \
  "another issuer (iss)"

server --issuer-mismatch
login
expect "metadata-issuer-mismatch: metadata naming another issuer is refused" 7 \
  --err "issuer is not"
[ "$(stat_of registrations)" = 0 ] && [ "$(stat_of authorizations)" = 0 ] &&
  ok "... before registering or authorizing" ||
  bad "registered $(stat_of registrations), authorized $(stat_of authorizations)"

server --resource-mismatch
login
expect "resource-mismatch: a PRM for another resource is refused" 7 \
  --err "for another resource"
[ "$(stat_of authorizations)" = 0 ] && ok "... before any authorization request" ||
  bad "authorized $(stat_of authorizations) times"

server --offline-access
login
expect "offline-access-scope: the login works" 0 --out 'Authorized server "srv"'
[ "$(stat_of last_scope)" = "mcp:read offline_access" ] &&
  ok "... asking for offline_access, which the AS lists" ||
  bad "scope asked: $(stat_of last_scope)"
server
login
[ "$(stat_of last_scope)" = "mcp:read" ] &&
  ok "offline-access-not-supported: not asked for where the AS does not list it" ||
  bad "scope asked: $(stat_of last_scope)"

# authorization-server-migration: the first request is served, then the
# PRM names a second AS and the first AS's tokens are refused (its
# refresh tokens would still work there: they must not be used).
server --migrate-as
login
expect "authorization-server-migration: login at the first AS" 0 \
  --out 'Authorized server "srv"'
MCPHOST_OAUTH_BROWSER=follow run --config "$C" call mcp__srv__whoami
expect "... the call that meets the move authorizes at the new AS and succeeds" 0 \
  --out "scope mcp:read" --err "names another authorization server now"
[ "$(stat_of refreshes)" = 0 ] && ok "... without refreshing at the old AS" ||
  bad "refreshed $(stat_of refreshes) times at the old AS"
[ "$(stat_of as2_registrations)" = 1 ] && ok "... registering there anew" ||
  bad "registrations at the new AS: $(stat_of as2_registrations)"
[ "$(stat_of as2_foreign_client)" = 0 ] &&
  ok "... never presenting the first AS's client id to it" ||
  bad "the new AS saw another AS's client id $(stat_of as2_foreign_client) times"
jq -e '[.mcpOAuth[]] | length == 1 and (.[0].clientId | startswith("as2-"))' \
  "$XDG_STATE_HOME/mcphost/credentials.json" >/dev/null &&
  ok "... and the stored client is the new AS's" ||
  bad "stored: $(jq -c '.mcpOAuth[] | {issuer, clientId}' "$XDG_STATE_HOME/mcphost/credentials.json")"
finish
