#!/usr/bin/env bash
# docs/plugin-abi.md keeps up with the SDK headers it documents: every
# status code in the table of codes, every extension and service id in the
# table of ids with the minor abi.h's history gives it, every public type
# named, the sections a third party looks for present, and every link of
# its table of contents leading to a heading. The checker is also run on a
# copy of the document with a code, an id and a section taken out, which
# it must refuse.
. "$(dirname "$0")/../lib/lib.sh"
DOC="$SRCDIR/docs/plugin-abi.md"
command -v python3 >/dev/null || skip_test "no python3 to read the document"

cat >"$TMP/check.py" <<'PY'
import os, re, sys

doc_path, inc = sys.argv[1], sys.argv[2]
doc = open(doc_path, encoding='utf-8').read()
headers = {f: open(os.path.join(inc, f), encoding='utf-8').read()
           for f in sorted(os.listdir(inc)) if f.endswith('.h')}
allh = '\n'.join(headers.values())
problems = []

def section(title_re):
    """The text of the first ## or ### section whose title matches."""
    m = re.search(r'(?m)^(#{2,3}) [0-9.]* ?' + title_re + r'.*$', doc)
    if not m:
        return None
    level = len(m.group(1))
    rest = doc[m.end():]
    end = re.search(r'(?m)^#{2,%d} ' % level, rest)
    return rest[:end.start()] if end else rest

for title in ('Overview', 'Lifecycle', 'Threads', 'Ownership', 'Errors',
              'Versioning', 'Extensions and services', 'The host table',
              'How the host finds plugins', 'Building a plugin',
              'Tutorial: a transport', 'Tutorial: a feature',
              'Checking a plugin', 'The ABI baseline'):
    if section(re.escape(title)) is None:
        problems.append('no section "%s"' % title)

# Status codes: each in the table of codes, with its value.
codes = section(r'Every code, and when') or ''
for name, value in re.findall(r'\b(MCPH_E[A-Z]+|MCPH_OK) = (-?\d+)', allh):
    if not re.search(r'\| `%s` \| %s\b' % (name, value), codes):
        problems.append('status %s (%s) not in the table of codes'
                        % (name, value))

# Ids: each in the table of ids, with the minor the history of abi.h
# (or the header's own comment) dates it to.
ids = section(r'Extensions and services') or ''
history = re.search(r'The ABI version a plugin is compiled against.*?\*/',
                    allh, re.S).group(0)
minors = {}
for m in re.finditer(r'\n \*   (1\.\d)  ', history):
    start = m.end()
    nxt = re.search(r'\n \*   1\.\d  |\*/', history[start:])
    for i in re.findall(r'"(mcph\.[a-z.-]+/\d+)"',
                        history[start:start + nxt.start()]):
        minors.setdefault(i, m.group(1))
for macro, ident in re.findall(
        r'#define (MCPH_(?:EXT|SERVICE)_[A-Z_]+) "([^"]+)"', allh):
    row = re.search(r'(?m)^\| `"%s"` \(`%s`\) \|[^|]*\| ([0-9.]+)'
                    % (re.escape(ident), macro), ids)
    if not row:
        problems.append('id %s (%s) not in the table of ids' % (ident, macro))
    elif ident in minors and row.group(1) != minors[ident]:
        problems.append('id %s dated %s, abi.h says %s'
                        % (ident, row.group(1), minors[ident]))

# Types: every public struct and opaque handle is named.
for t in sorted(set(re.findall(r'typedef struct (mcph_[a-z_]+)', allh))):
    if not re.search(r'`[^`]*\b%s\b' % t, doc):
        problems.append('type %s not named' % t)

# The table of contents leads somewhere.
slugs = set()
for h in re.findall(r'(?m)^#{1,6} (.*)$', doc):
    slugs.add(re.sub(r'[^\w\- ]', '', h.strip().lower()).replace(' ', '-'))
for link in re.findall(r'\]\(#([^)]+)\)', doc):
    if link not in slugs:
        problems.append('link #%s leads to no heading' % link)

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY

# checker FILE: the checker on FILE (run_cmd: RC, OUT, ERR).
checker() { run_cmd python3 "$TMP/check.py" "$1" "$SRCDIR/sdk/include/mcphost"; }

checker "$DOC"
expect "the document has every code, id, type and section; its links lead to headings" 0

# A code, an id and a section taken out: each is named.
sed -e '/^| `MCPH_EBUSY` |/d' -e '/^| `"mcph.host.ui\/1"`/d' \
  -e 's/^## 24\. Checking a plugin$/## 24. Inspecting a plugin/' \
  "$DOC" >"$TMP/less.md"
checker "$TMP/less.md"
expect "a document without a code, an id or a section is refused" 1 \
  --out "status MCPH_EBUSY (-17) not in the table of codes" \
  --out "id mcph.host.ui/1 (MCPH_SERVICE_UI) not in the table of ids" \
  --out 'no section "Checking a plugin"' \
  --out "link #24-checking-a-plugin leads to no heading"

# An id dated to the wrong minor is refused.
sed -e 's/^\(| `"mcph.command\/1"` (`MCPH_EXT_COMMAND`) | `command.h` | \)1\.5/\11.4/' \
  "$DOC" >"$TMP/wrong.md"
checker "$TMP/wrong.md"
expect "an id dated to the wrong minor is refused" 1 \
  --out "id mcph.command/1 dated 1.4, abi.h says 1.5"

finish
