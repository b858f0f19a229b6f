#!/usr/bin/env bash
# A bundle install streams the archive (docs/bundles.md, "Memory"): its
# peak RSS does not grow with the bundle. A 40 MiB bundle (incompressible,
# signed), installed from a file and from a download, stays under a bound
# well below its size; it took 52 MiB and more when the file was read
# whole. And since the file is read more than once (signature, manifest,
# extraction), a file changed in place between the check and the
# extraction is refused, not installed with bytes nobody checked.
. "$(dirname "$0")/../lib/lib.sh"
FX="$SRCDIR/bundles/testdata"
BUNDLES="$HOME/.local/share/mcphost/bundles"

# peak_rss CMD...: runs CMD; sets RC, OUT and ERR as run does, and PEAK,
# the child's peak RSS in KiB (getrusage, whatever the machine's time(1)).
peak_rss() {
  PEAK=$(python3 -c '
import resource, subprocess, sys
with open(sys.argv[1], "w") as o, open(sys.argv[2], "w") as e:
    rc = subprocess.call(sys.argv[3:], stdout=o, stderr=e,
                         stdin=subprocess.DEVNULL)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
' "$TMP/out" "$TMP/err" "$@")
  RC=${PEAK% *}
  PEAK=${PEAK#* }
  OUT=$(cat "$TMP/out")
  ERR=$(cat "$TMP/err")
}

# The bound: the binary and the libraries a signed install maps take
# about 16 MiB; ASan's shadow memory and allocator caches add their own.
limit_kb=$((24 * 1024))
if ldd "$MCPHOST" 2>/dev/null | grep -q libasan; then
  limit_kb=$((96 * 1024))
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8"
fi

mkdir -p "$TMP/big"
cp -r "$FX/src/hello-bin/." "$TMP/big/"
for i in 1 2 3 4 5 6 7 8; do
  head -c $((5 << 20)) /dev/urandom >"$TMP/big/server/blob$i.bin"
done
run bundle pack "$TMP/big" "$TMP/big.mcpb"
expect "a 40 MiB bundle is packed" 0

code_signing_ca
run bundle sign "$TMP/big.mcpb" --cert "$TMP/leaf.pem" --key "$TMP/leaf.key" \
  --chain "$TMP/ca.pem"
expect "  and signed" 0 --out "Signed"
size_kb=$(($(stat -c %s "$TMP/big.mcpb") / 1024))

peak_rss "$MCPHOST" bundle install "$TMP/big.mcpb" --yes --trust "$TMP/ca.pem" \
  --json
expect "the signed 40 MiB bundle installs" 0 \
  --jq '.installed == "hello-bin" and .signature == "signed"'
check "  whole" cmp "$TMP/big/server/blob8.bin" \
  "$BUNDLES/hello-bin/server/blob8.bin"
check "  with a peak RSS under $((limit_kb / 1024)) MiB for a \
$((size_kb / 1024)) MiB bundle (was $PEAK KiB)" \
  test "$PEAK" -lt "$limit_kb"

mkdir -p "$TMP/www"
cp "$TMP/big.mcpb" "$TMP/www/"
serve_dir "$TMP/www"
peak_rss "$MCPHOST" bundle install "http://127.0.0.1:$HTTP_PORT/big.mcpb" \
  --insecure --yes --trust "$TMP/ca.pem" --json
expect "downloaded, it installs" 0 \
  --jq '.installed == "hello-bin" and .signature == "signed"'
check "  whole" cmp "$TMP/big/server/blob8.bin" \
  "$BUNDLES/hello-bin/server/blob8.bin"
check "  with a peak RSS under $((limit_kb / 1024)) MiB too (was $PEAK KiB)" \
  test "$PEAK" -lt "$limit_kb"

# Rewritten in place at the confirmation, after the signature was checked
# and the manifest shown, before the extraction reads the file again:
# with another bundle, unsigned, whose CRCs are right (one blob differs).
rm -rf "$BUNDLES/hello-bin"
cp "$TMP/big.mcpb" "$TMP/changed.mcpb"
head -c $((5 << 20)) /dev/urandom >"$TMP/big/server/blob3.bin"
run bundle pack "$TMP/big" "$TMP/other.mcpb"
expect "another bundle is packed" 0
tmux_server
tm new-session -d -s ch -x 200 -y 50 \
  "$(printf '%q ' "$MCPHOST" bundle install "$TMP/changed.mcpb" --trust \
    "$TMP/ca.pem") >'$TMP/ch.out'; echo \$? >'$TMP/ch.rc'; sleep 600"
tm_wait ch "Workspace (directory)" && tm send-keys -t ch Enter
if tm_wait ch "Install hello-bin 0.3.0? [y/N]"; then
  cat "$TMP/other.mcpb" >"$TMP/changed.mcpb"
  tm_type ch y
fi
for _ in $(seq 300); do [ -s "$TMP/ch.rc" ] && break; sleep 0.1; done
RC=$(cat "$TMP/ch.rc" 2>/dev/null || echo 99)
OUT=$(cat "$TMP/ch.out" 2>/dev/null)
ERR=$(tm_screen ch)
expect "a bundle file changed after its signature was checked is refused" 3 \
  --err "the bundle file changed while it was read" --no-out "Installed"
check "  nothing installed" test ! -e "$BUNDLES/hello-bin"
check "  no .tmp- directory left" \
  test -z "$(find "$BUNDLES" -maxdepth 1 -name '.tmp-*')"
finish
