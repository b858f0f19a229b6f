#!/usr/bin/env python3
"""Writes tests/abi/abi_layout.c, the frozen record of the plugin ABI's
layout: the size and alignment of every public struct, the offset, size
and type of each of its fields, the values of the public enums and of the
integer constants, and the extension and service ids.

Run only on purpose, when a minor is frozen (tests/abi/README.md):

    tests/abi/gen_layout.py [CC] > tests/abi/abi_layout.c

The names come from clang's AST of sdk/include/mcphost/mcphost.h (every
struct, enum and macro named mcph_/MCPH_), the numbers from the compiler:
a probe program built from the same headers prints them. Needs clang
(for the AST) and runs on x86_64 or aarch64 Linux (LP64), the platforms
the record is for.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
INC = os.path.join(ROOT, "sdk", "include")
HDRDIR = os.path.join(INC, "mcphost")
CC = sys.argv[1] if len(sys.argv) > 1 else "cc"
# The constants a later minor changes on purpose: recorded as a floor.
FLOOR = {"MCPH_ABI_MINOR"}
# Macros that are not values.
NOT_VALUES = {"MCPH_EXTERN_C", "MCPH_EXPORT", "MCPH_PLUGIN_ENTRY"}


def clang_ast():
    out = subprocess.run(
        ["clang", "-x", "c", "-std=c11", "-Xclang", "-ast-dump=json",
         "-fsyntax-only", "-I", INC, os.path.join(HDRDIR, "mcphost.h")],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)["inner"]


def macros():
    out = subprocess.run(
        ["clang", "-x", "c", "-std=c11", "-dM", "-E", "-I", INC,
         os.path.join(HDRDIR, "mcphost.h")],
        check=True, capture_output=True, text=True).stdout
    ints, strings = [], []
    for line in out.splitlines():
        m = re.match(r"#define (MCPH_[A-Z0-9_]+) (.+)$", line)
        if not m or m.group(1) in NOT_VALUES:
            continue
        name, value = m.group(1), m.group(2)
        if value.startswith('"'):
            strings.append((name, value))
        elif re.match(r"^[0-9(][0-9 ()*+<-]*$", value):
            ints.append(name)
    return sorted(ints), sorted(strings)


def header_of(name, kind):
    pat = re.compile(r"\b%s %s\s*\{" % (kind, re.escape(name)))
    for h in sorted(f for f in os.listdir(HDRDIR) if f.endswith(".h")):
        with open(os.path.join(HDRDIR, h)) as f:
            if pat.search(f.read()):
                return h
    return "?"


def collect():
    records, enums, seen = [], [], set()
    for n in clang_ast():
        name = n.get("name", "")
        if not name.startswith("mcph_") or name in seen:
            continue
        if n["kind"] == "RecordDecl" and n.get("completeDefinition"):
            fields = [(f["name"], f["type"]["qualType"])
                      for f in n.get("inner", []) if f["kind"] == "FieldDecl"]
            records.append((name, n.get("tagUsed", "struct"), fields))
            seen.add(name)
        elif n["kind"] == "EnumDecl":
            consts = [c["name"] for c in n.get("inner", [])
                      if c["kind"] == "EnumConstantDecl"]
            enums.append((name, consts))
            seen.add(name)
    return records, enums


def probe(records, enums, ints):
    """A C program printing each recorded number."""
    p = ["#include <stdio.h>", "#include <mcphost/mcphost.h>",
         "int main(void) {"]
    for name, tag, fields in records:
        t = "%s %s" % (tag, name)
        p.append('printf("R %s %%zu %%zu\\n", sizeof(%s), _Alignof(%s));'
                 % (name, t, t))
        for f, _ in fields:
            p.append('printf("F %s %s %%zu %%zu\\n", offsetof(%s, %s), '
                     'sizeof(((%s *)0)->%s));' % (name, f, t, f, t, f))
    for name, consts in enums:
        p.append('printf("E %s %%zu\\n", sizeof(enum %s));' % (name, name))
        for c in consts:
            p.append('printf("C %s %%lld\\n", (long long)%s);' % (c, c))
    for m in ints:
        p.append('printf("C %s %%lld\\n", (long long)(%s));' % (m, m))
    p += ["return 0;", "}"]
    return "\n".join(p) + "\n"


def measure(src):
    with tempfile.TemporaryDirectory() as d:
        c, exe = os.path.join(d, "probe.c"), os.path.join(d, "probe")
        with open(c, "w") as f:
            f.write(src)
        subprocess.run([CC, "-std=c11", "-I", INC, "-o", exe, c], check=True)
        out = subprocess.run([exe], check=True, capture_output=True,
                             text=True).stdout
    rec, fld, esz, val = {}, {}, {}, {}
    for line in out.splitlines():
        w = line.split()
        if w[0] == "R":
            rec[w[1]] = (int(w[2]), int(w[3]))
        elif w[0] == "F":
            fld[(w[1], w[2])] = (int(w[3]), int(w[4]))
        elif w[0] == "E":
            esz[w[1]] = int(w[2])
        else:
            val[w[1]] = int(w[2])
    return rec, fld, esz, val


PROLOGUE = """\
/* The frozen record of the plugin ABI's layout (ABI %(minor)s): every
 * public struct's size and alignment, each field's offset, size and type,
 * the public enums' values, the integer constants and the ids. Written by
 * tests/abi/gen_layout.py when the minor was frozen, never by hand, and
 * compiled in every build: a header change that moves, resizes or
 * retypes a field, or renumbers a constant, fails the build here.
 * A struct led by struct_size may grow at its end (a later minor), so its
 * size is a floor; a struct without struct_size is exact. The ids cannot
 * be compared at compile time: main() compares them (ctest abi_layout).
 * For LP64 Linux on x86_64 and aarch64, the platforms mcphost is built
 * for; elsewhere the numbers differ and this file refuses to build. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <mcphost/mcphost.h>

#if !defined(__linux__) || !defined(__LP64__) || \\
    !(defined(__x86_64__) || defined(__aarch64__))
#error "tests/abi/abi_layout.c records LP64 Linux (x86_64, aarch64) only"
#endif

/* T's size is at least N (it may grow at the end) / exactly N. */
#define GROWS(T, n, a) \\
  _Static_assert(sizeof(T) >= (n) && _Alignof(T) == (a), #T ": size")
#define EXACT(T, n, a) \\
  _Static_assert(sizeof(T) == (n) && _Alignof(T) == (a), #T ": size")
/* Field f of T: at `off`, `size` bytes, of type TYPE. */
#define FIELD(T, f, off, size, TYPE) \\
  _Static_assert( \\
      offsetof(T, f) == (off) && sizeof(((T *)0)->f) == (size) && \\
          _Generic(&((T *)0)->f, __typeof__(TYPE) * : 1, default : 0), \\
      #T "." #f ": offset, size or type")
#define VALUE(c, v) _Static_assert((c) == (v), #c " == " #v)
#define AT_LEAST(c, v) _Static_assert((c) >= (v), #c " >= " #v)
"""


def main():
    records, enums = collect()
    ints, strings = macros()
    rec, fld, esz, val = measure(probe(records, enums, ints))
    minor = "1.%d" % val["MCPH_ABI_MINOR"]
    out = [PROLOGUE % {"minor": minor}]
    for name, tag, fields in records:
        t = "%s %s" % (tag, name)
        size, align = rec[name]
        led = fields and fields[0][0] == "struct_size"
        out.append("/* %s (%s) */" % (t, header_of(name, tag)))
        out.append("%s(%s, %d, %d);" % ("GROWS" if led else "EXACT", t, size,
                                        align))
        for f, ty in fields:
            off, fsize = fld[(name, f)]
            out.append("FIELD(%s, %s, %d, %d, %s);" % (t, f, off, fsize, ty))
        out.append("")
    for name, consts in enums:
        out.append("/* enum %s (%s) */" % (name, header_of(name, "enum")))
        out.append('_Static_assert(sizeof(enum %s) == %d, "enum %s");'
                   % (name, esz[name], name))
        for c in consts:
            out.append("VALUE(%s, %d);" % (c, val[c]))
        out.append("")
    out.append("/* Constants */")
    for m in ints:
        out.append("%s(%s, %d);" % ("AT_LEAST" if m in FLOOR else "VALUE", m,
                                    val[m]))
    out.append("")
    out.append("/* The ids: a published id never changes. */")
    out.append("static const struct {")
    out.append("  const char *name, *have, *want;")
    out.append("} ids[] = {")
    for m, v in strings:
        out.append('    {"%s", %s, %s},' % (m, m, v))
    out.append("};")
    out.append("""
int main(void) {
  int bad = 0;
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    if (strcmp(ids[i].have, ids[i].want) != 0) {
      printf("FAIL %s is \\"%s\\", frozen as \\"%s\\"\\n", ids[i].name,
             ids[i].have, ids[i].want);
      bad = 1;
    }
  }
  printf("%zu ids as frozen%s\\n", sizeof ids / sizeof ids[0],
         bad ? ": NO" : "");
  return bad;
}""")
    src = "\n".join(out) + "\n"
    fmt = subprocess.run(["clang-format", "--assume-filename=abi_layout.c"],
                         input=src, capture_output=True, text=True,
                         cwd=ROOT)
    sys.stdout.write(fmt.stdout if fmt.returncode == 0 else src)


if __name__ == "__main__":
    main()
