#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Files for `perfdump profile`'s tests (tests/profile.bats, issue 14).

Usage (from the project root):

    python3 scripts/gen-profiledata.py dynsym-elf SRC OUT
        OUT: SRC cut down to what symbolizing it from .dynsym needs: the
        ELF header, program and section headers (every section keeps its
        address and size), the bytes of .dynsym, .dynstr, the notes (the
        build-id) and .rela.plt (PLT entries) at their offsets, and of
        .gnu_debuglink and the section names after them; every other
        section becomes SHT_NOBITS (perf 6.1 reads .gnu_debuglink and
        .rela.plt without checking for NOBITS).  For a Debian binary whose
        build the test cannot count on (record-profile-fixtures.sh).
    python3 scripts/gen-profiledata.py kallsyms KALLSYMS OUT < IPS
        OUT: the lines of KALLSYMS that symbolize the kernel addresses
        read from IPS (hex, one a line) as perf does: the symbols at the
        address below each ip, and those at the next address (where the
        first ends, symbol.c symbols__fixup_end), and _text / _stext.
    python3 scripts/gen-profiledata.py hostile-elf SRC OUTDIR
        From the ELF file SRC (the fixture program testdata/profile/hot),
        with its build-id kept: truncated.elf (its first half),
        bad-section.elf (.symtab's offset past the end of the file),
        hostile-dwarf.elf (.debug_info, .debug_line, .debug_aranges and
        .debug_abbrev overwritten with lengths and offsets that point
        anywhere), dwarf-bomb.elf (.debug_line marked SHF_COMPRESSED with
        a 1 TiB uncompressed size).
    python3 scripts/gen-profiledata.py jit OUTDIR [VDSO]
        OUTDIR/jit.data: a recording (no build-ids) of process 4242
        (named 'jit,"x"', for CSV's quoting) with
        an executable //anon map whose JIT wrote OUTDIR/symfs/tmp/
        perf-4242.map, and kernel samples against OUTDIR/kallsyms whose
        _text is 16 MiB below the kernel MMAP's (a relocated kernel),
        one in a module's map ([mymod]).  With VDSO (an ELF file with a
        .symtab), also a [vdso] map in build-id form with VDSO's build-id
        and two samples in its work_a, which perf's build-id cache layout
        OUTDIR/debug/[vdso]/ID/vdso (a copy of VDSO) resolves.

    python3 scripts/gen-profiledata.py names LIST OUTDIR
        OUTDIR/names.data: a recording of process 4242 that maps
        /opt/names/libnames.so (MMAP2 in build-id form, and the build-id
        feature) and has one sample in each of its functions; that DSO is
        OUTDIR/symfs/opt/names/libnames.so, an x86-64 ELF whose .symtab
        names a 16-byte function for each line of LIST (names to
        demangle), and whose PLT has an entry for each line ending in
        "@plt" (.dynsym, .rela.plt); its build-id is LIST's SHA-1.  Lines
        that are empty or start with '#' are left out.

Standard library only, deterministic.  The perf.data writers are
gen-testdata.py's (and gen-hostile-paths.py's MMAP2 in build-id form).
"""

import bisect
import importlib.util
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def _load(name, file):
    spec = importlib.util.spec_from_file_location(
        name, os.path.join(HERE, file))
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


g = _load("gen_testdata", "gen-testdata.py")
hp = _load("gen_hostile_paths", "gen-hostile-paths.py")  # its MMAP2 writer

# include/uapi/linux/elf.h
SHT_NOTE, SHT_NOBITS, SHT_DYNSYM, SHT_STRTAB = 7, 8, 11, 3
SHF_COMPRESSED = 1 << 11


# ---------------------------------------------------------------------------
# ELF64 little-endian (Elf64_Ehdr, Elf64_Shdr)
# ---------------------------------------------------------------------------

class Elf:
    def __init__(self, b):
        if b[:4] != b"\x7fELF" or b[4] != 2 or b[5] != 1:
            raise SystemExit("not a little-endian ELF64 file")
        self.b = bytearray(b)
        (self.shoff,) = struct.unpack_from("<Q", b, 0x28)
        self.shentsize, self.shnum, self.shstrndx = struct.unpack_from(
            "<HHH", b, 0x3A)
        self.sh = [list(struct.unpack_from("<IIQQQQIIQQ", b,
                                           self.shoff + i * 64))
                   for i in range(self.shnum)]
        strtab = self.sh[self.shstrndx]
        self.names = [self.cstr(strtab[4] + s[0]) for s in self.sh]

    def cstr(self, off):
        end = self.b.index(b"\0", off)
        return self.b[off:end].decode()

    def index(self, name):
        return self.names.index(name)

    def shdr_bytes(self):
        return b"".join(struct.pack("<IIQQQQIIQQ", *s) for s in self.sh)


def dynsym_elf(src, out):
    with open(src, "rb") as f:
        e = Elf(f.read())
    keep = set()
    for i, s in enumerate(e.sh):
        if s[1] == SHT_DYNSYM:
            keep |= {i, s[6]}              # and its string table (sh_link)
        elif s[1] == SHT_NOTE or e.names[i] in (".rela.plt", ".rel.plt"):
            keep.add(i)
    moved = [i for i, n in enumerate(e.names) if n == ".gnu_debuglink"]
    end = max(e.sh[i][4] + e.sh[i][5] for i in keep)
    phoff, = struct.unpack_from("<Q", e.b, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", e.b, 0x36)
    end = max(end, phoff + phentsize * phnum)
    o = bytearray(end)
    o[:64] = e.b[:64]
    o[phoff:phoff + phentsize * phnum] = e.b[phoff:phoff + phentsize * phnum]
    for i in keep:
        off, size = e.sh[i][4], e.sh[i][5]
        o[off:off + size] = e.b[off:off + size]
    # the section names and the debug link after them, then the headers
    for i in moved + [e.shstrndx]:
        s = e.sh[i]
        data = e.b[s[4]:s[4] + s[5]]
        o += b"\0" * (g.align(len(o), 8) - len(o))
        s[4] = len(o)
        o += data
    for i, s in enumerate(e.sh):
        if i and i not in keep and i not in moved and i != e.shstrndx \
                and s[1] != 0:
            s[1] = SHT_NOBITS
    o += b"\0" * (g.align(len(o), 8) - len(o))
    struct.pack_into("<Q", o, 0x28, len(o))
    o += e.shdr_bytes()
    with open(out, "wb") as f:
        f.write(o)


# ---------------------------------------------------------------------------
# kallsyms
# ---------------------------------------------------------------------------

def kallsyms(src, out):
    lines = []
    with open(src) as f:
        for line in f:
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) == 3 and parts[1].upper() in "TWDB":
                lines.append((int(parts[0], 16), parts[2], line))
    lines.sort(key=lambda x: x[0])
    addrs = sorted({a for a, _, _ in lines})
    want = set()
    for tok in sys.stdin.read().split():
        ip = int(tok, 16)
        k = bisect.bisect_right(addrs, ip) - 1
        if k >= 0:
            want.add(addrs[k])
            if k + 1 < len(addrs):
                want.add(addrs[k + 1])
    with open(out, "w") as f:
        for a, name, line in lines:
            if a in want or name in ("_text", "_stext"):
                f.write(line)


# ---------------------------------------------------------------------------
# Hostile ELF files
# ---------------------------------------------------------------------------

def hostile_elf(src, outdir):
    with open(src, "rb") as f:
        raw = f.read()
    os.makedirs(outdir, exist_ok=True)

    def write(name, b):
        with open(os.path.join(outdir, name), "wb") as f:
            f.write(b)

    write("truncated.elf", raw[:len(raw) // 2])

    e = Elf(raw)
    e.sh[e.index(".symtab")][4] = len(raw) + 4096
    e.b[e.shoff:e.shoff + 64 * e.shnum] = e.shdr_bytes()
    write("bad-section.elf", e.b)

    e = Elf(raw)
    for name, fill in ((".debug_info", 0xFF), (".debug_line", 0xF0),
                       (".debug_aranges", 0x7F), (".debug_abbrev", 0x81)):
        s = e.sh[e.index(name)]
        off, size = s[4], s[5]
        # lengths, versions and offsets that lead anywhere
        junk = bytearray(bytes([fill]) * size)
        if size >= 12:
            struct.pack_into("<IHI", junk, 0, 0xFFFFFFF0, 5, 0x7FFFFFFF)
        e.b[off:off + size] = junk
    write("hostile-dwarf.elf", e.b)

    e = Elf(raw)
    s = e.sh[e.index(".debug_line")]
    s[2] |= SHF_COMPRESSED
    # Elf64_Chdr: ch_type ELFCOMPRESS_ZLIB, ch_reserved, ch_size, ch_addralign
    struct.pack_into("<IIQQ", e.b, s[4], 1, 0, 1 << 40, 1)
    e.b[e.shoff:e.shoff + 64 * e.shnum] = e.shdr_bytes()
    write("dwarf-bomb.elf", e.b)


# ---------------------------------------------------------------------------
# jit.data: a JIT's map and a relocated kernel
# ---------------------------------------------------------------------------

PID = 4242
MISC_KERNEL, MISC_USER = 1, 2
SAMPLE_TYPE = g.SAMPLE_TYPE      # IP | TID | TIME | ID | CPU | PERIOD
ATTR = {"name": "cpu-clock", "type": 1, "config": 0, "sample_period": 100000,
        "sample_type": SAMPLE_TYPE, "read_format": g.READ_FORMAT_ID,
        "flags": ["disabled", "inherit", "exclude_hv", "mmap", "comm",
                  "sample_id_all", "mmap2"],
        "ids": [0x101]}
JIT = 0x7F0000000000
KTEXT = 0xFFFFFFFF81000000       # _text when recorded
KFILE = KTEXT - (16 << 20)       # _text in the kallsyms file
MOD = 0xFFFFFFFFC0000000

PERF_MAP = "7f0000001000 40 jit_hot\n7f0000001040 20 jit_cold\n"
KALLSYMS = "\n".join([
    "%x T _text" % KFILE,
    "%x T kfunc_a" % (KFILE + 0x1000),
    "%x t kfunc_b" % (KFILE + 0x2000),
    "%x T kfunc_end" % (KFILE + 0x3000),
    "%x t modfunc\t[mymod]" % (MOD + 0x1000),
    "%x t modfunc_end\t[mymod]" % (MOD + 0x1100),
]) + "\n"


def sid(t, pid=PID):
    return {"pid": pid, "tid": pid, "time": t, "id": 0x101, "cpu": 0}


def mmap(e, misc, pid, name, addr, size, pgoff, t):
    m = {"misc": misc, "pid": pid, "tid": max(pid, 0), "addr": addr,
         "len": size, "pgoff": pgoff, "filename": name}
    r = g.rec_mmap(e, m)
    return g.Rec(e, 1, misc, r.bytes[8:] + g.sid_trailer(e, sid(t, pid)),
                 r.fields)


def sample(e, misc, ip, t):
    return g.rec_sample(e, SAMPLE_TYPE, {
        "misc": misc, "ip": ip, "pid": PID, "tid": PID, "time": t,
        "id": 0x101, "cpu": 0, "period": 100000})


VDSO = 0x7FFFF7FC0000


def elf_sym_offset(b, name):
    """The file offset of symbol name's address (.symtab, PT_LOAD)."""
    e = Elf(b)
    sh = e.sh[e.index(".symtab")]
    strs = e.sh[sh[6]]
    phoff, = struct.unpack_from("<Q", b, 0x20)
    phnum, = struct.unpack_from("<H", b, 0x38)
    for i in range(sh[5] // 24):
        st_name, _, _, _, value, _ = struct.unpack_from(
            "<IBBHQQ", b, sh[4] + 24 * i)
        if e.cstr(strs[4] + st_name) != name:
            continue
        for k in range(phnum):
            ptype, _, off, vaddr, _, filesz = struct.unpack_from(
                "<IIQQQQ", b, phoff + 56 * k)
            if ptype == 1 and vaddr <= value < vaddr + filesz:
                return value - vaddr + off
    raise SystemExit("no symbol %s" % name)


def jit(outdir, vdso=None):
    e = g.Endian("<")
    t = 1000000000
    recs = [g.rec_comm(e, {"misc": 0, "pid": PID, "tid": PID,
                           "comm": 'jit,"x"'}, sid(t)),
            mmap(e, MISC_KERNEL, -1, "[kernel.kallsyms]_text", KTEXT,
                 0x1000000, KTEXT, t + 1),
            mmap(e, MISC_KERNEL, -1, "/lib/modules/6.1/mymod.ko", MOD,
                 0x10000, 0, t + 2),
            mmap(e, MISC_USER, PID, "//anon", JIT, 0x10000, 0, t + 3)]
    ips = ([(MISC_USER, JIT + 0x1010)] * 3 + [(MISC_USER, JIT + 0x1048)]
           + [(MISC_USER, JIT + 0x2000)]
           + [(MISC_KERNEL, KTEXT + 0x1010)] * 2
           + [(MISC_KERNEL, KTEXT + 0x2800)]
           + [(MISC_KERNEL, MOD + 0x1010)])
    if vdso:
        with open(vdso, "rb") as f:
            raw = f.read()
        bid = hp.elf_build_id(vdso)
        d = os.path.join(outdir, "debug", "[vdso]", bid)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "vdso"), "wb") as f:
            f.write(raw)
        recs.append(hp.rec_mmap2_bid(e, "[vdso]", VDSO, bid, t + 4,
                                     size=0x10000))
        ips += [(MISC_USER, VDSO + elf_sym_offset(raw, "work_a") + 4)] * 2
    for i, (misc, ip) in enumerate(ips):
        recs.append(sample(e, misc, ip, t + 10 + i))
    recs.append(g.rec_finished_round(e))
    out, _ = g.assemble_file(e, attrs=[ATTR], attr_size_field=g.ATTR_VER8,
                             records=recs, features=[])
    os.makedirs(os.path.join(outdir, "symfs", "tmp"), exist_ok=True)
    with open(os.path.join(outdir, "jit.data"), "wb") as f:
        f.write(out)
    with open(os.path.join(outdir, "symfs", "tmp", "perf-%d.map" % PID),
              "w") as f:
        f.write(PERF_MAP)
    with open(os.path.join(outdir, "kallsyms"), "w") as f:
        f.write(KALLSYMS)


# ---------------------------------------------------------------------------
# names.data: a DSO whose symbols are names to demangle
# ---------------------------------------------------------------------------

NAMES_SO = "/opt/names/libnames.so"
NAMES_BASE = 0x7F0000000000
EM_X86_64, ET_DYN = 62, 3
SHT_PROGBITS, SHT_SYMTAB, SHT_RELA = 1, 2, 4
SHF_ALLOC, SHF_EXECINSTR = 2, 4
R_X86_64_JUMP_SLOT = 7


def strtab(names):
    """A string table and each name's offset in it."""
    b, offs = bytearray(b"\0"), []
    for n in names:
        offs.append(len(b))
        b += n.encode() + b"\0"
    return bytes(b), offs


def symtab(offs, shndx, values, size):
    """Elf64_Sym entries: the null one, then a global function each."""
    b = bytes(24)
    for off, v in zip(offs, values):
        b += struct.pack("<IBBHQQ", off, 0x12, 0, shndx, v, size)
    return b


def names_elf(syms, plts, bid):
    """An x86-64 ET_DYN: a .text of 16 bytes per name of syms (.symtab),
    a .plt whose entries after its header call plts (.dynsym, .rela.plt:
    perf 6.1's dso__synthesize_plt_symbols, entries of sh_entsize), a
    build-id note; one PT_LOAD of the file from 0 (address = offset)."""
    note = struct.pack("<III", 4, len(bid), 3) + b"GNU\0" + bid
    note_off, plt_off = 0x100, 0x1000
    text_off = plt_off + 16 * (len(plts) + 1)
    load_end = text_off + 16 * len(syms)
    dynstr, doffs = strtab(plts)
    strs, soffs = strtab(syms)
    # section 1 .note, 2 .plt, 3 .text, 4 .dynsym, 5 .dynstr, 6 .rela.plt,
    # 7 .symtab, 8 .strtab, 9 .shstrtab
    dynsym = symtab(doffs, 0, [0] * len(plts), 0)
    rela = b"".join(struct.pack("<QQq", 0x3000 + 8 * k,
                                (k + 1) << 32 | R_X86_64_JUMP_SLOT, 0)
                    for k in range(len(plts)))
    stab = symtab(soffs, 3, [text_off + 16 * i for i in range(len(syms))], 16)
    shnames = [".note.gnu.build-id", ".plt", ".text", ".dynsym", ".dynstr",
               ".rela.plt", ".symtab", ".strtab", ".shstrtab"]
    shstr, shoffs = strtab(shnames)
    o = bytearray(load_end)
    o[note_off:note_off + len(note)] = note
    sh = [[0] * 10]
    sh.append([shoffs[0], SHT_NOTE, SHF_ALLOC, note_off, note_off, len(note),
               0, 0, 4, 0])
    sh.append([shoffs[1], SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, plt_off,
               plt_off, text_off - plt_off, 0, 0, 16, 16])
    sh.append([shoffs[2], SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, text_off,
               text_off, load_end - text_off, 0, 0, 16, 0])
    for i, (name, t, data, link, info, ent) in enumerate([
            (3, SHT_DYNSYM, dynsym, 5, 1, 24), (4, SHT_STRTAB, dynstr, 0, 0, 0),
            (5, SHT_RELA, rela, 4, 2, 24), (6, SHT_SYMTAB, stab, 8, 1, 24),
            (7, SHT_STRTAB, strs, 0, 0, 0), (8, SHT_STRTAB, shstr, 0, 0, 0)]):
        o += b"\0" * (g.align(len(o), 8) - len(o))
        sh.append([shoffs[name], t, 0, 0, len(o), len(data), link, info, 8,
                   ent])
        o += data
    o += b"\0" * (g.align(len(o), 8) - len(o))
    shoff = len(o)
    o += b"".join(struct.pack("<IIQQQQIIQQ", *x) for x in sh)
    phdrs = (struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, load_end, load_end,
                         0x1000)
             + struct.pack("<IIQQQQQQ", 4, 4, note_off, note_off, note_off,
                           len(note), len(note), 4))
    o[0:64] = (b"\x7fELF\x02\x01\x01" + bytes(9)
               + struct.pack("<HHIQQQIHHHHHH", ET_DYN, EM_X86_64, 1, 0, 64,
                             shoff, 0, 64, 56, 2, 64, len(sh), 9))
    o[64:64 + len(phdrs)] = phdrs
    return bytes(o), plt_off, text_off


def names(listfile, outdir):
    import hashlib
    with open(listfile) as f:
        lines = [x.rstrip("\n") for x in f]
    lines = [x for x in lines if x and not x.startswith("#")]
    plts = [x[:-4] for x in lines if x.endswith("@plt")]
    syms = [x for x in lines if not x.endswith("@plt")]
    with open(listfile, "rb") as f:
        bid = hashlib.sha1(f.read()).digest()
    elf, plt_off, text_off = names_elf(syms, plts, bid)
    d = os.path.join(outdir, "symfs", os.path.dirname(NAMES_SO)[1:])
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(outdir, "symfs", NAMES_SO[1:]), "wb") as f:
        f.write(elf)
    e = g.Endian("<")
    t = 1000000000
    ips = ([plt_off + 16 * (k + 1) + 4 for k in range(len(plts))]
           + [text_off + 16 * i + 4 for i in range(len(syms))])
    recs = [g.rec_comm(e, {"misc": 0, "pid": hp.PID, "tid": hp.PID,
                           "comm": "names"}, hp.sid(t)),
            hp.rec_mmap2_bid(e, NAMES_SO, NAMES_BASE, bid.hex(), t + 1,
                             size=g.align(len(elf), 0x1000))]
    recs += [hp.sample(e, NAMES_BASE + ip, t + 10 + i)
             for i, ip in enumerate(ips)]
    recs.append(g.rec_finished_round(e))
    # perf_event_attr of VER7, which perf 6.1 reads (perf report makes the
    # reference)
    out, _ = g.assemble_file(e, attrs=[hp.ATTR], attr_size_field=g.ATTR_VER7,
                             records=recs,
                             features=[(hp.FEAT_BUILD_ID, g.f_build_id)],
                             build_ids=[hp.entry(NAMES_SO, bid.hex())])
    with open(os.path.join(outdir, "names.data"), "wb") as f:
        f.write(out)


def main():
    a = sys.argv[1:]
    if len(a) == 3 and a[0] == "dynsym-elf":
        dynsym_elf(a[1], a[2])
    elif len(a) == 3 and a[0] == "kallsyms":
        kallsyms(a[1], a[2])
    elif len(a) == 3 and a[0] == "hostile-elf":
        hostile_elf(a[1], a[2])
    elif len(a) == 3 and a[0] == "names":
        names(a[1], a[2])
    elif len(a) in (2, 3) and a[0] == "jit":
        jit(a[1], a[2] if len(a) == 3 else None)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
