#!/usr/bin/env bats
# records --symbols on perf record --call-graph dwarf recordings (issue
# 25): each sample's user stack unwound from its registers and stack copy
# with libdw, frames as perf script prints them
# (testdata/perf-ref/*.script.txt; perf 6.1 unwinds with libunwind).
# Fixtures: scripts/record-symbols-fixtures.sh.

load helpers
# bats file_tags=asan

load symfs

P=testdata/profile

setup() {
	symfs_setup
}

@test "unwind: a program without the C library, every stack to _start, as perf script's" {
	pdj -j records --symbols --type sample --symfs "$T/s" $P/nolibc-dwarf.data
	assert_status 0
	assert_eq "$(our_frames dso_ip)" "$(perf_frames nolibc-dwarf.data)"
	jq_all '[.records[].frames_unwound] | unique' '[3]' \
		'[.records[].frames[2].sym] | unique' '["_start"]' \
		'[.records[] | .unwind_stopped] | unique' '[null]' \
		'.records[0] | [.callchain_nr, .frames]' '[0,[{"ip":"0x401033","dso_ip":"0x1033","sym":"loop_a","symoff":"0x33","dso":"/tmp/perfdump-profile/inl-nolibc"},{"ip":"0x40109d","dso_ip":"0x109d","sym":"start_c","symoff":"0xd","dso":"/tmp/perfdump-profile/inl-nolibc"},{"ip":"0x40108a","dso_ip":"0x108a","sym":"_start","symoff":"0xa","dso":"/tmp/perfdump-profile/inl-nolibc"}]]' \
		'.warnings' '[]'
	# a caller's frame is its return address less one: in the call
	pd records --symbols --type sample --limit 1 --symfs "$T/s" $P/nolibc-dwarf.data
	assert_contains "$output" " comm=inl-nolibc
                  1033 loop_a+0x33 (/tmp/perfdump-profile/inl-nolibc)
                  109d start_c+0xd (/tmp/perfdump-profile/inl-nolibc)
                  108a _start+0xa (/tmp/perfdump-profile/inl-nolibc)"
}

@test "unwind: through a DSO whose file has no CFI, the stack stops there, said once" {
	# the recording has no build-id for libc: it is read from the file at
	# its path (unverified), and the tree's is symbols only (its .eh_frame
	# is NOBITS): perf stops there too
	pdj -j records --symbols --type sample --symfs "$T/s" $P/inl-dwarf.data
	assert_status 0
	assert_eq "$(our_frames dso_ip)" "$(perf_frames inl-dwarf.data)"
	jq_all '.records | length' 34 \
		'[.records[].frames | map(.sym)] | unique' '[["loop_a","main",null],["loop_b","main",null]]' \
		'[.records[].unwind_stopped] | unique' '["0x7fc5d064024a in /usr/lib/x86_64-linux-gnu/libc.so.6: No DWARF information found"]' \
		'[.warnings[] | select(.what == "user stack")] | length' 1 \
		'.warnings' '[{"offset":3304,"what":"user stack","detail":"unwinding stopped at frame 3: 0x7fc5d064024a in /usr/lib/x86_64-linux-gnu/libc.so.6: No DWARF information found (later samples: their unwind_stopped)"}]'
}

@test "unwind: a stack copy cut short ends the frames, with where and why (perf shows a bogus frame)" {
	# --call-graph dwarf,8: the copy holds loop_a's return address only.
	# perf 6.1 (libunwind) prints a last frame ffffffffffffffff
	# [unknown] there: perfdump stops and says why
	pdj -j records --symbols --type sample --symfs "$T/s" $P/nolibc-cut.data
	assert_status 0
	# two frames a sample: the ip is perf's; the caller is start_c where
	# perf has its bogus frame
	assert_eq "$(our_frames dso_ip | awk 'NR % 2')" "$(perf_frames nolibc-cut.data | awk 'NR % 2')"
	assert_eq "$(our_frames dso_ip | awk '!(NR % 2)' | sort | uniq -c | awk '{ $1 = $1; print }')" \
		"24 109d start_c+0xd (/tmp/perfdump-profile/inl-nolibc)
8 10a7 start_c+0x17 (/tmp/perfdump-profile/inl-nolibc)"
	assert_eq "$(perf_frames nolibc-cut.data | awk '!(NR % 2)' | sort -u)" "ffffffffffffffff [unknown] ([unknown])"
	jq_all '.records[0] | [.frames_unwound, .unwind_stopped]' '[2,"0x7ffd00c47238 is outside the stack copy (8 bytes from SP 0x7ffd00c47228)"]' \
		'[.records[] | .unwind_stopped != null] | unique' '[true]' \
		'.warnings' '[{"offset":1472,"what":"user stack","detail":"unwinding stopped at frame 2: 0x7ffd00c47238 is outside the stack copy (8 bytes from SP 0x7ffd00c47228) (later samples: their unwind_stopped)"}]'
	pd records --symbols --type sample --limit 1 --symfs "$T/s" $P/nolibc-cut.data
	assert_contains "$output" 'stack_user: size=8 dyn_size=8'
	assert_contains "$output" ' comm=inl-nolibc unwind_stopped="0x7ffd00c47238 is outside the stack copy (8 bytes from SP 0x7ffd00c47228)"
                  1029 loop_a+0x29 (/tmp/perfdump-profile/inl-nolibc)
                  109d start_c+0xd (/tmp/perfdump-profile/inl-nolibc)
Problems:
  warning: 0x5c0: user stack: unwinding stopped at frame 2: 0x7ffd00c47238 is outside the stack copy (8 bytes from SP 0x7ffd00c47228) (later samples: their unwind_stopped)'
}

@test "unwind: without the program's file, the stack is the sample's ip alone; frame pointers are not unwound" {
	mkdir "$T/none"
	pdj -j records --symbols --type sample --symfs "$T/none" $P/nolibc-dwarf.data
	assert_status 0
	jq_all '[.records[].frames | length] | unique' '[1]' \
		'[.records[].unwind_stopped | sub("0x[0-9a-f]+"; "X")] | unique' '["no CFI for X: /tmp/perfdump-profile/inl-nolibc is not read (no such file)"]' \
		'[.warnings[].what]' '["/tmp/perfdump-profile/inl-nolibc","user stack"]'
	# -g: the kernel's frame-pointer callchain, as perf script's
	pdj -j records --symbols --type sample --symfs "$T/s" $P/inl-fp.data
	assert_status 0
	assert_eq "$(our_frames dso_ip)" "$(perf_frames inl-fp.data)"
	jq_all '[.records[] | .frames_unwound, .unwind_stopped] | unique' '[null]'
}
