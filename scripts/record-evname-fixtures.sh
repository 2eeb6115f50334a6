#!/usr/bin/env bash
# Record the fixtures of issue 23's item 3 (events the file names nowhere
# are named from their attr, as perf's evsel__name does) and perf's own
# view of them, without touching the other fixtures
# (scripts/record-fixtures.sh re-records everything).
#
# Run as root from the project root:   scripts/record-evname-fixtures.sh
#
#   testdata/killed-u.data     perf record -e cpu-clock:u killed with SIGKILL
#                              while a CPU-bound shell loop runs: no feature
#                              section (no EVENT_DESC), data.size 0, samples
#                              (-m 4: 16 KiB buffers, so perf writes them
#                              out before it is killed)
#   testdata/stat-msr.data     perf stat record -e msr/tsc/: an event of a
#                              dynamic PMU (msr, type 9 on this machine)
#
# The copies without EVENT_DESC (and PMU_MAPPINGS) that scripts/gen-testdata.py
# derives into testdata/synthetic/nodesc-*.data (scripts/derive_recordings.py
# NODESC) get perf's view too.
#
# perf-ref/NAME.evlist.txt       perf evlist -v -i FILE (stderr in .err)
# perf-ref/NAME.record.log       what perf record said while recording
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
    echo "record-evname-fixtures.sh: must run as root" >&2
    exit 1
fi

TD=testdata
REF=$TD/perf-ref
MAX=262144

# evlist FILE OUT: perf evlist -v -i testdata/FILE into perf-ref/OUT.evlist.*
evlist() {
    perf evlist -v -i "$TD/$1" >"$REF/$2.evlist.txt" 2>"$REF/$2.evlist.err" || true
    [ -s "$REF/$2.evlist.err" ] || rm -f "$REF/$2.evlist.err"
}

check_size() {
    local size
    size=$(stat -c %s "$TD/$1")
    printf '%-28s %7s bytes\n' "$1" "$size"
    if [ "$size" -gt "$MAX" ]; then
        echo "$1 is over the $MAX byte budget" >&2
        exit 1
    fi
}

echo "== killed-u.data"
rm -f "$TD/killed-u.data" "$TD/killed-u.data.old"
perf record -e cpu-clock:u -m 4 -o "$TD/killed-u.data" -- sh -c 'while :; do :; done' \
    2>"$REF/killed-u.data.record.log" &
perf_pid=$!
sleep 0.5
workload_pid=$(pgrep -P "$perf_pid" || true)
kill -KILL "$perf_pid"
wait "$perf_pid" 2>/dev/null || true
# the loop survives its parent; end it by its pid
if [ -n "$workload_pid" ]; then
    kill "$workload_pid" 2>/dev/null || true
fi
data_size=$(od -An -t u8 -j 48 -N 8 "$TD/killed-u.data" | tr -d ' ')
if [ "$data_size" != 0 ]; then
    echo "killed-u.data: header data.size is $data_size, expected 0" >&2
    exit 1
fi
# the header (104), the attrs and the first records are 552 bytes: more
# is samples
if [ "$(stat -c %s "$TD/killed-u.data")" -lt 4096 ]; then
    echo "killed-u.data: perf wrote no samples before it was killed" >&2
    exit 1
fi

echo "== stat-msr.data"
rm -f "$TD/stat-msr.data" "$TD/stat-msr.data.old"
perf stat record -e msr/tsc/ -o "$TD/stat-msr.data" -- \
    dd if=/dev/zero of=/dev/null bs=1k count=2000 2>"$REF/stat-msr.data.record.log"

echo "== testdata/synthetic/ derived from these recordings"
python3 scripts/gen-testdata.py >/dev/null
chmod -R a+rX "$TD"

for name in killed-u.data stat-msr.data; do
    evlist "$name" "$name"
done
mkdir -p "$REF/synthetic"
for name in nodesc-tracepoint.data nodesc-bp.data nodesc-group.data \
    nodesc-stat-msr.data nodesc-nopmu-stat-msr.data; do
    evlist "synthetic/$name" "synthetic/$name"
done
chmod -R a+rX "$REF"

for name in killed-u.data stat-msr.data; do
    check_size "$name"
done
