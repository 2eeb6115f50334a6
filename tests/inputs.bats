#!/usr/bin/env bats
# Everyday inputs (issue 15): compressed recordings (zstd, xz, gzip, by
# their magic bytes) in file and pipe mode, on a FILE and on standard
# input; several FILEs at once (text, JSON, exit status, check --brief,
# features NAME FILE); the progress line under a pseudo-terminal; a closed
# pipe; bad option values.

load helpers
# bats file_tags=asan

# The compressed copies are made once, by the command-line tools, under
# the same names as the originals in their own directories, so that every
# output (its File: line too) can be compared byte for byte:
#   $Z/plain/NAME  the fixture     $Z/zst/NAME $Z/xz/NAME $Z/gz/NAME
setup_file() {
	local z=$BATS_FILE_TMPDIR/z n
	mkdir -p "$z/plain" "$z/zst" "$z/xz" "$z/gz"
	for n in cpu-clock.data pipe.data zstd.data; do
		cp "testdata/$n" "$z/plain/$n"
		zstd -q -c "testdata/$n" >"$z/zst/$n"
		xz -c "testdata/$n" >"$z/xz/$n"
		gzip -c "testdata/$n" >"$z/gz/$n"
	done
}

setup() {
	Z=$BATS_FILE_TMPDIR/z
}

# pd_in DIR ARGS...: perfdump ARGS in DIR; $status, $output, $stderr
pd_in() {
	local d=$1
	shift
	run --separate-stderr bash -c 'cd "$1" && shift && exec "$@"' sh "$d" "$PERFDUMP" "$@"
}

# same_output KIND NAME ARGS...: perfdump ARGS NAME gives the same stdout,
# stderr and status on the KIND copy as on the fixture
same_output() {
	local kind=$1 name=$2 want_out want_err want_st
	shift 2
	pd_in "$Z/plain" "$@" "$name"
	want_out=$output want_err=$stderr want_st=$status
	pd_in "$Z/$kind" "$@" "$name"
	assert_eq "$status" "$want_st" "$kind $name $*: status"
	assert_eq "$output" "$want_out" "$kind $name $*: stdout"
	assert_eq "$stderr" "$want_err" "$kind $name $*: stderr"
}

# ------------------------------------------------------- compressed inputs

# bats test_tags=normal
@test "compressed: zstd, xz and gzip copies give the fixtures' output, byte for byte" {
	local kind name args
	for kind in zst xz gz; do
		for name in cpu-clock.data pipe.data zstd.data; do
			# under the sanitizers: every decoder, mode and -z, two commands
			while read -r args; do
				# shellcheck disable=SC2086
				same_output "$kind" "$name" $args
			done < <(few 2 <<<"-j records
-j features
stats
records
check")
		done
	done
}

@test "compressed: header adds one line, input_compression, with both sizes" {
	local kind name csize dsize
	for kind in zst xz gz; do
		for name in cpu-clock.data pipe.data; do
			pd_in "$Z/plain" header "$name"
			local want=$output
			pd_in "$Z/$kind" header "$name"
			assert_status 0
			csize=$(file_size "$Z/$kind/$name")
			dsize=$(file_size "$Z/plain/$name")
			format=${kind/zst/zstd}
			format=${format/gz/gzip}
			assert_eq "$(sed -n 3p <<<"$output")" \
				"  input_compression:        format=$format compressed_size=$csize decompressed_size=$dsize"
			assert_eq "$(sed 3d <<<"$output")" "$want" "the other lines"
			pd_in "$Z/$kind" -j header "$name"
			check_json ".header.input_compression == {\"format\": \"$format\", \"compressed_size\": $csize, \"decompressed_size\": $dsize}"
		done
	done
	# not compressed: no such line
	pdj -j header testdata/cpu-clock.data
	jq_true '.header | has("input_compression") | not'
}

@test "compressed: standard input, a pipe or a redirected file, pipe and file mode" {
	local kind name want
	for name in pipe.data cpu-clock.data; do
		run --separate-stderr bash -c "'$PERFDUMP' records - <'$Z/plain/$name'"
		want=$output
		for kind in zst xz gz; do
			run --separate-stderr bash -c "cat '$Z/$kind/$name' | '$PERFDUMP' records -"
			assert_status 0
			assert_eq "$output" "$want" "$kind $name through a pipe"
			run --separate-stderr bash -c "'$PERFDUMP' records - <'$Z/$kind/$name'"
			assert_status 0
			assert_eq "$output" "$want" "$kind $name redirected"
		done
	done
}

@test "compressed: concatenated gzip members and zstd frames read as one stream" {
	local d=$BATS_TEST_TMPDIR
	head -c 10000 testdata/cpu-clock.data >"$d/a"
	tail -c +10001 testdata/cpu-clock.data >"$d/b"
	mkdir "$d/gz" "$d/zst"
	cat <(gzip -c "$d/a") <(gzip -c "$d/b") >"$d/gz/cpu-clock.data"
	cat <(zstd -q -c "$d/a") <(zstd -q -c "$d/b") >"$d/zst/cpu-clock.data"
	pd_in testdata records cpu-clock.data
	local want=$output
	pd_in "$d/gz" records cpu-clock.data
	assert_status 0
	assert_eq "$output" "$want" "two gzip members"
	pd_in "$d/zst" records cpu-clock.data
	assert_status 0
	assert_eq "$output" "$want" "two zstd frames"
}

@test "compressed: a cut .xz is an error at its offsets, exit 1, what was decoded shown" {
	local f=$BATS_TEST_TMPDIR/cut.xz p=$BATS_TEST_TMPDIR/cut-pipe.xz
	head -c 2000 "$Z/xz/cpu-clock.data" >"$f"
	head -c 2000 "$Z/xz/pipe.data" >"$p"
	# file mode: spooled up to where decoding stopped
	pd records "$f"
	assert_status 1
	assert_contains "$stderr" "perfdump: $f: 0x309b: compressed input: xz stream, at compressed offset 0x7d0: the compressed stream is cut short; the decompressed recording ends here"
	assert_contains "$output" "PERF_RECORD_COMM"
	pd -j check "$f"
	assert_status 1
	jq_true '[.check.findings[] | select(.code == "input-decompress-failed") | [.offset, .structure]] == [[12443, "file"]]'
	pd check --brief "$f"
	assert_eq "$output" "$f: damaged: 4 errors, first at 0x28: section-out-of-file"
	# pipe mode: decoded as it arrives, the records before the cut shown
	pd records "$p"
	assert_status 1
	assert_contains "$stderr" "perfdump: $p: 0x38bd: compressed input: xz stream, at compressed offset 0x7d0: the compressed stream is cut short; the decompressed recording ends here"
	[ "$(grep -c PERF_RECORD <<<"$output")" -gt 100 ]
	run --separate-stderr bash -c "'$PERFDUMP' -j records - <'$p'"
	assert_status 1
	check_json '[.errors[] | select(.what == "compressed input") | .offset] == [14525]'
}

@test "compressed: corrupt bytes, trailing garbage and an oversized window are errors" {
	local d=$BATS_TEST_TMPDIR
	# a byte flipped inside the zstd data
	cp "$Z/zst/pipe.data" "$d/flip.zst"
	printf '\xff\xff\xff\xff' | dd of="$d/flip.zst" bs=1 seek=1500 conv=notrunc status=none
	pd stats "$d/flip.zst"
	assert_status 1
	assert_contains "$stderr" "compressed input: zstd stream, at compressed offset 0x"
	assert_contains "$stderr" ": corrupt data ("
	# bytes after the gzip stream that are not another member
	{ cat "$Z/gz/cpu-clock.data"; printf 'garbage'; } >"$d/trail.gz"
	pd header "$d/trail.gz"
	assert_status 1
	assert_contains "$stderr" "perfdump: $d/trail.gz: 0x5444: compressed input: gzip stream, at compressed offset 0xef9: bytes after the end of the gzip stream that are not another gzip member"
	# a 128 MiB window or dictionary: refused, memory stays bounded
	zstd -q --long=27 -c <testdata/cpu-clock.data >"$d/long.zst"
	pd header "$d/long.zst"
	assert_status 1
	assert_contains "$stderr" "a frame's window is larger than the 64 MiB perfdump allows"
	xz --lzma2=dict=128MiB -c testdata/cpu-clock.data >"$d/dict.xz"
	pd header "$d/dict.xz"
	assert_status 1
	assert_contains "$stderr" "its dictionary needs 128 MiB, more than the 80 MiB perfdump allows"
}

@test "compressed: a spool that runs out of room says where and why, exit 3" {
	# a 10 KiB file size limit (SIGXFSZ ignored, so the write fails)
	run --separate-stderr bash -c "trap '' XFSZ; ulimit -f 10; TMPDIR='$BATS_TEST_TMPDIR' '$PERFDUMP' stats '$Z/zst/cpu-clock.data'"
	assert_status 3
	assert_empty "$output" stdout
	assert_eq "$stderr" "perfdump: $Z/zst/cpu-clock.data: a zstd-compressed file-mode recording is decompressed to a temporary file (it must be read out of order), but that failed in $BATS_TEST_TMPDIR after 10240 bytes: File too large"
}

# ---------------------------------------------------------- several files

@test "several files: one damaged gives exit 1 and every file's output" {
	local bad=testdata/synthetic/trunc-data.data
	pd check testdata/cpu-clock.data $bad testdata/pipe.data
	assert_status 1
	assert_eq "$(grep '^File: ' <<<"$output")" "File: testdata/cpu-clock.data
File: $bad
File: testdata/pipe.data"
	# the errors on stderr are the damaged file's
	assert_eq "$(grep -vc "^perfdump: $bad: " <<<"$stderr")" 0 "other stderr lines"
	# a file that cannot be read: 3 wins over 1, the others still shown
	pd stats $bad /nonexistent.data testdata/cpu-clock.data
	assert_status 3
	assert_eq "$(grep -c '^File: ' <<<"$output")" 2 "File: lines"
	assert_contains "$stderr" "perfdump: /nonexistent.data: No such file or directory"
}

@test "several files: -j writes one document per line, -p one after another, jq reads both" {
	pd -j header testdata/cpu-clock.data testdata/pipe.data
	assert_status 0
	assert_eq "$(wc -l <<<"$output")" 2 "lines"
	assert_eq "$(jq -c '[.file, .header.mode]' <<<"$output")" '["testdata/cpu-clock.data","file"]
["testdata/pipe.data","pipe"]'
	pd -p stats testdata/cpu-clock.data testdata/synthetic/trunc-data.data
	assert_status 1
	assert_eq "$(jq -s -c 'map([.file, (.errors | length)])' <<<"$output")" \
		'[["testdata/cpu-clock.data",0],["testdata/synthetic/trunc-data.data",3]]'
	# each line is a whole document, as one file gives it
	pd -j header testdata/pipe.data
	local one=$output
	pd -j header testdata/cpu-clock.data testdata/pipe.data
	assert_eq "$(sed -n 2p <<<"$output")" "$one" "second line"
}

@test "several files: options apply to each (records --limit), a directory is one recording" {
	pd -j records --limit 2 testdata/cpu-clock.data testdata/threads.data
	assert_status 0
	assert_eq "$(jq -c '[.file, (.records | length)]' <<<"$output")" '["testdata/cpu-clock.data",2]
["testdata/threads.data",2]'
	pd records --json-lines --limit 1 testdata/cpu-clock.data testdata/pipe.data
	assert_eq "$(jq -c 'select(.format) | .file' <<<"$output")" '"testdata/cpu-clock.data"
"testdata/pipe.data"'
}

@test "check --brief: one line per file, the line a CI job greps" {
	pd check --brief testdata/cpu-clock.data testdata/synthetic/check-overlap.data \
		testdata/killed.data testdata/threads.data
	assert_status 1
	assert_eq "$output" "testdata/cpu-clock.data: sound
testdata/synthetic/check-overlap.data: damaged: 2 errors, first at 0x38: section-overlap
testdata/killed.data: damaged: 1 error, first at 0x30: data-size-zero-with-records
testdata/threads.data: sound"
	assert_empty "$stderr" stderr
	pd -j check -b testdata/cpu-clock.data testdata/synthetic/check-overlap.data
	assert_status 1
	assert_eq "$(jq -c '.check' <<<"$output")" '{"summary":"sound","sound":true,"errors":0,"warnings":0,"first_error":null}
{"summary":"damaged: 2 errors, first at 0x38: section-overlap","sound":false,"errors":2,"warnings":1,"first_error":{"offset":56,"code":"section-overlap"}}'
	assert_eq "$(jq -c '.errors | length' <<<"$output")" '0
2'
}

@test "features: NAME FILE and FILE NAME; a name that is also a file is the file" {
	pd features testdata/cpu-clock.data hostname
	local want=$output
	pd features hostname testdata/cpu-clock.data
	assert_status 0
	assert_eq "$output" "$want" "NAME FILE"
	pd -j features nrcpus testdata/cpu-clock.data hostname testdata/pipe.data
	assert_eq "$(jq -c '[.file, [.features[].name]]' <<<"$output")" '["testdata/cpu-clock.data",["HOSTNAME","NRCPUS"]]
["testdata/pipe.data",["HOSTNAME","NRCPUS"]]'
	cp testdata/pipe.data "$BATS_TEST_TMPDIR/hostname"
	pd_in "$BATS_TEST_TMPDIR" -j features hostname
	check_json '.file == "hostname" and (.features | length) > 5'
	pd_in "$BATS_TEST_TMPDIR" -j features HOSTNAME hostname
	check_json '.file == "hostname" and [.features[].name] == ["HOSTNAME"]'
	pd features hostnam testdata/cpu-clock.data
	assert_status 2
	assert_eq "$stderr" "perfdump: features: 'hostnam' is neither a file nor a feature name (see 'perfdump features --list')
Try 'perfdump help features'."
}

# --------------------------------------------------------------- progress

# tty CMD: CMD under a pseudo-terminal (script); $output is what the
# terminal got
tty() {
	run script -qec "$1" /dev/null
}

@test "progress: under a terminal a line shows and is erased; never otherwise" {
	command -v script >/dev/null || skip "no script(1)"
	local f=testdata/callgraph.data esc=$'\033' re
	tty "PERFDUMP_PROGRESS_DELAY_MS=0 '$PERFDUMP' stats $f >/dev/null"
	assert_status 0
	re=$'^\r'"perfdump: $f: [0-9.]+ (B|KiB) of 50[.]8 KiB [(][0-9]+%[)], [0-9.]+ (B|KiB|MiB|GiB)/s$esc\\[K"
	[[ $output =~ $re ]] ||
		{ echo "no progress line: $(printf '%q' "$output")"; false; }
	assert_eq "${output: -4}" $'\r'"$esc[K" "the line erased at the end"
	# the output on the same terminal: erased before it starts
	tty "PERFDUMP_PROGRESS_DELAY_MS=0 '$PERFDUMP' header $f"
	[[ $output == $'\r'"perfdump: "*$'\r'"$esc[KFile: $f"* ]] ||
		{ echo "not erased before the output: $(printf '%q' "${output:0:300}")"; false; }
	# a compressed file-mode recording: the spool says so (its input, two
	# zstd frames, stalls for a second between them, the line is redrawn
	# four times a second)
	local d=$BATS_TEST_TMPDIR
	head -c 104 $f | zstd -q -c >"$d/1.zst"
	tail -c +105 $f | zstd -q -c >"$d/2.zst"
	tty "{ cat '$d/1.zst'; sleep 1; cat '$d/2.zst'; } |
		PERFDUMP_PROGRESS_DELAY_MS=0 '$PERFDUMP' stats - >/dev/null"
	assert_contains "$output" $'\r'"perfdump: -: decompressing "
	# --no-progress, or the default second: nothing
	tty "PERFDUMP_PROGRESS_DELAY_MS=0 '$PERFDUMP' --no-progress stats $f >/dev/null"
	assert_empty "$output" "--no-progress"
	tty "'$PERFDUMP' stats $f >/dev/null"
	assert_empty "$output" "a short run"
	# stderr not a terminal: nothing
	run --separate-stderr env PERFDUMP_PROGRESS_DELAY_MS=0 "$PERFDUMP" stats $f
	assert_empty "$stderr" "stderr to a pipe"
}

# --------------------------------------------------------- closed pipes

@test "a closed pipe: killed by SIGPIPE (141 under pipefail); a full disk: exit 3" {
	run bash -c "set -o pipefail; '$PERFDUMP' records testdata/callgraph.data 2>'$BATS_TEST_TMPDIR/err' | head -1"
	assert_status 141
	assert_eq "$output" "File: testdata/callgraph.data"
	assert_empty "$(cat "$BATS_TEST_TMPDIR/err")" stderr
	[ -w /dev/full ] || skip "no /dev/full"
	run bash -c "'$PERFDUMP' records testdata/callgraph.data >/dev/full"
	assert_status 3
	assert_eq "$output" "perfdump: cannot write output: No space left on device"
}

# --------------------------------------------------------- option values

@test "bad option values: the option, why, and 'perfdump help COMMAND'; exit 2" {
	local F=testdata/cpu-clock.data line
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086
		pd $args $F
		assert_status 2
		assert_empty "$output" "stdout of $args"
		assert_eq "$stderr" "perfdump: $want
Try 'perfdump help ${args%% *}'." "stderr of $args"
	done <<'EOF'
records --time 2548.5|records: --time: '2548.5' has no comma: as perf's --time, it takes START,END, or START, (from START on: '2548.5,'), or ,END (up to END)
records --time 1.0123456789,|records: --time: START '1.0123456789' is not a time in seconds as perf prints them (at most 9 decimals, e.g. 2548.123456)
records --time ,x|records: --time: END 'x' is not a time in seconds as perf prints them (at most 9 decimals, e.g. 2548.123456)
records --time 3,2|records: --time: END 2 is before START 3
records --time 10%/2|records: --time: '10%/2': perf's percentages (10%/2, 0%-10%) are not supported; give START,END in seconds
records --time 1,2,3|records: --time: '1,2,3': one START,END range only (perf's several ranges are not supported)
records --limit x|records: --limit: 'x' is not a count (a number, 0 or more)
records --skip -1|records: --skip: '-1' is not a count (a number, 0 or more)
records --at 0xg|records: --at: '0xg' is not a file offset (decimal, or hex with 0x)
records --pid abc|records: --pid: 'abc' is not a process id (a number, or -1)
records --cpu -1|records: --cpu: '-1' is not a CPU number
records --order random|records: --order: unknown value 'random'; values are: file time
records --type sample,nope|records: --type: unknown record type 'nope'; record types are: MMAP LOST COMM EXIT THROTTLE UNTHROTTLE FORK READ SAMPLE MMAP2 AUX ITRACE_START LOST_SAMPLES SWITCH SWITCH_CPU_WIDE NAMESPACES KSYMBOL BPF_EVENT CGROUP TEXT_POKE AUX_OUTPUT_HW_ID CALLCHAIN_DEFERRED HEADER_ATTR HEADER_EVENT_TYPE HEADER_TRACING_DATA HEADER_BUILD_ID FINISHED_ROUND ID_INDEX AUXTRACE_INFO AUXTRACE AUXTRACE_ERROR THREAD_MAP CPU_MAP STAT_CONFIG STAT STAT_ROUND EVENT_UPDATE TIME_CONV HEADER_FEATURE COMPRESSED FINISHED_INIT COMPRESSED2 BPF_METADATA SCHEDSTAT_CPU SCHEDSTAT_DOMAIN SP_KERNEL_SYMBOL SP_DSO SP_SYMBOL SP_SPLIT SP_SPLIT_END SP_EVENT_ID SP_CALLCHAIN SP_UNWINDING_RESULT SP_TRACING_DATA, or a number
records --type sample,,mmap|records: --type: unknown record type ''; record types are: MMAP LOST COMM EXIT THROTTLE UNTHROTTLE FORK READ SAMPLE MMAP2 AUX ITRACE_START LOST_SAMPLES SWITCH SWITCH_CPU_WIDE NAMESPACES KSYMBOL BPF_EVENT CGROUP TEXT_POKE AUX_OUTPUT_HW_ID CALLCHAIN_DEFERRED HEADER_ATTR HEADER_EVENT_TYPE HEADER_TRACING_DATA HEADER_BUILD_ID FINISHED_ROUND ID_INDEX AUXTRACE_INFO AUXTRACE AUXTRACE_ERROR THREAD_MAP CPU_MAP STAT_CONFIG STAT STAT_ROUND EVENT_UPDATE TIME_CONV HEADER_FEATURE COMPRESSED FINISHED_INIT COMPRESSED2 BPF_METADATA SCHEDSTAT_CPU SCHEDSTAT_DOMAIN SP_KERNEL_SYMBOL SP_DSO SP_SYMBOL SP_SPLIT SP_SPLIT_END SP_EVENT_ID SP_CALLCHAIN SP_UNWINDING_RESULT SP_TRACING_DATA, or a number
stats --top many|stats: --top: 'many' is not a count (a number, 0 or more)
stats --top +5|stats: --top: '+5' is not a count (a number, 0 or more)
profile --top x|profile: --top: 'x' is not a count (a number, 0 or more)
profile --top 18446744073709551616|profile: --top: '18446744073709551616' is not a count (a number, 0 or more)
records --cpu 4294967296|records: --cpu: '4294967296' is not a CPU number
check --bogus|check: unknown option '--bogus'
header -Q|header: unknown option '-Q'
EOF
	# a missing value names the option
	pd records $F --limit
	assert_status 2
	assert_eq "$stderr" "perfdump: records: option '--limit' needs a value
Try 'perfdump help records'."
	# before a command: the general help
	pd --bogus header $F
	assert_status 2
	assert_eq "$stderr" "perfdump: unknown option '--bogus'
Try 'perfdump --help'."
}

@test "records --time as perf takes it: START, from START on, ,END up to END" {
	local F=testdata/cpu-clock.data all from upto
	pd -j records --type sample $F
	all=$(jq -c '[.records[] | [.offset, .time]]' <<<"$output")
	pd -j records --type sample --time 193.085, $F
	from=$(jq -c '[.records[].offset]' <<<"$output")
	assert_eq "$from" "$(jq -c '[.[] | select(.[1] >= 193085000000) | .[0]]' <<<"$all")" "START,"
	pd -j records --type sample --time ,193.0853 $F
	upto=$(jq -c '[.records[].offset]' <<<"$output")
	assert_eq "$upto" "$(jq -c '[.[] | select(.[1] <= 193085300000) | .[0]]' <<<"$all")" ",END"
	[ "$from" != "[]" ] && [ "$upto" != "[]" ]
	pd -j records --type sample --time , $F
	assert_eq "$(jq -c '[.records[].offset]' <<<"$output")" "$(jq -c 'map(.[0])' <<<"$all")" ","
}
