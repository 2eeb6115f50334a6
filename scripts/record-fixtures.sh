#!/usr/bin/env bash
# Re-create the real perf.data test fixtures in testdata/ and perf's own view of
# each one (reference outputs) in testdata/perf-ref/.
#
# Run as root from the project root:   scripts/record-fixtures.sh
#
# Re-recording changes the bytes of every fixture (timestamps, pids, sample
# counts, addresses), so any golden outputs derived from them must be
# regenerated afterwards.  See testdata/README.md.
#
# perf writes a build-id cache under ~/.debug as a side effect; that lives
# outside the project and is left alone.
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
    echo "record-fixtures.sh: must run as root" >&2
    exit 1
fi

TD=testdata
REF=$TD/perf-ref
MAX=262144                     # per-fixture size budget (bytes)
LOG=$(mktemp -d)
trap 'rm -rf "$LOG"' EXIT

mkdir -p "$TD" "$REF"

# Fixed, short workloads from the base system.
WORKLOAD="dd if=/dev/zero of=/dev/null bs=1k count=200000"

# --- helpers -----------------------------------------------------------------

# Remove a fixture before re-recording it (perf would otherwise keep the old
# one as NAME.old).
clean() {
    rm -rf "$TD/$1" "$TD/$1.old"
}

# Save what perf said while recording (stderr, includes the workload's stderr).
keep_log() {
    cp "$LOG/$1.rec.err" "$REF/$1.record.log"
}

# ref NAME KIND CMD...: stdout -> perf-ref/NAME.KIND.txt, stderr ->
# perf-ref/NAME.KIND.err (only kept if non-empty).  Exit status is ignored.
ref() {
    local name=$1 kind=$2
    shift 2
    "$@" >"$REF/$name.$kind.txt" 2>"$REF/$name.$kind.err" || true
    [ -s "$REF/$name.$kind.err" ] || rm -f "$REF/$name.$kind.err"
}

# perf script with a fixed field list; if perf refuses a field for this file,
# drop it, retry, and note it in perf-ref/NAME.script.note.
script_ref() {
    local name=$1 file=$2
    local fields="event,ip,pid,tid,time,cpu,period"
    local out=$REF/$name.script.txt err=$REF/$name.script.err note=$REF/$name.script.note
    rm -f "$note"
    while :; do
        if perf script -i "$file" -F "$fields" --ns >"$out" 2>"$err"; then
            break
        fi
        local bad
        bad=$(grep -o "Cannot print '[a-z_]*' field" "$err" | head -n1 | cut -d"'" -f2 || true)
        [ -n "$bad" ] || break
        {
            echo "perf refused field '$bad' for $file:"
            sed 's/^/    /' "$err"
        } >>"$note"
        fields=$(echo ",$fields," | sed "s/,$bad,/,/; s/^,//; s/,\$//")
        [ -n "$fields" ] || break
    done
    if [ -e "$note" ]; then
        echo "fields used: -F $fields --ns" >>"$note"
    fi
    [ -s "$err" ] || rm -f "$err"
}

all_refs() {
    local name=$1 file=$TD/$1
    ref "$name" header perf report --header-only -I -i "$file"
    ref "$name" stats perf report --stats -i "$file"
    script_ref "$name" "$file"
    ref "$name" evlist perf evlist -v -i "$file"
    ref "$name" buildids perf buildid-list -i "$file"
}

# --- recordings ----------------------------------------------------------------

echo "== cpu-clock.data"
clean cpu-clock.data
perf record -e cpu-clock -o testdata/cpu-clock.data -- dd if=/dev/zero of=/dev/null bs=1k count=200000 2>"$LOG/cpu-clock.data.rec.err"
keep_log cpu-clock.data

echo "== callgraph.data"
clean callgraph.data
perf record -e cpu-clock -g -o testdata/callgraph.data -- dd if=/dev/zero of=/dev/null bs=1k count=200000 2>"$LOG/callgraph.data.rec.err"
keep_log callgraph.data

echo "== zstd.data"
clean zstd.data
perf record -e cpu-clock -z -o testdata/zstd.data -- dd if=/dev/zero of=/dev/null bs=1k count=200000 2>"$LOG/zstd.data.rec.err"
keep_log zstd.data

echo "== pipe.data"
clean pipe.data
perf record -e cpu-clock -o - -- dd if=/dev/zero of=/dev/null bs=1k count=200000 >testdata/pipe.data 2>"$LOG/pipe.data.rec.err"
keep_log pipe.data

echo "== threads.data/"
clean threads.data
# Two dd's in parallel so that both per-CPU data.N files get samples.
perf record --threads -e cpu-clock -o testdata/threads.data -- sh -c 'dd if=/dev/zero of=/dev/null bs=1k count=100000 & dd if=/dev/zero of=/dev/null bs=1k count=100000; wait' 2>"$LOG/threads.data.rec.err"
keep_log threads.data
if [ ! -d "$TD/threads.data" ] || [ ! -f "$TD/threads.data/data" ] ||
    ! ls "$TD"/threads.data/data.[0-9]* >/dev/null 2>&1; then
    echo "threads.data is not a directory with data + data.N files" >&2
    exit 1
fi

echo "== tracepoint.data"
clean tracepoint.data
perf record -e sched:sched_switch -a -o testdata/tracepoint.data -- sleep 0.1 2>"$LOG/tracepoint.data.rec.err"
keep_log tracepoint.data

echo "== group.data"
clean group.data
perf record -e '{cpu-clock,task-clock}' -o testdata/group.data -- dd if=/dev/zero of=/dev/null bs=1k count=200000 2>"$LOG/group.data.rec.err"
keep_log group.data

echo "== mono.data"
clean mono.data
perf record -k mono -e cpu-clock -o testdata/mono.data -- dd if=/dev/zero of=/dev/null bs=1k count=200000 2>"$LOG/mono.data.rec.err"
keep_log mono.data

echo "== stat.data"
clean stat.data
perf stat record -o testdata/stat.data -e cpu-clock,task-clock -- dd if=/dev/zero of=/dev/null bs=1k count=200000 2>"$LOG/stat.data.rec.err"
keep_log stat.data

echo "== allbits.data"
clean allbits.data
# Requested base set plus extra sample_type/record-type options that this
# machine accepts (-W --transaction --intr-regs --running-time -R -P
# --sample-identifier --switch-events --namespaces).  Refused here (and
# therefore not used): -b / -j any (see testdata/README.md).
perf record -e '{cpu-clock,task-clock}:S' --call-graph dwarf,512 -d --sample-cpu -T --phys-data --data-page-size --code-page-size --all-cgroups -W --transaction --intr-regs --running-time -R -P --sample-identifier --switch-events --namespaces -c 1000000 -o testdata/allbits.data -- dd if=/dev/zero of=/dev/null bs=1k count=200000 2>"$LOG/allbits.data.rec.err"
keep_log allbits.data

echo "== killed.data"
clean killed.data
perf record -e cpu-clock -o testdata/killed.data -- sleep 10 2>"$LOG/killed.data.rec.err" &
perf_pid=$!
sleep 0.5
workload_pid=$(pgrep -P "$perf_pid" || true)
kill -KILL "$perf_pid"
wait "$perf_pid" 2>/dev/null || true
# perf's forked "sleep 10" survives its parent; end it by its pid.
if [ -n "$workload_pid" ]; then
    kill "$workload_pid" 2>/dev/null || true
fi
keep_log killed.data
data_size=$(od -An -t u8 -j 48 -N 8 "$TD/killed.data" | tr -d ' ')
if [ "$data_size" != 0 ]; then
    echo "killed.data: header data.size is $data_size, expected 0" >&2
    exit 1
fi

# perf creates its output 0600; tests may run as another user.
chmod -R a+rX "$TD"

# --- reference outputs -----------------------------------------------------------

FIXTURES="cpu-clock.data callgraph.data zstd.data pipe.data threads.data
tracepoint.data group.data mono.data stat.data allbits.data killed.data"

for f in $FIXTURES; do
    echo "== refs for $f"
    all_refs "$f"
done
ref callgraph.data callchain perf script -i testdata/callgraph.data -F ip,pid,tid,time --no-inline
ref stat.data statreport perf stat report -i testdata/stat.data

chmod -R a+rX "$REF"

# --- checks -----------------------------------------------------------------------

status=0
for f in $FIXTURES; do
    size=$(du -sb "$TD/$f" | cut -f1)
    if perf report --header-only -i "$TD/$f" >/dev/null 2>&1; then hdr=ok; else hdr="exit $?"; fi
    printf '%-18s %7s bytes   header-only: %s\n' "$f" "$size" "$hdr"
    if [ "$size" -gt "$MAX" ]; then
        echo "  $f is over the $MAX byte budget" >&2
        status=1
    fi
done
exit $status
