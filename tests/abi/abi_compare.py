#!/usr/bin/env python3
"""The ABI comparison (ctest abi_compare; tests/abi/README.md).

Builds tests/abi/probe.c with -g against the current SDK headers, dumps
its types with abidw and compares them with abidiff against each frozen
baseline, tests/abi/baseline/mcphost-abi-1.N.xml (1.6 and any later
minor frozen since). Then it proves the comparison can fail against the
newest: the probe is built again from copies of the headers, each broken in
one known way, and each must be rejected, and from a copy grown the
allowed way, which must be accepted.

What counts (abidiff's exit code is a bit set: 1 error, 2 usage error,
4 an ABI change, 8 an incompatible change):
  - 1 or 2: the comparison could not run; the test fails.
  - 8 (a probe function gone: a public type was removed or renamed):
    rejected.
  - 4: accepted only when every changed type (abidiff --leaf-changes-only)
    is a struct led by struct_size in the baseline whose only change is
    data members inserted at or after its old size: the one way a struct
    grows (abi.h); and probe functions added (a later minor's new types).
    Any other line of the report rejects: a field moved,
    resized, retyped or removed, an enumerator renumbered, a struct
    without struct_size grown (mcph_option, an array element).
  - 0: accepted. abidiff leaves out what cannot break a binary (an
    enumerator added, a field renamed in place); the layout asserts in
    abi_layout.c, compiled in every build, catch a rename.

Usage:
  abi_compare.py [--cc CC] [--work DIR]  the test (exit 77 without abidw)
  abi_compare.py --write-baseline        writes the baseline of the
                                         headers' minor, on purpose; never
                                         over a published one
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BASELINES = os.path.join(HERE, "baseline")
PROBE = os.path.join(HERE, "probe.c")
LAYOUT = os.path.join(HERE, "abi_layout.c")

# Each copy: (what, header, [(text, replacement), ...]), applied in
# order. Each must apply: a header that no longer has the text fails the
# test, so the proof follows the headers.
FACTORY_START = "  int (*start)(mcph_transport *t, mcph_error *err);\n"
UI_GROWN = ("} mcph_host_ui;",
            "  int (*later)(const mcph_host *host);\n} mcph_host_ui;")
BROKEN = [
    ("a field moved (mcph_transport_factory.start to the end)",
     "transport.h", [(FACTORY_START, ""),
                     ("} mcph_transport_factory;",
                      FACTORY_START + "} mcph_transport_factory;")]),
    ("a field's type changed (mcph_error.code int32_t to int64_t)",
     "abi.h", [("  int32_t code;         /* an enum mcph_status",
                "  int64_t code;         /* an enum mcph_status")]),
    ("an enumerator renumbered (MCPH_EBUSY)",
     "abi.h", [("MCPH_EBUSY = -17", "MCPH_EBUSY = -20")]),
    ("a struct without struct_size grown (mcph_option)",
     "feature.h", [("} mcph_option;", "  int flags;\n} mcph_option;")]),
    ("a callback's parameters changed beside an allowed growth "
     "(mcph_host_ui.open_url)",
     "ui.h", [UI_GROWN,
              ("  int (*open_url)(const mcph_host *host, const char *url,",
               "  int (*open_url)(const mcph_host *host, const char *url, "
               "int how,")]),
]
GROWN = [
    ("a field added at the end of a struct led by struct_size "
     "(mcph_host_ui)", "ui.h", [UI_GROWN]),
    ("an enumerator added (MCPH_ELATER)",
     "abi.h", [("as a new request (1.6, MCP 2026-07-28) */\n};",
                "as a new request (1.6, MCP 2026-07-28) */,\n"
                "  MCPH_ELATER = -19\n};")]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def dump(cc, include, work):
    """Builds the probe against `include` and returns its abidw XML path."""
    so = os.path.join(work, "probe.so")
    xml = os.path.join(work, "abi.xml")
    # The prefix map and abidw's options keep paths, the machine's
    # architecture and source locations out of the dump: one baseline for
    # x86_64 and aarch64, whatever the checkout's directory.
    r = run([cc, "-std=c11", "-g", "-O0", "-shared", "-fPIC",
             "-fdebug-prefix-map=%s=." % ROOT, "-I", include, PROBE,
             "-o", so])
    if r.returncode != 0:
        return None, r.stderr
    r = run(["abidw", "--no-architecture", "--no-corpus-path",
             "--no-show-locs", "--no-comp-dir-path", "--headers-dir",
             os.path.join(include, "mcphost"), so, "--out-file", xml])
    if r.returncode != 0:
        sys.exit("abidw failed on %s: %s" % (so, r.stderr))
    return xml, ""


def baselines():
    """The frozen baselines, oldest first."""
    names = [n for n in os.listdir(BASELINES)
             if re.match(r"^mcphost-abi-1\.\d+\.xml$", n)]
    names.sort(key=lambda n: int(n.split(".")[1]))
    return [os.path.join(BASELINES, n) for n in names]


def headers_minor():
    with open(os.path.join(ROOT, "sdk", "include", "mcphost", "abi.h")) as f:
        return int(re.search(r"#define MCPH_ABI_MINOR (\d+)", f.read())[1])


def baseline_structs(base):
    """name -> (size in bits, led by struct_size) in a baseline."""
    out = {}
    for c in ET.parse(base).iter("class-decl"):
        if c.get("is-declaration-only") == "yes" or not c.get("name"):
            continue
        members = c.findall("data-member")
        led = bool(members) and members[0].get(
            "layout-offset-in-bits") == "0" and members[0].find(
            "var-decl").get("name") == "struct_size"
        out[c.get("name")] = (int(c.get("size-in-bits", "0")), led)
    return out


def verdict(base, xml):
    """(accepted, why): the baseline against `xml` by the rule above."""
    r = run(["abidiff", "--leaf-changes-only", base, xml])
    if r.returncode & 3:
        sys.exit("abidiff could not compare (exit %d): %s%s" %
                 (r.returncode, r.stdout, r.stderr))
    if r.returncode & 8:
        return False, "incompatible change (exit 8):\n" + r.stdout
    if r.returncode == 0:
        return True, "no change"
    structs = baseline_structs(base)
    old = None  # the size of the struct whose block is being read
    bad = []
    for line in r.stdout.splitlines():
        m = re.match(r"^'struct (\w+)' changed:$", line)
        if m:
            size, led = structs.get(m.group(1), (0, False))
            old = size if led else None
            if old is None:
                bad.append(line + "  <- not a struct led by struct_size")
            continue
        if (not line.strip() or re.match(
                r"^(Leaf changes|Changed leaf types|Removed/Changed/Added "
                r"(functions|variables)) summary:", line) or re.match(
                r"^  (type size changed from \d+ to \d+ \(in bits\)|"
                r"\d+ data member insertions?:)$", line) or re.match(
                r"^(\d+ Added functions?:|  \[A\] 'function .*)$", line)):
            continue
        m = re.match(r"^    '.*', at offset (\d+) \(in bits\)$", line)
        if m and old is not None and int(m.group(1)) >= old:
            continue
        bad.append(line)
    if bad:
        return False, "not the allowed growth:\n" + "\n".join(bad)
    return True, "only allowed growth:\n" + r.stdout


def layout_builds(cc, include):
    """(builds, why): abi_layout.c against `include`. A failure counts only
    when a static assertion failed, not for any other compiler error."""
    r = run([cc, "-std=c11", "-fsyntax-only", "-I", include, LAYOUT])
    if r.returncode == 0:
        return True, "abi_layout.c built"
    asserts = [l for l in r.stderr.splitlines()
               if re.search(r"static.assert", l, re.I)]
    if not asserts:
        sys.exit("abi_layout.c failed without a static assertion:\n" +
                 r.stderr)
    return False, "\n".join(asserts)


def variant(work, name, header, edits):
    """A copy of the SDK headers with the edits; returns its include dir."""
    inc = os.path.join(work, "include")
    shutil.copytree(os.path.join(ROOT, "sdk", "include"), inc)
    path = os.path.join(inc, "mcphost", header)
    with open(path) as f:
        s = f.read()
    for text, repl in edits:
        if text not in s:
            sys.exit("%s: %r is no longer in %s; update abi_compare.py" %
                     (name, text, header))
        s = s.replace(text, repl, 1)
    with open(path, "w") as f:
        f.write(s)
    return inc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--work")
    ap.add_argument("--write-baseline", action="store_true")
    a = ap.parse_args()
    if not shutil.which("abidw") or not shutil.which("abidiff"):
        print("SKIP: abidw/abidiff not installed (Debian: abigail-tools)")
        return 77
    work = tempfile.mkdtemp(prefix="mcphost-abi.", dir=a.work)
    try:
        return check(a, work)
    finally:
        shutil.rmtree(work)


def write_baseline(xml, name, minor_macro):
    """Freezes the dump `xml` as BASELINES/name, unless that baseline
    exists: a published baseline is never rewritten (the minor, named by
    `minor_macro`, grows first). Returns the exit status."""
    base = os.path.join(BASELINES, name)
    if os.path.exists(base):
        print("%s exists: a published baseline is never rewritten; "
              "bump %s first" % (os.path.relpath(base, ROOT), minor_macro))
        return 1
    os.makedirs(BASELINES, exist_ok=True)
    shutil.copyfile(xml, base)
    print("wrote " + os.path.relpath(base, ROOT))
    return 0


class Checks:
    """The lines "ok   NAME" / "FAIL NAME" and the count of failures."""

    def __init__(self):
        self.failed = 0

    def expect(self, name, want, got, why):
        if want == got:
            print("ok   " + name)
        else:
            self.failed += 1
            print("FAIL " + name + "\n     " + why.replace("\n", "\n     "))

    def end(self):
        print("%d failed" % self.failed)
        return 1 if self.failed else 0


def check(a, work):
    cur = os.path.join(work, "current")
    os.mkdir(cur)
    xml, err = dump(a.cc, os.path.join(ROOT, "sdk", "include"), cur)
    if not xml:
        print("FAIL the probe does not build from sdk/include:\n" + err)
        return 1
    if a.write_baseline:
        return write_baseline(xml, "mcphost-abi-1.%d.xml" % headers_minor(),
                              "MCPH_ABI_MINOR")
    checks = Checks()
    expect = checks.expect

    bases = baselines()
    if not bases:
        print("FAIL no baseline in " + os.path.relpath(BASELINES, ROOT))
        return 1
    for base in bases:
        ok, why = verdict(base, xml)
        expect("the current headers keep the %s baseline" %
               os.path.basename(base), True, ok, why)
    for i, (name, header, edits) in enumerate(BROKEN + GROWN):
        allowed = i >= len(BROKEN)
        d = os.path.join(work, "v%d" % i)
        os.mkdir(d)
        inc = variant(d, name, header, edits)
        xml, err = dump(a.cc, inc, d)
        if not xml:
            print("FAIL the probe does not build with %s:\n%s" % (name, err))
            checks.failed += 1
            continue
        word = "accepts" if allowed else "rejects"
        ok, why = verdict(bases[-1], xml)
        expect("abidiff %s %s" % (word, name), allowed, ok, why)
        ok, why = layout_builds(a.cc, inc)
        expect("abi_layout.c's asserts %s %s" % (word[:-1], name), allowed,
               ok, why)
    return checks.end()


if __name__ == "__main__":
    sys.exit(main())
