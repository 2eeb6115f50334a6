#!/usr/bin/env bats
# perfdump stats: counts checked against perf's own view of the same
# files (testdata/perf-ref: `perf report --stats`, `perf script`), against
# the corpus MANIFEST, and against perfdump's full decoder (`records -j`),
# which reads every field, where stats reads only the few a count needs.

load helpers

REF=testdata/perf-ref

# stats_of FILE: perfdump -j stats FILE into $output, checked as JSON
stats_of() {
	pdj -j stats "$1"
}

# perf_total NAME: perf's TOTAL events
perf_total() {
	awk '/TOTAL events:/ { print $3; exit }' "$REF/$1.stats.txt"
}

# perf_event_samples NAME: "EVENT N" per event, from "EVENT stats:" blocks
perf_event_samples() {
	awk '/ stats:$/ && !/Aggregated/ { ev = $0; sub(/ stats:$/, "", ev) }
	     ev != "" && /SAMPLE events:/ { print ev, $3; ev = "" }' "$REF/$1.stats.txt" |
		LC_ALL=C sort
}

# our_counts: "TYPE N" from $output, perf's names for the user types
our_counts() {
	jq -r '.stats.records.types[] | "\(.name // "UNKNOWN") \(.count)"' <<<"$output" |
		sed 's/^HEADER_ATTR /ATTR /; s/^HEADER_FEATURE /FEATURE /;
		     s/^HEADER_EVENT_TYPE /EVENT_TYPE /; s/^HEADER_TRACING_DATA /TRACING_DATA /;
		     s/^HEADER_BUILD_ID /BUILD_ID /' | LC_ALL=C sort
}

# ------------------------------------------------ against perf --stats

# Every fixture perf reads, COMPRESSED containers included (perf counts
# the container and the records inside it, and so does stats).
# bats test_tags=asan,normal
@test "stats: per-type counts and TOTAL equal perf report --stats for every fixture" {
	sweep
	local names="cpu-clock callgraph zstd pipe threads tracepoint group mono stat allbits" name files=() all
	for name in $names; do
		files+=("testdata/$name.data")
	done
	# one perfdump over the ten (one document each, exit 0), one jq
	run --separate-stderr "$PERFDUMP" -j stats "${files[@]}"
	assert_status 0
	all=$(jq -r '"\(.file) TOTAL \(.stats.records.total)", (.file as $f | .stats.records.types[] | "\($f) \(.name // "UNKNOWN") \(.count)")' <<<"$output" |
		sed 's/ HEADER_ATTR / ATTR /; s/ HEADER_FEATURE / FEATURE /;
		     s/ HEADER_EVENT_TYPE / EVENT_TYPE /; s/ HEADER_TRACING_DATA / TRACING_DATA /;
		     s/ HEADER_BUILD_ID / BUILD_ID /')
	for name in $names; do
		assert_eq "$(sed -n "s|^testdata/$name.data ||p" <<<"$all" | grep -v '^TOTAL ' | LC_ALL=C sort)" \
			"$(perf_counts "$name.data")" "record counts of $name.data"
		assert_eq "$(sed -n "s|^testdata/$name.data TOTAL ||p" <<<"$all")" "$(perf_total "$name.data")" "TOTAL of $name.data"
	done
}

# allbits.data's samples READ a group: perf delivers one sample per group
# member whose value changed (task-clock's 94 come from cpu-clock's
# records), and so does stats (tests/stats_perf.bats).
# bats test_tags=asan
@test "stats: samples per event equal perf's per-event SAMPLE counts" {
	local name
	for name in cpu-clock callgraph zstd pipe threads tracepoint group mono allbits; do
		stats_of "testdata/$name.data"
		assert_eq "$(jq -r '.stats.samples.events[] | select(.samples > 0) | "\(.event) \(.samples)"' <<<"$output" | LC_ALL=C sort)" \
			"$(perf_event_samples "$name.data")" "samples per event of $name.data"
	done
}

# perf script prints "pid/tid [cpu] time: period event: ..." per sample
# bats test_tags=asan,normal
@test "stats: samples per pid, tid and cpu, and the time span, equal perf script" {
	local name want
	for name in cpu-clock group mono tracepoint; do
		pdj -j stats --top 0 "testdata/$name.data"
		want=$(grep -E '^ *[0-9]+/[0-9]+ ' "$REF/$name.data.script.txt" |
			awk '{ split($1, a, "/"); print a[1] }' | sort | uniq -c | awk '{ print $2, $1 }' | sort)
		assert_eq "$(jq -r '.stats.samples.top_processes[] | "\(.pid) \(.samples)"' <<<"$output" | sort)" "$want" "pids of $name.data"
		want=$(grep -E '^ *[0-9]+/[0-9]+ ' "$REF/$name.data.script.txt" |
			awk '{ split($1, a, "/"); print a[2] }' | sort | uniq -c | awk '{ print $2, $1 }' | sort)
		assert_eq "$(jq -r '.stats.samples.top_threads[] | "\(.tid) \(.samples)"' <<<"$output" | sort)" "$want" "tids of $name.data"
		# first and last sample times, in file order they are also min, max
		want=$(grep -E '^ *[0-9]+/[0-9]+ ' "$REF/$name.data.script.txt" |
			sed -E 's/^ *[0-9]+\/[0-9]+ +(\[[0-9]+\] +)?([0-9]+)\.([0-9]+):.*/\2\3/' | sed -n '1p;$p' | paste -sd' ')
		assert_eq "$(jq -r '"\(.stats.time.first) \(.stats.time.last)"' <<<"$output")" "$want" "time span of $name.data"
	done
	# allbits.data samples carry CPU: every one on [001]; perf script
	# prints each of its 94 samples twice, once per group member
	stats_of testdata/allbits.data
	jq_all '.stats.samples.cpus' '[{"cpu":1,"samples":94,"percent":100}]' \
		'.stats.samples.no_cpu' '0'
	[ "$(grep -c '^ *3171/3171 *\[001\]' "$REF/allbits.data.script.txt")" -eq $((2 * 94)) ]
	[ "$(grep -c '^ *[0-9]*/[0-9]* ' "$REF/allbits.data.script.txt")" -eq $((2 * 94)) ]
}

# --------------------------------------------- one fixture, every part

@test "stats: cpu-clock.data, every section" {
	stats_of testdata/cpu-clock.data
	assert_status 0
	jq_all '.stats.mode' '"file"' \
		'.stats.records | [.total, .bytes, .other_types]' '[406,16568,0]' \
		'.stats.records.types[] | select(.name == "SAMPLE") | [.type, .count, .bytes, .compressed]' '[9,391,15640,0]' \
		'.stats.records.types[] | select(.name == "SAMPLE") | [.percent, .bytes_percent] | map(. * 10 | round)' '[963,944]' \
		'.stats.samples | [.total, .unknown_id, .no_cpu, .threads, .processes]' '[391,0,391,1,1]' \
		'.stats.samples.events' '[{"event":"cpu-clock","attr":0,"samples":391,"percent":100,"period":97750000}]' \
		'.stats.samples.cpus' '[]' \
		'.stats.samples.top_processes' '[{"pid":3123,"comm":"dd","samples":391,"percent":100,"threads":1}]' \
		'.stats.samples.top_threads' '[{"tid":3123,"pid":3123,"comm":"dd","samples":391,"percent":100}]' \
		'.stats.quality | [.lost.records, .lost.events, .lost_samples.records, .throttle, .unthrottle, .aux.records, .auxtrace_errors, .unknown_type_records]' '[0,0,0,0,0,0,0,0]' \
		'.stats.time | [.timed_samples, .first, .first_s, .last, .duration_ns, .duration_s]' '[391,193085121157,"193.085121",193183034688,97913531,"0.097913531"]' \
		'.stats.time.samples_per_second | floor' '3993' \
		'.stats.time.header_sample_time | [.first, .last, .agrees, .first_diff_ns, .last_diff_ns]' '[193085121157,193183034688,true,0,0]' \
		'.stats.ordering' '{"rounds":1,"largest_round":{"records":406,"bytes":16568,"offset":264},"late_samples":0,"max_late_ns":0,"backward_steps":0,"max_backward_ns":0,"max_backward_offset":0}' \
		'.stats.compression' 'null' \
		'.stats.bytes | [.file_size, .covered, .overlap, .unaccounted]' '[21572,21572,0,0]' \
		'.stats.bytes.gaps' '[]' \
		'[.stats.bytes.regions[] | .what] | unique' '["attrs","data","feature","feature_table","header","ids"]' \
		'[.stats.bytes.regions[] | select(.what == "feature") | .name] | length' '20' \
		'.stats.bytes.regions[] | select(.name == "BUILD_ID") | [.offset, .size]' '[17184,500]' \
		'[.stats.bytes.regions[] | select(.what != "feature")]' '[{"what":"header","name":null,"offset":0,"size":104},{"what":"ids","name":null,"offset":104,"size":16},{"what":"attrs","name":null,"offset":120,"size":144},{"what":"data","name":null,"offset":264,"size":16568},{"what":"feature_table","name":null,"offset":16832,"size":320},{"what":"feature_table","name":"unused entries","offset":17152,"size":32}]'
}

# The regions and gaps add up to the whole file, for every fixture.
@test "stats: the byte account covers every byte of each fixture exactly once" {
	local f files=() bad
	for f in testdata/*.data testdata/synthetic/full-le.data testdata/synthetic/full-be.data; do
		[ -f "$f" ] && files+=("$f")
	done
	# one perfdump over all of them (one document each), one jq
	bad=$("$PERFDUMP" -j stats "${files[@]}" 2>/dev/null | jq -r -n --argjson n "${#files[@]}" '[inputs] |
		if length != $n then "\(length) documents for \($n) files" else .[] |
		select(.perfdump_json_version != 1 or (.stats.bytes |
			.covered + .unaccounted != .file_size or .overlap != 0)) | "\(.file): \(.stats.bytes)" end')
	assert_empty "$bad" "files whose account does not add up"
}

@test "stats: zstd.data counts the container and the records inside it" {
	stats_of testdata/zstd.data
	assert_status 0
	jq_all '.stats.records.types[] | select(.name == "COMPRESSED") | [.count, .bytes, .compressed]' '[1,3698,0]' \
		'.stats.records.types[] | select(.name == "SAMPLE") | [.count, .compressed]' '[489,489]' \
		'.stats.compression | [.containers, .container_bytes, .compressed_bytes, .decompressed_bytes]' '[1,3698,3690,20112]' \
		'.stats.compression.ratio * 100 | floor' '545' \
		'.stats.compression.header' '{"type":1,"type_name":"zstd","level":1,"ratio":5}' \
		'.stats.time.header_sample_time | [.first, .last, .agrees]' '[0,0,null]'
	# the decompressed bytes are the bytes of the records inside
	jq_true '([.stats.records.types[] | .bytes - (if .name == "COMPRESSED" then .bytes else 0 end)] | add) >= 0'
	pd stats testdata/zstd.data
	assert_contains "$output" "compression:"
	assert_contains "$output" "ratio:                  5.45"
}

# bats test_tags=asan
@test "stats: pipe.data and the threads.data directory" {
	stats_of testdata/pipe.data
	assert_status 0
	jq_all '.stats.mode' '"pipe"' \
		'.stats.records.types[] | select(.name == "HEADER_FEATURE") | .count' '19' \
		'.stats.records.types[] | select(.name == "HEADER_ATTR") | .count' '1' \
		'.stats.bytes.regions' '[{"what":"header","name":null,"offset":0,"size":16},{"what":"records","name":null,"offset":16,"size":22900}]' \
		'.stats.bytes | [.file_size, .unaccounted]' '[22916,0]'
	pd stats - <testdata/pipe.data
	assert_status 0
	assert_contains "$output" "SAMPLE:               count=397 percent=91.7% bytes=19056"
	stats_of testdata/threads.data
	assert_status 0
	jq_all '.stats.mode' '"directory"' '.stats.records.total' '564' '.stats.samples.total' '536'
}

# bats test_tags=asan,normal
@test "stats: per-type counts equal the MANIFEST for the uncompressed corpus files" {
	sweep
	need_corpus
	local f n=0 files=() all
	for f in $MANIFEST_COMPARABLE; do
		files+=("$CORPUS/$f")
	done
	# one perfdump over all of them (one document each), one jq
	all=$("$PERFDUMP" -j stats "${files[@]}" 2>/dev/null |
		jq -r '.file as $f | .stats.records.types[] | "\($f) \(.name // "UNKNOWN") \(.count)"')
	for f in $MANIFEST_COMPARABLE; do
		assert_eq "$(grep -F "$CORPUS/$f " <<<"$all" | sed "s|^$CORPUS/$f ||" | LC_ALL=C sort)" \
			"$(manifest_counts "$f")" "record counts of $f"
		n=$((n + 1))
	done
	[ "$n" -ge 10 ]
}

# The full decoder (records -j) and the counting walk agree on everything
# stats counts, for corpus files with LOST_SAMPLES, AUX, many threads and
# out-of-order samples.
# bats test_tags=asan,normal
@test "stats: agrees with the full record decoder on corpus files" {
	sweep
	need_corpus
	local f stats recs
	for f in perf_data_converter/perf.data.piped.lost_samples-4.4 \
		 perf_data_converter/perf.data.intel_pt-4.14 \
		 perf_data_converter/perf.data.group_desc-4.4 \
		 linux-perf-data/fibo.compressed2.pipe.data \
		 platform_system_extras/perf_b.data; do
		stats_of "$CORPUS/$f"
		stats=$(jq -c '.stats | [.samples.total, .quality.lost_samples.samples, .quality.aux.records,
			.quality.lost.events, .quality.throttle, .samples.threads,
			([.samples.cpus[] | .samples] | add // 0)]' <<<"$output")
		pd -j records "$CORPUS/$f"
		recs=$(jq -c '[.records[] | select(.type == 9)] as $s |
			[($s | length), ([.records[] | select(.type == 13) | .lost] | add // 0),
			 ([.records[] | select(.type == 11)] | length),
			 ([.records[] | select(.type == 2) | .lost] | add // 0),
			 ([.records[] | select(.type == 5)] | length),
			 ([$s[] | .tid // empty] | unique | length),
			 ([$s[] | .cpu // empty] | length)]' <<<"$output")
		assert_eq "$stats" "$recs" "stats vs records of $f"
	done
}

# bats test_tags=asan
@test "stats: data quality and ordering of corpus files" {
	need_corpus
	stats_of "$CORPUS/perf_data_converter/perf.data.piped.lost_samples-4.4"
	jq_all '.stats.quality.lost_samples' '{"records":2,"samples":2,"bpf_records":0,"bpf_samples":0}'
	stats_of "$CORPUS/perf_data_converter/perf.data.intel_pt-4.14"
	jq_all '.stats.quality.aux' '{"records":10,"truncated":0,"partial":0,"collision":0,"overwrite":0}' \
		'.stats.ordering | [.rounds, .largest_round.records, .backward_steps, .max_backward_ns, .max_backward_offset]' '[4,169,1,1209445,25664]'
	stats_of "$CORPUS/perf_data_converter/perf.data.group_desc-4.4"
	jq_all '.stats.ordering | [.rounds, .backward_steps, .max_backward_ns, .late_samples]' '[1,22,338445605,0]' \
		'.stats.samples | [.threads, .processes]' '[33,30]'
	stats_of "$CORPUS/linux-perf-data/fibo.compressed2.pipe.data"
	jq_all '.stats.compression | [.containers, .compressed_bytes, .decompressed_bytes]' '[146,68112,4716112]' \
		'.stats.ordering.rounds' '124'
}

# ------------------------------------------------- damaged recordings

@test "stats: killed.data (data.size 0) is counted, with the problem stated" {
	stats_of testdata/killed.data
	assert_status 1
	jq_all '.stats.records.total' '8' \
		'[.stats.records.types[] | "\(.name)=\(.count)"] | join(",")' '"MMAP=1,COMM=1,ID_INDEX=1,THREAD_MAP=1,CPU_MAP=1,EVENT_UPDATE=2,FINISHED_INIT=1"' \
		'.errors[0].offset' '48' \
		'.warnings' '[{"offset":632,"what":"data section (data.size 0)","detail":"records scanned from data.offset 0x108 to the end of the file at 0x278: 8 records, 368 bytes"}]' \
		'.stats.bytes.regions[] | select(.what == "data (scanned)") | [.offset, .size]' '[264,368]' \
		'.stats.bytes.unaccounted' '0'
	assert_contains "$stderr" "data.size is 0: perf record did not finish"
}

# bats test_tags=asan
@test "stats: a torn last record: everything before it is counted, and where it is is said" {
	stats_of testdata/synthetic/trunc-data.data
	assert_status 1
	jq_all '.stats.records.total' "$(./perfdump -j records testdata/synthetic/trunc-data.data 2>/dev/null | jq '.records | length')" \
		'[.errors[] | select(.detail | test("extends past the end")) | .offset] | last' '616'
	# a copy cut 20 bytes into its last EXIT record, made here: the
	# FINISHED_ROUND after it is gone, the 391 samples before it remain
	local t=$BATS_TEST_TMPDIR/cut.data
	head -c $((264 + 16568 - 20)) testdata/cpu-clock.data >"$t"
	stats_of "$t"
	assert_status 1
	jq_all '.stats.records.total' '404' '.stats.samples.total' '391' \
		'[.stats.records.types[] | select(.name == "EXIT" or .name == "FINISHED_ROUND")]' '[]' \
		'[.errors[] | select(.detail | test("extends past the end .only")) | [.offset, .detail]]' \
		'[[16776,"record of type 4 and size 48 extends past the end (only 36 bytes left)"]]'
}

# ------------------------------------------------------------- options

@test "stats: top threads and processes, most samples first, ties by tid and pid (tracepoint.data)" {
	pdj -j stats --top 0 testdata/tracepoint.data
	jq_all '[.stats.samples.threads, .stats.samples.processes]' '[7,7]' \
		'[.stats.samples.top_threads[] | [.samples, .tid]]' '[[7,0],[3,3151],[2,15],[2,1903],[2,3152],[1,18],[1,21]]' \
		'[.stats.samples.top_processes[] | [.samples, .pid]]' '[[7,0],[3,3151],[2,15],[2,1903],[2,3152],[1,18],[1,21]]'
	pdj -j stats --top 4 testdata/tracepoint.data
	jq_all '[.stats.samples.threads, .stats.samples.processes]' '[7,7]' \
		'[.stats.samples.top_threads[] | .tid]' '[0,3151,15,1903]' \
		'[.stats.samples.top_processes[] | .pid]' '[0,3151,15,1903]'
}

# bats test_tags=asan
@test "stats: --top limits the processes and threads listed" {
	need_corpus
	stats_of "$CORPUS/perf_data_converter/perf.data.group_desc-4.4"
	jq_all '.stats.samples.top_processes | length' '10' '.stats.samples.top_threads | length' '10'
	local top3
	top3=$(jq -c '[.stats.samples.top_threads[:3][] | .samples]' <<<"$output")
	pdj -j stats --top 3 "$CORPUS/perf_data_converter/perf.data.group_desc-4.4"
	jq_all '.stats.samples.top_threads | length' '3' '[.stats.samples.top_threads[] | .samples]' "$top3" \
		'[.stats.samples.top_processes[] | .samples] | . == (sort | reverse)' 'true'
	pdj -j stats --top 0 "$CORPUS/perf_data_converter/perf.data.group_desc-4.4"
	jq_all '.stats.samples.top_threads | length' '33' '.stats.samples.top_processes | length' '30' \
		'[.stats.samples.top_threads[] | .samples] | add' "$(jq '.stats.samples.total' <<<"$output")"
	pd stats --top -1 testdata/cpu-clock.data
	assert_status 2
	pd stats --top x testdata/cpu-clock.data
	assert_status 2
}

# check-time.data (scripts/gen-testdata.py): two samples older than what
# perf had flushed at the FINISHED_ROUND before them, as `check` finds
@test "stats: late samples across FINISHED_ROUND, as perf's two-round rule sees them" {
	stats_of testdata/synthetic/check-time.data
	jq_all '.stats.ordering' '{"rounds":3,"largest_round":{"records":3,"bytes":120,"offset":400},"late_samples":2,"max_late_ns":500,"backward_steps":2,"max_backward_ns":1000,"max_backward_offset":456}'
	pdj -j check testdata/synthetic/check-time.data
	assert_status 0
	jq_eq '[.check.findings[] | select(.code == "time-backwards-across-round") | .severity]' '["warning","warning"]'
	jq_eq '.check.summary | [.out_of_order_events, .max_late_ns]' '[2,500]'
}

# check-time-flush.data: perf 6.1 reports "2 out of order events recorded"
# (last_flush falls to the time of the last record flushed)
@test "stats: late samples follow perf's last_flush, which can fall" {
	stats_of testdata/synthetic/check-time-flush.data
	jq_all '.stats.ordering | [.rounds, .late_samples, .max_late_ns]' '[4,2,500]'
	pdj -j check testdata/synthetic/check-time-flush.data
	assert_status 0
	jq_eq '[.check.findings[] | select(.code == "time-backwards-across-round") | [.offset, .severity, .values.last_flush - 1000000000000, .values.late_ns]]' '[[344,"warning",1000,500],[584,"warning",500,100]]'
	jq_eq '.check.summary.out_of_order_events' '2'
}

# check-time-comm.data: a COMM's sample_id time moves perf's flush clock as a
# sample's does (session.c perf_session__process_event queues every kernel
# record), so the last sample is late only because of it
@test "stats: a non-sample record's time moves the flush clock" {
	stats_of testdata/synthetic/check-time-comm.data
	jq_all '.stats.ordering | [.rounds, .late_samples, .max_late_ns]' '[2,1,500]'
	pdj -j check testdata/synthetic/check-time-comm.data
	jq_eq '[.check.findings[] | [.code, .offset, .values.last_flush - 1000000000000]]' \
		'[["time-backwards-across-round",456,3000]]'
}

# Damaged compressed streams (scripts/gen-testdata.py): the counting walk
# leaves them to the reader, which says what is wrong
@test "stats: a torn or undecodable compressed stream is counted up to the damage" {
	stats_of testdata/synthetic/check-zstd-torn.data
	assert_status 1
	jq_all '.stats.records.total' '3' \
		'[.errors[] | .detail]' '["the compressed stream ends inside a record (20 bytes left over)"]'
	stats_of testdata/synthetic/check-zstd-bad.data
	assert_status 1
	jq_all '.stats.records.total' '3' \
		'[.errors[] | .detail]' '["PERF_RECORD_COMPRESSED: zstd: Unknown frame descriptor"]'
}

# Pre-upstream Google pipe streams send the header features as record types
# 69..80 before the first HEADER_ATTR: stats counts them in one row named as
# `records` names them, not as ID_INDEX, AUXTRACE_ERROR, EVENT_UPDATE...
@test "stats: legacy Google feature records are counted as such, not as types 69-80" {
	need_corpus
	stats_of "$CORPUS/perf_data_converter/perf.data.piped.host-3.2"
	assert_status 0
	jq_all '[.stats.records.types[] | select(.name == "LEGACY_GOOGLE_FEATURE") | [.type, .count, .bytes]]' '[[null,12,2896]]' \
		'[.stats.records.types[] | select(.type != null and .type >= 69 and .type <= 80)] | length' '0' \
		'.stats.records.total' '16693' '.stats.quality.auxtrace_errors' '0' '.stats.quality.unknown_type_records' '0'
	pd stats "$CORPUS/perf_data_converter/perf.data.piped.host-3.2"
	assert_contains "$output" "      LEGACY_GOOGLE_FEATURE: count=12 percent=0.1% bytes=2896 bytes_percent=0.2%"
	stats_of "$CORPUS/platform2-sommelier/perf.data.piped.powerpc"
	assert_status 0
	jq_all '[.stats.records.types[] | select(.name == "LEGACY_GOOGLE_FEATURE") | [.type, .count, .bytes]]' '[[null,12,3968]]' \
		'[.stats.records.types[] | select(.type != null and .type >= 69 and .type <= 80)] | length' '0' \
		'.stats.records.total' '10047' '.stats.quality.auxtrace_errors' '0'
}

# One byte account (src/lib/analysis/account.c) for stats' bytes section and check's
# unreferenced-*/trailing-* findings and bytes_covered: the same gaps; perf's
# unused feature table entries are part of the table for both
# bats test_tags=asan
@test "stats and check: one byte account, the same gaps" {
	stats_of testdata/synthetic/check-warnings.data
	jq_all '[.stats.bytes.gaps[] | [.offset, .size, .likely]]' '[[592,16,null],[616,5,null]]' \
		'[.stats.bytes.covered, .stats.bytes.unaccounted, .stats.bytes.file_size]' '[600,21,621]'
	pdj -j check testdata/synthetic/check-warnings.data
	jq_all '[.check.findings[] | select(.code | test("unreferenced|trailing-(bytes|padding)")) | [.offset, .values.size, .code]]' \
		'[[592,16,"unreferenced-padding"],[616,5,"trailing-bytes"]]' \
		'.check.summary.bytes_covered' '600'
	# a directory: the header file and each data.N file's records
	stats_of testdata/threads.data
	jq_all '.stats.bytes.gaps' '[]' \
		'[.stats.bytes.covered, .stats.bytes.unaccounted, .stats.bytes.file_size]' '[28584,0,28584]' \
		'[.stats.bytes.regions[] | select(.what == "data") | [.name, .offset, .size]]' '[[null,264,368],["data.0",0,11192],["data.1",0,12000]]' \
		'.stats.bytes.regions[] | select(.name == "unused entries") | [.what, .offset, .size]' '["feature_table",968,32]'
	pdj -j check testdata/threads.data
	jq_all '[.check.findings[] | select(.code | test("unreferenced|trailing"))] | length' '0' \
		'.check.summary | [.bytes_covered, .file_size]' '[28584,28584]'
	# no magic, no guess: what of the header was read is the header
	stats_of testdata/synthetic/zero-magic.data
	jq_eq '[.stats.bytes.gaps[] | [.offset, .size, .likely]]' '[[16,1008,null]]'
}

# Every fixture: stats' covered bytes, unaccounted bytes and file size equal
# check's, and each gap check reports is one of stats' gaps.  One perfdump
# per command over all fixtures (one document per file) and one jq over
# both streams; a sweep (make mutate runs stats and check on every fixture
# under the sanitizers).
# bats test_tags=asan,normal
@test "stats and check: the same covered bytes and gaps for every fixture" {
	sweep
	local files f res
	files=()
	for f in testdata/*.data testdata/synthetic/*.data; do
		[ -e "$f" ] && files+=("$f")
	done
	"$PERFDUMP" -j stats "${files[@]}" >"$BATS_TEST_TMPDIR/stats.jsonl" 2>/dev/null || true
	"$PERFDUMP" -j check "${files[@]}" >"$BATS_TEST_TMPDIR/check.jsonl" 2>/dev/null || true
	# each command's account: [file_size, covered, unaccounted, gaps]; a
	# line per file that differs, then the number of files compared
	res=$(jq -r -n --slurpfile s "$BATS_TEST_TMPDIR/stats.jsonl" --slurpfile c "$BATS_TEST_TMPDIR/check.jsonl" \
		--argjson n "${#files[@]}" '
		def contract: type == "object" and .perfdump_json_version == 1 and (.file | type == "string") and
			(.errors | type == "array") and (.warnings | type == "array");
		if ($s | length) != $n or ($c | length) != $n then "documents: \($s | length) and \($c | length), files \($n)"
		else [range($n) | . as $i | $s[$i] as $sd | $c[$i] as $cd |
			($sd.stats.bytes | if . == null then null else
				[.file_size, .covered, .unaccounted, [.gaps[] | [.offset, .size]]] end) as $sa |
			[$cd.check.summary.file_size, $cd.check.summary.bytes_covered,
			 $cd.check.summary.file_size - $cd.check.summary.bytes_covered,
			 [$cd.check.findings[] | select(.code | test("^(unreferenced|trailing)-(bytes|padding)$")) |
				[.offset, .values.size]]] as $ca |
			if ($sd | contract | not) or ($cd | contract | not) or $sd.file != $cd.file then
				"\($sd.file) \($cd.file): not documents of the JSON contract"
			# not a recording: stats shows nothing of it; check covers 0 bytes
			elif $sa == null then
				(if $sd.file == "testdata/synthetic/code-bad-magic.data" and $ca == [128,0,128,[]] then empty
				 else "\($sd.file): stats shows nothing, check \($ca)" end)
			# the same numbers, and every gap check reports is one of the gaps of stats
			elif $sa[0:3] == $ca[0:3] and ($ca[3] - $sa[3] == []) then "compared"
			else "\($sd.file): stats \($sa), check \($ca)" end] |
			(map(select(. != "compared")) | .[]), "compared \(map(select(. == "compared")) | length)"
		end')
	# the directory recording and both kinds of fixtures were compared
	[[ $res =~ ^compared\ ([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -ge 75 ] || {
		echo "$res"
		return 1
	}
}
