#!/usr/bin/env bash
# tests/README.md is the map from what mcphost does to its tests, and it
# cannot fall behind: every test ctest registers has its row under "Every
# test" (a missing one is named, with the row to add), every test the
# README names anywhere is one ctest registers, every file a row names
# exists, and every section of the README, of docs/*.md and of the man
# page has its row under "Documentation and its tests" (and no row names
# a section that is gone). Then the checker is shown to catch each of
# those: a row taken out, a test and a section made up.
. "$(dirname "$0")/../lib/lib.sh"
command -v python3 >/dev/null || skip_test "no python3 for the checker"
MAP="$SRCDIR/tests/README.md"
# The tests of this build, with their commands: what ctest runs.
run_cmd "${CTEST:-ctest}" --test-dir "$BUILDDIR" --show-only=json-v1
if [ "$RC" -ne 0 ]; then
  bad "ctest lists the tests of $BUILDDIR"
  finish
  exit
fi
printf '%s\n' "$OUT" >"$TMP/ctest.json"

cat >"$TMP/check.py" <<'PY'
import glob, json, os, re, sys

readme, ctest_json, src, build = sys.argv[1:5]
NAME = "tests/README.md"
problems = []

tests = {}
for t in json.load(open(ctest_json))["tests"]:
    tests[t["name"]] = t.get("command") or []


def source_of(name):
    """The file a new row would name: the script ctest runs, or the
    source of the program it runs."""
    for arg in tests[name]:
        if arg.startswith(src + "/") and not arg.startswith(build + "/"):
            return os.path.relpath(arg, src)
    if tests[name]:
        base = os.path.basename(tests[name][0])
        base = re.sub(r"_driver$", "", base)
        for d in ("tests/unit", "tests/fuzz"):
            if os.path.exists(os.path.join(src, d, base + ".c")):
                return d + "/" + base + ".c"
    return "FILE"


def sections(text):
    """Level-2 headings outside fenced code, in order."""
    out, fence = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and line.startswith("## "):
            out.append(line[3:].strip())
    return out


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


text = open(readme).read()
parts, cur = {}, None
fence = False
for line in text.splitlines():
    if line.startswith("```"):
        fence = not fence
    if not fence and line.startswith("## "):
        cur = line[3:].strip()
        parts[cur] = ""
        continue
    if cur is not None:
        parts[cur] += line + "\n"

INDEX, DOCS = "Every test", "Documentation and its tests"
for p in (INDEX, DOCS):
    if p not in parts:
        problems.append('%s: no section "## %s"' % (NAME, p))

# ---- Every test: one row per ctest test ----
rows = {}
for line in parts.get(INDEX, "").splitlines():
    if not line.startswith("| `"):
        continue
    c = cells(line)
    m = re.fullmatch(r"`([^`]+)`", c[0])
    if not m:
        continue
    name = m.group(1)
    if name in rows:
        problems.append('%s: "%s" has two rows under "%s"'
                        % (NAME, name, INDEX))
    rows[name] = c
    for f in re.findall(r"`([^`]+)`", c[1] if len(c) > 1 else ""):
        if not os.path.exists(os.path.join(src, f)):
            problems.append('%s: the row of "%s" names %s, which does not '
                            'exist' % (NAME, name, f))
for name in sorted(tests):
    if name not in rows:
        problems.append(
            '%s: ctest runs "%s", which has no row under "%s"; add:\n'
            "  | `%s` | `%s` | what it holds |" % (
                NAME, name, INDEX, name, source_of(name)))

# ---- every test named anywhere exists ----
named = set(rows)
pattern = (r"`((?:unit|integration|security|interop|fuzz|abi|install)"
           r"_[a-z0-9_]+|footprint)`")
for m in re.finditer(pattern, text):
    named.add(m.group(1))
for name in sorted(named - set(tests)):
    problems.append('%s names the test "%s", which ctest does not run'
                    % (NAME, name))

# ---- every documented section has its row ----
docs = {"README.md": sections(open(os.path.join(src, "README.md")).read())}
for f in sorted(glob.glob(os.path.join(src, "docs", "*.md"))):
    docs[os.path.relpath(f, src)] = sections(open(f).read())
man = "docs/man/mcphost.1"
docs[man] = [l[4:].strip().strip('"') for l in
             open(os.path.join(src, man)).read().splitlines()
             if l.startswith(".SH ")]
mapped, cur = {}, None
for line in parts.get(DOCS, "").splitlines():
    if line.startswith("### "):
        cur = line[4:].strip().strip("`")
        mapped.setdefault(cur, [])
    elif cur and line.startswith("|") and not re.fullmatch(r"[|:\s-]+", line):
        c = cells(line)
        if c[0] != "section":
            mapped[cur].append(c[0])
for doc, have in docs.items():
    if doc not in mapped:
        problems.append('%s: %s has no "### %s" under "%s"'
                        % (NAME, doc, doc, DOCS))
        continue
    for s in have:
        if s not in mapped[doc]:
            problems.append('%s: the section "%s" of %s has no row under '
                            '"### %s"; add:\n  | %s | `TEST`... |'
                            % (NAME, s, doc, doc, s))
    for s in mapped[doc]:
        if s not in have:
            problems.append('%s: "### %s" has a row for "%s", which %s no '
                            "longer has" % (NAME, doc, s, doc))
for doc in mapped:
    if doc not in docs:
        problems.append('%s: "### %s" maps a document that does not exist'
                        % (NAME, doc))

for p in problems:
    print(p)
sys.exit(1 if problems else 0)
PY
checker() {
  run_cmd python3 "$TMP/check.py" "$1" "$TMP/ctest.json" "$SRCDIR" "$BUILDDIR"
}

checker "$MAP"
expect "every test has its row, every test named exists, every section is mapped" 0

# ---- the checker catches what it is for ----

# A test's row taken out: the test is named, with the row to paste.
grep -v '^| `integration_stdio` |' "$MAP" >"$TMP/no-row.md"
checker "$TMP/no-row.md"
expect "a test without a row is named, with the row to add" 1 \
  --out 'ctest runs "integration_stdio", which has no row under "Every test"; add:' \
  --out '| `integration_stdio` | `tests/integration/test_stdio.sh` | what it holds |'
grep -v '^| `unit_framing` |' "$MAP" >"$TMP/no-unit.md"
checker "$TMP/no-unit.md"
expect "... a unit test's row names its source" 1 \
  --out '| `unit_framing` | `tests/unit/test_framing.c` | what it holds |'

# A test that does not exist, in a map and as a row.
sed 's/`integration_demo`/`integration_no_such_test`/' "$MAP" >"$TMP/made-up.md"
checker "$TMP/made-up.md"
expect "a test named that ctest does not run is named" 1 \
  --out 'names the test "integration_no_such_test", which ctest does not run' \
  --out 'ctest runs "integration_demo", which has no row'

# A file a row names that is gone.
sed 's|`tests/integration/test_demo.sh`|`tests/integration/test_gone.sh`|' \
  "$MAP" >"$TMP/gone-file.md"
checker "$TMP/gone-file.md"
expect "a row naming a file that does not exist is named" 1 \
  --out 'the row of "integration_demo" names tests/integration/test_gone.sh, which does not exist'

# A documented section without a row, and a row for a section that is
# gone.
grep -v '^| Exit codes |' "$MAP" >"$TMP/no-section.md"
checker "$TMP/no-section.md"
expect "a section of a document without a row is named" 1 \
  --out 'the section "Exit codes" of docs/cli.md has no row under "### docs/cli.md"'
sed 's/^| Exit codes |/| Exit numbers |/' "$MAP" >"$TMP/old-section.md"
checker "$TMP/old-section.md"
expect "a row for a section that is gone is named" 1 \
  --out '"### docs/cli.md" has a row for "Exit numbers", which docs/cli.md no longer has'

finish
