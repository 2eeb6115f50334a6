# SPDX-License-Identifier: GPL-2.0-only
"""Files of testdata/synthetic/ made from real recordings of testdata/.

scripts/gen-testdata.py calls cases(root): each case takes a perf.data file
that `perf record` wrote on this machine (so perf 6.1 reads the result too,
and its view is stored in testdata/perf-ref/synthetic/) and changes a few
records: moves one, rewrites a sample's fields, or inserts records (the data
section grows; the feature sections after it move, and the header's
data.size and the feature table's offsets follow).  Deterministic: the same
input bytes give the same output.

Layouts: tools/perf/util/header.h (struct perf_file_header, feature table
of struct perf_file_section), include/uapi/linux/perf_event.h (struct
perf_event_header, PERF_RECORD_SAMPLE, PERF_RECORD_KSYMBOL).  Little-endian
file-mode recordings only (what this machine writes).
"""

import os
import struct

REC_SAMPLE = 9
REC_KSYMBOL = 17
REC_FINISHED_ROUND = 68
KSYMBOL_TYPE_BPF = 1
KSYMBOL_FLAG_UNREGISTER = 1
MISC_KERNEL = 1
# tools/perf/util/header.h: enum perf_header_feat
HEADER_EVENT_DESC = 12
HEADER_PMU_MAPPINGS = 16


class Recording:
    """A file-mode perf.data: header, data-section records, feature table."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.b = bytearray(f.read())
        b = self.b
        assert b[0:8] == b"PERFILE2" and struct.unpack_from("<Q", b, 8)[0] == 104
        self.data_off, self.data_size = struct.unpack_from("<QQ", b, 40)
        self.nfeat = sum(bin(x).count("1") for x in b[72:104])

    def records(self):
        """[(offset, type, misc, size)] of the data section, in file order."""
        out, off, end = [], self.data_off, self.data_off + self.data_size
        while off + 8 <= end:
            t, misc, size = struct.unpack_from("<IHH", self.b, off)
            assert size >= 8
            out.append((off, t, misc, size))
            off += size
        return out

    def move(self, src, dst):
        """Move the record at src to just before offset dst (dst > src)."""
        size = struct.unpack_from("<H", self.b, src + 6)[0]
        rec = self.b[src:src + size]
        del self.b[src:src + size]
        dst -= size
        self.b[dst:dst] = rec
        return dst

    def insert(self, at, rec):
        """Insert record bytes at offset `at` of the data section."""
        table = self.data_off + self.data_size
        self.b[at:at] = rec
        self.data_size += len(rec)
        struct.pack_into("<Q", self.b, 48, self.data_size)
        for i in range(self.nfeat):
            o = table + len(rec) + 16 * i
            sec_off = struct.unpack_from("<Q", self.b, o)[0]
            if sec_off >= table:
                struct.pack_into("<Q", self.b, o, sec_off + len(rec))

    def drop_features(self, bits):
        """Clear feature bits: their table entries and sections go, the
        sections after them move up (a header of a file perf wrote without
        them: tools/perf/util/header.c perf_header__adds_write)."""
        table = self.data_off + self.data_size
        have = [i for i in range(256) if self.b[72 + i // 8] >> (i % 8) & 1]
        ents = [struct.unpack_from("<QQ", self.b, table + 16 * i)
                for i in range(len(have))]
        gone = [ents[have.index(bit)] for bit in bits]
        # the sections last in the file first: offsets before them stay
        for off, size in sorted(gone, reverse=True):
            del self.b[off:off + size]
        kept = [(bit, e) for bit, e in zip(have, ents) if bit not in bits]
        del self.b[table:table + 16 * len(have)]
        self.b[table:table] = b"\0" * (16 * len(kept))
        shift = 16 * (len(have) - len(kept))
        for i, (_, (off, size)) in enumerate(kept):
            off -= shift + sum(s for o, s in gone if o < off)
            struct.pack_into("<QQ", self.b, table + 16 * i, off, size)
        for bit in bits:
            self.b[72 + bit // 8] &= ~(1 << bit % 8) & 0xFF
        self.nfeat = len(kept)

    def sample_time_at(self):
        """Where a sample's time is, by the attrs' sample_type (they agree)."""
        attrs_off, attrs_size = struct.unpack_from("<QQ", self.b, 24)
        attr_size = struct.unpack_from("<Q", self.b, 16)[0]
        layouts = set()
        for a in range(attrs_off, attrs_off + attrs_size, attr_size):
            st = struct.unpack_from("<Q", self.b, a + 24)[0]
            # IDENTIFIER, IP, TID come before TIME (evsel.c: evsel__parse_sample)
            layouts.add(8 + 8 * sum(1 for bit in (16, 0, 1) if st >> bit & 1))
        assert len(layouts) == 1 and st >> 2 & 1
        return layouts.pop()

    def u32(self, off):
        return struct.unpack_from("<I", self.b, off)[0]

    def u64(self, off):
        return struct.unpack_from("<Q", self.b, off)[0]


# cpu-clock.data: sample_type IP|TID|TIME|PERIOD: ip, pid, tid, time, period
# after the 8-byte header; its sample_id trailer (sample_id_all): pid, tid, time
S_IP, S_PID, S_TID, S_TIME = 8, 16, 20, 24


def ksymbol(addr, length, flags, name, pid, tid, time):
    """PERF_RECORD_KSYMBOL with cpu-clock.data's sample_id (pid, tid, time)."""
    nb = name.encode() + b"\0"
    nb += b"\0" * (-len(nb) % 8)
    body = struct.pack("<QIHH", addr, length, KSYMBOL_TYPE_BPF, flags) + nb
    body += struct.pack("<IIQ", pid, tid, time)
    return struct.pack("<IHH", REC_KSYMBOL, 0, 8 + len(body)) + body


def case_reorder(root):
    """irq-syscalls.data with its first sample moved after the last round."""
    r = Recording(os.path.join(root, "testdata", "irq-syscalls.data"))
    recs = r.records()
    rounds = [o for o, t, _, _ in recs if t == REC_FINISHED_ROUND]
    first = next(o for o, t, _, _ in recs if t == REC_SAMPLE and o < rounds[0])
    t = r.u64(first + r.sample_time_at())
    last = rounds[-1]
    new = r.move(first, last + 8)
    purpose = (
        "`testdata/irq-syscalls.data` (the issue's `perf record -e 'irq:*' -e "
        "raw_syscalls:sys_enter -R -a`, see testdata/README.md) with its first "
        "SAMPLE (file offset %d, time %d) moved to just after the last "
        "FINISHED_ROUND (now at %d): perf's last flush has passed its time, so "
        "perf reads it out of order and says \"1 out of order events "
        "recorded\" (perf report -D: perf-ref/synthetic/check-reorder.data.order.txt); no "
        "other byte changes (the data section keeps its size)."
        % (first, t, new))
    return ("check-reorder.data", bytes(r.b),
            "a real recording, one sample moved after the last FINISHED_ROUND",
            purpose, [(new, "warning", "time-backwards-across-round")])


def case_tid_minus_one(root):
    """cpu-clock.data with six samples of three pids whose tid is -1."""
    r = Recording(os.path.join(root, "testdata", "cpu-clock.data"))
    samples = [o for o, t, _, _ in r.records() if t == REC_SAMPLE]
    changed = []
    for k, o in enumerate(samples[10:16]):
        pid = 4001 + k % 3
        struct.pack_into("<II", r.b, o + S_PID, pid, 0xFFFFFFFF)
        changed.append("%d (pid %d)" % (o, pid))
    purpose = (
        "`testdata/cpu-clock.data` whose samples at offsets %s have tid -1 "
        "(0xffffffff), as the kernel writes for a task that is exiting "
        "(kernel/events/core.c: perf_event_tid), with three different pids: "
        "threads are (pid, tid) pairs, so these are three threads of three "
        "processes, two samples each (perf keys threads by tid alone: "
        "perf-ref/synthetic/tid-minus-one.data.pid.txt)."
        % ", ".join(changed))
    return ("tid-minus-one.data", bytes(r.b),
            "a real recording, samples of three pids with tid -1", purpose, [])


def case_ksymbol(root):
    """cpu-clock.data with a BPF program's KSYMBOL and samples in it."""
    r = Recording(os.path.join(root, "testdata", "cpu-clock.data"))
    recs = r.records()
    kernel = [o for o, t, misc, _ in recs
              if t == REC_SAMPLE and misc & 7 == MISC_KERNEL]
    addr, length = 0xffffffffc0001000, 0x100
    name = "bpf_prog_0123456789abcdef_parity"
    # register before the 5th kernel sample, unregister before the 9th
    reg_at, unreg_at = kernel[4], kernel[8]
    t_reg = r.u64(reg_at + S_TIME) - 1
    t_unreg = r.u64(unreg_at + S_TIME) - 1
    pid, tid = r.u32(reg_at + S_PID), r.u32(reg_at + S_TID)
    hits = kernel[4:7]          # in the program while it is registered
    after = kernel[9]           # at its address after it is gone
    for o in hits:
        struct.pack_into("<Q", r.b, o + S_IP, addr + 0x10)
    struct.pack_into("<Q", r.b, after + S_IP, addr + 0x20)
    unreg = ksymbol(addr, length, KSYMBOL_FLAG_UNREGISTER, name, pid, tid,
                    t_unreg)
    reg = ksymbol(addr, length, 0, name, pid, tid, t_reg)
    r.insert(unreg_at, unreg)   # the later one first: offsets before it stay
    r.insert(reg_at, reg)
    n = len(reg)
    purpose = (
        "`testdata/cpu-clock.data` with a KSYMBOL (BPF program `%s` at %#x, "
        "len %#x) registered at offset %d (time %d) and unregistered at %d "
        "(time %d), both %d bytes; the kernel samples then at %s have ip %#x "
        "(in the program), the one at %d ip %#x (after it is gone: no map). "
        "The data section grows by %d bytes; the feature sections move with "
        "it. perf reads it: perf-ref/synthetic/ksymbol-hits.data.buildids-H.txt."
        % (name, addr, length, reg_at, t_reg, unreg_at + n, t_unreg, n,
           ", ".join(str(o + n) for o in hits), addr + 0x10, after + 2 * n,
           addr + 0x20, 2 * n))
    return ("ksymbol-hits.data", bytes(r.b),
            "a real recording, samples in a BPF program's KSYMBOL", purpose, [])


# (fixture, derived name, features dropped, what the attrs then tell perf)
NODESC = [
    ("tracepoint.data", "nodesc-tracepoint.data", [HEADER_EVENT_DESC],
     "perf evlist names sched:sched_switch from TRACING_DATA and the dummy "
     "event from its attr: dummy:HG"),
    ("bp.data", "nodesc-bp.data", [HEADER_EVENT_DESC],
     "perf evlist names the breakpoint from its attr: mem:0x1000:rw"),
    ("group.data", "nodesc-group.data", [HEADER_EVENT_DESC],
     "perf evlist names both events from their attrs: cpu-clock, task-clock"),
    ("stat-msr.data", "nodesc-stat-msr.data", [HEADER_EVENT_DESC],
     "the msr PMU's type 9 is named by PMU_MAPPINGS (msr = 9); perf evlist "
     "says `unknown attr type: 9`"),
    ("stat-msr.data", "nodesc-nopmu-stat-msr.data",
     [HEADER_EVENT_DESC, HEADER_PMU_MAPPINGS],
     "nothing names the PMU of type 9; perf evlist says "
     "`unknown attr type: 9`"),
]


def case_nodesc(root, src, name, bits, view):
    """A recording as perf would have written it without some features."""
    r = Recording(os.path.join(root, "testdata", src))
    r.drop_features(bits)
    names = {HEADER_EVENT_DESC: "EVENT_DESC", HEADER_PMU_MAPPINGS: "PMU_MAPPINGS"}
    which = " and ".join(names[b] for b in bits)
    one = len(bits) == 1
    purpose = (
        "`testdata/%s` (see testdata/README.md) without its %s feature "
        "section%s: %s cleared in the header's feature bitmap, %s feature "
        "table entr%s and section bytes removed, the sections after moved "
        "up; nothing else changes. So the file names no event (as a "
        "recording perf record was killed in): %s "
        "(perf-ref/synthetic/%s.evlist.txt)."
        % (src, which, "" if one else "s", "the bit" if one else "the bits",
           "its" if one else "their", "y" if one else "ies", view, name))
    return (name, bytes(r.b), "a real recording without " + which,
            purpose, [], "scripts/record-evname-fixtures.sh")


def cases(root):
    """[(name, bytes, index text, purpose, [(offset, severity, code)]
    [, the script that writes perf's view])]"""
    return ([case_reorder(root), case_tid_minus_one(root), case_ksymbol(root)] +
            [case_nodesc(root, *c) for c in NODESC])
