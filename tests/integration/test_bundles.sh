#!/usr/bin/env bash
# MCPB bundles (docs/bundles.md): the samples made with the official CLI
# (bundles/testdata, reference/mcpb.md §8) install, verify or are
# refused as documented; bundles packed here by the official CLI install
# and their tools are called; `bundle pack` and `bundle sign` output is
# accepted by the official CLI.
. "$(dirname "$0")/../lib/lib.sh"
FX="$SRCDIR/bundles/testdata"
MCPB="$INTEROP/node_modules/.bin/mcpb"
BUNDLES="$HOME/.local/share/mcphost/bundles"

# ---- signatures of the samples ----
run bundle verify "$FX/hello-node-1.0.0.mcpb" --json
expect "an unsigned sample verifies as unsigned" 0 \
  --jq '.signature == "unsigned"'
run bundle verify "$FX/hello-node-1.0.0.selfsigned.mcpb" --json
expect "the self-signed sample verifies as self-signed, publisher named" 0 \
  --jq '.signature == "self-signed" and .publisher == "MCPB Self-Signed Certificate" and (.fingerprint | length) == 64'
run bundle verify "$FX/hello-bin-0.3.0.ca-signed.mcpb" --json \
  --trust "$FX/certs/lab-root-ca.pem"
expect "the CA-signed sample is signed with its CA trusted" 0 \
  --jq '.signature == "signed" and .publisher == "MCPB Lab Publisher" and .issuer == "MCPB Lab Root CA"'
run bundle verify "$FX/hello-bin-0.3.0.ca-signed.mcpb" --json
expect "the CA-signed sample is unsigned without its CA (not trusted)" 0 \
  --jq '.signature == "unsigned" and (.reason | test("not trusted"))'
run bundle verify "$FX/malicious/tampered-signed.mcpb" --json
expect "the tampered sample is invalid, exit 8" 8 \
  --jq '.signature == "invalid"'
run bundle install "$FX/malicious/tampered-signed.mcpb" --yes
expect "a tampered bundle is refused" 8 --err "signature is invalid"
check "a refused bundle installed nothing" test ! -e "$BUNDLES/hello-bin"

# The padded (externally signed) layout: EOCD comment length 16384, the
# block padded with zeros to 16 KiB, and a trailer over 16 KiB.
python3 - "$FX" "$TMP" <<'PY'
import struct, subprocess, sys
fx, tmp = sys.argv[1], sys.argv[2]
d = open(fx + "/hello-bin-0.3.0.ca-signed.mcpb", "rb").read()
h = d.rfind(b"MCPB_SIG_V1"); n = struct.unpack("<I", d[h+11:h+15])[0]
zipb, der = d[:h], d[h+15:h+15+n]
block = b"MCPB_SIG_V1" + struct.pack("<I", n) + der
block += b"\0" * (16384 - len(block) - 12) + b"MCPB_SIG_END"
open(tmp + "/padded.mcpb", "wb").write(zipb + block)
big = b"MCPB_SIG_V1" + struct.pack("<I", n) + der + b"\0" * 20000 + b"MCPB_SIG_END"
open(tmp + "/bigtrailer.mcpb", "wb").write(zipb + big)
junk = b"MCPB_SIG_V1" + struct.pack("<I", n) + der + b"\1" + b"MCPB_SIG_END"
open(tmp + "/junkpad.mcpb", "wb").write(zipb + junk)
far = b"MCPB_SIG_V1" + struct.pack("<I", n) + der + b"\0" * 300000 + b"MCPB_SIG_END"
open(tmp + "/farheader.mcpb", "wb").write(zipb + far)
PY
run bundle verify "$TMP/padded.mcpb" --json --trust "$FX/certs/lab-root-ca.pem"
expect "zero padding before the footer is tolerated" 0 \
  --jq '.signature == "signed"'
run bundle install "$TMP/bigtrailer.mcpb" --yes
expect "a trailer over 16 KiB: the ZIP bytes alone are opened" 0 \
  --out "Installed hello-bin 0.3.0"
check "  with the exec bit of server/hello-bin kept" \
  test "$(stat -c %a "$BUNDLES/hello-bin/server/hello-bin")" = 755
check "  and 0644 for the others" \
  test "$(stat -c %a "$BUNDLES/hello-bin/icon.png")" = 644
run bundle verify "$TMP/junkpad.mcpb" --json
expect "bytes other than zeros before the footer: invalid" 8 \
  --jq '.signature == "invalid"'
# Only the file's last 256 KiB are read for the trailer.
run bundle verify "$TMP/farheader.mcpb" --json
expect "a signature header further than 256 KiB from the end is refused" 3 \
  --err "its signature is invalid: the signature footer has no header" \
  --err "in the file's last 256 KiB"
run bundle remove hello-bin
expect "bundle remove" 0 --out "Removed hello-bin"
check "  removes its directory" test ! -e "$BUNDLES/hello-bin"

# ---- policy ----
mkdir -p "$TMP/system"
printf '{"bundles": {"requireSignature": true}}\n' \
  >"$TMP/system/managed-settings.json"
run bundle install "$FX/hello-node-1.0.0.mcpb" --yes \
  --config allowed_dirs=/tmp
expect "bundles.requireSignature refuses an unsigned bundle" 8 \
  --err "bundles.requireSignature"
run bundle install "$FX/hello-node-1.0.0.selfsigned.mcpb" --yes \
  --config allowed_dirs=/tmp
expect "  and a self-signed one" 8 --err "this one is self-signed"
rm "$TMP/system/managed-settings.json"

# ---- install, configure, call ----
run bundle install "$FX/hello-node-1.0.0.mcpb"
expect "a required setting needs a value without a terminal (its default does not count)" 2 \
  --err "--config allowed_dirs=VALUE"
check "  and nothing is installed" test ! -e "$BUNDLES/hello-node"
run bundle install "$FX/hello-node-1.0.0.mcpb" --config max_results=500 \
  --config allowed_dirs=/tmp
expect "a number above its max is refused" 2 --err "above the maximum 100"
mkdir -p "$TMP/a" "$TMP/b"
run bundle install "$FX/hello-node-1.0.0.mcpb" --config "allowed_dirs=$TMP/a" \
  --config "allowed_dirs=$TMP/b" --config api_key='pa$$w$&rd' \
  --config max_results=42 --config verbose=true
expect "the node sample installs with --config answers" 0 \
  --out "Name:        hello-node" --out "Signature:   unsigned" \
  --out "Tools:       hello" --out "allowed_dirs (directory, required, multiple)" \
  --out "Installed hello-node 1.0.0"
check "  its settings are 0600" \
  test "$(stat -c %a "$BUNDLES/.settings/hello-node.json")" = 600
check "  the sensitive value is not in them" \
  bash -c "! grep -qF 'pa\$\$w' '$BUNDLES/.settings/hello-node.json'"
check "  but in the secrets store, 0600" test "$(stat -c %a \
  "$XDG_STATE_HOME/mcphost/secrets/mcphost.feature.mcpb/hello-node--api_key")" = 600
run mcp list --json
expect "an installed bundle is a server of scope bundle named after its manifest" 0 \
  --jq '.[] | select(.name == "hello-node") | .scope == "bundle"'
run call mcp__hello-node__hello name=Ada
expect "its tool is called (substituted arguments, lists spliced, defaults)" 0 \
  --out "Hello, Ada!" \
  --out "argv=[\"--max=42\",\"--verbose=true\",\"$TMP/a\",\"$TMP/b\"]" \
  --out "GREETING=Hi"
# Policy, permissions and the duplicate rule apply to bundle servers.
mkdir -p "$TMP/system" "$XDG_CONFIG_HOME/mcphost"
printf '{"deniedMcpServers": [{"serverName": "hello-node"}]}\n' \
  >"$TMP/system/managed-settings.json"
run call mcp__hello-node__hello name=Ada
expect "a bundle server on the deny list is refused" 8
rm "$TMP/system/managed-settings.json"
printf '{"permissions": {"deny": ["mcp__hello-node__hello"]}}\n' \
  >"$XDG_CONFIG_HOME/mcphost/settings.json"
run call mcp__hello-node__hello name=Ada
expect "a permission rule denies a bundle's tool" 8 --no-out "Hello, Ada!"
rm "$XDG_CONFIG_HOME/mcphost/settings.json"
run mcp list --json
args=$(jq -c '.[] | select(.name == "hello-node") | .args' <<<"$OUT")
config_file "$TMP/dup.json" \
  "{\"mine\": {\"command\": \"node\", \"args\": $args}}"
run --config "$TMP/dup.json" servers
expect "a bundle with the command of a server configured by hand is skipped" 0 \
  --err 'MCP server "hello-node" skipped' --out "mine"
run bundle list --json
expect "bundle list" 0 \
  --jq '.[0].name == "hello-node" and .[0].enabled and .[0].signature == "unsigned"'
run bundle configure hello-node greeting=Salut
expect "bundle configure" 0 --out "Configured hello-node"
run call mcp__hello-node__hello name=Ada
expect "  its answer is used, the others kept" 0 --out "GREETING=Salut" \
  --out "--max=42"
run bundle configure hello-node nope=1
expect "  an unknown key is refused" 2 --err 'no setting "nope"'
run bundle disable hello-node
expect "bundle disable" 0
run call mcp__hello-node__hello name=Ada
expect "  a disabled bundle is no server" 6
run bundle enable hello-node
run call mcp__hello-node__hello name=Ada
expect "bundle enable brings it back" 0 --out "Hello, Ada!"
run bundle info hello-node --json
expect "bundle info NAME" 0 \
  --jq '.name == "hello-node" and .version == "1.0.0" and .values.greeting == "Salut"'
run bundle info "$FX/hello-bin-0.3.0.mcpb" --json
expect "bundle info FILE: tools, prompts, settings" 0 \
  --jq '.tools == ["noop"] and .prompts == ["poem"] and .manifest_version == "0.3" and .user_config[0].key == "workspace"'
run bundle info nothere
expect "bundle info of a bundle not installed: exit 6" 6 --err 'no bundle "nothere"'

# Re-installing keeps the answers (the selfsigned sample is the same
# bundle, signed).
run bundle install "$FX/hello-node-1.0.0.selfsigned.mcpb" --yes
expect "re-installing needs no answers again" 0 --out "Installed hello-node" \
  --err "hello-node 1.0.0 is installed: it is replaced, its answers kept"
run call mcp__hello-node__hello name=Ada
expect "  and keeps them, the sensitive one too" 0 --out "GREETING=Salut"
run bundle list --json
expect "  its signature status is the new one" 0 \
  --jq '.[0].signature == "self-signed"'

# ---- the other samples ----
run bundle install "$FX/hello-bin-0.3.0.mcpb" --yes
expect "the binary sample (0.3, platform_overrides) installs" 0 \
  --out "Installed hello-bin 0.3.0"
run servers --json
expect "  and its server starts" 0 \
  --jq '.[] | select(.name == "hello-bin") | .state == "connected"'
python3 - "$FX/hello-bin-0.3.0.mcpb" "$TMP/noexec.mcpb" <<'PY'
import sys, zipfile
src, out = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2], "w")
for i in src.infolist():
    data = src.read(i)
    if i.filename == "server/hello-bin":
        i.external_attr = 0o644 << 16
    out.writestr(i, data)
out.close()
PY
run bundle install "$TMP/noexec.mcpb" --yes
expect "a binary bundle whose command is not executable is refused" 3 \
  --err 'the server command "server/hello-bin" is not an executable file of the bundle'
# A bundle packed without the file its manifest names as entry point:
# that is what is said, not a failed extraction.
python3 - "$FX/hello-node-1.0.0.mcpb" "$TMP/noentry.mcpb" <<'PY'
import sys, zipfile
src, out = zipfile.ZipFile(sys.argv[1]), zipfile.ZipFile(sys.argv[2], "w")
for i in src.infolist():
    if i.filename != "server/index.js":
        out.writestr(i, src.read(i))
out.close()
PY
run bundle install "$TMP/noentry.mcpb" --yes --config "allowed_dirs=$TMP"
expect "a bundle without its entry point says so, naming it" 3 \
  --err "Cannot install MCPB $TMP/noentry.mcpb: the entry point \"server/index.js\" that its manifest names (server.entry_point) is missing from the bundle" \
  --no-err "Failed to extract"
check "  and left no temporary directory" \
  bash -c "! ls -a '$BUNDLES' | grep -q '^.tmp-'"
run bundle install "$FX/hello-uv-0.4.0.mcpb" --yes
if command -v uv >/dev/null; then
  expect "the uv sample (0.4) installs" 0
else
  expect "the uv sample says uv is needed" 3 --err "uv is not on PATH: install uv"
fi

# ---- the samples' refusals ----
for f in dotdot absolute symlink; do
  run bundle install "$FX/malicious/$f.mcpb" --yes
  expect "malicious/$f.mcpb is refused" 3 --err "Failed to extract MCPB"
done
check "  and left no directory of theirs" test ! -e "$BUNDLES/evil"
check "  nor a temporary one" \
  bash -c "! ls -a '$BUNDLES' | grep -q '^.tmp-'"

# ---- the manifest validator's messages ----
mk_bundle() { # mk_bundle MANIFEST OUT [FILE...]: FILEs at the root too
  python3 -c 'import os,sys,zipfile
z=zipfile.ZipFile(sys.argv[2],"w"); z.write(sys.argv[1],"manifest.json")
z.writestr("server/index.js","x")
for f in sys.argv[3:]: z.write(f, os.path.basename(f))
z.close()' "$@"
}
while IFS='|' read -r name msg; do
  mk_bundle "$FX/invalid-manifests/$name.json" "$TMP/$name.mcpb"
  run bundle install "$TMP/$name.mcpb" --yes
  expect "invalid-manifests/$name: the validator's message" 3 \
    --err "MCPB manifest invalid at $TMP/$name.mcpb:manifest.json: $msg"
done <<'LIST'
bad_email_url|author.email: Invalid email; author.url: Invalid url
bad_icons_localization_0_3|icons.0.size: size must be in the format "WIDTHxHEIGHT" (e.g., "16x16"); localization.resources: resources must include a "${locale}" placeholder; localization.default_locale: default_locale must be a valid BCP 47 locale identifier
bad_user_config|user_config.k.type: Invalid enum value. Expected 'string' | 'number' | 'boolean' | 'directory' | 'file', received 'path'; user_config.k.description: Required
mcp_config_no_command|server.mcp_config.command: Required
missing_author_desc|description: Required; author: Required
no_version|Unrecognized or unsupported manifest version
uv_0_4_no_mcp_config|server.mcp_config: Required
uv_in_0_2|server.type: Invalid enum value. Expected 'python' | 'node' | 'binary', received 'uv'
bad_json|Invalid JSON in manifest file: Expected double-quoted property name in JSON at position 13
LIST
while IFS='|' read -r name msg; do
  mk_bundle "$FX/invalid-manifests/$name.json" "$TMP/$name.mcpb" \
    "$FX/invalid-manifests/fake.png"
  run bundle install "$TMP/$name.mcpb" --yes
  expect "invalid-manifests/$name: the validator's icon message" 3 \
    --err "MCPB manifest invalid at $TMP/$name.mcpb:manifest.json: $msg"
done <<'LIST'
icon_abs|Icon path must be relative to the bundle root, not an absolute path. Found: "/etc/icon.png"
icon_dirname|Icon path should not use ${__dirname} variable substitution.
icon_missing|Icon file not found at path: nope.png
icon_not_png|Icon file must be PNG format. The file at "fake.png" does not appear to be a valid PNG file.
LIST
check "  and no icon case left anything installed" \
  bash -c "! ls -a '$BUNDLES' | grep -q '^.tmp-'"
mk_bundle "$FX/invalid-manifests/icon_remote.json" "$TMP/icon_remote.mcpb"
run bundle install "$TMP/icon_remote.mcpb" --yes
expect "a remote icon is a warning" 0 --err "Icon path uses a remote URL"
mk_bundle "$FX/invalid-manifests/privacy_in_0_1.json" "$TMP/p01.mcpb"
run bundle info "$TMP/p01.mcpb"
expect "an unknown key is a warning" 0 \
  --err "Unrecognized key(s) in object: 'privacy_policies'"
run bundle install "$TMP/p01.mcpb" --strict --yes
expect "  refused with --strict" 3 \
  --err "manifest.json: Unrecognized key(s) in object: 'privacy_policies'"
mk_bundle "$FX/invalid-manifests/dxt_version_only.json" "$TMP/dxt.mcpb"
run bundle info "$TMP/dxt.mcpb" --json
expect "dxt_version alone gives the version" 0 --jq '.manifest_version == "0.1"'

# ---- the official CLI ----
if [ -x "$MCPB" ]; then
  cp -r "$FX/src/hello-node" "$TMP/hn"
  chmod -R u+w "$TMP/hn"
  (cd "$TMP" && "$MCPB" pack hn "$TMP/official.mcpb" >/dev/null 2>&1)
  run bundle install "$TMP/official.mcpb" --yes --config allowed_dirs=/tmp
  expect "a bundle packed by the official CLI installs" 0 \
    --out "Installed hello-node"
  run call mcp__hello-node__hello name=Ada
  expect "  and its tool is called" 0 --out "Hello, Ada!"

  run bundle pack "$TMP/hn" "$TMP/ours.mcpb"
  expect "bundle pack" 0 --out "Packed 4 files"
  rm -rf "$TMP/unpacked"
  "$MCPB" unpack "$TMP/ours.mcpb" "$TMP/unpacked" >"$TMP/unpack.log" 2>&1
  check "  the official CLI unpacks it" cmp "$TMP/hn/server/index.js" \
    "$TMP/unpacked/server/index.js"
  check "  whole" cmp "$TMP/hn/manifest.json" "$TMP/unpacked/manifest.json"

  code_signing_ca
  run bundle sign "$TMP/ours.mcpb" --cert "$TMP/leaf.pem" --key "$TMP/leaf.key" \
    --chain "$TMP/ca.pem"
  expect "bundle sign" 0 --out "Signed"
  run bundle verify "$TMP/ours.mcpb" --trust "$TMP/ca.pem" --json
  expect "  its signature verifies" 0 \
    --jq '.signature == "signed" and .publisher == "Test Publisher"'
  rm -rf "$TMP/unpacked2"
  "$MCPB" unpack "$TMP/ours.mcpb" "$TMP/unpacked2" >"$TMP/unpack2.log" 2>&1
  check "  the official CLI unpacks the signed file" \
    cmp "$TMP/hn/manifest.json" "$TMP/unpacked2/manifest.json"
  "$MCPB" unsign "$TMP/ours.mcpb" >/dev/null 2>&1
  run bundle verify "$TMP/ours.mcpb" --json
  expect "  and its unsign restores the unsigned bundle" 0 \
    --jq '.signature == "unsigned"'
else
  # Pinned by tests/interop/package-lock.json: missing is a broken setup.
  RC=0; : >"$TMP/out"; : >"$TMP/err"
  bad "the official mcpb CLI is installed ($MCPB; run npm ci in tests/interop)"
fi

# ---- download ----
mkdir -p "$TMP/www"
cp "$FX/hello-bin-0.3.0.mcpb" "$TMP/www/"
serve_dir "$TMP/www"
PORT=$HTTP_PORT
run bundle install "http://127.0.0.1:$PORT/hello-bin-0.3.0.mcpb" --yes
expect "a plain http URL is refused without --insecure" 3 \
  --err "Failed to download MCPB from http://127.0.0.1:$PORT/hello-bin-0.3.0.mcpb: only https URLs"
run bundle install "http://127.0.0.1:$PORT/hello-bin-0.3.0.mcpb" --yes --insecure
expect "  and downloaded with it" 0 --out "Installed hello-bin"
run bundle install "http://127.0.0.1:$PORT/nope.mcpb" --yes --insecure
expect "a failed download says why" 3 \
  --err "Failed to download MCPB from http://127.0.0.1:$PORT/nope.mcpb: " \
  --err "404"

# A download runs beside the loop: Ctrl-C stops it at once. The server
# sends one byte in a while and notes each connection and its end.
cat >"$TMP/slow.py" <<'PY'
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print("listening on", s.getsockname()[1], flush=True)
c, _ = s.accept(); c.recv(4096)
print("request", flush=True)
c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n")
try:
    while True:
        c.sendall(b"x"); time.sleep(0.2)
except OSError:
    print("closed by the client", flush=True)
PY
start_listener python3 -u "$TMP/slow.py" || exit 1
SLOW_PORT=$LISTEN_PORT SLOW_LOG=$LISTEN_LOG
"$MCPHOST" bundle install "http://127.0.0.1:$SLOW_PORT/slow.mcpb" --insecure \
  --yes >"$TMP/out" 2>"$TMP/err" </dev/null &
pid=$!
for _ in $(seq 100); do grep -q "^request" "$SLOW_LOG" && break; sleep 0.1; done
kill -INT "$pid"
# Bounded: a download that blocked the loop would run for days.
for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -9 "$pid" 2>/dev/null
wait "$pid"
RC=$?
OUT=$(cat "$TMP/out")
ERR=$(cat "$TMP/err")
expect "Ctrl-C stops a download" 130 \
  --err "install interrupted; nothing was installed"
for _ in $(seq 50); do grep -q "closed by the client" "$SLOW_LOG" && break; sleep 0.1; done
check "  and its connection is closed" grep -q "closed by the client" "$SLOW_LOG"

finish
