#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fold perf script's output as FlameGraph's stackcollapse-perf.pl does.

The test oracle of `perfdump export --to folded` (tests/export.bats): a
reimplementation of the script's rules (github.com/brendangregg/FlameGraph,
stackcollapse-perf.pl), not a copy, reading `perf script` output on stdin:

  --pid, --tid      comm-PID, comm-PID/TID first (perf script -F +pid)
  --kernel, --jit   _[k] after frames of a DSO m/(^\\[|vmlinux$)/ (not
                    "unknown"), _[j] after /tmp/perf-N.map, jitted-N-N.so
  --event-filter E  only samples of E (default: the first event met)

One thing the script does not do: a sample printed on one line (a
recording without callchains: perf script prints the ip after the event
name) is a one-frame stack here; the script waits for a blank line that
perf script does not print then.
"""
import re
import sys

HEADER = re.compile(r'^(\S.+?)\s+(\d+)/*(\d+)*\s+')
FRAME = re.compile(r'^\s*(\w+)\s*(.+) \((\S*)\)')
# a header with the sample's ip on it: "... event:  ip sym+off (dso)"
ONE_LINE = re.compile(r'^(.*\S:)\s+([0-9a-f]+ .+ \(\S*\))\s*$')


def tidy(func, pname):
    func = func.replace(';', ':')
    if not re.search(r'\.\(.*\)\.', func):
        func = re.sub(r'\((?!anonymous namespace\)).*', '', func)
    func = func.replace('"', '').replace("'", '')
    if pname == 'java' and '/' in func:
        func = re.sub(r'^L', '', func)
    return func


def frame(line, pname, opts):
    m = FRAME.match(line)
    if not m:
        sys.stderr.write('Unrecognized line: %s\n' % line)
        return []
    pc, raw, mod = m.groups()
    raw = re.sub(r'\+0x[\da-f]+$', '', raw)
    if raw.startswith('('):
        return []
    out = []
    for func in raw.split('->'):
        if func == '[unknown]':
            if mod != '[unknown]':
                func = '[%s]' % re.sub(r'.*/', '', mod)
            else:
                func = '[unknown]'
        func = tidy(func, pname)
        if out:
            func += '_[i]'
        elif opts['kernel'] and re.search(r'(^\[|vmlinux$)', mod) \
                and 'unknown' not in mod:
            func += '_[k]'
        elif opts['jit'] and (re.search(r'/tmp/perf-\d+\.map', mod) or
                              re.search(r'/jitted-\d+-\d+\.so', mod)):
            func += '_[j]'
        out.append(func)
    return out


def main(argv):
    opts = {'pid': False, 'tid': False, 'kernel': False, 'jit': False}
    event_filter = ''
    args = iter(argv)
    for a in args:
        if a == '--event-filter':
            event_filter = next(args)
        else:
            opts[a.lstrip('-')] = True
    collapsed = {}
    stack, pname = [], None

    def remember():
        nonlocal stack, pname
        if pname is not None:
            key = ';'.join([pname] + stack)
            collapsed[key] = collapsed.get(key, 0) + 1
        stack, pname = [], None

    data = sys.stdin.buffer.read().decode('latin-1')
    for line in data.split('\n'):
        if line.startswith('#'):
            continue
        if line == '':
            remember()
            continue
        one = ONE_LINE.match(line.strip()) if pname is None else None
        head = line.strip() if one else line
        m = HEADER.match(head) if pname is None else None
        if m:
            comm, pid, tid = m.groups()
            if not tid:
                pid, tid = '?', pid
            e = re.search(r'(\S+):\s*$', one.group(1) if one else head)
            if e:
                if not event_filter:
                    event_filter = e.group(1)
                elif e.group(1) != event_filter:
                    continue
            if opts['tid']:
                pname = '%s-%s/%s' % (comm, pid, tid)
            elif opts['pid']:
                pname = '%s-%s' % (comm, pid)
            else:
                pname = comm
            pname = pname.replace(' ', '_')
            if one:
                stack = frame(one.group(2), pname, opts)
                remember()
            continue
        if pname is None:
            continue  # a filtered sample's frames
        stack[0:0] = frame(line, pname, opts)
    remember()
    out = sys.stdout.buffer
    for k in sorted(collapsed, key=lambda s: s.encode('latin-1')):
        out.write(('%s %d\n' % (k, collapsed[k])).encode('latin-1'))


if __name__ == '__main__':
    main(sys.argv[1:])
