#!/usr/bin/env bash
# Hostile bundles (docs/bundles.md, "Extraction safety"): every rule of
# the extraction, a compression bomb, 100 000 entries, a file larger than
# its headers say, truncated and damaged archives. Each is refused with a
# message naming the entry and the rule, and a snapshot of the test's
# HOME (names, sizes, modes) is the same before and after: nothing was
# written outside the temporary directory, and that was removed.
. "$(dirname "$0")/../lib/lib.sh"
FX="$SRCDIR/bundles/testdata"
BUNDLES="$HOME/.local/share/mcphost/bundles"
Z="$TMP/zips"
mkdir -p "$Z" "$TMP/work"
python3 "$SRCDIR/tests/security/hostile_zips.py" "$Z" \
  "$FX/hello-node-1.0.0.mcpb" 2>/dev/null

snapshot() { (cd "$HOME" && find . -printf '%p %s %m\n' | sort); }

# A good bundle first, so that the bundles directory exists.
run bundle install "$FX/hello-bin-0.3.0.mcpb" --yes
expect "a good bundle installs" 0
before=$(snapshot)

refused() { # refused FILE TEXT...
  local f=$1
  shift
  run bundle install "$Z/$f.mcpb" --yes
  local args=()
  for t in "$@"; do args+=(--err "$t"); done
  expect "$f.mcpb is refused" 3 --err "Failed to extract MCPB $Z/$f.mcpb" \
    "${args[@]}"
  local after
  after=$(snapshot)
  if [ "$before" = "$after" ]; then
    ok "  nothing was written under HOME"
  else
    bad "  nothing was written under HOME" \
      "$(diff <(echo "$before") <(echo "$after") | head -20)"
  fi
}

refused dotdot 'entry "../escaped.txt": a path component is ".."'
refused dotdot_inner 'entry "server/../../escaped.txt": a path component is ".."'
refused absolute 'entry "/tmp/escaped-abs.txt": an absolute path'
refused drive 'entry "C:/escaped.txt": a drive letter'
refused backslash 'escaped.txt'
refused control 'entry "server/a<U+001B>[2Jb.txt": a control character in the name'
refused newline 'entry "server/a<U+000A>mcphost: forged line": a control character'
check "  the name's newline is shown, not obeyed" \
  bash -c "! grep -q '^mcphost: forged line' '$TMP/err'"
refused dotcomp 'a path component is "."'
refused duplicate 'entry "server/index.js": a duplicate name'
refused duplicate_case 'entry "SERVER/INDEX.JS": a duplicate name'
refused duplicate_fold 'entry "server/ärger.txt": a duplicate name'
refused duplicate_sharp_s 'entry "server/STRASSE.txt": a duplicate name'
refused symlink 'entry "server/link": a symbolic link'
refused device 'entry "server/dev": a device'
refused encrypted 'entry "server/index.js": an encrypted entry'
refused file_as_dir 'entry "server/index.js/x": cannot create its directory'
refused hardlink 'not a ZIP archive'
refused bomb 'entry "server/zeros": the bundle expands to more than 100 times its size'
refused many 'more than 50000 entries in the bundle'
refused liar 'entry "server/big": its data is 100000 bytes, its header says 10'
refused truncated 'not a ZIP archive'
refused damaged 'Failed to extract MCPB'

check "no file escaped the temporary directory" \
  test ! -e "$TMP/escaped.txt" -a ! -e "$TMP/work/escaped.txt" \
  -a ! -e /tmp/escaped-abs.txt -a ! -e "$BUNDLES/../escaped.txt"

# Not hostile: a non-ASCII name, whatever the locale.
LC_ALL=C run bundle install "$Z/utf8_name.mcpb" --yes
expect "a non-ASCII entry name installs in the C locale" 0
check "  under its UTF-8 name" test -f "$BUNDLES/evil/server/café 日本.txt"
run bundle remove evil

# Modes are masked: setuid/setgid/sticky dropped, 0755 kept.
run bundle install "$Z/setuid.mcpb" --yes
expect "a setuid entry installs" 0
check "  without its setuid, setgid and sticky bits" \
  test "$(stat -c %a "$BUNDLES/evil/server/suid")" = 755
# libarchive's seekable reader reports a FIFO entry as a regular file:
# it is written as an empty regular file, never as a FIFO.
run bundle install "$Z/fifo.mcpb" --yes
expect "a FIFO entry" 0
check "  is a regular file" test -f "$BUNDLES/evil/server/fifo" -a \
  ! -p "$BUNDLES/evil/server/fifo"

finish
