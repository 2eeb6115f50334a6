#!/usr/bin/env bats
# Torn recordings: a perf record killed before it rewrote its header
# (data.size 0, no feature sections) and recordings whose last record is
# cut.  header, attrs and records all read them and say where the records
# end and why the scan stopped there.

load helpers
# bats file_tags=asan

KILLED_SIZE0='{"offset":48,"what":"file header: data section","detail":"data.size is 0: perf record did not finish writing this file (killed?); records may still follow data.offset 0x108"}'

# cut FILE N OUT: the first N bytes of FILE
cut_file() {
	head -c "$2" "$1" >"$3"
}

@test "killed.data: header says data.size is 0 and where the scanned records end" {
	pdj -j header testdata/killed.data
	assert_status 1
	jq_all '.errors' "[$KILLED_SIZE0]" \
		'.warnings' '[{"offset":632,"what":"data section (data.size 0)","detail":"records scanned from data.offset 0x108 to the end of the file at 0x278: 8 records, 368 bytes"}]'
}

@test "killed.data: header text states both problems, the error on stderr" {
	pd header testdata/killed.data
	assert_status 1
	assert_eq "$stderr" "perfdump: testdata/killed.data: 0x30: file header: data section: data.size is 0: perf record did not finish writing this file (killed?); records may still follow data.offset 0x108"
	assert_contains "$output" "  warning: 0x278: data section (data.size 0): records scanned from data.offset 0x108 to the end of the file at 0x278: 8 records, 368 bytes"
}

@test "killed.data: attrs shows the attr and its ids, with the problem stated" {
	pdj -j attrs testdata/killed.data
	assert_status 1
	jq_all '.attrs | length' '1' \
		'.attrs[0] | [.type_name, .config_name, .ids]' '["SOFTWARE","cpu-clock",["0xda","0xdb"]]' \
		'.errors' "[$KILLED_SIZE0]" \
		'.warnings[0].offset, .warnings[0].detail' '632
"records scanned from data.offset 0x108 to the end of the file at 0x278: 8 records, 368 bytes"'
}

@test "killed.data: records shows all 8 records to the end of the file" {
	pdj -j records testdata/killed.data
	assert_status 1
	jq_all '[.records[] | [.offset, .type_name]]' '[[264,"ID_INDEX"],[344,"MMAP"],[424,"EVENT_UPDATE"],[472,"EVENT_UPDATE"],[520,"THREAD_MAP"],[560,"CPU_MAP"],[576,"COMM"],[624,"FINISHED_INIT"]]' \
		'.errors' "[$KILLED_SIZE0]" \
		'.warnings | length' '1'
}

@test "killed.data torn inside its COMM record: every command says where the scan stopped and why" {
	local f=$BATS_TEST_TMPDIR/torn.data c
	cut_file testdata/killed.data $((0x260)) "$f"
	for c in header attrs records; do
		pdj -j "$c" "$f"
		assert_status 1
		jq_all '.errors[0:2]' "[$KILLED_SIZE0,"'{"offset":576,"what":"data section (data.size 0)","detail":"records scanned from data.offset 0x108 up to 0x240: 6 records, 312 bytes; the scan stopped there: record of type 3 and size 48 extends past the end (only 32 bytes left)"}]' \
			'.warnings' '[]'
	done
	# records also shows the 6 whole records and the reader's own error
	jq_all '[.records[] | .offset] | length, .[-1]' '6
560' \
		'.errors[2]' '{"offset":576,"what":"data section","detail":"record of type 3 and size 48 extends past the end (only 32 bytes left)"}'
}

# bats test_tags=normal
@test "killed.data torn inside a record header: the scan stops at the 4 trailing bytes" {
	local f=$BATS_TEST_TMPDIR/torn4.data
	cut_file testdata/killed.data $((0x274)) "$f"
	pdj -j records "$f"
	assert_status 1
	jq_all '.records | length' '7' \
		'.errors[1]' '{"offset":624,"what":"data section (data.size 0)","detail":"records scanned from data.offset 0x108 up to 0x270: 7 records, 360 bytes; the scan stopped there: 4 trailing bytes after the last record, too few for a record header"}'
	assert_contains "$stderr" "perfdump: $f: 0x270: data section (data.size 0): records scanned from data.offset 0x108 up to 0x270"
}

@test "cpu-clock.data with its last record torn: records up to it, the torn one named" {
	local f=$BATS_TEST_TMPDIR/cut.data
	cut_file testdata/cpu-clock.data $((0x41b0)) "$f"
	pdj -j records "$f"
	assert_status 1
	jq_all '.records | length, .[-1].offset, .[-1].type_name' '404
16736
"SAMPLE"' \
		'.errors' '[{"offset":40,"what":"file header: data section","detail":"0x108-0x41c0 extends past the end of the file (0x41b0): 16 bytes missing"},{"offset":16832,"what":"feature section table","detail":"20 entries of 16 bytes at 0x41c0 extend past the end of the file (0x41b0)"},{"offset":16776,"what":"data section","detail":"record of type 4 and size 48 extends past the end (only 40 bytes left)"}]'
	pdj -j header "$f"
	assert_status 1
	jq_eq '[.errors[].offset]' '[40,16832]'
}

@test "cpu-clock.data with data.size zeroed: the scan finds the 406 records and stops at the feature table" {
	local f=$BATS_TEST_TMPDIR/size0.data c
	cp testdata/cpu-clock.data "$f"
	le64 0 | dd of="$f" bs=1 seek=48 conv=notrunc status=none
	[ "$(u64 "$f" 48)" = 0 ]
	for c in header attrs records; do
		pdj -j "$c" "$f"
		assert_status 1
		jq_all '.errors[0:2]' "[$KILLED_SIZE0,"'{"offset":16832,"what":"data section (data.size 0)","detail":"records scanned from data.offset 0x108 up to 0x41c0: 406 records, 16568 bytes; the scan stopped there: record header: size 0 is smaller than the 8-byte header (type 17184, misc 0x0); cannot find the next record"}]'
	done
	# the records end where the real data section ended: 0x108 + 16568
	[ $((0x108 + 16568)) -eq $((0x41c0)) ]
	jq_all '.records | length, .[-1].offset, .[-1].type_name' '406
16824
"FINISHED_ROUND"'
	pdj -j attrs "$f"
	jq_eq '[.attrs[] | .type_name, .config_name]' '["SOFTWARE","cpu-clock"]'
}

@test "a whole file (data.size set) gets no scan diagnostic" {
	pdj -j header testdata/cpu-clock.data
	assert_status 0
	jq_all '.errors' '[]' '.warnings' '[]'
}
