#!/usr/bin/env python3
"""Every print output perfdump gives for the tracepoint samples of FILEs is
libtraceevent's own (tests/oracle/tp_oracle.c, the tests' oracle: perfdump
does not link libtraceevent).

usage: tp_oracle.py PERFDUMP ORACLE FILE...

For each sample with a RAW payload and a format: perfdump's "print" equals
the oracle's output for the same format text and payload; where perfdump
shows no print (a payload it refuses, "print": null) the sample is counted
apart.  Prints one summary line per file; exit 1 on any difference.
"""
import json
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.stdout


def escape(s):
    return "".join(
        c if 0x20 <= ord(c) < 0x7F and c != "\\" else "\\x%02x" % ord(c)
        for c in s
    )


def formats(pd, path):
    """tracepoint ID -> (offset, size, big_endian, long_size, system)"""
    out = {}
    for line in run([pd, "-j", "features", "tracing_data", path]).splitlines():
        doc = json.loads(line)
        for ft in doc.get("features", []):
            for ev in ft.get("events", []):
                if "id" in ev and "offset" in ev and ev["id"] not in out:
                    out[ev["id"]] = (ev["offset"], ev["size"], ft["big_endian"],
                                     ft["long_size"], ev["system"])
    return out


def main():
    pd, oracle, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    bad = 0
    for path in files:
        fmts = formats(pd, path)
        reqs, mine = [], []
        out = run([pd, "-x", "records", "--json-lines", "--type", "sample", path])
        for line in out.splitlines():
            r = json.loads(line)
            raw = r.get("raw_data") or {}
            ct = (r.get("fields") or {}).get("common_type")
            if "data" not in raw or not raw["data"] or ct not in fmts:
                continue
            off, size, be, lsz, system = fmts[ct]
            reqs.append("%s %d %d %d %d %s %s\n" % (path, off, size, be, lsz,
                                                   system, raw["data"]))
            mine.append(r.get("print"))
        p = subprocess.run([oracle], input="".join(reqs), capture_output=True,
                           text=True)
        theirs = p.stdout.splitlines()
        same = none = 0
        for i, (m, t) in enumerate(zip(mine, theirs)):
            if m is None:
                none += 1
            elif escape(m) == t:
                same += 1
            else:
                bad += 1
                print("%s: sample %d: perfdump %r, libtraceevent %r" %
                      (path, i, escape(m), t))
        if len(theirs) != len(mine):
            bad += 1
            print("%s: the oracle answered %d of %d" % (path, len(theirs),
                                                        len(mine)))
        print("%s: %d samples equal to libtraceevent's print, %d without one"
              % (path, same, none))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
