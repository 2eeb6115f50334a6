# SPDX-License-Identifier: GPL-2.0-only
"""Tracepoint recordings for testdata/synthetic/, written by
scripts/gen-testdata.py (which calls add() with itself as `g`, for its
writer library: Endian, attr_bytes, Rec, assemble_file, the tracing blob
texts).

  tp-le.data    a tracepoint attr (type 2) and samples whose RAW payloads
                hold every kind of field: signed and unsigned integers of
                1, 2, 4 and 8 bytes, char[], a pointer, unsigned long, a
                u32 array, a __data_loc char[] and a __data_loc u16[]; the
                print fmt uses __print_symbolic, __print_flags, __get_str
                and __print_array; pdtest:print's (printed without
                libtraceevent) flags with a delimiter, ?:, symbols, the
                lengths h, l and ll, widths and %%.  No EVENT_DESC: the event is named by
                the tracing data alone (HOSTNAME is there for the byte-swapped
                feature bitmap's check), HEADER_E_MACHINE (33: EM_X86_64,
                e_flags 0x5; EM_386 in tp-le32) and HEADER_CLN_SIZE (34: 64).
  tp-be.data    its big-endian twin (endian byte 1 in the tracing data)
  tp-le32.data  its twin from a 32-bit producer (long size 4: the pointer
                and the unsigned long are 4 bytes, later offsets move)
  tp-bad.data   a format libtraceevent rejects, a print fmt it rejects, a
                sample with RAW size 0, a __data_loc past the payload, a
                payload cut short, a __print_hex length past the payload,
                a common_type that is not the format's ID, and a
                tracepoint ID with no format.

All three twins decode to the same field values and print outputs.
Layouts: include/trace/trace_events.h (the RAW payload), __data_loc as
(len << 16 | offset); tools/perf/util/trace-event-read.c (the blob).
"""

TP_ID = 500
SAMPLE_TYPE_NAMES = ["IP", "TID", "TIME", "ID", "CPU", "PERIOD", "RAW"]

# (a_s8, a_u8, a_s16, a_s32, a_s64, a_u64, comm, ptr, ul, arr, name, vals)
VALUES = [
    (-5, 1, -300, -70000, -5000000000, 18000000000000000000, b"perf",
     0xC0DE1000, 4000000000, (1, 2, 3), b"eth0", (7, 8, 9)),
    (127, 2, 32767, 3, 9223372036854775807, 0, b"longcomm",
     0, 0, (0xFFFFFFFF, 0, 5), b"", ()),
    (-128, 9, -32768, -2147483648, -1, 1, b"", 0x10, 1,
     (0, 0, 0), b"a longer name", (65535,)),
]


def fields_format(L):
    """The field lines of pdtest:fields for long size L (offsets move)."""
    o = 40
    f = ("\tfield:s8 a_s8;\toffset:8;\tsize:1;\tsigned:1;\n"
         "\tfield:u8 a_u8;\toffset:9;\tsize:1;\tsigned:0;\n"
         "\tfield:s16 a_s16;\toffset:10;\tsize:2;\tsigned:1;\n"
         "\tfield:s32 a_s32;\toffset:12;\tsize:4;\tsigned:1;\n"
         "\tfield:s64 a_s64;\toffset:16;\tsize:8;\tsigned:1;\n"
         "\tfield:u64 a_u64;\toffset:24;\tsize:8;\tsigned:0;\n"
         "\tfield:char comm[8];\toffset:32;\tsize:8;\tsigned:0;\n")
    f += "\tfield:void * ptr;\toffset:%d;\tsize:%d;\tsigned:0;\n" % (o, L)
    f += "\tfield:unsigned long ul;\toffset:%d;\tsize:%d;\tsigned:0;\n" % (o + L, L)
    f += "\tfield:u32 arr[3];\toffset:%d;\tsize:12;\tsigned:0;\n" % (o + 2 * L)
    f += "\tfield:__data_loc char[] name;\toffset:%d;\tsize:4;\tsigned:0;\n" % (o + 2 * L + 12)
    f += "\tfield:__data_loc u16[] vals;\toffset:%d;\tsize:4;\tsigned:0;\n" % (o + 2 * L + 16)
    return f


FIELDS_PRINT = ('"a_s8=%d a_s16=%d a_s32=%d a_s64=%lld a_u64=%llu comm=%s ptr=%p '
                'ul=%lu name=%s sym=%s flags=%s vals={%s}", REC->a_s8, REC->a_s16, '
                'REC->a_s32, REC->a_s64, REC->a_u64, REC->comm, REC->ptr, REC->ul, '
                '__get_str(name), __print_symbolic(REC->a_u8, { 1, "ONE" }, '
                '{ 2, "TWO" }), __print_flags(REC->a_s32, "|", { 1, "A" }, '
                '{ 2, "B" }, { 4, "C" }), __print_array(__get_dynamic_array(vals), '
                '__get_dynamic_array_len(vals) / 2, 2)')

# pdtest:print (ID 510): a print fmt perfdump prints without libtraceevent
# (flags with a delimiter, ?:, symbols, lengths h/l/ll, widths, __get_str)
PRINT_ID = 510
PRINT_FIELDS = ("\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n"
                "\tfield:s16 v16;\toffset:12;\tsize:2;\tsigned:1;\n"
                "\tfield:char name[6];\toffset:14;\tsize:6;\tsigned:0;\n"
                "\tfield:__data_loc char[] msg;\toffset:20;\tsize:4;\tsigned:0;\n"
                "\tfield:u64 big;\toffset:24;\tsize:8;\tsigned:0;\n")
PRINT_PRINT = ('"state=%s%s v=%hd w=%03d h=%x l=%lx big=%llu neg=%u name=%-6s| '
               'msg=%s sym=%s pct=100%% tab=\\t. r=%5d x=%-4x|z=%08lx s=%3s| n=%05lld m=%-5lld|", '
               'REC->state & 3 ? '
               '__print_flags(REC->state & 3, "|", { 1, "A" }, { 2, "B" }) : "R", '
               'REC->state & 4 ? "+" : "", REC->v16, REC->v16, REC->state, '
               'REC->state, REC->big, REC->v16, REC->name, __get_str(msg), '
               '__print_symbolic(REC->state, { 1, "one" }, { 7, "seven" }), '
               'REC->v16, REC->state, REC->big, REC->name, REC->big, REC->big')
PRINT_VALUES = [(0, -2, b"idle", b"hello", 18446744073709551615),
                (7, 300, b"sixchr", b"", 1), (12, -32768, b"", b"x y", 0)]


def print_payload(e, v):
    state, v16, name, msg, big = v
    m = msg + b"\0"
    b = (e.u16(PRINT_ID) + e.u8(0) + e.u8(0) + e.s32(77) + e.u32(state)
         + e.u16(v16 & 0xFFFF) + name.ljust(6, b"\0")[:6]
         + e.u32(len(m) << 16 | 32) + e.u64(big) + m)
    while (4 + len(b)) % 8:
        b += b"\0"
    return b


HEX_FIELDS = ("\tfield:u8 buf[4];\toffset:8;\tsize:4;\tsigned:0;\n"
              "\tfield:u32 len;\toffset:12;\tsize:4;\tsigned:0;\n")
HEX_PRINT = '"buf=%s", __print_hex(REC->buf, REC->len)'
BROKEN_FIELDS = "\tfield:int;\toffset:eight;\tsize:;\n"
BADPRINT_FIELDS = "\tfield:int x;\toffset:8;\tsize:4;\tsigned:1;\n"
BADPRINT_PRINT = '"x=%d", REC->x, (('


def fields_payload(g, e, L, v, tid=TP_ID, name_loc=None, cut=None):
    """The RAW payload of one pdtest:fields sample (padded: 4 + size % 8 == 0)."""
    a_s8, a_u8, a_s16, a_s32, a_s64, a_u64, comm, ptr, ul, arr, name, vals = v
    word = e.u32 if L == 4 else e.u64
    b = e.u16(tid) + e.u8(1) + e.u8(0) + e.s32(4242)
    b += bytes([a_s8 & 0xFF, a_u8]) + e.u16(a_s16 & 0xFFFF) + e.s32(a_s32)
    b += e.s64(a_s64) + e.u64(a_u64) + comm.ljust(8, b"\0")[:8]
    b += word(ptr) + word(ul) + b"".join(e.u32(x) for x in arr)
    data = 40 + 2 * L + 20
    nm = name + b"\0"
    b += e.u32(name_loc if name_loc is not None else (len(nm) << 16 | data))
    b += e.u32(2 * len(vals) << 16 | (data + len(nm)))
    b += nm + b"".join(e.u16(x) for x in vals)
    if cut is not None:
        b = b[:cut]
    while (4 + len(b)) % 8:
        b += b"\0"
    return b


def tp_blob(g, e, L, systems):
    b = b"\x17\x08Dtracing" + b"0.6\0"
    b += e.u8(1 if e.big else 0) + e.u8(L) + e.u32(4096)
    b += b"header_page\0" + e.u64(len(g.HEADER_PAGE)) + g.HEADER_PAGE.encode()
    b += b"header_event\0" + e.u64(len(g.HEADER_EVENT)) + g.HEADER_EVENT.encode()
    b += e.u32(0)
    b += e.u32(len(systems))
    for sysname, events in systems:
        b += sysname.encode() + b"\0" + e.u32(len(events))
        for text in events:
            b += e.u64(len(text)) + text.encode()
    b += e.u32(0) + e.u32(0) + e.u64(0)  # kallsyms, printk, cmdlines: none
    return b


def sample(g, e, sid, i, payload, cpu=0):
    body = e.u64(0xFFFFFFFF81000000 + i) + e.u32(4242) + e.u32(4242)
    body += e.u64(1000000000 + 1000 * i) + e.u64(sid)
    body += e.u32(cpu) + e.u32(0) + e.u64(1)
    body += e.u32(len(payload)) + payload
    return g.Rec(e, 9, 1, body, [("raw size", len(payload))])


def tp_attr(g, config, sid):
    return {"type": 2, "config": config, "sample_period": 1,
            "sample_type": g.bits_of(SAMPLE_TYPE_NAMES, g.SAMPLE_BIT),
            "flags": ["sample_id_all"], "ids": [sid]}


def make_twin(g, e, L):
    fmt = g.tp_format("fields", TP_ID, fields_format(L), FIELDS_PRINT)
    pfmt = g.tp_format("print", PRINT_ID, PRINT_FIELDS, PRINT_PRINT)
    systems = [("pdtest", [fmt, pfmt])]
    recs = [sample(g, e, 0x501, i, fields_payload(g, e, L, v))
            for i, v in enumerate(VALUES)]
    recs += [sample(g, e, 0x510, 10 + i, print_payload(e, v))
             for i, v in enumerate(PRINT_VALUES)]
    data, _ = g.assemble_file(e, attrs=[tp_attr(g, TP_ID, 0x501),
                                        tp_attr(g, PRINT_ID, 0x510)],
                              attr_size_field=g.ATTR_VER8, records=recs,
                              features=[(1, lambda e2, ctx: tp_blob(g, e2, L, systems)),
                                        (3, g.f_str(g.HOSTNAME)),
                                        (33, lambda e2, ctx: e_machine(e2, L)),
                                        (34, lambda e2, ctx: e2.u32(64))])
    return data


def e_machine(e, L):
    """HEADER_E_MACHINE: u32 e_machine, u32 e_flags (EM_X86_64 or EM_386)."""
    return e.u32(62 if L == 8 else 3) + e.u32(0x5 if L == 8 else 0)


def make_bad(g):
    e, L = g.LE, 8
    systems = [("pdtest", [
        g.tp_format("fields", TP_ID, fields_format(L), FIELDS_PRINT),
        g.tp_format("broken", 501, BROKEN_FIELDS, '"x"'),
        g.tp_format("badprint", 502, BADPRINT_FIELDS, BADPRINT_PRINT),
        g.tp_format("hexdump", 504, HEX_FIELDS, HEX_PRINT),
    ])]
    v = VALUES[0]
    hdr = e.u16(504) + e.u8(0) + e.u8(0) + e.s32(1)
    recs = [
        sample(g, e, 0x501, 0, fields_payload(g, e, L, v)),
        sample(g, e, 0x501, 1, b""),                                # RAW size 0
        sample(g, e, 0x501, 2, fields_payload(g, e, L, v, name_loc=5 << 16 | 300)),
        sample(g, e, 0x501, 3, fields_payload(g, e, L, v, cut=20)),   # cut short
        sample(g, e, 0x501, 4, fields_payload(g, e, L, v, tid=777)),  # common_type
        sample(g, e, 0x502, 5, e.u16(501) + b"\0" * 10),             # rejected
        sample(g, e, 0x503, 6, e.u16(502) + b"\0" * 6 + e.s32(-9)),
        sample(g, e, 0x504, 7, hdr + b"\1\2\3\4" + e.u32(2) + b"\0" * 4),
        sample(g, e, 0x504, 8, hdr + b"\1\2\3\4" + e.u32(1000) + b"\0" * 4),
        sample(g, e, 0x505, 9, e.u16(503) + b"\0" * 10),             # no format
    ]
    attrs = [tp_attr(g, TP_ID, 0x501), tp_attr(g, 501, 0x502),
             tp_attr(g, 502, 0x503), tp_attr(g, 504, 0x504),
             tp_attr(g, 503, 0x505)]
    data, _ = g.assemble_file(e, attrs=attrs, attr_size_field=g.ATTR_VER8,
                              records=recs,
                              features=[(1, lambda e2, ctx: tp_blob(g, e2, L, systems))])
    return data


def add(g, files, index, sections):
    """Write the tp-* files into `files`, with their README entries."""
    for name, e, L in (("tp-le.data", g.LE, 8), ("tp-be.data", g.BE, 8),
                       ("tp-le32.data", g.LE, 4)):
        files[name] = make_twin(g, e, L)
        index.append((name, len(files[name]),
                      "tracepoint samples, every kind of field (%s-endian, long size %d)"
                      % (e.name, L)))
    files["tp-bad.data"] = make_bad(g)
    index.append(("tp-bad.data", len(files["tp-bad.data"]),
                  "tracepoint formats and payloads that do not decode"))
    s = ["## tp-le.data, tp-be.data, tp-le32.data, tp-bad.data", ""]
    s += [ln.strip() for ln in __doc__.split("\n\n")[1].split("\n") if ln.strip()]
    sections.append(s)
