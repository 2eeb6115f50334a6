#!/bin/bash
# Benchmarks perfdump against perf on the same file in the same run, and
# prints medians, ratios and peak RSS.  Not a test: timings vary by machine.
#
#   scripts/bench.sh [SIZE_MB ...]     default: 200
#
# Recordings are made once with `perf record -F 20000 -g -e cpu-clock -a`
# on a CPU-heavy workload and cached outside the repository in
# ${PERFDUMP_BENCH_DIR:-$HOME/.cache/perfdump-bench}.  Needs root (perf -a).
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C

DIR=${PERFDUMP_BENCH_DIR:-$HOME/.cache/perfdump-bench}
BENCH_RUNS=${RUNS:-5}
RUNS=$BENCH_RUNS
PD=./perfdump
mkdir -p "$DIR"
[ -x "$PD" ] || make -s all

sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(200)

# record SIZE_MB: a recording of about that size (cached)
record() {
	local mb=$1 f="$DIR/bench-$1.data"
	if [ ! -f "$f" ]; then
		echo "recording ~${mb} MB into $f" >&2
		# a CPU-heavy workload on every CPU, stopped when the file is big enough
		perf record -q -F 20000 -g -e cpu-clock -a -o "$f" -- \
			sh -c "pids=; for i in \$(seq $(nproc)); do (while :; do :; done) & pids=\"\$pids \$!\"; done;
			       while [ \$(stat -c %s '$f' 2>/dev/null || echo 0) -lt $((mb * 1024 * 1024)) ]; do sleep 0.2; done;
			       kill \$pids" >/dev/null 2>&1
	fi
	echo "$f"
}

# measure CMD...: prints "median_seconds peak_rss_kb" over RUNS runs
measure() {
	local i t m times=() rss=0 out
	out=$(mktemp)
	for i in $(seq "$RUNS"); do
		local t0=$EPOCHREALTIME
		/usr/bin/time -f "%M" -o "$out" "$@" >/dev/null 2>&1 || true
		t=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f", b - a }')
		m=$(tail -1 "$out")
		times+=("$t")
		[ "$m" -gt "$rss" ] && rss=$m
	done
	rm -f "$out"
	printf '%s %s\n' "$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")" "$rss"
}

row() { # NAME OURS_T OURS_RSS THEIRS_T THEIRS_RSS
	local ratio
	ratio=$(awk -v a="$2" -v b="$4" 'BEGIN { if (a > 0) printf "%.1fx", b / a; else print "inf" }')
	printf '%-34s %9ss %8s KiB   %9ss %8s KiB   %8s\n' "$1" "$2" "$3" "$4" "$5" "$ratio"
}

for mb in "${sizes[@]}"; do
	f=$(record "$mb")
	size=$(stat -c %s "$f")
	echo
	echo "== $f ($((size / 1048576)) MiB), median of $RUNS runs"
	printf '%-34s %10s %12s   %10s %12s   %8s\n' "" "perfdump" "peak RSS" "perf" "peak RSS" "speedup"
	read -r ct cm < <(measure cat "$f")
	printf '%-34s %9ss %8s KiB\n' "cat FILE >/dev/null (floor)" "$ct" "$cm"
	read -r pt pm < <(measure $PD header "$f")
	read -r qt qm < <(measure perf report --header-only -i "$f")
	row "header vs report --header-only" "$pt" "$pm" "$qt" "$qm"
	read -r pt pm < <(measure $PD features "$f")
	read -r qt qm < <(measure perf report --header-only -I -i "$f")
	row "features vs report --header-only -I" "$pt" "$pm" "$qt" "$qm"
	RUNS=${RECORD_RUNS:-3}
	read -r qt qm < <(measure perf script -D -i "$f")
	read -r pt pm < <(measure $PD records --json-lines "$f")
	row "records --json-lines vs script -D" "$pt" "$pm" "$qt" "$qm"
	read -r pt pm < <(measure $PD records "$f")
	row "records (text) vs script -D" "$pt" "$pm" "$qt" "$qm"
	read -r pt pm < <(measure $PD records --order time --json-lines "$f")
	row "records --order time vs script -D" "$pt" "$pm" "$qt" "$qm"
	RUNS=${BENCH_RUNS:-5}
done
