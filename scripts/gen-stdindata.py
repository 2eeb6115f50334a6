#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Inputs for the standard-input tests (tests/stdin.bats), made at test time.

Usage (from the project root):

    python3 scripts/gen-stdindata.py stream [BLOCKS]
        Write testdata/pipe.data up to its first sample (pipe header,
        metadata records, the synthesized MMAP and COMM records), then
        BLOCKS blocks of 1024 copies of that sample (48 KiB each), to
        standard output; without BLOCKS, forever (a `perf record -o -`
        that never ends).  Exits quietly when the reader goes away.

    python3 scripts/gen-stdindata.py live N SECONDS
        Write the first N bytes of testdata/pipe.data to standard output,
        then hold it open for SECONDS, or until the reader goes away: a
        pipe stream whose writer is still running.

    python3 scripts/gen-stdindata.py bomb OUT
        Write a pipe stream whose one PERF_RECORD_COMPRESSED record
        decompresses to 17 MiB (zstd through ctypes: libzstd, which
        perfdump links): more than perfdump keeps of one container.

    python3 scripts/gen-stdindata.py unknown OUT
        Write testdata/pipe.data with a record of type 0xffffffff, a type
        no perf writes, between the pipe header and its first attr.

Standard library only (and libzstd for `bomb`), deterministic.
"""

import importlib.util
import os
import select
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PIPE = os.path.join(ROOT, "testdata", "pipe.data")

# tools/perf/util/event.h: PERF_RECORD_COMPRESSED
COMPRESSED = 81
SAMPLE = 9


def records(data, start=16):
    """(offset, type, size) of the records of a pipe stream (no payloads
    but HEADER_TRACING_DATA's, which pipe.data does not have)."""
    off = start
    while off + 8 <= len(data):
        typ, _misc, size = struct.unpack_from("<IHH", data, off)
        if size < 8:
            break
        yield off, typ, size
        off += size


def stream(blocks):
    data = open(PIPE, "rb").read()
    first = next((off, size) for off, typ, size in records(data)
                 if typ == SAMPLE)
    block = data[first[0]:first[0] + first[1]] * 1024
    out = sys.stdout.buffer
    try:
        out.write(data[:first[0]])
        n = 0
        while blocks is None or n < blocks:
            out.write(block)
            n += 1
        out.flush()
    except (BrokenPipeError, ConnectionResetError):
        # the reader went away: say nothing (stdout is broken too)
        os._exit(0)


def live(n, seconds):
    data = open(PIPE, "rb").read()
    out = sys.stdout.buffer
    out.write(data[:n])
    out.flush()
    # no events asked: poll says only when the reader has gone (POLLERR)
    p = select.poll()
    p.register(1, 0)
    p.poll(int(seconds * 1000))


def zstd_compress(data):
    # gen-readerdata.py's zstd through ctypes
    spec = importlib.util.spec_from_file_location(
        "gen_readerdata", os.path.join(os.path.dirname(__file__),
                                       "gen-readerdata.py"))
    r = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(r)
    return r.compress(r.zstd_lib(), data, 19)


def bomb(out):
    # 17 MiB of 8-byte FINISHED_ROUND records: whole records all along, so
    # only the size of the output is wrong
    z = zstd_compress(struct.pack("<IHH", 68, 0, 8) * (17 << 17))
    assert 8 + len(z) < 65536
    rec = struct.pack("<IHH", COMPRESSED, 0, 8 + len(z)) + z
    with open(out, "wb") as f:
        f.write(b"PERFILE2" + struct.pack("<Q", 16) + rec)


def unknown(out):
    data = open(PIPE, "rb").read()
    with open(out, "wb") as f:
        f.write(data[:16] + struct.pack("<IHH", 0xFFFFFFFF, 0, 8) + data[16:])


def main():
    if len(sys.argv) in (2, 3) and sys.argv[1] == "stream":
        stream(int(sys.argv[2]) if len(sys.argv) == 3 else None)
    elif len(sys.argv) == 4 and sys.argv[1] == "live":
        live(int(sys.argv[2]), float(sys.argv[3]))
    elif len(sys.argv) == 3 and sys.argv[1] == "bomb":
        bomb(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "unknown":
        unknown(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
