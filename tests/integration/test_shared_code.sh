#!/usr/bin/env bash
# Code shared by the host and the plugins lives once, under one name:
# JSON-RPC error codes are the SDK's MCPH_RPC_* (no -32xxx literal in
# code), checked allocation is common/alloc.c's (no local xmalloc or
# xstrdup), children are started by common/proc_spawn.c and watched by
# common/proc_watch.c (no exec, posix_spawn or pidfd_open elsewhere), and
# "owned by the user or root, writable by nobody else" is decided by
# trusted_fs_check_owner alone (no S_IWGRP or S_IWOTH test elsewhere).
. "$(dirname "$0")/../lib/lib.sh"
: >"$TMP/out"
: >"$TMP/err"
command -v python3 >/dev/null || skip_test "no python3 to read the sources"

# scan REGEX ALLOWED...: the places in host/, cli/, gateway/, transports/,
# plugins/, common/ and examples/plugins/ C code (comments and strings left out)
# that match REGEX, outside the ALLOWED files.
scan() {
  python3 - "$SRCDIR" "$@" <<'PY'
import os, re, sys
root, pattern, allowed = sys.argv[1], re.compile(sys.argv[2]), set(sys.argv[3:])
def code_only(text):
    # Comments and string literals blanked, line numbers kept.
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j])); i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i)); i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + ' ' * (min(j, n) - i - 1) + c); i = j + 1
        else:
            out.append(c); i += 1
    return ''.join(out)
for top in ('host', 'cli', 'gateway', 'transports', 'plugins', 'common',
            'examples/plugins'):
    for d, _, files in os.walk(os.path.join(root, top)):
        for f in sorted(files):
            if not f.endswith(('.c', '.h')):
                continue
            rel = os.path.relpath(os.path.join(d, f), root)
            if rel in allowed:
                continue
            for no, line in enumerate(code_only(open(os.path.join(d, f), errors='replace').read()).split('\n'), 1):
                if pattern.search(line):
                    print('%s:%d' % (rel, no))
PY
}

# one NAME REGEX ALLOWED...: passes when nothing outside ALLOWED matches.
one() {
  local name=$1 re=$2 hits
  shift 2
  hits=$(scan "$re" "$@")
  if [ -z "$hits" ]; then ok "$name"; else RC=1 bad "$name" $hits; fi
}

one "JSON-RPC error codes are MCPH_RPC_*, never -32xxx literals" \
  '(?<![\w.])-\s*32[0-9]{3}\b'
one "checked allocation is defined once (common/alloc.c)" \
  '^\s*(static\s+)?(inline\s+)?(void|char)\s*\*\s*\w*x(malloc|calloc|realloc|strdup|strndup)\s*\(' \
  common/alloc.c common/alloc.h
one "children are started in one place (common/proc_spawn.c)" \
  '\b(execve|execvp|execv|execl|execlp|posix_spawnp?)\s*\(' \
  common/proc_spawn.c
one "child exits are watched in one place (common/proc_watch.c)" \
  '\bSYS_pidfd_open\b' common/proc_watch.c
one "one function decides who may write a trusted file (trusted_fs_check_owner)" \
  '\bS_IW(GRP|OTH)\b' common/trusted_fs.c

# The scanner itself: a literal in code is found, one in a comment is not.
mkdir -p "$TMP/src/host"
printf 'int a = -32601; /* -32602 */\nconst char *s = "-32603";\n' >"$TMP/src/host/x.c"
hits=$(SRCDIR="$TMP/src" scan '(?<![\w.])-\s*32[0-9]{3}\b')
if [ "$hits" = "host/x.c:1" ]; then
  ok "the scanner finds code and skips comments and strings"
else
  RC=1 bad "the scanner finds code and skips comments and strings" "got: $hits"
fi

finish
