#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write a perf.data file whose every string is hostile to a terminal.

Usage (from anywhere):

    python3 scripts/gen-hostile-strings.py OUT.data          # file mode
    python3 scripts/gen-hostile-strings.py --pipe OUT.data   # pipe mode
    python3 scripts/gen-hostile-strings.py OUT.data --cmdline ARG...
                              # the same, with CMDLINE holding ARG... instead

tests/escape.bats runs it into $BATS_FILE_TMPDIR; nothing is committed.
Standard library only, deterministic: the same bytes on every run.

Every string the file carries (event names, PMU names, host strings, the
command line, build-id file names, COMM/MMAP/MMAP2/KSYMBOL/CGROUP record
strings, PMU capabilities, group names) holds terminal escapes (ESC ] OSC
... BEL, ESC [ CSI), C0 bytes (BEL, BS, CR, LF, TAB), DEL, a lone 0x9b
(8-bit CSI), U+009B and U+0085 as UTF-8 (C2 9B, C2 85), invalid UTF-8
(0xff, 0xfe, a truncated sequence) and a valid "é" (C3 A9).  Otherwise
the file is sound: `perfdump check` finds nothing wrong.

Layouts follow the kernel sources:
  include/uapi/linux/perf_event.h  struct perf_event_attr, the records
                                   (PERF_RECORD_COMM, _MMAP, _MMAP2 with
                                   PERF_RECORD_MISC_MMAP_BUILD_ID, _SAMPLE,
                                   _KSYMBOL, _CGROUP) and the sample_id
                                   trailer (sample_id_all)
  tools/perf/util/header.c         perf_session__write_header (the file
                                   header, attrs, feature table) and the
                                   write_* feature writers: do_write_string,
                                   write_hostname, write_osrelease,
                                   write_version, write_arch, write_cpudesc,
                                   write_cpuid, write_cmdline,
                                   write_event_desc, write_pmu_mappings,
                                   write_group_desc, write_build_id
                                   (build-id.c: write_buildid),
                                   write_cpu_pmu_caps, write_pmu_caps,
                                   write_hybrid_topology
  tools/lib/perf/include/perf/event.h  the pipe-mode user records:
                                   perf_record_header_attr,
                                   perf_record_header_feature,
                                   perf_record_event_update (NAME),
                                   perf_record_header_build_id
  tools/perf/util/header.c         perf_header__write_pipe (the pipe
                                   header: magic, size 16) and
                                   perf_event__synthesize_features (one
                                   HEADER_FEATURE record per feature, then
                                   an empty one for HEADER_LAST_FEATURE)
"""

import os
import struct
import sys

# The strings.  EVENT0 is the one the tests quote most.
EVENT0 = b"ev\x1b]0;pwn\x07\x1b[2J"
EVENT1 = b"caf\xc3\xa9\xc2\x9b[2J\x9b\x7f\xff"
HOSTNAME = b"host\x1b[31m\r\n\x08\xc2\x85"
OSRELEASE = b"6.1\x9b2J\xc3\xa9"
VERSION = b"6.1\x1b[A"
ARCH = b"x86\x7f_64"
CPUDESC = b"cpu\nFAKE: line\tx"
CPUID = b"Genuine\xc2\x9b\xf0\x28\x8c"
CMDLINE = [b"/usr/bin/perf", b"record", b"-o\x1b[2J", b"\xc3\xa9\xc2\x80\xfe"]
PMU_CPU, PMU_HOSTILE = 4, 8
PMU_NAME = b"pmu\x1b]8;;x\x07\x9b"
GROUP_NAME = b"{grp\x1b[1m}"
BUILD_ID = bytes(range(0x10, 0x24))  # 20 bytes
BUILD_ID_FILE = b"/tmp/bin\x1b[2J\xc2\x9b\xfe"
CPU_PMU_CAPS = [(b"branches\x1b[K", b"32\x07")]
PMU_CAPS = [(b"cpu\x9b", [(b"cap\x1b", b"v\xc2\x9b")])]
HYBRID = [(b"cpu_core\x1b[2J", b"0-3")]
COMM = b"co\x1b]0;x\x07\x9b"
MMAP_FILE = b"/lib/\x1b[2J\xc2\x85caf\xc3\xa9.so"
MMAP2_FILE = b"/bin/\x1b[1mx\n\x7f"
KSYM_NAME = b"ksym\x1b[2J\x9b"
CGROUP_PATH = b"/sys\x1b[2J\xc2\x9b"

PID = 4242
IDS = (0x101, 0x102)
T0 = 1000000000000

# include/uapi/linux/perf_event.h
ATTR_SIZE = 136  # PERF_ATTR_SIZE_VER8
SAMPLE_TYPE = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 6) | (1 << 7) | (1 << 8)
# IP TID TIME ID CPU PERIOD
READ_FORMAT_ID = 1 << 2
FLAG_SAMPLE_ID_ALL = 1 << 18
REC_MMAP, REC_COMM, REC_SAMPLE, REC_MMAP2 = 1, 3, 9, 10
REC_KSYMBOL, REC_CGROUP, REC_FINISHED_ROUND = 17, 19, 68
# tools/lib/perf/include/perf/event.h: enum perf_user_event_type
REC_HEADER_ATTR, REC_HEADER_BUILD_ID, REC_EVENT_UPDATE = 64, 67, 78
REC_HEADER_FEATURE = 80
EVENT_UPDATE_NAME = 2  # enum { PERF_EVENT_UPDATE__UNIT, __SCALE, __NAME, ...}
UPDATE_NAME = b"upd\x1b[5m\xc2\x9b\x9b"
MISC_USER, MISC_KERNEL = 2, 1
MISC_MMAP_BUILD_ID = 1 << 14

# tools/perf/util/header.h: enum HEADER_*
F_BUILD_ID, F_HOSTNAME, F_OSRELEASE, F_VERSION, F_ARCH = 2, 3, 4, 5, 6
F_NRCPUS, F_CPUDESC, F_CPUID, F_CMDLINE, F_EVENT_DESC = 7, 8, 9, 11, 12
F_PMU_MAPPINGS, F_GROUP_DESC = 16, 17
F_CPU_PMU_CAPS, F_HYBRID_TOPOLOGY, F_PMU_CAPS = 28, 30, 31
F_LAST = 33  # HEADER_LAST_FEATURE: the pipe's end-of-features marker

NAME_ALIGN = 64


def u16(v):
    return struct.pack("<H", v)


def u32(v):
    return struct.pack("<I", v & 0xFFFFFFFF)


def s32(v):
    return struct.pack("<i", v)


def u64(v):
    return struct.pack("<Q", v & 0xFFFFFFFFFFFFFFFF)


def pad(b, a):
    return b + b"\0" * (-len(b) % a)


def hstr(s):
    """header.c: do_write_string: u32 len (NUL and padding to 64), bytes."""
    raw = pad(s + b"\0", NAME_ALIGN)
    return u32(len(raw)) + raw


def cstr8(s):
    """A record string: NUL-terminated, zero-padded to 8 bytes."""
    return pad(s + b"\0", 8)


def attr(pmu_type, config):
    """struct perf_event_attr, PERF_ATTR_SIZE_VER8 bytes."""
    b = (u32(pmu_type) + u32(ATTR_SIZE) + u64(config) + u64(4000)
         + u64(SAMPLE_TYPE) + u64(READ_FORMAT_ID) + u64(FLAG_SAMPLE_ID_ALL))
    return b + b"\0" * (ATTR_SIZE - len(b))


ATTRS = [attr(0, 0), attr(PMU_HOSTILE, 0x3c)]  # cycles; a dynamic PMU


def record(rtype, misc, body):
    return u32(rtype) + u16(misc) + u16(8 + len(body)) + body


def sid(t, i=0):
    """sample_id trailer for TID|TIME|ID|CPU (perf_event.h: sample_id)."""
    return u32(PID) + u32(PID) + u64(t) + u64(IDS[i]) + u32(0) + u32(0)


def records():
    r = [record(REC_COMM, 0, u32(PID) + u32(PID) + cstr8(COMM) + sid(T0))]
    r.append(record(REC_MMAP, MISC_USER,
                    u32(PID) + u32(PID) + u64(0x400000) + u64(0x1000)
                    + u64(0) + cstr8(MMAP_FILE) + sid(T0 + 1)))
    # MMAP2 with a build-id: size u8, 3 reserved, build_id[20] in place
    # of maj, min, ino, ino_generation
    bid = bytes([len(BUILD_ID), 0, 0, 0]) + BUILD_ID
    r.append(record(REC_MMAP2, MISC_USER | MISC_MMAP_BUILD_ID,
                    u32(PID) + u32(PID) + u64(0x500000) + u64(0x2000)
                    + u64(0) + bid + u32(5) + u32(2) + cstr8(MMAP2_FILE)
                    + sid(T0 + 2)))
    r.append(record(REC_KSYMBOL, MISC_KERNEL,
                    u64(0xffffffffc0000000) + u32(0x100) + u16(1) + u16(0)
                    + cstr8(KSYM_NAME) + sid(T0 + 3)))
    r.append(record(REC_CGROUP, 0, u64(7) + cstr8(CGROUP_PATH) + sid(T0 + 4)))
    for i in range(2):
        r.append(record(REC_SAMPLE, MISC_USER,
                        u64(0x400100 + i) + u32(PID) + u32(PID)
                        + u64(T0 + 10 + i) + u64(IDS[i]) + u32(0) + u32(0)
                        + u64(1000)))
    r.append(record(REC_FINISHED_ROUND, 0, b""))
    return b"".join(r)


def build_id_entry(rtype):
    """build-id.c: write_buildid: perf_record_header_build_id, name padded
    to NAME_ALIGN (the layout of perf before 2024; size = 4 mod 8)."""
    body = (s32(-1) + BUILD_ID + b"\0" * (20 - len(BUILD_ID))
            + bytes([len(BUILD_ID), 0, 0, 0]) + pad(BUILD_ID_FILE + b"\0", 64))
    return record(rtype, MISC_USER, body)


def features():
    f = {}
    f[F_BUILD_ID] = build_id_entry(0)
    f[F_HOSTNAME] = hstr(HOSTNAME)
    f[F_OSRELEASE] = hstr(OSRELEASE)
    f[F_VERSION] = hstr(VERSION)
    f[F_ARCH] = hstr(ARCH)
    f[F_NRCPUS] = u32(4) + u32(4)
    f[F_CPUDESC] = hstr(CPUDESC)
    f[F_CPUID] = hstr(CPUID)
    f[F_CMDLINE] = u32(len(CMDLINE)) + b"".join(hstr(s) for s in CMDLINE)
    ev = u32(len(ATTRS)) + u32(ATTR_SIZE)
    for i, (a, name) in enumerate(zip(ATTRS, (EVENT0, EVENT1))):
        ev += a + u32(1) + hstr(name) + u64(IDS[i])
    f[F_EVENT_DESC] = ev
    f[F_PMU_MAPPINGS] = (u32(2) + u32(PMU_CPU) + hstr(b"cpu")
                         + u32(PMU_HOSTILE) + hstr(PMU_NAME))
    f[F_GROUP_DESC] = u32(1) + hstr(GROUP_NAME) + u32(0) + u32(2)
    f[F_CPU_PMU_CAPS] = u32(len(CPU_PMU_CAPS)) + b"".join(
        hstr(n) + hstr(v) for n, v in CPU_PMU_CAPS)
    b = u32(len(PMU_CAPS))
    for pmu, caps in PMU_CAPS:
        b += u32(len(caps)) + b"".join(hstr(n) + hstr(v) for n, v in caps)
        b += hstr(pmu)
    f[F_PMU_CAPS] = b
    f[F_HYBRID_TOPOLOGY] = u32(len(HYBRID)) + b"".join(
        hstr(n) + hstr(c) for n, c in HYBRID)
    return f


def perf_file():
    """header.c: perf_session__write_header: header | ids | attrs | data |
    feature table | features."""
    hdr_size, entry = 104, ATTR_SIZE + 16
    ids = [u64(i) for i in IDS]
    ids_off = [hdr_size + 8 * i for i in range(len(IDS))]
    attrs_off = hdr_size + 8 * len(IDS)
    data_off = attrs_off + entry * len(ATTRS)
    data = records()
    feats = sorted(features().items())
    table_off = data_off + len(data)
    pos = table_off + 16 * len(feats)
    table, blobs, bitmap = b"", b"", [0] * 4
    for bit, blob in feats:
        table += u64(pos) + u64(len(blob))
        blobs += blob
        pos += len(blob)
        bitmap[bit // 64] |= 1 << (bit % 64)
    out = (b"PERFILE2" + u64(hdr_size) + u64(entry)
           + u64(attrs_off) + u64(entry * len(ATTRS))
           + u64(data_off) + u64(len(data)) + u64(0) + u64(0)
           + b"".join(u64(w) for w in bitmap))
    assert len(out) == hdr_size
    out += b"".join(ids)
    for a, off in zip(ATTRS, ids_off):
        out += a + u64(off) + u64(8)
    assert len(out) == data_off
    return out + data + table + blobs


def pipe_file():
    """header.c: perf_header__write_pipe, then what perf record writes to a
    pipe: the attrs, the features, an event update, the records, and a
    build-id record (as perf inject -b writes them)."""
    out = b"PERFILE2" + u64(16)
    for i, a in enumerate(ATTRS):
        out += record(REC_HEADER_ATTR, 0, a + u64(IDS[i]))
    for fid, blob in sorted(features().items()):
        if fid != F_BUILD_ID:
            out += record(REC_HEADER_FEATURE, 0, u64(fid) + blob)
    out += record(REC_HEADER_FEATURE, 0, u64(F_LAST))
    out += record(REC_EVENT_UPDATE, 0, u64(EVENT_UPDATE_NAME) + u64(IDS[1])
                  + cstr8(UPDATE_NAME))
    out += records()
    return out + build_id_entry(REC_HEADER_BUILD_ID)


def main():
    global CMDLINE
    args = sys.argv[1:]
    if "--cmdline" in args:
        i = args.index("--cmdline")
        CMDLINE = [os.fsencode(a) for a in args[i + 1:]]
        args = args[:i]
    pipe = args[:1] == ["--pipe"]
    if pipe:
        args = args[1:]
    if len(args) != 1 or args[0].startswith("-"):
        sys.exit("usage: gen-hostile-strings.py [--pipe] OUT.data"
                 " [--cmdline ARG...]")
    with open(args[0], "wb") as f:
        f.write(pipe_file() if pipe else perf_file())


if __name__ == "__main__":
    main()
