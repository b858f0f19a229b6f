#!/usr/bin/env python3
"""The client API's ABI (ctest abi_client; tests/abi/README.md).

Dumps libmcphost.so.1 with abidw, only what it exports and the types of
sdk/include/mcphost (the opaque handles stay declarations), and compares
it with abidiff against each frozen baseline,
tests/abi/baseline/libmcphost-1.N.xml, by abi_compare.py's rule: a
function added, or a struct led by struct_size grown at its end, is
accepted; a function removed or changed, a field moved, retyped or
removed, is rejected. Then it proves the comparison can fail: the dump,
edited the ways a broken library would differ (a function gone, a field
moved), must be rejected, and grown the allowed way, accepted.

Usage:
  client_compare.py --lib LIBMCPHOST [--work DIR]  the test (77: no abidw)
  client_compare.py --lib LIBMCPHOST --write-baseline
"""
import argparse
import copy
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abi_compare import (BASELINES, ROOT, Checks, run, verdict,  # noqa: E402
                         write_baseline)

HEADERS = os.path.join(ROOT, "sdk", "include", "mcphost")


def api_minor():
    with open(os.path.join(HEADERS, "client.h")) as f:
        return int(re.search(r"#define MCPHOST_API_MINOR (\d+)", f.read())[1])


def dump(lib, work):
    """The library's exported interface as abidw XML, source paths made
    relative to the tree: one baseline wherever the tree is."""
    xml = os.path.join(work, "libmcphost.xml")
    r = run(["abidw", "--no-architecture", "--no-corpus-path",
             "--no-show-locs", "--no-comp-dir-path",
             "--exported-interfaces-only", "--drop-private-types",
             "--headers-dir", HEADERS, lib, "--out-file", xml])
    if r.returncode != 0:
        sys.exit("abidw failed on %s: %s" % (lib, r.stderr))
    with open(xml) as f:
        s = f.read().replace("path='%s/" % ROOT, "path='./")
    with open(xml, "w") as f:
        f.write(s)
    return xml


def baselines():
    names = [n for n in os.listdir(BASELINES)
             if re.match(r"^libmcphost-1\.\d+\.xml$", n)]
    names.sort(key=lambda n: int(n.split(".")[1]))
    return [os.path.join(BASELINES, n) for n in names]


def edited(xml, work, name, edit):
    """A copy of the dump with `edit` applied to its tree."""
    tree = ET.parse(xml)
    edit(tree.getroot())
    out = os.path.join(work, name + ".xml")
    tree.write(out)
    return out


def struct(root, name):
    for c in root.iter("class-decl"):
        if c.get("name") == name and c.get("is-declaration-only") != "yes":
            return c
    sys.exit("no struct %s in the dump; update client_compare.py" % name)


def drop_function(root, fname):
    for parent in root.iter():
        for child in list(parent):
            if child.get("name") == fname and child.tag in (
                    "elf-symbol", "function-decl"):
                parent.remove(child)


def move_field(root):
    """mcphost_request.name and .method swap places."""
    members = struct(root, "mcphost_request").findall("data-member")
    a, b = members[3], members[4]
    oa, ob = a.get("layout-offset-in-bits"), b.get("layout-offset-in-bits")
    a.set("layout-offset-in-bits", ob)
    b.set("layout-offset-in-bits", oa)
    va, vb = a.find("var-decl"), b.find("var-decl")
    va.set("name", "method")
    vb.set("name", "name")


def grow_options(root):
    """A field at the end of mcphost_options, as a later minor adds."""
    s = struct(root, "mcphost_options")
    size = int(s.get("size-in-bits"))
    last = s.findall("data-member")[-1]
    new = copy.deepcopy(last)
    new.set("layout-offset-in-bits", str(size))
    new.find("var-decl").set("name", "later")
    s.append(new)
    s.set("size-in-bits", str(size + 64))


BROKEN = [
    ("a function removed (mcphost_cancel)",
     lambda r: drop_function(r, "mcphost_cancel")),
    ("a field moved (mcphost_request.name and .method)", move_field),
]
GROWN = [("a field added at the end of mcphost_options", grow_options)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--work")
    ap.add_argument("--write-baseline", action="store_true")
    a = ap.parse_args()
    if not shutil.which("abidw") or not shutil.which("abidiff"):
        print("SKIP: abidw/abidiff not installed (Debian: abigail-tools)")
        return 77
    work = tempfile.mkdtemp(prefix="mcphost-abi-client.", dir=a.work)
    try:
        return check(a, work)
    finally:
        shutil.rmtree(work)


def check(a, work):
    xml = dump(a.lib, work)
    if a.write_baseline:
        return write_baseline(xml, "libmcphost-1.%d.xml" % api_minor(),
                              "MCPHOST_API_MINOR")
    checks = Checks()
    expect = checks.expect

    bases = baselines()
    if not bases:
        print("FAIL no libmcphost baseline in " +
              os.path.relpath(BASELINES, ROOT))
        return 1
    for base in bases:
        ok, why = verdict(base, xml)
        expect("libmcphost.so.1 keeps the %s baseline" %
               os.path.basename(base), True, ok, why)
    for i, (name, edit) in enumerate(BROKEN + GROWN):
        allowed = i >= len(BROKEN)
        v = edited(bases[-1], work, "v%d" % i, edit)
        ok, why = verdict(bases[-1], v)
        expect("abidiff %s %s" % ("accepts" if allowed else "rejects", name),
               allowed, ok, why)
    return checks.end()


if __name__ == "__main__":
    sys.exit(main())
