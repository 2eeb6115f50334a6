#!/usr/bin/env bats
# perfdump profile (issue 14): samples per function, DSO, process and
# thread, symbolized from build-id-verified files with libelf and libdw.
# perf's own views are in testdata/perf-ref/ (scripts/record-profile-
# fixtures.sh); the symfs trees are built here from testdata/profile/, so
# nothing depends on this machine's binaries, kernel or build-id cache.

load helpers
# bats file_tags=asan

RUN=/tmp/perfdump-profile # where profile.data's program ran
KSYMS=testdata/profile/kallsyms
HOT_ID=7065726664756d702d70726f66696c652d686f74

setup() {
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/empty"
	# hermetic: no build-id cache of this machine
	export PERF_BUILDID_DIR=$T/empty
}

# tree DIR [BINARY]: the Debian tree and, at its recorded path, the
# program (or BINARY in its place)
tree() {
	mkdir -p "$1$RUN"
	cp -r testdata/profile/debian/. "$1/"
	cp "${2:-testdata/profile/hot}" "$1$RUN/hot"
}

# opened_outside LOG DIR...: the absolute paths strace's LOG shows opened
# after the recording was, outside every DIR (openat2's are relative to
# a root DIR); empty when there are none
opened_outside() {
	local log=$1 d
	shift
	sed -n '/\.data"/,$p' "$log" | grep -oE '^[0-9]+ +open[a-z0-9]*\((AT_FDCWD, )?"/[^"]*"' |
		sed -E 's/.*"(.*)"/\1/' | while read -r f; do
		# the online CPUs, --jobs' default (sysconf)
		[ "$f" != /sys/devices/system/cpu/online ] || continue
		for d in "$@"; do
			case $f in "$d" | "$d"/*) continue 2 ;; esac
		done
		echo "$f"
	done
}

# perf_rows NAME: "samples period dso symbol" of perf report, sorted
perf_rows() {
	awk '!/^#/ && NF { s = $0; sub(/^.*\[[.k]\] /, "", s); print $1, $2, $3, s }' \
		"testdata/perf-ref/$1.report.txt" | sort
}

# our_rows: the same from profile -j's functions (an address row as perf
# prints it, 16 hex digits)
our_rows() {
	jq -r '.profile.functions[] | [.samples, .period, .dso,
		(.symbol // (.address | ltrimstr("0x") |
			"0x" + ("0000000000000000"[0:16 - length]) + .))] |
		map(tostring) | join(" ")' <<<"$output" | sort
}

@test "profile: the program's samples per symbol are perf report's, in its two source files" {
	tree "$T/s"
	pdj -j profile --symfs "$T/s" --kallsyms $KSYMS testdata/profile/profile.data
	assert_status 0
	assert_eq "$(our_rows)" "$(perf_rows profile.data)" "rows vs perf report"
	# work_a's loop runs three times work_b's
	jq_all '[.profile.functions[] | select(.dso == "hot") | [.symbol, .source_file, .hot_file, .hot_line, .status]]' \
		'[["work_a","testdata/profile/hot_a.c","testdata/profile/hot_a.c",14,"match"],["work_b","testdata/profile/hot_b.c","testdata/profile/hot_b.c",6,"match"]]' \
		'[.profile.functions[] | select(.dso == "hot")] | (.[0].samples / .[1].samples) | . > 2.7 and . < 3.3' 'true' \
		'.profile.dsos[] | select(.dso == "hot") | [.status, .path, .symbols, .lines, .build_id]' \
		"[\"match\",\"$T/s$RUN/hot\",\"symtab\",\"dwarf\",\"$HOT_ID\"]" \
		'.profile | [.by, .samples, .period, .events[0].event, .events[0].samples]' \
		'["function",1087,271750000,"cpu-clock",1087]'
	# an address table of 3: folded into rows over and over, the same rows
	PERFDUMP_PROFILE_ADDRS=3 pdj -j profile --symfs "$T/s" --kallsyms $KSYMS testdata/profile/profile.data
	assert_status 0
	assert_eq "$(our_rows)" "$(perf_rows profile.data)" "rows after folds vs perf report"
	jq_all '.profile.summary.address_table_folds > 100' 'true' \
		'[.profile.functions[] | select(.dso == "hot") | [.symbol, .source_file]]' \
		'[["work_a","testdata/profile/hot_a.c"],["work_b","testdata/profile/hot_b.c"]]'
	pd profile --symfs "$T/s" --kallsyms $KSYMS --top 2 testdata/profile/profile.data
	assert_status 0
	assert_contains "$output" "    work_a:                 samples=808 percent=74.33% period=202000000 dso=hot source_file=testdata/profile/hot_a.c hot_line=14
    work_b:                 samples=261 percent=24.01% period=65250000 dso=hot source_file=testdata/profile/hot_b.c hot_line=6
  dsos:"
}

@test "profile: C++ and Rust names as perf report shows them, raw with --no-demangle; in text and CSV" {
	tree "$T/s"
	cp testdata/profile/hot_cxx "$T/s$RUN/hot_cxx"
	# perf report --no-children's rows (cxx.data has callchains)
	pdj -j profile --no-children --symfs "$T/s" testdata/profile/cxx.data
	assert_status 0
	# perf 6.1 here (libiberty's cplus_demangle) reads Rust's names too;
	# perfdump shows two otherwise (demangle.h, tests/symbols.bats): the
	# v0 name as it is, and a "hash" of all 16 digits kept
	assert_eq "$(our_rows)" "$(perf_rows cxx.data |
		sed -e 's/ mycrate::foo::bar$/ _RNvNtCs1234_7mycrate3foo3bar/' \
			-e 's/ std::io::stdio::_print$/ std::io::stdio::_print::h0123456789abcdef/')" "rows vs perf report"
	jq_all '[.profile.functions[] | select(.dso == "hot_cxx") | .symbol] | sort' \
		'["(anonymous namespace)::spin","<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop","_RNvNtCs1234_7mycrate3foo3bar","core::fmt::write","geo::Vec::operator+","geo::Walker::step","geo::scaled<unsigned long, 3>","geo::tally","main::{lambda(unsigned long)#1}::operator()","std::io::stdio::_print::h0123456789abcdef"]' \
		'.profile.functions[] | select(.symbol == "geo::scaled<unsigned long, 3>") | [.samples, .address, .size, .source_file, .hot_line]' \
		'[18,"0x1490",55,"testdata/profile/hot_cxx.cc",60]'
	pdj -j profile --no-children --no-demangle --symfs "$T/s" testdata/profile/cxx.data
	assert_status 0
	assert_eq "$(our_rows)" "$(perf_rows cxx.data.raw)" "raw rows vs perf report --no-demangle"
	jq_eq '[.profile.functions[] | select(.dso == "hot_cxx") | .symbol] | sort | .[0:2]' \
		'["_RNvNtCs1234_7mycrate3foo3bar","_ZN12_GLOBAL__N_14spinEm"]'
	# text: a name with blanks is a row's title; CSV quotes one with a comma
	pd profile --no-children --symfs "$T/s" --top 4 testdata/profile/cxx.data
	assert_contains "$output" "
    geo::tally:             samples=19 percent=10.38% period=4750000 dso=hot_cxx source_file=testdata/profile/hot_cxx.cc hot_line=67
    geo::scaled<unsigned long, 3>: samples=18 percent=9.84% period=4500000 dso=hot_cxx source_file=testdata/profile/hot_cxx.cc hot_line=60
  dsos:"
	pd profile --no-children --csv --symfs "$T/s" testdata/profile/cxx.data
	assert_contains "$output" "
cpu-clock:u,\"geo::scaled<unsigned long, 3>\",0x1490,55,18,9.84,4500000,hot_cxx,match,no,testdata/profile/hot_cxx.cc,60,0x14bd,testdata/profile/hot_cxx.cc
"
}

@test "profile: the demangler's cases are perf report's names: special names, clones, versions, Rust suffixes, PLT entries cut at 1023 bytes" {
	# a DSO whose 31 functions are named by profile/cxx-names.txt, a
	# sample in each (scripts/gen-profiledata.py names)
	python3 scripts/gen-profiledata.py names testdata/profile/cxx-names.txt "$T/n"
	pdj -j profile --symfs "$T/n/symfs" "$T/n/names.data"
	assert_status 0
	assert_eq "$(our_rows)" "$(perf_rows names.data)" "rows vs perf report"
	jq_all '.profile.summary.rows' 31 \
		'[.profile.functions[].symbol | select(startswith("std::_Rb_tree")) | length]' '[1023]' \
		'[.profile.functions[].symbol | select(test("geo::get|geo::tick|core::|thunk|@plt$"))] | sort' \
		'["<alloc::string::String as core::fmt::Display>::fmt","core::fmt::write","core::fmt::write@plt","core::ptr::drop_in_place","geo::get<int>","geo::tick","geo::tick","memcpy@plt","non-virtual thunk to std::basic_iostream<char, std::char_traits<char> >::~basic_iostream()","std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_create@plt"]'
	# --no-demangle: the names as listed
	pdj -j profile --no-demangle --symfs "$T/n/symfs" "$T/n/names.data"
	assert_status 0
	assert_eq "$(jq -r '.profile.functions[].symbol' <<<"$output" | sort)" \
		"$(grep -v '^#' testdata/profile/cxx-names.txt | sort)"
}

@test "profile: a Debian binary symbolized from .dynsym alone gives perf report's counts" {
	pdj -j profile --symfs testdata/profile/debian --kallsyms $KSYMS testdata/cpu-clock.data
	assert_status 0
	assert_eq "$(our_rows)" "$(perf_rows cpu-clock.data)" "rows vs perf report"
	jq_all '[.profile.dsos[] | [.dso, .status, .symbols, .nsyms > 0]]' \
		'[["[kernel.kallsyms]","not-checked","kallsyms",true],["dd","match","dynsym",true],["ld-linux-x86-64.so.2","match","dynsym",true],["libc.so.6","match","dynsym",true]]'
}

@test "profile --by dso: samples per DSO are perf report's" {
	tree "$T/s"
	pdj -j profile --by dso --symfs "$T/s" --kallsyms $KSYMS testdata/profile/profile.data
	assert_status 0
	assert_eq "$(jq -r '.profile.dsos[] | "\(.dso) \(.samples) \(.period)"' <<<"$output" | sort)" \
		"$(perf_rows profile.data | awk '{ s[$3] += $1; p[$3] += $2 } END { for (d in s) print d, s[d], p[d] }' | sort)"
	jq_eq '[.profile.dsos[] | [.dso, .status, .symbols]]' \
		'[["hot","match","none"],["[kernel.kallsyms]","not-checked","none"],["ld-linux-x86-64.so.2","match","none"]]'
}

@test "profile --symfs: a binary whose build-id differs is a mismatch: one row, no symbols" {
	tree "$T/s" testdata/profile/debian/usr/bin/dd
	pdj -j profile --symfs "$T/s" --kallsyms $KSYMS testdata/profile/profile.data
	assert_status 0
	jq_all '[.profile.functions[] | select(.dso == "hot") | [.symbol, .address, .samples, .status]]' \
		'[["[mismatch]",null,1069,"mismatch"]]' \
		'.profile.dsos[] | select(.dso == "hot") | [.status, .symbols, .detail]' \
		'["mismatch","none","the file has another build-id"]' \
		'[.profile.functions[].symbol] | index("work_a")' 'null'
	pd profile --symfs "$T/s" --kallsyms $KSYMS --top 1 testdata/profile/profile.data
	assert_contains "$output" "    [mismatch]:             samples=1069 percent=98.34% period=267250000 dso=hot status=mismatch"
	# a vmlinux of another build-id: the kernel's samples too
	pdj -j profile --symfs "$T/s" --vmlinux testdata/profile/hot testdata/profile/profile.data
	jq_all '[.profile.functions[] | select(.dso == "[kernel.kallsyms]") | [.symbol, .samples]]' '[["[mismatch]",17]]' \
		'.profile.dsos[] | select(.dso == "[kernel.kallsyms]") | [.status, .detail, .path]' \
		'["mismatch","--vmlinux has another build-id","testdata/profile/hot"]'
}

# the recordings without build-ids (scripts/record-nobid-fixtures.sh)
NOBID="nobid-pipe nobid-z nobid-killed"
NKSYMS=testdata/profile/nobid-kallsyms

@test "profile: pipe, -z and killed recordings without build-ids: perf report's rows, from the files at their paths, unverified" {
	local f want
	tree "$T/s"
	for f in $NOBID; do
		want=0
		[ $f = nobid-killed ] && want=1 # its header says data.size 0
		pdj -j profile --symfs "$T/s" --kallsyms $NKSYMS testdata/profile/$f.data
		assert_status $want
		assert_eq "$(our_rows)" "$(perf_rows $f.data)" "$f: rows vs perf report"
		jq_all '[.profile.functions[] | .unverified] | unique' '[true]' \
			'.profile.summary.unverified_samples == .profile.samples' 'true' \
			'[.profile.dsos[] | [.dso, .status, .unverified, .build_id, .symbols]]' \
			'[["[kernel.kallsyms]","not-checked",true,null,"kallsyms"],["hot","not-checked",true,null,"symtab"],["ld-linux-x86-64.so.2","not-checked",true,null,"dynsym"],["libc.so.6","not-checked",true,null,"dynsym"]]' \
			'.profile.dsos[1] | [.path, .detail, .lines]' \
			"[\"$T/s$RUN/hot\",\"the recording has no build-id for it: the file at its path, unverified\",\"dwarf\"]" \
			'[.profile.functions[] | select(.dso == "hot") | [.symbol, .source_file, .hot_line]][0]' \
			'["work_a","testdata/profile/hot_a.c",14]'
	done
	jq_eq '[.profile.samples, .profile.summary.unverified_samples]' '[1628,1628]'
	# text: the mark on each row, the count in the summary
	pd profile --symfs "$T/s" --kallsyms $NKSYMS --top 2 testdata/profile/nobid-pipe.data
	assert_status 0
	assert_contains "$output" "    work_a:                 samples=85 percent=69.67% period=21250000 dso=hot unverified=yes source_file=testdata/profile/hot_a.c hot_line=14
    work_b:                 samples=27 percent=22.13% period=6750000 dso=hot unverified=yes source_file=testdata/profile/hot_b.c hot_line=6
  dsos:"
	assert_contains "$output" "    hot:                    samples=112 period=28000000 unverified=yes detail=\"the recording has no build-id for it: the file at its path, unverified\" path=$T/s$RUN/hot symbols=symtab lines=dwarf"
	assert_contains "$output" "  summary:
    rows:                   12
    unverified_samples:     122"
	# a file with no build-id note either: used as it is (perf's
	# symsrc__init checks only a DSO that has one)
	mkdir -p "$T/n$RUN"
	python3 -c 'import struct, sys
b = open(sys.argv[1], "rb").read()
note = struct.pack("<III", 4, 20, 3) + b"GNU\0"
assert b.count(note) == 1
open(sys.argv[2], "wb").write(b.replace(note, struct.pack("<III", 4, 20, 0x99) + b"GNU\0"))' \
		testdata/profile/hot "$T/n$RUN/hot"
	pdj -j profile --symfs "$T/n" testdata/profile/nobid-z.data
	assert_status 0
	jq_all '[.profile.functions[] | select(.dso == "hot") | [.symbol, .samples, .unverified, .source_file]]' \
		'[["work_a",83,true,"testdata/profile/hot_a.c"],["work_b",28,true,"testdata/profile/hot_b.c"]]'
}

@test "profile --strict-build-ids: no symbols from a file the recording has no build-id for; --kallsyms still" {
	tree "$T/s"
	pdj -j profile --strict-build-ids --symfs "$T/s" --kallsyms $NKSYMS testdata/profile/nobid-pipe.data
	assert_status 0
	jq_all '[.profile.functions[] | [.symbol, .samples, .dso, .status, .unverified]]' \
		'[["[no-build-id]",112,"hot","no-build-id",false],["[no-build-id]",5,"ld-linux-x86-64.so.2","no-build-id",false],["__handle_mm_fault",1,"[kernel.kallsyms]","not-checked",true],["elf_load",1,"[kernel.kallsyms]","not-checked",true],["pvm_irq_enable",1,"[kernel.kallsyms]","not-checked",true],["strncpy_from_user",1,"[kernel.kallsyms]","not-checked",true],["[no-build-id]",1,"libc.so.6","no-build-id",false]]' \
		'.profile.dsos[1] | [.status, .detail, .path, .symbols]' \
		'["no-build-id","the recording has no build-id for it (--strict-build-ids)",null,"none"]' \
		'.profile.summary.unverified_samples' 4
	# a recorded build-id that differs is a mismatch, with or without it
	tree "$T/m" testdata/profile/debian/usr/bin/dd
	pdj -j profile --strict-build-ids --symfs "$T/m" --kallsyms $KSYMS testdata/profile/profile.data
	jq_all '[.profile.functions[] | select(.dso == "hot") | [.symbol, .samples, .status, .unverified]]' \
		'[["[mismatch]",1069,"mismatch",false]]'
}

@test "profile: the kernel without a recorded build-id: this machine's kallsyms, unverified, unless --symfs or --strict-build-ids" {
	local k='.profile.dsos[] | select(.dso == "[kernel.kallsyms]") | [.status, .unverified, .path, .detail]'
	# no --symfs: this machine's kallsyms, here the testing aid's file
	PERFDUMP_PROC_KALLSYMS=$NKSYMS pdj -j profile testdata/profile/nobid-pipe.data
	assert_status 0
	jq_eq "$k" '["not-checked",true,"testdata/profile/nobid-kallsyms","the recording has no build-id for the kernel: this machine'"'"'s kallsyms, unverified"]'
	assert_eq "$(our_rows | grep -F ' [kernel.kallsyms] ')" \
		"$(perf_rows nobid-pipe.data | grep -F ' [kernel.kallsyms] ')" "kernel rows vs perf report"
	# the tests' machine has none (helpers.bash)
	pdj -j profile --by dso testdata/profile/nobid-z.data
	jq_eq "$k" '["missing",false,"/nonexistent/perfdump-tests/kallsyms","No such file or directory"]'
	# with a symfs perf tries no local file (symbol.c dso__load_kernel_sym)
	PERFDUMP_PROC_KALLSYMS=$NKSYMS pdj -j profile --by dso --symfs "$T/empty" testdata/profile/nobid-z.data
	jq_eq "$k" '["no-build-id",false,null,"the recording has no build-id for the kernel, and with --symfs this machine'"'"'s kallsyms is not used"]'
	PERFDUMP_PROC_KALLSYMS=$NKSYMS pdj -j profile --by dso --strict-build-ids testdata/profile/nobid-z.data
	jq_eq "$k" '["no-build-id",false,null,"the recording has no build-id for the kernel (--strict-build-ids)"]'
	# --vmlinux without a recorded build-id: used, unverified
	pdj -j profile --by dso --symfs "$T/empty" --vmlinux testdata/profile/hot testdata/profile/nobid-z.data
	jq_eq "$k" '["not-checked",true,"testdata/profile/hot","the recording has no build-id for the kernel: --vmlinux, unverified"]'
}

@test "profile --by thread: FORK, EXIT and COMM times and names are perf script --show-task-events'" {
	local want got
	pdj -j profile --by thread testdata/profile/profile-sh.data
	assert_status 0
	got=$(jq -r '.profile.threads[] | . as $t |
		(.comms[] | "\(.time_s) COMM \(.comm) \($t.pid) \($t.tid)" + (if .exec then " exec" else "" end)),
		(select(.fork_time) | "\(.fork_time_s) FORK \(.pid) \(.tid) \(.ppid) \(.ptid)"),
		(select(.exit_time) | "\(.exit_time_s) EXIT \(.pid) \(.tid)")' <<<"$output" | sort)
	want=$(paste -d ' ' \
		<(sed -E 's/^ *[^ ]+ +[0-9-]+ +([0-9.]+): .*/\1/' testdata/perf-ref/profile-sh.data.tasks.txt) \
		<(sed -E 's/^.*PERF_RECORD_//;
			s/^COMM( exec)?: (.*):([0-9]+)\/([0-9]+)$/COMM \2 \3 \4\1/;
			s/^FORK\(([0-9]+):([0-9]+)\):\(([0-9]+):([0-9]+)\)$/FORK \1 \2 \3 \4/;
			s/^EXIT\(([0-9]+):([0-9]+)\):.*/EXIT \1 \2/' testdata/perf-ref/profile-sh.data.tasks.txt) | sort)
	assert_eq "$got" "$want" "task events vs perf script"
	[ "$(wc -l <<<"$got")" -eq 20 ]
	# names follow perf's thread__fork rule: 3433 forked and never exec'd
	jq_all '[.profile.threads[] | select(.tid == 3433) | [.comm, .comms, .samples, .mmaps]]' '[["sh",[],0,0]]' \
		'[.profile.threads[] | .samples] | add' '15' \
		'.profile.threads[0] | [.tid, .comm, .samples, .mmaps, .first_time, .last_time, .events]' \
		'[3428,"sh",5,4,1953620730158,1953633039155,[{"event":"cpu-clock","samples":5,"period":1250000}]]'
}

@test "profile --by process: one row per process, its main thread's life" {
	pdj -j profile --by process testdata/profile/profile-sh.data
	assert_status 0
	jq_all '[.profile.processes[] | [.pid, .comm, .ppid, .threads, .samples]] | .[0:3]' \
		'[[3428,"sh",null,1,5],[3430,"true",3428,1,2],[3431,"true",3428,1,2]]' \
		'.profile.processes | length' '7' \
		'[.profile.processes[] | .comms | length] | add' '7'
}

@test "profile --csv: the table alone, quoted as RFC 4180" {
	pd profile --csv --by process testdata/profile/profile-sh.data
	assert_status 0
	assert_eq "$(head -2 <<<"$output")" "pid,comm,ppid,fork_time,fork_time_s,exit_time,exit_time_s,threads,mmaps,samples,percent,period,first_time,first_time_s,last_time,last_time_s
3428,sh,,,,1953643930164,1953.643930,1,4,5,33.33,1250000,1953620730158,1953.620730,1953633039155,1953.633039"
	[ "$(wc -l <<<"$output")" -eq 8 ]
	# a comm with a comma and quotes (gen-profiledata.py's jit.data)
	python3 scripts/gen-profiledata.py jit "$T/j"
	pd profile --csv --by thread "$T/j/jit.data"
	assert_status 0
	assert_eq "$(sed -n 2p <<<"$output" | cut -d, -f1-5)" '4242,4242,"jit,""x""",'
	python3 -c 'import csv, sys; rows = list(csv.reader(sys.stdin)); assert rows[1][2] == "jit,\"x\"", rows; assert all(len(r) == len(rows[0]) for r in rows)' <<<"$output"
	pd profile --csv --symfs testdata/profile/debian --kallsyms $KSYMS testdata/cpu-clock.data
	assert_eq "$(head -3 <<<"$output")" "event,symbol,address,size,samples,percent,period,dso,status,unverified,source_file,hot_line,hot_address,hot_file
cpu-clock,do_syscall_64,0xffffffff821ef620,640,105,26.85,26250000,[kernel.kallsyms],not-checked,yes,,,0xffffffff821ef666,
cpu-clock,read_zero,0xffffffff81d35f00,208,45,11.51,11250000,[kernel.kallsyms],not-checked,yes,,,0xffffffff81d35f77,"
	[ "$(wc -l <<<"$output")" -eq 32 ]
	# every percent cell is a plain number (the column's name is the unit)
	python3 -c 'import csv, sys; rows = list(csv.DictReader(sys.stdin)); assert all(float(r["percent"]) >= 0 for r in rows), rows; assert abs(sum(float(r["percent"]) for r in rows) - 100) < 0.2' <<<"$output"
}

@test "profile: a JIT's /tmp/perf-PID.map under --symfs; a relocated kernel and a module from --kallsyms; [vdso] from the cache" {
	python3 scripts/gen-profiledata.py jit "$T/j" testdata/profile/hot
	pdj -j profile --symfs "$T/j/symfs" --kallsyms "$T/j/kallsyms" --debug-dir "$T/j/debug" "$T/j/jit.data"
	assert_status 0
	jq_all '[.profile.functions[] | [.symbol, .address, .samples, .dso]]' \
		'[["jit_hot","0x7f0000001000",3,"perf-4242.map"],["kfunc_a","0xffffffff81001000",2,"[kernel.kallsyms]"],["work_a","0x1139",2,"[vdso]"],["kfunc_b","0xffffffff81002000",1,"[kernel.kallsyms]"],["modfunc","0xffffffffc0001000",1,"[mymod]"],[null,"0x7f0000002000",1,"perf-4242.map"],["jit_cold","0x7f0000001040",1,"perf-4242.map"]]' \
		'[.profile.dsos[] | [.dso, .status, .symbols, .path]]' \
		"[[\"[kernel.kallsyms]\",\"not-checked\",\"kallsyms\",\"$T/j/kallsyms\"],[\"[mymod]\",\"not-checked\",\"kallsyms\",\"$T/j/kallsyms\"],[\"perf-4242.map\",\"not-checked\",\"perf-map\",\"$T/j/symfs/tmp/perf-4242.map\"],[\"[vdso]\",\"match\",\"symtab\",\"$T/j/debug/[vdso]/$HOT_ID/vdso\"]]"
	# without the map the JIT's samples are [missing]; without kernel
	# symbols or a build-id for the kernel, [no-build-id] (with --symfs,
	# as perf, not this machine's kallsyms)
	pdj -j profile --symfs "$T/empty" "$T/j/jit.data"
	jq_eq '[.profile.functions[] | [.symbol, .samples, .dso]]' \
		'[["[missing]",5,"perf-4242.map"],["[no-build-id]",3,"[kernel.kallsyms]"],["[missing]",2,"[vdso]"],["[no-build-id]",1,"[mymod]"]]'
}

@test "profile: a truncated ELF, a section past its end, hostile DWARF, a DWARF bomb: a status, exit 0" {
	local f
	python3 scripts/gen-profiledata.py hostile-elf testdata/profile/hot "$T/h"
	for f in truncated bad-section; do
		tree "$T/$f" "$T/h/$f.elf"
		pdj -j profile --symfs "$T/$f" --kallsyms $KSYMS testdata/profile/profile.data
		assert_status 0
		assert_no_signal
		jq_all '[.profile.functions[] | select(.dso == "hot") | [.symbol, .samples]]' '[["[unreadable]",1069]]' \
			'.profile.dsos[] | select(.dso == "hot") | .status' '"unreadable"'
	done
	jq_eq '.profile.dsos[] | select(.dso == "hot") | .detail' \
		"\"truncated: section 34 (.symtab) at 0x$(printf %x $(($(file_size testdata/profile/hot) + 4096)))+0x3d8, file of $(file_size testdata/profile/hot) bytes\""
	for f in hostile-dwarf dwarf-bomb; do
		tree "$T/$f" "$T/h/$f.elf"
		pdj -j profile --symfs "$T/$f" --kallsyms $KSYMS testdata/profile/profile.data
		assert_status 0
		assert_no_signal
		# the symbols are there; the lines are not
		jq_all '[.profile.functions[] | select(.dso == "hot") | [.symbol, .samples, .source_file, .hot_line]]' \
			'[["work_a",808,null,null],["work_b",261,null,null]]' \
			'.profile.dsos[] | select(.dso == "hot") | [.status, .symbols]' '["match","symtab"]'
	done
	jq_eq '.profile.dsos[] | select(.dso == "hot") | .lines' \
		'".debug_line: 1099511627776 bytes, more than perfdump reads (256 MiB a section, 1024 MiB in all)"'
	# libdw opens nothing itself: every file read is under the roots
	command -v strace >/dev/null || skip "strace is not installed"
	# (LeakSanitizer cannot run under ptrace)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=open,openat,openat2 -o "$T/log" "$PERFDUMP" profile \
		--symfs "$T/hostile-dwarf" --kallsyms $KSYMS testdata/profile/profile.data >/dev/null
	grep -q 'openat2(.*"tmp/perfdump-profile/hot"' "$T/log" || grep -q "$T/hostile-dwarf/tmp" "$T/log"
	assert_empty "$(opened_outside "$T/log" "$T" "$PWD/testdata/profile")" "files opened outside the roots"
}

@test "profile --symfs: a recorded path whose .. climbs out of the root is outside-root, never opened" {
	local id_t id_f
	[ -x /bin/true ] && [ -x /bin/false ] || skip "needs /bin/true and /bin/false"
	id_t=$(python3 scripts/gen-hostile-paths.py --build-id /bin/true)
	id_f=$(python3 scripts/gen-hostile-paths.py --build-id /bin/false)
	[ "$id_t" != "$id_f" ] || skip "/bin/true and /bin/false have one build-id"
	mkdir -p "$T/a/outside" "$T/a/symfs/opt"
	cp /bin/true "$T/a/outside/secret.so"
	python3 scripts/gen-hostile-paths.py "$T" "$T/a/outside/secret.so" /bin/false
	pdj -j profile --symfs "$T/a/symfs" "$T/hostile-symfs.data"
	assert_status 0
	jq_all '[.profile.functions[] | [.symbol, .samples, .dso, .status]]' \
		'[["[outside-root]",1,"passwd","outside-root"],["[outside-root]",1,"secret.so","outside-root"]]' \
		'[.profile.dsos[] | .detail] | unique' '["'"'..'"' leads outside the root"]' \
		"[.profile.dsos[] | select(.build_id == \"$id_t\") | .status] | unique" '["outside-root"]'
	command -v strace >/dev/null || skip "strace is not installed"
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=open,openat,openat2 -o "$T/log" "$PERFDUMP" profile \
		--symfs "$T/a/symfs" "$T/hostile-symfs.data" >/dev/null
	assert_empty "$(opened_outside "$T/log" "$T/a/symfs" "$T/empty" "$T/hostile-symfs.data")" \
		"files opened outside the roots"
}

@test "profile: pipe, compressed and directory recordings; exit status as stats'" {
	local f
	for f in testdata/pipe.data testdata/zstd.data testdata/threads.data testdata/killed.data; do
		pd -j stats "$f"
		local want=$status samples
		samples=$(jq .stats.samples.total <<<"$output")
		pdj -j profile --symfs "$T/empty" --vmlinux /nonexistent "$f"
		assert_status "$want"
		# every sample lands in a row, here all of unsymbolized DSOs
		jq_true "([.profile.functions[].samples] | add // 0) == .profile.samples and .profile.samples == $samples"
	done
	pdj -j profile --by thread testdata/threads.data
	jq_true '([.profile.threads[].samples] | add) == .profile.samples and .profile.samples > 0'
}

@test "profile: usage errors" {
	pd profile --by symbol testdata/cpu-clock.data
	assert_status 2
	assert_eq "$stderr" "perfdump: profile: --by: unknown value 'symbol'; values are: function dso line process thread
Try 'perfdump help profile'."
	pd -j profile --csv testdata/cpu-clock.data
	assert_status 2
	pd profile --vmlinux a --kallsyms b testdata/cpu-clock.data
	assert_status 2
	pd profile --top x testdata/cpu-clock.data
	assert_status 2
}

@test "profile: a KSYMBOL (BPF program) is a DSO and a symbol of its name, as perf report --sort dso counts it" {
	local f=testdata/synthetic/ksymbol-hits.data
	pdj -j profile --by dso --symfs "$T/empty" "$f"
	assert_eq "$(jq -r '.profile.dsos[] | "\(.dso) \(.samples)"' <<<"$output" | LC_ALL=C sort)" \
		"$(awk '{print $2, $1}' testdata/perf-ref/synthetic/ksymbol-hits.data.dso-samples.txt | LC_ALL=C sort)" \
		"samples per DSO"
	pdj -j profile --symfs "$T/empty" "$f"
	jq_all '[.profile.functions[] | select(.dso == "bpf_prog_0123456789abcdef_parity") | [.symbol, .samples]]' \
		'[["bpf_prog_0123456789abcdef_parity",3]]'
}
