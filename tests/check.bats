#!/usr/bin/env bats
# perfdump check: every fixture is sound with the record counts perf
# reports; every damaged file gives exactly its findings (code, offset,
# severity); the JSON contract; the text golden; exit status.

load helpers

# check_sound FILE RECORDS: exit 0, no error, RECORDS records checked
# (perf report --stats TOTAL in testdata/perf-ref), every byte covered.
check_sound() {
	pdj -j check "$1"
	assert_status 0
	assert_empty "$stderr" "stderr of 'check $1'"
	jq_all \
		'.check.sound' true \
		'.check.summary.errors' 0 \
		'.check.summary.warnings' 0 \
		'[(.check.findings | length), (.errors | length), (.warnings | length)]' '[0,0,0]' \
		'.check.summary.records_checked' "$2" \
		'.check.summary.result' '"sound"' \
		'.check.summary.bytes_covered == .check.summary.file_size' true
}

# check_findings FILE STATUS JSON: exactly these [offset, severity, code]
# findings, in order, and the errors/warnings arrays agree with them.
check_findings() {
	pdj -j check "$1"
	assert_status "$2"
	jq_all \
		'[.check.findings[] | [.offset, .severity, .code]]' "$3" \
		'[.check.findings[] | select(.severity == "error") | .offset] == [.errors[].offset]' true \
		'[.check.findings[] | select(.severity == "warning") | .offset] == [.warnings[].offset]' true \
		'.check.summary.errors == ([.check.findings[] | select(.severity == "error")] | length)' true \
		'.check.summary.warnings == ([.check.findings[] | select(.severity == "warning")] | length)' true \
		'.check.sound == (.check.summary.errors == 0)' true \
		'all(.check.findings[]; (.structure | type == "string") and (.message | length > 0) and (.values | type == "object"))' true
}

TOTAL_cpu_clock=406 TOTAL_callgraph=524 TOTAL_zstd=505 TOTAL_pipe=433
TOTAL_threads=564 TOTAL_tracepoint=285 TOTAL_group=829 TOTAL_mono=406
TOTAL_stat=11 TOTAL_allbits=139

@test "check: record counts agree with perf report --stats TOTAL (perf-ref)" {
	local f n v
	for f in cpu-clock callgraph zstd pipe threads tracepoint group mono stat allbits; do
		n=$(awk '/TOTAL events:/ {print $3; exit}' "testdata/perf-ref/$f.data.stats.txt")
		v=TOTAL_${f//-/_}
		assert_eq "${!v}" "$n" "perf's TOTAL for $f.data"
	done
}

@test "check cpu-clock.data is sound: 406 records" { check_sound testdata/cpu-clock.data 406; }
@test "check callgraph.data is sound: 524 records" { check_sound testdata/callgraph.data 524; }
@test "check zstd.data is sound: 505 records (decompressed, containers counted)" { check_sound testdata/zstd.data 505; }
@test "check pipe.data is sound: 433 records" { check_sound testdata/pipe.data 433; }
# bats test_tags=asan
@test "check threads.data (directory) is sound: 564 records" { check_sound testdata/threads.data 564; }
@test "check tracepoint.data is sound: 285 records" { check_sound testdata/tracepoint.data 285; }
@test "check group.data is sound: 829 records" { check_sound testdata/group.data 829; }
@test "check mono.data is sound: 406 records" { check_sound testdata/mono.data 406; }
@test "check stat.data is sound: 11 records" { check_sound testdata/stat.data 11; }
@test "check allbits.data is sound: 139 records" { check_sound testdata/allbits.data 139; }

# ------------------------------------------- what perf reads out of order

# perf_late NAME: the times (s.us, as perf prints them) of the records perf
# queued after its last flush, from `perf --debug ordered-events=1 report
# -D` (perf-ref/NAME.order.txt: "[  1513.300286] out of order event")
perf_late() {
	sed -n 's/^\[ *\([0-9.]*\)\] out of order event$/\1/p' "testdata/perf-ref/$1.order.txt"
}

# our_late: the same times of check's time-backwards-across-round findings
our_late() {
	jq -r '.check.findings[] | select(.code == "time-backwards-across-round") | .values.time' <<<"$output" |
		awk '{ printf "%d.%06d\n", int($1 / 1e9), int(($1 % 1e9) / 1e3) }'
}

# perf reads these files and counts the records it processes late
# (ordered-events.c: nr_unordered_events); check lists each as a warning,
# with perf's count in the summary, and exits 0
@test "check: records perf reads out of order are warnings, the ones perf counts" {
	# one sample moved after the last FINISHED_ROUND of a real recording;
	# perf: "1 out of order events recorded."
	check_findings testdata/synthetic/check-reorder.data 0 '[[66632,"warning","time-backwards-across-round"]]'
	assert_empty "$stderr" "stderr of check"
	assert_eq "$(our_late)" "$(perf_late synthetic/check-reorder.data)" "check-reorder.data: perf's late records"
	jq_all '.check.summary | [.out_of_order_events, .max_late_ns, .max_late_offset, .result]' '[1,48532,66632,"sound"]' \
		'.check.findings[0].values | [.late_ns, .last_flush - .time]' '[48532,48532]'
	assert_eq "$(sed -n 's/^\([0-9]*\) out of order events recorded\.$/\1/p' testdata/perf-ref/synthetic/check-reorder.data.order.txt)" 1
	# --overwrite: the backward buffer comes after rounds that flushed past
	# it; perf counts 11 and does not warn (session.c: perf_session__warn_order)
	pdj -j check testdata/tail-mixed.data
	assert_status 0
	assert_eq "$(our_late)" "$(perf_late tail-mixed.data)" "tail-mixed.data: perf's late records"
	jq_all '.check.summary | [.errors, .warnings, .out_of_order_events]' '[0,11,11]' \
		'[.check.findings[].message | test("written backwards")] | all' true
	# the issue's recording itself: perf found nothing late, nor does check
	check_sound testdata/irq-syscalls.data 601
	assert_empty "$(perf_late irq-syscalls.data)" "perf's late records in irq-syscalls.data"
	assert_eq "$(awk '/TOTAL events:/ { print $3; exit }' testdata/perf-ref/irq-syscalls.data.stats.txt)" 601
}

@test "check cpu-clock.data: perf's unused feature table entries are not unreferenced bytes" {
	# perf reserved 2 more table entries than features written (0x4300-0x4320)
	assert_eq "$(hexbytes testdata/cpu-clock.data $((0x4300)) 32)" "$(printf '0%.0s' {1..64})"
	check_sound testdata/cpu-clock.data 406
	jq_eq '.check.summary.bytes_covered' 21572
}

@test "check killed.data: data.size 0 while 8 records follow, exit 1" {
	check_findings testdata/killed.data 1 '[[48,"error","data-size-zero-with-records"]]'
	jq_all \
		'.check.findings[0].structure' '"header"' \
		'.check.findings[0].values' '{"data_offset":"0x108","records":8}' \
		'.check.summary.records_checked' 8 \
		'.check.summary.bytes_covered' 632 \
		'.check.summary.file_size' 632
	assert_eq "$stderr" "perfdump: testdata/killed.data: 0x30: check: damaged: 1 error (data-size-zero-with-records 1); repair: data.size (the header field at 0x30) should be 0x170: the whole records run from data.offset 0x108 to 0x278 (perf record did not rewrite the header); repair: the feature bitmap (the 32 bytes at 0x48) should be 0: no feature section follows the records (perf record wrote none)"
	jq_all '[.check.repairs[] | del(.message)]' '[{"field":"data.size","offset":48,"size":8,"value":"0x170"},{"field":"feature bitmap","offset":72,"size":32,"value":"0x0"}]' \
		'.check.cause' null \
		'.check.groups' '[{"code":"data-size-zero-with-records","severity":"error","count":1,"first_offset":48}]'
}

# bats test_tags=asan
@test "check killed.data: the repairs it names make the file sound, and perf reads it" {
	local f=$BATS_TEST_TMPDIR/repaired.data
	cp testdata/killed.data "$f"
	# data.size, the u64 at 0x30: 0x170, little-endian; the bitmap 0
	printf '\x70\x01' | dd of="$f" bs=1 seek=48 conv=notrunc status=none
	dd if=/dev/zero of="$f" bs=1 seek=72 count=32 conv=notrunc status=none
	check_findings "$f" 0 '[]'
	jq_all '.check.summary.records_checked' 8 '.check.repairs' '[]'
	assert_empty "$stderr" stderr
	# perf's counts of the repaired file (testdata/README.md, killed.data)
	pdj -j stats "$f"
	assert_eq "$(jq -r '.stats.records.types[] | "\(.name) \(.count)"' <<<"$output" | LC_ALL=C sort)" \
		"$(awk '/events:/ && $1 != "TOTAL" { print $1, $3 }' testdata/perf-ref/killed.data.repaired.stats.txt | LC_ALL=C sort)"
}

# bats test_tags=asan,normal
@test "check check-sample-type.data: 1276 findings, grouped by code, and their cause named" {
	pdj -j check testdata/synthetic/check-sample-type.data
	assert_status 1
	jq_all '.check.findings | length' 1276 \
		'[.check.findings[0,1] | [.offset, .severity, .code]]' '[[376,"error","sample-size-mismatch"],[328,"warning","unknown-sample-id"]]' \
		'.check.groups' '[{"code":"sample-size-mismatch","severity":"error","count":638,"first_offset":376},{"code":"unknown-sample-id","severity":"warning","count":638,"first_offset":328}]' \
		'.check.cause | del(.message)' '{"code":"sample-size-mismatch","attr":0,"sample_type":"0x1c7","sample_type_names":["IP","TID","TIME","ID","CPU","PERIOD"],"implied_size":56,"samples":638,"misfits":638,"size":48,"size_count":638,"first_offset":328,"other_findings":638}' \
		'.check.cause.message' '"attr 0 (cpu-clock:ku)'"'"'s sample_type (IP|TID|TIME|ID|CPU|PERIOD) implies 56-byte samples; 638 of its 638 samples are 48 bytes: their fields are read from the wrong places, which likely explains the 638 other findings on samples"' \
		'[(.errors | length), (.warnings | length)]' '[638,638]'
	# stderr: one line, the summary; each finding is in the output once
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
	assert_contains "$stderr" "perfdump: testdata/synthetic/check-sample-type.data: 0x178: check: damaged: 638 errors (sample-size-mismatch 638); likely cause: attr 0 (cpu-clock:ku)'s sample_type"
	# text: the cause, the groups, the first 10 findings of each code
	pd check testdata/synthetic/check-sample-type.data
	assert_status 1
	assert_contains "$output" "    message:                attr 0 (cpu-clock:ku)'s sample_type (IP|TID|TIME|ID|CPU|PERIOD) implies 56-byte samples"
	assert_contains "$output" $'  groups:\n    sample-size-mismatch:   severity=error count=638 first_offset=0x178\n    unknown-sample-id:      severity=warning count=638 first_offset=0x148\n'
	[ "$(grep -c '^    error 0x[0-9a-f]* record SAMPLE \[sample-size-mismatch\]' <<<"$output")" = 10 ]
	[ "$(grep -c '^    warning 0x[0-9a-f]* record SAMPLE \[unknown-sample-id\]' <<<"$output")" = 10 ]
}

@test "check: a sound file has no cause, repairs or groups, and says nothing on stderr" {
	pdj -j check testdata/cpu-clock.data
	jq_all '[.check.cause, .check.repairs, .check.groups]' '[null,[],[]]'
	assert_empty "$stderr" stderr
	pd check testdata/cpu-clock.data
	[[ $output != *groups:* && $output != *cause:* && $output != *repairs:* ]]
}

@test "check: the synthetic files that are sound" {
	local f
	for f in full-le full-be attr-big attrs-after-data hdr72 v1 pipe-le pipe-be; do
		pdj -j check "testdata/synthetic/$f.data"
		assert_status 0
		jq_all '[.check.summary.errors, .check.summary.warnings]' '[0,0]'
	done
	check_findings testdata/synthetic/full-le.data 0 '[]'
	jq_eq '.check.summary.records_checked' 7
}

@test "check full-be32.data: the bitmap guess is a warning, exit 0" {
	check_findings testdata/synthetic/full-be32.data 0 '[[72,"warning","bitmap-guess"]]'
}

@test "check unknown-features.data: unknown feature bits are warnings" {
	check_findings testdata/synthetic/unknown-features.data 0 \
		'[[440,"warning","unknown-feature"],[456,"warning","unknown-feature"],[488,"warning","unknown-feature"]]'
	jq_all \
		'[.check.findings[] | .structure]' '["feature 40","feature 100","feature 200"]' \
		'[.check.findings[] | .values.bit]' '[40,100,200]'
}

@test "check zero-magic.data: header size 999" {
	check_findings testdata/synthetic/zero-magic.data 1 '[[8,"error","bad-header-size"]]'
}

# bats test_tags=asan
@test "check trunc-header.data: the header is cut at 50" {
	check_findings testdata/synthetic/trunc-header.data 1 '[[50,"error","header-truncated"]]'
}

@test "check trunc-attrs.data: sections past the end of the file" {
	check_findings testdata/synthetic/trunc-attrs.data 1 \
		'[[24,"error","section-out-of-file"],[40,"error","section-out-of-file"],[864,"error","section-out-of-file"]]'
}

@test "check trunc-data.data: a SAMPLE extends past the end of the data" {
	check_findings testdata/synthetic/trunc-data.data 1 \
		'[[40,"error","section-out-of-file"],[864,"error","section-out-of-file"],[616,"error","record-past-end"]]'
	jq_eq '.check.findings[2].structure' '"record"'
}

@test "check trunc-feattable.data: the feature table is cut" {
	check_findings testdata/synthetic/trunc-feattable.data 1 \
		'[[864,"error","section-out-of-file"],[864,"error","section-out-of-file"],[880,"error","section-out-of-file"],[896,"error","section-out-of-file"],[912,"error","section-out-of-file"],[928,"error","section-out-of-file"]]'
}

# bats test_tags=asan
@test "check trunc-feature.data: EVENT_DESC torn, count larger than what is left" {
	pdj -j check testdata/synthetic/trunc-feature.data
	assert_status 1
	jq_all \
		'[.check.findings[] | select(.code != "section-out-of-file") | [.offset, .structure, .code]]' \
			'[[5675,"feature EVENT_DESC","feature-truncated"],[5583,"feature EVENT_DESC","count-too-large"]]' \
		'[.check.findings[] | select(.code == "section-out-of-file")] | length' 19
}

@test "check check-overlap.data: overlapping sections" {
	check_findings testdata/synthetic/check-overlap.data 1 \
		'[[56,"error","section-overlap"],[408,"error","section-overlap"],[440,"warning","unreferenced-bytes"]]'
	jq_all \
		'[.check.findings[] | .structure]' '["header","feature table","file"]' \
		'.check.findings[2].values' '{"start":"0x1b8","end":"0x1fc","size":68}'
}

@test "check check-features.data: no NUL, short section, count too large" {
	check_findings testdata/synthetic/check-features.data 1 \
		'[[456,"error","feature-short"],[444,"error","string-no-nul"],[460,"error","count-too-large"]]'
	jq_eq '[.check.findings[] | .structure]' '["feature NRCPUS","feature HOSTNAME","feature CMDLINE"]'
}

@test "check check-small-record.data: a record of 4 bytes" {
	check_findings testdata/synthetic/check-small-record.data 1 '[[328,"error","record-too-small"]]'
	jq_eq '.check.summary.records_checked' 1
}

@test "check check-misaligned.data: a 60-byte COMM" {
	check_findings testdata/synthetic/check-misaligned.data 1 '[[272,"error","record-misaligned"]]'
	jq_all \
		'.check.findings[0].structure' '"record COMM"' \
		'.check.findings[0].values' '{"size":60}' \
		'.check.summary.records_checked' 2
}

@test "check check-unknown-id.data: ids of no attr, in a COMM and a SAMPLE" {
	check_findings testdata/synthetic/check-unknown-id.data 1 \
		'[[440,"error","unknown-sample-id"],[496,"error","unknown-sample-id"]]'
	jq_all \
		'[.check.findings[] | .structure]' '["record COMM","record SAMPLE"]' \
		'.check.findings[0].values' '{"id":"0x998"}'
}

@test "check check-layout.data: attrs whose sample_id layouts disagree" {
	check_findings testdata/synthetic/check-layout.data 1 '[[288,"error","sample-id-layout-mismatch"]]'
	jq_eq '.check.findings[0].structure' '"attrs"'
}

# perf reads such a file and says "2 out of order events recorded": warnings
@test "check check-time.data: time backwards across FINISHED_ROUND" {
	check_findings testdata/synthetic/check-time.data 0 \
		'[[456,"warning","time-backwards-across-round"],[520,"warning","time-backwards-across-round"]]'
	jq_all \
		'.check.findings[0].values' '{"time":1000000000500,"last_flush":1000000001000,"late_ns":500,"finished_round_offset":"0x188"}' \
		'.check.findings[1].values' '{"time":1000000001900,"last_flush":1000000002000,"late_ns":100,"finished_round_offset":"0x200"}' \
		'.check.summary | [.records_checked, .out_of_order_events, .max_late_ns, .max_late_offset, .result]' '[9,2,500,456,"sound"]'
}

@test "check check-sample-size.data: samples too long and too short" {
	check_findings testdata/synthetic/check-sample-size.data 1 \
		'[[384,"error","sample-size-mismatch"],[432,"error","sample-size-mismatch"]]'
	jq_eq '[.check.findings[] | .structure]' '["record SAMPLE","record SAMPLE"]'
}

@test "check check-warnings.data: warnings alone exit 0, and are listed" {
	check_findings testdata/synthetic/check-warnings.data 0 \
		'[[328,"warning","unknown-record-type"],[592,"warning","unreferenced-padding"],[616,"warning","trailing-bytes"]]'
	jq_all \
		'.check.sound' true \
		'.check.findings[0].values' '{"type":200,"size":16}' \
		'.check.findings[2].values' '{"start":"0x268","end":"0x26d","size":5}' \
		'.check.summary.bytes_covered' 600 \
		'.check.summary.file_size' 621
	assert_empty "$stderr" "stderr (warnings are not printed there)"
}

@test "check check-zstd-torn.data: compressed records decompress to a torn record" {
	check_findings testdata/synthetic/check-zstd-torn.data 1 '[[328,"error","torn-compressed-record"]]'
	jq_all \
		'.check.findings[0].structure' '"record COMPRESSED"' \
		'.check.summary.records_checked' 3
}

@test "check check-zstd-bad.data: a compressed record that does not decompress" {
	check_findings testdata/synthetic/check-zstd-bad.data 1 '[[328,"error","decompress-failed"]]'
	# the SAMPLE after it is still read
	jq_eq '.check.summary.records_checked' 3
}

# records perf reads out of order are warnings: exit 0, nothing on stderr
@test "check: text golden for check-time.data" {
	pd check testdata/synthetic/check-time.data
	assert_status 0
	diff -u tests/golden-check/check-time.data.check.txt <(printf '%s\n' "$output")
	assert_empty "$stderr" "stderr of check"
}

@test "check: text lists findings and the summary" {
	pd check testdata/synthetic/check-warnings.data
	assert_status 0
	assert_contains "$output" "warning 0x148 record 200 [unknown-record-type]: message=\"record type 200 is not one perf or simpleperf defines"
	assert_contains "$output" "    result:                 sound"
	pd check testdata/cpu-clock.data
	assert_contains "$output" "  findings:                 (none)"
	assert_contains "$output" "    records_checked:        406"
}

@test "check -p: pretty JSON, same document" {
	pdj -p check testdata/synthetic/check-unknown-id.data
	assert_status 1
	jq_eq '[.check.findings[].code]' '["unknown-sample-id","unknown-sample-id"]'
}

@test "check: standard input (pipe mode)" {
	run --separate-stderr sh -c "'$PERFDUMP' -j check - <testdata/pipe.data"
	assert_status 0
	check_json '.check.summary.records_checked == 433 and .file == "-"'
}

@test "check: usage errors and I/O errors" {
	pd check a b
	assert_status 3
	assert_eq "$stderr" "perfdump: a: No such file or directory
perfdump: b: No such file or directory"
	pd check --nope testdata/cpu-clock.data
	assert_status 2
	pd check /nonexistent/perf.data
	assert_status 3
	assert_contains "$stderr" "perfdump: /nonexistent/perf.data: No such file or directory"
	pd check --help
	assert_status 0
	assert_contains "$output" "Usage: perfdump check [OPTIONS] [FILE...]"
}

# --------------------------------------------------------------- corpus

@test "check corpus: the four damaged files exit 1 at their offsets" {
	need_corpus
	check_findings "$CORPUS/perf_data_converter/perf.data.piped.corrupted.zero_size_sample-3.2" 1 \
		'[[49104,"error","record-too-small"]]'
	check_findings "$CORPUS/perf_data_converter/perf.data.piped.extrabyte-3.4" 1 \
		'[[577664,"error","trailing-bytes"]]'
	check_findings "$CORPUS/linux-perf-data/sleep.compressed2.pipe.data" 1 \
		'[[31808,"error","record-past-end"]]'
	check_findings "$CORPUS/platform_system_extras/invalid_perf.data" 1 \
		'[[0,"error","bad-magic"]]'
}

# bats test_tags=asan,normal
@test "check corpus: every other file has no error" {
	sweep
	need_corpus
	local f files=() bad
	while IFS= read -r f; do
		case $f in
		*zero_size_sample-3.2 | *extrabyte-3.4 | *sleep.compressed2.pipe.data | *invalid_perf.data) continue ;;
		esac
		files+=("$f")
	done < <(find "$CORPUS" -type f ! -name MANIFEST.md | LC_ALL=C sort)
	# one perfdump over all of them (exit 0: every file sound), one jq
	pd -j check "${files[@]}"
	assert_no_signal
	bad=$(jq -r -n --argjson n "${#files[@]}" '[inputs] |
		if length != $n then "\(length) documents for \($n) files" else .[] |
		select(.perfdump_json_version != 1 or .check.summary.errors != 0 or .check.sound != true) | .file end' <<<"$output")
	assert_empty "$bad" "files check calls damaged"
	assert_status 0
}

@test "check corpus: perf_data_converter weight_struct has 4 trailing bytes (a warning)" {
	need_corpus
	pdj -j check "$CORPUS/perf_data_converter/perf.data.weight_struct"
	assert_status 0
	jq_eq '[.check.findings[] | select(.code == "trailing-bytes") | [.offset, .severity, .values.size]]' \
		'[[1253196,"warning",4]]'
}
