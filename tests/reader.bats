#!/usr/bin/env bats
# The reader (src/lib/io/reader.c) frames records in one place and gets its
# bytes in one of two ways: whole-recording walks (stats, records, check,
# buildids --hits, time order, the pipe walk) over 4 MiB or more read
# ahead on a helper thread and hand records out in place (fast mode);
# smaller ones, and all with PERFDUMP_READER=plain, read through the 1 MiB
# window instead.  PERFDUMP_READER=fast reads ahead whatever the size, so
# the tests can compare the two on small files.  Both must give the same
# output byte for byte, damage included, on every fixture and on bigger
# files (scripts/gen-readerdata.py) whose records cross the 256 KiB
# read-ahead chunks: payloads read, skipped and seeked over, COMPRESSED
# and COMPRESSED2 containers, a pipe stream with tracing data, and damage
# past the first chunk.

load helpers
# bats file_tags=asan

setup_file() {
	python3 scripts/gen-readerdata.py "$BATS_FILE_TMPDIR/big"
}

# The fixtures (the directory threads.data too) and the generated files
# (BIG/: scripts/gen-readerdata.py); a few of these for the slower
# commands: records cut by chunks, payloads and tracing data, containers
# with damage, a file cut short.
FIXTURES="testdata/*.data testdata/synthetic/*.data"
MIN_FILES=40
# The sanitizer run of tests/run.sh (PD_SWEEPS=0): the generated files,
# whose records cross the chunks, and a few fixtures of each kind; the
# normal run compares the two modes on all of them.
if [ "${PD_SWEEPS:-1}" != 1 ]; then
	FIXTURES="testdata/zstd.data testdata/pipe.data testdata/killed.data testdata/synthetic/full-be.data testdata/synthetic/check-zstd-bad.data testdata/synthetic/check-zstd-torn.data"
	MIN_FILES=6
fi
ALL="$FIXTURES BIG/*.data"
SOME="$FIXTURES BIG/big-records.data BIG/big-pipe.data BIG/big-zstd-bad.data BIG/big-cut.data BIG/pipe-buildids.data"

# both_modes FILES ARGS...: `perfdump ARGS FILE` for every file of FILES
# (patterns), in fast and in plain mode: the same stdout, stderr and exit
# status, and no signal.  All the files go to one perfdump per mode (it
# shows several FILEs one after another; its stderr names the file of
# each message, its status is the worst); when the two differ, each file
# is run alone to say which differ.
both_modes() {
	local f d=$BATS_TEST_TMPDIR rc=0 fs=0 ps=0 pats=${1//BIG\//$BATS_FILE_TMPDIR/big/} files=()
	shift
	# shellcheck disable=SC2206
	files=($pats)
	PERFDUMP_READER=fast "$PERFDUMP" "$@" "${files[@]}" >"$d/fast.out" 2>"$d/fast.err" || fs=$?
	PERFDUMP_READER=plain "$PERFDUMP" "$@" "${files[@]}" >"$d/plain.out" 2>"$d/plain.err" || ps=$?
	if [ "$fs" -ge 128 ] || [ "$ps" -ge 128 ] || [ "$fs" != "$ps" ] ||
		! cmp -s "$d/fast.out" "$d/plain.out" || ! cmp -s "$d/fast.err" "$d/plain.err"; then
		echo "fast and plain differ on perfdump $* FILES (status $fs, $ps); each file alone:"
		rc=1
		for f in "${files[@]}"; do
			fs=0 ps=0
			PERFDUMP_READER=fast "$PERFDUMP" "$@" "$f" >"$d/fast.out" 2>"$d/fast.err" || fs=$?
			PERFDUMP_READER=plain "$PERFDUMP" "$@" "$f" >"$d/plain.out" 2>"$d/plain.err" || ps=$?
			if [ "$fs" -ge 128 ] || [ "$ps" -ge 128 ]; then
				echo "signal: perfdump $* $f (fast $fs, plain $ps)"
			elif [ "$fs" != "$ps" ] || ! cmp -s "$d/fast.out" "$d/plain.out" ||
				! cmp -s "$d/fast.err" "$d/plain.err"; then
				echo "fast and plain differ: perfdump $* $f (status $fs, $ps)"
				diff "$d/plain.out" "$d/fast.out" | head -5
				diff "$d/plain.err" "$d/fast.err" | head -5
			fi
		done
	fi
	# every fixture, the directory, the synthetic (and big) files
	[ "${#files[@]}" -ge "$MIN_FILES" ] || {
		echo "only ${#files[@]} files"
		rc=1
	}
	return $rc
}

@test "reader: the big files reach past the read-ahead chunks, with the damage where it was put" {
	local b=$BATS_FILE_TMPDIR/big
	pdj -j stats "$b/big.data"
	jq_all '.stats.records.total' '35652' '[.stats.records.types[] | select(.name == "AUXTRACE") | .count]' '[260]'
	pdj -j stats "$b/big-records.data"
	jq_all '.stats.records.total' '65894' '.errors' '[]'
	pdj -j stats "$b/big-zstd.data"
	jq_all '.stats.records.total > 40000' 'true' '.stats.compression.containers > 800' 'true' '.errors' '[]'
	pd stats "$b/big-small-record.data"
	assert_status 1
	[[ $stderr == *"0x1e85ac: data section: record header: size 4 is smaller than the 8-byte header"* ]]
	pd stats "$b/big-jump-cut.data"
	[[ $stderr == *"0x13de3b: data section: record payload of 5242880 bytes is cut short: the input ends after 3145717 of them"* ]]
	# the record left over began in the container at 0x125d15 (zstd had
	# kept the input of the ones before it: they gave no bytes)
	pd stats "$b/big-zstd-torn.data"
	[[ $stderr == *"0x125d15: data section: the compressed stream ends inside a record (36 bytes left over)"* ]]
}

@test "reader: fast and plain agree on stats, text and JSON" {
	both_modes "$ALL" stats
	both_modes "$ALL" -j stats
}

@test "reader: fast and plain agree on records --json-lines and records -x" {
	both_modes "$SOME" records --json-lines
	both_modes "$SOME" -x records
}

@test "reader: fast and plain agree on records in time order" {
	both_modes "$SOME" records --order time --json-lines
}

@test "reader: fast and plain agree on check and buildids --hits" {
	both_modes "$SOME" -j check
	both_modes "$SOME" -j buildids --hits --no-resolve
}

@test "reader: fast and plain agree on header (the pipe walk)" {
	both_modes "$SOME" -j header
}

# threads MODE FILE [COMMAND...]: how many threads `perfdump COMMAND
# FILE` (stats if none is given) starts with PERFDUMP_READER=MODE (""
# for unset).
threads() {
	local log=$BATS_TEST_TMPDIR/strace mode=$1 file=$2
	shift 2
	[ $# -gt 0 ] || set -- stats
	# LeakSanitizer cannot run under ptrace: no leak check here
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 PERFDUMP_READER=$mode \
		strace -f -qq -e trace=clone,clone3 -o "$log" "$PERFDUMP" "$@" "$file" >/dev/null
	grep -c clone "$log" || true
}

# bats test_tags=normal
@test "reader: the read-ahead thread runs on 4 MiB or more, or when PERFDUMP_READER says" {
	command -v strace >/dev/null || skip "strace is not installed"
	local big=$BATS_FILE_TMPDIR/big/big-jump.data
	# 16 KiB: one thread, whatever the walk
	[ "$(stat -c %s testdata/cpu-clock.data)" -lt 4194304 ]
	[ "$(threads "" testdata/cpu-clock.data)" = 0 ]
	[ "$(threads fast testdata/cpu-clock.data)" = 1 ]
	[ "$(threads plain testdata/cpu-clock.data)" = 0 ]
	# a 6.5 MB data section: read ahead unless told not to (once more
	# after its 5 MiB payload, which is seeked over)
	[ "$(stat -c %s "$big")" -gt 4194304 ]
	[ "$(threads "" "$big")" = 2 ]
	[ "$(threads plain "$big")" = 0 ]
}

@test "reader: stats decompresses on its own thread, records and check on a helper" {
	command -v strace >/dev/null || skip "strace is not installed"
	local z=$BATS_FILE_TMPDIR/big/big-zstd.data
	# read ahead (one thread); records and check decompress on one more
	# (records on one thread: --jobs 2 adds its workers, parallel.bats)
	[ "$(threads fast "$z")" = 1 ]
	[ "$(threads fast "$z" records --json-lines --jobs 1)" = 2 ]
	[ "$(threads fast "$z" check)" = 2 ]
	[ "$(threads plain "$z" records --json-lines --jobs 1)" = 0 ]
}

# The walk adds a feature for each of the 16 HEADER_FEATURE records between
# the two HEADER_BUILD_ID records: the second entry went to the feature
# table's old place (freed when it grew), and was lost.
@test "reader: the pipe walk keeps HEADER_BUILD_ID records on both sides of 16 feature records" {
	pdj -j buildids --no-resolve "$BATS_FILE_TMPDIR/big/pipe-buildids.data"
	jq_all '[.buildids[] | .filename]' '["/usr/bin/first","/usr/bin/second"]' '.errors' '[]'
	pdj -j features "$BATS_FILE_TMPDIR/big/pipe-buildids.data"
	jq_all '[.features[] | select(.name == "BUILD_ID") | .records]' '[2]'
}
