#!/usr/bin/env bats
# The parallel mode of the walk (walk.h, walk_par.c; records and export
# --to folded and pprof -J/--jobs N): batches of records, in file or time
# order, decoded and formatted on worker threads, written in order;
# export's symbolizer a replica per worker.  Its output must be byte for byte the
# one of --jobs 1 (the serial walk): stdout, stderr and exit status, text,
# JSON and JSON lines, with and without filters, damage included.  PERFDUMP_BATCH_BYTES=1 makes every
# record its own batch, so that every record boundary is a batch boundary
# (and a data section of 3 bytes or more is walked in parallel).
#
# Under ThreadSanitizer (make SANITIZE=thread):
#   PERFDUMP=build-tsan/perfdump TSAN_OPTIONS=halt_on_error=1 \
#       bats tests/parallel.bats
# a report goes to stderr and changes the exit status: the test fails.

load helpers
load jobs
# bats file_tags=asan

load symfs

setup_file() {
	python3 scripts/gen-readerdata.py "$BATS_FILE_TMPDIR/big" >/dev/null
}

FIXTURES="testdata/*.data testdata/synthetic/*.data"

@test "parallel: every fixture, one record a batch: --jobs 2, 3, 4 as --jobs 1, text, JSON, JSON lines" {
	export PERFDUMP_BATCH_BYTES=1
	# shellcheck disable=SC2086
	same_as_one "2 3 4" $FIXTURES -- 
	# shellcheck disable=SC2086
	same_as_one "2 4" $FIXTURES -- -j
	# shellcheck disable=SC2086
	same_as_one "3" $FIXTURES -- --json-lines
}

@test "parallel: with filters (--pid, --event, --time, --type, --cpu, --at), as --jobs 1" {
	export PERFDUMP_BATCH_BYTES=1
	# shellcheck disable=SC2086
	same_as_one "2 3" $FIXTURES -- --pid 1 -j
	same_as_one "2 4" testdata/tracepoint.data testdata/group.data \
		testdata/syswide.data testdata/cpu-clock.data -- --event 0 --json-lines
	same_as_one "3" testdata/tracepoint.data testdata/syswide.data \
		testdata/cpu-clock.data -- --time 0,99999999999
	same_as_one "2" testdata/syswide.data testdata/tracepoint.data \
		-- --type sample,mmap2 --cpu 0
	same_as_one "2" testdata/syswide.data testdata/cpu-clock.data -- --at 0x200 -j
}

@test "parallel: the generated files (records cut across chunks, containers, damage), one record a batch and the default batches" {
	local big=$BATS_FILE_TMPDIR/big
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 4" "$big"/*.data -- --json-lines
	same_as_one "2 3" "$big"/*.data -- 
	same_as_one "2" "$big"/big-cut.data "$big"/big-zstd-bad.data \
		"$big"/big-zstd-torn.data "$big"/big-jump-cut.data -- -j
}

# bats test_tags=normal
@test "parallel: every corpus file, --jobs 3 as --jobs 1 (text and JSON lines)" {
	local -a files=()
	corpus_files
	PERFDUMP_BATCH_BYTES=4096 same_as_one "3" "${files[@]}" -- --json-lines
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" "${files[@]}" -- 
}

@test "parallel: records --order time (the queue's records in batches), as --jobs 1" {
	export PERFDUMP_BATCH_BYTES=1
	# shellcheck disable=SC2086
	same_as_one "2 3 4" $FIXTURES -- --order time
	same_as_one "2" testdata/syswide.data testdata/tracepoint.data -- --order time -j --pid 1
	local big=$BATS_FILE_TMPDIR/big
	unset PERFDUMP_BATCH_BYTES
	same_as_one "2 3" "$big"/*.data -- --order time --json-lines
}

# The queue's bound counts the blocks of records queued, not those the
# batches keep (order.c): past it (order-queue-full) the records still
# come out as with --jobs 1.
@test "parallel: records --order time past the queue's bound, and interleaved runs, as --jobs 1" {
	local t=$BATS_TEST_TMPDIR
	python3 scripts/gen-hostile-big.py "$t/tiny.data" order-tiny 300000
	python3 scripts/gen-hostile-big.py "$t/reversed.data" order-reversed 300000
	python3 scripts/gen-hostile-big.py "$t/runs.data" order-runs 400
	same_as_one "2 3" "$t"/*.data -- --order time
	pd records --order time "$t/tiny.data"
	assert_contains "$output" "time order: 128962 records wait for a FINISHED_ROUND"
}

P=testdata/profile

# The stacks exports' oracle: folded (--folded-* and --period too) and
# pprof (its file compared, PD_OUT: -o OUT; gzip's header has no time).
# export_same JOBS FILES -- ARGS...
export_same() {
	local jobs=$1
	local -a files=()
	shift
	collect_files "$@"
	shift $((${#files[@]} + 1))
	PD_CMD=export same_as_one "$jobs" "${files[@]}" -- --to folded "$@" &&
		PD_CMD=export PD_OUT=1 same_as_one "$jobs" "${files[@]}" -- --to pprof "$@"
}

# bats test_tags=normal
@test "parallel: export --to folded and pprof, every fixture with symbols, one record a batch and the default: --jobs 2, 3, 4 as --jobs 1" {
	symfs_setup
	cp testdata/profile/hot_cxx "$T/s$RUN/hot_cxx"
	local name k
	export PD_CMD=export
	for name in $SYM_FIXTURES; do
		k=$(kallsyms_of "$name")
		PERFDUMP_BATCH_BYTES=1 export_same "2 3 4" $P/$name.data -- \
			--symfs "$T/s" --kallsyms $k
		PERFDUMP_BATCH_BYTES=1 same_as_one "2" $P/$name.data -- \
			--to folded --symfs "$T/s" --kallsyms $k --folded-tid --kernel-suffix --period
		PERFDUMP_BATCH_BYTES=1 export_same "3" $P/$name.data -- \
			--symfs "$T/s" --kallsyms $k --inline
		PERFDUMP_BATCH_BYTES=1 export_same "2" $P/$name.data -- \
			--symfs "$T/s" --kallsyms $k --no-inline
		export_same "2" $P/$name.data -- --symfs "$T/s" --kallsyms $k
	done
	# without symbols: each DSO warned about once, by the first batch
	# that meets it; the kernel without kallsyms
	PERFDUMP_BATCH_BYTES=1 export_same "2 3 4" $P/inl-fp.data $P/callchain.data \
		$P/profile.data -- --symfs "$T/empty"
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 4" $P/profile-sh.data -- \
		--to folded --symfs "$T/s" --pid 3428 --kernel-suffix
	PERFDUMP_BATCH_BYTES=1 PD_OUT=1 same_as_one "2 4" $P/profile-sh.data -- \
		--to pprof --symfs "$T/s" --pid 3428
	# the other fixtures (no symbols, damage, several events)
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 3" $FIXTURES -- --to folded --folded-pid
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 PD_OUT=1 same_as_one "2 3 4" $FIXTURES -- --to pprof
}

# bats test_tags=normal
@test "parallel: export --to pprof, the generated files, one record a batch and the default: --jobs 2, 3, 4 as --jobs 1" {
	local big=$BATS_FILE_TMPDIR/big
	export PD_CMD=export PD_OUT=1
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 4" "$big"/*.data -- --to pprof
	same_as_one "2 3 4" "$big"/*.data -- --to pprof
}

@test "parallel: export --to folded is exactly what perf script and stackcollapse-perf.pl make, with --jobs 3" {
	symfs_setup
	local k=$P/kallsyms
	PERFDUMP_BATCH_BYTES=1 pd export --jobs 3 --to folded \
		--symfs "$T/s" --kallsyms $k $P/callchain.data
	assert_status 0
	assert_eq "$output" "$(perf script -i $P/callchain.data --symfs "$T/s" --kallsyms $k -F +pid 2>/dev/null |
		python3 tests/collapse_perf.py)"
	[ -n "$output" ]
}

# bats test_tags=normal
@test "parallel: export --to folded and pprof, every corpus file, --jobs 2, 3 and 4 as --jobs 1" {
	local -a files=()
	corpus_files
	export PD_CMD=export PERF_BUILDID_DIR=$BATS_TEST_TMPDIR/empty
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" "${files[@]}" -- --to folded
	same_as_one "3" "${files[@]}" -- --to folded --folded-tid
	export PD_OUT=1
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" "${files[@]}" -- --to pprof
	same_as_one "3 4" "${files[@]}" -- --to pprof
}

# bats test_tags=normal
@test "parallel: records --symbols (a replica of the maps per thread) and tracepoint prints of kernel functions: --jobs 2, 3, 4 as --jobs 1" {
	symfs_setup
	cp testdata/profile/hot_cxx "$T/s$RUN/hot_cxx"
	local name k
	for name in $SYM_FIXTURES; do
		k=$(kallsyms_of "$name")
		PERFDUMP_BATCH_BYTES=1 same_as_one "2 3 4" $P/$name.data -- \
			--symbols --symfs "$T/s" --kallsyms $k -j
		PERFDUMP_BATCH_BYTES=1 same_as_one "3" $P/$name.data -- \
			--symbols --srcline --symfs "$T/s" --kallsyms $k
		same_as_one "2" $P/$name.data -- --symbols --symfs "$T/s" --kallsyms $k --order file
	done
	# without symbols: each DSO warned about once
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 3" $P/inl-fp.data $P/profile.data -- \
		--symbols --symfs "$T/empty" -j
	# %ps and %pS: the kernel's maps on each thread, with kallsyms and
	# without (one warning)
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 3" testdata/tp-ksym.data -- --kallsyms testdata/tp-ksym.kallsyms -j
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 3" testdata/tp-ksym.data -- --json-lines
	# the other fixtures and the generated files
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 3" $FIXTURES "$BATS_FILE_TMPDIR"/big/*.data -- --symbols -j
}

# bats test_tags=normal
@test "parallel: records --symbols, every corpus file, --jobs 2 and 3 as --jobs 1" {
	local -a files=()
	corpus_files
	export PERF_BUILDID_DIR=$BATS_TEST_TMPDIR/empty
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" "${files[@]}" -- --symbols --json-lines
	same_as_one "3" "${files[@]}" -- --symbols
}

# bats test_tags=normal
@test "parallel: export --to chrome (the slices made in order from the batches' switches): --jobs 2, 3, 4 as --jobs 1" {
	symfs_setup
	local name k
	export PD_CMD=export
	for name in $SYM_FIXTURES; do
		k=$(kallsyms_of "$name")
		PERFDUMP_BATCH_BYTES=1 same_as_one "2 3 4" $P/$name.data -- \
			--to chrome --symfs "$T/s" --kallsyms $k
		PERFDUMP_BATCH_BYTES=1 same_as_one "3" $P/$name.data -- \
			--to chrome --symfs "$T/s" --kallsyms $k --inline
	done
	# sched_switch slices, across batches and threads
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 3 4" testdata/tracepoint.data \
		testdata/tp-sched.data testdata/syswide.data -- --to chrome --kallsyms /dev/null
	same_as_one "2" testdata/tp-sched.data -- --to chrome --kallsyms /dev/null
	# the other fixtures and the generated files
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 3" $FIXTURES "$BATS_FILE_TMPDIR"/big/*.data -- --to chrome
	# filters and --redact: one thread (their timeline needs every sample)
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" testdata/tp-sched.data -- --to chrome --pid 1
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" testdata/redact.data -- --to chrome --redact
}

# bats test_tags=normal
@test "parallel: export --to chrome, every corpus file, --jobs 2 and 3 as --jobs 1" {
	local -a files=()
	corpus_files
	export PD_CMD=export PERF_BUILDID_DIR=$BATS_TEST_TMPDIR/empty
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" "${files[@]}" -- --to chrome
	same_as_one "3" "${files[@]}" -- --to chrome
}

@test "parallel: what stays serial gives the same output (--skip/--limit, pipe, directories, -x, --redact)" {
	export PERFDUMP_BATCH_BYTES=1
	same_as_one "3" testdata/syswide.data -- --skip 5 --limit 7 -j
	same_as_one "2" testdata/callgraph.data -- --symbols --limit 9
	same_as_one "2" testdata/pipe.data testdata/threads.data testdata/comm-order.data -- 
	same_as_one "2" testdata/cpu-clock.data -- -x
	same_as_one "2" testdata/redact.data -- --redact
	PD_CMD=export PD_OUT=1 same_as_one "2" testdata/pipe.data testdata/threads.data -- --to pprof
}

# bats test_tags=normal
@test "parallel: workers start for --jobs 2 or more on a data section of more than two batches, and only then" {
	# --jobs N: N - 1 threads started, the reading thread the Nth
	command -v strace >/dev/null || skip "strace is not installed"
	local big=$BATS_FILE_TMPDIR/big/big-records.data
	# ThreadSanitizer's runtime starts a thread of its own with the first
	case $PERFDUMP in */build-tsan/*) skip "ThreadSanitizer's runtime has a thread" ;; esac
	local base
	base=$(nthreads records --jobs 1 "$big")
	[ "$base" = 0 ]
	[ "$(nthreads records --jobs 3 "$big")" = $((base + 2)) ]
	# 16 KiB: less than two batches of 64 KiB
	[ "$(nthreads records --jobs 3 testdata/cpu-clock.data)" = "$base" ]
	[ "$(PERFDUMP_BATCH_BYTES=1 nthreads records --jobs 2 testdata/cpu-clock.data)" = $((base + 1)) ]
	# time order too, and export --to folded
	[ "$(nthreads records --jobs 3 --order time "$big")" = $((base + 2)) ]
	[ "$(nthreads export --to folded --jobs 2 "$big")" = $((base + 1)) ]
	[ "$(PERFDUMP_BATCH_BYTES=1 nthreads export --to folded --jobs 3 testdata/cpu-clock.data)" = $((base + 2)) ]
	[ "$(nthreads export --to folded --jobs 3 testdata/cpu-clock.data)" = "$base" ]
	# at most 4 replicas keep symbol tables of their own
	[ "$(nthreads export --to folded --jobs 8 "$big")" = $((base + 3)) ]
	# records --symbols so too
	[ "$(nthreads records --symbols --jobs 3 "$big")" = $((base + 2)) ]
	[ "$(nthreads records --symbols --jobs 8 "$big")" = $((base + 3)) ]
	# export --to pprof so too
	[ "$(nthreads export --to pprof -o "$BATS_TEST_TMPDIR/p.pb.gz" --jobs 2 "$big")" = $((base + 1)) ]
	[ "$(PERFDUMP_BATCH_BYTES=1 nthreads export --to pprof -o "$BATS_TEST_TMPDIR/p.pb.gz" --jobs 3 testdata/cpu-clock.data)" = $((base + 2)) ]
	[ "$(nthreads export --to pprof -o "$BATS_TEST_TMPDIR/p.pb.gz" --jobs 3 testdata/cpu-clock.data)" = "$base" ]
	[ "$(nthreads export --to pprof -o "$BATS_TEST_TMPDIR/p.pb.gz" --jobs 8 "$big")" = $((base + 3)) ]
	# one thread still: --limit; stats has no parallel mode
	[ "$(nthreads records --jobs 3 --limit 5 "$big")" = "$base" ]
	# export --to chrome so too, but with filters or --redact
	[ "$(nthreads export --to chrome --jobs 3 "$big")" = $((base + 2)) ]
	[ "$(nthreads export --to chrome --jobs 8 "$big")" = $((base + 3)) ]
	[ "$(nthreads export --to chrome --jobs 3 --pid 1 "$big")" = "$base" ]
	[ "$(nthreads --redact export --to chrome --jobs 3 "$big")" = "$base" ]
	[ "$(nthreads stats --jobs 3 "$big")" = "$base" ]
}

@test "parallel: --jobs wants a thread count of 1 or more" {
	pd records --jobs 0 testdata/cpu-clock.data
	[ "$status" -eq 2 ]
	[[ $stderr == *"--jobs"* ]]
	pd records -J x testdata/cpu-clock.data
	[ "$status" -eq 2 ]
	pd records -J 2 testdata/cpu-clock.data
	[ "$status" -eq 0 ]
	pd stats --jobs 2 testdata/cpu-clock.data
	[ "$status" -eq 0 ]
}

@test "parallel: a pipe stream goes on several threads, in a file or from standard input, as --jobs 1" {
	local big=$BATS_FILE_TMPDIR/big pipes="testdata/*pipe*.data testdata/synthetic/*pipe*.data"
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 3" $pipes "$big"/big-pipe*.data -- -j
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" $pipes -- --order time --json-lines
	# (export, profile and records --symbols read a pipe on one thread:
	# the same, always)
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 PD_CMD=export same_as_one "2" $pipes -- --to folded
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 PD_CMD=profile same_as_one "3" $pipes -- -j
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" $pipes -- --symbols -j
	command -v strace >/dev/null || skip "strace is not installed"
	case $PERFDUMP in */build-tsan/*) skip "ThreadSanitizer's runtime has a thread" ;; esac
	[ "$(nthreads records --jobs 3 "$big/big-pipe.data")" = 2 ]
	# (a pipe: standard input redirected from the file is a file)
	[ "$(cat "$big/big-pipe.data" | nthreads records --jobs 3 -)" = 2 ]
	[ "$(nthreads export --to folded --jobs 3 "$big/big-pipe.data")" = 0 ]
	[ "$(nthreads records --symbols --jobs 3 "$big/big-pipe.data")" = 0 ]
	# from a pipe, as one thread reads it from a pipe
	local f one par
	for f in testdata/pipe.data testdata/tp-pipe.data "$big/big-pipe.data"; do
		one=$(cat "$f" | "$PERFDUMP" records --jobs 1 -j - 2>&1 || true)
		par=$(cat "$f" | PERFDUMP_BATCH_BYTES=1 "$PERFDUMP" records --jobs 3 -j - 2>&1 || true)
		[ "$par" = "$one" ] || { echo "$f from a pipe differs"; return 1; }
		[ -n "$one" ]
	done
}
