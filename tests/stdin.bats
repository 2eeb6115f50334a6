#!/usr/bin/env bats
# Standard input and other streams: pipe-mode data is decoded as it
# arrives (one pass, bounded memory, no temporary file); a file-mode
# recording on a stream is spooled, and a failed spool says why; a
# directory whose data.N is a FIFO does not hang.  The streams are made
# by scripts/gen-stdindata.py at test time.

load helpers
# bats file_tags=asan

GEN=scripts/gen-stdindata.py
COMMANDS=(header features attrs records stats check buildids)

# assert_rss FILE KIB: the peak RSS /usr/bin/time wrote to FILE is under
# KIB.  Not under AddressSanitizer: its shadow memory and the quarantine
# of freed blocks (256 MiB) are not perfdump's.
assert_rss() {
	local rss
	rss=$(tail -n 1 "$1")
	if sanitized; then
		echo "# sanitizer build: peak RSS $rss KiB not checked" >&3
		return 0
	fi
	[ "$rss" -lt "$2" ] || { echo "peak RSS $rss KiB, over $2"; false; }
}

# same_as_file FILE CMD...: CMD on FILE through a pipe prints what it
# prints on the file (but the name), on stdout and stderr, same status.
same_as_file() {
	local f=$1 T=$BATS_TEST_TMPDIR a
	shift
	export OUT=$T
	run bash -c '"$PERFDUMP" "$@" >"$OUT/a.out" 2>"$OUT/a.err"' _ "$@" "$f"
	a=$status
	run bash -c 'cat "$1" | "$PERFDUMP" "${@:2}" - >"$OUT/b.out" 2>"$OUT/b.err"' _ "$f" "$@"
	assert_eq "$status" "$a" "exit status of $* - <$f"
	sed -i -e "1s#^File: -\$#File: $f#" -e "s#\"file\": *\"-\"#\"file\":\"$f\"#" "$T/b.out"
	sed -i "s#^perfdump: -:#perfdump: $f:#" "$T/b.err"
	assert_files_equal "$T/a.out" "$T/b.out"
	assert_files_equal "$T/a.err" "$T/b.err"
}

@test "stdin live: records are printed while the writer still holds the pipe open" {
	local T=$BATS_TEST_TMPDIR pid
	mkfifo "$T/out"
	# 4084 bytes: the metadata, the synthesized records and the first
	# samples of pipe.data (the last one at 0xfc4); the writer then waits
	# 300 s, or until perfdump is gone
	"$PERFDUMP" records - < <(python3 $GEN live 4084 300) >"$T/out" 2>"$T/err" &
	pid=$!
	run timeout 60 grep -m1 -F '  0xfc4 [0x30] PERF_RECORD_SAMPLE: misc=0x1 cpumode=kernel event=cpu-clock ip=0xffffffff821ef666 pid=3138 tid=3138 time=196426754742' "$T/out"
	local found=$status
	# still running: its input has not ended
	kill -0 "$pid"
	kill "$pid"
	wait "$pid" || true
	assert_eq "$found" 0 "the sample at 0xfc4 printed before the stream ended"
	assert_empty "$(cat "$T/err")" stderr
}

@test "stdin live: --json-lines objects come as the records do (the fast reader too)" {
	local T=$BATS_TEST_TMPDIR pid line
	mkfifo "$T/out"
	# PERFDUMP_READER=fast: a stream is read in the calling thread anyway
	PERFDUMP_READER=fast "$PERFDUMP" records --json-lines - < <(python3 $GEN live 4084 300) >"$T/out" 2>"$T/err" &
	pid=$!
	line=$(timeout 60 grep -m1 -F '"offset":4036,' "$T/out")
	kill "$pid"
	wait "$pid" || true
	jq_eq '[.offset, .type_name, .event, .ip, .time]' '[4036,"SAMPLE","cpu-clock","0xffffffff821ef666",196426754742]' "$line"
}

# bats test_tags=normal
@test "stdin endless: records streams, bounded memory, no temporary file; ends when the output closes" {
	local T=$BATS_TEST_TMPDIR
	# TMPDIR that does not exist: a spool would fail
	run bash -c "set -o pipefail; python3 $GEN stream | TMPDIR='$T/no-such-dir' /usr/bin/time -f %M -o '$T/rss' '$PERFDUMP' records - 2>'$T/err' | head -n 200000 | tail -n 1"
	assert_eq "$output" "  0x92838c [0x30] PERF_RECORD_SAMPLE: misc=0x2 cpumode=user event=cpu-clock ip=0x7f6d3cd91645 pid=3138 tid=3138 time=196425505088 time_s=196.425505 id=0x87 period=250000" "line 200000"
	assert_empty "$(cat "$T/err")" stderr
	[ ! -e "$T/no-such-dir" ]
	assert_rss "$T/rss" 20000
}

# bats test_tags=normal
@test "stdin long stream: stats counts every sample, bounded memory, no temporary file" {
	local T=$BATS_TEST_TMPDIR
	# 2000 blocks of 1024 samples: 94 MiB; TMPDIR that does not exist
	run --separate-stderr bash -c "set -o pipefail; python3 $GEN stream 2000 | TMPDIR='$T/no-such-dir' /usr/bin/time -f %M -o '$T/rss' '$PERFDUMP' -j stats -"
	assert_status 0
	check_json
	jq_all '.stats.records.total' 2048033 '.stats.samples.total' 2048000 \
		'.stats.records.types[] | select(.name == "SAMPLE") | .bytes' 98304000
	assert_rss "$T/rss" 20000
}

# bats test_tags=normal
@test "stdin endless: records --order time stays bounded (the queue's bound)" {
	local T=$BATS_TEST_TMPDIR
	# no FINISHED_ROUND in the stream: only the bound flushes
	run bash -c "set -o pipefail; python3 $GEN stream | TMPDIR='$T/no-such-dir' /usr/bin/time -f %M -o '$T/rss' '$PERFDUMP' records --order time - 2>'$T/err' | head -n 1500000 | tail -n 1"
	assert_contains "$output" "[0x30] PERF_RECORD_SAMPLE: misc=0x2 cpumode=user event=cpu-clock ip=0x7f6d3cd91645 pid=3138 tid=3138 time=196425505088"
	assert_rss "$T/rss" 100000
}

# bats test_tags=normal
@test "stdin: every command on a pipe-mode stream prints what it prints on the file" {
	local f c
	# never spooled: TMPDIR does not exist
	export TMPDIR=$BATS_TEST_TMPDIR/no-such-dir
	# under the sanitizers: a recorded stream and a byte-swapped one
	for f in $(few 2 <<<"testdata/pipe.data
testdata/synthetic/pipe-be.data
testdata/synthetic/pipe-le.data
testdata/synthetic/code-pipe.data"); do
		for c in "${COMMANDS[@]}"; do
			same_as_file "$f" "$c"
			same_as_file "$f" -j "$c"
		done
		same_as_file "$f" records -x
		same_as_file "$f" records --order time
		same_as_file "$f" features -x
	done
}

# bats test_tags=normal
@test "stdin: a record of type 0xffffffff before the attrs: read past, as from the file" {
	local f=$BATS_TEST_TMPDIR/unknown.data c
	# the live walk once called a missing update step for the type
	# UINT32_MAX (found by the header and redact fuzz targets)
	python3 "$GEN" unknown "$f"
	export TMPDIR=$BATS_TEST_TMPDIR/no-such-dir
	for c in "${COMMANDS[@]}"; do
		same_as_file "$f" "$c"
	done
	run bash -c "cat '$f' | '$PERFDUMP' -j records - 2>&1 >'$BATS_TEST_TMPDIR/out'"
	assert_eq "$status" 0 "exit status"
	assert_eq "$output" "" "stderr"
	output=$(cat "$BATS_TEST_TMPDIR/out")
	jq_eq '[.records[0] | .offset, .size, .type, .type_name]' '[16,8,4294967295,null]'
	jq_eq '[.records[] | select(.type == 9) | .event == "cpu-clock" and .ip != null] | (length > 0 and all)' 'true'
}

@test "stdin: a file-mode recording is spooled: byte-identical output" {
	local f c
	export TMPDIR=$BATS_TEST_TMPDIR/tmp
	mkdir "$TMPDIR"
	for f in testdata/cpu-clock.data testdata/zstd.data testdata/killed.data; do
		for c in "${COMMANDS[@]}"; do
			same_as_file "$f" "$c"
		done
		same_as_file "$f" -j records
	done
	assert_empty "$(ls -A "$TMPDIR")" "TMPDIR (the spool is unlinked)"
}

@test "stdin: a spool that cannot be made says where and why" {
	run --separate-stderr bash -c "cat testdata/cpu-clock.data | TMPDIR='$BATS_TEST_TMPDIR/no-such-dir' '$PERFDUMP' header -"
	assert_status 3
	assert_eq "$stderr" "perfdump: -: a file-mode recording on standard input is copied to a temporary file (it must be read out of order), but that failed in $BATS_TEST_TMPDIR/no-such-dir after 0 bytes: No such file or directory"
	assert_empty "$output" stdout
}

@test "stdin: a full TMPDIR (64 KiB tmpfs): No space left on device, and how much was written" {
	local T=$BATS_TEST_TMPDIR
	mkdir "$T/small"
	mount -t tmpfs -o size=64k tmpfs "$T/small" 2>/dev/null ||
		skip "cannot mount a tmpfs here (needs root and mount permission)"
	run --separate-stderr bash -c "cat testdata/allbits.data | TMPDIR='$T/small' '$PERFDUMP' stats -"
	umount "$T/small"
	assert_status 3
	assert_eq "$stderr" "perfdump: -: a file-mode recording on standard input is copied to a temporary file (it must be read out of order), but that failed in $T/small after 65536 bytes: No space left on device"
}

@test "stdin: not a perf.data stream is not spooled" {
	run --separate-stderr bash -c "head -c 1000 /dev/zero | TMPDIR='$BATS_TEST_TMPDIR/no-such-dir' '$PERFDUMP' -j header -"
	assert_status 1
	check_json
	jq_eq '[.errors[].detail]' '["not a perf.data file: the first 8 bytes are 00 00 00 00 00 00 00 00, not \"PERFILE2\" or \"PERFFILE\""]'
}

# A copy of threads.data whose data.0 (or data) is a FIFO.
fifo_dir() {
	local d=$BATS_TEST_TMPDIR/fifo.data
	cp -r testdata/threads.data "$d"
	rm "$d/$1"
	mkfifo "$d/$1"
	echo "$d"
}

@test "directory with a FIFO data.0: every command returns, data.0 skipped with not-regular-file" {
	local d c
	d=$(fifo_dir data.0)
	for c in "${COMMANDS[@]}" "records --order time"; do
		run --separate-stderr timeout 60 "$PERFDUMP" $c "$d"
		assert_status 1
		if [ "$c" = check ]; then # one line: what the findings add up to
			assert_eq "$stderr" "perfdump: $d: check: damaged: 1 error (not-regular-file 1)" "stderr of $c"
			continue
		fi
		assert_contains "$stderr" "perfdump: $d: data.0: $d/data.0 is a FIFO, not a regular file: its records are not read" "stderr of $c"
	done
	pdj -j check "$d"
	assert_status 1
	jq_eq '[.check.findings[] | [.offset, .severity, .structure, .code]]' '[[null,"error","data.0","not-regular-file"]]'
	# data.1 is still read: its 12000 bytes, and the data file's 5392
	jq_all '.check.summary.file_size' 17392
}

@test "directory whose data file is a FIFO: an I/O error, no hang" {
	local d
	d=$(fifo_dir data)
	run --separate-stderr timeout 60 "$PERFDUMP" header "$d"
	assert_status 3
	assert_eq "$stderr" "perfdump: $d: $d is a directory without a readable 'data' file: a FIFO"
}

@test "zstd bomb: a container decompressing past 16 MiB is decompressed-too-large" {
	local f=$BATS_TEST_TMPDIR/bomb.data
	python3 $GEN bomb "$f"
	pdj -j check "$f"
	assert_status 1
	jq_eq '[.check.findings[] | [.offset, .code, .message]]' '[[16,"decompressed-too-large","PERF_RECORD_COMPRESSED: the container decompresses to more than 16 MiB (16777216 bytes so far) out of 1514 compressed bytes; the rest of the stream is not read"]]'
	run --separate-stderr bash -c "PERFDUMP_READER=fast '$PERFDUMP' records '$f'"
	assert_status 1
	assert_contains "$stderr" "decompresses to more than 16 MiB"
}

@test "stdin: the reader tests' big pipe stream (late tracing data, AUXTRACE payloads) as from the file" {
	local f c
	export TMPDIR=$BATS_TEST_TMPDIR/no-such-dir
	python3 scripts/gen-readerdata.py "$BATS_TEST_TMPDIR/big" >/dev/null
	f=$BATS_TEST_TMPDIR/big/big-pipe.data
	for c in "${COMMANDS[@]}"; do
		[ "$c" = check ] && continue
		same_as_file "$f" "$c"
	done
	same_as_file "$f" -j stats
	same_as_file "$f" records --order time
	# check: the same summary (which findings are listed past the first
	# 10000 depends on the order they are found in: a live stream finds
	# the late tracing data's when it comes)
	run bash -c "'$PERFDUMP' -j check '$f' 2>/dev/null | jq -c '.check.summary'"
	local want=$output
	run bash -c "cat '$f' | '$PERFDUMP' -j check - 2>'$BATS_TEST_TMPDIR/err' >'$BATS_TEST_TMPDIR/out'; jq -c '.check.summary' '$BATS_TEST_TMPDIR/out'"
	assert_eq "$output" "$want" "check's summary"
	# the late tracing data's error, found as it came: in the findings,
	# and counted in the one line on stderr
	output=$(cat "$BATS_TEST_TMPDIR/out")
	jq_eq '[.check.findings[] | select(.offset == 1322928) | "\(.what): \(.message)"]' \
		'["HEADER_TRACING_DATA: magic: expected 17 08 44 \"tracing\", found 00 00 00 00 00 00 00 00 00 00"]'
	assert_contains "$(cat "$BATS_TEST_TMPDIR/err")" "feature-undecodable 1"
}
