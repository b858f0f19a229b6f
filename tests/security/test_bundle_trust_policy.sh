#!/usr/bin/env bash
# The administrator's bundles.requireSignature cannot be met with an
# anchor the user supplies. The attack: a CA the user (or whoever talks
# them into it) made, with "Anthropic, PBC" as its subject, passed with
# --trust: before the fix the bundle installed under the managed policy
# and `bundle list` showed it "signed" for good. Now, under the policy,
# only the system trust store and the administrator's bundles.trustedCAs
# count; without the policy a status that needed --trust is recorded and
# shown as "signed (user trust)".
. "$(dirname "$0")/../lib/lib.sh"
FX="$SRCDIR/bundles/testdata"
CA="$FX/certs/lab-root-ca.pem"
BUNDLE="$FX/hello-bin-0.3.0.ca-signed.mcpb"
mkdir -p "$TMP/system"
policy() { printf '%s\n' "$1" >"$TMP/system/managed-settings.json"; }

policy '{"bundles": {"requireSignature": true}}'
run bundle install "$BUNDLE" --yes --trust "$CA"
expect "under requireSignature, a --trust anchor does not make it signed" 8 \
  --err "signed only for the anchor given with --trust"
run bundle list --json
expect "  and nothing was installed" 0 --jq 'length == 0'

policy "{\"bundles\": {\"requireSignature\": true, \"trustedCAs\": [\"$CA\"]}}"
run bundle install "$BUNDLE" --yes
expect "the administrator's bundles.trustedCAs anchor meets the policy" 0 \
  --out "Installed hello-bin"
run bundle list
expect "  and it is listed signed, not as user trust" 0 --out "signed" \
  --no-out "user trust"
run bundle verify "$BUNDLE" --json
expect "  verify says signed with system trust" 0 \
  --jq '.signature == "signed" and .trust == "system"'
run bundle remove hello-bin --yes

rm "$TMP/system/managed-settings.json"
run bundle install "$BUNDLE" --yes --trust "$CA"
expect "without the policy --trust installs it" 0 --out "Installed hello-bin"
run bundle list
expect "  and list shows signed (user trust)" 0 --out "signed (user trust)"
run bundle list --json
expect "  and --json says trust user" 0 \
  --jq '.[0].signature == "signed" and .[0].trust == "user"'
run bundle verify "$BUNDLE" --json --trust "$CA"
expect "verify --trust says signed with user trust" 0 \
  --jq '.signature == "signed" and .trust == "user"'
finish
