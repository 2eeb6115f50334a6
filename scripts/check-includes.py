#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the #include "..." lines of src/: no include cycles, layers one way.

Usage: scripts/check-includes.py [--list] [ROOT]   (ROOT: the project root,
default: this script's parent folder)

A module is a source file's stem: x.c, x.h and x's private header x_int.h
("x's insides", shared by x*.c) are module x.  Module A depends on module B
when a file of A includes a header of B.  Failures, exit status 1:

  cycle   a dependency that lies on a cycle of modules (A -> ... -> A),
          unless it is in ALLOWED below; the message names the modules of
          the cycle and the include lines that close it;
  layer   an include that points up, from a folder to a higher one in
          LAYERS below (the parser's folders, then src/fmt, then src);
          the message names the two folders;
  folder  a source file in a folder that LAYERS does not name;
  style   a header of src/ included by another name than its path from
          src/ (the one include style: the compiler gets -Isrc, and
          every file writes #include "lib/io/reader.h", "fmt/emit.h",
          "perfdump.h", so that an include line shows the header's folder);
  reader  a call into the reader (pd_reader_*) from any file but the
          reader's own (src/lib/io/reader*) and the walk's loop
          (src/lib/io/walk_loop.*): one walk takes records from the reader,
          every other part of perfdump takes them from a walk
          (src/lib/session/walk.h).

ALLOWED lists include lines on cycles that may remain for a while (none
now).  It can only shrink: an entry whose include is gone, or no longer on
a cycle, fails the check too (remove the entry).  --list prints every
dependency on a cycle, allowed or not, and the cycles (strongly connected
modules), and exits 0.
"""
import os
import re
import sys

# (including file, included header): why an include on a cycle is still
# there.  Empty: no cycle is left (issue 24 broke the last two).  An entry
# makes its include pass while it closes a cycle, and fails once it does
# not; tests/docs.bats exercises both on a copy of the tree.
ALLOWED = {
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
READER_CALL = re.compile(r'\bpd_reader_[a-z_]+\s*\(')
READER_FILES = re.compile(r'^src/lib/io/(reader[a-z_]*|walk_loop)\.[ch]$')
# A folder's layer: a file may include headers of its layer or lower ones.
# The parser (src/lib) bottom up: base (memory, cursor, diagnostics), the
# on-disk format and its decoders, tracepoint formats, inputs and the
# reader, the session (the recording's model, records decoded against it,
# the walk), the analyses, the exports' writers (binary formats such as
# pprof's, of the analyses' models); then the formatters and the commands.
LAYERS = {
    "src/lib/base": 0,
    "src/lib/format": 1,
    "src/lib/tracepoint": 2,
    "src/lib/io": 3,
    "src/lib/session": 4,
    "src/lib/analysis": 5,
    "src/lib/write": 5,
    "src/lib/export": 6,
    "src/fmt": 7,
    "src": 8,
}


def module(path):
    stem = os.path.splitext(path)[0]
    return stem[:-4] if stem.endswith("_int") else stem


def layer(path):
    return LAYERS.get(os.path.dirname(path))


def read_includes(root):
    """{file: [(line number, header), ...]} for src/**/*.c|h, both relative
    to root, and the style problems; headers of the tree only, resolved as
    the compiler does with -Isrc: from the including file's folder first,
    then from src/."""
    files, style = {}, []
    for top, dirs, names in os.walk(os.path.join(root, "src")):
        dirs.sort()
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                files[os.path.relpath(os.path.join(top, n), root)] = []
    for f in files:
        with open(os.path.join(root, f), encoding="utf-8",
                  errors="replace") as fh:
            for no, line in enumerate(fh, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                here = os.path.normpath(
                    os.path.join(os.path.dirname(f), m.group(1)))
                named = os.path.normpath(os.path.join("src", m.group(1)))
                h = here if here in files else named
                if h not in files:
                    continue
                files[f].append((no, h))
                if h != named:
                    style.append("%s:%d: style: includes %s as \"%s\": name "
                                 "it by its path from src/ (\"%s\")"
                                 % (f, no, h, m.group(1),
                                    os.path.relpath(h, "src")))
    return files, style


def sccs(graph):
    """Strongly connected components (Tarjan), iteratively."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    listing = "--list" in argv
    root = args[0] if args else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    files, problems = read_includes(root)

    for f in sorted(files):
        if layer(f) is None:
            problems.append("%s: folder: %s is in no layer: add it to LAYERS "
                            "in %s" % (f, os.path.dirname(f),
                                       os.path.basename(__file__)))
    for f, incs in sorted(files.items()):
        for no, h in incs:
            lf, lh = layer(f), layer(h)
            if lf is not None and lh is not None and lh > lf:
                problems.append("%s:%d: layer: includes %s (%s may not "
                                "include %s)" % (f, no, h, os.path.dirname(f),
                                                 os.path.dirname(h)))

    for f in sorted(files):
        if READER_FILES.match(f):
            continue
        with open(os.path.join(root, f), encoding="utf-8",
                  errors="replace") as fh:
            for no, line in enumerate(fh, 1):
                m = READER_CALL.search(line)
                if m:
                    problems.append("%s:%d: reader: calls %s: records come "
                                    "from a walk (src/lib/session/walk.h), "
                                    "only src/lib/io/walk_loop.c reads "
                                    "them"
                                    % (f, no, m.group(0).rstrip(" (")))

    graph = {}
    for f, incs in files.items():
        graph.setdefault(module(f), set())
        for _, h in incs:
            if module(h) != module(f):
                graph[module(f)].add(module(h))
                graph.setdefault(module(h), set())
    cycles = [c for c in sccs(graph) if len(c) > 1]
    where = {m: i for i, c in enumerate(cycles) for m in c}

    on_cycle = {}
    for f, incs in sorted(files.items()):
        for no, h in incs:
            a, b = module(f), module(h)
            if a != b and a in where and where.get(b) == where[a]:
                on_cycle[(f, h)] = no
    if listing:
        for i, c in enumerate(cycles):
            print("cycle %d (%d modules): %s" % (i + 1, len(c), " ".join(c)))
        for (f, h), no in sorted(on_cycle.items()):
            print("%s:%d -> %s%s" % (f, no, h, "  (allowed)"
                                     if (f, h) in ALLOWED else ""))
        return 0

    for (f, h), no in sorted(on_cycle.items()):
        if (f, h) not in ALLOWED:
            c = cycles[where[module(f)]]
            problems.append("%s:%d: cycle: includes %s, which closes a cycle "
                            "of %s" % (f, no, h, " ".join(c)))
    for (f, h) in sorted(ALLOWED):
        if (f, h) not in on_cycle:
            problems.append("%s: allowed include of %s is gone or no longer on "
                            "a cycle: remove it from ALLOWED in %s"
                            % (f, h, os.path.basename(__file__)))
    for p in problems:
        print("check-includes: " + p, file=sys.stderr)
    if problems:
        return 1
    print("check-includes: %d files, %d cycle(s) left, each include on them "
          "allowed (%d)" % (len(files), len(cycles), len(ALLOWED)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
