#!/usr/bin/env python3
"""The bats tags that tests/run.sh relies on, checked (or set with --fix).

In a run of both builds (tests/run.sh), a test tagged `asan` runs with the
sanitizer build, and with the normal build only when it is tagged `normal`
too.  A test needs the normal build when part of it does not run under the
sanitizers: it calls `sweep` or `once` (skipped there), `few` (a subset
there), or measures peak RSS (`rss_run`, `assert_rss`, `under_64`,
`sanitized`: the sanitizers' shadow memory is not perfdump's).  This script
lists every test tagged `asan` that does one of those and lacks `normal`,
and exits 1 if there is one.  With --fix it adds the tag instead.

Usage: scripts/check-test-tags.py [--fix] [FILE.bats...]
"""
import glob
import re
import sys

NEEDS = re.compile(r"\b(sweep|once|few|rss_run|assert_rss|under_64|sanitized)\b")
TAGS = re.compile(r"^# bats test_tags=(.*)$")


def tests(lines):
    """(index of the @test line, its tags line index or None, tags, body)"""
    pending = None
    i = 0
    while i < len(lines):
        m = TAGS.match(lines[i])
        if m:
            pending = i
        elif lines[i].startswith("@test "):
            start = i
            while i < len(lines) and lines[i] != "}":
                i += 1
            tags = set()
            if pending is not None:
                tags = {t.strip() for t in TAGS.match(lines[pending]).group(1).split(",")}
            yield start, pending, tags, "\n".join(lines[start + 1 : i])
            pending = None
        elif lines[i].strip() and not lines[i].startswith("#"):
            pending = None
        i += 1


def main(argv):
    fix = "--fix" in argv
    files = [a for a in argv if a != "--fix"] or sorted(glob.glob("tests/*.bats"))
    missing = 0
    for f in files:
        lines = open(f).read().split("\n")
        whole = "# bats file_tags=asan" in lines
        edits = []
        for start, tline, tags, body in tests(lines):
            if not (whole or "asan" in tags) or "normal" in tags:
                continue
            if not NEEDS.search(body):
                continue
            missing += 1
            if not fix:
                print(f"{f}:{start + 1}: tagged asan, needs normal: {lines[start]}")
            edits.append((start, tline))
        for start, tline in reversed(edits):
            if tline is None:
                lines.insert(start, "# bats test_tags=normal")
            else:
                lines[tline] += ",normal"
        if fix and edits:
            open(f, "w").write("\n".join(lines))
    if fix:
        print(f"{missing} tests tagged normal")
        return 0
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
