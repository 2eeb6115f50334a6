#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write recordings for the reader's tests (tests/reader.bats).

Usage (from the project root):

    python3 scripts/gen-readerdata.py OUTDIR

The fixtures in testdata/ are a few KiB: the reader's fast mode reads
ahead in 256 KiB chunks and seeks over payloads of 4 MiB or more, so its
chunk boundaries, the records cut by them and the seeks are only reached
by bigger files.  These are built from testdata/cpu-clock.data and
testdata/pipe.data (their records repeated), with AUXTRACE payloads,
HEADER_TRACING_DATA, COMPRESSED/COMPRESSED2 containers (libzstd through
ctypes) and damage placed past the first chunks.  They are generated at
test time, never committed.  Standard library only (and libzstd, which
perfdump links), deterministic for a given libzstd.

pipe-buildids.data (small) is a pipe stream whose HEADER_BUILD_ID records
come before and after 16 HEADER_FEATURE records: the walk adds a feature
for each, so the session's feature table moves between the two.
"""

import bisect
import ctypes
import ctypes.util
import os
import random
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# record types (include/uapi/linux/perf_event.h, tools/perf/util/event.h)
HEADER_TRACING_DATA = 66
HEADER_BUILD_ID = 67
HEADER_FEATURE = 80
FEAT_HOSTNAME = 3  # tools/perf/util/header.h: HEADER_HOSTNAME
MISC_BUILD_ID_SIZE = 1 << 15
FINISHED_ROUND = 68
AUXTRACE = 71
COMPRESSED = 81
COMPRESSED2 = 83
USER_TYPE_START = 64

TARGET = 2_600_000  # bytes of records: past ten 256 KiB chunks
CHUNK = 1 << 18  # the fast mode's read-ahead chunk (src/lib/io/stream.c)


def rec(rtype, body, misc=0):
    return struct.pack("<IHH", rtype, misc, 8 + len(body)) + body


def split_records(b, pos, end, payloads=False):
    """The records of b[pos:end] as bytes (a 66 record with its payload)."""
    out = []
    while pos + 8 <= end:
        t, _, size = struct.unpack_from("<IHH", b, pos)
        n = size
        if payloads and t == HEADER_TRACING_DATA and size in (12, 16):
            n += struct.unpack_from("<I", b, pos + 8)[0]
        out.append((t, b[pos:pos + n]))
        pos += n
    return out


def auxtrace(size, idx, payload):
    # u64 size, offset, reference; u32 idx, tid, cpu, reserved__
    return rec(AUXTRACE, struct.pack("<QQQIIII", size, 0, idx, 0, 1, 0, 0)) + payload


def kernel_stream(kernel, rng, target, aux=True, big_payload=0):
    """Kernel records repeated, FINISHED_ROUND every 50, AUXTRACE now and then."""
    out, n, i = [], 0, 0
    while n < target:
        r = kernel[i % len(kernel)]
        i += 1
        if aux and i % 137 == 0:
            p = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9000)))
            r = auxtrace(len(p), i, p)
        elif i % 50 == 0:
            r = rec(FINISHED_ROUND, b"")
        if big_payload and n >= target // 2:
            r = auxtrace(big_payload, i, bytes(big_payload))
            big_payload = 0
        out.append(r)
        n += len(r)
    return b"".join(out)


def file_parts(path):
    b = open(path, "rb").read()
    off, size = struct.unpack_from("<QQ", b, 40)
    recs = split_records(b, off, off + size)
    meta = [r for t, r in recs if t >= USER_TYPE_START and t != FINISHED_ROUND]
    kernel = [r for t, r in recs if t < USER_TYPE_START]
    # everything before the data section; no feature sections
    prefix = bytearray(b[:off])
    prefix[72:104] = bytes(32)
    return prefix, b"".join(meta), kernel


def file_with(prefix, data, data_size=None):
    out = bytearray(prefix)
    struct.pack_into("<Q", out, 48, len(data) if data_size is None else data_size)
    return bytes(out) + data


def record_starts(data):
    starts, p = [], 0
    while p + 8 <= len(data):
        t, _, size = struct.unpack_from("<IHH", data, p)
        starts.append(p)
        p += size
        if t == AUXTRACE:
            p += struct.unpack_from("<Q", data, p - size + 8)[0]
    return starts


def pad_to_cut(meta, body):
    """FINISHED_ROUND records to put between meta and body so that every
    256 KiB read-ahead chunk boundary of the data section (chunks start
    with it) cuts a record of body, whose records carry no payload."""
    starts = record_starts(body)
    pad = b""
    while True:
        shift = len(meta) + len(pad)
        assert shift < CHUNK
        for b in range(CHUNK, shift + len(body) + 1, CHUNK):
            s = starts[bisect.bisect_right(starts, b - shift) - 1]
            if not s < b - shift < s + struct.unpack_from("<H", body, s + 6)[0]:
                break
        else:
            return pad
        pad += rec(FINISHED_ROUND, b"")


def zstd_lib():
    name = ctypes.util.find_library("zstd") or "libzstd.so.1"
    lib = ctypes.CDLL(name)
    lib.ZSTD_compressBound.restype = ctypes.c_size_t
    lib.ZSTD_compressBound.argtypes = [ctypes.c_size_t]
    lib.ZSTD_compress.restype = ctypes.c_size_t
    lib.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t,
                                  ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    lib.ZSTD_isError.argtypes = [ctypes.c_size_t]
    return lib


def compress(lib, data, level=3):
    cap = lib.ZSTD_compressBound(len(data))
    dst = ctypes.create_string_buffer(cap)
    n = lib.ZSTD_compress(dst, cap, data, len(data), level)
    assert not lib.ZSTD_isError(n)
    return dst.raw[:n]


def containers(z, rng, damage_at=None):
    """z cut into COMPRESSED and COMPRESSED2 records, FINISHED_ROUNDs between."""
    out, pos, k = [], 0, 0
    while pos < len(z):
        n = rng.randrange(200, 3000)
        piece = bytearray(z[pos:pos + n])
        if damage_at is not None and k == damage_at:
            piece = bytearray(rng.randrange(256) for _ in piece)
        pos += n
        k += 1
        if k % 3 == 0:
            pad = bytes(-len(piece) % 8)
            out.append(rec(COMPRESSED2, struct.pack("<Q", len(piece)) + piece + pad))
        else:
            out.append(rec(COMPRESSED, bytes(piece)))
        if k % 10 == 0:
            out.append(rec(FINISHED_ROUND, b""))
    return out


def write(outdir, name, data):
    with open(os.path.join(outdir, name), "wb") as f:
        f.write(data)


def pipe_buildids():
    def buildid(n, name):
        # pid, build_id[20] + size + 3 reserved, filename (NUL, padded to 8)
        fn = name.encode() + b"\0"
        fn += bytes(-(36 + len(fn)) % 8)
        bid = bytes(range(n, n + 20)) + bytes([20, 0, 0, 0])
        return rec(HEADER_BUILD_ID, struct.pack("<i", -1) + bid + fn, MISC_BUILD_ID_SIZE)

    host = struct.pack("<I", 8) + b"host\0\0\0\0"
    feats = [rec(HEADER_FEATURE, struct.pack("<Q", FEAT_HOSTNAME) + host)] * 16
    body = [buildid(1, "/usr/bin/first")] + feats + [buildid(2, "/usr/bin/second")]
    return b"PERFILE2" + struct.pack("<Q", 16) + b"".join(body)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    rng = random.Random(10)
    prefix, meta, kernel = file_parts(os.path.join(ROOT, "testdata/cpu-clock.data"))

    # file mode: payloads crossing chunk boundaries
    data = meta + kernel_stream(kernel, rng, TARGET)
    write(outdir, "big.data", file_with(prefix, data))
    starts = record_starts(data)
    cut = next(s for s in starts if s > 2_300_000) + 17
    # killed (data.size 0) and cut short (data.size as declared)
    write(outdir, "big-killed.data", file_with(prefix, data[:cut], 0))
    write(outdir, "big-cut.data", file_with(prefix, data[:cut], len(data)))
    bad = bytearray(data)
    struct.pack_into("<H", bad, next(s for s in starts if s > 2_000_000) + 6, 4)
    write(outdir, "big-small-record.data", file_with(prefix, bytes(bad)))

    # no payloads: records cut by each chunk boundary (moved by padding)
    body = kernel_stream(kernel, rng, TARGET, aux=False)
    pad = pad_to_cut(meta, body)
    write(outdir, "big-records.data", file_with(prefix, meta + pad + body))

    # a 5 MiB payload (seeked over), and payloads cut short by the end
    jump = meta + kernel_stream(kernel, rng, TARGET, big_payload=5 << 20)
    write(outdir, "big-jump.data", file_with(prefix, jump))
    at = jump.index(bytes(4096))  # inside the payload
    write(outdir, "big-jump-cut.data", file_with(prefix, jump[:at + (3 << 20)], len(jump)))
    two = meta + kernel_stream(kernel, rng, TARGET, big_payload=2 << 20)
    at = two.index(bytes(4096))
    write(outdir, "big-payload-cut.data", file_with(prefix, two[:at + (1 << 20)], len(two)))

    write(outdir, "pipe-buildids.data", pipe_buildids())

    # pipe mode: the fixture's metadata, then records; tracing data inside
    pb = open(os.path.join(ROOT, "testdata/pipe.data"), "rb").read()
    precs = split_records(pb, 16, len(pb), payloads=True)
    pkernel = [r for t, r in precs if t < USER_TYPE_START]
    tracing = rec(HEADER_TRACING_DATA, struct.pack("<I", 1_500_000)) + bytes(1_500_000)
    body = kernel_stream(pkernel, rng, TARGET // 2, aux=False)
    pipe = pb + body + tracing + kernel_stream(pkernel, rng, TARGET // 2)
    write(outdir, "big-pipe.data", pipe)
    pstarts = [len(pb) + len(body) + len(tracing) + s for s in
               record_starts(pipe[len(pb) + len(body) + len(tracing):])]
    write(outdir, "big-pipe-cut.data", pipe[:next(s for s in pstarts if s > 2_900_000) + 5])

    # compressed: one zstd stream over many containers
    lib = zstd_lib()
    inner = kernel_stream(kernel, rng, 3_000_000)
    z = compress(lib, inner)
    for name, damage, keep in (("big-zstd.data", None, 1.0),
                               ("big-zstd-bad.data", 60, 1.0),
                               ("big-zstd-torn.data", None, 0.9)):
        crng = random.Random(11)
        zz = z[: int(len(z) * keep)]
        data = meta + b"".join(containers(zz, crng, damage))
        write(outdir, name, file_with(prefix, data))


if __name__ == "__main__":
    main()
