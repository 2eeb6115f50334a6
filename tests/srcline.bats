#!/usr/bin/env bats
# records --srcline (issue 25): each frame's source line and the calls
# inlined at its address, from the DSO's DWARF, as perf script -F
# ip,sym,symoff,dso,srcline --inline prints them
# (testdata/perf-ref/*.srcline.txt, scripts/record-symbols-fixtures.sh).

load helpers
# bats file_tags=asan

load symfs

P=testdata/profile

setup() {
	symfs_setup
}

# our_lines: records -j --srcline ($output) as perf script lays out
# frames with --inline -F srcline: each inlined call "IP SYM+OFF" then
# "FILE:LINE (inlined)", the frame "IP SYM+OFF (DSO)" then "FILE:LINE"
our_lines() {
	jq -r '.records[].frames[]? | select(.context == null) | . as $f |
		((.inlined[] | "\($f.dso_ip | ltrimstr("0x")) \(.sym)+\($f.symoff)",
			(.srcline // empty | "\(.) (inlined)")),
		"\(.dso_ip | ltrimstr("0x")) \(if .sym then "\(.sym)+\(.symoff)" else "[unknown]" end) (\(.dso // "[unknown]"))",
		(.srcline // empty))' <<<"$output"
}

# perf_lines NAME: perf's, blanks squeezed; left out by name: ":0", the
# line perf gives an address no line holds (_start: perfdump gives
# none), and the lines of libc-start.c and ld.so's dl-*.c, which perf
# read from this machine's debug files (.gnu_debuglink, outside
# --symfs); perfdump reads only the tree, whose libc.so.6 (no build-id
# recorded: the file at its path, unverified) and ld-linux-x86-64.so.2
# hold no DWARF
perf_lines() {
	awk 'NF { $1 = $1; print }' "testdata/perf-ref/$1.srcline.txt" |
		grep -v -E -e '^:0$' -e '^(libc-start|dl-[a-z-]+)\.c:[0-9]+$'
}

@test "records --srcline: DWARF stacks, each frame's line and inlined calls as perf script --inline's" {
	local f
	for f in inl-dwarf nolibc-dwarf; do
		pdj -j records --srcline --type sample --symfs "$T/s" $P/$f.data
		assert_status 0
		assert_eq "$(our_lines)" "$(perf_lines $f.data)" "$f"
	done
	pdj -j records --srcline --type sample --symfs "$T/s" $P/inl-dwarf.data
	jq_all '[.records[].frames[] | .inlined | length] | group_by(.) | map([.[0], length])' '[[0,92],[1,10]]' \
		'[.records[] | select(.frames[0].inlined != [])][0] | [.offset, .frames[0:2]]' \
		'[3304,[{"ip":"0x55fd621dc1a5","dso_ip":"0x11a5","sym":"loop_a","symoff":"0x25","dso":"/tmp/perfdump-profile/inl","srcline":"inl_a.c:19","inlined":[{"sym":"mix","srcline":"inl.h:6"}]},{"ip":"0x55fd621dc077","dso_ip":"0x1077","sym":"main","symoff":"0x27","dso":"/tmp/perfdump-profile/inl","srcline":"inl_a.c:27","inlined":[]}]]' \
		'[.records[].frames[] | select(.dso | endswith("libc.so.6")) | [.srcline, .inlined]] | unique' '[[null,[]]]'
}

@test "records --srcline text: the inlined call, then the frame, each with its line under it" {
	pd records --srcline --type sample --at 0xce8 --limit 1 --symfs "$T/s" $P/inl-dwarf.data
	assert_status 0
	assert_contains "$output" "libc.so.6: No DWARF information found\"
                  11a5 mix+0x25
        inl.h:6 (inlined)
                  11a5 loop_a+0x25 (/tmp/perfdump-profile/inl)
        inl_a.c:19
                  1077 main+0x27 (/tmp/perfdump-profile/inl)
        inl_a.c:27
                 27249 [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6) [unverified]
Problems:"
}

@test "records --srcline: frame pointers too; perf 6.1 expands inlined calls in DWARF stacks only" {
	# perf 6.1 resolves a frame-pointer callchain's frames without their
	# inlined calls (machine.c add_callchain_ip calls append_inlines
	# from perf 6.3 on): its line is then the innermost's.  perfdump
	# expands them everywhere; folded back, its frames are perf 6.1's
	pdj -j records --srcline --type sample --symfs "$T/s" $P/inl-fp.data
	assert_status 0
	assert_eq "$(jq '.records[].frames[] |= (if .context == null and .inlined != [] then
			.srcline = .inlined[0].srcline | .inlined = [] else . end)' <<<"$output" |
		(output=$(cat) our_lines))" "$(perf_lines inl-fp.data)"
	jq_all '[.records[].frames[].inlined | length] | add' 8
	# no --symfs tree: no lines, no inlined calls, the same frames
	mkdir "$T/none"
	pdj -j records --srcline --type sample --symfs "$T/none" $P/inl-fp.data
	assert_status 0
	jq_all '[.records[].frames[] | select(.context == null) | [.srcline, .inlined]] | unique' '[[null,[]]]'
}

@test "records --srcline: an inlined C++ call named from its linkage name, demangled as perf's" {
	pdj -j records --srcline --type sample --symfs "$T/s" $P/inl-cxx.data
	assert_status 0
	assert_eq "$(our_lines)" "$(perf_lines inl-cxx.data)"
	jq_all '[.records[].frames[].inlined[].sym] | unique' '["ns::Acc<unsigned long>::add"]'
	# --no-demangle: the linkage name, as the symbols are then
	pdj -j records --srcline --no-demangle --type sample --symfs "$T/s" $P/inl-cxx.data
	jq_all '[.records[].frames[].inlined[].sym] | unique' '["_ZN2ns3AccImE3addEm"]' \
		'[.records[].frames[] | select(.sym == "_Z3runm")] | length > 0' true
}
