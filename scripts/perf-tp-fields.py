# perf script -s scripts/perf-tp-fields.py -i FILE: perf's own view of
# every field of every tracepoint sample, one JSON array a line:
#   [time_ns, cpu, "system:name", {"common_type": N, ..., "field": value}]
# Values are what perf's Python binding hands out (trace-event-python.c):
# integers as perf reads them (signedness from the format), char arrays as
# strings, other arrays as lists, unprintable byte arrays as
# {"bytes": "hex"}.  common_flags and common_preempt_count come from
# perf's context helpers, common_type and common_pid from the RAW bytes
# (perf's dict has the sample's pid as common_pid).  Used by
# scripts/record-tp-fixtures.sh; tests/tracepoint.bats compares.
import json
import struct

from perf_trace_context import common_flags, common_pc

SKIP = {"common_s", "common_ns", "common_cpu", "common_comm",
        "common_callchain", "common_pid"}


def value(v):
    if isinstance(v, (bytes, bytearray)):
        return {"bytes": bytes(v).hex()}
    if isinstance(v, list):
        return [value(x) for x in v]
    return v


def trace_unhandled(event_name, context, fields, sample):
    raw = sample["raw_buf"]
    s = sample["sample"]
    out = {
        "common_type": struct.unpack_from("<H", raw, 0)[0],
        "common_flags": common_flags(context),
        "common_preempt_count": common_pc(context),
        "common_pid": struct.unpack_from("<i", raw, 4)[0],
    }
    for k, v in fields.items():
        if k not in SKIP:
            out[k] = value(v)
    print(json.dumps([s["time"], s["cpu"], sample["ev_name"], out],
                     separators=(",", ":")))
