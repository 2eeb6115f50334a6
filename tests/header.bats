#!/usr/bin/env bats
# perfdump header: every fixture (testdata/README.md) and synthetic file
# (testdata/synthetic/README.md), exact values.  Section offsets and sizes
# are the ones perf printed (perf-ref/*.header.txt: data offset, data
# size, feat offset) and are cross-checked against the file's own bytes.

load helpers

S=testdata/synthetic

# check_recorded FILE MODE ATTR_SIZE NR_ATTRS ATTRS_OFF ATTRS_SIZE DATA_OFF
#                DATA_SIZE FILE_SIZE FEATURES
# A sound little-endian v2 file-mode (or directory) recording.
check_recorded() {
	local file=$1 mode=$2 asz=$3 nr=$4 ao=$5 as=$6 do=$7 ds=$8 fs=$9
	local feats=${10} n
	n=$(wc -w <<<"$feats")
	pdj -j header "$file"
	assert_status 0
	assert_empty "$stderr" stderr
	jq_all \
		'.file' "\"$file\"" \
		'.header | [.magic, .version, .endianness, .mode, .header_size]' \
		"[\"PERFILE2\",2,\"little\",\"$mode\",104]" \
		'.header | [.attr_size, .attr_struct_size, .nr_attrs]' "[$asz,$((asz - 16)),$nr]" \
		'.header.attrs' "{\"offset\":$ao,\"size\":$as,\"end\":$((ao + as)),\"status\":\"ok\"}" \
		'.header.data' "{\"offset\":$do,\"size\":$ds,\"end\":$((do + ds)),\"status\":\"ok\"}" \
		'.header.event_types' '{"offset":0,"size":0,"end":0,"status":"empty"}' \
		'.header.file_size' "$fs" \
		'.header.feature_bitmap_layout' '"native"' \
		'.header.features' "$(names_json "$feats")" \
		'.header.feature_table | [.offset, .entries]' "[$((do + ds)),$n]" \
		'[.header.feature_table.sections[].name]' "$(names_json "$feats")" \
		'[.header.feature_table.sections[] | .status == (if .size == 0 then "empty" else "ok" end)] | all' true \
		'[.header.feature_table.sections[].entry_offset]' \
		"[$(seq -s, $((do + ds)) 16 $((do + ds + 16 * (n - 1))))]" \
		'.header.feature_table.sections as $s | [range(1; $s | length)] | all($s[.].offset == $s[. - 1].end)' true \
		'.header.feature_table.sections[-1].end' "$fs" \
		'.errors' '[]' \
		'.warnings' '[]'
}

# ------------------------------------------------- the recorded fixtures

@test "header cpu-clock.data" {
	check_recorded testdata/cpu-clock.data file 144 1 120 144 264 16568 21572 "$FEAT_cpu_clock"
	jq_all \
		'.header.feature_bitmap' '"0x0000000000000000000000000000000000000000000000000000000086717ffc"' \
		'.header.feature_table.sections[0]' \
		'{"bit":2,"name":"BUILD_ID","entry_offset":16832,"offset":17184,"size":500,"end":17684,"status":"ok"}'
}

@test "header callgraph.data" {
	check_recorded testdata/callgraph.data file 144 1 120 144 264 46992 52064 "$FEAT_callgraph"
}

@test "header zstd.data (no BUILD_ID, COMPRESSED)" {
	check_recorded testdata/zstd.data file 144 1 120 144 264 4074 8666 "$FEAT_zstd"
}

@test "header tracepoint.data (TRACING_DATA, 2 attrs)" {
	check_recorded testdata/tracepoint.data file 144 2 136 288 424 27512 38789 "$FEAT_tracepoint"
	jq_eq '.header.feature_table.sections[0]' \
		'{"bit":1,"name":"TRACING_DATA","entry_offset":27936,"offset":28304,"size":6317,"end":34621,"status":"ok"}'
}

@test "header group.data (GROUP_DESC, 2 attrs)" {
	check_recorded testdata/group.data file 144 2 136 288 424 40128 45604 "$FEAT_group"
}

@test "header mono.data (CLOCKID, CLOCK_DATA)" {
	check_recorded testdata/mono.data file 144 1 120 144 264 16568 21772 "$FEAT_mono"
}

@test "header stat.data (STAT with an empty section, no BUILD_ID)" {
	check_recorded testdata/stat.data file 144 2 120 288 408 496 5532 "$FEAT_stat"
	jq_eq '.header.feature_table.sections[] | select(.name == "STAT") | [.offset, .size, .status]' \
		'[3824,0,"empty"]'
}

@test "header allbits.data" {
	check_recorded testdata/allbits.data file 144 2 136 288 424 107552 114288 "$FEAT_allbits"
}

# bats test_tags=asan
@test "header threads.data (directory): mode directory, the header file's sections" {
	check_recorded testdata/threads.data directory 144 1 120 144 264 368 5392 "$FEAT_threads"
}

# bats test_tags=asan
@test "header threads.data: files data, data.0, data.1 with their sizes" {
	local d=testdata/threads.data
	local s0 s1 s2
	s0=$(file_size $d/data)
	s1=$(file_size $d/data.0)
	s2=$(file_size $d/data.1)
	assert_eq "$s0 $s1 $s2" "5392 11192 12000" "stat sizes (testdata/README.md)"
	pdj -j header $d
	assert_status 0
	jq_all \
		'.header.directory.header_file' '"data"' \
		'.header.directory.files' \
		"[{\"name\":\"data\",\"size\":$s0},{\"name\":\"data.0\",\"size\":$s1},{\"name\":\"data.1\",\"size\":$s2}]" \
		'.header.directory.total_size' $((s0 + s1 + s2))
	pd header $d
	assert_contains "$output" $'\n      name=data size=5392\n'
	assert_contains "$output" $'\n      name=data.0 size=11192\n'
	assert_contains "$output" $'\n      name=data.1 size=12000\n'
}

# bats test_tags=asan
@test "header threads.data/ (trailing slash) is the same recording" {
	pd -j header testdata/threads.data
	local want
	want=$(jq -c 'del(.file)' <<<"$output")
	pdj -j header testdata/threads.data/
	assert_status 0
	jq_eq 'del(.file)' "$want"
}

@test "header killed.data: exit 1, data.size == 0 error at 0x30, everything else shown" {
	pdj -j header testdata/killed.data
	assert_status 1
	[[ $stderr == "perfdump: testdata/killed.data: 0x30: "*"data.size is 0"* ]] || {
		echo "stderr: $stderr"
		false
	}
	assert_eq "$(printf '%s\n' "$stderr" | wc -l)" 1 "stderr lines"
	jq_all \
		'.errors | length' 1 \
		'.errors[0].offset' 48 \
		'.errors[0].detail | test("data.size is 0")' true \
		'.header | [.magic, .mode, .attr_size, .nr_attrs, .file_size]' '["PERFILE2","file",144,1,632]' \
		'.header.attrs' '{"offset":120,"size":144,"end":264,"status":"ok"}' \
		'.header.data | [.offset, .size]' '[264,0]' \
		'.header.feature_bitmap' '"0x00000000000000000000000000000000000000000000000000000000d6717ffc"' \
		'.header.features' "$(names_json "$FEAT_killed")" \
		'.header.feature_table | [.entries, .sections]' '[22,[]]'
	pd header testdata/killed.data
	assert_status 1
	assert_contains "$output" $'\n  error: 0x30: '
}

# ------------------------------------------- cross-check with the bytes

# The header's numbers are the file's own u64s: section offsets/sizes at
# 24..71, the bitmap at 72..103, and every feature table entry.
check_against_bytes() {
	local f=$1 e=${2:-little} w n i bm= table want= t
	pdj -j header "$f"
	[ "$status" -le 1 ]
	# shellcheck disable=SC2207
	w=($(od -A n -v -t u8 -j 8 -N 64 --endian="$e" "$f"))
	for i in 96 88 80 72; do
		bm=$bm$(od -A n -v -t x8 -j $i -N 8 --endian="$e" "$f" | tr -d ' \n')
	done
	n=$(jq '.header.feature_table.sections | length' <<<"$output")
	table=$((w[4] + w[5]))
	if [ "$n" -gt 0 ]; then
		# shellcheck disable=SC2207
		t=($(od -A n -v -t u8 -j $table -N $((16 * n)) --endian="$e" "$f"))
		for ((i = 0; i < n; i++)); do
			want="$want,[${t[2 * i]},${t[2 * i + 1]},$((t[2 * i] + t[2 * i + 1]))]"
		done
	fi
	jq_all \
		'.header.header_size' "${w[0]}" \
		'.header.attr_size' "${w[1]}" \
		'.header.attrs | [.offset, .size]' "[${w[2]},${w[3]}]" \
		'.header.data | [.offset, .size]' "[${w[4]},${w[5]}]" \
		'.header.event_types | [.offset, .size]' "[${w[6]},${w[7]}]" \
		'.header.nr_attrs' $((w[3] / w[1])) \
		'.header.feature_bitmap' "\"0x$bm\"" \
		'.header.file_size' "$(file_size "$f")" \
		'.header.feature_table.offset' "$table" \
		'[.header.feature_table.sections[] | [.offset, .size, .end]]' "[${want#,}]"
}

@test "header values equal the file's bytes: recorded fixtures" {
	sweep
	for f in allbits callgraph cpu-clock group killed mono stat tracepoint zstd; do
		check_against_bytes testdata/$f.data
	done
	check_against_bytes testdata/threads.data/data
}

@test "header values equal the file's bytes: synthetic files" {
	sweep
	for f in full-le unknown-features attrs-after-data attr-big v1 trunc-feature; do
		check_against_bytes $S/$f.data
	done
	check_against_bytes $S/full-be.data big
}

@test "header text: aligned label/value rows with hex offsets" {
	pd header testdata/cpu-clock.data
	assert_status 0
	local want
	want=$(
		cat <<'EOF'
File: testdata/cpu-clock.data
header:
  magic:                    PERFILE2
  version:                  2
  endianness:               little
EOF
	)
	assert_eq "$(printf '%s\n' "$output" | head -5)" "$want" "first lines"
	assert_contains "$output" $'\n  mode:                     file\n'
	assert_contains "$output" $'\n  header_size:              104\n'
	assert_contains "$output" $'\n  attrs:                    offset=0x78 size=144 end=0x108 status=ok\n'
	assert_contains "$output" $'\n  data:                     offset=0x108 size=16568 end=0x41c0 status=ok\n'
	assert_contains "$output" $'\n  features:                 BUILD_ID, HOSTNAME, OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE, EVENT_DESC, CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS, CACHE, SAMPLE_TIME, MEM_TOPOLOGY, BPF_PROG_INFO, BPF_BTF, PMU_CAPS\n'
	assert_contains "$output" $'\n      bit=2 name=BUILD_ID entry_offset=0x41c0 offset=0x4320 size=500 end=0x4514 status=ok\n'
	assert_contains "$output" $'\n      bit=31 name=PMU_CAPS entry_offset=0x42f0 offset=0x5440 size=4 end=0x5444 status=ok'
}

# ------------------------------------------------------------------- -x

@test "header -x: a hex dump of the 104 header bytes" {
	pd -x header testdata/cpu-clock.data
	assert_status 0
	assert_contains "$output" $'\n  raw: 104 bytes at 0x0\n    0x00000000  50 45 52 46 49 4c 45 32  68 00 00 00 00 00 00 00  |PERFILE2h.......|\n    0x00000010  90 00 00 00 00 00 00 00  78 00 00 00 00 00 00 00  |........x.......|\n'
	assert_contains "$output" $'\n    0x00000060  00 00 00 00 00 00 00 00                           |........|'
	pdj -j -x header testdata/cpu-clock.data
	jq_all \
		'.header.raw | [.offset, .size]' '[0,104]' \
		'.header.raw.hex' "\"$(hexbytes testdata/cpu-clock.data 0 104)\""
}

@test "header without -x has no hex dump" {
	pd header testdata/cpu-clock.data
	[[ $output != *"raw:"* ]]
	[[ $output != *"0x00000000  50 45"* ]]
	pdj -j header testdata/cpu-clock.data
	jq_true '.header | has("raw") | not'
}

@test "header -x on a pipe: the 16 header bytes" {
	pdj -j -x header testdata/pipe.data
	jq_eq '.header.raw' '{"offset":0,"size":16,"hex":"50455246494c45321000000000000000"}'
	assert_eq "$(hexbytes testdata/pipe.data 0 16)" 50455246494c45321000000000000000 "file bytes"
}

# ----------------------------------------------------------------- pipe

@test "header pipe.data: pipe mode, stream summary, feature records" {
	pdj -j header testdata/pipe.data
	assert_status 0
	assert_empty "$stderr" stderr
	# records 433 = perf-ref/pipe.data.stats.txt "TOTAL events"; ATTR events 1;
	# FEATURE events 19 = 18 features + the end marker (feat_id 32)
	jq_all \
		'.header | [.magic, .endianness, .mode, .header_size]' '["PERFILE2","little","pipe",16]' \
		'.header | has("attrs")' false \
		'.header.stream' '{"bytes":22916,"records":433,"complete":true,"header_attr_records":1,"header_feature_records":18,"end_marker":{"offset":2796,"feat_id":32},"legacy_google_features":false,"first_event_offset":2892}' \
		'[.header.feature_records[].id]' '[3,4,5,6,7,8,9,10,11,12,13,14,16,21,22,25,26,31]' \
		'[.header.feature_records[].record_type] | unique' '[80]' \
		'.header.feature_records[0]' \
		'{"id":3,"name":"HOSTNAME","record_type":80,"record_offset":168,"offset":184,"size":68}' \
		'.header.feature_records[-1]' \
		'{"id":31,"name":"PMU_CAPS","record_type":80,"record_offset":2776,"offset":2792,"size":4}' \
		'.errors' '[]' \
		'.warnings' '[]'
}

# bats test_tags=asan
@test "header pipe.data: every feature record matches the stream's bytes" {
	local f=testdata/pipe.data ro want=
	pdj -j header $f
	for ro in $(jq '.header.feature_records[].record_offset' <<<"$output"); do
		# struct perf_event_header {u32 type; u16 misc; u16 size}; u64 feat_id
		assert_eq "$(od -A n -t u4 -j "$ro" -N 4 $f | tr -d ' ')" 80 "record type at $ro"
		want="$want,[$(u64 $f $((ro + 8))),$((ro + 16)),$(($(od -A n -t u2 -j $((ro + 6)) -N 2 $f | tr -d ' ') - 16))]"
	done
	jq_eq '[.header.feature_records[] | [.id, .offset, .size]]' "[${want#,}]"
	jq_eq '.header.feature_records | length' 18
}

# bats test_tags=asan
@test "header - reads stdin: same output as the file (redirect and pipe)" {
	pd -j header testdata/pipe.data
	local want
	want=$(jq -c 'del(.file)' <<<"$output")
	pdj -j header - <testdata/pipe.data
	assert_status 0
	jq_all '.file' '"-"' 'del(.file)' "$want"
	run --separate-stderr bash -c "cat testdata/pipe.data | '$PERFDUMP' -j header -"
	check_json
	assert_status 0
	jq_all '.file' '"-"' 'del(.file)' "$want"
}

@test "header - in text: the same lines as the file except 'File:'" {
	pd header testdata/pipe.data
	local want
	want=$(printf '%s\n' "$output" | tail -n +2)
	run --separate-stderr bash -c "cat testdata/pipe.data | '$PERFDUMP' header -"
	assert_status 0
	assert_eq "$(printf '%s\n' "$output" | sed -n 1p)" "File: -"
	assert_eq "$(printf '%s\n' "$output" | tail -n +2)" "$want" "text after the first line"
}

# bats test_tags=asan
@test "header - with a file-mode recording on a pipe: same values as the file" {
	pd -j header testdata/cpu-clock.data
	local want
	want=$(jq -c 'del(.file)' <<<"$output")
	run --separate-stderr bash -c "cat testdata/cpu-clock.data | '$PERFDUMP' -j header -"
	check_json
	assert_status 0
	jq_eq 'del(.file)' "$want"
}

# bats test_tags=asan
@test "header of an empty input: exit 1, error at 0x0" {
	: >"$BATS_TEST_TMPDIR/empty.data"
	pdj -j header "$BATS_TEST_TMPDIR/empty.data"
	assert_status 1
	jq_eq '[.errors[].offset]' '[0]'
	assert_contains "$stderr" "perfdump: $BATS_TEST_TMPDIR/empty.data: 0x0: "
	pdj -j header - </dev/null
	assert_status 1
	jq_eq '[.errors[].offset]' '[0]'
}

# bats test_tags=asan
@test "header of a directory without a 'data' file: not a recording, exit 1" {
	mkdir "$BATS_TEST_TMPDIR/notperf"
	pd header "$BATS_TEST_TMPDIR/notperf"
	assert_status 1
	assert_empty "$output" stdout
	assert_eq "$stderr" "perfdump: $BATS_TEST_TMPDIR/notperf: directory: not a perf.data file: a directory without a file 'data' (where perf record --threads writes the header)"
}

@test "header synthetic pipe-le.data: 2 attrs, 12 features, end marker 33, tracing data, build-id" {
	pdj -j header $S/pipe-le.data
	assert_status 0
	assert_empty "$stderr" stderr
	jq_all \
		'.header | [.mode, .endianness, .header_size]' '["pipe","little",16]' \
		'.header.stream' '{"bytes":5652,"records":21,"complete":true,"header_attr_records":2,"header_feature_records":12,"end_marker":{"offset":2264,"feat_id":33},"legacy_google_features":false,"first_event_offset":5312}' \
		'[.header.feature_records[] | select(.record_type == 80) | [.id, .record_offset, .size]]' \
		'[[3,336,68],[4,420,68],[5,504,68],[6,588,68],[7,672,8],[8,696,68],[9,780,68],[10,864,8],[11,888,548],[12,1452,456],[16,1924,292],[21,2232,16]]' \
		'.header.feature_records[] | select(.record_type == 66) | [.id, .name, .record_offset, .size]' \
		'[1,"TRACING_DATA",2280,3016]' \
		'.header.feature_records[] | select(.record_type == 67) | [.id, .name, .record_offset, .size]' \
		'[2,"BUILD_ID",5552,100]' \
		'.errors' '[]'
}

# bats test_tags=asan
@test "header synthetic pipe-be.data: big-endian twin of pipe-le.data" {
	pd -j header $S/pipe-le.data
	local want
	want=$(jq -c 'del(.file, .header.magic, .header.endianness, .header.endianness_how)' <<<"$output")
	pdj -j header $S/pipe-be.data
	assert_status 0
	assert_empty "$stderr" stderr
	jq_all \
		'.header | [.magic, .endianness]' '["2ELIFREP","big"]' \
		'del(.file, .header.magic, .header.endianness, .header.endianness_how)' "$want"
}

# ------------------------------------------------------------ synthetic

@test "header full-le.data: every feature 1..32, the documented table" {
	pdj -j header $S/full-le.data
	assert_status 0
	assert_empty "$stderr" stderr
	jq_all \
		'.header | [.magic, .endianness, .mode, .header_size, .attr_size, .nr_attrs, .file_size]' \
		'["PERFILE2","little","file",104,152,2,11450]' \
		'.header.attrs' '{"offset":136,"size":304,"end":440,"status":"ok"}' \
		'.header.data' '{"offset":440,"size":424,"end":864,"status":"ok"}' \
		'.header.event_types' '{"offset":0,"size":0,"end":0,"status":"empty"}' \
		'.header.feature_bitmap' '"0x00000000000000000000000000000000000000000000000000000001fffffffe"' \
		'.header.feature_bitmap_layout' '"native"' \
		'.header.features' "$(names_json "$ALL32")" \
		'.header.feature_table | [.offset, .entries]' '[864,32]' \
		'[.header.feature_table.sections[] | [.bit, .offset, .size]]' \
		'[[1,1376,3011],[2,4387,216],[3,4603,68],[4,4671,68],[5,4739,68],[6,4807,68],[7,4875,8],[8,4883,68],[9,4951,68],[10,5019,8],[11,5027,548],[12,5575,456],[13,6031,380],[14,6411,180],[15,6591,0],[16,6591,292],[17,6883,80],[18,6963,40],[19,7003,0],[20,7003,668],[21,7671,16],[22,7687,96],[23,7783,8],[24,7791,8],[25,7799,276],[26,8075,111],[27,8186,20],[28,8206,412],[29,8618,24],[30,8642,276],[31,8918,828],[32,9746,1704]]' \
		'[.header.feature_table.sections[].entry_offset]' "[$(seq -s, 864 16 1360)]" \
		'.errors' '[]' \
		'.warnings' '[]'
}

# bats test_tags=asan
@test "header full-be.data: endianness big, same values and feature list as full-le" {
	pd -j header $S/full-le.data
	local le
	le=$(jq -c '.header | del(.magic, .endianness, .endianness_how, .feature_bitmap_layout)' <<<"$output")
	pdj -j header $S/full-be.data
	assert_status 0
	assert_empty "$stderr" stderr
	jq_all \
		'.header | [.magic, .endianness]' '["2ELIFREP","big"]' \
		'.header.endianness_how | test("swap")' true \
		'.header.feature_bitmap_layout' '"swapped as 4 x u64"' \
		'.header.features' "$(names_json "$ALL32")" \
		'.header | del(.magic, .endianness, .endianness_how, .feature_bitmap_layout)' "$le" \
		'.errors' '[]'
}

# bats test_tags=asan
@test "header full-be32.data: the bitmap is read as 8 x u32 (32-bit producer)" {
	assert_eq "$(hexbytes $S/full-be32.data 72 32)" \
		fffffffe00000001000000000000000000000000000000000000000000000000 "bitmap bytes"
	pd -j header $S/full-le.data
	local le
	le=$(jq -c '.header | del(.magic, .endianness, .endianness_how, .feature_bitmap_layout)' <<<"$output")
	pdj -j header $S/full-be32.data
	assert_status 0
	jq_all \
		'.header.endianness' '"big"' \
		'.header.feature_bitmap_layout | test("8 x u32") and test("32-bit")' true \
		'.header.features' "$(names_json "$ALL32")" \
		'.header | del(.magic, .endianness, .endianness_how, .feature_bitmap_layout)' "$le" \
		'.errors' '[]'
}

@test "header v1.data: PERFFILE, version 1, ABI guessed from attr_size 88" {
	pdj -j header $S/v1.data
	assert_status 0
	assert_empty "$stderr" stderr
	jq_all \
		'.header | [.magic, .version, .endianness, .mode, .header_size, .attr_size, .attr_struct_size, .nr_attrs, .file_size]' \
		'["PERFFILE",1,"little","file",104,88,72,1,556]' \
		'.header.endianness_how | test("attr_size 88")' true \
		'.header.attrs' '{"offset":112,"size":88,"end":200,"status":"ok"}' \
		'.header.data' '{"offset":272,"size":168,"end":440,"status":"ok"}' \
		'.header.event_types' '{"offset":200,"size":72,"end":272,"status":"ok"}' \
		'.header.features' '["BUILD_ID"]' \
		'.header.feature_table | [.offset, .entries]' '[440,1]' \
		'.header.feature_table.sections' \
		'[{"bit":2,"name":"BUILD_ID","entry_offset":440,"offset":456,"size":100,"end":556,"status":"ok"}]' \
		'.errors' '[]'
}

@test "header hdr72.data: 72-byte header, no feature bitmap, no table" {
	pdj -j header $S/hdr72.data
	assert_status 0
	assert_empty "$stderr" stderr
	jq_all \
		'.header | [.magic, .version, .header_size, .attr_size, .attr_struct_size, .nr_attrs, .file_size]' \
		'["PERFFILE",1,72,80,64,1,296]' \
		'.header.endianness_how | test("attr_size 80")' true \
		'.header.attrs' '{"offset":72,"size":80,"end":152,"status":"ok"}' \
		'.header.data' '{"offset":160,"size":136,"end":296,"status":"ok"}' \
		'.header.feature_bitmap | test("absent")' true \
		'.header.features // []' '[]' \
		'.header.feature_table.sections // []' '[]' \
		'.errors' '[]'
	pdj -j features $S/hdr72.data
	assert_status 0
	jq_eq '.features' '[]'
}

@test "header unknown-features.data: bits 40, 100, 129, 200 and the right table entries" {
	pdj -j header $S/unknown-features.data
	assert_status 0
	assert_empty "$stderr" stderr
	# popcount = 7 entries, not the 8 slots of the table area
	jq_all \
		'.header.features' '["HOSTNAME","ARCH","NRCPUS","bit 40","bit 100","SP_META_INFO","bit 200"]' \
		'.header.feature_bitmap' '"0x00000000000001000000000000000002000000100000000000000100000000c8"' \
		'.header.feature_table | [.offset, .entries]' '[392,7]' \
		'[.header.feature_table.sections[] | [.bit, .name, .entry_offset, .offset, .size]]' \
		'[[3,"HOSTNAME",392,520,68],[6,"ARCH",408,588,68],[7,"NRCPUS",424,656,8],[40,null,440,664,16],[100,null,456,680,16],[129,"SP_META_INFO",472,696,51],[200,null,488,747,16]]' \
		'[.header.feature_table.sections[].status] | unique' '["ok"]'
	pd header $S/unknown-features.data
	assert_contains "$output" 'features:                 HOSTNAME, ARCH, NRCPUS, "bit 40", "bit 100", SP_META_INFO, "bit 200"'
	assert_contains "$output" 'bit=40 name=- entry_offset=0x1b8 offset=0x298 size=16 end=0x2a8 status=ok'
}

@test "header attrs-after-data.data (perf inject layout): exit 0, sections as written" {
	pdj -j header $S/attrs-after-data.data
	assert_status 0
	assert_empty "$stderr" stderr
	jq_all \
		'.header.attrs' '{"offset":1096,"size":304,"end":1400,"status":"ok"}' \
		'.header.data' '{"offset":104,"size":296,"end":400,"status":"ok"}' \
		'.header.nr_attrs' 2 \
		'.header.features' '["HOSTNAME","ARCH","NRCPUS","EVENT_DESC"]' \
		'[.header.feature_table.sections[] | [.bit, .entry_offset, .offset, .size]]' \
		'[[3,400,464,68],[6,416,532,68],[7,432,600,8],[12,448,608,456]]' \
		'.errors' '[]' \
		'.warnings' '[]'
}

@test "header attr-big.data: attr_size 176 (attr.size 160), exit 0" {
	pdj -j header $S/attr-big.data
	assert_status 0
	jq_all \
		'.header | [.attr_size, .attr_struct_size, .nr_attrs]' '[176,160,1]' \
		'.header.attrs' '{"offset":112,"size":176,"end":288,"status":"ok"}' \
		'.header.data' '{"offset":288,"size":120,"end":408,"status":"ok"}' \
		'[.header.feature_table.sections[] | [.bit, .offset, .size]]' \
		'[[3,472,68],[6,540,68],[7,608,8],[12,616,248]]' \
		'.errors' '[]'
}

# ------------------------------------------------------ damaged headers

# check_damaged FILE: exit 1, every error on stderr once, in the
# documented format "perfdump: FILE: 0xOFFSET: what: detail".
check_damaged() {
	pdj -j header "$1"
	assert_status 1
	assert_no_signal
	jq_true '.errors | length > 0'
	[ -n "$stderr" ]
	if printf '%s\n' "$stderr" | grep -Ev "^perfdump: $1: 0x[0-9a-f]+: [^:]+(: [^:]+)*: .+"; then
		echo "badly formed stderr line(s) above"
		return 1
	fi
	assert_eq "$(printf '%s\n' "$stderr" | wc -l)" "$(jq '.errors | length' <<<"$output")" \
		"stderr lines vs JSON errors"
}

@test "header trunc-header.data: exit 1 at 0x32, the complete header fields still shown" {
	local f=$S/trunc-header.data
	check_damaged $f
	assert_contains "$stderr" "perfdump: $f: 0x32: "
	# bytes 0..49 hold magic, size, attr_size, attrs{offset,size} and
	# data.offset (testdata/synthetic/README.md)
	jq_all \
		'[.errors[].offset]' '[50]' \
		'.header | [.magic, .endianness, .mode, .header_size]' '["PERFILE2","little","file",104]' \
		'.header.attr_size' 152 \
		'.header.attrs | [.offset, .size]' '[136,304]' \
		'.header.data.offset' 440
}

@test "header trunc-attrs.data: exit 1, attrs past the end (0x15c), the header shown" {
	local f=$S/trunc-attrs.data
	check_damaged $f
	assert_contains "$stderr" "perfdump: $f: 0x18: "
	assert_contains "$stderr" "(0x15c)"
	jq_all \
		'.errors | any(.offset == 24 and (.what | test("attrs")))' true \
		'.header | [.header_size, .attr_size, .nr_attrs, .file_size]' '[104,152,2,348]' \
		'.header.attrs | [.offset, .size, .status]' '[136,304,"past end of file"]' \
		'.header.data | [.offset, .size, .status]' '[440,424,"past end of file"]' \
		'.header.features' "$(names_json "$ALL32")" \
		'.header.feature_table.sections' '[]'
}

@test "header trunc-data.data: exit 1, data past the end (0x27c), attrs ok" {
	local f=$S/trunc-data.data
	check_damaged $f
	assert_contains "$stderr" "perfdump: $f: 0x28: "
	assert_contains "$stderr" "(0x27c)"
	jq_all \
		'.errors | any(.offset == 40 and (.what | test("data")))' true \
		'.header.attrs.status' '"ok"' \
		'.header.data | [.offset, .size, .status]' '[440,424,"past end of file"]' \
		'.header.file_size' 636 \
		'.header.features' "$(names_json "$ALL32")"
}

@test "header trunc-feattable.data: exit 1 at the table (0x360), header fields and the complete entries shown" {
	local f=$S/trunc-feattable.data
	check_damaged $f
	assert_contains "$(printf '%s\n' "$stderr" | head -1)" "perfdump: $f: 0x360: "
	assert_contains "$stderr" "(0x3b8)"
	# entries 0-4 are complete (bits 1-5); entry 5 lacks its size
	jq_all \
		'.errors[0].offset' 864 \
		'.header | [.magic, .header_size, .attr_size, .nr_attrs, .file_size]' '["PERFILE2",104,152,2,952]' \
		'.header.attrs.status' '"ok"' \
		'.header.data' '{"offset":440,"size":424,"end":864,"status":"ok"}' \
		'.header.features' "$(names_json "$ALL32")" \
		'.header.feature_table | [.offset, .entries]' '[864,32]' \
		'[.header.feature_table.sections[] | [.bit, .offset, .size, .status]]' \
		'[[1,1376,3011,"past end of file"],[2,4387,216,"past end of file"],[3,4603,68,"past end of file"],[4,4671,68,"past end of file"],[5,4739,68,"past end of file"]]'
}

@test "header trunc-feature.data: exit 1, sections 1-11 ok, 12 torn at 0x162b, the rest past the end" {
	local f=$S/trunc-feature.data
	check_damaged $f
	assert_contains "$stderr" "(0x162b)"
	jq_all \
		'.header.feature_table.entries' 32 \
		'[.header.feature_table.sections[] | select(.status == "ok") | .bit]' "[$(seq -s, 1 11)]" \
		'[.header.feature_table.sections[] | select(.status == "past end of file") | .bit]' \
		'[12,13,14,16,17,18,20,21,22,23,24,25,26,27,28,29,30,31,32]' \
		'[.header.feature_table.sections[] | select(.status == "empty") | [.bit, .offset, .size]]' \
		'[[15,6591,0],[19,7003,0]]' \
		'.errors | any(.offset == 1040 and (.what | test("EVENT_DESC")))' true
}

@test "header zero-magic.data: header size 999 rejected at 0x8, exit 1" {
	local f=$S/zero-magic.data
	check_damaged $f
	assert_contains "$stderr" "perfdump: $f: 0x8: "
	assert_contains "$stderr" "999"
	jq_all \
		'[.errors[].offset]' '[8]' \
		'.header | [.magic, .header_size]' '["PERFILE2",999]' \
		'.header | has("attrs")' false
}

# bats test_tags=asan
@test "header of a file with no magic: exit 1 at 0x0" {
	head -c 1024 /dev/zero >"$BATS_TEST_TMPDIR/zeros.data"
	check_damaged "$BATS_TEST_TMPDIR/zeros.data"
	jq_eq '[.errors[].offset]' '[0]'
	assert_contains "$stderr" ": 0x0: "
	assert_contains "$stderr" "magic"
}

# bats test_tags=asan,normal
@test "header: every fixture exits as documented in text, -j and -p, never by a signal" {
	sweep
	local f want fmt docs= n=0 bad
	for f in $S/*.data testdata/*.data testdata/threads.data; do
		case ${f##*/} in
		trunc-* | zero-magic.data | killed.data | killed-u.data | check-overlap.data) want=1 ;;
		code-attr-size.data | code-attrs-size.data | code-bad-magic.data) want=1 ;;
		code-header.data | code-killed.data | code-pipe.data) want=1 ;;
		*) want=0 ;;
		esac
		for fmt in "" -j -p; do
			# shellcheck disable=SC2086
			pd $fmt header "$f"
			assert_no_signal
			assert_eq "$status" "$want" "exit status of 'header $fmt $f'"
			[ -z "$fmt" ] || {
				docs="$docs$output
"
				n=$((n + 1))
			}
		done
	done
	# one jq over the -j and -p documents: one each, the contract's keys
	bad=$(jq -r -n --argjson n "$n" "$JQ_DEFS"'[inputs] | if length != $n then "\(length) documents for \($n) runs" else .[] |
		select(contract | not) | "\(.file // .)" end' <<<"$docs" 2>&1)
	assert_empty "$bad" "documents not of the JSON contract"
}
