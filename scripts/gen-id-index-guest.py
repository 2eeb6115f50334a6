#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Give a recording's ID_INDEX records the guest part (tests/copy-event.bats).

Usage (from the project root):

    python3 scripts/gen-id-index-guest.py IN OUT

IN is a little-endian file-mode perf.data whose ID_INDEX records lack
the guest part; OUT is IN with each of them followed by nr x {u64
machine_pid, u64 vcpu} (tools/lib/perf/include/perf/event.h struct
id_index_entry_2, which perf reads when the record's size has room for
it: tools/perf/util/session.c perf_event__process_id_index): entry i
gets machine_pid 4200 + i and vcpu i.  The data section grows by those
bytes, the feature table and sections after it move with it.  Written
at test time, never committed.  Standard library only, deterministic.
"""
import struct
import sys

ID_INDEX = 69  # PERF_RECORD_ID_INDEX


def main():
    src, dst = sys.argv[1], sys.argv[2]
    b = open(src, "rb").read()
    if b[:8] != b"PERFILE2":
        sys.exit("gen-id-index-guest: a little-endian file-mode perf.data, please")
    data_off, data_size = struct.unpack_from("<QQ", b, 40)
    feats = struct.unpack_from("<4Q", b, 72)
    nfeat = sum(bin(x).count("1") for x in feats)
    out = bytearray(b[:data_off])
    at, end, grown = data_off, data_off + data_size, 0
    while at + 8 <= end:
        typ, misc, size = struct.unpack_from("<IHH", b, at)
        if size < 8:
            sys.exit("gen-id-index-guest: a record smaller than its header")
        rec = bytearray(b[at : at + size])
        if typ == ID_INDEX:
            (nr,) = struct.unpack_from("<Q", rec, 8)
            if size != 16 + 32 * nr:
                sys.exit("gen-id-index-guest: ID_INDEX already has more")
            for i in range(nr):
                rec += struct.pack("<QQ", 4200 + i, i)
            struct.pack_into("<H", rec, 6, len(rec))
            grown += 16 * nr
        out += rec
        at += size
    table = bytearray(b[end : end + 16 * nfeat])
    for i in range(nfeat):
        off, sz = struct.unpack_from("<QQ", table, 16 * i)
        struct.pack_into("<Q", table, 16 * i, off + grown)
    out += table + b[end + 16 * nfeat :]
    struct.pack_into("<Q", out, 48, data_size + grown)
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
