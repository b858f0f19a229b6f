#!/bin/sh
# Installs what `make bench` needs beyond the build, from Debian packages,
# and only what is missing: a no-op (no apt call at all) when everything
# is present. The npm packages come from bench/package-lock.json (npm ci).
set -eu

want="hyperfine gnuplot-nox nodejs npm"
missing=""
for p in $want; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing="$missing $p"
  fi
done
# Node.js may come from outside Debian (nvm, a tarball): a working node and
# npm on PATH is as good as the packages. Any gnuplot with the pngcairo
# terminal will do.
case "$missing" in
  *nodejs*|*npm*)
    if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
      missing=$(echo "$missing" | sed 's/ nodejs//; s/ npm//')
    fi ;;
esac
case "$missing" in
  *gnuplot-nox*)
    if command -v gnuplot >/dev/null 2>&1; then
      missing=$(echo "$missing" | sed 's/ gnuplot-nox//')
    fi ;;
esac

if [ -z "$(echo "$missing" | tr -d ' ')" ]; then
  echo "bench deps: all packages present"
  exit 0
fi
echo "bench deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
