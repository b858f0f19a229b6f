#!/usr/bin/env bash
# The OAuth plugin over the sse and ws transports, against the loopback
# AS and resource of tests/servers/oauth_server.mjs (the same resource on
# GET /sse and on a WebSocket upgrade on /ws): a run no one can approve
# names the login command, mcp login authorizes, a later call uses the
# stored token, an expired one is refreshed, and a run that authorizes
# itself (follow) connects again after the 401 and succeeds. The resource answers only a
# valid Bearer, so each check fails if the transport does not consult the
# auth provider (the challenge handed over, the value taken).
. "$(dirname "$0")/../lib/lib.sh"
unset MCPHOST_PLUGIN_PATH MCPHOST_OAUTH_BROWSER
# stat_of and edit_creds; its server() is not used: each transport's
# resource starts below.
. "$(dirname "$0")/../lib/oauth.sh"

# check_transport TYPE URL-PATH SCHEME
check_transport() {
  local type=$1 path=$2 scheme=$3 C
  start_node "$SRCDIR/tests/servers/oauth_server.mjs" || exit 1
  C="$TMP/oauth-$type.json"
  config_file "$C" "{\"$type\": {\"type\": \"$type\", \"url\": \"$scheme://127.0.0.1:$NODE_PORT$path\"}}"
  rm -rf "$XDG_STATE_HOME/mcphost"

  run --config "$C" call "mcp__${type}__whoami"
  expect "$type: a run that no one can approve fails as needing authorization and names the login command" 7 \
    --err "is not authorized yet; run \`mcphost mcp login $type\`"
  [ "$(stat_of unauthorized)" -ge 1 ] && [ "$(stat_of "${type}_requests")" -ge 1 ] &&
    [ "$(stat_of authorizations)" = 0 ] &&
    ok "$type: ... the 401 came from the $type endpoint, no authorization request sent" ||
    bad "$type: unauthorized $(stat_of unauthorized), ${type} requests $(stat_of "${type}_requests"), authorizations $(stat_of authorizations)"

  run --config "$C" mcp login "$type" --oauth-browser=follow
  expect "$type: mcp login --oauth-browser=follow authorizes and stores the tokens" 0 \
    --out "Authorized server \"$type\""

  local before
  before=$(stat_of "${type}_requests")
  run --config "$C" call "mcp__${type}__whoami"
  expect "$type: a later call succeeds with the stored token" 0 --out "scope mcp:read"
  [ "$(stat_of authorizations)" = 1 ] && [ "$(stat_of "${type}_requests")" -gt "$before" ] &&
    ok "$type: ... over $type, without authorizing again" ||
    bad "$type: authorizations $(stat_of authorizations), $type requests $before -> $(stat_of "${type}_requests")"

  edit_creds '.mcpOAuth[].expiresAt = 1000'
  local old_rt new_rt
  old_rt=$(jq -r '.mcpOAuth[].refreshToken' "$CREDS")
  run --config "$C" call "mcp__${type}__whoami"
  expect "$type: an expired access token is refreshed and the call succeeds" 0 --out "scope mcp:read"
  new_rt=$(jq -r '.mcpOAuth[].refreshToken' "$CREDS")
  [ "$(stat_of refreshes)" = 1 ] && [ -n "$new_rt" ] && [ "$new_rt" != "$old_rt" ] &&
    [ "$(stat_of authorizations)" = 1 ] &&
    ok "$type: ... once, the rotated refresh token stored, no new authorization" ||
    bad "$type: refreshes $(stat_of refreshes), authorizations $(stat_of authorizations), refresh token $old_rt -> $new_rt"

  # A run that can authorize (follow): the $type connection that ended on
  # the 401 connects again within the run with the new tokens.
  rm -rf "$XDG_STATE_HOME/mcphost"
  run --oauth-browser=follow --config "$C" call "mcp__${type}__whoami"
  expect "$type: a run whose connection ended on a 401 it then authorized connects again and the call succeeds" 0 \
    --out "scope mcp:read"
  [ "$(stat_of authorizations)" = 2 ] &&
    ok "$type: ... with one more authorization, in that run" ||
    bad "$type: authorizations $(stat_of authorizations)"
}

check_transport sse /sse http
check_transport ws /ws ws
finish
