"""Writes the hostile bundles of test_bundle_extraction.sh into a
directory: one ZIP per rule of the extraction (docs/bundles.md), each
after a valid manifest.json. Usage: hostile_zips.py OUTDIR"""
import struct
import sys
import zipfile
import zlib

OUT = sys.argv[1]
MANIFEST = (b'{"manifest_version":"0.2","name":"evil","version":"1.0.0",'
            b'"description":"d","author":{"name":"x"},"server":{"type":'
            b'"node","entry_point":"server/index.js","mcp_config":'
            b'{"command":"node","args":["x"]}}}')


def entry(name, mode=0o100644):
    zi = zipfile.ZipInfo(name)
    zi.create_system = 3
    zi.external_attr = mode << 16
    zi.compress_type = zipfile.ZIP_DEFLATED
    return zi


def bundle(fname, items, manifest=True):
    with zipfile.ZipFile(f"{OUT}/{fname}.mcpb", "w") as z:
        if manifest:
            z.writestr(entry("manifest.json"), MANIFEST)
        z.writestr(entry("server/index.js"), b"// ok\n")
        for item in items:
            name, data = item[0], item[1]
            mode = item[2] if len(item) > 2 else 0o100644
            z.writestr(entry(name, mode), data)


bundle("dotdot", [("../escaped.txt", b"x")])
bundle("dotdot_inner", [("server/../../escaped.txt", b"x")])
bundle("absolute", [("/tmp/escaped-abs.txt", b"x")])
bundle("drive", [("C:/escaped.txt", b"x")])
bundle("backslash", [("..\\escaped.txt", b"x")])
bundle("control", [("server/a\x1b[2Jb.txt", b"x")])
bundle("newline", [("server/a\nmcphost: forged line", b"x")])
bundle("duplicate", [("server/index.js", b"second")])
bundle("duplicate_case", [("SERVER/INDEX.JS", b"second")])
bundle("duplicate_fold", [("server/\u00c4rger.txt", b"1"),
                          ("server/\u00e4rger.txt", b"2")])
bundle("duplicate_sharp_s", [("server/Stra\u00dfe.txt", b"1"),
                             ("server/STRASSE.txt", b"2")])
bundle("symlink", [("server/link", b"/etc", 0o120777)])
bundle("device", [("server/dev", b"", 0o020644)])
bundle("fifo", [("server/fifo", b"", 0o010644)])
bundle("dotcomp", [("server/./x.txt", b"x")])
# A file inside a directory that is a file already.
bundle("file_as_dir", [("server/index.js/x", b"x")])

# A non-ASCII name is fine: installs, under its UTF-8 name.
bundle("utf8_name", [("server/caf\u00e9 \u65e5\u672c.txt", b"x")])

# setuid/setgid/sticky never kept: installs, with 0755.
bundle("setuid", [("server/suid", b"#!/bin/sh\n", 0o107755)])

# A compression bomb: 300 MiB of zeros in one entry.
with zipfile.ZipFile(f"{OUT}/bomb.mcpb", "w") as z:
    z.writestr(entry("manifest.json"), MANIFEST)
    z.writestr(entry("server/index.js"), b"// ok\n")
    zi = entry("server/zeros")
    with z.open(zi, "w", force_zip64=True) as f:
        chunk = b"\0" * (1 << 20)
        for _ in range(300):
            f.write(chunk)

# 100 000 entries.
with zipfile.ZipFile(f"{OUT}/many.mcpb", "w", zipfile.ZIP_STORED) as z:
    z.writestr(entry("manifest.json"), MANIFEST)
    z.writestr(entry("server/index.js"), b"// ok\n")
    for i in range(100000):
        zi = zipfile.ZipInfo(f"f/{i}")
        zi.create_system = 3
        zi.external_attr = 0o100644 << 16
        z.writestr(zi, b"")

# A file larger than its headers say: the sizes of server/big patched
# down in the local and central headers (the deflate stream holds more).
with zipfile.ZipFile(f"{OUT}/liar.mcpb", "w") as z:
    z.writestr(entry("manifest.json"), MANIFEST)
    z.writestr(entry("server/index.js"), b"// ok\n")
    z.writestr(entry("server/big"), b"A" * 100000)
data = bytearray(open(f"{OUT}/liar.mcpb", "rb").read())
for sig, off in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
    pos = 0
    while True:
        pos = data.find(sig, pos)
        if pos < 0:
            break
        nlen_off = 26 if sig == b"PK\x03\x04" else 28
        nlen = struct.unpack_from("<H", data, pos + nlen_off)[0]
        hdr = 30 if sig == b"PK\x03\x04" else 46
        name = bytes(data[pos + hdr:pos + hdr + nlen])
        if name == b"server/big":
            struct.pack_into("<I", data, pos + off, 10)
        pos += 4
open(f"{OUT}/liar.mcpb", "wb").write(data)

# Truncated: the hello bundle cut in the middle of its data.
src = open(sys.argv[2], "rb").read() if len(sys.argv) > 2 else None
if src:
    open(f"{OUT}/truncated.mcpb", "wb").write(src[: len(src) // 2])
    # The central directory kept, the data of the entries zeroed: what
    # the reader decompresses is garbage.
    broken = bytearray(src)
    for i in range(40, len(src) // 2):
        broken[i] = 0
    open(f"{OUT}/damaged.mcpb", "wb").write(broken)

# Encrypted: the encryption flag set on server/index.js (traditional
# PKWARE encryption is what the flag announces; the data stays as is).
with zipfile.ZipFile(f"{OUT}/encrypted.mcpb", "w") as z:
    z.writestr(entry("manifest.json"), MANIFEST)
    z.writestr(entry("server/index.js"), b"// ok\n")
data = bytearray(open(f"{OUT}/encrypted.mcpb", "rb").read())
for sig, off, hdr, nl in ((b"PK\x03\x04", 6, 30, 26),
                          (b"PK\x01\x02", 8, 46, 28)):
    pos = 0
    while True:
        pos = data.find(sig, pos)
        if pos < 0:
            break
        nlen = struct.unpack_from("<H", data, pos + nl)[0]
        if bytes(data[pos + hdr:pos + hdr + nlen]) == b"server/index.js":
            flags = struct.unpack_from("<H", data, pos + off)[0]
            struct.pack_into("<H", data, pos + off, flags | 1)
        pos += 4
open(f"{OUT}/encrypted.mcpb", "wb").write(data)

# A hard link: Info-ZIP has no hard links, so a tar-style link is made by
# an entry with the hardlink's mode bits is impossible in ZIP; libarchive
# reads hard links only from formats this reader does not enable. A tar
# file renamed .mcpb stands for it: refused as not a ZIP.
import io
import tarfile
with tarfile.open(f"{OUT}/hardlink.mcpb", "w") as t:
    ti = tarfile.TarInfo("manifest.json")
    ti.size = len(MANIFEST)
    t.addfile(ti, io.BytesIO(MANIFEST))
    hl = tarfile.TarInfo("server/hard")
    hl.type = tarfile.LNKTYPE
    hl.linkname = "/etc/passwd"
    t.addfile(hl)
