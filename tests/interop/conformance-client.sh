#!/bin/sh
# The client the MCP conformance runner starts: it maps the scenario in
# MCP_CONFORMANCE_SCENARIO to mcphost commands. The server URL is the last
# argument. The runner's timeout only kills the shell, hence `exec` and
# mcphost's own --timeout.
#
# The auth/* scenarios: the runner's authorization server approves
# without a person, so the OAuth plugin follows the authorization URL's
# redirects itself (MCPHOST_OAUTH_BROWSER=follow); what the scenario
# passes in MCP_CONFORMANCE_CONTEXT (client ids, secrets, a private key,
# the IdP's token) becomes the server's "oauth" configuration keys and
# the xaaIdp setting, as a user would write them. Each run gets its own
# state (no credentials from an earlier one) and settings.
url=$(eval "echo \${$#}")
: "${MCPHOST:?MCPHOST must name the mcphost binary}"
set -- --timeout 20000 --url "c=$url"
case "$MCP_CONFORMANCE_SCENARIO" in
  initialize) exec "$MCPHOST" "$@" servers ;;
  tools_call) exec "$MCPHOST" "$@" call c/add_numbers a=2 b=3 ;;
  sse-retry) exec "$MCPHOST" "$@" call c/test_reconnection ;;
  elicitation-sep1034-client-defaults)
    # The policy both ways, the plugin option's flag and its environment
    # variable: either one alone is enough.
    MCPHOST_OPTION_ELICITATION=accept-defaults
    export MCPHOST_OPTION_ELICITATION
    exec "$MCPHOST" --elicitation=accept-defaults "$@" call c/test_client_elicitation_defaults ;;
  # 2026-07-28 (conformance-2026): the era is found by probing, as for any
  # server; each scenario's server is used through its tools, resources
  # and prompts.
  request-metadata) exec "$MCPHOST" "$@" servers ;;
  http-custom-headers)
    # The calls the scenario names, with their arguments, checked against
    # the tools' schemas as any call (a null for an optional parameter is
    # sent: SEP-2243 omits its header).
    printf '%s' "$MCP_CONFORMANCE_CONTEXT" | jq -c '.toolCalls[]' |
      while read -r tc; do
        "$MCPHOST" "$@" call "c/$(printf '%s' "$tc" | jq -r .name)" \
          "$(printf '%s' "$tc" | jq -c '.arguments')" || exit 1
      done
    exit ;;
  sep-2322-client-request-state | http-standard-headers | \
    http-invalid-tool-headers | json-schema-ref-no-deref)
    # Every tool the client keeps is called; every resource read and
    # prompt got. An elicitation is accepted with its defaults. What a
    # mock does not serve (json-schema-ref-no-deref has no tools/call)
    # fails that one command; the checks say what counts.
    set -- --elicitation=accept-defaults "$@"
    tools=$("$MCPHOST" "$@" --json tools c) || exit 1
    for t in $(printf '%s' "$tools" | jq -r '.[].tool'); do
      "$MCPHOST" "$@" call "c/$t" --no-validate '{}' || true
    done
    res=$("$MCPHOST" "$@" --json resources c 2>/dev/null) || res='[]'
    for u in $(printf '%s' "$res" | jq -r '.[] | select(.kind == "resource") | .uri'); do
      "$MCPHOST" "$@" read c "$u" || true
    done
    pr=$("$MCPHOST" "$@" --json prompts c 2>/dev/null) || pr='[]'
    for p in $(printf '%s' "$pr" | jq -r '.[].prompt'); do
      "$MCPHOST" "$@" prompt "c/$p" || true
    done
    exit 0 ;;
  json-schema-2020-12-preservation)
    # The focal tool's inputSchema as `tools --json` prints it, sent back
    # through the echo tool: what mcphost kept is what the server sees.
    schema=$("$MCPHOST" "$@" --json tools c |
      jq -c '.[] | select(.tool == "json_schema_2020_12_tool") | .inputSchema') || exit 1
    [ -n "$schema" ] || exit 1
    exec "$MCPHOST" "$@" call c/json_schema_echo --no-validate \
      "$(jq -nc --argjson s "$schema" '{schema: $s}')" ;;
  auth/*) ;;
  *) echo "conformance-client: no mapping for scenario '$MCP_CONFORMANCE_SCENARIO'" >&2; exit 2 ;;
esac

dir=$(mktemp -d "${TMPDIR:-/tmp}/mcphost-conf-auth.XXXXXX")
trap 'rm -rf "$dir"' EXIT
mkdir -m 700 "$dir/state" "$dir/config"
XDG_STATE_HOME="$dir/state" XDG_CONFIG_HOME="$dir/config"
MCPHOST_OAUTH_BROWSER=follow
export XDG_STATE_HOME XDG_CONFIG_HOME MCPHOST_OAUTH_BROWSER
ctx=${MCP_CONFORMANCE_CONTEXT:-"{}"}
get() { printf '%s' "$ctx" | jq -r --arg k "$1" '.[$k] // empty'; }
oauth='{}'
add() { oauth=$(printf '%s' "$oauth" | jq -c --arg k "$1" --argjson v "$2" '.[$k] = $v'); }
str() { jq -nc --arg v "$1" '$v'; }
[ -n "$(get client_id)" ] && add clientId "$(str "$(get client_id)")"
if [ -n "$(get client_secret)" ]; then
  # The secret through the environment, never on the command line.
  MCPHOST_CONFORMANCE_SECRET=$(get client_secret)
  export MCPHOST_CONFORMANCE_SECRET
  add clientSecretEnv '"MCPHOST_CONFORMANCE_SECRET"'
fi
case "$MCP_CONFORMANCE_SCENARIO" in
  auth/client-credentials-*) add grant '"client_credentials"' ;;
esac
if [ -n "$(get private_key_pem)" ]; then
  (umask 077 && get private_key_pem >"$dir/key.pem")
  add privateKeyFile "$(str "$dir/key.pem")"
  add tokenEndpointAuth '"private_key_jwt"'
  add signingAlgorithm "$(str "$(get signing_algorithm)")"
fi
if [ -n "$(get idp_id_token)" ]; then
  # The suite's IdP signs the ID token with a key only the scenario holds
  # and has no authorization endpoint, so a login there (`mcp login --idp`)
  # cannot be made: its ID token comes as a file. The IdP's token endpoint
  # is found by OpenID Connect discovery from the issuer, as after a login
  # (idp_token_endpoint is not passed on).
  (umask 077 && get idp_id_token >"$dir/id_token")
  add xaa true
  mkdir -p "$dir/config/mcphost"
  jq -n --arg i "$(get idp_issuer)" --arg c "$(get idp_client_id)" \
    --arg f "$dir/id_token" \
    '{xaaIdp: {issuer: $i, clientId: $c, idTokenFile: $f}}' \
    >"$dir/config/mcphost/settings.json"
fi
# The Client ID Metadata Document the suite expects; used only where the
# authorization server says it supports CIMD.
add clientMetadataUrl '"https://conformance-test.local/client-metadata.json"'
cfg=$(jq -nc --arg u "$url" --argjson o "$oauth" \
  '{mcpServers: {c: {type: "http", url: $u, oauth: $o}}}')
"$MCPHOST" --timeout 20000 --mcp-config "$cfg" call c/test-tool
