#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate hand-crafted edge-case perf.data files into testdata/synthetic/.

Usage (from the project root):

    python3 scripts/gen-testdata.py            # (re)write testdata/synthetic/
    python3 scripts/gen-testdata.py --check    # regenerate into a temp dir and
                                               # exit 1 if anything differs
    python3 scripts/gen-testdata.py --perf61 DIR
        # write perf-6.1-readable variants (attr.size 128, pipe end marker 32,
        # ...) into DIR, for cross-checking the feature encodings with an old
        # perf; these are never committed.

Standard library only, fully deterministic: the same bytes on every run.
Layouts follow the kernel sources: include/uapi/linux/perf_event.h,
tools/lib/perf/include/perf/event.h and tools/perf/util/header.c.
testdata/synthetic/README.md is written by this script as well, from the
same tables that produce the bytes, so it cannot drift from the files.
"""

import argparse
import calendar
import os
import shutil
import struct
import sys
import tempfile

import derive_recordings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "testdata", "synthetic")

# ---------------------------------------------------------------------------
# Writer library
# ---------------------------------------------------------------------------


class Endian:
    """Every integer written goes through one of these ('<' or '>')."""

    def __init__(self, fmt):
        assert fmt in ("<", ">")
        self.fmt = fmt
        self.big = fmt == ">"
        self.name = "big" if self.big else "little"

    def _p(self, code, v):
        return struct.pack(self.fmt + code, v)

    def u8(self, v):
        return struct.pack("B", v)

    def u16(self, v):
        return self._p("H", v)

    def u32(self, v):
        return self._p("I", v & 0xFFFFFFFF)

    def s32(self, v):
        return self._p("i", v)

    def u64(self, v):
        return self._p("Q", v & 0xFFFFFFFFFFFFFFFF)

    def s64(self, v):
        return self._p("q", v)


LE = Endian("<")
BE = Endian(">")

NAME_ALIGN = 64


def align(n, a):
    return (n + a - 1) // a * a


def pad_to(b, a):
    return b + b"\0" * (align(len(b), a) - len(b))


def hstr(e, s):
    """Header string (header.c: do_write_string): u32 len (NUL + padding to 64 included), text."""
    raw = s.encode() + b"\0"
    n = align(len(raw), NAME_ALIGN)
    return e.u32(n) + raw + b"\0" * (n - len(raw))


def strlist(e, items):
    """String list: u32 nr; string[nr]."""
    return e.u32(len(items)) + b"".join(hstr(e, s) for s in items)


def cstr8(s):
    """NUL-terminated string zero-padded to a multiple of 8 (record strings)."""
    return pad_to(s.encode() + b"\0", 8)


def bitrev64(v):
    return int("{:064b}".format(v)[::-1], 2)


# --- perf_event_attr --------------------------------------------------------

ATTR_VER0, ATTR_VER1, ATTR_VER7, ATTR_VER8 = 64, 72, 128, 136

FLAG_NAMES = {
    0: "disabled", 1: "inherit", 2: "pinned", 3: "exclusive",
    4: "exclude_user", 5: "exclude_kernel", 6: "exclude_hv",
    7: "exclude_idle", 8: "mmap", 9: "comm", 10: "freq",
    11: "inherit_stat", 12: "enable_on_exec", 13: "task", 14: "watermark",
    15: "precise_ip(bit0)", 16: "precise_ip(bit1)", 17: "mmap_data",
    18: "sample_id_all", 19: "exclude_host", 20: "exclude_guest",
    21: "exclude_callchain_kernel", 22: "exclude_callchain_user",
    23: "mmap2", 24: "comm_exec", 25: "use_clockid", 26: "context_switch",
    27: "write_backward", 28: "namespaces", 29: "ksymbol", 30: "bpf_event",
    31: "aux_output", 32: "cgroup", 33: "text_poke", 34: "build_id",
    35: "inherit_thread", 36: "remove_on_exec", 37: "sigtrap",
}
FLAG_BIT = {v: k for k, v in FLAG_NAMES.items()}

SAMPLE_NAMES = ["IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
                "PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER",
                "STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER",
                "TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP",
                "DATA_PAGE_SIZE", "CODE_PAGE_SIZE", "WEIGHT_STRUCT"]
SAMPLE_BIT = {n: i for i, n in enumerate(SAMPLE_NAMES)}
READ_NAMES = ["TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST"]


def bits_of(names, table):
    v = 0
    for n in names:
        v |= 1 << table[n]
    return v


def names_of(v, names):
    return [names[i] for i in range(len(names)) if v >> i & 1]


def flags_value(flag_names):
    """Flags u64 in the little-endian bit numbering of perf_event.h: the attr bit-field."""
    v = 0
    for n in flag_names:
        v |= 1 << FLAG_BIT[n]
    return v


def flags_ondisk(e, flag_names):
    """The u64 as a producer of endianness e stores it (read in e's order).

    A big-endian compiler allocates bit-fields from the MSB, so flag bit n
    (LE numbering) is bit 63-n of the big-endian u64 (tools/perf/util/header.c:
    perf_file_header__read).
    """
    v = flags_value(flag_names)
    return bitrev64(v) if e.big else v


def attr_bytes(e, a, size):
    """perf_event_attr of `size` bytes (perf_event.h: struct perf_event_attr).  `a` is a dict; missing = 0."""
    g = a.get
    b = (e.u32(g("type", 0)) + e.u32(size) + e.u64(g("config", 0))
         + e.u64(g("sample_period", 0)) + e.u64(g("sample_type", 0))
         + e.u64(g("read_format", 0)) + e.u64(flags_ondisk(e, g("flags", [])))
         + e.u32(g("wakeup_events", 0)) + e.u32(g("bp_type", 0))
         + e.u64(g("config1", 0))                                   # 56
         + e.u64(g("config2", 0))                                   # 64
         + e.u64(g("branch_sample_type", 0))                        # 72
         + e.u64(g("sample_regs_user", 0))                          # 80
         + e.u32(g("sample_stack_user", 0)) + e.s32(g("clockid", 0))  # 88
         + e.u64(g("sample_regs_intr", 0))                          # 96
         + e.u32(g("aux_watermark", 0)) + e.u16(g("sample_max_stack", 0))
         + e.u16(0)                                                 # 104
         + e.u32(g("aux_sample_size", 0)) + e.u32(0)                # 112
         + e.u64(g("sig_data", 0))                                  # 120
         + e.u64(g("config3", 0)))                                  # 128
    assert len(b) == ATTR_VER8
    if size <= ATTR_VER8:
        return b[:size]
    tail = e.u64(g("config4", 0))                                   # 136
    tail += b"\0" * (size - ATTR_VER8 - len(tail))
    return b + tail[:size - ATTR_VER8]


# --- records ------------------------------------------------------------------

REC_NAMES = {1: "MMAP", 3: "COMM", 9: "SAMPLE", 10: "MMAP2", 64: "HEADER_ATTR",
             66: "HEADER_TRACING_DATA", 67: "HEADER_BUILD_ID",
             68: "FINISHED_ROUND", 71: "AUXTRACE", 80: "HEADER_FEATURE"}


class Rec:
    """One record: header + body (+ `extra` bytes not counted in size)."""

    def __init__(self, e, rtype, misc, body, fields, extra=b""):
        size = 8 + len(body)
        assert size <= 0xFFFF
        self.type, self.misc, self.size = rtype, misc, size
        self.bytes = e.u32(rtype) + e.u16(misc) + e.u16(size) + body + extra
        self.extra_len = len(extra)
        self.fields = fields          # list of (name, value-text) for docs
        self.offset = None            # set by the assembler

    @property
    def name(self):
        return REC_NAMES.get(self.type, str(self.type))


def sid_trailer(e, s):
    """sample_id trailer for sample_type TID|TIME|ID|CPU (evsel.c: perf_evsel__parse_id_sample)."""
    return (e.u32(s["pid"]) + e.u32(s["tid"]) + e.u64(s["time"])
            + e.u64(s["id"]) + e.u32(s["cpu"]) + e.u32(0))


def sid_doc(s):
    return [("sample_id.pid", s["pid"]), ("sample_id.tid", s["tid"]),
            ("sample_id.time", s["time"]), ("sample_id.id", hex(s["id"])),
            ("sample_id.cpu", s["cpu"])]


def rec_comm(e, c, sid=None):
    body = e.u32(c["pid"]) + e.u32(c["tid"]) + cstr8(c["comm"])
    fields = [("pid", c["pid"]), ("tid", c["tid"]), ("comm", '"%s"' % c["comm"])]
    if sid:
        body += sid_trailer(e, sid)
        fields += sid_doc(sid)
    return Rec(e, 3, c["misc"], body, fields)


def rec_mmap(e, m):
    body = (e.u32(m["pid"]) + e.u32(m["tid"]) + e.u64(m["addr"]) + e.u64(m["len"])
            + e.u64(m["pgoff"]) + cstr8(m["filename"]))
    fields = [("pid", m["pid"]), ("tid", m["tid"]), ("addr", hex(m["addr"])),
              ("len", hex(m["len"])), ("pgoff", hex(m["pgoff"])),
              ("filename", '"%s"' % m["filename"])]
    return Rec(e, 1, m["misc"], body, fields)


def rec_mmap2(e, m, sid=None):
    body = (e.u32(m["pid"]) + e.u32(m["tid"]) + e.u64(m["addr"]) + e.u64(m["len"])
            + e.u64(m["pgoff"]) + e.u32(m["maj"]) + e.u32(m["min"])
            + e.u64(m["ino"]) + e.u64(m["ino_generation"]) + e.u32(m["prot"])
            + e.u32(m["flags"]) + cstr8(m["filename"]))
    fields = [("pid", m["pid"]), ("tid", m["tid"]), ("addr", hex(m["addr"])),
              ("len", hex(m["len"])), ("pgoff", hex(m["pgoff"])),
              ("maj", m["maj"]), ("min", m["min"]), ("ino", m["ino"]),
              ("ino_generation", m["ino_generation"]), ("prot", m["prot"]),
              ("flags", m["flags"]), ("filename", '"%s"' % m["filename"])]
    if sid:
        body += sid_trailer(e, sid)
        fields += sid_doc(sid)
    return Rec(e, 10, m["misc"], body, fields)


def rec_sample(e, sample_type, s):
    """PERF_RECORD_SAMPLE for the fields used here (order of evsel.c: evsel__parse_sample)."""
    body, fields = b"", []
    st = sample_type
    if st & (1 << SAMPLE_BIT["IP"]):
        body += e.u64(s["ip"]); fields.append(("ip", hex(s["ip"])))
    if st & (1 << SAMPLE_BIT["TID"]):
        body += e.u32(s["pid"]) + e.u32(s["tid"])
        fields += [("pid", s["pid"]), ("tid", s["tid"])]
    if st & (1 << SAMPLE_BIT["TIME"]):
        body += e.u64(s["time"]); fields.append(("time", s["time"]))
    if st & (1 << SAMPLE_BIT["ID"]):
        body += e.u64(s["id"]); fields.append(("id", hex(s["id"])))
    if st & (1 << SAMPLE_BIT["CPU"]):
        body += e.u32(s["cpu"]) + e.u32(0); fields.append(("cpu", s["cpu"]))
    if st & (1 << SAMPLE_BIT["PERIOD"]):
        body += e.u64(s["period"]); fields.append(("period", s["period"]))
    known = bits_of(["IP", "TID", "TIME", "ID", "CPU", "PERIOD"], SAMPLE_BIT)
    assert st & ~known == 0
    return Rec(e, 9, s["misc"], body, fields)


def rec_finished_round(e):
    return Rec(e, 68, 0, b"", [])


def rec_auxtrace(e, a):
    body = (e.u64(len(a["data"])) + e.u64(a["offset"]) + e.u64(a["reference"])
            + e.u32(a["idx"]) + e.u32(a["tid"]) + e.u32(a["cpu"]) + e.u32(0))
    fields = [("size", len(a["data"])), ("offset", hex(a["offset"])),
              ("reference", hex(a["reference"])), ("idx", a["idx"]),
              ("tid", a["tid"]), ("cpu", a["cpu"]),
              ("payload (after header.size, opaque)", a["data"].hex())]
    return Rec(e, 71, 0, body, fields, extra=a["data"])


def buildid_entry(e, b, rtype=0):
    """Build-id entry (feature 2 / record 67, header.c: feat_ops[]).

    b["style"]: 'legacy64' name padded to 64 (pre-2024 perf; size = 4 mod 8),
                'name8'    name padded to 8 (current perf; size = 4 mod 8),
                'entry8'   whole entry padded to 8 (perf commit ae39ba16554e,
                           reverted by the following fix).
    """
    bid = bytes.fromhex(b["build_id"])
    name = b["filename"].encode() + b"\0"
    if b["style"] == "legacy64":
        name = pad_to(name, 64)
    elif b["style"] == "name8":
        name = pad_to(name, 8)
    elif b["style"] == "entry8":
        name += b"\0" * (align(36 + len(name), 8) - 36 - len(name))
    else:
        raise ValueError(b["style"])
    size_byte = b.get("size_byte", 0)
    body = (e.s32(b["pid"]) + bid + b"\0" * (20 - len(bid))
            + e.u8(size_byte) + e.u8(0) + e.u16(0) + name)
    return e.u32(rtype) + e.u16(b["misc"]) + e.u16(8 + len(body)) + body


# ---------------------------------------------------------------------------
# Logical content shared by the files
# ---------------------------------------------------------------------------

PID = 1234
T_COMM = 1000000100000
T_MMAP = 1000000150000
T_S1 = 1000000200000
T_S2 = 1000000300000

SAMPLE_TYPE = bits_of(["IP", "TID", "TIME", "ID", "CPU", "PERIOD"], SAMPLE_BIT)
READ_FORMAT_ID = 1 << 2

ATTR_CPU_CLOCK = {
    "name": "cpu-clock", "type": 1, "config": 0, "sample_period": 100000,
    "sample_type": SAMPLE_TYPE, "read_format": READ_FORMAT_ID,
    "flags": ["disabled", "inherit", "exclude_hv", "mmap", "comm",
              "sample_id_all", "mmap2", "comm_exec"],
    "ids": [0x101, 0x102],
}
ATTR_TASK_CLOCK = {
    "name": "task-clock", "type": 1, "config": 1, "sample_period": 100000,
    "sample_type": SAMPLE_TYPE, "read_format": READ_FORMAT_ID,
    # group member: not disabled, no tracking bits (perf puts those on the
    # first event only)
    "flags": ["inherit", "exclude_hv", "sample_id_all"],
    "ids": [0x201, 0x202],
}

COMM = {"misc": 0x2000, "pid": PID, "tid": PID, "comm": "true"}   # COMM_EXEC
SID_COMM = {"pid": PID, "tid": PID, "time": T_COMM, "id": 0x101, "cpu": 2}
MMAP2 = {"misc": 2, "pid": PID, "tid": PID, "addr": 0x5555555A0000,
         "len": 0x4000, "pgoff": 0x2000, "maj": 8, "min": 2, "ino": 1049612,
         "ino_generation": 0, "prot": 5, "flags": 2,
         "filename": "/usr/bin/true"}
SID_MMAP = {"pid": PID, "tid": PID, "time": T_MMAP, "id": 0x101, "cpu": 2}
SAMPLE_A = {"misc": 2, "ip": 0x5555555A1234, "pid": PID, "tid": PID,
            "time": T_S1, "id": 0x101, "cpu": 2, "period": 100000}
SAMPLE_B = {"misc": 1, "ip": 0xFFFFFFFF81A0B0C0, "pid": PID, "tid": PID,
            "time": T_S2, "id": 0x202, "cpu": 3, "period": 100000}
AUX_RECS = [
    {"offset": 0x0, "reference": 0x1122334455667788, "idx": 0, "tid": PID,
     "cpu": 2, "data": bytes(range(0xA0, 0xB0))},
    {"offset": 0x10, "reference": 0x8877665544332211, "idx": 1, "tid": PID,
     "cpu": 3, "data": bytes(range(0xB0, 0xC0))},
]

HOSTNAME = "perfdump-synth"
OSRELEASE = "6.12.0-synthetic"
PERF_VERSION = "6.12.0"
ARCH = "x86_64"
NR_CPUS_AVAIL, NR_CPUS_ONLINE = 8, 4
CPUDESC = "12th Gen Intel(R) Core(TM) i7-1260P"
CPUID = "GenuineIntel,6,154,3"
TOTAL_MEM_KB = 16318412
CMDLINE = ["/usr/bin/perf", "record", "-e", "{cpu-clock,task-clock}", "-c",
           "100000", "--", "/usr/bin/true"]
TOPO_SOCKETS = ["0-3"]
TOPO_THREADS = ["0-1", "2-3"]
TOPO_CORE_SOCKET = [(0, 0), (0, 0), (1, 0), (1, 0),
                    (-1, -1), (-1, -1), (-1, -1), (-1, -1)]
TOPO_DIES = ["0-3"]
TOPO_DIE_IDS = [0, 0, 0, 0, -1, -1, -1, -1]
NUMA = [(0, 8159206, 6123456, "0-3"), (1, 8159206, 7012345, "4-7")]
PMU_MAPPINGS = [(1, "software"), (2, "tracepoint"), (4, "cpu"), (5, "breakpoint")]
GROUPS = [("{anon_group}", 0, 2)]
CACHES = [(1, 64, 64, 12, "Data", "48K", "0-1"),
          (2, 64, 2048, 10, "Unified", "1280K", "0-1"),
          (3, 64, 16384, 12, "Unified", "12288K", "0-3")]
MEM_BLOCK_SIZE = 0x8000000
MEM_NODES = [(0, 64, [0xFFFFFFFFFFFFFFFF]), (1, 128, [0, 0xFFFFFFFFFFFFFFFF])]
CLOCKID_RES = 1
DIR_FORMAT_VERSION = 1
COMPRESSED = {"version": 0, "type": 1, "level": 1, "ratio": 3, "mmap_len": 528384}
CPU_PMU_CAPS = [("branches", "32"), ("max_precise", "3"), ("pmu_name", "skylake")]
CLOCK_TOD_NS = calendar.timegm((2026, 11, 21, 10, 0, 0)) * 10**9 + 123456789
CLOCK_DATA = {"version": 1, "clockid": 1, "tod_ns": CLOCK_TOD_NS,
              "clockid_ns": 1000000000000}
HYBRID = [("cpu_core", "0-3"), ("cpu_atom", "4-7")]
PMU_CAPS = [("cpu_core", [("branches", "32"), ("max_precise", "3"),
                          ("pmu_name", "alderlake_hybrid")]),
            ("cpu_atom", [("branches", "32"), ("pmu_name", "alderlake_hybrid")])]
SCHEDSTAT_VERSION = 17
CPU_DOMAINS = [  # cpu, [(domain, dname, cpumask, cpulist)]
    (0, [(0, "SMT", "00000003", "0-1"), (1, "MC", "0000000f", "0-3")]),
    (1, [(0, "SMT", "00000003", "0-1"), (1, "MC", "0000000f", "0-3")]),
    (2, [(0, "SMT", "0000000c", "2-3"), (1, "MC", "0000000f", "0-3")]),
    (3, [(0, "SMT", "0000000c", "2-3"), (1, "MC", "0000000f", "0-3")]),
]
BUILD_IDS = [
    {"misc": 0x0001, "pid": -1, "style": "legacy64", "size_byte": 0,
     "build_id": "1f2e3d4c5b6a79880011223344556677aabbccdd",
     "filename": "[kernel.kallsyms]"},
    {"misc": 0x8002, "pid": -1, "style": "name8", "size_byte": 20,
     "build_id": "0123456789abcdef0123456789abcdef01234567",
     "filename": "/usr/bin/true"},
    {"misc": 0x8002, "pid": -1, "style": "entry8", "size_byte": 16,
     "build_id": "fedcba9876543210fedcba9876543210",
     "filename": "/usr/lib/libsynth.so.1"},
]

# BPF_PROG_INFO: struct bpf_prog_info (include/uapi/linux/bpf.h, 6.2+ layout,
# sizeof = 232 with its 8-byte alignment); offset -> (size, value)
BPF_TAG = bytes.fromhex("1a2b3c4d5e6f7081")
BPF_KSYM = 0xFFFFFFFFC0A01000
BPF_JITED_LEN = 452
BPF_INFO_FIELDS = [  # (offset, size, name, value)
    (0, 4, "type", 2),                    # BPF_PROG_TYPE_KPROBE
    (4, 4, "id", 42),
    (8, 8, "tag", BPF_TAG),
    (16, 4, "jited_prog_len", BPF_JITED_LEN),
    (20, 4, "xlated_prog_len", 672),
    (40, 8, "load_time", 999000000000),
    (48, 4, "created_by_uid", 0),
    (64, 16, "name", b"perfdump_probe\0\0"),
    (104, 4, "nr_jited_ksyms", 1),
    (108, 4, "nr_jited_func_lens", 1),
    (112, 8, "jited_ksyms", 0),           # offset into data[] (array 3)
    (120, 8, "jited_func_lens", 8),       # offset into data[] (array 4)
    (128, 4, "btf_id", 0),
    (132, 4, "func_info_rec_size", 8),
    (172, 4, "line_info_rec_size", 16),
    (176, 4, "jited_line_info_rec_size", 8),
    (180, 4, "nr_prog_tags", 1),
    (184, 8, "prog_tags", 16),            # offset into data[] (array 8)
    (216, 4, "verified_insns", 84),
]
BPF_INFO_LEN = 232
BPF_ARRAYS = (1 << 3) | (1 << 4) | (1 << 8)  # JITED_KSYMS, JITED_FUNC_LENS, PROG_TAGS


def btf_blob(e, name, size, bits):
    """A minimal valid BTF object: one INT type.  BTF is host-endian."""
    strs = b"\0" + name.encode() + b"\0"
    types = (e.u32(1) + e.u32(1 << 24) + e.u32(size)        # name_off 1, KIND_INT
             + e.u32((1 << 24) | bits))                      # SIGNED, offset 0
    hdr = (e.u16(0xEB9F) + e.u8(1) + e.u8(0) + e.u32(24)
           + e.u32(0) + e.u32(len(types)) + e.u32(len(types)) + e.u32(len(strs)))
    return hdr + types + strs


BTFS = [(7, "int", 4, 32), (8, "long", 8, 64)]

META_INFO = [("simpleperf_version", "1.build.test"), ("android_version", "14")]

# --- TRACING_DATA blob (util/trace-event-read.c) -------------------------------------------------

HEADER_PAGE = ("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
               "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
               "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
               "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n")
HEADER_EVENT = ("# compressed entry header\n"
                "\ttype_len    :    5 bits\n"
                "\ttime_delta  :   27 bits\n"
                "\tarray       :   32 bits\n\n"
                "\tpadding     : type == 29\n"
                "\ttime_extend : type == 30\n"
                "\ttime_stamp : type == 31\n"
                "\tdata max type_len  == 28\n")
COMMON_FIELDS = ("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
                 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
                 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
                 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")


def tp_format(name, tid, fields, fmt):
    return ("name: %s\nID: %d\nformat:\n" % (name, tid) + COMMON_FIELDS + fields
            + "\nprint fmt: " + fmt + "\n")


FTRACE_FORMATS = [
    ("function", 1, tp_format(
        "function", 1,
        "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
        "\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n",
        '" %ps <-- %ps", (void *)REC->ip, (void *)REC->parent_ip')),
]
EVENT_SYSTEMS = [
    ("sched", [
        ("sched_switch", 316, tp_format(
            "sched_switch", 316,
            "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
            "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
            "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
            "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
            "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
            "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
            "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n",
            '"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%ld ==> '
            'next_comm=%s next_pid=%d next_prio=%d", REC->prev_comm, '
            'REC->prev_pid, REC->prev_prio, REC->prev_state, REC->next_comm, '
            'REC->next_pid, REC->next_prio')),
        ("sched_wakeup", 318, tp_format(
            "sched_wakeup", 318,
            "\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
            "\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
            "\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
            "\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n",
            '"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, '
            'REC->prio, REC->target_cpu')),
    ]),
    ("irq", [
        ("irq_handler_entry", 100, tp_format(
            "irq_handler_entry", 100,
            "\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
            "\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:1;\n",
            '"irq=%d name=%s", REC->irq, __get_str(name)')),
    ]),
]
PRINTK = ('0xffffffff82a1c3d0 : "rcu_preempt"\n'
          '0xffffffff82a1c3dc : "Start context switch"\n')
SAVED_CMDLINES = "1234 true\n1 systemd\n"
TRACING_PAGE_SIZE = 4096
TRACING_LONG_SIZE = 8


def tracing_blob(e):
    b = b"\x17\x08Dtracing" + b"0.6\0"
    b += e.u8(1 if e.big else 0) + e.u8(TRACING_LONG_SIZE) + e.u32(TRACING_PAGE_SIZE)
    b += b"header_page\0" + e.u64(len(HEADER_PAGE)) + HEADER_PAGE.encode()
    b += b"header_event\0" + e.u64(len(HEADER_EVENT)) + HEADER_EVENT.encode()
    b += e.u32(len(FTRACE_FORMATS))
    for _, _, text in FTRACE_FORMATS:
        b += e.u64(len(text)) + text.encode()
    b += e.u32(len(EVENT_SYSTEMS))
    for sysname, events in EVENT_SYSTEMS:
        b += sysname.encode() + b"\0" + e.u32(len(events))
        for _, _, text in events:
            b += e.u64(len(text)) + text.encode()
    b += e.u32(0)                                  # kallsyms: size 0
    b += e.u32(len(PRINTK)) + PRINTK.encode()
    b += e.u64(len(SAVED_CMDLINES)) + SAVED_CMDLINES.encode()
    return b


# ---------------------------------------------------------------------------
# Feature section encoders (header.c: feat_ops[]).  Each takes (e, ctx) and returns bytes.
# ctx: {"attrs": [...], "attr_sz": n, "aux_offsets": [...]}
# ---------------------------------------------------------------------------

FEAT_NAMES = {
    1: "TRACING_DATA", 2: "BUILD_ID", 3: "HOSTNAME", 4: "OSRELEASE",
    5: "VERSION", 6: "ARCH", 7: "NRCPUS", 8: "CPUDESC", 9: "CPUID",
    10: "TOTAL_MEM", 11: "CMDLINE", 12: "EVENT_DESC", 13: "CPU_TOPOLOGY",
    14: "NUMA_TOPOLOGY", 15: "BRANCH_STACK", 16: "PMU_MAPPINGS",
    17: "GROUP_DESC", 18: "AUXTRACE", 19: "STAT", 20: "CACHE",
    21: "SAMPLE_TIME", 22: "MEM_TOPOLOGY", 23: "CLOCKID", 24: "DIR_FORMAT",
    25: "BPF_PROG_INFO", 26: "BPF_BTF", 27: "COMPRESSED", 28: "CPU_PMU_CAPS",
    29: "CLOCK_DATA", 30: "HYBRID_TOPOLOGY", 31: "PMU_CAPS",
    32: "CPU_DOMAIN_INFO", 129: "simpleperf META_INFO",
}


def f_tracing(e, ctx):
    return tracing_blob(e)


def f_build_id(e, ctx):
    return b"".join(buildid_entry(e, b) for b in ctx.get("build_ids", BUILD_IDS))


def f_str(s):
    return lambda e, ctx: hstr(e, s)


def f_nrcpus(e, ctx):
    return e.u32(NR_CPUS_AVAIL) + e.u32(NR_CPUS_ONLINE)


def f_total_mem(e, ctx):
    return e.u64(TOTAL_MEM_KB)


def f_cmdline(e, ctx):
    return strlist(e, CMDLINE)


def f_event_desc(e, ctx):
    sz = ctx["attr_sz"]
    b = e.u32(len(ctx["attrs"])) + e.u32(sz)
    for a in ctx["attrs"]:
        b += attr_bytes(e, a, sz) + e.u32(len(a["ids"])) + hstr(e, a["name"])
        b += b"".join(e.u64(i) for i in a["ids"])
    return b


def f_cpu_topology(e, ctx):
    b = strlist(e, TOPO_SOCKETS) + strlist(e, TOPO_THREADS)
    for core, sock in TOPO_CORE_SOCKET:
        b += e.s32(core) + e.s32(sock)
    b += strlist(e, TOPO_DIES)
    for d in TOPO_DIE_IDS:
        b += e.s32(d)
    return b


def f_numa(e, ctx):
    b = e.u32(len(NUMA))
    for node, total, free, cpus in NUMA:
        b += e.u32(node) + e.u64(total) + e.u64(free) + hstr(e, cpus)
    return b


def f_empty(e, ctx):
    return b""


def f_pmu_mappings(e, ctx):
    b = e.u32(len(PMU_MAPPINGS))
    for t, n in PMU_MAPPINGS:
        b += e.u32(t) + hstr(e, n)
    return b


def f_group_desc(e, ctx):
    b = e.u32(len(GROUPS))
    for name, leader, nr in GROUPS:
        b += hstr(e, name) + e.u32(leader) + e.u32(nr)
    return b


def f_auxtrace(e, ctx):
    offs = ctx["aux_offsets"]
    b = e.u64(len(offs))
    for off in offs:
        b += e.u64(off) + e.u64(48)
    return b


def f_cache(e, ctx):
    b = e.u32(1) + e.u32(len(CACHES))
    for lvl, line, sets, ways, typ, size, cmap in CACHES:
        b += e.u32(lvl) + e.u32(line) + e.u32(sets) + e.u32(ways)
        b += hstr(e, typ) + hstr(e, size) + hstr(e, cmap)
    return b


def f_sample_time(e, ctx):
    return e.u64(T_S1) + e.u64(T_S2)


def f_mem_topology(e, ctx):
    b = e.u64(1) + e.u64(MEM_BLOCK_SIZE) + e.u64(len(MEM_NODES))
    for node, nbits, words in MEM_NODES:
        assert len(words) == (nbits + 63) // 64
        b += e.u64(node) + e.u64(nbits) + e.u64(nbits)
        b += b"".join(e.u64(w) for w in words)
    return b


def f_clockid(e, ctx):
    return e.u64(CLOCKID_RES)


def f_dir_format(e, ctx):
    return e.u64(DIR_FORMAT_VERSION)


def bpf_info(e):
    info = bytearray(BPF_INFO_LEN)
    for off, size, _, val in BPF_INFO_FIELDS:
        if isinstance(val, bytes):
            raw = val
        else:
            raw = e.u32(val) if size == 4 else e.u64(val)
        assert len(raw) == size
        info[off:off + size] = raw
    return bytes(info)


def bpf_data(e):
    return e.u64(BPF_KSYM) + e.u32(BPF_JITED_LEN) + e.u32(0) + BPF_TAG


def f_bpf_prog_info(e, ctx):
    data = bpf_data(e)
    return (e.u32(1) + e.u32(BPF_INFO_LEN) + e.u32(len(data)) + e.u64(BPF_ARRAYS)
            + bpf_info(e) + data)


def f_bpf_btf(e, ctx):
    b = e.u32(len(BTFS))
    for bid, name, size, bits in BTFS:
        blob = btf_blob(e, name, size, bits)
        b += e.u32(bid) + e.u32(len(blob)) + blob
    return b


def f_compressed(e, ctx):
    c = COMPRESSED
    return (e.u32(c["version"]) + e.u32(c["type"]) + e.u32(c["level"])
            + e.u32(c["ratio"]) + e.u32(c["mmap_len"]))


def f_cpu_pmu_caps(e, ctx):
    b = e.u32(len(CPU_PMU_CAPS))
    for n, v in CPU_PMU_CAPS:
        b += hstr(e, n) + hstr(e, v)
    return b


def f_clock_data(e, ctx):
    c = CLOCK_DATA
    return (e.u32(c["version"]) + e.u32(c["clockid"]) + e.u64(c["tod_ns"])
            + e.u64(c["clockid_ns"]))


def f_hybrid(e, ctx):
    b = e.u32(len(HYBRID))
    for n, cpus in HYBRID:
        b += hstr(e, n) + hstr(e, cpus)
    return b


def f_pmu_caps(e, ctx):
    b = e.u32(len(PMU_CAPS))
    for pmu, caps in PMU_CAPS:
        b += e.u32(len(caps))
        for n, v in caps:
            b += hstr(e, n) + hstr(e, v)
        b += hstr(e, pmu)
    return b


def f_cpu_domain(e, ctx):
    maxd = max(d for _, doms in CPU_DOMAINS for d, _, _, _ in doms) + 1
    b = e.u32(SCHEDSTAT_VERSION) + e.u32(maxd)
    for cpu, doms in CPU_DOMAINS:
        b += e.u32(cpu) + e.u32(len(doms))
        for d, dname, mask, lst in doms:
            b += e.u32(d)
            if SCHEDSTAT_VERSION >= 17:
                b += hstr(e, dname)
            b += hstr(e, mask) + hstr(e, lst)
    return b


def f_meta_info(e, ctx):
    return b"".join(k.encode() + b"\0" + v.encode() + b"\0" for k, v in META_INFO)


def f_unknown(bit):
    return lambda e, ctx: pad_to(("UNKNOWN-%d" % bit).encode(), 16)


ALL_FEATURES = [
    (1, f_tracing), (2, f_build_id), (3, f_str(HOSTNAME)), (4, f_str(OSRELEASE)),
    (5, f_str(PERF_VERSION)), (6, f_str(ARCH)), (7, f_nrcpus), (8, f_str(CPUDESC)),
    (9, f_str(CPUID)), (10, f_total_mem), (11, f_cmdline), (12, f_event_desc),
    (13, f_cpu_topology), (14, f_numa), (15, f_empty), (16, f_pmu_mappings),
    (17, f_group_desc), (18, f_auxtrace), (19, f_empty), (20, f_cache),
    (21, f_sample_time), (22, f_mem_topology), (23, f_clockid),
    (24, f_dir_format), (25, f_bpf_prog_info), (26, f_bpf_btf),
    (27, f_compressed), (28, f_cpu_pmu_caps), (29, f_clock_data),
    (30, f_hybrid), (31, f_pmu_caps), (32, f_cpu_domain),
]
FEATURE_FN = dict(ALL_FEATURES)

# ---------------------------------------------------------------------------
# File assembler
# ---------------------------------------------------------------------------

MAGIC2 = 0x32454C4946524550


def magic_bytes(e, v1=False):
    return b"PERFFILE" if v1 else e.u64(MAGIC2)


def bitmap_bytes(e, bits, word_bits):
    if word_bits == 64:
        words = [0] * 4
        for b in bits:
            words[b // 64] |= 1 << (b % 64)
        return b"".join(e.u64(w) for w in words)
    words = [0] * 8
    for b in bits:
        words[b // 32] |= 1 << (b % 32)
    return b"".join(e.u32(w) for w in words)


class Layout:
    """Everything the README needs to know about where things went."""

    def __init__(self):
        self.sections = []       # (name, offset, size)
        self.attr_entries = []   # (index, offset, ids_offset, ids_size)
        self.records = []        # Rec objects with offsets
        self.feat_entries = []   # (bit, offset, size)
        self.table_offset = None
        self.table_area = 0
        self.header = {}


def assemble_file(e, *, attrs, attr_size_field, records, features,
                  order="normal", v1=False, header_size=104, bitmap_word_bits=64,
                  extra_table_entries=0, event_types=b"", build_ids=None):
    """Lay out a seekable perf.data file and compute every offset.

    order: "normal"           header | ids | attrs | [event_types] | data | table | features
           "attrs-after-data" header | data | table | features | ids | attrs  (perf inject)
           "hdr72"            header(72) | attrs | ids | data  (no feature bitmap)
    """
    L = Layout()
    attr_entry = attr_size_field + 16
    ids_blobs = [b"".join(e.u64(i) for i in a["ids"]) for a in attrs]
    data = bytearray()
    aux_offsets_rel = []
    for r in records:
        r.offset = len(data)           # relative for now
        if r.type == 71:
            aux_offsets_rel.append(len(data))
        data += r.bytes
    ctx = {"attrs": attrs, "attr_sz": attr_size_field}
    if build_ids is not None:
        ctx["build_ids"] = build_ids
    bits = sorted(b for b, _ in features)
    nfeat = len(bits) + extra_table_entries

    def attrs_blob(ids_offsets):
        out = b""
        for a, io, ib in zip(attrs, ids_offsets, ids_blobs):
            out += attr_bytes(e, a, attr_size_field) + e.u64(io) + e.u64(len(ib))
        return out

    pos = header_size
    if order in ("normal", "hdr72"):
        if order == "normal":
            ids_off = []
            for ib in ids_blobs:
                ids_off.append(pos)
                pos += len(ib)
            attrs_off = pos
            pos += attr_entry * len(attrs)
        else:
            attrs_off = pos
            pos += attr_entry * len(attrs)
            ids_off = []
            for ib in ids_blobs:
                ids_off.append(pos)
                pos += len(ib)
        evt_off = pos if event_types else 0
        pos += len(event_types)
        data_off = pos
        pos += len(data)
        table_off = pos
    else:  # attrs-after-data
        data_off = pos
        pos += len(data)
        table_off = pos
    ctx["aux_offsets"] = [data_off + o for o in aux_offsets_rel]
    feat_blobs = [(b, fn(e, ctx)) for b, fn in sorted(features, key=lambda x: x[0])]
    pos = table_off + 16 * nfeat
    entries = []
    for b, blob in feat_blobs:
        entries.append((b, pos, len(blob)))
        pos += len(blob)
    if order == "attrs-after-data":
        ids_off = []
        for ib in ids_blobs:
            ids_off.append(pos)
            pos += len(ib)
        attrs_off = pos
        pos += attr_entry * len(attrs)
        evt_off = 0

    # header
    hdr = magic_bytes(e, v1) + e.u64(header_size) + e.u64(attr_entry)
    hdr += e.u64(attrs_off) + e.u64(attr_entry * len(attrs))
    hdr += e.u64(data_off) + e.u64(len(data))
    hdr += e.u64(evt_off) + e.u64(len(event_types))
    if header_size == 104:
        hdr += bitmap_bytes(e, bits, bitmap_word_bits)
    assert len(hdr) == header_size
    out = bytearray(hdr)

    def put(off, blob):
        if len(out) < off:
            out.extend(b"\0" * (off - len(out)))
        assert len(out) == off, (len(out), off)
        out.extend(blob)

    ab = attrs_blob(ids_off)
    table = b"".join(e.u64(o) + e.u64(s) for _, o, s in entries)
    table += b"\0" * (16 * extra_table_entries)
    if order == "normal":
        for o, ib in zip(ids_off, ids_blobs):
            put(o, ib)
        put(attrs_off, ab)
        if event_types:
            put(evt_off, event_types)
        put(data_off, bytes(data))
    elif order == "hdr72":
        put(attrs_off, ab)
        for o, ib in zip(ids_off, ids_blobs):
            put(o, ib)
        put(data_off, bytes(data))
    else:
        put(data_off, bytes(data))
    if header_size == 104 and (bits or extra_table_entries):
        put(table_off, table)
        for (_, o, _), (_, blob) in zip(entries, feat_blobs):
            put(o, blob)
    if order == "attrs-after-data":
        for o, ib in zip(ids_off, ids_blobs):
            put(o, ib)
        put(attrs_off, ab)

    for r in records:
        r.offset += data_off
    L.records = records
    L.header = {"magic": bytes(out[:8]), "size": header_size,
                "attr_size": attr_entry, "attrs": (attrs_off, attr_entry * len(attrs)),
                "data": (data_off, len(data)),
                "event_types": (evt_off, len(event_types)), "bits": bits,
                "bitmap_word_bits": bitmap_word_bits}
    L.attr_entries = [(i, attrs_off + i * attr_entry, ids_off[i], len(ids_blobs[i]))
                      for i in range(len(attrs))]
    L.table_offset = table_off if header_size == 104 else None
    L.table_area = 16 * nfeat
    L.feat_entries = entries
    L.feat_blobs = dict(feat_blobs)
    L.size = len(out)
    return bytes(out), L


def assemble_pipe(e, records):
    out = bytearray(e.u64(MAGIC2) + e.u64(16))
    for r in records:
        r.offset = len(out)
        out += r.bytes
    return bytes(out)


# ---------------------------------------------------------------------------
# The files
# ---------------------------------------------------------------------------


class Profile:
    """Knobs that differ between the committed files and the perf-6.1 check
    variants (perf 6.1 refuses attr.size > 128 and pipe feature ids > 31)."""

    def __init__(self, attr_size=ATTR_VER8, end_marker=33, drop=()):
        self.attr_size = attr_size
        self.end_marker = end_marker
        self.drop = set(drop)


DEFAULT = Profile()


def full_records(e, with_aux=True):
    recs = [rec_comm(e, COMM, SID_COMM), rec_mmap2(e, MMAP2, SID_MMAP),
            rec_sample(e, SAMPLE_TYPE, SAMPLE_A), rec_sample(e, SAMPLE_TYPE, SAMPLE_B)]
    if with_aux:
        recs += [rec_auxtrace(e, a) for a in AUX_RECS]
    recs.append(rec_finished_round(e))
    return recs


def make_full(e, word_bits=64, prof=DEFAULT):
    feats = [(b, fn) for b, fn in ALL_FEATURES if b not in prof.drop]
    return assemble_file(e, attrs=[ATTR_CPU_CLOCK, ATTR_TASK_CLOCK],
                         attr_size_field=prof.attr_size, records=full_records(e),
                         features=feats, bitmap_word_bits=word_bits)


V1_ATTR = {"name": "cpu-clock", "type": 1, "config": 0, "sample_period": 1000,
           "sample_type": bits_of(["IP", "TID", "TIME", "PERIOD"], SAMPLE_BIT),
           "read_format": 0,
           "flags": ["disabled", "inherit", "mmap", "comm", "freq"],
           "ids": [0x7]}
V1_COMM = {"misc": 0, "pid": 4321, "tid": 4321, "comm": "true"}
V1_MMAP = {"misc": 2, "pid": 4321, "tid": 4321, "addr": 0x400000, "len": 0x6000,
           "pgoff": 0, "filename": "/bin/true"}
V1_SAMPLES = [
    {"misc": 2, "ip": 0x401a2c, "pid": 4321, "tid": 4321, "time": 5000000001,
     "period": 1},
    {"misc": 1, "ip": 0xFFFFFFFF8103C2D0, "pid": 4321, "tid": 4321,
     "time": 5000100002, "period": 2381},
]
V1_BUILD_IDS = [{"misc": 0x0002, "pid": -1, "style": "legacy64", "size_byte": 0,
                 "build_id": "a1b2c3d4e5f60718293a4b5c6d7e8f9001122334",
                 "filename": "/bin/true"}]


def v1_records(e):
    recs = [rec_comm(e, V1_COMM), rec_mmap(e, V1_MMAP)]
    recs += [rec_sample(e, V1_ATTR["sample_type"], s) for s in V1_SAMPLES]
    recs.append(rec_finished_round(e))
    return recs


def make_v1():
    e = LE
    evt = e.u64(0) + pad_to(b"cpu-clock\0", 64)   # {u64 event_id; char name[64]}
    return assemble_file(e, attrs=[V1_ATTR], attr_size_field=ATTR_VER1,
                         records=v1_records(e), features=[(2, f_build_id)],
                         v1=True, event_types=evt, build_ids=V1_BUILD_IDS)


H72_ATTR = {"name": "cycles", "type": 0, "config": 0, "sample_period": 1000,
            "sample_type": bits_of(["IP", "TID", "PERIOD"], SAMPLE_BIT),
            "read_format": 0,
            "flags": ["disabled", "inherit", "mmap", "comm", "freq"],
            "ids": [0x3]}
H72_COMM = {"misc": 0, "pid": 777, "tid": 777, "comm": "ls"}
H72_MMAP = {"misc": 2, "pid": 777, "tid": 777, "addr": 0x400000, "len": 0x1b000,
            "pgoff": 0, "filename": "/bin/ls"}
H72_SAMPLES = [
    {"misc": 2, "ip": 0x4049f0, "pid": 777, "tid": 777, "period": 1},
    {"misc": 2, "ip": 0x40a1b8, "pid": 777, "tid": 777, "period": 1543},
]


def make_hdr72():
    e = LE
    recs = [rec_comm(e, H72_COMM), rec_mmap(e, H72_MMAP)]
    recs += [rec_sample(e, H72_ATTR["sample_type"], s) for s in H72_SAMPLES]
    return assemble_file(e, attrs=[H72_ATTR], attr_size_field=ATTR_VER0,
                         records=recs, features=[], order="hdr72", v1=True,
                         header_size=72)


UNKNOWN_BITS = [40, 100, 200]


def small_records(e):
    return [rec_comm(e, COMM, SID_COMM), rec_sample(e, SAMPLE_TYPE, SAMPLE_A),
            rec_finished_round(e)]


def make_unknown(prof=DEFAULT):
    e = LE
    feats = [(3, f_str(HOSTNAME)), (6, f_str(ARCH)), (7, f_nrcpus),
             (129, f_meta_info)] + [(b, f_unknown(b)) for b in UNKNOWN_BITS]
    return assemble_file(e, attrs=[ATTR_CPU_CLOCK], attr_size_field=prof.attr_size,
                         records=small_records(e), features=feats,
                         extra_table_entries=1)


def make_attrs_after_data(prof=DEFAULT):
    e = LE
    feats = [(3, f_str(HOSTNAME)), (6, f_str(ARCH)), (7, f_nrcpus),
             (12, f_event_desc)]
    return assemble_file(e, attrs=[ATTR_CPU_CLOCK, ATTR_TASK_CLOCK],
                         attr_size_field=prof.attr_size,
                         records=full_records(e, with_aux=False), features=feats,
                         order="attrs-after-data")


ATTR_BIG = dict(ATTR_CPU_CLOCK, config4=0x1234, ids=[0x301])
ATTR_BIG_SIZE = 160
SAMPLE_BIG = dict(SAMPLE_A, id=0x301)
SID_BIG = dict(SID_COMM, id=0x301)


# a VER8 attr with config3 set: copy --attr-size 128 must refuse it
ATTR_CONFIG3 = dict(ATTR_CPU_CLOCK, config3=0x5, ids=[0x301])


def make_attr_big(attr_size=ATTR_BIG_SIZE, attr=ATTR_BIG):
    e = LE
    recs = [rec_comm(e, COMM, SID_BIG), rec_sample(e, SAMPLE_TYPE, SAMPLE_BIG),
            rec_finished_round(e)]
    feats = [(3, f_str(HOSTNAME)), (6, f_str(ARCH)), (7, f_nrcpus),
             (12, f_event_desc)]
    return assemble_file(e, attrs=[attr], attr_size_field=attr_size,
                         records=recs, features=feats)


PIPE_FEATURES = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16, 21]
PIPE_BUILD_ID = {"misc": 0x8002, "pid": -1, "style": "legacy64", "size_byte": 20,
                 "build_id": "0123456789abcdef0123456789abcdef01234567",
                 "filename": "/usr/bin/true"}


def pipe_records(e, prof=DEFAULT):
    attrs = [ATTR_CPU_CLOCK, ATTR_TASK_CLOCK]
    ctx = {"attrs": attrs, "attr_sz": prof.attr_size}
    recs = []
    for a in attrs:
        body = attr_bytes(e, a, prof.attr_size) + b"".join(e.u64(i) for i in a["ids"])
        recs.append(Rec(e, 64, 0, body, [("attr", a["name"]),
                                         ("attr.size", prof.attr_size),
                                         ("ids", ", ".join(hex(i) for i in a["ids"]))]))
    for fid in PIPE_FEATURES:
        payload = FEATURE_FN[fid](e, ctx)
        recs.append(Rec(e, 80, 0, e.u64(fid) + payload,
                        [("feat_id", "%d (%s)" % (fid, FEAT_NAMES[fid])),
                         ("payload bytes", len(payload))]))
    recs.append(Rec(e, 80, 0, e.u64(prof.end_marker),
                    [("feat_id", "%d (end-of-features marker, empty payload)"
                      % prof.end_marker)]))
    blob = tracing_blob(e)
    padded = pad_to(blob, 8)
    recs.append(Rec(e, 66, 0, e.u32(len(padded)) + e.u32(0),
                    [("size", "%d (blob %d + %d zero padding bytes, follow the "
                      "16-byte record)" % (len(padded), len(blob),
                                           len(padded) - len(blob)))],
                    extra=padded))
    recs += [rec_comm(e, COMM, SID_COMM), rec_mmap2(e, MMAP2, SID_MMAP),
             rec_sample(e, SAMPLE_TYPE, SAMPLE_A), rec_finished_round(e)]
    bid = buildid_entry(e, PIPE_BUILD_ID, rtype=67)
    r = Rec(e, 67, PIPE_BUILD_ID["misc"], bid[8:],
            [("pid", -1), ("build_id", PIPE_BUILD_ID["build_id"]),
             ("build_id size byte", 20), ("filename", '"/usr/bin/true"'),
             ("name padding", "to 64 (legacy, size = 4 mod 8)")])
    recs.append(r)
    return recs


def make_pipe(e, prof=DEFAULT):
    recs = pipe_records(e, prof)
    return assemble_pipe(e, recs), recs


def make_zero_magic():
    b = bytearray(1024)
    b[0:8] = b"PERFILE2"
    b[8:16] = LE.u64(999)
    return bytes(b)


# ---------------------------------------------------------------------------
# README generation
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Damaged and odd files for `perfdump check` (one anomaly class per file)
# ---------------------------------------------------------------------------

CHECK_FEATS = [(3, f_str(HOSTNAME)), (6, f_str(ARCH)), (7, f_nrcpus)]


def raw_rec(e, rtype, misc, size, body):
    """A record whose header.size is `size`, whatever the body's length."""
    r = Rec(e, rtype, misc, body, [("header.size (as written)", size)])
    r.size = size
    r.bytes = e.u32(rtype) + e.u16(misc) + e.u16(size) + body
    return r


def zstd_raw_frame(data, last=False):
    """A zstd frame (RFC 8878) holding `data` in one raw block.  perf never
    ends its stream, so by default the block is not the last one."""
    assert len(data) < 1 << 20
    hdr = (struct.pack("<I", 0xFD2FB528)
           + bytes([0x00,            # descriptor: no content size, no checksum
                    0x50]))          # window descriptor: 1 MiB
    bh = (len(data) << 3) | (0 << 1) | (1 if last else 0)   # raw block
    return hdr + struct.pack("<I", bh)[:3] + data


def rec_compressed(e, payload):
    return Rec(e, 81, 0, payload, [("zstd bytes", len(payload))])


def check_file(recs, feats=CHECK_FEATS, attrs=(ATTR_CPU_CLOCK,), event_types=b""):
    return assemble_file(LE, attrs=list(attrs), attr_size_field=ATTR_VER8,
                         records=recs, features=feats, event_types=event_types)


def sample_at(t, sid=0x101, **kw):
    s = dict(SAMPLE_A, time=t, id=sid)
    s.update(kw)
    return rec_sample(LE, SAMPLE_TYPE, s)


def table_entry_off(L, bit):
    k = [b for b, _, _ in L.feat_entries].index(bit)
    return L.table_offset + 16 * k


def make_check_cases():
    """[(name, bytes, index text, purpose, [(offset, severity, code)])]"""
    e = LE
    out = []

    # overlapping sections: event_types over the data section, and the
    # HOSTNAME table entry pointing at ARCH's section
    recs = small_records(e)
    data, L = check_file(recs)
    d_off, d_size = L.header["data"]
    b = bytearray(data)
    b[56:72] = e.u64(d_off) + e.u64(72)
    ent = table_entry_off(L, 3)
    arch_off = [o for bit, o, _ in L.feat_entries if bit == 6][0]
    host = [(o, s) for bit, o, s in L.feat_entries if bit == 3][0]
    b[ent:ent + 16] = e.u64(arch_off) + e.u64(host[1])
    out.append(("check-overlap.data", bytes(b),
                "event_types over data; HOSTNAME entry over ARCH's section",
                "the header's event_types section (offset 56) is set to "
                "{data.offset %d, 72}, inside the data section; the HOSTNAME "
                "table entry (at %d) points at ARCH's section (%d, same size "
                "68), so the real HOSTNAME bytes %d-%d belong to nothing."
                % (d_off, ent, arch_off, host[0], host[0] + host[1]),
                [(56, "error", "section-overlap"),
                 (ent + 16, "error", "section-overlap"),
                 (host[0], "warning", "unreferenced-bytes")]))

    # feature sections that do not decode: a string without its NUL, a
    # count larger than its section, a section too short for its fields
    def f_host_nonul(e, ctx):
        return e.u32(8) + b"perfdump"

    def f_cmdline_count(e, ctx):
        return e.u32(1000) + hstr(e, "perf")

    def f_nrcpus_short(e, ctx):
        return e.u32(NR_CPUS_AVAIL)

    feats = [(3, f_host_nonul), (7, f_nrcpus_short), (11, f_cmdline_count)]
    data, L = check_file(small_records(e), feats=feats)
    so = {bit: o for bit, o, _ in L.feat_entries}
    out.append(("check-features.data", data,
                "HOSTNAME without NUL, NRCPUS short, CMDLINE count 1000",
                "HOSTNAME is u32 len 8 + `perfdump` (no NUL inside its length); "
                "NRCPUS has 4 of its 8 bytes; CMDLINE says nr 1000 but holds one "
                "68-byte string.",
                [(so[3] + 4, "error", "string-no-nul"),
                 (so[7] + 4, "error", "feature-short"),
                 (so[11] + 4, "error", "count-too-large")]))

    # a record smaller than its 8-byte header: the walk cannot go on
    recs = [rec_comm(e, COMM, SID_COMM), raw_rec(e, 9, 2, 4, b""),
            rec_sample(e, SAMPLE_TYPE, SAMPLE_A)]
    data, L = check_file(recs)
    out.append(("check-small-record.data", data,
                "record with header.size 4",
                "the second record says header.size 4 (less than its 8-byte "
                "header); the SAMPLE after it cannot be found.",
                [(recs[1].offset, "error", "record-too-small")]))

    # a kernel record whose size is not a multiple of 8
    body = (e.u32(PID) + e.u32(PID) + cstr8("true") + b"\0" * 4
            + sid_trailer(e, SID_COMM))
    recs = [Rec(e, 3, 0x2000, body, [("comm", '"true"'), ("size", 60)]),
            rec_sample(e, SAMPLE_TYPE, SAMPLE_A)]
    data, L = check_file(recs)
    out.append(("check-misaligned.data", data,
                "COMM of 60 bytes (not a multiple of 8)",
                "the COMM record is 60 bytes (4 zero bytes between its comm "
                "and its sample_id trailer); the SAMPLE follows at an "
                "unaligned offset.",
                [(recs[0].offset, "error", "record-misaligned")]))

    # ids that belong to no attr (two attrs, so perf cannot pick one)
    sid = dict(SID_COMM, id=0x998)
    recs = [rec_comm(e, COMM, sid), sample_at(T_S1, 0x999),
            sample_at(T_S2, 0x202)]
    data, L = check_file(recs, attrs=(ATTR_CPU_CLOCK, ATTR_TASK_CLOCK))
    out.append(("check-unknown-id.data", data,
                "COMM id 0x998 and SAMPLE id 0x999: no attr has them",
                "two attrs (ids 0x101, 0x102 / 0x201, 0x202); the COMM's "
                "sample_id carries id 0x998, the first SAMPLE id 0x999; the "
                "second SAMPLE (id 0x202) is sound.",
                [(recs[0].offset, "error", "unknown-sample-id"),
                 (recs[1].offset, "error", "unknown-sample-id")]))

    # attrs whose sample_id layouts disagree (perf refuses the file)
    other = dict(ATTR_TASK_CLOCK,
                 sample_type=bits_of(["IP", "TID", "TIME", "CPU", "PERIOD"],
                                     SAMPLE_BIT))
    recs = small_records(e)
    data, L = check_file(recs, attrs=(ATTR_CPU_CLOCK, other))
    a1 = L.attr_entries[1][1]
    out.append(("check-layout.data", data,
                "attr 1 without ID: the sample id sits elsewhere",
                "attr 1 has sample_type IP|TID|TIME|CPU|PERIOD (no ID), attr 0 "
                "IP|TID|TIME|ID|CPU|PERIOD: the id of a sample cannot be found "
                "at one place for both (perf: \"non matching sample_type\").",
                [(a1, "error", "sample-id-layout-mismatch")]))

    # time going backwards across FINISHED_ROUND (perf's two-round rule)
    t0 = 1000000000000
    recs = [sample_at(t0 + 1000), rec_finished_round(e),
            sample_at(t0 + 2000), rec_finished_round(e),
            sample_at(t0 + 1500), sample_at(t0 + 500), rec_finished_round(e),
            sample_at(t0 + 1900), sample_at(t0 + 2500)]
    data, L = check_file(recs)
    out.append(("check-time.data", data,
                "samples older than perf's last FINISHED_ROUND flush",
                "sample times (base %d ns): +1000, ROUND, +2000, ROUND, +1500 "
                "(legal: after the second round perf flushed up to +1000 only), "
                "+500 (below +1000: too late), ROUND (flushes up to +2000), "
                "+1900 (too late), +2500." % t0,
                [(recs[5].offset, "warning", "time-backwards-across-round"),
                 (recs[7].offset, "warning", "time-backwards-across-round")]))

    # perf's flush rule where it is subtle (ordered-events.c): last_flush is
    # the time of the last record flushed (it can go down), max_timestamp
    # restarts when the queue is empty, a round with an empty queue does
    # nothing, and a time of ~0 is not queued but delivered at once
    recs = [sample_at(t0 + 1000), rec_finished_round(e), rec_finished_round(e),
            sample_at(t0 + 500), rec_finished_round(e),
            sample_at(t0 + 700), rec_finished_round(e),
            sample_at(t0 + 600), sample_at(0xFFFFFFFFFFFFFFFF),
            sample_at(t0 + 400)]
    data, L = check_file(recs)
    out.append(("check-time-flush.data", data,
                "perf's flush rule: last_flush falls, a time of ~0",
                "sample times (base %d ns): +1000, ROUND (queue: nothing to "
                "flush up to 0), ROUND (flushes +1000), +500 (below +1000: too "
                "late), ROUND (flushes +500, the queue's newest: last_flush is "
                "now +500 and the next round flushes up to +500), +700, ROUND "
                "(flushes nothing), +600 (in time: not below +500), ~0 (perf "
                "does not queue it: it goes out at once, before +600 and +700), "
                "+400 (too late). In time order perf delivers +1000, +500, ~0, "
                "+400, +600, +700." % t0,
                [(recs[3].offset, "warning", "time-backwards-across-round"),
                 (recs[9].offset, "warning", "time-backwards-across-round")]))

    # a record other than a sample moves the clock too: perf queues every
    # kernel record by its sample_id time (session.c:
    # perf_session__process_event), so the COMM's time is what the second
    # round flushes up to
    recs = [sample_at(t0 + 1000), rec_comm(e, COMM, dict(SID_COMM, time=t0 + 3000)),
            rec_finished_round(e), sample_at(t0 + 2000), rec_finished_round(e),
            sample_at(t0 + 2500)]
    data, L = check_file(recs)
    out.append(("check-time-comm.data", data,
                "a COMM's time moves perf's flush clock",
                "times (base %d ns): SAMPLE +1000, COMM +3000 (in its "
                "sample_id), ROUND (nothing to flush; the next round flushes "
                "up to +3000, the COMM's time), SAMPLE +2000 (in time), ROUND "
                "(flushes all three: last_flush is +3000), SAMPLE +2500 (too "
                "late by 500 ns, only because of the COMM)." % t0,
                [(recs[5].offset, "warning", "time-backwards-across-round")]))

    # FINISHED_INIT flushes nothing: perf report and perf script leave it to
    # a stub (tools/perf/util/tool.c process_event_op2_stub)
    recs = [sample_at(t0 + 1000), rec_finished_round(e),
            sample_at(t0 + 2000), rec_finished_round(e),
            raw_rec(e, 82, 0, 8, b""), sample_at(t0 + 1500),
            sample_at(t0 + 500)]
    data, L = check_file(recs)
    out.append(("check-time-init.data", data,
                "FINISHED_INIT is no flush",
                "sample times (base %d ns): +1000, ROUND, +2000, ROUND "
                "(flushes +1000), FINISHED_INIT (perf flushes nothing), +1500 "
                "(in time: not below +1000), +500 (too late). In time order "
                "perf delivers +1000, +500, +1500, +2000 (perf 6.1: \"1 out of "
                "order events recorded\")." % t0,
                [(recs[6].offset, "warning", "time-backwards-across-round")]))

    # a FORK without the sample_id trailer its attr's sample_id_all implies
    fork = raw_rec(e, 7, 0, 32, e.u32(PID + 1) + e.u32(PID) + e.u32(PID + 1)
                   + e.u32(PID) + e.u64(T_MMAP))
    recs = [rec_comm(e, COMM, SID_COMM), fork,
            rec_sample(e, SAMPLE_TYPE, SAMPLE_A)]
    data, L = check_file(recs)
    out.append(("check-short-trailer.data", data,
                "FORK without its sample_id trailer",
                "a PERF_RECORD_FORK of 32 bytes (pid %d, ppid %d, tid %d, "
                "ptid %d, time %d) and no room for the 32-byte sample_id "
                "trailer the attr's sample_id_all asks for; a COMM before and "
                "a SAMPLE after it are whole." % (PID + 1, PID, PID + 1, PID,
                                                 T_MMAP),
                [(recs[1].offset, "error", "record-too-small")]))

    # samples whose size disagrees with sample_type
    long_s = sample_at(T_S1)
    long_s.bytes = (long_s.bytes[:6] + e.u16(long_s.size + 8)
                    + long_s.bytes[8:] + e.u64(0xdead))
    long_s.size += 8
    short_s = sample_at(T_S2)
    short_s.bytes = short_s.bytes[:6] + e.u16(40) + short_s.bytes[8:40]
    short_s.size = 40
    recs = [rec_comm(e, COMM, SID_COMM), long_s, short_s, rec_finished_round(e)]
    data, L = check_file(recs)
    out.append(("check-sample-size.data", data,
                "SAMPLEs 8 bytes too long and 16 too short",
                "sample_type IP|TID|TIME|ID|CPU|PERIOD needs 56 bytes: the "
                "first SAMPLE is 64 (8 bytes 0xdead after period), the second "
                "40 (cpu and period missing).",
                [(long_s.offset + 56, "error", "sample-size-mismatch"),
                 (short_s.offset + 40, "error", "sample-size-mismatch")]))

    # every sample written without the ID its attr's sample_type names:
    # each is 8 bytes short, and the ID read from its CPU slot is no
    # attr's (the findings a wrong sample_type gives, and their cause)
    n = 638
    no_id = SAMPLE_TYPE & ~(1 << SAMPLE_BIT["ID"])
    recs = [rec_comm(e, COMM, SID_COMM)]
    for i in range(n):
        recs.append(rec_sample(e, no_id, dict(SAMPLE_A, time=T_S1 + 1000 * i)))
        if i % 100 == 99:
            recs.append(rec_finished_round(e))
    recs.append(rec_finished_round(e))
    data, L = check_file(recs)
    first = recs[1].offset
    out.append(("check-sample-type.data", data,
                "%d SAMPLEs written without the ID the attr names" % n,
                "sample_type IP|TID|TIME|ID|CPU|PERIOD implies 56-byte "
                "samples; all %d SAMPLEs are 48 bytes (IP|TID|TIME|CPU|PERIOD), "
                "so each is read 8 bytes short (an error) and its id is its "
                "cpu field, 2, no attr's (a warning): %d findings of each "
                "code, the first of each below.  `check` names the cause: "
                "attr 0's sample_type does not fit its samples." % (n, n),
                [(first, "warning", "unknown-sample-id"),
                 (first + 48, "error", "sample-size-mismatch")]))

    # warnings only: a record type nobody defines, zero padding between two
    # feature sections, non-zero bytes after the last section
    recs = [rec_comm(e, COMM, SID_COMM),
            Rec(e, 200, 0, e.u64(0x1234), [("(unknown)", "8 bytes")]),
            rec_sample(e, SAMPLE_TYPE, SAMPLE_A), rec_finished_round(e)]
    data, L = check_file(recs)
    b = bytearray(data)
    # move the last feature section 16 bytes on, leaving zeros before it
    bit, o, s = L.feat_entries[-1]
    ent = table_entry_off(L, bit)
    blob = bytes(b[o:o + s])
    b[o:o + s] = b"\0" * s
    b += b"\0" * 16
    b[o + 16:o + 16 + s] = blob
    b[ent:ent + 8] = e.u64(o + 16)
    b += b"perf!"
    end = len(b)
    out.append(("check-warnings.data", bytes(b),
                "warnings only: record type 200, padding, 5 trailing bytes",
                "record type 200 (16 bytes, defined by nobody); 16 zero bytes "
                "before the last feature section (NRCPUS, moved to %d); the "
                "text `perf!` after it, at %d-%d. Sound: exit 0."
                % (o + 16, end - 5, end),
                [(recs[1].offset, "warning", "unknown-record-type"),
                 (o, "warning", "unreferenced-padding"),
                 (end - 5, "warning", "trailing-bytes")]))

    # compressed records that do not decompress / decompress to a torn record
    inner = (sample_at(T_S1).bytes + sample_at(T_S2).bytes[:20])
    recs = [rec_comm(e, COMM, SID_COMM),
            rec_compressed(e, zstd_raw_frame(inner))]
    data, L = check_file(recs)
    out.append(("check-zstd-torn.data", data,
                "COMPRESSED record ending inside a SAMPLE",
                "one PERF_RECORD_COMPRESSED (81) whose zstd stream (one raw "
                "block) holds a whole 56-byte SAMPLE and the first 20 bytes of "
                "another; the data section ends there.",
                [(recs[1].offset, "error", "torn-compressed-record")]))
    recs = [rec_comm(e, COMM, SID_COMM),
            rec_compressed(e, b"not zstd at all!"),
            rec_sample(e, SAMPLE_TYPE, SAMPLE_A)]
    data, L = check_file(recs)
    out.append(("check-zstd-bad.data", data,
                "COMPRESSED record that is not zstd",
                "one PERF_RECORD_COMPRESSED (81) whose payload is the text "
                "`not zstd at all!`; a plain SAMPLE follows and is read.",
                [(recs[1].offset, "error", "decompress-failed")]))
    return out


# ---------------------------------------------------------------------------
# One file per group of diagnostic codes no other fixture raises, so that
# every code perfdump(1) lists is raised by a fixture (tests/codes.bats)
# ---------------------------------------------------------------------------


def make_code_cases():
    """[(name, bytes, index text, purpose, [(offset, severity, code)])]"""
    e = LE
    out = []

    # the header's fields: bit 0 set, event_types of 10 bytes, an attr
    # whose own size disagrees, an ids array of 12 bytes, an id in two attrs
    dup = dict(ATTR_TASK_CLOCK, ids=[0x101, 0x202])
    feats = [(0, lambda e, ctx: b"")] + CHECK_FEATS
    data, L = check_file(small_records(e), feats=feats,
                         attrs=(ATTR_CPU_CLOCK, dup))
    b = bytearray(data)
    b[56:72] = e.u64(104) + e.u64(10)          # event_types over the ids
    a0 = L.attr_entries[0][1]
    b[a0 + 4:a0 + 8] = e.u32(ATTR_VER8 - 8)    # attr 0: attr.size 128
    a1 = L.attr_entries[1][1]
    ids1 = a1 + ATTR_VER8 + 8                  # attr 1's ids.size field
    b[ids1:ids1 + 8] = e.u64(12)
    out.append(("code-header.data", bytes(b),
                "bit 0, event_types 10 bytes, attr.size 128, ids 12 bytes, id twice",
                "the feature bitmap has bit 0 (HEADER_RESERVED, an empty "
                "section); event_types is {104, 10} (not a multiple of 72); "
                "attr 0's attr.size says 128 while attr_size is %d; attr 1's "
                "ids.size is 12 (not a multiple of 8): of its ids 0x101, 0x202 "
                "the first is read, and repeats attr 0's 0x101; the 8 bytes "
                "after it belong to nothing." % (ATTR_VER8 + 16),
                [(56, "warning", "event-types-size"),
                 (a0 + 4, "warning", "attr-size-mismatch"),
                 (ids1, "error", "ids-size-mismatch"),
                 (72, "warning", "reserved-feature-bit"),
                 (L.attr_entries[1][2], "warning", "duplicate-id"),
                 (L.attr_entries[1][2] + 8, "warning", "unreferenced-bytes")]))

    # attr_size 0: a recording perf record never finished
    data, L = check_file(small_records(e))
    b = bytearray(data)
    b[16:24] = e.u64(0)
    out.append(("code-attr-size.data", bytes(b), "attr_size 0",
                "the header's attr_size (offset 16) is 0.",
                [(16, "error", "bad-attr-size"),
                 (L.records[1].offset, "error", "no-attrs")]))

    # attrs.size not a multiple of attr_size
    data, L = check_file(small_records(e), attrs=(ATTR_CPU_CLOCK, ATTR_TASK_CLOCK))
    b = bytearray(data)
    b[32:40] = e.u64(2 * (ATTR_VER8 + 16) - 8)
    out.append(("code-attrs-size.data", bytes(b),
                "attrs.size 8 bytes short of two attrs",
                "two attrs; attrs.size (offset 32) is twice attr_size less 8: "
                "one attr is read, the other's bytes and ids belong to nothing.",
                [(32, "error", "attrs-size-mismatch"),
                 (L.attr_entries[1][2], "warning", "unreferenced-bytes"),
                 (L.attr_entries[1][1] + ATTR_VER8 + 8, "warning",
                  "unreferenced-bytes")]))

    # no attr at all, while the data section holds records
    data, L = check_file(small_records(e))
    b = bytearray(data)
    b[32:40] = e.u64(0)
    out.append(("code-no-attrs.data", bytes(b),
                "attrs.size 0 with records",
                "attrs.size (offset 32) is 0 while the data section holds a "
                "COMM, a SAMPLE and a FINISHED_ROUND; the attr's bytes belong "
                "to nothing then.",
                [(24, "warning", "no-attrs"),
                 (L.records[1].offset, "error", "no-attrs"),
                 (L.attr_entries[0][2], "warning", "unreferenced-bytes")]))

    # data.size 0 and nothing after data.offset: perf record killed at once
    data, L = check_file(small_records(e))
    d_off = L.header["data"][0]
    b = bytearray(data[:d_off])
    b[48:56] = e.u64(0)
    out.append(("code-killed.data", bytes(b),
                "data.size 0, no record, feature bits set",
                "the file ends at data.offset %d; data.size is 0 and the "
                "bitmap still announces HOSTNAME, ARCH and NRCPUS (perf never "
                "wrote them; data-size-zero says so)." % d_off,
                [(48, "error", "data-size-zero")]))

    # feature sections: bytes left over, a version nobody decodes, a value
    # that contradicts another, and zero bytes after the last section
    def f_host_extra(e, ctx):
        return hstr(e, HOSTNAME) + e.u64(0x5555555555555555)

    def f_cache_v2(e, ctx):
        return e.u32(2) + e.u32(0)

    def f_nrcpus_odd(e, ctx):
        return e.u32(2) + e.u32(4)

    feats = [(3, f_host_extra), (7, f_nrcpus_odd), (20, f_cache_v2)]
    data, L = check_file(small_records(e), feats=feats)
    so = {bit: (o, s) for bit, o, s in L.feat_entries}
    data += b"\0" * 8
    out.append(("code-features.data", data,
                "HOSTNAME + 8 bytes, NRCPUS online > avail, CACHE version 2, padding",
                "HOSTNAME is followed by 8 bytes 0x55 inside its section; "
                "NRCPUS says nr_cpus_avail 2, nr_cpus_online 4; CACHE has "
                "version 2 (only 1 is defined); 8 zero bytes follow the last "
                "section.",
                [(so[7][0], "warning", "unusual"),
                 (so[3][0] + so[3][1] - 8, "warning", "feature-trailing-bytes"),
                 (so[20][0], "error", "feature-undecodable"),
                 (so[20][0] + 4, "warning", "feature-trailing-bytes"),
                 (len(data) - 8, "warning", "trailing-padding")]))

    # records: a TEXT_POKE whose lengths exceed it, a FINISHED_ROUND with a
    # body, a CPU_MAP of an unknown type, a SAMPLE of an attr with a
    # sample_type bit nobody knows
    poke = Rec(e, 20, 0, e.u64(0xffffffff81000000) + e.u16(100) + e.u16(0)
               + b"\0" * 4 + sid_trailer(e, SID_COMM),
               [("old_len", 100), ("new_len", 0)])
    round_body = Rec(e, 68, 0, e.u64(0x1122334455667788),
                     [("(not perf's)", "8 bytes 0x1122334455667788")])
    cpu_map = Rec(e, 74, 0, e.u16(7) + b"\0" * 6, [("type", 7)])
    odd = dict(ATTR_TASK_CLOCK, sample_type=SAMPLE_TYPE | 1 << 60)
    s_odd = rec_sample(e, SAMPLE_TYPE, dict(SAMPLE_A, id=0x201))
    s_odd.bytes += e.u64(0x42)
    s_odd.bytes = s_odd.bytes[:6] + e.u16(s_odd.size + 8) + s_odd.bytes[8:]
    s_odd.size += 8
    recs = [rec_comm(e, COMM, SID_COMM), poke, round_body, cpu_map, s_odd]
    data, L = check_file(recs, attrs=(ATTR_CPU_CLOCK, odd))
    out.append(("code-records.data", data,
                "TEXT_POKE too short, FINISHED_ROUND with a body, CPU_MAP type 7, sample_type bit 60",
                "TEXT_POKE (20) says old_len 100 in a record of 56 bytes; a "
                "FINISHED_ROUND carries 8 non-zero bytes; CPU_MAP (74) has "
                "cpu_map_data.type 7; attr 1 (ids 0x201, 0x202) has sample_type "
                "bit 60, unknown, and its SAMPLE ends with 8 bytes perfdump "
                "cannot place.",
                [(recs[1].offset + 20, "error", "record-short"),
                 (recs[2].offset + 8, "warning", "record-trailing-bytes"),
                 (recs[3].offset + 10, "error", "record-undecodable"),
                 (recs[4].offset + 56, "warning", "unknown-bits")]))

    # pipe mode: a feat_id beyond the 256 bits, a feature sent twice, and
    # tracing data larger than perfdump loads
    recs = pipe_records(e)[:2]
    recs += [Rec(e, 80, 0, e.u64(300) + e.u64(0), [("feat_id", 300)]),
             Rec(e, 80, 0, e.u64(3) + hstr(e, HOSTNAME), [("feat_id", 3)]),
             Rec(e, 80, 0, e.u64(3) + hstr(e, HOSTNAME), [("feat_id", 3)]),
             Rec(e, 66, 0, e.u32(100 << 20) + e.u32(0),
                 [("size", "104857600 (not in the file)")])]
    data = assemble_pipe(e, recs)
    out.append(("code-pipe.data", data,
                "pipe: feat_id 300, HOSTNAME twice, tracing data of 100 MiB",
                "after the two HEADER_ATTR records of pipe-le.data: a "
                "HEADER_FEATURE with feat_id 300, HOSTNAME sent twice, and a "
                "HEADER_TRACING_DATA announcing 104857600 bytes (more than the "
                "64 MiB perfdump loads) that the stream does not hold.",
                [(recs[2].offset + 8, "error", "feature-id-invalid"),
                 (recs[4].offset, "warning", "duplicate-feature"),
                 (recs[5].offset + 16, "error", "section-too-large"),
                 (recs[5].offset + 16, "error", "record-past-end")]))

    # not a perf.data file at all
    data = b"#!/bin/sh\necho not perf\n" + b"\0" * 104
    out.append(("code-bad-magic.data", data, "a shell script, not perf.data",
                "128 bytes: a two-line shell script, then zeros.",
                [(0, "error", "bad-magic")]))
    return out


def doc_check_cases(cases, files, sections, index):
    for name, data, short, purpose, finds in cases:
        files[name] = data
        index.append((name, len(data), short))
        s = ["## " + name, ""]
        s.append("Purpose (`perfdump check`): " + purpose + " Built like the "
                 "other small files: one attr `cpu-clock` (unless said), "
                 "HOSTNAME, ARCH and NRCPUS features (unless said).")
        s.append("")
        s.append("Findings `perfdump check` must give (file offset, severity, "
                 "code):")
        s.append("")
        s += md_table(["offset", "severity", "code"],
                      [("%d (%s)" % (o, hx(o)), sv, c) for o, sv, c in finds])
        sections.append(s)


def doc_derived_cases(cases, files, sections, index):
    """Files made from real recordings (scripts/derive_recordings.py)."""
    for name, data, short, purpose, finds, *refs in cases:
        files[name] = data
        index.append((name, len(data), short))
        s = ["## " + name, ""]
        s.append("Purpose: " + purpose + " Made by scripts/derive_recordings.py "
                 "from the recording named, so perf 6.1 reads it; its view is "
                 "in `testdata/perf-ref/synthetic/` "
                 "(%s)." % (refs[0] if refs else "scripts/record-parity-fixtures.sh"))
        s.append("")
        s.append("Findings `perfdump check` must give (file offset, severity, "
                 "code):")
        s.append("")
        if finds:
            s += md_table(["offset", "severity", "code"],
                          [("%d (%s)" % (o, hx(o)), sv, c) for o, sv, c in finds])
        else:
            s.append("none: the file is sound.")
        sections.append(s)


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return out


def hx(v):
    return "0x%x" % v


def doc_header(L, fsize):
    h = L.header
    rows = [("magic (bytes 0-7)", "`%s`" % h["magic"].decode("latin-1")),
            ("size (header size)", h["size"]),
            ("attr_size", h["attr_size"]),
            ("attrs", "offset %d (%s), size %d" % (h["attrs"][0], hx(h["attrs"][0]), h["attrs"][1])),
            ("data", "offset %d (%s), size %d; ends at %d (%s)" % (
                h["data"][0], hx(h["data"][0]), h["data"][1],
                h["data"][0] + h["data"][1], hx(h["data"][0] + h["data"][1]))),
            ("event_types", "offset %d, size %d" % h["event_types"])]
    if h["size"] == 104:
        bits = h["bits"]
        rows.append(("adds_features bits", ", ".join(
            "%d %s" % (b, FEAT_NAMES.get(b, "(unknown)")) for b in bits) or "none"))
        rows.append(("feature bitmap encoding", "%s, %d-bit words" % (
            "4 x u64" if h["bitmap_word_bits"] == 64 else "8 x u32",
            h["bitmap_word_bits"])))
    rows.append(("file size", fsize))
    return md_table(["header field", "value"], rows)


def doc_attrs(e, L, attrs, attr_size_field):
    out = []
    for (i, off, io, isz), a in zip(L.attr_entries, attrs):
        fv = flags_value(a["flags"])
        fd = flags_ondisk(e, a["flags"])
        rows = [("entry offset", "%d (%s)" % (off, hx(off))),
                ("event", a["name"]),
                ("type", a["type"]), ("size", attr_size_field),
                ("config", hx(a["config"])),
                ("sample_period" + (" (sample_freq: freq=1)" if "freq" in a["flags"] else ""),
                 a["sample_period"]),
                ("sample_type", "%s = %s" % (hx(a["sample_type"]),
                                             "\\|".join(names_of(a["sample_type"], SAMPLE_NAMES)))),
                ("read_format", "%s%s" % (hx(a["read_format"]), (" = " + "\\|".join(
                    names_of(a["read_format"], READ_NAMES))) if a["read_format"] else "")),
                ("flags (LE bit numbering)", "%s = %s" % (hx(fv), ", ".join(
                    FLAG_NAMES[b] for b in range(64) if fv >> b & 1))),
                ]
        if e.big:
            rows.append(("flags u64 as stored (read big-endian)",
                         "%s (bit-reversal of %s)" % (hx(fd), hx(fv))))
        if a.get("config4"):
            rows.append(("bytes 136-143 (beyond VER8; config4 in the pending VER9)",
                         "u64 %s" % hx(a["config4"])))
        rows.append(("all other attr fields", "0"))
        rows.append(("ids section", "offset %d (%s), size %d -> ids %s" % (
            io, hx(io), isz, ", ".join(hx(x) for x in a["ids"]))))
        out.append("Attr %d:" % i)
        out.append("")
        out += md_table(["field", "value"], rows)
        out.append("")
    return out


def doc_records(recs, note_trailer=True):
    rows = []
    for r in recs:
        f = "; ".join("%s=%s" % (k, v) for k, v in r.fields)
        ext = (" + %d payload bytes" % r.extra_len) if r.extra_len else ""
        rows.append(("%d (%s)" % (r.offset, hx(r.offset)), "%d%s" % (r.size, ext),
                     "%d %s" % (r.type, r.name), hx(r.misc), f or "-"))
    return md_table(["offset", "header.size", "type", "misc", "decoded fields"], rows)


def doc_feat_table(L):
    rows = []
    for k, (b, o, s) in enumerate(L.feat_entries):
        rows.append((k, "%d %s" % (b, FEAT_NAMES.get(b, "(unknown to perf)")),
                     "%d (%s)" % (o, hx(o)), s,
                     L.table_offset + 16 * k))
    return md_table(["entry", "bit / feature", "section offset", "section size",
                     "table entry at"], rows)


def doc_feature_values(e, ctx_attrs, attr_sz, aux_offsets, bits, build_ids=BUILD_IDS):
    """Expected decoded values, keyed by feature bit."""
    d = {}
    blob = tracing_blob(e)
    d[1] = [
        "TRACING_DATA: blob of %d bytes; magic `17 08 44` + `tracing`; version "
        "\"0.6\"; endian byte %d (%s); long size %d; page size %d" % (
            len(blob), 1 if e.big else 0, e.name, TRACING_LONG_SIZE, TRACING_PAGE_SIZE),
        "  - header_page: %d bytes of text (4 fields: timestamp, commit, overwrite, data); "
        "header_event: %d bytes" % (len(HEADER_PAGE), len(HEADER_EVENT)),
        "  - ftrace formats: %d: %s" % (len(FTRACE_FORMATS), ", ".join(
            "%s (ID %d, %d bytes)" % (n, i, len(t)) for n, i, t in FTRACE_FORMATS)),
        "  - event systems: %d: %s" % (len(EVENT_SYSTEMS), "; ".join(
            "%s: %s" % (s, ", ".join("%s (ID %d, %d bytes)" % (n, i, len(t)) for n, i, t in ev))
            for s, ev in EVENT_SYSTEMS)),
        "  - kallsyms: size 0",
        "  - printk: %d bytes, 2 lines: `0xffffffff82a1c3d0 : \"rcu_preempt\"`, "
        "`0xffffffff82a1c3dc : \"Start context switch\"`" % len(PRINTK),
        "  - saved cmdlines: %d bytes: `1234 true`, `1 systemd`" % len(SAVED_CMDLINES),
    ]
    lines = ["BUILD_ID: %d entr%s (header.type is 0 in the feature section):" % (
        len(build_ids), "y" if len(build_ids) == 1 else "ies")]
    off = 0
    for b in build_ids:
        ent = buildid_entry(e, b)
        idlen = b["size_byte"] if b["misc"] & 0x8000 else 20
        lines.append("  - at section offset %d: header.size %d, misc %s (cpumode %d%s), pid %d, "
                     "build-id size %d: `%s`, filename \"%s\"; padding: %s" % (
                         off, len(ent), hx(b["misc"]), b["misc"] & 7,
                         ", BUILD_ID_SIZE" if b["misc"] & 0x8000 else
                         ", no BUILD_ID_SIZE bit: assume 20, size byte is 0",
                         b["pid"], idlen, b["build_id"][:idlen * 2], b["filename"],
                         {"legacy64": "name padded to 64 (legacy perf, size = 4 mod 8)",
                          "name8": "name padded to 8 (current perf, size = 4 mod 8)",
                          "entry8": "whole entry padded to 8 (perf ae39ba16554e, "
                                    "later reverted)"}[b["style"]]))
        off += len(ent)
    d[2] = lines
    d[3] = ['HOSTNAME: "%s"' % HOSTNAME]
    d[4] = ['OSRELEASE: "%s"' % OSRELEASE]
    d[5] = ['VERSION: "%s"' % PERF_VERSION]
    d[6] = ['ARCH: "%s"' % ARCH]
    d[7] = ["NRCPUS: nr_cpus_avail %d, nr_cpus_online %d (stored avail first)" % (
        NR_CPUS_AVAIL, NR_CPUS_ONLINE)]
    d[8] = ['CPUDESC: "%s"' % CPUDESC]
    d[9] = ['CPUID: "%s"' % CPUID]
    d[10] = ["TOTAL_MEM: %d kB" % TOTAL_MEM_KB]
    d[11] = ["CMDLINE: %d strings: %s" % (len(CMDLINE), ", ".join('"%s"' % s for s in CMDLINE))]
    d[12] = ["EVENT_DESC: nr %d, attr_sz %d:" % (len(ctx_attrs), attr_sz)] + [
        "  - \"%s\": attr type %d config %d (same bytes as the attrs-section attr), "
        "nr_ids %d, ids %s" % (a["name"], a["type"], a["config"], len(a["ids"]),
                              ", ".join(hx(i) for i in a["ids"])) for a in ctx_attrs]
    d[13] = ["CPU_TOPOLOGY (sized by NRCPUS avail = %d), all three revisions:" % NR_CPUS_AVAIL,
             "  - sibling sockets (%d): %s" % (len(TOPO_SOCKETS), ", ".join('"%s"' % s for s in TOPO_SOCKETS)),
             "  - sibling threads (%d): %s" % (len(TOPO_THREADS), ", ".join('"%s"' % s for s in TOPO_THREADS)),
             "  - core_id/socket_id per CPU 0..7: %s" % ", ".join(
                 "cpu%d %d/%d" % (i, c, s) for i, (c, s) in enumerate(TOPO_CORE_SOCKET)),
             "  - sibling dies (%d): %s" % (len(TOPO_DIES), ", ".join('"%s"' % s for s in TOPO_DIES)),
             "  - die_id per CPU 0..7: %s" % ", ".join(str(x) for x in TOPO_DIE_IDS),
             "  - offline CPUs 4-7 have -1 (0xffffffff) ids, as perf writes them"]
    d[14] = ["NUMA_TOPOLOGY: %d nodes:" % len(NUMA)] + [
        "  - node %d: mem_total %d kB, mem_free %d kB, cpus \"%s\"" % n for n in NUMA]
    d[15] = ["BRANCH_STACK: flag only, section size 0"]
    d[16] = ["PMU_MAPPINGS: %d: %s" % (len(PMU_MAPPINGS), ", ".join(
        "%s = %d" % (n, t) for t, n in PMU_MAPPINGS))]
    d[17] = ["GROUP_DESC: %d group: name \"%s\", leader_idx %d, nr_members %d" % (
        (len(GROUPS),) + GROUPS[0])]
    d[18] = ["AUXTRACE: nr %d: %s (each points at an AUXTRACE record in the data "
             "section; sz = its header.size)" % (len(aux_offsets), ", ".join(
                 "{file_offset %d (%s), sz 48}" % (o, hx(o)) for o in aux_offsets))]
    d[19] = ["STAT: flag only, section size 0"]
    d[20] = ["CACHE: version 1, nr %d:" % len(CACHES)] + [
        "  - L%d: line_size %d, sets %d, ways %d, type \"%s\", size \"%s\", map \"%s\"" % c
        for c in CACHES]
    d[21] = ["SAMPLE_TIME: first %d ns, last %d ns (= the two SAMPLE times)" % (T_S1, T_S2)]
    d[22] = ["MEM_TOPOLOGY: version 1, block_size %s (128 MiB), nr %d:" % (
        hx(MEM_BLOCK_SIZE), len(MEM_NODES))] + [
        "  - node %d: size_bits %d, bitmap (u64 %d repeated, then words %s) = blocks %s" % (
            n, nb, nb, ", ".join(hx(w) for w in ws),
            "0-63" if n == 0 else "64-127") for n, nb, ws in MEM_NODES]
    d[23] = ["CLOCKID: %d (clockid_res_ns; perf prints it x1000 as \"%d MHz\")" % (
        CLOCKID_RES, CLOCKID_RES * 1000)]
    d[24] = ["DIR_FORMAT: version %d" % DIR_FORMAT_VERSION]
    info_rows = ", ".join(
        "%s @%d = %s" % (n, o, (v.hex() if n == "tag" else
                                '"%s"' % v.rstrip(b"\0").decode()) if isinstance(v, bytes)
                         else str(v)) for o, s, n, v in BPF_INFO_FIELDS)
    d[25] = ["BPF_PROG_INFO: count 1:",
             "  - info_len %d, data_len %d, arrays %s (JITED_KSYMS, JITED_FUNC_LENS, PROG_TAGS)" % (
                 BPF_INFO_LEN, len(bpf_data(e)), hx(BPF_ARRAYS)),
             "  - struct bpf_prog_info fields set (all others 0): " + info_rows,
             "  - data[24]: @0 u64 jited ksym %s; @8 u32 jited func len %d (+4 pad); "
             "@16 prog tag %s" % (hx(BPF_KSYM), BPF_JITED_LEN, BPF_TAG.hex()),
             "  - perf's rendering: `bpf_prog_info 42: bpf_prog_%s_perfdump_probe addr %s size %d`" % (
                 BPF_TAG.hex(), hx(BPF_KSYM), BPF_JITED_LEN)]
    d[26] = ["BPF_BTF: count %d:" % len(BTFS)] + [
        "  - id %d, data_size %d: BTF (magic 0xeb9f, %s-endian) with one INT \"%s\" (%d bytes, %d bits)" % (
            bid, len(btf_blob(e, n, s, b)), e.name, n, s, b) for bid, n, s, b in BTFS]
    c = COMPRESSED
    d[27] = ["COMPRESSED: version %d, type %d (zstd), level %d, ratio %d, mmap_len %d" % (
        c["version"], c["type"], c["level"], c["ratio"], c["mmap_len"])]
    d[28] = ["CPU_PMU_CAPS: nr %d: %s" % (len(CPU_PMU_CAPS), ", ".join(
        "%s=%s" % nv for nv in CPU_PMU_CAPS))]
    cd = CLOCK_DATA
    d[29] = ["CLOCK_DATA: version %d, clockid %d (CLOCK_MONOTONIC), tod_ns %d "
             "(2026-11-21T10:00:00.123456789Z), clockid_ns %d (1000.000000000 s)" % (
                 cd["version"], cd["clockid"], cd["tod_ns"], cd["clockid_ns"]),
             "  - so the first sample (t=%d) is wall-clock 2026-11-21T10:00:00.123656789Z" % T_S1]
    d[30] = ["HYBRID_TOPOLOGY: nr %d: %s" % (len(HYBRID), ", ".join(
        '%s cpus "%s"' % h for h in HYBRID))]
    d[31] = ["PMU_CAPS: nr_pmu %d:" % len(PMU_CAPS)] + [
        "  - \"%s\": nr_caps %d: %s (the PMU name is stored after its caps)" % (
            p, len(caps), ", ".join("%s=%s" % nv for nv in caps)) for p, caps in PMU_CAPS]
    maxd = max(dd for _, doms in CPU_DOMAINS for dd, _, _, _ in doms) + 1
    d[32] = ["CPU_DOMAIN_INFO: schedstat_version %d, max_sched_domains %d, %d CPUs "
             "(= NRCPUS online; perf reads nr_cpus_online entries):" % (
                 SCHEDSTAT_VERSION, maxd, len(CPU_DOMAINS))] + [
        "  - cpu %d: nr_domains %d: %s" % (cpu, len(doms), "; ".join(
            'domain %d dname "%s" cpumask "%s" cpulist "%s"' % x for x in doms))
        for cpu, doms in CPU_DOMAINS]
    d[129] = ["simpleperf META_INFO (129): %d bytes of NUL-separated key/value strings, no "
              "length prefix, no padding: %s" % (
                  len(f_meta_info(e, None)), ", ".join('"%s" = "%s"' % kv for kv in META_INFO))]
    for b in UNKNOWN_BITS:
        d[b] = ['bit %d (unknown to perf): 16 bytes, "UNKNOWN-%d" + zero padding '
                '(hex `%s`) - hex-dump it' % (b, b, f_unknown(b)(e, None).hex())]
    out = []
    for b in bits:
        for ln in d[b]:
            out.append(("- " + ln) if not ln.startswith("  ") else ln)
    return out


def render_readme(info):
    o = []
    w = o.append
    w("# Synthetic perf.data fixtures")
    w("")
    w("Generated by `scripts/gen-testdata.py` (Python 3 standard library only, "
      "deterministic). **Do not edit by hand**: change the script and run "
      "`python3 scripts/gen-testdata.py`; `python3 scripts/gen-testdata.py --check` "
      "regenerates into a temporary directory and exits 1 if any file here "
      "(this README included) differs.")
    w("")
    w("Every file is hand-crafted to exercise one variant or trap of the format "
      "(layouts from include/uapi/linux/perf_event.h, tools/lib/perf/include/perf/event.h and tools/perf/util/header.c). Offsets are decimal "
      "with hex in parentheses; record offsets are file offsets of the record "
      "header. All values below are exactly what a correct decoder must show.")
    w("")
    w("| file | size | what it is |")
    w("|---|---:|---|")
    for name, size, what in info["index"]:
        w("| `%s` | %d | %s |" % (name, size, what))
    w("")
    w("## Shared logical content")
    w("")
    w("The \"full\" files (`full-le`, `full-be`, `full-be32`) and the pipe twins "
      "use these attrs and records; the other files reuse parts of them.")
    w("")
    for ln in info["shared"]:
        w(ln)
    for sec in info["sections"]:
        w("")
        for ln in sec:
            w(ln)
    w("")
    return "\n".join(o)


def build_all(prof=DEFAULT):
    """Return ({filename: bytes}, readme text)."""
    files = {}
    index = []
    sections = []

    # --- full-le / full-be / full-be32
    full = {}
    for name, e, wb in (("full-le.data", LE, 64), ("full-be.data", BE, 64),
                        ("full-be32.data", BE, 32)):
        data, L = make_full(e, wb, prof)
        files[name] = data
        full[name] = (e, L)
    e, L = full["full-le.data"]
    aux_offs = [r.offset for r in L.records if r.type == 71]
    ctx_attrs = [ATTR_CPU_CLOCK, ATTR_TASK_CLOCK]

    shared = []
    shared.append("Attr 0 `cpu-clock`: type 1 (SOFTWARE), config 0, sample_period "
                  "100000 (freq=0), sample_type 0x1c7 = IP|TID|TIME|ID|CPU|PERIOD, "
                  "read_format 0x4 = ID, flags 0x%x = %s, ids 0x101, 0x102." % (
                      flags_value(ATTR_CPU_CLOCK["flags"]), ", ".join(
                          FLAG_NAMES[b] for b in range(64)
                          if flags_value(ATTR_CPU_CLOCK["flags"]) >> b & 1)))
    shared.append("")
    shared.append("Attr 1 `task-clock`: type 1, config 1, sample_period 100000, "
                  "sample_type 0x1c7, read_format 0x4, flags 0x%x = %s (a group "
                  "member: not disabled, no tracking bits), ids 0x201, 0x202." % (
                      flags_value(ATTR_TASK_CLOCK["flags"]), ", ".join(
                          FLAG_NAMES[b] for b in range(64)
                          if flags_value(ATTR_TASK_CLOCK["flags"]) >> b & 1)))
    shared.append("")
    shared.append("Both attrs have attr.size %d (VER8) in the full/pipe files; all "
                  "fields not named are 0. In big-endian files the flags u64, read "
                  "big-endian, is the 64-bit reversal of the value above: attr 0 "
                  "0x%x, attr 1 0x%x (header.c: perf_file_header__read)." % (
                      prof.attr_size, flags_ondisk(BE, ATTR_CPU_CLOCK["flags"]),
                      flags_ondisk(BE, ATTR_TASK_CLOCK["flags"])))
    shared.append("")
    shared.append("Non-sample kernel records carry a sample_id_all trailer of 32 "
                  "bytes: pid, tid (u32 each), time, id (u64), cpu, res (u32 each) "
                  "(sample_type TID|TIME|ID|CPU, evsel.c: perf_evsel__parse_id_sample).")

    # full-le section
    s = []
    s.append("## full-le.data")
    s.append("")
    s.append("Purpose: little-endian file-mode recording with a section for **every** "
             "feature id 1..32 (header.c: feat_ops[]), two attrs with id arrays, and a small data "
             "section that includes two AUXTRACE records (payload after header.size, "
             "session.c: perf_session__process_user_event). perf 6.1 refuses it (attr.size 136 > its 128); see *perf "
             "cross-check* at the end.")
    s.append("")
    s.append("### Header")
    s.append("")
    s += doc_header(L, len(files["full-le.data"]))
    s.append("")
    s.append("Layout: header 0-103 | id arrays 104-135 | attrs 136-%d | data %d-%d | "
             "feature table %d-%d (32 entries) | feature sections %d-%d, packed "
             "back to back in bit order, no alignment." % (
                 L.header["attrs"][0] + L.header["attrs"][1] - 1,
                 L.header["data"][0], L.header["data"][0] + L.header["data"][1] - 1,
                 L.table_offset, L.table_offset + L.table_area - 1,
                 L.table_offset + L.table_area, L.size - 1))
    s.append("")
    s.append("### Attrs")
    s.append("")
    s += doc_attrs(e, L, ctx_attrs, prof.attr_size)
    s.append("### Records (data section)")
    s.append("")
    s += doc_records(L.records)
    s.append("")
    s.append("Record -> attr: COMM/MMAP2 trailers and SAMPLE 1 carry id 0x101 "
             "(attr 0 `cpu-clock`); SAMPLE 2 carries id 0x202 (attr 1 `task-clock`). "
             "AUXTRACE records are user records (no trailer); the next record "
             "starts at offset + header.size + size.")
    s.append("")
    s.append("### Feature section table")
    s.append("")
    s += doc_feat_table(L)
    s.append("")
    s.append("### Feature values")
    s.append("")
    s += doc_feature_values(e, ctx_attrs, prof.attr_size, aux_offs, L.header["bits"])
    sections.append(s)
    index.append(("full-le.data", len(files["full-le.data"]),
                  "LE, every feature 1..32, 2 attrs, AUXTRACE records"))

    for name in ("full-be.data", "full-be32.data"):
        e2, L2 = full[name]
        s = ["## " + name, ""]
        if name == "full-be.data":
            s.append("Purpose: the big-endian twin of `full-le.data` (a 64-bit "
                     "big-endian producer): magic bytes `2ELIFREP` (u64 "
                     "0x32454c4946524550 written big-endian), every integer "
                     "big-endian, feature bitmap written as 4 big-endian u64 words. "
                     "**Every decoded value is identical to `full-le.data`**, and so "
                     "is the layout (same offsets and sizes).")
        else:
            s.append("Purpose: like `full-be.data`, but written by a 32-bit "
                     "big-endian producer: the feature bitmap is 8 big-endian u32 "
                     "words (header.c: perf_file_header__read bitmap quirk). A reader that swaps it as 4 x u64 "
                     "finds bit 3 (HOSTNAME) clear and must retry as 8 x u32 - the "
                     "u32 guess must win. Everything else is byte-identical to "
                     "`full-be.data`; decoded values identical to `full-le.data`.")
        s.append("")
        bm = files[name][72:104]
        s.append("Big-endian specifics a decoder must get right:")
        s.append("")
        s.append("- bitmap bytes 72-103: `%s`" % bm.hex())
        s.append("- attr 0 flags u64 as stored (read big-endian): 0x%x; attr 1: 0x%x "
                 "-> after bit reversal 0x%x / 0x%x (the same flag names as LE)" % (
                     flags_ondisk(BE, ATTR_CPU_CLOCK["flags"]),
                     flags_ondisk(BE, ATTR_TASK_CLOCK["flags"]),
                     flags_value(ATTR_CPU_CLOCK["flags"]),
                     flags_value(ATTR_TASK_CLOCK["flags"])))
        s.append("- the same bit reversal applies to the attrs inside EVENT_DESC")
        s.append("- TRACING_DATA blob: endian byte 1, its sizes big-endian")
        s.append("- BPF_PROG_INFO info struct and BPF_BTF blobs are big-endian "
                 "(perf refuses to interpret these two cross-endian)")
        s.append("- pid/tid and cpu/res pairs are two big-endian u32 at their own offsets")
        s.append("")
        s += doc_header(L2, len(files[name]))
        s.append("")
        s.append("Record offsets and feature table: identical to `full-le.data`.")
        sections.append(s)
    index.append(("full-be.data", len(files["full-be.data"]),
                  "big-endian twin of full-le (bitmap 4 x u64)"))
    index.append(("full-be32.data", len(files["full-be32.data"]),
                  "as full-be, bitmap 8 x u32 (32-bit BE producer)"))

    # --- v1
    data, L = make_v1()
    files["v1.data"] = data
    s = ["## v1.data", ""]
    s.append("Purpose: legacy `PERFFILE` magic (ASCII, endianness-neutral). The reader "
             "must guess the ABI from attr_size 88 = VER1 (72) + 16, natively "
             "little-endian (header.c: perf_file_header__read). One attr (attr.size 72), an event_types section "
             "with one legacy entry (header.c: perf_file_section event_types), only the BUILD_ID feature bit, no "
             "sample_id_all, an old-style MMAP (type 1).")
    s.append("")
    s += doc_header(L, len(data))
    s.append("")
    s.append("event_types: one 72-byte entry {event_id 0, name \"cpu-clock\"}.")
    s.append("")
    s += doc_attrs(LE, L, [V1_ATTR], ATTR_VER1)
    s += doc_records(L.records)
    s.append("")
    s.append("All records map to the only attr (no ids in the samples).")
    s.append("")
    s += doc_feat_table(L)
    s.append("")
    s += doc_feature_values(LE, [V1_ATTR], ATTR_VER1, [], L.header["bits"],
                            build_ids=V1_BUILD_IDS)
    sections.append(s)
    index.append(("v1.data", len(data), "PERFFILE magic, attr_size 88 (VER1), BUILD_ID only"))

    # --- hdr72
    data, L = make_hdr72()
    files["hdr72.data"] = data
    s = ["## hdr72.data", ""]
    s.append("Purpose: pre-2010 72-byte header (no adds_features bitmap, so no feature "
             "table: treat all feature bits as 0), legacy `PERFFILE` magic, attr_size "
             "80 (attr.size 64 = VER0). The attrs section starts right after the "
             "72-byte header; the id array follows the attrs. Bytes 72-103 are the "
             "first attr, not a bitmap.")
    s.append("")
    s += doc_header(L, len(data))
    s.append("")
    s += doc_attrs(LE, L, [H72_ATTR], ATTR_VER0)
    s += doc_records(L.records)
    s.append("")
    s.append("No features. Samples have no TIME/ID fields.")
    sections.append(s)
    index.append(("hdr72.data", len(data), "72-byte header (no bitmap), attr VER0"))

    # --- unknown-features
    data, L = make_unknown(prof)
    files["unknown-features.data"] = data
    s = ["## unknown-features.data", ""]
    s.append("Purpose: the feature table counts **all 256 bits** (tools/perf/util/header.c: perf_header__process_sections). Bits "
             "set: 3 HOSTNAME, 6 ARCH, 7 NRCPUS, 40 and 100 (unknown), 129 "
             "(simpleperf META_INFO) and 200 (unknown) - 7 entries in ascending bit "
             "order. A reader counting only known bits mis-assigns every entry after "
             "bit 7. The table area is followed by **one unused all-zero entry** "
             "(perf's compaction leftover): read exactly popcount = 7 entries. "
             "Feature sections start after the 8-entry (128-byte) table area.")
    s.append("")
    s += doc_header(L, len(data))
    s.append("")
    s.append("Bitmap words (u64, LE): %s." % ", ".join(
        hx(int.from_bytes(data[72 + 8 * i:80 + 8 * i], "little")) for i in range(4)))
    s.append("")
    s += doc_attrs(LE, L, [ATTR_CPU_CLOCK], prof.attr_size)
    s += doc_records(L.records)
    s.append("")
    s += doc_feat_table(L)
    s.append("")
    s.append("Table entry 7 at %d-%d: all zero (unused)." % (
        L.table_offset + 16 * 7, L.table_offset + 16 * 8 - 1))
    s.append("")
    s += doc_feature_values(LE, [ATTR_CPU_CLOCK], prof.attr_size, [], L.header["bits"])
    s.append("")
    s.append("META_INFO bytes: `%s`. Format as simpleperf writes and reads it "
             "(record_file_writer/reader `ReadMetaInfoFeature`): repeated "
             "`key\\0value\\0`, bounded by the section size." % f_meta_info(LE, None).hex())
    sections.append(s)
    index.append(("unknown-features.data", len(data),
                  "bits 40/100/129/200 + trailing zero table entry"))

    # --- attrs-after-data
    data, L = make_attrs_after_data(prof)
    files["attrs-after-data.data"] = data
    s = ["## attrs-after-data.data", ""]
    s.append("Purpose: the `perf inject` layout (tools/perf/builtin-inject.c writes attrs after the data): data section right "
             "after the header at offset 104, feature table at data end, feature "
             "sections, then the id arrays and the attrs section **after** the "
             "features. Same attrs and records as `full-le.data` minus the AUXTRACE "
             "records.")
    s.append("")
    s += doc_header(L, len(data))
    s.append("")
    s += doc_attrs(LE, L, ctx_attrs, prof.attr_size)
    s += doc_records(L.records)
    s.append("")
    s += doc_feat_table(L)
    s.append("")
    s += doc_feature_values(LE, ctx_attrs, prof.attr_size, [], L.header["bits"])
    sections.append(s)
    index.append(("attrs-after-data.data", len(data), "perf inject layout: attrs after features"))

    # --- attr-big, attr-config3: one attr past VER7, its file documented
    def attr_file(name, attr, size, purpose, note, what):
        data, L = make_attr_big(size, attr)
        files[name] = data
        s = ["## " + name, "", "Purpose: " + purpose, ""]
        s += doc_header(L, len(data))
        s.append("")
        s += doc_attrs(LE, L, [attr], size)
        if note:
            s.append(note)
        s.append("")
        s += doc_records(L.records)
        s.append("")
        s += doc_feat_table(L)
        s.append("")
        s += doc_feature_values(LE, [attr], size, [], L.header["bits"])
        sections.append(s)
        index.append((name, len(data), what))

    attr_file("attr-big.data", ATTR_BIG, ATTR_BIG_SIZE,
              "an attr larger than VER8 (tools/perf/util/header.c: read_attr keeps what it knows): attr.size 160, "
              "attr_size 176. Bytes 136-143 of the attr hold u64 0x1234 (config4 of "
              "the pending VER9); bytes 144-159 are zero. A decoder decodes the known "
              "136-byte prefix and shows the 24 extra bytes (perf refuses the file). "
              "EVENT_DESC carries the same 160-byte attr (attr_sz 160).",
              "Attr bytes 136-159 (hex): `%s`." % attr_bytes(LE, ATTR_BIG, ATTR_BIG_SIZE)[136:].hex(),
              "attr.size 160 with non-zero bytes past VER8")
    attr_file("attr-config3.data", ATTR_CONFIG3, ATTR_VER8,
              "a VER8 attr (136 bytes) whose config3 (bytes 128-135) is 5: "
              "perf 6.1 refuses it (128-byte attrs), and `copy --attr-size 128` must "
              "refuse to cut it, naming config3. Otherwise attr-big.data's records.",
              None, "a VER8 attr with config3 set")

    # --- truncations
    full_le = files["full-le.data"]
    e, Lf = full["full-le.data"]
    a_off = Lf.header["attrs"][0]
    d_off = Lf.header["data"][0]
    sample1 = [r for r in Lf.records if r.type == 9][0]
    ent = dict((b, (o, sz)) for b, o, sz in Lf.feat_entries)
    ed_off, ed_size = ent[12]
    cuts = [
        ("trunc-header.data", 50,
         "inside the 104-byte file header: magic, size, attr_size, attrs{offset,size} "
         "and data.offset are complete, data.size (48-55) has only 2 of its 8 bytes "
         "and the feature bitmap (72-103) is missing. Decodable: magic `PERFILE2` "
         "(LE), header size 104, attr_size 152, attrs offset 136 size 304, data "
         "offset %d; the header is incomplete at offset 50." % d_off),
        ("trunc-attrs.data", a_off + 152 + 60,
         "inside the attrs section: attr 0 (%d-%d) is complete; attr 1 entry "
         "(%d-%d) stops after 60 of its 152 bytes (attr offset 60, inside "
         "bp_addr/config1 at 56-63), so attr 1 and its ids{offset,size} are "
         "incomplete. "
         "The id arrays at 104-135 are complete. Data section and features are "
         "missing (data.offset %d lies beyond EOF)." % (
             a_off, a_off + 151, a_off + 152, a_off + 303, d_off)),
        ("trunc-data.data", sample1.offset + 20,
         "inside the data section, 20 bytes into the first SAMPLE record (record at "
         "%d, header.size %d): COMM (%d) and MMAP2 (%d) are complete, the SAMPLE is "
         "torn; the feature table (at %d) is missing." % (
             sample1.offset, sample1.size, Lf.records[0].offset, Lf.records[1].offset,
             Lf.table_offset)),
        ("trunc-feattable.data", Lf.table_offset + 16 * 5 + 8,
         "inside the feature section table (at %d, 32 entries): entries 0-4 (bits "
         "1-5) are complete, entry 5 (bit 6 ARCH) has its offset but not its size; "
         "no feature section is present (the first one starts at %d)." % (
             Lf.table_offset, Lf.feat_entries[0][1])),
        ("trunc-feature.data", ed_off + 100,
         "inside the EVENT_DESC (bit 12) section (offset %d, size %d): 100 bytes "
         "in, i.e. inside the first event's attr blob (section bytes 8-143). "
         "The data section, the whole table and feature sections 1-11 are "
         "complete and decode as in `full-le.data`; section 12 is torn (its table "
         "entry promises %d bytes, %d are present) and sections 13-32 lie beyond "
         "EOF." % (
             ed_off, ed_size, ed_size, 100)),
    ]
    for name, cut, what in cuts:
        files[name] = full_le[:cut]
        s = ["## " + name, ""]
        s.append("Purpose: the first %d bytes of `full-le.data` (cut at offset %d = %s); "
                 "cut %s A decoder must report the truncation with an offset, print "
                 "everything before it, exit 1, and not crash." % (cut, cut, hx(cut), what))
        sections.append(s)
        index.append((name, cut, "prefix of full-le.data, cut at %d" % cut))

    # --- pipe twins
    for name, e2 in (("pipe-le.data", LE), ("pipe-be.data", BE)):
        data, recs = make_pipe(e2, prof)
        files[name] = data
        s = ["## " + name, ""]
        if e2 is LE:
            s.append("Purpose: pipe mode (header.c: perf_header__read_pipe): 16-byte header {magic `PERFILE2`, size 16} "
                     "then records to EOF. HEADER_ATTR (64) records carry each attr "
                     "(attr.size %d) and its ids, which start at 8 + attr.size. "
                     "HEADER_FEATURE (80) records carry 12 feature payloads (the same "
                     "bytes as the file-mode sections); their sizes are mostly 4 mod 8, "
                     "so the following records sit at unaligned offsets (the kernel writes u64-aligned records). Then "
                     "the end-of-features marker (empty HEADER_FEATURE, 16 bytes, "
                     "feat_id 33), a 16-byte HEADER_TRACING_DATA (66) record followed by "
                     "the full-le tracing blob padded to 8 (not counted in header.size), "
                     "kernel records, and a HEADER_BUILD_ID (67) at the end." % prof.attr_size)
        else:
            s.append("Purpose: big-endian twin of `pipe-le.data` (magic bytes "
                     "`2ELIFREP`, header size u64 16 big-endian). Same records, same "
                     "offsets and sizes, same decoded values; attr flags bit-reversed "
                     "as in `full-be.data`, tracing blob with endian byte 1.")
        s.append("")
        s.append("File size %d. Records:" % len(data))
        s.append("")
        s += doc_records(recs)
        s.append("")
        s.append("Offsets here are file offsets; `perf script -D` prints pipe "
                 "offsets relative to the end of the 16-byte header (16 less).")
        s.append("")
        s.append("Feature payload values are those listed for `full-le.data` "
                 "(HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, "
                 "TOTAL_MEM, CMDLINE, EVENT_DESC, PMU_MAPPINGS, SAMPLE_TIME). The "
                 "SAMPLE maps to attr 0 via id 0x101. HEADER_BUILD_ID: header.type "
                 "67, misc 0x8002 (user, BUILD_ID_SIZE), header.size 100 (36 + name "
                 "padded to 64).")
        sections.append(s)
        index.append((name, len(data), "pipe mode, %s-endian" % e2.name))

    # --- zero-magic
    files["zero-magic.data"] = make_zero_magic()
    s = ["## zero-magic.data", ""]
    s.append("Purpose: 1024 bytes: `PERFILE2` (valid little-endian magic) followed by "
             "a header size field (offset 8) of 999 - neither 104, 72 nor 16. Every "
             "other byte is zero. A decoder must reject the file, naming offset 8 "
             "(0x8) and the value 999, exit 1, and must not try to read sections.")
    sections.append(s)
    index.append(("zero-magic.data", 1024, "PERFILE2 with header size 999 (invalid)"))

    # --- tracepoint samples (scripts/gen_tp_testdata.py)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import gen_tp_testdata
    gen_tp_testdata.add(sys.modules[__name__], files, index, sections)

    # --- perfdump check cases
    doc_check_cases(make_check_cases(), files, sections, index)
    doc_check_cases(make_code_cases(), files, sections, index)
    doc_derived_cases(derive_recordings.cases(ROOT), files, sections, index)

    # perf cross-check note
    s = ["## perf cross-check", ""]
    s.append("`python3 scripts/gen-testdata.py --perf61 DIR` writes variants readable by "
             "perf 6.1 (attr.size 128 / attr_size 144, pipe end marker 32, and "
             "`*-nodir` variants without DIR_FORMAT); all other bytes are produced "
             "by the same code. Results with perf 6.1.187 (x86_64) when the "
             "fixtures were made:")
    s.append("")
    for ln in PERF61_NOTES:
        s.append("- " + ln)
    sections.append(s)

    readme = render_readme({"index": index, "shared": shared, "sections": sections})
    files["README.md"] = readme.encode()
    return files


PERF61_NOTES = [
    "Files with attr.size 136 or 160 (full-*, unknown-features, "
    "attrs-after-data, attr-big, trunc-attrs/-data/-feattable/-feature) are "
    "refused: \"file uses a more recent and unsupported ABI (8 bytes extra)\" "
    "(32 for attr-big).",
    "`perf report --header-only -I` on the attr.size-128 variants prints every "
    "feature perf 6.1 knows (3..31) with exactly the values documented above; "
    "`perf buildid-list` lists the three build-ids (the 16-byte one as 32 hex "
    "digits); on a variant without the AUXTRACE records `perf script -D` decodes "
    "COMM, MMAP2 and both SAMPLEs as documented, in both byte orders.",
    "The TRACING_DATA blob parses in both byte orders: a variant whose second attr "
    "is TRACEPOINT config 316 shows as `sched:sched_switch` with trace_fields "
    "prev_comm, prev_pid, prev_prio, prev_state, next_comm, next_pid, next_prio.",
    "DIR_FORMAT in a plain file makes perf 6.1 print \"assertion failed at "
    "util/header.c:3075\" (process_dir_format expects a directory) and stop "
    "processing features 25..31; the `-nodir` variants show them.",
    "Big-endian variants (full-be, full-be32): same output as little-endian except "
    "\"interpreting bpf_prog_info/btf from systems with endianness is not yet "
    "supported\"; the 8 x u32 bitmap is recovered by perf's fallback guess.",
    "The AUXTRACE records make `perf script`/`perf report` stop with \"failed to "
    "process type: 71 [Invalid argument]\": perf needs an AUXTRACE_INFO decoder "
    "for them; the records themselves are well-formed.",
    "v1.data and hdr72.data are read (\"ABI1\" / \"ABI0 perf.data file "
    "detected, need_swap=0\") and all their records decode as documented.",
    "pipe-le.data: all 12 features print, then \"failed: wrong feature ID: 33\" "
    "(perf 6.1's last feature id is 31, its end marker 32); with marker 32 the "
    "stream reads to the end.",
    "pipe-be.data: perf 6.1 does not swap HEADER_FEATURE feat_id (\"wrong feature "
    "ID: 216172782113783808\" = 3 byte-swapped), shows MMAP2 prot as `---p` (prot/"
    "flags not swapped) and cpu 0 (pipe-mode evsels lack needs_swap, so cpu/res "
    "are read crossed): perf bugs; file-mode big-endian shows the right values.",
    "zero-magic.data and trunc-header.data: \"incompatible file format\". perf "
    "6.1 silently accepts truncated data/table/feature sections (exit 0).",
]


def write_dir(files, d):
    os.makedirs(d, exist_ok=True)
    for name, data in files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


def check(files):
    bad = 0
    with tempfile.TemporaryDirectory() as td:
        write_dir(files, td)
        for name in sorted(files):
            ref = os.path.join(OUT_DIR, name)
            if not os.path.exists(ref):
                print("MISSING  %s" % os.path.relpath(ref, ROOT))
                bad += 1
                continue
            with open(ref, "rb") as f:
                old = f.read()
            with open(os.path.join(td, name), "rb") as f:
                new = f.read()
            if old != new:
                where = next((i for i in range(min(len(old), len(new)))
                              if old[i] != new[i]), min(len(old), len(new)))
                print("DIFFERS  %s (sizes %d vs %d, first difference at %d)" % (
                    os.path.relpath(ref, ROOT), len(old), len(new), where))
                bad += 1
    if os.path.isdir(OUT_DIR):
        for name in sorted(os.listdir(OUT_DIR)):
            if name not in files:
                print("EXTRA    %s (not produced by the generator)" %
                      os.path.relpath(os.path.join(OUT_DIR, name), ROOT))
                bad += 1
    if bad:
        print("gen-testdata: %d file(s) out of date; run python3 scripts/gen-testdata.py" % bad)
        return 1
    print("gen-testdata: %d files up to date" % len(files))
    return 0


def perf61_variants(d):
    """Variants that perf 6.1 accepts, to cross-check feature encodings."""
    prof = Profile(attr_size=ATTR_VER7, end_marker=32)
    out = {}
    for name, e, wb in (("full-le", LE, 64), ("full-be", BE, 64), ("full-be32", BE, 32)):
        out[name + ".data"] = make_full(e, wb, prof)[0]
        # DIR_FORMAT on a non-directory makes perf 6.1 stop processing the
        # remaining features; a variant without it shows features 25..31.
        out[name + "-nodir.data"] = make_full(e, wb, Profile(ATTR_VER7, 32, drop=[24]))[0]
    out["unknown-features.data"] = make_unknown(prof)[0]
    out["attrs-after-data.data"] = make_attrs_after_data(prof)[0]
    out["pipe-le.data"] = make_pipe(LE, prof)[0]
    out["pipe-be.data"] = make_pipe(BE, prof)[0]
    write_dir(out, d)
    for n in sorted(out):
        print("%-28s %6d bytes" % (n, len(out[n])))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true",
                    help="regenerate into a temp dir, exit 1 if testdata/synthetic differs")
    ap.add_argument("--perf61", metavar="DIR",
                    help="write perf-6.1-readable variants into DIR (not committed)")
    args = ap.parse_args()
    files = build_all()
    if args.check:
        sys.exit(check(files))
    if args.perf61:
        perf61_variants(args.perf61)
        return
    write_dir(files, OUT_DIR)
    for name in sorted(files):
        print("%-28s %6d bytes" % (os.path.join("testdata/synthetic", name), len(files[name])))


if __name__ == "__main__":
    main()
