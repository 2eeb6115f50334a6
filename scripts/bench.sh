#!/bin/bash
# Benchmarks perfdump against perf on the same file in the same run, and
# prints medians, ratios (with their range over single turns where two
# commands are timed in turns) and peak RSS.  Not a test: timings vary by
# machine.
#
#   scripts/bench.sh [SIZE_MB ...]     default: 200 (the 1 GB run: 1000)
#   PD=path/to/perfdump scripts/bench.sh   another build (before and after)
#   scripts/bench.sh --instructions    instruction counts, not times
#   PD=path/to/perfdump scripts/bench.sh --instructions   both builds
#
# --instructions: the total instructions (callgrind's Ir) of one run of
# stats, records --json-lines and profile on testdata/cpu-clock.data,
# callgraph.data, tp-sched.data and a ~20 MB cut of the 200 MB recording
# below (its first whole records up to CUT_MB, 20, with the header and the
# feature sections: a whole recording; cached beside it), and of records
# on tp-sched.data.  Unlike times, these repeat from run to run on a busy
# machine.  With PD=, the same for that build too and the ratio this/PD
# per row.  A command's count includes the processes it forks.  Needs
# valgrind (Debian package valgrind; not a test dependency, so
# install-deps.sh leaves it out: install it yourself).  Slow (callgrind
# runs perfdump some 50 times slower) and single-threaded: one at a time.
#
# After the sizes given, a pipe-mode recording (PIPE_MB, 200) and a -z one
# (Z_MB compressed, 30) are measured too (SKIP_VARIANTS=1: not); each
# file-mode and pipe-mode recording is also read compressed with zstd
# (FILE.zst, cached beside it) against `zstd -dc FILE.zst >/dev/null`;
# SKIP_RECORDS=1 leaves out the slow perf script -D runs, SKIP_PROFILE=1
# the profile rows (perf report symbolizes: PROFILE_RUNS runs, 3) and
# records --symbols --json-lines against perf script -F
# comm,tid,time,ip,sym,dso (SYMBOL_RUNS runs in turns, 11); SKIP_EXPORT=1
# the export, copy and diff rows (export_rows), SKIP_JOBS=1 the --jobs
# rows against one thread (jobs_rows).  Then a
# recording of testdata/profile/inl (-g -O2, ~8 MB): profile --by line
# against perf report --sort srcline (SYMBOL_RUNS in turns; SKIP_SRCLINE=1:
# not).  Then a tracepoint recording (TP_MB, 200; SKIP_TP=1: not):
# records --json-lines, every field and the print output, against perf
# script.
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
PD_OTHER=${PD:-}     # --instructions: the build to compare with
PD=${PD:-./perfdump} # PD=path: another build (a before/after run)
mkdir -p "$DIR"
[ -x "$PD" ] || make -s all

sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(200)
if [ "${sizes[0]}" = --instructions ]; then
	INSTRUCTIONS=1
	[ -x ./perfdump ] || make -s all
fi

# record SIZE_MB [z|pipe]: a recording of about that size (cached); z: with
# perf record -z (SIZE_MB compressed), pipe: perf record -o - into a file
record() {
	local mb=$1 kind=${2:-} f out opts=()
	f="$DIR/bench-$1${kind:+-$kind}.data"
	if [ ! -f "$f" ]; then
		echo "recording ~${mb} MB into $f" >&2
		out=$f
		case $kind in
		z) opts=(-z) ;;
		pipe) out=- ;;
		tp) record_tp "$mb" "$f"; echo "$f"; return ;;
		esac
		# a CPU-heavy workload on every CPU, stopped when the file is big enough
		perf record -q -F 20000 -g -e cpu-clock -a "${opts[@]}" -o "$out" -- \
			sh -c "pids=; for i in \$(seq $(nproc)); do (while :; do :; done) & pids=\"\$pids \$!\"; done;
			       while [ \$(stat -c %s '$f' 2>/dev/null || echo 0) -lt $((mb * 1024 * 1024)) ]; do sleep 0.2; done;
			       kill \$pids" 2>/dev/null >"$( [ "$kind" = pipe ] && echo "$f" || echo /dev/null)"
	fi
	echo "$f"
}

# record_tp SIZE_MB FILE: sched_switch + sched_wakeup on every CPU under
# a context-switch-heavy load (perf bench sched pipe), until FILE is big
record_tp() {
	perf record -q -e sched:sched_switch,sched:sched_wakeup -a -o "$2" -- \
		sh -c "pids=; for i in \$(seq $(nproc)); do perf bench sched pipe -l 1000000000 >/dev/null 2>&1 & pids=\"\$pids \$!\"; done;
		       while [ \$(stat -c %s '$2' 2>/dev/null || echo 0) -lt $(($1 * 1024 * 1024)) ]; do sleep 0.2; done;
		       kill \$pids" >/dev/null 2>&1
}

# zstd_payloads FILE OUT: the zstd data of FILE's COMPRESSED records,
# concatenated, for `zstd -d`: perf's stream is one frame across them
# (tools/perf/util/zstd.c: zstd_compress_stream_to_records flushes each
# record with ZSTD_flushStream and never ends the frame)
zstd_payloads() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
with open(src, "rb") as f, open(dst, "wb") as o:
    hdr = f.read(104)
    off, size = struct.unpack_from("<QQ", hdr, 40)
    f.seek(off)
    left = size
    while left >= 8:
        h = f.read(8)
        typ, misc, sz = struct.unpack("<IHH", h)
        body = f.read(sz - 8)
        left -= sz
        if typ == 81:
            o.write(body)
        elif typ == 83:
            n, = struct.unpack_from("<Q", body, 0)
            o.write(body[8:8 + n])
PY
}

# cut_recording FILE OUT MB: FILE's header, attrs and ids, its first whole
# records up to MB MiB of data, then its feature table and sections moved
# down (perf_header__adds_write writes the table at data.offset +
# data.size; tools/perf/util/header.c): a smaller recording perf reads too
cut_recording() {
	python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
src, dst, mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
with open(src, "rb") as f:
    hdr = bytearray(f.read(104))
    assert hdr[:8] == b"PERFILE2", "not a little-endian file-mode perf.data"
    data_off, data_size = struct.unpack_from("<QQ", hdr, 40)
    f.seek(data_off)
    cut, want = 0, mb * 1024 * 1024
    while cut < min(want, data_size):
        h = f.read(8)
        if len(h) < 8:
            break
        size = struct.unpack_from("<H", h, 6)[0]
        if size < 8 or cut + size > data_size:
            break
        f.seek(size - 8, 1)
        cut += size
    f.seek(0)
    head = f.read(data_off + cut)
    f.seek(data_off + data_size)
    tail = bytearray(f.read())
nfeat = sum(bin(b).count("1") for b in hdr[72:104])
delta = data_size - cut
for i in range(nfeat):  # each entry: u64 offset, u64 size
    off, = struct.unpack_from("<Q", tail, 16 * i)
    struct.pack_into("<Q", tail, 16 * i, off - delta)
struct.pack_into("<Q", hdr, 48, cut)
with open(dst, "wb") as o:
    o.write(hdr + head[104:] + tail)
PY
}

# instr CMD...: callgrind's total instructions (Ir) of one run of CMD,
# with those of the processes it forks (none now; a build before issue
# 24's tracepoint change parsed tracing formats in a child): one out file
# each, their totals: lines summed
instr() {
	local out
	out=$(mktemp -d)
	valgrind --tool=callgrind -q --callgrind-out-file="$out/callgrind.%p" \
		"$@" >/dev/null 2>&1 || true
	# the child ends when the parent has, and writes its file then
	while pgrep -f -- "--callgrind-out-file=$out/" >/dev/null; do sleep 0.1; done
	awk '/^totals:/ { n += $2 } END { print n + 0 }' "$out"/callgrind.*
	rm -rf "$out"
}

# instructions: the --instructions table (see the top of this file)
instructions() {
	local big cut f cmd a b rows=()
	command -v valgrind >/dev/null ||
		{ echo "bench.sh --instructions: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
	big=$(record 200)
	cut="$DIR/bench-200-cut${CUT_MB:-20}.data"
	[ -f "$cut" ] || cut_recording "$big" "$cut" "${CUT_MB:-20}"
	for f in testdata/cpu-clock.data testdata/callgraph.data testdata/tp-sched.data "$cut"; do
		for cmd in stats "records --json-lines" profile; do
			rows+=("$cmd|$f")
		done
		[ "$f" = testdata/tp-sched.data ] && rows+=("records|$f")
	done
	printf '%-22s %-24s %15s' command file "instructions"
	[ -z "$PD_OTHER" ] || printf ' %15s %7s' "PD's" "ratio"
	echo
	for r in "${rows[@]}"; do
		cmd=${r%%|*}
		f=${r#*|}
		# shellcheck disable=SC2086 # cmd is a command and its options
		a=$(instr ./perfdump $cmd "$f")
		printf '%-22s %-24s %15s' "$cmd" "$(basename "$f")" "$a"
		if [ -n "$PD_OTHER" ]; then
			# shellcheck disable=SC2086
			b=$(instr "$PD_OTHER" $cmd "$f")
			printf ' %15s %7s' "$b" "$(awk -v a="$a" -v b="$b" 'BEGIN { if (b > 0) printf "%.4f", a / b; else print "-" }')"
		fi
		echo
	done
}

# run_once CMD...: prints "seconds peak_rss_kb" of one run
run_once() {
	local t0 out
	out=$(mktemp)
	t0=$EPOCHREALTIME
	/usr/bin/time -f "%M" -o "$out" "$@" >/dev/null 2>&1 || true
	awk -v a="$t0" -v b="$EPOCHREALTIME" -v m="$(tail -1 "$out")" \
		'BEGIN { printf "%.4f %s\n", b - a, m }'
	rm -f "$out"
}

# median_rss TIMES... / RSSES...: "median_seconds max_rss_kb"
median_rss() {
	local times=() rss=0
	while [ "$1" != / ]; do times+=("$1"); shift; done
	shift
	for m in "$@"; do [ "$m" -gt "$rss" ] && rss=$m; done
	printf '%s %s\n' "$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (${#times[@]} + 1) / 2 ))p")" "$rss"
}

# measure CMD...: prints "median_seconds peak_rss_kb" over RUNS runs
measure() {
	local i t m times=() rsses=()
	for i in $(seq "$RUNS"); do
		read -r t m < <(run_once "$@")
		times+=("$t")
		rsses+=("$m")
	done
	median_rss "${times[@]}" / "${rsses[@]}"
}

# measure2 CMD_A... -- CMD_B...: both over RUNS runs, taken in turns
# (A B A B ...), so that a machine that slows down or speeds up during
# the run moves both alike; prints "median_a rss_a median_b rss_b
# lo hi", lo and hi the least and the greatest A/B of one turn: on a
# virtual machine a two-threaded A can have two speeds from run to run
# (the cost of moving data between its CPUs changes), which the medians
# alone hide
measure2() {
	local a=() i t m u ta=() ma=() tb=() mb=() r=()
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	for i in $(seq "$RUNS"); do
		read -r t m < <(run_once "${a[@]}")
		ta+=("$t")
		ma+=("$m")
		read -r u m < <(run_once "$@")
		tb+=("$u")
		mb+=("$m")
		r+=("$(awk -v a="$t" -v b="$u" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')")
	done
	echo "$(median_rss "${ta[@]}" / "${ma[@]}") $(median_rss "${tb[@]}" / "${mb[@]}")" \
		"$(printf '%s\n' "${r[@]}" | sort -n | sed -n '1p;$p' | tr '\n' ' ')"
}

# turns LO HI: the range of the ratios of single turns, for a row
turns() { echo "(per turn: ${1}x-${2}x)"; }

# zst_rows FILE: stats FILE.zst (a file-mode recording spooled, a
# pipe-mode one decoded as it is read) against zstd -dc of the same file
zst_rows() {
	local z=$1.zst pt pm zt zm lo hi
	[ -f "$z" ] || zstd -q -c "$1" >"$z"
	read -r pt pm zt zm lo hi < <(measure2 $PD stats "$z" -- \
		sh -c 'zstd -q -d -c "$1" >/dev/null' sh "$z")
	printf '%-34s %9ss %8s KiB   %s\n' "zstd -dc FILE.zst >/dev/null" "$zt" "$zm" \
		"($(($(stat -c %s "$z") / 1048576)) MiB compressed)"
	printf '%-34s %9ss %8s KiB   %s\n' "stats FILE.zst" "$pt" "$pm" \
		"$(awk -v a="$pt" -v b="$zt" 'BEGIN { printf "%.2fx the time of zstd -dc", a / b }') $(turns "$lo" "$hi")"
}

# versus NAME A_T A_RSS B_T B_RSS LO HI WHAT: a row of perfdump against
# perfdump or another tool, "A is N.NNx the time of WHAT"
versus() {
	printf '%-34s %9ss %8s KiB   %9ss %8s KiB   %s\n' "$1" "$2" "$3" "$4" "$5" \
		"$(awk -v a="$2" -v b="$4" 'BEGIN { printf "%.2fx", a / b }') the time of $8 $(turns "$6" "$7")"
}

# export_rows FILE: export and copy, in turns (SYMBOL_RUNS, 11): export
# --to folded against perf script (its text, which stackcollapse then
# reads), the other formats against folded; copy against cp, a --pid
# slice (the process with the most samples) against the whole copy; diff
# of FILE with itself against stats of it twice
export_rows() {
	local f=$1 out pid fmt pt pm qt qm lo hi
	out=$(mktemp -d)
	RUNS=${SYMBOL_RUNS:-11}
	read -r pt pm qt qm lo hi < <(measure2 $PD export --to folded "$f" -- perf script -i "$f")
	row "export --to folded vs script" "$pt" "$pm" "$qt" "$qm"
	printf '%-34s %s\n' "" "$(turns "$lo" "$hi")"
	for fmt in pprof chrome; do
		$PD export --help 2>/dev/null | grep -q "^  $fmt " || continue
		read -r pt pm qt qm lo hi < <(measure2 $PD export --to "$fmt" -o "$out/x" "$f" -- \
			$PD export --to folded -o "$out/y" "$f")
		versus "export --to $fmt vs folded" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "folded"
	done
	read -r pt pm qt qm lo hi < <(measure2 $PD copy --force "$f" -o "$out/c" -- cp "$f" "$out/cp")
	versus "copy vs cp" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "cp"
	read -r pt pm qt qm lo hi < <(measure2 $PD --jobs 1 copy --force "$f" -o "$out/c" -- cp "$f" "$out/cp")
	versus "copy --jobs 1 vs cp" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "cp"
	pid=$($PD stats -j "$f" 2>/dev/null | jq -r '[.stats.samples.top_processes[]?] | max_by(.samples) | .pid // empty')
	if [ -n "$pid" ]; then
		read -r pt pm qt qm lo hi < <(measure2 $PD copy --force --pid "$pid" "$f" -o "$out/p" -- \
			$PD copy --force "$f" -o "$out/c")
		versus "copy --pid $pid vs copy" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "the whole copy"
	fi
	read -r pt pm qt qm lo hi < <(measure2 $PD diff "$f" "$f" -- \
		sh -c '"$1" stats "$2" >/dev/null && "$1" stats "$2" >/dev/null' sh "$PD" "$f")
	versus "diff FILE FILE vs stats twice" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "stats twice"
	RUNS=${BENCH_RUNS:-5}
	rm -rf "$out"
}

# jobs_rows FILE: the parallel mode (--jobs, default: the online CPUs)
# against one thread, in turns (SYMBOL_RUNS, 11): records --json-lines,
# export --to folded, pprof and chrome, records --symbols, profile, copy
# (SKIP_JOBS=1: not)
jobs_rows() {
	local f=$1 out n pt pm qt qm lo hi
	out=$(mktemp -d)
	n=$(getconf _NPROCESSORS_ONLN)
	RUNS=${SYMBOL_RUNS:-11}
	read -r pt pm qt qm lo hi < <(measure2 $PD --jobs "$n" records --json-lines "$f" -- \
		$PD --jobs 1 records --json-lines "$f")
	versus "records --json-lines -J $n vs -J 1" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "one thread"
	read -r pt pm qt qm lo hi < <(measure2 $PD --jobs "$n" export --to folded "$f" -- \
		$PD --jobs 1 export --to folded "$f")
	versus "export --to folded -J $n vs -J 1" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "one thread"
	read -r pt pm qt qm lo hi < <(measure2 $PD --jobs "$n" export --to pprof -o "$out/p.pb.gz" "$f" -- \
		$PD --jobs 1 export --to pprof -o "$out/p.pb.gz" "$f")
	versus "export --to pprof -J $n vs -J 1" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "one thread"
	read -r pt pm qt qm lo hi < <(measure2 $PD --jobs "$n" export --to chrome "$f" -- \
		$PD --jobs 1 export --to chrome "$f")
	versus "export --to chrome -J $n vs -J 1" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "one thread"
	read -r pt pm qt qm lo hi < <(measure2 $PD --jobs "$n" records --symbols --json-lines "$f" -- \
		$PD --jobs 1 records --symbols --json-lines "$f")
	versus "records --symbols -J $n vs -J 1" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "one thread"
	read -r pt pm qt qm lo hi < <(measure2 $PD --jobs "$n" profile "$f" -- \
		$PD --jobs 1 profile "$f")
	versus "profile -J $n vs -J 1" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "one thread"
	read -r pt pm qt qm lo hi < <(measure2 $PD --jobs "$n" copy --force "$f" -o "$out/c" -- \
		$PD --jobs 1 copy --force "$f" -o "$out/c")
	versus "copy -J $n vs -J 1" "$pt" "$pm" "$qt" "$qm" "$lo" "$hi" "one thread"
	RUNS=${BENCH_RUNS:-5}
	rm -rf "$out"
}

row() { # NAME OURS_T OURS_RSS THEIRS_T THEIRS_RSS
	local ratio
	ratio=$(awk -v a="$2" -v b="$4" 'BEGIN { if (a > 0) printf "%.1fx", b / a; else print "inf" }')
	printf '%-34s %9ss %8s KiB   %9ss %8s KiB   %8s\n' "$1" "$2" "$3" "$4" "$5" "$ratio"
}

# title FILE: the section title and the column heads
title() {
	echo
	echo "== $1 ($(($(stat -c %s "$1") / 1048576)) MiB), median of $RUNS runs"
	printf '%-34s %10s %12s   %10s %12s   %8s\n' "" "perfdump" "peak RSS" "perf" "peak RSS" "speedup"
}

if [ -n "${INSTRUCTIONS:-}" ]; then
	instructions
	exit 0
fi

for mb in "${sizes[@]}"; do
	f=$(record "$mb")
	title "$f"
	# the tight ratio (against cat) from runs taken in turns
	read -r pt pm ct cm lo hi < <(measure2 $PD stats "$f" -- cat "$f")
	printf '%-34s %9ss %8s KiB\n' "cat FILE >/dev/null (floor)" "$ct" "$cm"
	read -r qt qm < <(measure perf report --stats -i "$f")
	row "stats vs report --stats" "$pt" "$pm" "$qt" "$qm"
	printf '%-34s %9ss %8s KiB   %s\n' "stats against the floor" "$pt" "$pm" \
		"$(awk -v a="$pt" -v b="$ct" 'BEGIN { printf "%.2fx the time of cat", a / b }') $(turns "$lo" "$hi")"
	read -r pt pm < <(measure $PD header "$f")
	read -r qt qm < <(measure perf report --header-only -i "$f")
	row "header vs report --header-only" "$pt" "$pm" "$qt" "$qm"
	read -r pt pm < <(measure $PD features "$f")
	read -r qt qm < <(measure perf report --header-only -I -i "$f")
	row "features vs report --header-only -I" "$pt" "$pm" "$qt" "$qm"
	if [ -z "${SKIP_PROFILE:-}" ]; then
		# the function profile against perf's, both symbolizing from this
		# machine's files (build-id cache, /usr/lib/debug, kallsyms)
		# (with callchains both add the callers' shares by default:
		# --children; --no-children leaves them out of both)
		RUNS=${PROFILE_RUNS:-3}
		read -r pt pm < <(measure $PD profile "$f")
		read -r qt qm < <(measure perf report --stdio --sort dso,sym -i "$f")
		row "profile vs report --sort dso,sym" "$pt" "$pm" "$qt" "$qm"
		read -r pt pm < <(measure $PD profile --no-children "$f")
		read -r qt qm < <(measure perf report --stdio --sort dso,sym --no-children -i "$f")
		row "profile --no-children vs the same" "$pt" "$pm" "$qt" "$qm"
		read -r pt pm < <(measure $PD profile --by thread "$f")
		row "profile --by thread vs the same" "$pt" "$pm" "$qt" "$qm"
		RUNS=${BENCH_RUNS:-5}
		# every sample's frames symbolized, in turns (SYMBOL_RUNS, 11)
		RUNS=${SYMBOL_RUNS:-11}
		read -r pt pm qt qm lo hi < <(measure2 $PD records --symbols --json-lines "$f" -- \
			perf script -F comm,tid,time,ip,sym,dso -i "$f")
		row "records --symbols -J vs script -F" "$pt" "$pm" "$qt" "$qm"
		printf '%-34s %s\n' "" "$(turns "$lo" "$hi")"
		RUNS=${BENCH_RUNS:-5}
	fi
	zst_rows "$f"
	[ -z "${SKIP_EXPORT:-}" ] && export_rows "$f"
	[ -z "${SKIP_JOBS:-}" ] && jobs_rows "$f"
	[ -n "${SKIP_RECORDS:-}" ] && continue
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

# pipe mode: perf reads it slowly (no seeking, no mmap)
if [ -z "${SKIP_VARIANTS:-}" ]; then
	f=$(record "${PIPE_MB:-200}" pipe)
	title "$f"
	read -r pt pm ct cm lo hi < <(measure2 $PD stats "$f" -- cat "$f")
	printf '%-34s %9ss %8s KiB\n' "cat FILE >/dev/null (floor)" "$ct" "$cm"
	RUNS=${RECORD_RUNS:-3}
	read -r qt qm < <(measure sh -c 'perf report --stats -i - <"$1"' sh "$f")
	RUNS=${BENCH_RUNS:-5}
	row "stats vs report --stats (pipe)" "$pt" "$pm" "$qt" "$qm"
	zst_rows "$f"

	# -z: walking the decompressed records in a reused buffer against
	# zstd -d writing the same payload to /dev/null
	f=$(record "${Z_MB:-30}" z)
	title "$f"
	zst=$(mktemp)
	zstd_payloads "$f" "$zst"
	read -r pt pm zt zm lo hi < <(measure2 $PD stats "$f" -- \
		sh -c 'zstd -q -d -c "$1" >/dev/null' sh "$zst")
	row "stats vs zstd -d of its payload" "$pt" "$pm" "$zt" "$zm"
	printf '%-34s %9ss %8s KiB   %s\n' "stats against zstd -d" "$pt" "$pm" \
		"$(awk -v a="$pt" -v b="$zt" 'BEGIN { printf "%.2fx the time of zstd -d", a / b }') $(turns "$lo" "$hi")"
	read -r qt qm < <(measure perf report --stats -i "$f")
	row "stats vs report --stats (-z)" "$pt" "$pm" "$qt" "$qm"
	rm -f "$zst"
fi

# source lines: profile --by line against perf report --sort srcline on a
# recording of a program built -g -O2 (testdata/profile/inl, copied beside
# the recording so that both find it at its recorded path), ~8 MB; perf
# reads each address's line with addr2line, perfdump each DSO's DWARF once
# (SKIP_SRCLINE=1: not)
if [ -z "${SKIP_SRCLINE:-}" ] && [ -z "${SKIP_PROFILE:-}" ]; then
	f="$DIR/srcline-bench.data"
	if [ ! -f "$f" ]; then
		cp testdata/profile/inl "$DIR/inl-bench"
		perf record -q -F 20000 -g -o "$f" -- "$DIR/inl-bench" 2000000000 >/dev/null 2>&1
	fi
	RUNS=${SYMBOL_RUNS:-11}
	title "$f"
	empty=$(mktemp -d) # no build-id cache: the file at its path, for both
	read -r pt pm qt qm lo hi < <(measure2 $PD profile --by line "$f" -- \
		env PERF_BUILDID_DIR="$empty" perf report --stdio --sort srcline -i "$f")
	row "profile --by line vs --sort srcline" "$pt" "$pm" "$qt" "$qm"
	printf '%-34s %s\n' "" "$(turns "$lo" "$hi")"
	read -r pt pm qt qm lo hi < <(measure2 $PD profile --by line --no-children "$f" -- \
		env PERF_BUILDID_DIR="$empty" perf report --stdio --sort srcline --no-children -i "$f")
	row "the same, --no-children" "$pt" "$pm" "$qt" "$qm"
	printf '%-34s %s\n' "" "$(turns "$lo" "$hi")"
	rmdir "$empty"
	RUNS=${BENCH_RUNS:-5}
fi

# tracepoints: every field and the print output of every sample
if [ -z "${SKIP_TP:-}" ]; then
	f=$(record "${TP_MB:-200}" tp)
	title "$f"
	RUNS=${RECORD_RUNS:-3}
	read -r pt pm qt qm _ _ < <(measure2 $PD records --json-lines "$f" -- \
		perf script -i "$f")
	row "records --json-lines vs script" "$pt" "$pm" "$qt" "$qm"
	read -r pt pm < <(measure $PD records "$f")
	row "records (text) vs script" "$pt" "$pm" "$qt" "$qm"
	RUNS=${BENCH_RUNS:-5}
fi
