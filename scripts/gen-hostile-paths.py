#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write recordings whose filenames try to leave --symfs / --debug-dir.

Usage (from the project root):

    python3 scripts/gen-hostile-paths.py OUTDIR SECRET INSIDE
    python3 scripts/gen-hostile-paths.py --build-id ELF

SECRET and INSIDE are ELF files with different GNU build-ids (the tests
use copies of /bin/true and /bin/false): the recordings name SECRET's
build-id where a hostile path would reach a copy of SECRET outside the
root, and INSIDE's where a path should reach the copy inside it.  The
build-ids are read here from the ELF notes, so the output depends only on
those two ids: the same bytes on every run.  --build-id prints an ELF
file's build-id in hex.  Standard library only; the perf.data writers
are gen-testdata.py's (Endian, Rec, assemble_file, buildid_entry...).

OUTDIR/hostile-symfs.data (file mode, for --symfs):
  HEADER_BUILD_ID feature (tools/perf/util/header.c: write_build_id,
  struct perf_record_header_build_id):
    /../../etc/passwd                    SECRET  ".." above the root
    /usr/bin/../../../outside/secret.so  SECRET  ".." above the root
    /lib/secret.so                       SECRET  the test's lib -> ../outside
    /opt/abs.so                          SECRET  a link to SECRET's absolute
                                                 path outside the root
    /opt/abs-in.so                       INSIDE  a link to /real/false.so
    /opt/rel-in.so                       INSIDE  a link to ../real/false.so
    /usr/lib/../../real/false.so         INSIDE  ".." that stays inside
    /opt/fifo.so                         INSIDE  a FIFO in the tree
    /opt/loop.so                         INSIDE  a link to itself
    /usr/lib/deep.so                     INSIDE  ../../opt/rel-in.so: a
                                                 link to a link
    /opt/trail.so                        INSIDE  ../real/false.so/: a
                                                 directory is asked for
  records: COMM, MMAP /../../etc/passwd (no build-id), MMAP2 in build-id
  form /opt/../../outside/secret.so (SECRET), a SAMPLE in each map, a
  PERF_RECORD_HEADER_BUILD_ID /./../outside/secret.so (SECRET).

OUTDIR/hostile-cache.data (file mode, for --debug-dir):
    /usr/bin/../../../outside/cache.so   SECRET  <dir>/<path>/<id>/elf
                                                 would leave the cache
    /opt/bid.so                          SECRET  .build-id/xx/rest is the
                                                 test's link to outside
    /opt/renamed.so                      INSIDE  .build-id/xx/rest ->
                                                 ../../moved/... (inside)
"""

import importlib.util
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "gen_testdata", os.path.join(HERE, "gen-testdata.py"))
g = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(g)

# include/uapi/linux/perf_event.h
MISC_USER = 2                    # PERF_RECORD_MISC_USER
MISC_MMAP_BUILD_ID = 1 << 14     # PERF_RECORD_MISC_MMAP_BUILD_ID (MMAP2)
MISC_BUILD_ID_SIZE = 1 << 15     # tools/perf/util/build-id.h: PERF_RECORD_MISC_BUILD_ID_SIZE
REC_MMAP, REC_MMAP2, REC_HEADER_BUILD_ID = 1, 10, 67
FEAT_BUILD_ID = 2                # tools/perf/util/header.h: HEADER_BUILD_ID

PID = 4242
SAMPLE_TYPE = g.SAMPLE_TYPE      # IP | TID | TIME | ID | CPU | PERIOD
ATTR = {"name": "cpu-clock", "type": 1, "config": 0, "sample_period": 100000,
        "sample_type": SAMPLE_TYPE, "read_format": g.READ_FORMAT_ID,
        "flags": ["disabled", "inherit", "exclude_hv", "mmap", "comm",
                  "sample_id_all", "mmap2"],
        "ids": [0x101]}

# ---------------------------------------------------------------------------
# The GNU build-id of an ELF file: its PT_NOTE segments
# (include/uapi/linux/elf.h: Elf32/64_Ehdr, Elf32/64_Phdr, Elf64_Nhdr;
# NT_GNU_BUILD_ID is 3, owner "GNU").
# ---------------------------------------------------------------------------


def elf_build_id(path):
    with open(path, "rb") as f:
        b = f.read()
    if b[:4] != b"\x7fELF":
        raise SystemExit("%s: not an ELF file" % path)
    wide = b[4] == 2                 # EI_CLASS: ELFCLASS64
    e = "<" if b[5] == 1 else ">"    # EI_DATA: ELFDATA2LSB
    if wide:
        phoff, = struct.unpack_from(e + "Q", b, 0x20)
        phentsize, phnum = struct.unpack_from(e + "HH", b, 0x36)
    else:
        phoff, = struct.unpack_from(e + "I", b, 0x1C)
        phentsize, phnum = struct.unpack_from(e + "HH", b, 0x2A)
    for i in range(phnum):
        p = phoff + i * phentsize
        if wide:
            ptype, = struct.unpack_from(e + "I", b, p)
            off, = struct.unpack_from(e + "Q", b, p + 8)
            size, = struct.unpack_from(e + "Q", b, p + 0x20)
            palign, = struct.unpack_from(e + "Q", b, p + 0x30)
        else:
            ptype, off, = struct.unpack_from(e + "II", b, p)
            size, = struct.unpack_from(e + "I", b, p + 16)
            palign, = struct.unpack_from(e + "I", b, p + 28)
        if ptype != 4:               # PT_NOTE
            continue
        a = 8 if palign == 8 else 4
        q, end = off, off + size
        while q + 12 <= end:
            namesz, descsz, ntype = struct.unpack_from(e + "III", b, q)
            name = b[q + 12:q + 12 + namesz]
            desc_at = q + 12 + g.align(namesz, a)
            if ntype == 3 and name == b"GNU\0":
                return b[desc_at:desc_at + descsz].hex()
            q = desc_at + g.align(descsz, a)
    raise SystemExit("%s: no NT_GNU_BUILD_ID note" % path)


# ---------------------------------------------------------------------------
# Records (include/uapi/linux/perf_event.h: enum perf_event_type)
# ---------------------------------------------------------------------------


def sid(t):
    return {"pid": PID, "tid": PID, "time": t, "id": 0x101, "cpu": 0}


def rec_mmap(e, name, addr, t):
    """PERF_RECORD_MMAP with its sample_id trailer."""
    m = {"misc": MISC_USER, "pid": PID, "tid": PID, "addr": addr,
         "len": 0x1000, "pgoff": 0, "filename": name}
    r = g.rec_mmap(e, m)
    return g.Rec(e, REC_MMAP, m["misc"], r.bytes[8:] + g.sid_trailer(e, sid(t)),
                 r.fields)


def rec_mmap2_bid(e, name, addr, build_id, t, size=0x1000):
    """PERF_RECORD_MMAP2 in build-id form (misc PERF_RECORD_MISC_MMAP_BUILD_ID):
    pid, tid, addr, len, pgoff, {u8 build_id_size, u8, u16, u8 build_id[20]},
    prot, flags, filename, sample_id."""
    bid = bytes.fromhex(build_id)
    body = (e.u32(PID) + e.u32(PID) + e.u64(addr) + e.u64(size) + e.u64(0)
            + e.u8(len(bid)) + e.u8(0) + e.u16(0) + bid + b"\0" * (20 - len(bid))
            + e.u32(5) + e.u32(2) + g.cstr8(name) + g.sid_trailer(e, sid(t)))
    return g.Rec(e, REC_MMAP2, MISC_USER | MISC_MMAP_BUILD_ID, body,
                 [("filename", name), ("build_id", build_id)])


def rec_build_id(e, b):
    """PERF_RECORD_HEADER_BUILD_ID (67): the feature's entry as a record."""
    raw = g.buildid_entry(e, b, rtype=REC_HEADER_BUILD_ID)
    return g.Rec(e, REC_HEADER_BUILD_ID, b["misc"], raw[8:],
                 [("filename", b["filename"])])


def sample(e, ip, t):
    return g.rec_sample(e, SAMPLE_TYPE, {
        "misc": MISC_USER, "ip": ip, "pid": PID, "tid": PID, "time": t,
        "id": 0x101, "cpu": 0, "period": 100000})


def entry(name, build_id):
    return {"misc": MISC_USER | MISC_BUILD_ID_SIZE, "pid": -1, "style": "name8",
            "size_byte": 20, "build_id": build_id, "filename": name}


def perf_data(e, build_ids, records):
    out, _ = g.assemble_file(e, attrs=[ATTR], attr_size_field=g.ATTR_VER8,
                             records=records,
                             features=[(FEAT_BUILD_ID, g.f_build_id)],
                             build_ids=build_ids)
    return out


def hostile_symfs(e, secret, inside):
    feats = [entry("/../../etc/passwd", secret),
             entry("/usr/bin/../../../outside/secret.so", secret),
             entry("/lib/secret.so", secret),
             entry("/opt/abs.so", secret),
             entry("/opt/abs-in.so", inside),
             entry("/opt/rel-in.so", inside),
             entry("/usr/lib/../../real/false.so", inside),
             entry("/opt/fifo.so", inside),
             entry("/opt/loop.so", inside),
             entry("/usr/lib/deep.so", inside),
             entry("/opt/trail.so", inside)]
    t0 = 1000000000
    recs = [g.rec_comm(e, {"misc": 0, "pid": PID, "tid": PID, "comm": "hostile"},
                       sid(t0)),
            rec_mmap(e, "/../../etc/passwd", 0x10000, t0 + 1),
            rec_mmap2_bid(e, "/opt/../../outside/secret.so", 0x20000, secret,
                          t0 + 2),
            sample(e, 0x10010, t0 + 3),
            sample(e, 0x20020, t0 + 4),
            rec_build_id(e, entry("/./../outside/secret.so", secret)),
            g.rec_finished_round(e)]
    return perf_data(e, feats, recs)


def hostile_cache(e, secret, inside):
    feats = [entry("/usr/bin/../../../outside/cache.so", secret),
             entry("/opt/bid.so", secret),
             entry("/opt/renamed.so", inside)]
    return perf_data(e, feats, [g.rec_finished_round(e)])


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--build-id":
        print(elf_build_id(sys.argv[2]))
        return
    if len(sys.argv) != 4:
        raise SystemExit(__doc__.split("\n\n")[1])
    out, secret, inside = sys.argv[1], elf_build_id(sys.argv[2]), elf_build_id(sys.argv[3])
    if secret == inside:
        raise SystemExit("SECRET and INSIDE have the same build-id")
    os.makedirs(out, exist_ok=True)
    for name, fn in (("hostile-symfs.data", hostile_symfs),
                     ("hostile-cache.data", hostile_cache)):
        with open(os.path.join(out, name), "wb") as f:
            f.write(fn(g.LE, secret, inside))


if __name__ == "__main__":
    main()
