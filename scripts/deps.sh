#!/bin/sh
# Installs what mcphost needs from Debian packages, and only what is
# missing: a no-op (no apt call at all) when everything is present.
#   scripts/deps.sh build   compilers, CMake and the libraries
#   scripts/deps.sh test    the above plus what the tests run
#   scripts/deps.sh fuzz    the above plus clang and libFuzzer (make fuzz)
#   scripts/deps.sh deb     the above plus Debian's packaging tools (make deb)
set -eu

build_pkgs="gcc g++ make cmake pkg-config libcjson-dev libcurl4-openssl-dev
libssl-dev libicu-dev libarchive-dev libwebsockets-dev libwebsockets-evlib-uv
libuv1-dev libedit-dev"
# Debian's packaging tools, for make deb and the test that builds the
# packages (tests/install/test_deb.sh).
deb_pkgs="dpkg-dev debhelper fakeroot lintian"
test_pkgs="nodejs npm jq procps binutils tmux python3 passwd util-linux bsdutils
openssl curl zsh fish abigail-tools man-db groff-base valgrind time strace
$deb_pkgs"
# clang 14 and its runtime (libFuzzer, ASan, UBSan) for make fuzz.
fuzz_pkgs="clang libclang-rt-14-dev"

case "${1:-build}" in
  build) want=$build_pkgs ;;
  test) want="$build_pkgs $test_pkgs" ;;
  fuzz) want="$build_pkgs $fuzz_pkgs" ;;
  deb) want="$build_pkgs $deb_pkgs" ;;
  *) echo "usage: $0 build|test|fuzz|deb" >&2; exit 2 ;;
esac

missing=""
for p in $want; do
  # A package counts as present when dpkg says "install ok installed".
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing="$missing $p"
  fi
done
# Node.js may come from outside Debian (nvm, a tarball): a working node and
# npm on PATH is as good as the packages.
case "$missing" in
  *nodejs*|*npm*)
    if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
      missing=$(echo "$missing" | sed 's/ nodejs//; s/ npm//')
    fi ;;
esac

if [ -z "$(echo "$missing" | tr -d ' ')" ]; then
  echo "deps: all packages present"
  exit 0
fi
echo "deps: installing:$missing"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
