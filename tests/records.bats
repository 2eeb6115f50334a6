#!/usr/bin/env bats
# perfdump records: every record type decoded field by field.
#
# - per-type counts equal `perf report --stats` (testdata/perf-ref/NAME.stats.txt)
#   for every fixture, and the MANIFEST's counts for the uncompressed corpus files;
# - exact values of records of each type present in the fixtures and the corpus
#   (checked once against `perf script -D` of perf 6.1 when they were written);
# - the types no real file holds, from crafted files (make_records_file);
# - every corpus file in text and JSON: exit 0, or 1 naming the offset for the
#   damaged ones; never a signal;
# - the options of `records`: --type, --limit, --skip, --at, --pid/--tid/--cpu,
#   --time, --event, --order time, --json-lines, -x, and stdin.

load helpers

REF=testdata/perf-ref

# ------------------------------------------------------------ helpers

# recs FILE [ARGS...]: perfdump -j records, valid JSON, exit 0
recs() {
	local f=$1
	shift
	pdj -j records "$@" "$f"
	assert_status 0
}

# rec_at OFFSET: jq filter for the record at a file offset
rec_at() {
	printf '(.records[] | select(.offset == %d))' "$1"
}

# our_counts: "TYPE N" lines from $output (records -j), perf's type names
our_counts() {
	jq -r '.records[].type_name // "UNKNOWN"' <<<"$output" |
		sed 's/^HEADER_ATTR$/ATTR/; s/^HEADER_FEATURE$/FEATURE/;
		     s/^HEADER_EVENT_TYPE$/EVENT_TYPE/; s/^HEADER_TRACING_DATA$/TRACING_DATA/;
		     s/^HEADER_BUILD_ID$/BUILD_ID/' |
		LC_ALL=C sort | uniq -c | awk '{ print $2, $1 }' | LC_ALL=C sort
}

# le16 N: N as 2 little-endian bytes
le16() {
	local h
	printf -v h '%04x' "$1" # -v: no subshell, no fork per call
	# shellcheck disable=SC2059
	printf "\\x${h:2:2}\\x${h:0:2}"
}

# pad N: N zero bytes
pad() {
	head -c "$1" /dev/zero
}

# str S N: S in N bytes, NUL-padded
str() {
	printf '%s' "$1"
	pad $(($2 - ${#1}))
}

# hdr TYPE MISC SIZE: a perf_event_header
hdr() {
	le32 "$1"
	le16 "$2"
	le16 "$3"
}

# make_records_file OUT RECORDS [FLAGS]: a little-endian file-mode
# perf.data with one 64-byte attr (SOFTWARE cpu-clock, sample_type
# TID|TIME, read_format TOTAL_TIME_ENABLED|ID, flags FLAGS, default 0: no
# sample_id_all, records have no trailer) and the bytes of the file
# RECORDS as its data section; no features.
make_records_file() {
	local n
	n=$(file_size "$2")
	{
		printf 'PERFILE2'
		le64 104 # header size
		le64 80  # attr_size: the attr + its ids section
		le64 104
		le64 80 # attrs
		le64 184
		le64 "$n" # data
		le64 0
		le64 0 # event_types
		pad 32 # feature bitmap: none
		le32 1
		le32 64 # type SOFTWARE, attr.size 64
		le64 0  # config: cpu-clock
		le64 1  # sample_period
		le64 6  # sample_type TID|TIME
		le64 5  # read_format TOTAL_TIME_ENABLED|ID
		le64 "${3:-0}" # flags
		pad 16  # wakeup_events/bp_type, config1
		le64 0
		le64 0 # ids section: none
		cat "$2"
	} >"$1"
}

# The crafted records: one of each type no real file in testdata/ or the
# corpus holds, each 8-byte aligned; offsets are 184 + the sizes before.
good_records() {
	hdr 8 0 40 # READ: value, time_enabled, id
	le32 100; le32 101; le64 12345; le64 777; le64 42
	hdr 20 0 32 # TEXT_POKE
	le64 0xffffffff81000000; le16 2; le16 3
	printf '\xaa\xbb\xcc\xdd\xee'; pad 7
	hdr 17 0 32 # KSYMBOL, OOL, UNREGISTER
	le64 0xffffffffc0001000; le32 16; le16 2; le16 1; str foo 8
	hdr 21 0 16 # AUX_OUTPUT_HW_ID
	le64 0x1234
	hdr 22 0 40 # CALLCHAIN_DEFERRED
	le64 0xabc; le64 2; le64 0x1000; le64 0x2000
	hdr 72 0 112 # AUXTRACE_ERROR fmt 1: time at 40, msg at 48
	le32 1; le32 2; le32 3; le32 4; le32 5; le32 1; le64 0x400000; le64 999
	str oops 64
	hdr 72 0 104 # AUXTRACE_ERROR fmt 0: msg at 40 (tools/lib/perf/include/perf/event.h: struct perf_record_auxtrace_error)
	le32 1; le32 7; le32 0; le32 10; le32 11; le32 0; le64 0x500000
	str old 64
	hdr 74 0 32 # CPU_MAP MASK, 64-bit words (unaligned)
	le16 1; le16 1; le16 8; pad 4; le64 0x10f; pad 6
	hdr 74 0 24 # CPU_MAP MASK, 32-bit words
	le16 1; le16 2; le16 4; le32 3; le32 1; pad 2
	hdr 74 0 24 # CPU_MAP CPUS with "any"
	le16 0; le16 3; le16 0; le16 2; le16 0xffff; pad 6
	hdr 78 0 32 # EVENT_UPDATE CPUS: RANGE_CPUS 2-5
	le64 3; le64 7; le16 2; pad 2; le16 2; le16 5
	hdr 84 0 848 # BPF_METADATA
	str prog 512; le64 1; str k 64; str v 256
	hdr 85 0 72 # SCHEDSTAT_CPU v15
	le64 1000; le32 1; le16 15; le16 0
	le32 1; le32 2; le32 3; le32 4; le32 5; le32 6; le64 7; le64 8; le64 9
	hdr 86 0 40 # SCHEDSTAT_DOMAIN of an unknown version
	le64 2000; le32 0; le16 99; le16 2; le64 11; le64 12
	hdr 50 0 16 # a kernel type nobody defines
	le64 0x1122334455667788
	hdr 79 0 56 # TIME_CONV with time_cycles
	le64 31; le64 1789569706; le64 100; le64 5000; le64 0xffffffffffff
	printf '\x01\x01'; pad 6
	hdr 77 0 24 # STAT_ROUND interval
	le64 0; le64 555
	hdr 75 0 64 # STAT_CONFIG
	le64 3; le64 0; le64 2; le64 1; le64 100; le64 3; le64 4
	hdr 10 0x4002 80 # MMAP2 with a build-id
	le32 200; le32 201; le64 0x400000; le64 0x1000; le64 0
	printf '\x14\x00'; le16 0
	printf '\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14'
	le32 5; le32 2; str /bin/x 8
	hdr 71 0 48 # AUXTRACE, then 16 bytes of trace data
	le64 16; le64 0x100; le64 0xdead; le32 0; le32 301; le32 1; le32 0
	printf 0123456789abcdef
	hdr 66 0 16 # HEADER_TRACING_DATA, then an 88-byte blob
	le32 88; le32 0
	printf '\x17\x08Dtracing0.6\0\0\x08'; le32 4096
	printf 'header_page\0'; le64 0; printf 'header_event\0'; le64 0
	le32 0; le32 0; le32 0; le32 0; le64 0; pad 3
	hdr 69 0 64 # ID_INDEX with the guest part
	le64 1; le64 42; le64 0; le64 1; le64 100; le64 5; le64 2
	hdr 73 0 64 # THREAD_MAP
	le64 2; le64 100; str a 16; le64 101; str bb 16
	hdr 13 0x8000 16 # LOST_SAMPLES dropped by a BPF filter
	le64 3
	hdr 11 0 32 # AUX: TRUNCATED|OVERWRITE, PMU format 1
	le64 0x1000; le64 0x200; le64 0x103
	hdr 67 0x8002 48 # HEADER_BUILD_ID, 16-byte build-id
	le32 0xffffffff
	printf '\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10'; pad 4
	printf '\x10'; pad 3; str /bin/y 12
	hdr 86 0 168 # SCHEDSTAT_DOMAIN v15: 36 u32 counters
	le64 3000; le32 2; le16 15; le16 1
	for i in $(seq 1 36); do le32 "$i"; done
	hdr 65 0 24 # HEADER_EVENT_TYPE as perf 3.x cut it
	le64 1; str cycles 8
	hdr 68 0 8 # FINISHED_ROUND
}

# Damaged records; each is decoded as far as it goes, the next one is read.
bad_records() {
	hdr 2 0 16 # 184: LOST shorter than its 24 bytes
	le64 1
	hdr 16 0 40 # 200: NAMESPACES claiming 1000 entries
	le32 1; le32 1; le64 1000; le64 4; le64 5
	hdr 73 0 16 # 240: THREAD_MAP claiming 2^40 entries
	le64 0x10000000000
	hdr 3 0 24 # 256: COMM without a NUL (a warning)
	le32 1; le32 1; printf abcdefgh
	hdr 20 0 24 # 280: TEXT_POKE lengths past the record
	le64 0; le16 100; le16 100; pad 4
	hdr 74 0 16 # 304: CPU_MAP of type 9
	le16 9; pad 6
	hdr 74 0 16 # 320: CPU_MAP MASK with long_size 3
	le16 1; le16 1; le16 3; pad 2
	hdr 68 0 8 # 336: FINISHED_ROUND
	hdr 22 0 16 # 344: CALLCHAIN_DEFERRED without its nr (24 bytes at least)
	le64 0xabc
}

setup_file() {
	good_records >"$BATS_FILE_TMPDIR/good.rec"
	make_records_file "$BATS_FILE_TMPDIR/good.data" "$BATS_FILE_TMPDIR/good.rec"
	bad_records >"$BATS_FILE_TMPDIR/bad.rec"
	make_records_file "$BATS_FILE_TMPDIR/bad.data" "$BATS_FILE_TMPDIR/bad.rec"
}

# ----------------------------------------- counts against perf --stats

# COMPRESSED is skipped for zstd.data: perf counts the container record,
# perfdump shows the records decompressed from it.  killed.data: perf
# 6.1 fails on it (no stats).
# bats test_tags=asan,normal
@test "records: per-type counts equal perf report --stats for every fixture" {
	sweep
	local name want
	for name in cpu-clock callgraph zstd pipe threads tracepoint group mono stat allbits; do
		if [ "$name" = threads ]; then
			recs testdata/threads.data
		else
			recs "testdata/$name.data"
		fi
		want=$(perf_counts "$name.data" | grep -v '^COMPRESSED ')
		assert_eq "$(our_counts)" "$want" "record counts of $name.data"
	done
}

@test "records: killed.data shows its 8 records and says data.size is 0" {
	pdj -j records testdata/killed.data
	assert_status 1
	jq_all '[.records[].offset]' '[264,344,424,472,520,560,576,624]' \
		'[.records[].type_name] | join(",")' '"ID_INDEX,MMAP,EVENT_UPDATE,EVENT_UPDATE,THREAD_MAP,CPU_MAP,COMM,FINISHED_INIT"' \
		'.errors[0].offset' '48'
}

# pipe_renamed OUT: a pipe-mode stream whose one attr (SOFTWARE cpu-clock,
# VER0, sample_type IP, exclude_kernel|exclude_hv, id 7) no EVENT_DESC
# names; a user SAMPLE, an EVENT_UPDATE NAME "renamed" for id 7, a SAMPLE.
pipe_renamed() {
	{
		printf 'PERFILE2'
		le64 16
		hdr 64 0 80 # HEADER_ATTR: attr, then id 7
		le32 1; le32 64; le64 0; le64 1; le64 1; le64 0; le64 $((1 << 5 | 1 << 6))
		pad 16; le64 7
		hdr 9 2 16 # SAMPLE: ip
		le64 0x401000
		hdr 78 0 32 # EVENT_UPDATE NAME
		le64 2; le64 7; str renamed 8
		hdr 9 2 16
		le64 0x401010
	} >"$1"
}

# bats test_tags=asan
@test "records: an event no EVENT_DESC names is named from its attr; a later EVENT_UPDATE NAME renames it" {
	local f=$BATS_TEST_TMPDIR/renamed.data
	pipe_renamed "$f"
	# the attr's name (perf: cpu-clock:u) where the update is not read
	head -c 112 "$f" >"$BATS_TEST_TMPDIR/cut.data"
	pdj -j attrs "$BATS_TEST_TMPDIR/cut.data"
	jq_eq '[.attrs[] | [.name, .name_from]]' '[["cpu-clock:u","attr"]]'
	for src in "$f" -; do
		run --separate-stderr "$PERFDUMP" -j attrs "$src" <"$f"
		assert_status 0
		jq_eq '[.attrs[] | [.name, .name_from]]' '[["renamed","EVENT_UPDATE"]]'
		run --separate-stderr "$PERFDUMP" records --json-lines --type sample "$src" <"$f"
		assert_status 0
		# each record as the stream has named its event so far (as perf)
		assert_eq "$(jq -r 'select(.event) | .event' <<<"$output" | tr '\n' ' ')" "cpu-clock:u renamed "
		# --event with the name to come: no usage error, its records
		run --separate-stderr "$PERFDUMP" records --json-lines --type sample --event renamed "$src" <"$f"
		assert_status 0
		assert_eq "$(jq -c 'select(.event) | [.offset, .event]' <<<"$output")" '[144,"renamed"]'
	done
}

# MANIFEST_COMPARABLE (helpers.bash) says which files and why.
@test "records: per-type counts equal the MANIFEST for the uncompressed corpus files" {
	sweep
	need_corpus
	local f n=0
	for f in $MANIFEST_COMPARABLE; do
		recs "$CORPUS/$f"
		assert_eq "$(our_counts | sed 's/^ATTR /HEADER_ATTR /; s/^FEATURE /HEADER_FEATURE /;
			s/^TRACING_DATA /HEADER_TRACING_DATA /; s/^EVENT_TYPE /HEADER_EVENT_TYPE /' |
			LC_ALL=C sort)" \
			"$(manifest_counts "$f")" "record counts of $f"
		n=$((n + 1))
	done
	[ "$n" -ge 10 ]
}

# ------------------------------------------- values in the fixtures

@test "records: cpu-clock.data ID_INDEX, MMAP, COMM, MMAP2, EXIT, FINISHED_*" {
	recs testdata/cpu-clock.data
	jq_all "$(rec_at 264) | [.nr, [.entries[] | [.id, .idx, .cpu, .tid]]]" '[2,[["0x6c",0,0,3123],["0x6d",1,1,3123]]]' \
		"$(rec_at 344) | [.pid, .tid, .addr, .len, .pgoff, .filename, .cpumode_name]" \
		'[-1,0,"0xffffffff81000000","0x120bb08","0xffffffff81000000","[kernel.kallsyms]_text","kernel"]' \
		"$(rec_at 576) | [.pid, .tid, .comm, .misc_names]" '[3123,3123,"perf-exec",[]]' \
		"$(rec_at 632) | [.pid, .tid, .comm, .misc_names, .sample_id.time]" '[3123,3123,"dd",["COMM_EXEC"],193084869133]' \
		"$(rec_at 672) | [.pid, .addr, .len, .pgoff, .maj, .min, .ino, .ino_generation, .prot, .prot_names, .flags_names, .perms, .filename]" \
		'[3123,"0x561d210a0000","0xe000","0x2000",254,0,247241,0,"0x5",["PROT_READ","PROT_EXEC"],["MAP_PRIVATE"],"r-xp","/usr/bin/dd"]' \
		"$(rec_at 0x4188) | [.pid, .ppid, .tid, .ptid, .time]" '[3123,3122,3123,3122,193183080185]' \
		"$(rec_at 0x270) | .type_name" '"FINISHED_INIT"' \
		"$(rec_at 0x41b8) | [.type_name, .size]" '["FINISHED_ROUND",8]'
}

@test "records: cpu-clock.data THREAD_MAP, CPU_MAP, EVENT_UPDATE unit and scale" {
	recs testdata/cpu-clock.data
	jq_all "$(rec_at 0x208) | [.nr, .entries]" '[1,[{"pid":3123,"comm":""}]]' \
		"$(rec_at 0x230) | [.map_type_name, .any_cpu, .start_cpu, .end_cpu, .cpus]" '["RANGE_CPUS",0,0,1,"0-1"]' \
		"$(rec_at 0x1a8) | [.update_type_name, .id, .unit]" '["UNIT","0x6c","msec"]' \
		"$(rec_at 0x1d8) | [.update_type_name, .id, .scale]" '["SCALE","0x6c",1e-06]'
	pd records testdata/cpu-clock.data
	assert_contains "$output" "  0x278 [0x28] PERF_RECORD_COMM: misc=0x2000(COMM_EXEC) event=cpu-clock pid=3123 tid=3123 comm=dd sample_id: pid=3123 tid=3123 time=193084869133"
	assert_contains "$output" "  0x230 [0x10] PERF_RECORD_CPU_MAP: map_type=RANGE_CPUS any_cpu=0 start_cpu=0 end_cpu=1 cpus=0-1"
	assert_contains "$output" "  0x4188 [0x30] PERF_RECORD_EXIT: event=cpu-clock pid=3123 ppid=3122 tid=3123 ptid=3122 time=193183080185 "
}

@test "records: stat.data STAT, STAT_CONFIG, STAT_ROUND, CPU_MAP CPUS and perf stat report's values" {
	recs testdata/stat.data
	jq_all "$(rec_at 0x290) | [.nr, [.data[] | [.tag_name, .val, .val_name]]]" \
		'[3,[["AGGR_MODE",1,"global"],["INTERVAL",0,null],["SCALE",1,null]]]' \
		"$(rec_at 0x290) | .aggr_mode_numbering | test(\"before 6.4\")" 'true' \
		"$(rec_at 0x370) | [.round_type, .round_type_name, .time]" '[1,"final",93688607]' \
		"$(rec_at 0x280) | [.map_type_name, .nr, .cpu, .cpus]" '["CPUS",1,[-1],"-1"]' \
		"[.records[] | select(.type == 76) | [.id, .cpu, .thread]]" '[["0xbb",-1,0],["0xbc",-1,0]]'
	# perf stat report's VAL ENA RUN columns (perf-ref/stat.data.script.txt)
	local want
	want=$(awk 'NR > 1 { printf "%s[%s,%s,%s]", (NR > 2 ? "," : ""), $3, $4, $5 }' "$REF/stat.data.script.txt")
	jq_eq '[.records[] | select(.type == 76) | [.val, .ena, .run]]' "[$want]"
}

@test "records: pipe.data HEADER_ATTR, HEADER_FEATURE payloads and the end marker" {
	recs testdata/pipe.data
	jq_all "$(rec_at 16) | [.type_name, .nr_ids, .ids, .attr.type, .attr.config, .attr.sample_type, .attr.size]" \
		'["HEADER_ATTR",2,["0x87","0x88"],1,"0x0","0x147",128]' \
		"$(rec_at 0xa8) | [.feat_id, .feat_id_name, .end_marker, .feature[0].value]" '[3,"HOSTNAME",false,"vm"]' \
		"$(rec_at 0x1f8) | .feature[0] | [.nr_cpus_avail, .nr_cpus_online]" '[2,2]' \
		"$(rec_at 0xaec) | [.feat_id, .end_marker, has(\"feature\")]" '[32,true,false]' \
		"[.records[] | select(.type == 80)] | length" '19' \
		"[.records[] | select(.type == 78) | .update_type_name]" '["UNIT","SCALE","NAME"]' \
		"$(rec_at 0xc04) | .name" '"cpu-clock"'
	# the HOSTNAME as `features` decodes it
	local host
	host=$(sed -n 's/^# hostname : //p' "$REF/pipe.data.header.txt")
	jq_eq "$(rec_at 0xa8) | .feature[0].value" "\"$host\""
}

# bats test_tags=asan
@test "records: threads.data FORK and the data.N streams" {
	recs testdata/threads.data
	# perf script -D: PERF_RECORD_FORK(3146:3146):(3143:3143), (3147:3147):(3143:3143)
	jq_all '[.records[] | select(.type == 7) | [.stream, .pid, .tid, .ppid, .ptid, .time]]' \
		'[["data.1",3146,3146,3143,3143,197519740608],["data.1",3147,3147,3143,3143,197519809360]]' \
		'[.records[] | .stream // "data"] | unique' '["data","data.0","data.1"]'
}

@test "records: allbits.data NAMESPACES, CGROUP, SWITCH" {
	recs testdata/allbits.data
	jq_all "$(rec_at 0x408) | [.pid, .nr_namespaces, [.link_info[].name], .link_info[0].dev, .link_info[0].ino]" \
		'[3171,7,["net","uts","ipc","pid","user","mnt","cgroup"],"0x4","0xeffffff9"]' \
		"$(rec_at 0x390) | [.id, .path]" '["0x1","/"]' \
		"[.records[] | select(.type == 14) | .misc_names | join(\"|\")]" \
		'["SWITCH_OUT|SWITCH_OUT_PREEMPT","","SWITCH_OUT|SWITCH_OUT_PREEMPT","","SWITCH_OUT|SWITCH_OUT_PREEMPT",""]' \
		"$(rec_at 0x1578) | .sample_id.time" '202154772569'
}

# ---------------------------------------------- values in the corpus

@test "records: corpus KSYMBOL and BPF_EVENT (perf.data.branch_stack_spec)" {
	need_corpus
	recs "$CORPUS/perf_data_converter/perf.data.branch_stack_spec"
	jq_all "$(rec_at 0x17a8) | [.addr, .len, .ksym_type, .ksym_type_name, .flags, .name]" \
		'["0xffffffffc0248588",72,1,"BPF","0x0","bpf_prog_530f69190e63cfa0_fentry_blk_account_io_start"]' \
		"$(rec_at 0x1808) | [.bpf_event_type, .bpf_event_type_name, .flags, .id, .tag]" \
		'[1,"PROG_LOAD","0x0",5,"530f69190e63cfa0"]'
}

@test "records: corpus AUXTRACE_INFO, AUXTRACE, AUX, ITRACE_START, SWITCH_CPU_WIDE, TIME_CONV (intel_pt-4.14)" {
	need_corpus
	recs "$CORPUS/perf_data_converter/perf.data.intel_pt-4.14"
	jq_all "$(rec_at 0x308) | [.auxtrace_type, .auxtrace_type_name, (.priv | length), .priv[0], .priv[2]]" '[1,"intel_pt",17,"0x6","0x6aaaaaaa"]' \
		"$(rec_at 0x29c0) | [.auxtrace_size, .auxtrace_offset, .reference, .idx, .tid, .cpu, .payload_size]" \
		'[12240,"0x0","0xbc4cd519a6",0,3174,0,12240]' \
		"$(rec_at 0x2940) | [.aux_offset, .aux_size, .flags, .pmu_format, .event]" '["0x0","0x2fd0","0x0",0,"intel_pt//"]' \
		"$(rec_at 0x2850) | [.pid, .tid, .sample_id.cpu]" '[3174,3174,0]' \
		"$(rec_at 0x21b0) | [.next_prev_pid, .next_prev_tid, .misc_names, .sample_id.time]" '[1760,1760,["SWITCH_OUT"],641255848111]' \
		"$(rec_at 0x2e8) | [.time_shift, .time_mult, has(\"time_cycles\")]" '[31,1789569706,false]'
	# time_zero is above 2^53: compare the text jq would round
	assert_contains "$output" '"time_zero":18446744041015200657'
}

@test "records: corpus THROTTLE, UNTHROTTLE, LOST, LOST_SAMPLES, NAMESPACES, SWITCH" {
	need_corpus
	recs "$CORPUS/perf_data_converter/perf.data.hw_and_sw-3.4"
	jq_all "$(rec_at 0x3f0c0) | [.type_name, .time, .id, .stream_id]" '["THROTTLE",2761526143891,"0xd6","0xd6"]' \
		"$(rec_at 0x3f130) | [.type_name, .time]" '["UNTHROTTLE",2761543685447]'
	recs "$CORPUS/platform_system_extras/perf_b.data"
	jq_eq "$(rec_at 0x43c8) | [.id, .lost]" '["0x1b490",461]'
	recs "$CORPUS/perf_data_converter/perf.data.piped.lost_samples-4.4"
	jq_eq '[.records[] | select(.type == 13) | [.offset, .lost, .sample_id.id]]' '[[12176,1,"0x86"],[12216,1,"0x88"]]'
	recs "$CORPUS/perf_data_converter/perf.data.ctx_switch_namespaces-4.14"
	jq_all '[.records[] | select(.type == 16) | .nr_namespaces]' '[7]' \
		'[.records[] | select(.type == 14)] | length' '2'
}

@test "records: the ppc64 big-endian pipe file decodes with sane values" {
	need_corpus
	recs "$CORPUS/platform2-sommelier/perf.data.piped.powerpc"
	jq_all '[.records[] | select(.type == 67) | .filename] | .[0:3]' '["/boot/vmlinux","/lib/modules/3.3.8-power7-600.25/kernel/net/sunrpc/sunrpc.ko","/usr/bin/perf"]' \
		"$(rec_at 0x1bc0) | [.pid, .build_id, .build_id_size, .cpumode_name]" '[-1,"0db0791ba659df1910626240062134fe9d6f5007",20,"kernel"]' \
		"$(rec_at 0x1200) | [.pid, .addr, .pgoff, .filename]" '[-1,"0xc000000000000000","0xc000000000000000","[kernel.kallsyms]_text"]' \
		"$(rec_at 0x41f94) | [.pid, .tid, .comm]" '[4716,4716,"noploop.ppc"]' \
		"$(rec_at 0x63928) | [.pid, .ppid, .time]" '[4716,4716,142675114204584]' \
		"$(rec_at 0x11e8) | [.event_id, .name]" '["0x0","cycles"]' \
		"$(rec_at 0xf90) | [.nr_ids, .attr.type, .attr.sample_type]" '[64,0,"0x107"]'
}

# bats test_tags=asan
@test "records: the little- and big-endian synthetic twins decode to the same values" {
	local le
	recs testdata/synthetic/full-le.data
	le=$(jq -c '.records' <<<"$output")
	recs testdata/synthetic/full-be.data
	jq_eq '.records' "$le"
	recs testdata/synthetic/pipe-le.data
	le=$(jq -c '[.records[] | del(.tracing_data.endian)]' <<<"$output")
	recs testdata/synthetic/pipe-be.data
	jq_all '[.records[] | del(.tracing_data.endian)]' "$le" \
		'[.records[] | select(.type == 66) | .tracing_data.endian]' '["big"]' \
		'[.records[] | select(.type == 67) | [.pid, .build_id, .filename]]' '[[-1,"0123456789abcdef0123456789abcdef01234567","/usr/bin/true"]]' \
		'[.records[] | select(.type == 3) | [.pid, .comm, .sample_id.cpu]]' '[[1234,"true",2]]'
}

@test "records: RHEL 7 MMAP2 without prot and flags (hotspot perf.data.true.v2)" {
	need_corpus
	recs "$CORPUS/hotspot/perf.data.true.v2"
	jq_all "$(rec_at 0x25f0) | [.maj, .min, .ino, .filename, has(\"prot\"), .layout != null]" '[253,1,134986833,"/usr/bin/true",false,true]' \
		'[.warnings[] | select(.detail | test("without prot and flags"))] | length' '17'
}

@test "records: simpleperf's TRACING_DATA in the record and SP_* records" {
	need_corpus
	recs "$CORPUS/platform_system_extras/perf_with_tracepoint_event.data"
	jq_all "$(rec_at 0x1e8) | [.tracing_data_size, .tracing_data.version, .tracing_data.nr_events, .tracing_data.complete]" '[2012,"0.5",1,true]' \
		'.warnings' '[]'
	recs "$CORPUS/platform_system_extras/perf_with_big_trace_data.data"
	jq_all "$(rec_at 0x7d68) | [.type, .type_name, .data_size, (.data_head | length)]" '[32772,"SP_SPLIT",65527,64]'
}

# ------------------------------------------------ crafted records

# bats test_tags=asan
@test "records: crafted READ, TEXT_POKE, KSYMBOL, AUX_OUTPUT_HW_ID, CALLCHAIN_DEFERRED" {
	recs "$BATS_FILE_TMPDIR/good.data"
	jq_all "$(rec_at 184) | [.pid, .tid, .value, .time_enabled, .id, has(\"time_running\")]" '[100,101,12345,777,"0x2a",false]' \
		"$(rec_at 224) | [.addr, .old_len, .new_len, .old_bytes, .new_bytes]" '["0xffffffff81000000",2,3,"aabb","ccddee"]' \
		"$(rec_at 256) | [.addr, .len, .ksym_type_name, .flags_names, .name]" '["0xffffffffc0001000",16,"OOL",["UNREGISTER"],"foo"]' \
		"$(rec_at 288) | .hw_id" '"0x1234"' \
		"$(rec_at 304) | [.cookie, .nr, .ips]" '["0xabc",2,["0x1000","0x2000"]]' \
		'.errors' '[]' '.warnings' '[]'
}

# bats test_tags=asan
@test "records: crafted AUXTRACE_ERROR fmt 1 and fmt 0 (msg at 40)" {
	recs "$BATS_FILE_TMPDIR/good.data"
	jq_all "$(rec_at 344) | [.error_type_name, .code, .cpu, .pid, .tid, .fmt, .ip, .time, .msg]" '["itrace",2,3,4,5,1,"0x400000",999,"oops"]' \
		"$(rec_at 456) | [.code, .fmt, .ip, has(\"time\"), .msg]" '[7,0,"0x500000",false,"old"]'
}

# bats test_tags=asan
@test "records: crafted CPU_MAP MASK (u64 and u32 words), CPUS with -1, EVENT_UPDATE CPUS" {
	recs "$BATS_FILE_TMPDIR/good.data"
	jq_all "$(rec_at 560) | [.map_type_name, .nr, .long_size, .mask, .cpus]" '["MASK",1,8,["0x10f"],"0-3,8"]' \
		"$(rec_at 592) | [.nr, .long_size, .mask, .cpus]" '[2,4,["0x3","0x1"],"0-1,32"]' \
		"$(rec_at 616) | [.map_type_name, .cpu, .cpus]" '["CPUS",[0,2,-1],"-1,0,2"]' \
		"$(rec_at 640) | [.update_type_name, .id, .cpu_map.map_type_name, .cpu_map.cpus]" '["CPUS","0x7","RANGE_CPUS","2-5"]'
}

# bats test_tags=asan
@test "records: crafted BPF_METADATA, SCHEDSTAT_CPU/DOMAIN, unknown type" {
	recs "$BATS_FILE_TMPDIR/good.data"
	jq_all "$(rec_at 672) | [.prog_name, .nr_entries, .entries]" '["prog",1,[{"key":"k","value":"v"}]]' \
		"$(rec_at 1520) | [.timestamp, .cpu, .version, .counters.yld_count, .counters.ttwu_local, .counters.rq_cpu_time, .counters.pcount]" '[1000,1,15,1,6,7,9]' \
		"$(rec_at 1592) | [.version, .domain, .words]" '[99,2,[11,12]]' \
		"$(rec_at 1632) | [.type, .type_name, .data_size, .data_head]" '[50,null,8,"8877665544332211"]'
	jq_all '[.records[] | select(.type == 86 and .version == 15) | .counters | keys_unsorted[0], .idle_lb_count, .busy_lb_count, .ttwu_move_balance]' \
		'["idle_lb_count",1,9,36]' \
		'[.records[] | select(.type == 86 and .version == 15) | .counters | length]' '[36]'
}

# bats test_tags=asan
@test "records: crafted TIME_CONV, STAT_ROUND, STAT_CONFIG, MMAP2 build-id" {
	recs "$BATS_FILE_TMPDIR/good.data"
	jq_all "$(rec_at 1648) | [.time_shift, .time_mult, .time_zero, .time_cycles, .time_mask, .cap_user_time_zero, .cap_user_time_short]" \
		'[31,1789569706,100,5000,"0xffffffffffff",1,1]' \
		"$(rec_at 1704) | [.round_type_name, .time]" '["interval",555]' \
		"$(rec_at 1728) | [.data[] | [.tag_name, .val, .val_name]]" '[["AGGR_MODE",2,"socket"],["INTERVAL",100,null],["AGGR_LEVEL",4,null]]' \
		"$(rec_at 1792) | [.misc_names, .cpumode_name, .pid, .build_id_size, .build_id, .prot_names, .flags_names, .filename, has(\"ino\")]" \
		'[["MMAP_BUILD_ID"],"user",200,20,"0102030405060708090a0b0c0d0e0f1011121314",["PROT_READ","PROT_EXEC"],["MAP_PRIVATE"],"/bin/x",false]'
}

# bats test_tags=asan
@test "records: crafted AUXTRACE and HEADER_TRACING_DATA: payloads after the record, -x shows them" {
	recs "$BATS_FILE_TMPDIR/good.data"
	jq_all "$(rec_at 1872) | [.auxtrace_size, .auxtrace_offset, .reference, .tid, .cpu, .payload_size]" '[16,"0x100","0xdead",301,1,16]' \
		"$(rec_at 1936) | [.tracing_data_size, .pad, .payload_size, has(\"tracing_data\")]" '[88,0,88,false]' \
		"$(rec_at 2040) | .type_name" '"ID_INDEX"'
	recs "$BATS_FILE_TMPDIR/good.data" -x
	jq_all "$(rec_at 1872) | [.payload.offset, .payload.size, .payload.hex]" '[1920,16,"30313233343536373839616263646566"]' \
		"$(rec_at 1936) | .tracing_data | [.magic_ok, .version, .endian, .long_size, .page_size, .nr_events, .complete]" '[true,"0.6","little",8,4096,0,true]' \
		"$(rec_at 1936) | .raw.size" '16'
}

# perf report -D's sample lines ("TIME 0xOFF [0xSIZE]:
# PERF_RECORD_SAMPLE(IP, 0xMISC): ...", perf-ref/NAME.dump.txt): "OFFSET
# MISC", the offset in decimal, misc as perf prints the raw field
perf_sample_misc() {
	local off misc
	sed -n 's/^[0-9 -]* \(0x[0-9a-f]*\) \[0x[0-9a-f]*\]: PERF_RECORD_SAMPLE(IP, \(0x[0-9a-f]*\)).*/\1 \2/p' \
		"testdata/perf-ref/$1.dump.txt" |
		while read -r off misc; do echo "$((off)) $misc"; done | sort -n
}

# bats test_tags=asan,normal
@test "records: misc is the raw header.misc, as perf report -D prints it; cpumode apart" {
	local name want
	for name in cpu-clock.data tail-synth.data group-s.data; do
		want=$(perf_sample_misc "$name")
		[ "$(wc -l <<<"$want")" -gt 50 ] || { echo "$name: too few samples in perf's dump"; return 1; }
		pd records --json-lines --type sample "testdata/$name"
		assert_status 0
		# the samples perf's dump shows (its first 400 lines), ours beside them
		assert_eq "$(jq -r 'select(.type_name == "SAMPLE") | "\(.offset) \(.misc)"' <<<"$output" |
			awk 'NR == FNR { want[$1] = 1; next } $1 in want' <(printf '%s\n' "$want") -)" \
			"$want" "$name: misc of the samples perf -D shows"
	done
	# kernel and user samples: misc 0x1 and 0x2 with their cpumode, no flag
	assert_eq "$(jq -sc '[.[] | select(.type_name == "SAMPLE") | [.misc, .cpumode_name, .misc_names]] | unique' <<<"$output")" \
		'[["0x1","kernel",[]],["0x2","user",[]]]' "misc and cpumode of group-s.data's samples"
	pd records --type sample --limit 2 testdata/cpu-clock.data
	assert_contains "$output" "0x3f0 [0x28] PERF_RECORD_SAMPLE: misc=0x2 cpumode=user event=cpu-clock"
	assert_contains "$output" "0x498 [0x28] PERF_RECORD_SAMPLE: misc=0x1 cpumode=kernel event=cpu-clock"
	# a flag beside the cpumode: the word raw, the flag named
	pdj -j records --type mmap2 --limit 1 testdata/buildid-mmap.data
	jq_eq '.records[0] | [.misc, .misc_names, .cpumode_name]' '["0x4001",["MMAP_BUILD_ID"],"kernel"]'
}

# bats test_tags=asan
@test "records: crafted ID_INDEX with guest fields, THREAD_MAP, LOST_SAMPLES BPF, AUX flags, SWITCH-less misc" {
	recs "$BATS_FILE_TMPDIR/good.data"
	jq_all "$(rec_at 2040) | .entries" '[{"id":"0x2a","idx":0,"cpu":1,"tid":100,"machine_pid":5,"vcpu":2}]' \
		"$(rec_at 2104) | [.nr, .entries]" '[2,[{"pid":100,"comm":"a"},{"pid":101,"comm":"bb"}]]' \
		"$(rec_at 2168) | [.lost, .misc_names]" '[3,["LOST_SAMPLES_BPF"]]' \
		"$(rec_at 2184) | [.aux_offset, .aux_size, .flags, .flags_names, .pmu_format]" '["0x1000","0x200","0x103",["TRUNCATED","OVERWRITE","bit 8"],1]'
}

# bats test_tags=asan
@test "records: crafted HEADER_BUILD_ID with a 16-byte build-id, SCHEDSTAT_DOMAIN v15, short HEADER_EVENT_TYPE" {
	recs "$BATS_FILE_TMPDIR/good.data"
	jq_all "$(rec_at 2216) | [.pid, .build_id_size, .build_id, .filename, .misc_names]" '[-1,16,"0102030405060708090a0b0c0d0e0f10","/bin/y",["BUILD_ID_SIZE"]]' \
		"$(rec_at 2264) | [.timestamp, .cpu, .domain, .counters.newidle_lb_nobusyg]" '[3000,2,1,24]' \
		"$(rec_at 2432) | [.event_id, .name]" '["0x1","cycles"]' \
		"$(rec_at 2456) | .type_name" '"FINISHED_ROUND"'
}

# bats test_tags=asan
@test "records: crafted text rows stay one line each" {
	pd records "$BATS_FILE_TMPDIR/good.data"
	assert_status 0
	assert_eq "$(grep -c '^  0x' <<<"$output")" "$(($(wc -l <<<"$output") - 2))" "one line per record"
	assert_contains "$output" "  0xb8 [0x28] PERF_RECORD_READ: event=cpu-clock:HG pid=100 tid=101 value=12345 time_enabled=777 id=0x2a"
	assert_contains "$output" 'PERF_RECORD_CPU_MAP: map_type=MASK nr=1 long_size=8 mask=0x10f cpus="0-3,8"'
	assert_contains "$output" "PERF_RECORD_TEXT_POKE: event=cpu-clock:HG addr=0xffffffff81000000 old_len=2 new_len=3 old_bytes=aabb new_bytes=ccddee"
}

# bats test_tags=asan
@test "records: damaged records are reported with their offset, the rest is still read" {
	pdj -j records "$BATS_FILE_TMPDIR/bad.data"
	assert_status 1
	assert_no_signal
	jq_all '[.records[].offset]' '[184,200,240,256,280,304,320,336,344]' \
		'[.errors[] | .offset]' '[184,224,256,300,314,334,344]' \
		'.errors[-1].detail' '"record of 16 bytes is shorter than the 24-byte minimum for its type"' \
		"$(rec_at 344) | [.min_size, .cookie]" '[24,"0xabc"]' \
		'.errors[0].detail' '"record of 16 bytes is shorter than the 24-byte minimum for its type"' \
		"$(rec_at 184) | [.min_size, .id]" '[24,"0x1"]' \
		"$(rec_at 200) | [.nr_namespaces, .link_info]" '[1000,[]]' \
		"$(rec_at 240) | [.nr, .entries]" '[1099511627776,[]]' \
		'[.warnings[] | .offset]' '[272]' \
		"$(rec_at 256) | .comm" '"abcdefgh"' \
		"$(rec_at 336) | .type_name" '"FINISHED_ROUND"'
	pd records "$BATS_FILE_TMPDIR/bad.data"
	assert_status 1
	assert_contains "$stderr" "perfdump: $BATS_FILE_TMPDIR/bad.data: 0xb8: PERF_RECORD_LOST: record of 16 bytes is shorter than the 24-byte minimum for its type"
	assert_contains "$stderr" ": 0xe0: PERF_RECORD_NAMESPACES: link_info: count 1000 of at least 16 bytes each does not fit in the 16 bytes left"
}

# bats test_tags=asan
@test "records and stats: a COMM without a NUL ends where its sample_id trailer starts" {
	local f=$BATS_TEST_TMPDIR/comm.data
	# sample_id_all (attr flags bit 18): a 16-byte trailer of pid, tid, time
	{
		hdr 3 0 40 # COMM: pid, tid, 8 bytes of comm and no NUL, trailer
		le32 7
		le32 7
		printf abcdefgh
		le32 7
		le32 7
		le64 1000
		hdr 9 2 24 # SAMPLE: pid, tid, time
		le32 7
		le32 7
		le64 2000
	} >"$BATS_TEST_TMPDIR/comm.rec"
	make_records_file "$f" "$BATS_TEST_TMPDIR/comm.rec" $((1 << 18))
	pdj -j records "$f"
	assert_status 0
	jq_all '[.records[0] | .comm, .sample_id.time]' '["abcdefgh",1000]' \
		'[.warnings[] | [.offset, .detail]]' '[[200,"comm: no terminating NUL in the 8 bytes left in the record"]]'
	# stats's thread names come from the same bytes (record_view.c), not
	# the trailer's pid after them
	pdj -j stats "$f"
	jq_eq '.stats.samples.top_processes' '[{"pid":7,"comm":"abcdefgh","samples":1,"percent":100,"threads":1}]'
}

# ----------------------------------------------- every corpus file

# records_check REL [STATUS OFFSET]: records on the corpus file REL, text
# and -j: no signal, STATUS (default 0), nothing on stderr but (STATUS 1) an
# error naming OFFSET.  The JSON (not the text) goes to $J/N.json and its expected error
# offset (null: none) into $want, for one jq over all of them at the end.
records_check() {
	local f=$CORPUS/$1 st=${2:-0} off=${3-} dec=null j out=/dev/null
	for j in "" -j; do
		[ -z "$j" ] || out=$J/$n.json
		status=0
		# shellcheck disable=SC2086
		"$PERFDUMP" $j records "$f" >"$out" 2>"$J/err" || status=$?
		stderr=
		read -r -d '' stderr <"$J/err" || true
		assert_no_signal
		assert_eq "$status" "$st" "exit status of '$j records $1'"
		if [ "$st" = 0 ]; then
			assert_empty "$stderr" "stderr of '$j records $1'"
		elif [ -z "$j" ]; then
			assert_contains "$stderr" "perfdump: $f: $off: " "stderr of 'records $1'"
		fi
	done
	[ -z "$off" ] || dec=$((off))
	want="$want\"$J/$n.json\": $dec,"
	n=$((n + 1))
}

@test "records: every corpus file, text and JSON, exit 0 or 1 with the offset" {
	sweep
	need_corpus
	local f status_off n=0 want= res J=$BATS_TEST_TMPDIR/json
	local -A damaged=(
		[linux-perf-data/sleep.compressed2.pipe.data]="1 0x7c40"
		[perf_data_converter/perf.data.piped.corrupted.zero_size_sample-3.2]="1 0xbfd0"
		[perf_data_converter/perf.data.piped.extrabyte-3.4]="1 0x8d080"
		[platform_system_extras/invalid_perf.data]="1 0x0"
	)
	mkdir "$J"
	for f in $(cd "$CORPUS" && find . -type f ! -name MANIFEST.md | sed 's|^\./||' | LC_ALL=C sort); do
		status_off=${damaged[$f]-}
		# shellcheck disable=SC2086
		records_check "$f" $status_off
	done
	assert_eq "$n" 59 "corpus files"
	# each document: the contract, and no error (and records) or an error
	# at its offset; one jq for all of them (they are megabytes each)
	res=$(jq -n -c --argjson want "{${want%,}}" "$JQ_DEFS"'[inputs | input_filename as $f | $want[$f] as $off |
		select((contract and
			if $off == null then .errors == [] and (.records | length > 0)
			else any(.errors[]; .offset == $off) end) | not) | "\(.file): \(.errors)"]' "$J"/*.json 2>&1) || true # its error, if any, is the result
	assert_eq "$res" "[]" "documents that break the contract"
}

# bats test_tags=asan,normal
@test "records: every fixture and synthetic file, -x text and JSON lines, no signal" {
	sweep
	local f n=0 res J=$BATS_TEST_TMPDIR/jsonl
	mkdir "$J"
	for f in testdata/*.data testdata/threads.data testdata/synthetic/*.data; do
		status=0
		"$PERFDUMP" -x records "$f" >/dev/null 2>&1 || status=$?
		assert_no_signal
		[ "$status" -le 1 ] || { echo "$f: exit $status"; false; }
		status=0
		"$PERFDUMP" records --json-lines "$f" >"$J/$n.jsonl" 2>/dev/null || status=$?
		assert_no_signal
		n=$((n + 1))
	done
	# every line of every output is a JSON object: one jq for all
	res=$(jq -c 'select(type != "object") | input_filename' "$J"/*.jsonl 2>&1) || true
	assert_eq "$res" "" "JSON lines that are not objects (or jq's error)"
}

# ------------------------------------------------------------ options

# bats test_tags=asan
@test "records --type: names, PERF_RECORD_ names and numbers" {
	recs testdata/cpu-clock.data --type comm,mmap2
	jq_eq '[.records[].type] | unique' '[3,10]'
	jq_eq '.records | length' '6'
	recs testdata/cpu-clock.data --type 3,10
	jq_eq '.records | length' '6'
	recs testdata/cpu-clock.data --type PERF_RECORD_EXIT,finished_round
	jq_eq '[.records[].type_name]' '["EXIT","FINISHED_ROUND"]'
	pd records --type nosuchtype testdata/cpu-clock.data
	assert_status 2
}

# registry_types: "NUMBER NAME" for each entry of the record-type registry
# (REC(NAME, ...) and SP(NAME) in src/lib/format/record_types.c), the number
# from the name's PD_REC_ constant in src/lib/format/perf_abi.h.
registry_types() {
	local kind name num
	grep -oE '^\s*(REC|SP)\([A-Z0-9_]+' src/lib/format/record_types.c | tr -d ' \t' |
		while IFS='(' read -r kind name; do
			[ "$kind" = SP ] && name=SP_$name
			num=$(sed -nE "s/^\s*PD_REC_$name = ([0-9]+),.*/\1/p" src/lib/format/perf_abi.h)
			echo "${num:-NONE} $name"
		done
}

# one_of_each: a record of each registry type but the compressed ones
# (the reader decompresses those), most of them only a header: too short
# for their type, each is still shown on its own row.
one_of_each() {
	local num name
	while read -r num name; do
		case $name in
		COMPRESSED | COMPRESSED2) ;;
		HEADER_TRACING_DATA) hdr "$num" 0 16 && le64 0 ;; # no payload
		AUXTRACE) hdr "$num" 0 48 && pad 40 ;;            # no payload
		*) hdr "$num" 0 8 ;;
		esac
	done
}

# bats test_tags=asan,normal
@test "records --type: every registry name is accepted and names its own type number" {
	local types some num name want got arg n=0 f=$BATS_TEST_TMPDIR/each.data a=() only=
	types=$(registry_types)
	# the kernel's 22 types, perf's 23 and simpleperf's 9, each numbered
	assert_eq "$(wc -l <<<"$types")" 54 "registry entries"
	assert_eq "$(grep -c '^NONE ' <<<"$types")" 0 "entries without a PD_REC_ number"
	one_of_each <<<"$types" >"$BATS_TEST_TMPDIR/each.rec"
	make_records_file "$f" "$BATS_TEST_TMPDIR/each.rec"
	pdj -j records "$f"
	assert_no_signal
	jq_eq '.records | length' 52
	while read -r num name; do
		# number -> name: the row of each type carries the registry's name
		# (one jq for all of them)
		case $name in
		COMPRESSED | COMPRESSED2) ;;
		*) a+=("[.records[] | select(.type == $num) | .type_name]" "[\"$name\"]") ;;
		esac
	done <<<"$types"
	jq_all "${a[@]}"
	# name -> number, in any case and with PERF_RECORD_: the three names
	# together select the same records as the number, byte for byte (an
	# alias of another type would add its records); the number selects
	# only records of its type, and some (not COMPRESSED*: decompressed)
	# under the sanitizers: the first few (the option parser is the same)
	some=$(few 6 <<<"$types")
	while read -r num name; do
		want=$("$PERFDUMP" -j records --type "$num" "$f" 2>/dev/null) || true
		got=$("$PERFDUMP" -j records --type "$name,${name,,},PERF_RECORD_$name" "$f" 2>/dev/null) || true
		assert_eq "$got" "$want" "records --type $name,${name,,},PERF_RECORD_$name (type $num)"
		case $name in
		COMPRESSED | COMPRESSED2) num= ;;
		esac
		# each number's output, checked below by one jq
		printf '%s\n' "$want" >>"$BATS_TEST_TMPDIR/only.jsonl"
		only="$only[$num]"$'\n'
		n=$((n + 1))
	done <<<"$some"
	assert_eq "$n" "$(wc -l <<<"$some")" "types checked"
	assert_eq "$(jq -c '[.records[].type] | unique' "$BATS_TEST_TMPDIR/only.jsonl")" "${only%$'\n'}" \
		"the types records --type NUM gives, for each registry number in turn"
}

@test "records: no source file but src/lib/format/perf_abi.h defines a record-type number or compares a type with one" {
	# a record-type number: the kernel's 1..22, perf's 64..86, simpleperf's 32768..32777
	local num='([1-9]|1[0-9]|2[0-2]|6[4-9]|7[0-9]|8[0-6]|327(6[89]|7[0-7]))\b'
	run grep -rnE --include='*.[ch]' \
		-e "\w*REC_\w*\s*=\s*$num" \
		-e "#define\s+\w*REC_\w*\s+\(?$num" \
		-e "\btype\s*(==|!=|<=?|>=?)\s*$num" \
		-e "case\s+$num\s*:" \
		src
	assert_eq "$(grep -v '^src/lib/format/perf_abi.h:' <<<"$output")" "" "kernel numbers outside perf_abi.h"
	# the check finds what it looks for
	assert_contains "$output" "src/lib/format/perf_abi.h"
}

@test "records: no source file but the registry's and the reader's reads a record field at a constant offset" {
	# a record's fields are read through the registry's layouts
	# (record_types.c: pd_parse_record and the views of record_view.c);
	# below the registry, the reader frames records (frame.h: the header,
	# the payload sizes of TRACING_DATA and AUXTRACE), finds COMPRESSED2's
	# data (reader_z.c) and spots a legacy Google stream by its first
	# feature's string length (session_pipe.c)
	run grep -rnE --include='*.[ch]' \
		'pd_get(16|32|64)\(\s*([a-z]+->)?p\s*\+\s*[0-9]+\s*,' src
	assert_eq "$(grep -vE '^src/lib/(format/frame\.h|io/reader_z\.c|session/session_pipe\.c):' <<<"$output")" "" \
		"record fields read at a constant offset outside the registry"
	# the check finds what it looks for
	assert_contains "$output" "src/lib/format/frame.h"
}

# bats test_tags=asan
@test "records --limit, --skip, --at" {
	recs testdata/cpu-clock.data --limit 3 --skip 2
	jq_eq '[.records[].offset]' '[424,472,520]'
	recs testdata/cpu-clock.data --at 0x270 --limit 2
	jq_eq '[.records[].offset]' '[624,632]'
	recs testdata/cpu-clock.data --at 0x271 --limit 1
	jq_eq '[.records[].offset]' '[632]'
	recs testdata/cpu-clock.data --type sample --limit 0
	jq_eq '.records' '[]'
}

# bats test_tags=asan
@test "records --pid, --tid, --cpu, --time, --event" {
	# a record's own pid counts: perf-exec's COMM has a zeroed trailer
	recs testdata/cpu-clock.data --pid 3123 --type comm
	jq_eq '[.records[].comm]' '["perf-exec","dd"]'
	recs testdata/tracepoint.data --cpu 1
	jq_eq '[.records[] | (.cpu // .sample_id.cpu)] | unique' '[1]'
	# FORK's own tid is the child's
	recs testdata/tracepoint.data --tid 3151 --type fork
	jq_eq '[.records[] | [.pid, .tid, .ppid]]' '[[3151,3151,3116]]'
	recs testdata/cpu-clock.data --time 193.085,193.0853
	jq_eq '[.records[].offset]' '[1008,1048]'
	recs testdata/group.data --event task-clock --type sample
	jq_eq '[.records[].event] | unique' '["task-clock"]'
	# perf's per-event count: "task-clock stats:" then its SAMPLE events
	jq_eq '.records | length' "$(awk '/^task-clock stats:/ { on = 1 } on && /SAMPLE events:/ { print $3; exit }' "$REF/group.data.stats.txt")"
}

# bats test_tags=asan
@test "records --order time: sorted by time, the same records as file order" {
	local f
	for f in testdata/tracepoint.data testdata/allbits.data testdata/threads.data; do
		recs "$f" --order time
		jq_eq '[.records[] | (.sample_id.time // .time) | select(. != null)] | . as $t | [range(1; length) | select($t[.] < $t[. - 1])] | length' '0'
		local sorted
		sorted=$(jq -c '[.records[] | [.stream, .offset, .inner_offset]] | sort' <<<"$output")
		recs "$f"
		jq_eq '[.records[] | [.stream, .offset, .inner_offset]] | sort' "$sorted"
	done
}

# check-time-flush.data (scripts/gen-testdata.py): the order perf 6.1 gives
# (`perf report -D`): a round shows before the records it flushes, the ~0
# sample is not queued but goes out as it comes, last_flush falls to +500
# and max_timestamp restarts in an empty queue, so +700 waits until the end
# bats test_tags=asan
@test "records --order time: perf's flush rule, with a time of ~0" {
	recs testdata/synthetic/check-time-flush.data --order time
	# file order: S+1000 272, R 328, R 336, S+500 344, R 400, S+700 408,
	# R 464, S+600 472, S~0 528, S+400 584
	jq_eq '[.records[].offset]' '[328,336,272,400,344,464,528,584,472,408]'
	recs testdata/synthetic/check-time-flush.data --order time --type sample
	jq_eq '[.records[] | .time - 1000000000000]' '[1000,500,18446743073709552000,400,600,700]'
}

# order-runs (scripts/gen-hostile-big.py): 40 rounds of five runs each, as
# perf record writes CPU after CPU: four whose times rise with repeats and
# tie across runs, one whose times fall, rounds that overlap (2888 samples
# too late).  The time-order queue keeps runs, not records (order.c): its
# order, ties in file order and the late ones included, is perf's
# (`perf report -D`, run here).
# bats test_tags=asan
@test "records --order time: interleaved runs, ties and late records in perf's order" {
	local f=$BATS_TEST_TMPDIR/runs.data want
	python3 scripts/gen-hostile-big.py "$f" order-runs
	want=$(perf report -D -i "$f" 2>/dev/null |
		sed -n 's/^[0-9]* 0x\([0-9a-f]*\) \[0x10\]: PERF_RECORD_SAMPLE.*/\1/p' |
		while read -r x; do echo $((16#$x)); done | jq -s -c .)
	recs "$f" --order time --type sample
	jq_eq '[.records[].offset]' "$want"
	jq_all '.records | length' 5000 \
		'[.records[:6][].offset]' '[248,264,280,648,664,1048]' \
		'[.records[].time] | . as $t | [range(1; length) | select($t[.] < $t[. - 1])] | length' 38
}

# check-time-init.data: FINISHED_INIT flushes nothing in perf report or
# perf script (tool.c stub); perf 6.1 gives this order
@test "records --order time: FINISHED_INIT flushes nothing" {
	recs testdata/synthetic/check-time-init.data --order time
	jq_eq '[.records[] | if .type == 9 then .time - 1000000000000 else .type_name end]' \
		'["FINISHED_ROUND","FINISHED_ROUND",1000,"FINISHED_INIT",500,1500,2000]'
	pdj -j check testdata/synthetic/check-time-init.data
	assert_status 0
	jq_eq '[.check.findings[] | [.code, .severity, .values.time - 1000000000000, .values.last_flush - 1000000000000]]' \
		'[["time-backwards-across-round","warning",500,1000]]'
}

# bats test_tags=asan
@test "records --json-lines: preamble, one object per record, diagnostics last" {
	pd records --json-lines testdata/stat.data
	assert_status 0
	local n
	n=$(wc -l <<<"$output")
	assert_eq "$n" 13 "lines (preamble + 11 records + diagnostics)"
	jq_eq 'select(.perfdump_json_version) | [.perfdump_json_version, .file]' '[1,"testdata/stat.data"]' "$(head -1 <<<"$output")"
	jq -e -s 'length == 13' <<<"$output" >/dev/null
	jq_eq '[.type_name] | .[0]' '"EVENT_UPDATE"' "$(sed -n 2p <<<"$output")"
	jq_eq '[.errors, .warnings]' '[[],[]]' "$(tail -1 <<<"$output")"
	jq_eq '.time' '93688607' "$(sed -n 12p <<<"$output")"
}

@test "records -x: the raw bytes of each record and the payloads" {
	recs testdata/stat.data -x
	jq_all '[.records[] | .raw.size == .size] | all' 'true' \
		"$(rec_at 0x370) | .raw.hex" "\"$(hexbytes testdata/stat.data $((0x370)) 24)\""
	pd -x records testdata/stat.data
	assert_contains "$output" "raw: 24 bytes at 0x370"
}

# bats test_tags=asan
@test "records: pipe input on stdin gives the same records as the file" {
	local f want
	for f in testdata/pipe.data testdata/synthetic/pipe-be.data; do
		recs "$f"
		want=$(jq -c '.records' <<<"$output")
		run --separate-stderr sh -c "cat '$f' | '$PERFDUMP' -j records -"
		assert_status 0
		jq_eq '.records' "$want"
	done
	need_corpus
	f=$CORPUS/perfparser/probe.data.stream
	recs "$f"
	want=$(jq -c '.records' <<<"$output")
	run --separate-stderr sh -c "cat '$f' | '$PERFDUMP' -j records -"
	assert_status 0
	jq_eq '.records' "$want"
}

# A container's zstd bytes can give more output than one call to
# ZSTD_decompressStream has room for; perf decompresses each container into
# a buffer big enough for all of it (tools/perf/util/session.c
# perf_session__process_compressed_event), so every record it gives belongs
# to that container.  perfdump used to leave the rest inside zstd until the
# next container came, and named that one.  The file offsets of the 25 EXIT
# records, as perf script -D prints them (0x33d8 twice, 0x38e0, ...).
# bats test_tags=asan
@test "records: a decompressed record has the offset of the container that gave it, as perf says" {
	need_corpus
	local f=$CORPUS/perfparser/parallel_static_gcc__perf.data.zstd
	pd records --json-lines --type EXIT "$f"
	assert_status 0
	assert_eq "$(jq -s -c 'map(select(.type == 4)) | group_by(.offset) | map([.[0].offset, length])' <<<"$output")" \
		'[[13272,2],[14560,1],[15039,1],[22761,8],[27142,6],[30564,6],[34264,1]]'
	# the same with the read-ahead thread and without
	for mode in fast plain; do
		export PERFDUMP_READER=$mode
		pd records --json-lines --type EXIT "$f"
		assert_eq "$(jq -s -c 'map(select(.type == 4) | .offset) | add' <<<"$output")" 618731 "sum of the offsets ($mode)"
	done
}
