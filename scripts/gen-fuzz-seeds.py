#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the seed corpus of the fuzz targets (tests/fuzz/README.md).

Usage (from the project root; `make fuzz` runs it):

    python3 scripts/gen-fuzz-seeds.py OUTDIR

OUTDIR/perf gets perf.data seeds made from testdata/*.data, the "data"
file of testdata's directory recordings and testdata/synthetic/*.data;
OUTDIR/elf gets small ELF images and bare note sequences for the build-id
target, OUTDIR/paths paths for the rootpath target.  Every seed is under 64 KiB (the fuzzer's -max_len) and is cut
at structure boundaries, so that it is still a sound recording:

  NAME           the file itself, when it is under 64 KiB and already
                 damaged on purpose (testdata/synthetic) or small;
  NAME.head      file mode: the header, ids and attrs as they are, the
                 first 16 records of the data section, then the feature
                 section table and every feature section, moved down and
                 their offsets rewritten (tools/perf/util/header.c:
                 perf_session__do_write_header); pipe mode: the records up
                 to the 16th kernel record (metadata records kept whole,
                 with their payloads);
  NAME.cut       the same with as many records as fit in 64 KiB, for the
                 files that are larger.

Layouts: include/uapi/linux/perf_event.h (struct perf_event_header),
tools/perf/util/header.h (struct perf_file_header, perf_file_section),
tools/lib/perf/include/perf/event.h (HEADER_TRACING_DATA's and
AUXTRACE's payloads), include/uapi/linux/elf.h (Elf64_Ehdr, Elf64_Phdr,
Elf64_Shdr, Elf64_Nhdr, NT_GNU_BUILD_ID).  Standard library only,
deterministic: the same bytes on every run.  Nothing is copied from
../shared/corpus.
"""

import glob
import hashlib
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_SEED = 64 << 10
HEAD_RECORDS = 16

REC_HEADER_ATTR = 64  # first of perf's user (metadata) record types
REC_HEADER_TRACING_DATA = 66  # u32 size; the payload follows the record
REC_AUXTRACE = 71  # u64 size; the payload follows the record


class Bad(Exception):
    """Not a layout this script can cut: the file is used as it is."""


def u(b, off, fmt, e):
    if off < 0 or off + struct.calcsize(fmt) > len(b):
        raise Bad("read past the end")
    return struct.unpack_from(e + fmt, b, off)[0]


def records(b, start, end, e):
    """(offset, total length) of each record in b[start:end], payloads
    included; stops at the first that is not whole."""
    at = start
    while at + 8 <= end:
        rtype = u(b, at, "I", e)
        size = u(b, at + 6, "H", e)
        if size < 8 or at + size > end:
            return
        total = size
        if rtype == REC_HEADER_TRACING_DATA and size >= 12:
            total += u(b, at + 8, "I", e)
        elif rtype == REC_AUXTRACE and size >= 16:
            total += u(b, at + 8, "Q", e)
        if at + total > end:
            return
        yield at, total, rtype
        at += total


def cut_pipe(b, e, nkernel, limit):
    """The records from the 16-byte pipe header up to nkernel kernel
    records (None: any number), within limit bytes."""
    end, seen = 16, 0
    for at, total, rtype in records(b, 16, len(b), e):
        if at + total > limit or (nkernel is not None and seen >= nkernel):
            break
        end = at + total
        seen += rtype < REC_HEADER_ATTR
    return b[:end]


def cut_file(b, e, nrecords, limit):
    """File mode: nrecords records of the data section (None: as many as
    fit in limit), then the feature table and sections, moved down."""
    data_off, data_size = u(b, 40, "Q", e), u(b, 48, "Q", e)
    if u(b, 8, "Q", e) != 104 or data_size == 0 or data_off + data_size > len(b):
        raise Bad("no whole data section")
    bitmap = [u(b, 72 + 8 * i, "Q", e) for i in range(4)]
    nfeat = sum(bin(w).count("1") for w in bitmap)
    table = data_off + data_size
    sections = []
    for i in range(nfeat):
        off, size = u(b, table + 16 * i, "Q", e), u(b, table + 16 * i + 8, "Q", e)
        if off + size > len(b):
            raise Bad("feature section past the end")
        sections.append(b[off:off + size])
    tail = 16 * nfeat + sum(len(s) for s in sections)
    head = b[:data_off]
    recs = list(records(b, data_off, table, e))
    keep = []
    for at, total, _ in recs:
        if nrecords is not None and len(keep) >= nrecords:
            break
        if nrecords is None and len(head) + (at + total - data_off) + tail > limit:
            break
        keep.append((at, total))
    data = b"".join(b[at:at + total] for at, total in keep)
    if len(head) + len(data) + tail > limit:
        raise Bad("the features alone do not fit")
    out = bytearray(head)
    struct.pack_into(e + "Q", out, 48, len(data))
    out += data
    pos = len(out) + 16 * nfeat
    for s in sections:
        out += struct.pack(e + "QQ", pos, len(s))
        pos += len(s)
    for s in sections:
        out += s
    return bytes(out)


def perf_seeds(path, b):
    """(suffix, bytes) of the seeds made from one file."""
    if b[:8] == b"PERFILE2":
        e = "<"
    elif b[:8] == b"2ELIFREP":
        e = ">"
    else:
        e = None
    seeds = []
    if len(b) <= MAX_SEED:
        seeds.append(("", b))
    if e is None or "/synthetic/" in path:
        return seeds  # damaged or odd on purpose: as it is, or not at all
    try:
        if u(b, 8, "Q", e) == 16:
            seeds.append((".head", cut_pipe(b, e, HEAD_RECORDS, MAX_SEED)))
            if len(b) > MAX_SEED:
                seeds.append((".cut", cut_pipe(b, e, None, MAX_SEED)))
        else:
            seeds.append((".head", cut_file(b, e, HEAD_RECORDS, MAX_SEED)))
            if len(b) > MAX_SEED:
                seeds.append((".cut", cut_file(b, e, None, MAX_SEED)))
    except Bad as why:
        print("gen-fuzz-seeds: %s: %s: not cut" % (path, why), file=sys.stderr)
    return seeds


# ---------------------------------------------------------------- ELF

NT_GNU_BUILD_ID = 3


def note(e, name, ntype, desc, align=4):
    """Elf_Nhdr (namesz, descsz, type), name NUL-terminated, each padded."""
    pad = lambda x: x + b"\0" * (-len(x) % align)
    return struct.pack(e + "III", len(name) + 1, len(desc), ntype) + \
        pad(name + b"\0") + pad(desc)


def elf(e, wide, notes, note_align=4, phdr=True, shdr=True):
    """An ELF image of type ET_DYN holding notes, found through a PT_NOTE
    program header and a SHT_NOTE section (.note.gnu.build-id)."""
    ehsize, phentsize, shentsize = (64, 56, 64) if wide else (52, 32, 40)
    shstr = b"\0.note.gnu.build-id\0.shstrtab\0"
    note_off = ehsize + (phentsize if phdr else 0)
    shstr_off = note_off + len(notes)
    sh_off = shstr_off + len(shstr)
    sh_off += -sh_off % 8
    ident = b"\x7fELF" + bytes([2 if wide else 1, 1 if e == "<" else 2, 1]) + b"\0" * 9
    hdr = ident + struct.pack(e + "HHI", 3, 62 if wide else 3, 1)
    if wide:
        hdr += struct.pack(e + "QQQ", 0, ehsize if phdr else 0, sh_off if shdr else 0)
    else:
        hdr += struct.pack(e + "III", 0, ehsize if phdr else 0, sh_off if shdr else 0)
    hdr += struct.pack(e + "IHHHHHH", 0, ehsize, phentsize, 1 if phdr else 0,
                       shentsize, 3 if shdr else 0, 2 if shdr else 0)
    out = bytearray(hdr)
    if phdr:  # PT_NOTE = 4, PF_R = 4
        if wide:
            out += struct.pack(e + "IIQQQQQQ", 4, 4, note_off, note_off, note_off,
                               len(notes), len(notes), note_align)
        else:
            out += struct.pack(e + "IIIIIIII", 4, note_off, note_off, note_off,
                               len(notes), len(notes), 4, note_align)
    out += notes + shstr
    out += b"\0" * (sh_off - len(out))
    if shdr:  # null; SHT_NOTE = 7, SHF_ALLOC = 2; SHT_STRTAB = 3
        if wide:
            sh = lambda *v: struct.pack(e + "IIQQQQIIQQ", *v)
        else:
            sh = lambda *v: struct.pack(e + "IIIIIIIIII", *v)
        out += sh(0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        out += sh(1, 7, 2, note_off, note_off, len(notes), 0, 0, note_align, 0)
        out += sh(20, 3, 0, 0, shstr_off, len(shstr), 0, 0, 1, 0)
    return bytes(out)


def elf_seeds():
    sha1 = bytes(range(0x10, 0x24))
    md5 = bytes(range(0xa0, 0xb0))
    long_id = bytes(range(0x40, 0x80))  # ld --build-id=0x<64 bytes>
    seeds = []
    for e in ("<", ">"):
        for wide in (True, False):
            tag = "%s%d" % ("le" if e == "<" else "be", 64 if wide else 32)
            gnu = note(e, b"GNU", NT_GNU_BUILD_ID, sha1)
            seeds.append(("elf-%s" % tag, elf(e, wide, gnu)))
            seeds.append(("elf-%s-notes" % tag, elf(e, wide,
                          note(e, b"GNU", 1, b"\0" * 16) +
                          note(e, b"Xen", NT_GNU_BUILD_ID, md5) + gnu)))
    le = "<"
    seeds += [
        ("elf-le64-md5", elf(le, True, note(le, b"GNU", NT_GNU_BUILD_ID, md5))),
        ("elf-le64-long", elf(le, True, note(le, b"GNU", NT_GNU_BUILD_ID, long_id))),
        ("elf-le64-align8", elf(le, True, note(le, b"GNU", NT_GNU_BUILD_ID, sha1, 8), 8)),
        ("elf-le64-phdr-only", elf(le, True, note(le, b"GNU", NT_GNU_BUILD_ID, sha1), shdr=False)),
        ("elf-le64-shdr-only", elf(le, True, note(le, b"GNU", NT_GNU_BUILD_ID, sha1), phdr=False)),
        ("elf-le64-none", elf(le, True, note(le, b"GNU", 1, b"\0" * 16))),
        # a real program with CFI and DWARF (lines, inlined calls): what
        # records --symbols unwinds and reads lines from
        ("elf-inl-nolibc", open(os.path.join(ROOT, "testdata", "profile",
                                             "inl-nolibc"), "rb").read()),
        # /sys/kernel/notes: bare notes in host byte order
        ("notes-kernel", note(le, b"Xen", 6, b"linux\0\0\0") +
         note(le, b"GNU", NT_GNU_BUILD_ID, sha1) + note(le, b"Linux", 0x100, b"\1\0\0\0")),
    ]
    return seeds


# The rootpath target's sandbox (tests/fuzz/targets.c: sandbox): names
# in the root, and links that try to leave it.
PATHS = ["/bin/true", "/lib/libc.so.6", "abs/libc.so.6", "up", "lib/up2",
         "dirlink/up2", "self", "lib/chain", "fifo", "/../secret",
         "/usr/bin/../../../secret", "tmp/x", "deep", "dot/dot/up", "lib/",
         "dirlink/../lib/libc.so.6", "//lib//./libc.so.6", "bin/true/x"]


def write(outdir, name, data, seen):
    digest = hashlib.sha1(data).digest()
    if digest in seen or not data:
        return 0
    seen.add(digest)
    assert len(data) <= MAX_SEED, name
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(data)
    return 1


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen-fuzz-seeds.py OUTDIR")
    out = sys.argv[1]
    perf_dir, elf_dir = os.path.join(out, "perf"), os.path.join(out, "elf")
    path_dir = os.path.join(out, "paths")
    for d in (perf_dir, elf_dir, path_dir):
        os.makedirs(d, exist_ok=True)
        for old in os.listdir(d):
            os.unlink(os.path.join(d, old))
    files = sorted(glob.glob(os.path.join(ROOT, "testdata", "*.data", "data")) +
                   [p for p in glob.glob(os.path.join(ROOT, "testdata", "*.data"))
                    if os.path.isfile(p)] +
                   glob.glob(os.path.join(ROOT, "testdata", "synthetic", "*.data")))
    seen, n = set(), 0
    for path in files:
        with open(path, "rb") as f:
            b = f.read()
        rel = os.path.relpath(path, os.path.join(ROOT, "testdata"))
        base = rel.replace("/data", "").replace("synthetic/", "syn-")
        for suffix, data in perf_seeds(path, b):
            n += write(perf_dir, base + suffix, data, seen)
    m = sum(write(elf_dir, name, data, seen) for name, data in elf_seeds())
    k = sum(write(path_dir, "path%02d" % i, p.encode(), seen)
            for i, p in enumerate(PATHS))
    print("gen-fuzz-seeds: %d perf.data seeds in %s, %d ELF seeds in %s, "
          "%d paths in %s" % (n, perf_dir, m, elf_dir, k, path_dir))


if __name__ == "__main__":
    main()
