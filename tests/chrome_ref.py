#!/usr/bin/env python3
"""perf's view and export --to chrome's, as the same lines (export-chrome.bats).

Usage: chrome_ref.py KIND <INPUT
  script     perf script -F pid,tid,ip,sym,symoff,dso output: a line a
             sample, "PID/TID<TAB>FRAME<TAB>...", the frames outermost
             first as "SYM+0xOFF (DSO)"; an inlined call "SYM (inlined)"
             (perf prints its caller's offset after it)
  stacks     export --to chrome's JSON: the same of its instant events
  timehist SWITCHES   perf sched timehist output: a line a run
             interval, "TID CPU END RUN" (END seconds with 6 decimals, RUN
             milliseconds with 3, as timehist prints them); the idle task,
             each CPU's first switch (no interval: run time 0) and the
             rows whose CPU's previous switch (SWITCHES: perf script -F
             cpu,time,trace) was to another task left out (their count on
             stderr: timehist's run time then spans what others ran)
  slices     export --to chrome's JSON: the same of its complete events,
             END and RUN cut to microseconds as timehist cuts them
"""
import json
import re
import sys

INLINED = re.compile(r"^(.*)\+0x[0-9a-f]+ \(inlined\)$")


def frame(text):
    """ "IP SYM+OFF (DSO)" -> "SYM+OFF (DSO)", inlined calls without +OFF"""
    text = text.strip().split(None, 1)[1]
    m = INLINED.match(text)
    return f"{m.group(1)} (inlined)" if m else text


def script(lines):
    out, head, frames = [], None, []

    def flush():
        if head is not None:
            out.append("\t".join([head] + frames[::-1]))

    for line in lines:
        line = line.rstrip("\n")
        if not line.strip():
            continue
        if line.startswith("\t"):
            frames.append(frame(line))
            continue
        flush()
        parts = line.split(None, 1)
        head, frames = parts[0], []
        if len(parts) > 1:  # no callchain: the ip on the sample's line
            frames.append(frame(parts[1]))
    flush()
    return out


def stacks(doc):
    return [
        "\t".join([f"{e['pid']}/{e['tid']}"] + e["args"]["stack"])
        for e in doc["traceEvents"]
        if e["ph"] == "i"
    ]


TASK = re.compile(r"^(.*)\[(\d+)(?:/(\d+))?\]$")


SWITCH = re.compile(r"^\[(\d+)\]\s+(\d+\.\d+):.* next_pid=(-?\d+) ")


def timehist(lines, switches):
    """timehist's rows whose CPU's previous switch switched to the task
    (switches: perf script -F cpu,time,trace output, in the same order);
    the others, where timehist's run time is not a run interval, counted
    on stderr"""
    nexts = []
    for line in switches:
        m = SWITCH.match(line)
        if m:
            nexts.append((int(m.group(1)), m.group(2), m.group(3)))
    out, last, left_out, i = [], {}, 0, 0
    for line in lines:
        f = line.split()
        if len(f) < 6 or not re.match(r"^\d+\.\d+$", f[0]):
            continue
        time, cpu, task, run = f[0], int(f[1].strip("[]")), f[2], f[-1]
        assert nexts[i][:2] == (cpu, time), (nexts[i], line)
        switched_in = last.get(cpu)
        last[cpu] = nexts[i][2]
        i += 1
        if task == "<idle>" or switched_in is None:
            continue
        tid = TASK.match(task).group(2)
        if switched_in != tid:
            left_out += 1
            continue
        out.append(f"{tid} {cpu} {time} {run}")
    print(f"left out: {left_out}", file=sys.stderr)
    return out


def ns(us):
    """a ts or dur in microseconds, 3 decimals, as nanoseconds"""
    return round(float(us) * 1000)


def slices(doc):
    out = []
    for e in doc["traceEvents"]:
        if e["ph"] != "X":
            continue
        end, dur = ns(e["ts"]) + ns(e["dur"]), ns(e["dur"])
        end_us, run_us = end // 1000, dur // 1000
        out.append(
            f"{e['tid']} {e['args']['cpu']} "
            f"{end_us // 10**6}.{end_us % 10**6:06d} "
            f"{run_us // 1000}.{run_us % 1000:03d}"
        )
    return out


def main():
    kind = sys.argv[1]
    if kind == "script":
        out = script(sys.stdin)
    elif kind == "timehist":
        with open(sys.argv[2]) as switches:
            out = timehist(sys.stdin, switches)
    else:
        doc = json.load(sys.stdin)
        out = stacks(doc) if kind == "stacks" else slices(doc)
    for line in out:
        print(line)


if __name__ == "__main__":
    main()
