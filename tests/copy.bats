#!/usr/bin/env bats
# perfdump copy: the recording written again as a file-mode perf.data.
# perf is the oracle: perf script on the copy prints what it prints on
# the input (with a filter, on the input with perf's own --pid, --tid,
# --cpu, --time), perf report --stats counts the same records, and
# perfdump check calls the copy sound.

load helpers
load copy
# bats file_tags=asan

setup() {
	command -v perf >/dev/null || skip "perf is not installed"
	OUT=$BATS_TEST_TMPDIR/out.data
}

@test "copy: file mode, pipe mode, -z, tracepoints and callchains: perf script and --stats as on the input" {
	local f
	for f in cpu-clock callgraph tracepoint zstd pipe tp-pipe group-s-pipe syswide; do
		rm -f "$OUT"
		copy_ok testdata/$f.data
		same_script testdata/$f.data "$OUT"
		# perf 6.1's report --stats stops in tp-pipe.data's tracing
		# data ("unexpected end of event stream"), its script does not
		[ $f = tp-pipe ] ||
			assert_eq "$(stat_lines "$OUT")" "$(stat_lines testdata/$f.data)"
	done
}

@test "copy: perfdump records reads the same records in the copy, but for their offsets" {
	local f
	for f in cpu-clock zstd pipe tracepoint; do
		rm -f "$OUT"
		copy_ok testdata/$f.data
		assert_eq "$(records_view "$OUT")" "$(records_view testdata/$f.data)"
	done
}

@test "copy: the document says what was written; -z's COMPRESSED feature is left out" {
	pdj -j copy testdata/zstd.data -o "$OUT"
	assert_status 0
	jq_all '.copy | [.records_read, .records_written, .samples_written, .records_damaged]' '[504,504,489,0]' \
		'.copy.notes' '["HEADER_COMPRESSED left out: the records are written decompressed"]' \
		'.copy.file_size' "$(file_size "$OUT")"
	pdj -j features "$OUT"
	jq_all '[.features[].name] | index("COMPRESSED")' 'null'
}

@test "copy: a pipe's tracing data is the file's feature without the record's padding" {
	local a
	pdj -j features testdata/tp-pipe.data
	jq_all '.features[] | select(.name == "TRACING_DATA") | [.size, .blob_size]' '[6912,6907]'
	for a in "" --redact; do
		# shellcheck disable=SC2086
		pdj -j $a copy --force testdata/tp-pipe.data -o "$OUT"
		assert_status 0
		pdj -j features "$OUT"
		jq_all '.features[] | select(.name == "TRACING_DATA") | [.size, .blob_size, (.unparsed_bytes // 0), .complete]' '[6907,6907,0,true]'
		same_script testdata/tp-pipe.data "$OUT"
	done
}

@test "copy: SAMPLE_TIME is the first and last sample written" {
	pdj -j copy --time 1661.9,1661.95 testdata/killed-u.data -o "$OUT"
	assert_status 1
	perf_run script -F time -i "$OUT"
	local first last
	first=$(head -1 <<<"$output" | tr -d ' :')
	last=$(tail -1 <<<"$output" | tr -d ' :')
	pdj -j features "$OUT"
	jq_all '.features[] | select(.name == "SAMPLE_TIME") | [.first_sample_time_s, .last_sample_time_s]' "[\"$first\",\"$last\"]"
}

@test "copy: a killed recording (data.size 0, no feature table) becomes one perf reports without a warning" {
	pdj -j copy testdata/killed-u.data -o "$OUT"
	# the input was damaged, the copy repaired it
	assert_status 1
	jq_all '.copy.samples_written' '398' '.errors[0].offset' '48'
	pd check -b "$OUT"
	assert_eq "$output" "$OUT: sound"
	perf_run report --stats -i "$OUT"
	assert_status 0
	assert_eq "$stderr" ""
	assert_contains "$output" "          SAMPLE events:        398"
	pdj -j stats testdata/killed-u.data
	jq_all '.stats.samples.total' '398'
	perf_run report -i "$OUT" --stdio
	assert_status 0
	assert_eq "$stderr" ""
}

@test "copy: a killed recording torn inside its last sample: the whole records, perf reads them all" {
	local torn=$BATS_TEST_TMPDIR/torn.data
	head -c 16990 testdata/killed-u.data >"$torn"
	pdj -j copy "$torn" -o "$OUT"
	assert_status 1
	jq_all '.copy | [.records_written, .samples_written]' '[411,397]'
	pd check -b "$OUT"
	assert_eq "$output" "$OUT: sound"
	perf_run report --stats -i "$OUT"
	assert_status 0
	assert_eq "$stderr" ""
	assert_contains "$output" "          SAMPLE events:        397"
}

@test "copy --pid, --tid, --cpu, --time: perf script on the copy is perf script's with the same filter" {
	local a
	for a in "--pid 25609" "--tid 32000" "--cpu 1" "--time 4021.2,4021.25" \
		"--pid 32000 --time 4021.2,"; do
		rm -f "$OUT"
		# shellcheck disable=SC2086
		copy_ok $a testdata/syswide.data
		# shellcheck disable=SC2086
		same_script testdata/syswide.data "$OUT" $a
	done
}

@test "copy --event: the samples of that event, as perf script shows them among the others" {
	copy_ok --event task-clock testdata/group.data
	perf_run script -i testdata/group.data
	local want
	want=$(grep ' task-clock:' <<<"$output")
	perf_run script -i "$OUT"
	assert_eq "$output" "$want"
}

@test "copy: an existing OUT is replaced only with --force" {
	echo old >"$OUT"
	pd copy testdata/cpu-clock.data -o "$OUT"
	assert_status 3
	assert_contains "$stderr" "exists; --force replaces it"
	assert_eq "$(cat "$OUT")" "old"
	pd copy --force testdata/cpu-clock.data -o "$OUT"
	assert_status 0
	pd check -b "$OUT"
	assert_eq "$output" "$OUT: sound"
}

@test "copy: OUT is never FILE: the same path, a hard link, a symbolic link, -o - >> FILE; FILE unchanged" {
	local d=$BATS_TEST_TMPDIR o s
	cp testdata/cpu-clock.data "$d/in.data"
	ln "$d/in.data" "$d/hard.data"
	ln -s in.data "$d/sym.data"
	for o in in.data hard.data sym.data; do
		pd copy --force "$d/in.data" -o "$d/$o"
		assert_status 2
		assert_eq "$stderr" "perfdump: copy: '$d/$o' is the input '$d/in.data': an output never replaces its input"
		cmp testdata/cpu-clock.data "$d/in.data"
	done
	[ -L "$d/sym.data" ]
	assert_eq "$(find "$d" -maxdepth 1 -name '.perfdump-*')" ""
	# -o - with standard output appending to FILE (or a link to it)
	for o in in.data hard.data; do
		"$PERFDUMP" copy "$d/in.data" -o - >>"$d/$o" 2>"$d/err" && s=0 || s=$?
		assert_eq "$s" 2
		assert_eq "$(cat "$d/err")" "perfdump: copy: standard output is the input '$d/in.data': an output never replaces its input"
		cmp testdata/cpu-clock.data "$d/in.data"
	done
}

@test "copy: a copy that fails leaves an existing OUT as it was, and no temporary file" {
	echo old >"$OUT"
	pd copy --force --tid 5 - -o "$OUT" <testdata/pipe.data
	assert_status 3
	assert_contains "$stderr" "--tid on a stream read as it arrives"
	assert_eq "$(cat "$OUT")" "old"
	assert_eq "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name '.perfdump-*')" ""
}

@test "copy: usage errors: no -o, two FILEs, a bad --pid" {
	pd copy testdata/cpu-clock.data
	assert_status 2
	assert_contains "$stderr" "copy: -o OUT"
	pd copy testdata/cpu-clock.data testdata/pipe.data -o "$OUT"
	assert_status 2
	pd copy --pid x testdata/cpu-clock.data -o "$OUT"
	assert_status 2
	assert_eq "${stderr%%$'\n'*}" "perfdump: copy: --pid: 'x' is not a process id (a number, or -1)"
}

@test "copy: a full disk: exit 3, and no half file left" {
	local d=$BATS_TEST_TMPDIR/full left
	mkdir "$d"
	mount -t tmpfs -o size=64k tmpfs "$d" 2>/dev/null || skip "cannot mount a tmpfs"
	head -c 40000 /dev/zero >"$d/filler"
	pd copy testdata/callgraph.data -o "$d/out.data"
	left=$(ls -A "$d")
	umount "$d" 2>/dev/null || true
	assert_status 3
	assert_contains "$stderr" "No space left on device"
	assert_eq "$left" "filler"
}

@test "copy: an unwritable directory: exit 3" {
	local d=$BATS_TEST_TMPDIR/ro
	mkdir "$d"
	mount -t tmpfs -o ro,size=64k tmpfs "$d" 2>/dev/null || skip "cannot mount a tmpfs"
	pd copy testdata/cpu-clock.data -o "$d/out.data"
	umount "$d" 2>/dev/null || true
	assert_status 3
	assert_contains "$stderr" "Read-only file system"
}

@test "copy: a pipe stream on standard input is written as a file; --tid there needs --pid" {
	pd copy - -o "$OUT" <testdata/pipe.data
	assert_status 0
	pd check -b "$OUT"
	assert_eq "$output" "$OUT: sound"
	same_script testdata/pipe.data "$OUT"
	rm -f "$OUT"
	pd copy --tid 5 - -o "$OUT" <testdata/pipe.data
	assert_status 3
	assert_contains "$stderr" "--tid on a stream read as it arrives"
	[ ! -e "$OUT" ]
}

# bid_list FILE [-H]: perf buildid-list on FILE (with -H: the DSOs hit)
bid_list() {
	perf_run buildid-list -i "$@"
	assert_status 0
	sort <<<"$output"
}

@test "copy --build-ids hit: the BUILD_ID entries perf buildid-list -H lists, no more" {
	local f want
	for f in buildid syswide tail-mixed profile/profile-sh; do
		pdj -j copy --force --build-ids hit testdata/$f.data -o "$OUT"
		assert_status 0
		want=$(bid_list testdata/$f.data -H)
		[ -n "$want" ] || {
			echo "perf buildid-list -H lists nothing on $f"
			return 1
		}
		assert_eq "$(bid_list "$OUT")" "$want"
		assert_eq "$(bid_list "$OUT" -H)" "$want"
		same_script testdata/$f.data "$OUT"
	done
	# buildid.data's [vdso] has no sample
	pdj -j copy --force --build-ids hit testdata/buildid.data -o "$OUT"
	jq_all '.copy.notes' '["HEADER_BUILD_ID: 4 of 5 entries written, those of the DSOs the written samples hit"]'
}

@test "copy --build-ids hit --pid: the DSOs of that process's samples, as perf buildid-list -H finds them in the copy" {
	local a all=$BATS_TEST_TMPDIR/all.data
	for a in "--pid 25609" "--pid 25344" "--cpu 1" "--time 4021.2,4021.25"; do
		# shellcheck disable=SC2086
		"$PERFDUMP" copy --force $a testdata/syswide.data -o "$all" >/dev/null
		# shellcheck disable=SC2086
		pd copy --force --build-ids hit $a testdata/syswide.data -o "$OUT"
		assert_status 0
		assert_eq "$(bid_list "$OUT")" "$(bid_list "$all" -H)"
	done
	# fewer than all: the point of it
	"$PERFDUMP" copy --force --build-ids hit --pid 25344 testdata/syswide.data -o "$OUT" >/dev/null
	assert_eq "$(bid_list "$OUT" | wc -l)" 1
	assert_eq "$(bid_list testdata/syswide.data | wc -l)" 5
	# --redact on top: the entries hit, redacted (the [vdso] has no hit)
	pdj -j --redact copy --force --build-ids hit testdata/redact.data -o "$OUT"
	assert_status 0
	assert_eq "$(bid_list "$OUT")" "4a5a9b0affb66c437abcd455d2738af879985fa9 [kernel.kallsyms]
7ebc65e52f2bbea498b4040fa92f7238377aaba9 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
93ac61ec5a8eb1396f9fbd350e3169a558528a40 /usr/lib/x86_64-linux-gnu/libc.so.6
e59f954969893171a6b23be9244b941749e1257f <dir-1>/worker"
}

@test "copy --build-ids: a pipe-mode recording is refused (it is read a single time); a bad value is a usage error" {
	pd copy --build-ids hit testdata/pipe.data -o "$OUT"
	assert_status 3
	assert_contains "$stderr" "--build-ids hit: a pipe-mode recording is read a single time, as it arrives; copy it to a file first, then copy that"
	[ ! -e "$OUT" ]
	pd copy --build-ids some testdata/cpu-clock.data -o "$OUT"
	assert_status 2
	assert_contains "$stderr" "copy: --build-ids some: all or hit"
	# to a pipe, from a file: the HEADER_BUILD_ID records of the hits
	"$PERFDUMP" copy --build-ids hit testdata/buildid.data -o - >"$OUT"
	assert_eq "$(bid_list "$OUT")" "$(bid_list testdata/buildid.data -H)"
}
