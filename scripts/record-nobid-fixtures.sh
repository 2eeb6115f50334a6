#!/usr/bin/env bash
# Record the fixtures of issue 25's item 5 (recordings without build-ids
# symbolize from the file at the recorded path, as perf does) and perf's
# view of them, without touching the other fixtures.
#
# Run as root from the project root:   scripts/record-nobid-fixtures.sh
#
# Three recordings of the same program, testdata/profile/hot (made by
# scripts/record-profile-fixtures.sh), run as /tmp/perfdump-profile/hot,
# none of which holds a build-id (perf 6.1 writes none in these forms;
# the script checks it with perfdump buildids):
#
#   testdata/profile/nobid-pipe.data    perf record -o - (pipe mode)
#   testdata/profile/nobid-z.data       perf record -z (no BUILD_ID feature:
#                                       -z skips the final pass)
#   testdata/profile/nobid-killed.data  perf record killed with SIGKILL
#                                       (-m 4: it writes samples before it
#                                       dies; no feature section at all)
#   testdata/profile/nobid-kallsyms     the lines of this machine's
#                                       /proc/kallsyms their kernel samples
#                                       need (gen-profiledata.py kallsyms)
#
#   perf-ref/NAME.report.txt   perf report --stdio --sort dso,sym -F
#                              sample,period,dso,sym, PERF_BUILDID_DIR empty,
#                              --symfs the tree of profile.data (profile/debian
#                              and profile/hot), --kallsyms nobid-kallsyms; for
#                              nobid-killed.data on a copy repaired as perfdump
#                              check says (perf cannot read it as it is)
#   perf-ref/NAME.script.txt   perf script -F ip,sym,symoff,dso, the same way
#   perf-ref/NAME.record.log   what perf record said
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
    echo "record-nobid-fixtures.sh: must run as root" >&2
    exit 1
fi
if [ ! -x ./perfdump ]; then
    echo "record-nobid-fixtures.sh: ./perfdump not found; run make first" >&2
    exit 1
fi

P=testdata/profile
REF=testdata/perf-ref
RUN=/tmp/perfdump-profile
MAX=262144
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rm -rf "$RUN"
mkdir -p "$RUN"
cp "$P/hot" "$RUN/hot"

# 1. the recordings (-N: this machine's build-id cache is left alone);
# 10,000,000 loops of work_b, 30,000,000 of work_a: about 100 ms
rm -f $P/nobid-*.data $P/nobid-*.data.old
perf record -N -e cpu-clock -o - -- "$RUN/hot" 10000000 \
    >$P/nobid-pipe.data 2>$REF/nobid-pipe.data.record.log
perf record -N -z -e cpu-clock -o $P/nobid-z.data -- "$RUN/hot" 10000000 \
    2>$REF/nobid-z.data.record.log
# killed 0.5 s into a run of about 5 s (work_a alone); the program
# survives perf and is ended by its pid
perf record -N -m 4 -e cpu-clock -o $P/nobid-killed.data -- "$RUN/hot" 1000000000 \
    2>$REF/nobid-killed.data.record.log &
perf_pid=$!
sleep 0.5
hot_pid=$(pgrep -P "$perf_pid" || true)
kill -KILL "$perf_pid"
wait "$perf_pid" 2>/dev/null || true
if [ -n "$hot_pid" ]; then
    kill "$hot_pid" 2>/dev/null || true
fi
rm -f $P/nobid-*.data.old

for f in nobid-pipe nobid-z nobid-killed; do
    size=$(stat -c %s "$P/$f.data")
    printf '%-36s %7s bytes\n' "$P/$f.data" "$size"
    if [ "$size" -gt "$MAX" ]; then
        echo "$f.data is over the $MAX byte budget" >&2
        exit 1
    fi
    # no build-id in any form: HEADER_BUILD_ID, build-id records, MMAP2
    n=$({ ./perfdump -j buildids "$P/$f.data" 2>/dev/null || true; } | jq '.summary.entries')
    if [ "$n" != 0 ]; then
        echo "$f.data holds $n build-ids: not a fixture without them" >&2
        exit 1
    fi
done
data_size=$(od -An -t u8 -j 48 -N 8 "$P/nobid-killed.data" | tr -d ' ')
if [ "$data_size" != 0 ]; then
    echo "nobid-killed.data: header data.size is $data_size, expected 0" >&2
    exit 1
fi

# 2. the kernel symbols their samples need
for f in nobid-pipe nobid-z nobid-killed; do
    # exit status 1 for the killed one: its header says data.size 0
    { ./perfdump records --type sample --json-lines "$P/$f.data" 2>/dev/null || true; } |
        jq -r 'select(.cpumode_name == "kernel") | .ip'
done | python3 scripts/gen-profiledata.py kallsyms /proc/kallsyms $P/nobid-kallsyms

# 3. the killed recording repaired as perfdump check says, for perf
cp $P/nobid-killed.data "$TMP/killed.data"
{ ./perfdump -j check "$TMP/killed.data" 2>/dev/null || true; } |
    jq -r '.check.repairs[] | "\(.offset) \(.size) \(.value)"' |
    while read -r off size value; do
        python3 -c 'import sys
off, size, value = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4], 16)
with open(sys.argv[1], "r+b") as f:
    f.seek(off)
    f.write(value.to_bytes(size, "little"))' "$TMP/killed.data" "$off" "$size" "$value"
    done

# 4. perf's views, on the tree and kernel symbols the tests use
mkdir -p "$TMP/symfs$RUN" "$TMP/empty"
cp -r $P/debian/. "$TMP/symfs/"
cp "$P/hot" "$TMP/symfs$RUN/hot"
view() { # FILE KALLSYMS report|script
    if [ "$3" = report ]; then
        PERF_BUILDID_DIR=$TMP/empty perf report -i "$1" --symfs "$TMP/symfs" \
            --kallsyms "$2" --stdio --sort dso,sym -F sample,period,dso,sym 2>/dev/null
    else
        PERF_BUILDID_DIR=$TMP/empty perf script -i "$1" --symfs "$TMP/symfs" \
            --kallsyms "$2" -F ip,sym,symoff,dso 2>/dev/null
    fi
}
for f in nobid-pipe nobid-z nobid-killed; do
    in=$P/$f.data
    [ $f = nobid-killed ] && in=$TMP/killed.data
    for v in report script; do
        view "$in" $P/nobid-kallsyms $v >$REF/$f.data.$v.txt
        # the cut-down kallsyms gives what the whole one gives
        view "$in" /proc/kallsyms $v | diff -u - $REF/$f.data.$v.txt
    done
done
chmod a+r $P/nobid-* $REF/nobid-*
