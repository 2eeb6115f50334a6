#!/usr/bin/env bats
# records --symbols (issue 25): every sample's ip, or each frame of its
# callchain, with its symbol, offset and DSO, as perf script -F
# ip,sym,symoff,dso prints them (tests/symfs.bash: the tree and the
# frames).

load helpers
# bats file_tags=asan

load symfs

KSYMS=testdata/profile/kallsyms
CC=testdata/profile/callchain.data
PROF=testdata/profile/profile.data
CXX=testdata/profile/cxx.data # hot_cxx's: C++ and Rust names

setup() {
	symfs_setup
}

@test "records --symbols: profile.data's 1087 samples, ip, symbol+offset and DSO as perf script's" {
	pdj -j records --symbols --type sample --symfs "$T/s" --kallsyms $KSYMS $PROF
	assert_status 0
	assert_eq "$(our_frames ip)" "$(perf_frames profile.data)"
	jq_all '[.records[].frames | length] | unique' '[1]' \
		'[.records[].frames[] | select(.sym == "work_b")] | length' 261 \
		'.records[0].frames' '[{"ip":"0x7f8a3c5e562a","dso_ip":"0x1462a","sym":null,"symoff":null,"dso":"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"}]' \
		'.records[2].frames' '[{"ip":"0x556cdc129176","dso_ip":"0x1176","sym":"work_a","symoff":"0x3d","dso":"/tmp/perfdump-profile/hot"}]' \
		'[.records[].frames[] | select(.unverified) | .dso] | unique' '["[kernel.kallsyms]"]' \
		'.warnings' '[]'
}

@test "records --symbols: callchain.data's frames (frame pointers) as perf script's, the context marker shown" {
	pdj -j records --symbols --type sample --symfs "$T/s" $CC
	assert_status 0
	assert_eq "$(our_frames dso_ip)" "$(perf_frames callchain.data)"
	jq_all '[.records[] | .frames[0].context] | unique' '["PERF_CONTEXT_USER"]' \
		'[.records[] | [.callchain_nr, (.frames | length)] | .[0] == .[1]] | unique' '[true]' \
		'[.records[].frames[] | select(.sym == "main")] | length' 110 \
		'.records[5].frames | map(.sym)' '[null,"work_a","main",null]' \
		'[.records[].frames[] | select(.unverified) | .dso] | unique' '["/usr/lib/x86_64-linux-gnu/libc.so.6"]' \
		'.warnings' '[]'
}

@test "records --symbols --jobs 3: callchain.data's and profile.data's frames as perf script's, one record a batch" {
	PERFDUMP_BATCH_BYTES=1 pdj -j records --jobs 3 --symbols --type sample --symfs "$T/s" $CC
	assert_status 0
	assert_eq "$(our_frames dso_ip)" "$(perf_frames callchain.data)"
	jq_all '[.records[].frames[] | select(.sym == "main")] | length' 110 '.warnings' '[]'
	PERFDUMP_BATCH_BYTES=1 pdj -j records --jobs 3 --symbols --type sample --symfs "$T/s" \
		--kallsyms $KSYMS $PROF
	assert_status 0
	assert_eq "$(our_frames ip)" "$(perf_frames profile.data)"
	jq_all '[.records[].frames[] | select(.sym == "work_b")] | length' 261 '.warnings' '[]'
}

# cxx_frames: the comm and the frames of each sample of records -j
# --symbols ($output), as perf script -F comm,ip,sym,symoff,dso prints them
cxx_frames() {
	jq -r '.records[] | (.comm, (.frames[] | select(.context == null) |
		"\(.dso_ip | ltrimstr("0x")) \(if .sym then "\(.sym)+\(.symoff)"
		else "[unknown]" end) (\(.dso // "[unknown]"))"))' <<<"$output"
}

@test "records --symbols: the kernel's init text (start_kernel, past the MMAP's _etext) from kallsyms, as perf script's" {
	# symbol.c dso__load_kernel_sym: with kallsyms read, the kernel's
	# map runs from its first to its last symbol (map__fixup_start/end)
	local K=testdata/profile/kinit
	pdj -j records --symbols --type sample --kallsyms $K.kallsyms $K.data
	assert_status 0
	assert_eq "$(our_frames ip)" "$(perf_frames kinit.data)"
	jq_all '[.records[].frames[] | select(.sym == "start_kernel")] | length' 40 \
		'[.records[].frames[] | select(.sym == "start_kernel")][0]' \
		'{"ip":"0xffffffff8378423d","dso_ip":"0xffffffff8378423d","sym":"start_kernel","symoff":"0x73d","dso":"[kernel.kallsyms]","unverified":true}' \
		'[.records[].frames[] | select(.context == null and .dso == null)] | length' 0 \
		'.warnings' '[]'
}

@test "records --symbols: C++ and Rust names demangled as perf script shows them, raw with --no-demangle" {
	cp testdata/profile/hot_cxx "$T/s$RUN/hot_cxx"
	pdj -j records --symbols --type sample --symfs "$T/s" $CXX
	assert_status 0
	# perf 6.1 here demangles with libiberty's cplus_demangle, which reads
	# Rust's names too.  Two names perfdump shows otherwise (demangle.h):
	# the v0 name _RNvNtCs1234_7mycrate3foo3bar, as it is (__cxa_demangle
	# does not read v0 names; perf built without libiberty does not
	# either), and std::io::stdio::_print::h0123456789abcdef, whose "hash"
	# has all 16 digits: not a hash by perf's demangle-rust.c
	assert_eq "$(cxx_frames)" "$(awk 'NF { $1 = $1; print }' testdata/perf-ref/cxx.data.script.txt |
		sed -e 's/ mycrate::foo::bar+/ _RNvNtCs1234_7mycrate3foo3bar+/' \
			-e 's/ std::io::stdio::_print+/ std::io::stdio::_print::h0123456789abcdef+/')"
	jq_all '[.records[].frames[].sym | select(. != null)] | unique' \
		'["(anonymous namespace)::spin","<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop","_RNvNtCs1234_7mycrate3foo3bar","__libc_early_init","core::fmt::write","geo::Vec::operator+","geo::Walker::step","geo::scaled<unsigned long, 3>","geo::tally","main","main::{lambda(unsigned long)#1}::operator()","std::io::stdio::_print::h0123456789abcdef","strnlen","strtoumax"]' \
		'[.records[] | select(.frames[1].sym == "(anonymous namespace)::spin") | .frames | map(.sym)][0]' \
		'[null,"(anonymous namespace)::spin","geo::Walker::step","main",null]' \
		'.warnings' '[]'
	pd records --symbols --type sample --symfs "$T/s" $CXX
	assert_status 0
	# text: a name with blanks, as perf script lays it out
	assert_contains "$output" "callchain=user,0x561ba71511ed,0x561ba7151367,0x561ba7151086,0x7f13cd36224a comm=hot_cxx
      PERF_CONTEXT_USER
                  11ed (anonymous namespace)::spin+0x2d (/tmp/perfdump-profile/hot_cxx)
                  1367 geo::Walker::step+0x67 (/tmp/perfdump-profile/hot_cxx)
                  1086 main+0x36 (/tmp/perfdump-profile/hot_cxx)
                 2724a [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)
"
	assert_contains "$output" "
                  14bd geo::scaled<unsigned long, 3>+0x2d (/tmp/perfdump-profile/hot_cxx)
"
	# every name as its symbol table has it: perf script --no-demangle's
	pdj -j records --symbols --no-demangle --type sample --symfs "$T/s" $CXX
	assert_status 0
	assert_eq "$(cxx_frames)" "$(awk 'NF { $1 = $1; print }' testdata/perf-ref/cxx.data.raw.script.txt)"
	jq_true '[.records[].frames[].sym | select(. != null) | select(startswith("_Z"))] | length > 150'
}

@test "records --symbols text: a line a frame under its sample, as perf script lays them out" {
	pd records --symbols --type sample --limit 6 --symfs "$T/s" $CC
	assert_status 0
	assert_contains "$output" "callchain=user,0x555dccc3d172,0x555dccc3d1d2,0x7f9eae5d024a comm=hot
      PERF_CONTEXT_USER
                  1172 work_a+0x39 (/tmp/perfdump-profile/hot)
                  11d2 main+0x52 (/tmp/perfdump-profile/hot)
                 2724a [unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6) [unverified]
  0x"
	# every frame line of the whole file is perf's, in its order, the
	# mark of an unverified DSO (libc: in callchains only, so no
	# build-id recorded) aside
	pd records --symbols --type sample --symfs "$T/s" $CC
	assert_eq "$(grep -E '^ {7,}[0-9a-f]+ ' <<<"$output" | sed 's/ \[unverified\]$//' | awk '{ $1 = $1; print }')" \
		"$(perf_frames callchain.data)"
	assert_eq "$(grep -c ' \[unverified\]$' <<<"$output")" \
		"$(grep -c '(/usr/lib/x86_64-linux-gnu/libc.so.6)$' testdata/perf-ref/callchain.data.script.txt)"
	[[ $output != *Problems:* ]]
	assert_empty "$stderr"
}

@test "records --symbols: recordings without build-ids: perf script's frames, from the files at their paths, unverified" {
	local f want
	for f in nobid-pipe nobid-z nobid-killed; do
		want=0
		[ $f = nobid-killed ] && want=1 # its header says data.size 0
		pdj -j records --symbols --type sample --symfs "$T/s" --kallsyms testdata/profile/nobid-kallsyms \
			testdata/profile/$f.data
		assert_status $want
		assert_eq "$(our_frames ip)" "$(perf_frames $f.data)" "$f"
		jq_all '[.records[].frames[].unverified] | unique' '[true]' \
			'[.warnings[] | select(.what | startswith("/"))]' '[]'
	done
	jq_eq '[.records[].frames[] | select(.sym == "work_a")] | length' 1618
	pd records --symbols --type sample --skip 40 --limit 1 --symfs "$T/s" testdata/profile/nobid-z.data
	assert_contains "$output" "comm=hot
          55c1ed760163 work_a+0x2a (/tmp/perfdump-profile/hot) [unverified]"
	# --strict-build-ids: no symbol from them, one warning each
	pdj -j records --symbols --strict-build-ids --type sample --symfs "$T/s" \
		--kallsyms testdata/profile/nobid-kallsyms testdata/profile/nobid-pipe.data
	assert_status 0
	jq_all '[.records[].frames[] | select(.sym) | .dso] | unique' '["[kernel.kallsyms]"]' \
		'[.records[].frames[] | select(.unverified | not) | .dso] | unique' \
		'["/tmp/perfdump-profile/hot","/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2","/usr/lib/x86_64-linux-gnu/libc.so.6"]' \
		'[.warnings[] | .what]' '["/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2","/usr/lib/x86_64-linux-gnu/libc.so.6","/tmp/perfdump-profile/hot"]' \
		'.warnings[2].detail' '"no-build-id, the recording has no build-id for it (--strict-build-ids): its frames have no symbol"'
}

@test "records --symbols: a DSO that is not there gives no symbol, its name, and one warning" {
	mkdir "$T/none"
	pdj -j records --symbols --type sample --symfs "$T/none" $CC
	assert_status 0
	jq_all '[.records[].frames[] | select(.dso == "/tmp/perfdump-profile/hot") | .sym] | unique' '[null]' \
		'[.warnings[].what]' '["/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2","/tmp/perfdump-profile/hot","/usr/lib/x86_64-linux-gnu/libc.so.6"]' \
		'.warnings[1].detail' '"missing, no such file: its frames have no symbol"'
	# an address no map holds: [unknown], as perf
	jq_true '[.records[].frames[] | select(.ip == "0x0")] | .[0] | .dso == null and .sym == null and .dso_ip == "0x0"'
}

@test "records --symbols: the maps come from every record, whatever --type, --at and --limit show" {
	pd records --symbols --type sample --at 0x1000 --limit 1 --symfs "$T/s" $CC
	assert_status 0
	assert_contains "$output" "(/tmp/perfdump-profile/hot)"
	# time order by default (perf script's), file order when asked
	pdj -j records --symbols --symfs "$T/s" $CC
	jq_true '[.records[] | .time // empty] | . == sort'
	pdj -j records --symbols --order file --symfs "$T/s" --type sample $CC
	assert_eq "$(our_frames dso_ip)" "$(perf_frames callchain.data)"
}

@test "records --symbols: pipe mode, records without samples, other formats" {
	pdj -j records --symbols testdata/pipe.data
	assert_status 0
	jq_true '[.records[] | select(.type == 9) | .frames | length > 0] | all'
	pd records --symbols --json-lines testdata/stat.data
	assert_status 0
	assert_eq "$(jq -s '[.[] | select(.type == 9)] | length' <<<"$output")" 0
	pd --redact records --symbols --type sample --limit 1 --symfs "$T/s" $CC
	assert_status 0
	assert_contains "$output" "[unknown] (/usr/lib/"
}

@test "records: --symfs and --no-demangle need --symbols (the kernel's options need none); --vmlinux or --kallsyms" {
	local o
	for o in "--symfs /" --no-demangle; do
		# shellcheck disable=SC2086
		pd records $o $CC
		assert_status 2
		assert_eq "$stderr" "perfdump: records: --symfs and --no-demangle go with --symbols
Try 'perfdump help records'."
	done
	# the kernel's symbols serve tracepoint prints too (tracepoint.bats)
	pd records --kallsyms $KSYMS --debug-dir "$T" --strict-build-ids --type sample --limit 1 $CC
	assert_status 0
	pd records --kallsyms $KSYMS --vmlinux /dev/null $CC
	assert_status 2
	assert_eq "$stderr" "perfdump: records: --vmlinux and --kallsyms: give one
Try 'perfdump help records'."
	pd records --symbols --kallsyms $KSYMS --vmlinux /dev/null $CC
	assert_status 2
	assert_eq "$stderr" "perfdump: records: --vmlinux and --kallsyms: give one
Try 'perfdump help records'."
}

# chain_file OUT N: a little-endian perf.data with one attr (cpu-clock,
# sample_type IP|TID|TIME|CALLCHAIN) and two samples: a callchain
# [USER, 0x1000, 0xffffffffffffffb8, 0x2000] (a marker perf does not
# define: the frame-pointer walk read garbage) and one of N user ips
chain_file() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
out, n = sys.argv[1], int(sys.argv[2])
U = (1 << 64) - 512  # PERF_CONTEXT_USER
def sample(ips):
    body = struct.pack('<QIIQQ', 0x1000, 7, 7, 1000, len(ips)) + struct.pack(f'<{len(ips)}Q', *ips)
    return struct.pack('<IHH', 9, 2, 8 + len(body)) + body
data = sample([U, 0x1000, (1 << 64) - 72, 0x2000]) + sample([U] + [0x3000 + i for i in range(n)])
attr = struct.pack('<IIQQQQQ', 1, 64, 0, 1, 0x27, 0, 0) + bytes(16)
with open(out, 'wb') as f:
    f.write(b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, 80, 104, 80, 184, len(data), 0, 0) + bytes(32))
    f.write(attr + struct.pack('<QQ', 0, 0) + data)
PY
}

@test "records --symbols: a damaged callchain ends at its bad marker; a long one is capped at 1024 frames" {
	chain_file "$T/c.data" 1100
	pdj -j records --symbols "$T/c.data"
	assert_status 0
	jq_all '.records[0].frames' '[{"context":"PERF_CONTEXT_USER"},{"ip":"0x1000","dso_ip":"0x1000","sym":null,"symoff":null,"dso":null},{"context":"0xffffffffffffffb8"}]' \
		'[.records[] | .frames_damaged, .frames_capped]' '[true,null,null,true]' \
		'.records[1] | [.callchain_nr, (.frames | length), .frames[1023].ip]' '[1101,1024,"0x33fe"]'
	pd records --symbols "$T/c.data"
	assert_contains "$output" "      PERF_CONTEXT_USER
                  1000 [unknown] ([unknown])
      PERF_CONTEXT 0xffffffffffffffb8
  0x"
}

@test "records --symbols: a sample whose callchain is empty has its comm and no frame, as perf script shows it" {
	# regs.data: 28 samples with PERF_SAMPLE_CALLCHAIN and callchain_nr
	# 0: perf script prints their comm, no frame (not their ip)
	local K=testdata/profile/kallsyms
	pdj -j records --symbols --type sample --kallsyms $K testdata/regs.data
	assert_status 0
	assert_eq "$(jq -r '.records[] | ("\(.comm) \(.tid) \(.time_s):",
		(.frames[] | select(.context == null) |
		"\(.ip | ltrimstr("0x")) \(.sym // "[unknown]") (\(.dso // "[unknown]"))"))' <<<"$output")" \
		"$(perf script -F comm,tid,time,ip,sym,dso --kallsyms $K -i testdata/regs.data 2>/dev/null | awk 'NF { $1 = $1; print }')"
	jq_all '[.records[] | select(.callchain_nr == 0)] | length' 28 \
		'[.records[] | select(.callchain_nr == 0) | .frames | length] | unique' '[0]' \
		'[.records[] | select(.callchain_nr == 0) | .comm] | unique' '["dd"]'
	pd records --symbols --type sample --limit 1 testdata/regs.data
	assert_status 0
	[[ $output == *"callchain=- "*"comm=dd" ]]
}

@test "records --symbols: each sample's comm at its time, as perf script -F comm,tid shows it" {
	local f
	for f in testdata/profile/profile-sh.data $CC testdata/comm-order.data; do
		pd records --symbols --type sample --json-lines "$f"
		assert_status 0
		assert_eq "$(jq -r 'select(.type == 9) | "\(.comm) \(.tid)"' <<<"$output")" \
			"$(awk '{ $1 = $1; print }' "testdata/perf-ref/${f##*/}.comm.txt")" "$f"
	done
	# a shell's children: named sh by FORK, then by their own COMM
	pdj -j records --symbols --type sample testdata/profile/profile-sh.data
	jq_all '[.records[].comm] | unique' '["cat","sh","sleep","true"]'
}

@test "records --symbols -x: the frame lines, then the record's hex dump, no blank line between" {
	pd -x records --symbols --type sample --limit 1 --symfs "$T/s" $CC
	assert_status 0
	assert_contains "$output" "callchain=user,0x7f9eae7bab70 comm=hot
      PERF_CONTEXT_USER
                 1ab70 [unknown] (/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)
    raw: 64 bytes at 0x3b0
      0x000003b0  09 00 00 00 02 00 40 00  70 ab 7b ae 9e 7f 00 00  |......@.p.{.....|"
}

@test "records --symbols and profile: a DSO never opened closes no descriptor (not standard input's)" {
	command -v strace >/dev/null || skip "needs strace"
	# each DSO is missing: released every frame, opened never (no leak
	# checks: LeakSanitizer does not run under ptrace)
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=close -o "$T/st" "$PERFDUMP" records --symbols --symfs "$T/empty" - \
		<testdata/pipe.data >/dev/null
	run grep -c 'close(0)' "$T/st"
	assert_eq "$output" 0
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=close -o "$T/st" "$PERFDUMP" profile --symfs "$T/empty" $PROF \
		<testdata/pipe.data >/dev/null
	run grep -c 'close(0)' "$T/st"
	assert_eq "$output" 0
}

# branch_file OUT: a little-endian perf.data with one attr (sample_type
# IP|TID|TIME|BRANCH_STACK, branch_sample_type ANY), an MMAP2 of
# /tmp/perfdump-profile/inl (its text at 0x555500001000, with its
# build-id) and a sample with three branches: loop_a's loop back edge,
# main's call of loop_a, and a jump from an address no map holds into
# the kernel's
branch_file() {
	python3 - "$1" <<'PY'
import struct, sys
B = 0x555500000000
bid = b"perfdump-profile-inl"
name = b"/tmp/perfdump-profile/inl"
name += bytes(8 - len(name) % 8)
mm = struct.pack('<IIQQQBBH20sII', 7, 7, B + 0x1000, 0x1000, 0x1000, 20, 0, 0, bid, 5, 2) + name
mmap2 = struct.pack('<IHH', 10, 0x4002, 8 + len(mm)) + mm
ents = [(B + 0x11b3, B + 0x1190), (B + 0x1073, B + 0x1180), (0x1234, 0xffffffff81000000)]
body = struct.pack('<QIIQQ', B + 0x1190, 7, 7, 1000, len(ents))
for f, t in ents:
    body += struct.pack('<QQQ', f, t, 0)
sample = struct.pack('<IHH', 9, 2, 8 + len(body)) + body
data = mmap2 + sample
attr = struct.pack('<IIQQQQQ', 1, 72, 0, 1, 0x807, 0, 0) + bytes(16) + struct.pack('<Q', 8)
with open(sys.argv[1], 'wb') as f:
    f.write(b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, 88, 104, 88, 192, len(data), 0, 0) + bytes(32))
    f.write(attr + struct.pack('<QQ', 0, 0) + data)
PY
}

@test "records --symbols: the branch stack's from and to addresses, user maps first, then the kernel's" {
	branch_file "$T/b.data"
	pdj -j records --symbols --type sample --symfs "$T/s" "$T/b.data"
	assert_status 0
	jq_all '.records[0].branch_stack.nr' 3 \
		'.records[0].frames' '[{"ip":"0x555500001190","dso_ip":"0x1190","sym":"loop_a","symoff":"0x10","dso":"/tmp/perfdump-profile/inl"}]' \
		'[.records[0].branches[] | [.from.sym, .from.symoff, .to.sym, .to.symoff]]' \
		'[["loop_a","0x33","loop_a","0x10"],["main","0x23","loop_a","0x0"],[null,null,null,null]]' \
		'.records[0].branches[2]' '{"from":{"ip":"0x1234","dso_ip":"0x1234","sym":null,"symoff":null,"dso":null},"to":{"ip":"0xffffffff81000000","dso_ip":"0xffffffff81000000","sym":null,"symoff":null,"dso":null}}' \
		'.warnings' '[]'
	pd records --symbols --type sample --symfs "$T/s" "$T/b.data"
	assert_contains "$output" "          555500001190 loop_a+0x10 (/tmp/perfdump-profile/inl)
      branch loop_a+0x33 (/tmp/perfdump-profile/inl) -> loop_a+0x10 (/tmp/perfdump-profile/inl)
      branch main+0x23 (/tmp/perfdump-profile/inl) -> loop_a+0x0 (/tmp/perfdump-profile/inl)
      branch [unknown] ([unknown]) -> [unknown] ([unknown])"
	# with --srcline, each branch address its line too
	pdj -j records --srcline --type sample --symfs "$T/s" "$T/b.data"
	jq_all '[.records[0].branches[0] | .from.srcline, .to.srcline]' '["inl_a.c:18","inl_a.c:19"]'
}
