#!/usr/bin/env python3
# tp_compare.py PERFDUMP FILE REF_PREFIX [ARG...]: every tracepoint sample of FILE
# as perfdump shows it (records --json-lines --order time) against perf's
# view stored in REF_PREFIX.fields.jsonl (every field, perf's Python
# binding) and REF_PREFIX.trace.txt (the print output, perf script -F
# trace).  Samples are matched by (time, cpu, event) after sorting both
# sides; every sample, every field and every print must be equal.
# ARGs go to records (--kallsyms FILE: the kernel's functions of %ps).
# Prints the mismatches and exits 1 if there are any.
import json
import re
import subprocess
import sys

pd, path, ref = sys.argv[1:4]
out = subprocess.run([pd, "records", "--json-lines", "--order", "time",
                      "--type", "sample", *sys.argv[4:], path],
                     capture_output=True, text=True)
ours = []
for line in out.stdout.splitlines():
    r = json.loads(line)
    if "fields" in r:
        ours.append((r["time"], r["cpu"], r["event"], r["fields"],
                     r["print"]))

perf_fields = [json.loads(l) for l in open(ref + ".fields.jsonl")]
trace_re = re.compile(r"^\s*\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\S+): ?(.*)$")
perf_print = []
for l in open(ref + ".trace.txt"):
    m = trace_re.match(l.rstrip("\n"))
    if not m:
        sys.exit("cannot read perf's line: " + l)
    t = int(m.group(2)) * 10**9 + int(m.group(3))
    perf_print.append((t, int(m.group(1)), m.group(4), m.group(5)))

bad = []


def same(mine, theirs):
    """perf's value against ours: pointers and unsigned longs are "0x.."
    strings here (perf's Python binding gives them as integers)."""
    if isinstance(theirs, int) and isinstance(mine, str) and \
            mine.startswith("0x"):
        return int(mine, 16) == theirs
    # a signed field of 1, 2 or 4 bytes: perf's binding does not extend
    # its sign (trace-event-python.c get_field_numeric_entry: read_size,
    # then the unsigned value), kmem:kmalloc's node=-1 is 4294967295
    if isinstance(theirs, int) and isinstance(mine, int) and mine < 0 and \
            theirs > 0:
        return any(mine + (1 << b) == theirs for b in (8, 16, 32))
    if isinstance(theirs, list) and isinstance(mine, list):
        return len(mine) == len(theirs) and \
            all(same(a, b) for a, b in zip(mine, theirs))
    return mine == theirs


key = lambda x: (x[0], x[1], x[2], json.dumps(x[3], sort_keys=True))
ours.sort(key=key)
perf_fields.sort(key=key)
if len(ours) != len(perf_fields) or len(ours) != len(perf_print):
    bad.append("sample counts: perfdump %d, perf fields %d, perf prints %d"
               % (len(ours), len(perf_fields), len(perf_print)))
for o, p in zip(ours, perf_fields):
    if o[:3] != tuple(p[:3]):
        bad.append("sample %r against perf's %r" % (o[:3], p[:3]))
        continue
    if list(o[3]) != list(p[3]):
        bad.append("%r: fields %s, perf %s" % (o[:3], list(o[3]), list(p[3])))
    for k, v in p[3].items():
        if k in o[3] and not same(o[3][k], v):
            bad.append("%r: %s=%r, perf %r" % (o[:3], k, o[3][k], v))
# prints: perf script ties are in its own order; compare sorted
mine = sorted((o[0], o[1], o[2], o[4]) for o in ours)
theirs = sorted(perf_print)
for o, p in zip(mine, theirs):
    if o != p:
        bad.append("print %r\n   perf %r" % (o, p))
for b in bad[:20]:
    print(b)
if bad:
    print("%d mismatches in %d samples" % (len(bad), len(ours)))
    sys.exit(1)
print("%d samples, every field and print equal to perf's" % len(ours))
