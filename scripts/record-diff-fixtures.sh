#!/usr/bin/env bash
# Make the fixtures of perfdump diff (issue 28, tests/diff.bats) and perf's
# view of them, without touching the other fixtures.
#
# Run as root from the project root, after make:   scripts/record-diff-fixtures.sh
#
# The same recording in another form, made by perf inject from a fixture
# (the records and features as perf copies them):
#
#   testdata/diff/cpu-clock-pipe.data  cpu-clock.data in pipe mode
#                                      (perf inject -o -)
#   testdata/diff/zstd-pipe.data       zstd.data (-z) in pipe mode; perf
#                                      inject keeps its COMPRESSED records
#   testdata/diff/threads-one.data     threads.data (a --threads directory)
#                                      as one file: perf inject -o DIR
#                                      writes DIR/data alone, every
#                                      record in it
#
# Two recordings of one command, at two sampling frequencies:
#
#   testdata/diff/f999.data   perf record -F 999 -e cpu-clock -- dd ...
#   testdata/diff/f4999.data  perf record -F 4999 -e cpu-clock -- dd ...
#
# perf diff of two programs (cpu-clock.data: dd; profile/profile.data:
# profile/hot), symbolized as tests/profile.bats does (profile/debian and
# profile/hot as --symfs, profile/kallsyms, an empty build-id cache):
#
#   perf-ref/diff.cpu-clock.profile.txt
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
    echo "record-diff-fixtures.sh: must run as root" >&2
    exit 1
fi
if [ ! -x ./perfdump ]; then
    echo "record-diff-fixtures.sh: ./perfdump not found; run make first" >&2
    exit 1
fi

D=testdata/diff
REF=testdata/perf-ref
MAX=262144
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
export PERF_BUILDID_DIR=$TMP/empty
mkdir -p "$D" "$PERF_BUILDID_DIR"

# 1. other forms of one recording
perf inject -i testdata/cpu-clock.data -o - >$D/cpu-clock-pipe.data
perf inject -i testdata/zstd.data -o - >$D/zstd-pipe.data
# (it says "Failed to copy kcore": there is none to copy)
perf inject -i testdata/threads.data -o "$TMP/one" 2>/dev/null || true
cp "$TMP/one/data" $D/threads-one.data

# 2. one command at two frequencies (-N: the build-id cache left alone)
for f in 999 4999; do
    perf record -N -F $f -e cpu-clock -o $D/f$f.data -- \
        dd if=/dev/zero of=/dev/null bs=1k count=200000 \
        2>$REF/diff.f$f.data.record.log
done

for f in $D/*.data; do
    n=$(stat -c %s "$f")
    if [ "$n" -gt $MAX ]; then
        echo "record-diff-fixtures.sh: $f is $n bytes, over $MAX" >&2
        exit 1
    fi
done

# 3. perf diff of two programs, in the symfs tree of tests/profile.bats
mkdir -p "$TMP/s/tmp/perfdump-profile"
cp -r testdata/profile/debian/. "$TMP/s/"
cp testdata/profile/hot "$TMP/s/tmp/perfdump-profile/"
perf diff --symfs "$TMP/s" --kallsyms testdata/profile/kallsyms \
    testdata/cpu-clock.data testdata/profile/profile.data \
    >$REF/diff.cpu-clock.profile.txt
