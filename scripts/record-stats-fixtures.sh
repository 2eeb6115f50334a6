#!/usr/bin/env bash
# Record the fixtures of issue 12's `perfdump stats` items (group reads with
# :S, thread names, `perf stat record` counts) and perf's own view of them,
# without touching the other fixtures (scripts/record-fixtures.sh re-records
# everything).
#
# Run as root from the project root:   scripts/record-stats-fixtures.sh
#
#   testdata/group-s.data         '{cpu-clock,task-clock,page-faults}:S':
#   testdata/group-s-pipe.data    PERF_SAMPLE_READ with a group read format,
#                                 file and pipe mode
#   testdata/syswide.data         -a, threads forked during the recording
#   testdata/comm-order.data/     --threads=cpu: a process whose COMMs land in
#                                 different data.N files (taskset execs twice)
#   testdata/stat-a.data          perf stat record -a with four events
#   testdata/stat-i.data          the same with -I 100 (several STAT_ROUNDs)
#
# perf-ref/NAME.stats.txt        perf report --stats -i FILE
# perf-ref/NAME.period.txt       perf report --stdio -s comm -F period,sample,comm -q
#                                (group-s: period and samples of each member)
# perf-ref/NAME.pid.txt          perf report -s pid --stdio -F sample,pid -q
# perf-ref/NAME.statreport.txt   perf stat report -i FILE (perf prints it to
#                                stderr; both streams are kept, in that file)
# perf-ref/NAME.record.log       what perf record said while recording
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
    echo "record-stats-fixtures.sh: must run as root" >&2
    exit 1
fi

TD=testdata
REF=$TD/perf-ref
MAX=262144
DD="dd if=/dev/zero of=/dev/null bs=1k count=200000"
EVENTS=cpu-clock,task-clock,context-switches,page-faults

clean() {
    rm -rf "$TD/$1" "$TD/$1.old"
}

check_size() {
    local size
    size=$(du -sb "$TD/$1" | cut -f1)
    printf '%-20s %7s bytes\n' "$1" "$size"
    if [ "$size" -gt "$MAX" ]; then
        echo "$1 is over the $MAX byte budget" >&2
        exit 1
    fi
}

sample_refs() {
    local name=$1
    perf report -i "$TD/$name" --stats >"$REF/$name.stats.txt" 2>/dev/null || true
    perf report -i "$TD/$name" --stdio -s pid -F sample,pid -q 2>/dev/null |
        sed '/^$/d' >"$REF/$name.pid.txt" || true
}

echo "== group-s.data, group-s-pipe.data"
clean group-s.data
clean group-s-pipe.data
# shellcheck disable=SC2086
perf record -e '{cpu-clock,task-clock,page-faults}:S' -o "$TD/group-s.data" -- $DD \
    2>"$REF/group-s.data.record.log"
# shellcheck disable=SC2086
perf record -e '{cpu-clock,task-clock,page-faults}:S' -o - -- $DD \
    >"$TD/group-s-pipe.data" 2>"$REF/group-s-pipe.data.record.log"
for name in group-s.data group-s-pipe.data; do
    sample_refs "$name"
    perf report -i "$TD/$name" --stdio -s comm -F period,sample,comm -q 2>/dev/null |
        sed '/^$/d' >"$REF/$name.period.txt" || true
done

echo "== syswide.data"
clean syswide.data
# --synth=task: the threads already running get COMM/FORK records, not their
# MMAPs (the file stays small); the workload forks a shell and two children.
perf record -a --synth=task -e cpu-clock -F 499 -o "$TD/syswide.data" -- \
    sh -c "$DD & sleep 0.1; wait" 2>"$REF/syswide.data.record.log"
sample_refs syswide.data

echo "== comm-order.data/"
clean comm-order.data
# taskset -c 1 execs taskset -c 0 on CPU 1 (COMM in data.1), which execs dd
# on CPU 0 (COMM in data.0): the last COMM in time is in the first file.
# shellcheck disable=SC2086
perf record --threads=cpu -e cpu-clock -o "$TD/comm-order.data" -- \
    taskset -c 1 taskset -c 0 $DD 2>"$REF/comm-order.data.record.log"
sample_refs comm-order.data

echo "== stat-a.data, stat-i.data"
clean stat-a.data
clean stat-i.data
perf stat record -a -e "$EVENTS" -o "$TD/stat-a.data" -- sleep 0.1 \
    2>"$REF/stat-a.data.record.log"
perf stat record -I 100 -a -e "$EVENTS" -o "$TD/stat-i.data" -- sleep 0.35 \
    2>"$REF/stat-i.data.record.log"
for name in stat-a.data stat-i.data; do
    perf stat report -i "$TD/$name" >"$REF/$name.statreport.txt" 2>&1 || true
done

chmod -R a+rX "$TD"
for name in group-s.data group-s-pipe.data syswide.data comm-order.data \
    stat-a.data stat-i.data; do
    check_size "$name"
done
