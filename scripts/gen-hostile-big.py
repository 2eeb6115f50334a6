#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write big hostile recordings for the memory tests (tests/memory.bats).

Usage (from the project root):

    python3 scripts/gen-hostile-big.py OUT NAME [COUNT]

OUT is a file (a directory for dir-many), NAME one of the cases below,
COUNT the number of records (or data.N files) instead of the default.
They are megabytes (tens with the defaults of the many-* cases), so they
are generated at test time into $BATS_FILE_TMPDIR, never committed.
Standard library only, deterministic: the same bytes on every run.

  order-tiny      330,000 SAMPLEs of 16 bytes (sample_type TIME), times
                  rising, no FINISHED_ROUND: a time-ordered read queues
                  them all
  order-reversed  75,000 such SAMPLEs, times falling, no FINISHED_ROUND
  order-runs      COUNT (40) rounds of such SAMPLEs, each five runs of 25
                  (as perf record writes one CPU's ring buffer after
                  another): four whose times rise with repeats, equal
                  times across runs, and one whose times fall; then a
                  FINISHED_ROUND; each round starts before the one before
                  it ended, so some records come too late
  dir-many        a perf record --threads directory: DIR/data (header,
                  attr, one FINISHED_ROUND) and COUNT (1,000) data.N files
                  of 4 SAMPLEs each, stream i at times 1+i, 1+i+N, ...
                  so that time order interleaves every stream
  zstd-window     COMPRESSED records carrying one zstd frame whose
                  Window_Descriptor declares 128 MiB (COUNT: the window
                  log, 27), then RLE blocks of 0x08 bytes (records of
                  unknown type 0x08080808, 2056 bytes each) filling the
                  window across 9 containers
  many-pids       COUNT (200,000) processes, each an MMAP2 of /bin/pN
                  and a SAMPLE (IP|TID|TIME) inside it
  many-comms      COUNT (200,000) COMMs of distinct pids and names
  many-buildids   COUNT (200,000) MMAP2 records in build-id form, each
                  its own build-id and file
  features-overlap  COUNT (22) feature sections (bits 1..COUNT) that all
                  claim the same bytes: the attrs and a data section of
                  40,000 SAMPLEs (640 KB), each section starting 8 bytes
                  after the one before
  ids-overlap     COUNT (4,000) attrs whose ids sections all claim the
                  same 512 KiB (65,536 different ids)
  attrs-many      COUNT (200,000) attrs, each with an id of its own, and a
                  SAMPLE (IDENTIFIER) of the first and the last

Layouts: include/uapi/linux/perf_event.h (struct perf_event_attr,
PERF_RECORD_SAMPLE, PERF_RECORD_MMAP2, PERF_RECORD_COMM, sample_id),
tools/perf/util/header.c (struct perf_file_header, perf_session__write_
header: attrs then data), tools/lib/perf/include/perf/event.h
(PERF_RECORD_COMPRESSED = 81), RFC 8878 (zstd frames).
"""

import os
import struct
import sys

# perf_event_attr.sample_type bits (perf_event.h: perf_event_sample_format)
S_IP, S_TID, S_TIME = 1 << 0, 1 << 1, 1 << 2
# perf_event_attr flag bits (the bit-field after read_format)
F_SAMPLE_ID_ALL = 1 << 18
F_MMAP2 = 1 << 23
ATTR_SIZE = 128  # PERF_ATTR_SIZE_VER7: perf 6.1 reads it too

REC_MMAP2, REC_COMM, REC_SAMPLE = 10, 3, 9
REC_FINISHED_ROUND, REC_COMPRESSED = 68, 81
MISC_USER = 2
MISC_MMAP_BUILD_ID = 1 << 14

CHUNK = 1 << 16  # records are written in batches of this many


def rec(rtype, body, misc=0):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def attr(sample_type, flags):
    """struct perf_event_attr, PERF_ATTR_SIZE_VER7 bytes: type 1
    (PERF_TYPE_SOFTWARE), config 0 (cpu-clock), period 1."""
    b = struct.pack("<IIQQQQQ", 1, ATTR_SIZE, 0, 1, sample_type, 0, flags)
    return b + b"\0" * (ATTR_SIZE - len(b))


def write_file(path, attrs, body_chunks):
    """A file-mode perf.data (perf_file_header, 104 bytes): the attrs
    (each followed by its ids section, empty), then the data section, no
    features.  body_chunks yields the data section's bytes."""
    entry = ATTR_SIZE + 16
    attrs_off = 104
    data_off = attrs_off + entry * len(attrs)
    with open(path, "wb") as f:
        f.write(b"\0" * data_off)
        size = 0
        for c in body_chunks:
            f.write(c)
            size += len(c)
        f.seek(0)
        f.write(b"PERFILE2" + struct.pack("<QQ", 104, entry))
        f.write(struct.pack("<QQQQQQ", attrs_off, entry * len(attrs),
                            data_off, size, 0, 0))
        f.write(b"\0" * 32)  # adds_features: none
        for a in attrs:
            f.write(a + struct.pack("<QQ", 0, 0))


def batches(n, one):
    for s in range(0, n, CHUNK):
        yield b"".join(one(i) for i in range(s, min(n, s + CHUNK)))


def order_tiny(path, n=330_000):
    write_file(path, [attr(S_TIME, 0)],
               batches(n, lambda i: rec(REC_SAMPLE, struct.pack("<Q", 1000 + i))))


def order_reversed(path, n=75_000):
    write_file(path, [attr(S_TIME, 0)],
               batches(n, lambda i: rec(REC_SAMPLE, struct.pack("<Q", 1000 + n - i))))


def order_runs(path, n=40):
    def one(r):
        base = 1000 + 100 * r
        times = [base + 10 * (j * (c + 1) // 3)
                 for c in range(4) for j in range(25)]
        times += [base + 10 * (24 - j) for j in range(25)]
        return (b"".join(rec(REC_SAMPLE, struct.pack("<Q", t)) for t in times)
                + rec(REC_FINISHED_ROUND, b""))
    # sample_id_all: else perf 6.1 does not order them
    write_file(path, [attr(S_TIME, F_SAMPLE_ID_ALL)], batches(n, one))


def dir_many(path, n=1000):
    os.makedirs(path, exist_ok=True)
    write_file(os.path.join(path, "data"), [attr(S_TIME, 0)],
               [rec(REC_FINISHED_ROUND, b"")])
    for i in range(n):
        with open(os.path.join(path, "data.%d" % i), "wb") as f:
            f.write(b"".join(rec(REC_SAMPLE, struct.pack("<Q", 1 + i + k * n))
                             for k in range(4)))


def zstd_window(path, wlog=27):
    """RFC 8878: magic, Frame_Header_Descriptor 0 (no Single_Segment, no
    checksum, no dictionary, no Frame_Content_Size), Window_Descriptor
    (Exponent = wlog - 10, Mantissa 0), then blocks: Block_Header (3
    bytes, little-endian) = Last_Block | Block_Type << 1 | Block_Size << 3;
    an RLE block (type 1) is one byte repeated Block_Size times.  perf
    never ends its frame (tools/perf/util/zstd.c), so no block is last."""
    bsize = 1 << 17  # Block_Maximum_Size: 128 KiB
    rle = struct.pack("<I", 1 << 1 | bsize << 3)[:3] + b"\x08"
    per = 127  # 127 * 128 KiB: just under the 16 MiB one container gives
    body = []
    for k in range(9):
        z = b""
        if k == 0:
            z = struct.pack("<I", 0xFD2FB528) + bytes([0, (wlog - 10) << 3])
        z += rle * per
        body.append(rec(REC_COMPRESSED, z))
    write_file(path, [attr(S_IP | S_TID | S_TIME, F_SAMPLE_ID_ALL)], body)


def many_pids(path, n=200_000):
    def one(i):
        pid = 1000 + i
        name = b"/bin/p%d" % i
        name += b"\0" * (8 - len(name) % 8)
        mm = rec(REC_MMAP2, struct.pack("<IIQQQIIQQII", pid, pid, 0x400000,
                                        0x1000, 0, 8, 1, 100 + i, 0, 5, 2)
                 + name + struct.pack("<IIQ", pid, pid, 2 * i + 1), MISC_USER)
        sm = rec(REC_SAMPLE, struct.pack("<QIIQ", 0x400010, pid, pid, 2 * i + 2),
                 MISC_USER)
        return mm + sm
    write_file(path, [attr(S_IP | S_TID | S_TIME, F_SAMPLE_ID_ALL | F_MMAP2)],
               batches(n, one))


def many_comms(path, n=200_000):
    def one(i):
        pid = 1000 + i
        return rec(REC_COMM, struct.pack("<II", pid, pid) + b"c%06d\0" % i
                   + struct.pack("<IIQ", pid, pid, i + 1))
    write_file(path, [attr(S_IP | S_TID | S_TIME, F_SAMPLE_ID_ALL)],
               batches(n, one))


def many_buildids(path, n=200_000):
    def one(i):
        name = b"/lib/l%d.so" % i
        name += b"\0" * (8 - len(name) % 8)
        bid = struct.pack("<I", i) + b"\xbd" * 16
        # perf_event.h: PERF_RECORD_MISC_MMAP_BUILD_ID: build_id_size u8,
        # __reserved_1 u8, __reserved_2 u16, build_id[20]
        return rec(REC_MMAP2, struct.pack("<IIQQQBBH", 1000, 1000,
                                          0x400000 + 0x1000 * i, 0x1000, 0,
                                          20, 0, 0) + bid
                   + struct.pack("<II", 5, 2) + name
                   + struct.pack("<IIQ", 1000, 1000, i + 1),
                   MISC_USER | MISC_MMAP_BUILD_ID)
    write_file(path, [attr(S_IP | S_TID | S_TIME, F_SAMPLE_ID_ALL | F_MMAP2)],
               batches(n, one))


def features_overlap(path, n=22):
    """perf_file_header.adds_features bits 1..n, and a feature section
    table (after the data section, tools/perf/util/header.c:
    perf_header__adds_write) whose entries all claim the attrs and data
    sections, the k-th from 8 * k bytes in."""
    write_file(path, [attr(S_TIME, 0)],
               batches(40_000, lambda i: rec(REC_SAMPLE, struct.pack("<Q", 1 + i))))
    with open(path, "r+b") as f:
        end = f.seek(0, os.SEEK_END)
        bits = sum(1 << b for b in range(1, n + 1))
        f.seek(72)
        f.write(struct.pack("<QQQQ", bits & (2**64 - 1), bits >> 64, 0, 0))
        f.seek(end)
        for k in range(n):
            f.write(struct.pack("<QQ", 104 + 8 * k, end - 104))


def ids_overlap(path, n=4000):
    """n attrs (ATTR_SIZE + 16 bytes each: attr, ids.offset, ids.size)
    whose ids all point at one 512 KiB data section: 65,536 ids each."""
    entry = ATTR_SIZE + 16
    data_off = 104 + entry * n
    data = 512 << 10
    with open(path, "wb") as f:
        f.write(b"PERFILE2" + struct.pack("<QQ", 104, entry))
        f.write(struct.pack("<QQQQQQ", 104, entry * n, data_off, data, 0, 0))
        f.write(b"\0" * 32)
        for _ in range(n):
            f.write(attr(S_TIME, 0) + struct.pack("<QQ", data_off, data))
        # the ids region: FINISHED_ROUND records (8 bytes: one id each,
        # all different by their misc)
        f.write(b"".join(rec(REC_FINISHED_ROUND, b"", misc=i)
                         for i in range(data // 8)))


def attrs_many(path, n=200_000):
    """n attrs (PERF_ATTR_SIZE_VER0, sample_type IDENTIFIER) whose ids
    sections each hold one id, i + 1, after the attrs."""
    asz = 64
    entry = asz + 16
    ids_off = 104 + entry * n
    data_off = ids_off + 8 * n
    S_IDENTIFIER = 1 << 16

    def one(i):
        a = struct.pack("<IIQQQQQ", 1, asz, 0, 1, S_IDENTIFIER, 0, 0)
        return a + b"\0" * (asz - len(a)) + struct.pack("<QQ", ids_off + 8 * i, 8)
    data = rec(REC_SAMPLE, struct.pack("<Q", 1)) + rec(REC_SAMPLE, struct.pack("<Q", n))
    with open(path, "wb") as f:
        f.write(b"PERFILE2" + struct.pack("<QQ", 104, entry))
        f.write(struct.pack("<QQQQQQ", 104, entry * n, data_off, len(data), 0, 0))
        f.write(b"\0" * 32)
        for c in batches(n, one):
            f.write(c)
        for c in batches(n, lambda i: struct.pack("<Q", i + 1)):
            f.write(c)
        f.write(data)


CASES = {
    "order-tiny": order_tiny,
    "order-runs": order_runs,
    "order-reversed": order_reversed,
    "dir-many": dir_many,
    "zstd-window": zstd_window,
    "many-pids": many_pids,
    "many-comms": many_comms,
    "many-buildids": many_buildids,
    "features-overlap": features_overlap,
    "ids-overlap": ids_overlap,
    "attrs-many": attrs_many,
}


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[2] not in CASES:
        sys.exit("usage: gen-hostile-big.py OUT {%s} [COUNT]" % ",".join(CASES))
    args = [int(sys.argv[3])] if len(sys.argv) == 4 else []
    CASES[sys.argv[2]](sys.argv[1], *args)


if __name__ == "__main__":
    main()
