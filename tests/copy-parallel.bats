#!/usr/bin/env bats
# copy on several threads (-J/--jobs N, walk.h pd_par_visitor): the
# kernel's records are decoded and checked on worker threads, and written
# in order on the caller's, so the copy is byte for byte the one of
# --jobs 1: the file written, the document, stderr and the exit status.
# PERFDUMP_BATCH_BYTES=1 makes every record its own batch.
#
# Under ThreadSanitizer: PERFDUMP=build-tsan/perfdump
# TSAN_OPTIONS=halt_on_error=1 bats tests/copy-parallel.bats

load helpers
load jobs
# bats file_tags=asan

setup_file() {
	python3 scripts/gen-readerdata.py "$BATS_FILE_TMPDIR/big" >/dev/null
}

# copy_as_one JOBS FILES -- ARGS...: same_as_one for copy (jobs.bash): the
# file written compared too
copy_as_one() {
	PD_CMD=copy PD_OUT=1 same_as_one "$@"
}

FIXTURES="testdata/*.data testdata/synthetic/*.data testdata/profile/*.data"

@test "copy --jobs: every fixture, one record a batch: --jobs 2, 3, 4 write the copy --jobs 1 writes" {
	export PERFDUMP_BATCH_BYTES=1
	# shellcheck disable=SC2086
	copy_as_one "2 3 4" $FIXTURES -- -j
}

@test "copy --jobs: with filters, --compress, --attr-size and --build-ids hit, as --jobs 1" {
	export PERFDUMP_BATCH_BYTES=1
	copy_as_one "2 3" testdata/syswide.data testdata/tracepoint.data \
		testdata/group.data testdata/cpu-clock.data -- --pid 25609
	copy_as_one "2" testdata/syswide.data testdata/group.data -- --event task-clock --cpu 1
	copy_as_one "2" testdata/syswide.data testdata/cpu-clock.data -- --time 0,4021.25
	copy_as_one "2 4" testdata/zstd.data testdata/callgraph.data -- --compress
	copy_as_one "3" testdata/cpu-clock.data -- --attr-size 120
	copy_as_one "2" testdata/syswide.data -- --build-ids hit --tid 25609
}

@test "copy --jobs: the generated files (records cut across chunks, containers, damage) and every corpus file" {
	local big=$BATS_FILE_TMPDIR/big
	PERFDUMP_BATCH_BYTES=1 copy_as_one "2 3" "$big"/*.data -- -j
	copy_as_one "2" "$big"/*.data -- -j
	need_corpus
	PERFDUMP_BATCH_BYTES=1 copy_as_one "3" "$CORPUS"/*/* -- -j
}

@test "copy --jobs: --redact and a pipe output stay serial and say the same" {
	export PERFDUMP_BATCH_BYTES=1
	copy_as_one "2" testdata/redact.data testdata/syswide.data -- --redact
	local one=$BATS_TEST_TMPDIR/one.pipe par=$BATS_TEST_TMPDIR/par.pipe
	"$PERFDUMP" --jobs 1 copy testdata/syswide.data -o - >"$one"
	"$PERFDUMP" --jobs 3 copy testdata/syswide.data -o - >"$par"
	cmp "$one" "$par"
}

@test "copy --jobs: worker threads start for --jobs 2, not for --jobs 1 or --redact; -J before the command" {
	command -v strace >/dev/null || skip "no strace"
	case $PERFDUMP in */build-tsan/*) skip "ThreadSanitizer's runtime has a thread" ;; esac
	local out=$BATS_TEST_TMPDIR/out.data
	# --jobs N: N - 1 threads started, the reading thread the Nth
	[ "$(PERFDUMP_BATCH_BYTES=1 nthreads -J 2 copy --force testdata/syswide.data -o "$out")" = 1 ]
	[ "$(PERFDUMP_BATCH_BYTES=1 nthreads -J 3 copy --force testdata/syswide.data -o "$out")" = 2 ]
	[ "$(PERFDUMP_BATCH_BYTES=1 nthreads -J 1 copy --force testdata/syswide.data -o "$out")" = 0 ]
	[ "$(PERFDUMP_BATCH_BYTES=1 nthreads --redact -J 2 copy --force testdata/syswide.data -o "$out")" = 0 ]
	pd -J
	assert_status 2
	assert_eq "$stderr" "perfdump: option '-J' needs a value
Try 'perfdump --help'."
}
