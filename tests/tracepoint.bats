#!/usr/bin/env bats
# Tracepoint samples decoded field by field (lib/tracepoint/tracepoint.h): every
# field and the print output of every sample of the fixtures recorded here
# equal perf's view stored in testdata/perf-ref/ (tests/tp_compare.py);
# the synthetic twins (gen-testdata.py) decode alike in either byte order
# and long size; damaged formats and payloads are reported with codes and
# nothing else is lost.

load helpers
# bats file_tags=asan

# compare NAME [ARG...]: every sample of testdata/NAME against perf's view
# of it (ARGs to records)
compare() {
	run python3 tests/tp_compare.py "$PERFDUMP" "testdata/$1" "testdata/perf-ref/$1" "${@:2}"
	[ "$status" -eq 0 ] || {
		echo "$output"
		return 1
	}
	[[ $output == *"every field and print equal to perf's"* ]]
}

@test "tracepoint: sched_switch + sched_wakeup: every field and print equal perf's" {
	compare tp-sched.data
	compare tracepoint.data
}

@test "tracepoint: syscalls:sys_enter_openat: every field and print equal perf's" {
	compare tp-openat.data
}

@test "tracepoint: softirq_entry (__print_symbolic), irq_handler_entry (__data_loc): equal perf's" {
	compare tp-irq.data
}

@test "tracepoint: a uprobe with a __data_loc string argument: equal perf's" {
	compare tp-uprobe.data
	compare tp-secret.data
}

@test "tracepoint: pipe mode (PERF_RECORD_HEADER_TRACING_DATA): equal perf's" {
	compare tp-pipe.data
}

# tp-ksym.data: timer:hrtimer_start (function=%ps) and kmem:kmalloc
# (call_site=%pS) of this kernel, whose build-id is KID; its kernel
# functions are in testdata/tp-ksym.kallsyms, which perf script was given
# too.  tests/helpers.bash keeps this machine's kernel and build-id cache
# out of every other test.
KSYM=testdata/tp-ksym.data
KSYMS=testdata/tp-ksym.kallsyms
KID=85c7e4e2ed76f4417e8aaad7c6b040d2bb897a26
HRTIMER0='hrtimer=0xffff888627c1c6f8 function=tick_nohz_handler expires=58912892000000 softexpires=58912892000000 mode=0x0 was_armed=0'
KMALLOC0='call_site=sched_setaffinity+0x127 ptr=0xffff888101bf8dc0 bytes_req=32 bytes_alloc=32 gfp_flags=GFP_KERNEL node=-1 accounted=false'

# notes FILE ID: a kernel's notes (/sys/kernel/notes) holding build-id ID
notes() {
	python3 -c 'import struct, sys
i = bytes.fromhex(sys.argv[2])
open(sys.argv[1], "wb").write(struct.pack("<III", 4, len(i), 3) + b"GNU\0" + i)' "$1" "$2"
}

@test "tracepoint: %ps and %pS print the kernel function perf script prints (its offset too), every sample" {
	compare tp-ksym.data --kallsyms $KSYMS
	# kmalloc's gfp_flags: a __print_flags list of constant expressions
	# with casts, shifts, |, & and ~, ended by { 0, ((void *)0) }
	pdj -j records --type sample --kallsyms $KSYMS $KSYM
	assert_status 0
	jq_all '.warnings' '[]' \
		'[.records[] | select(.event == "timer:hrtimer_start") | .print | capture("function=(?<f>[^ ]*)").f] | unique' \
		'["dl_task_timer","hrtimer_wakeup","tick_nohz_handler"]' \
		'[.records[] | select(.event == "kmem:kmalloc") | .print | capture("call_site=(?<f>[^ ]*)").f] | unique | .[:3]' \
		'["alloc_bprm+0x45","alloc_fdtable+0x55","alloc_fdtable+0x84"]' \
		'[.records[].print | select(test("=0x[0-9a-f]+ expires|call_site=0x|FAILED"))] | length' '0'
}

@test "tracepoint: JSON keeps a %ps field's address in fields and the symbol in print; text alike" {
	pdj -j records --type sample --limit 2 --kallsyms $KSYMS $KSYM
	assert_status 0
	jq_all '[.records[] | [.event, .fields.call_site // .fields.function, .print]]' \
		"[[\"kmem:kmalloc\",\"0xffffffff813d9447\",\"$KMALLOC0\"],[\"timer:hrtimer_start\",\"0xffffffff81442220\",\"$HRTIMER0\"]]"
	pd_lines records --type sample --limit 1 --kallsyms $KSYMS $KSYM
	assert_status 0
	assert_contains "${lines[2]}" " call_site=0xffffffff813d9447 ptr=0xffff888101bf8dc0 "
	assert_contains "${lines[2]}" " print=\"$KMALLOC0\""
}

@test "tracepoint: without the kernel's symbols %ps prints the address, and one warning says why" {
	# this test's harness: no build-id cache, no running kernel
	pdj -j records --type sample --limit 2 $KSYM
	assert_status 0
	jq_all '[.records[].print]' "[\"${KMALLOC0/sched_setaffinity+0x127/0xffffffff813d9447}\",\"${HRTIMER0/tick_nohz_handler/0xffffffff81442220}\"]" \
		'.warnings' '[{"offset":null,"what":"[kernel.kallsyms]","detail":"missing, not in perf'"'"'s build-id cache: tracepoint prints show its addresses in hex"}]'
	pd records --type sample --limit 1 --vmlinux testdata/profile/hot $KSYM
	assert_status 0
	assert_contains "$output" "call_site=0xffffffff813d9447 ptr="
	assert_eq "$stderr" "" # text: the warning is in the output
	assert_contains "$output" "warning: [kernel.kallsyms]: mismatch, --vmlinux has another build-id: tracepoint prints show its addresses in hex"
	pd records --type sample --limit 1 --kallsyms "$BATS_TEST_TMPDIR/none" $KSYM
	assert_contains "$output" "warning: [kernel.kallsyms]: missing, No such file or directory: tracepoint prints show its addresses in hex"
	# with --symbols the frames say it, whether a print or a frame asks
	# first (here the print: it is made as the sample is read)
	pd records --symbols --type sample --limit 1 $KSYM
	assert_contains "$output" "warning: [kernel.kallsyms]: missing, not in perf's build-id cache: its frames have no symbol"
}

@test "tracepoint: %ps from perf's build-id cache, or from the running kernel when its build-id is the recording's" {
	local T=$BATS_TEST_TMPDIR
	mkdir -p "$T/cache/[kernel.kallsyms]/$KID"
	cp $KSYMS "$T/cache/[kernel.kallsyms]/$KID/kallsyms"
	PERF_BUILDID_DIR=$T/cache pdj -j records --type sample --limit 2 $KSYM
	jq_all '[.records[].print]' "[\"$KMALLOC0\",\"$HRTIMER0\"]" '.warnings' '[]'
	notes "$T/notes" $KID
	PERFDUMP_KERNEL_NOTES=$T/notes PERFDUMP_PROC_KALLSYMS=$KSYMS pdj -j records --type sample --limit 2 $KSYM
	jq_all '[.records[].print]' "[\"$KMALLOC0\",\"$HRTIMER0\"]" '.warnings' '[]'
	# the running kernel is another: its kallsyms is not taken
	notes "$T/other" 4a5a9b0affb66c437abcd455d2738af879985fa9
	PERFDUMP_KERNEL_NOTES=$T/other PERFDUMP_PROC_KALLSYMS=$KSYMS pdj -j records --type sample --limit 1 $KSYM
	jq_all '.records[0].print | .[:29]' '"call_site=0xffffffff813d9447 "' \
		'.warnings[0].detail' '"mismatch, the running kernel has another build-id, and perf'"'"'s build-id cache has no kallsyms for it: tracepoint prints show its addresses in hex"'
}

@test "tracepoint: %pF and %pf as %pS and %ps, %pB as a plain pointer then B: as perf 6.1 prints them" {
	local c want
	for c in pF pf pB; do
		python3 -c 'import sys; d = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(d.replace(b"function=%ps", b"function=%" + sys.argv[3].encode()))' \
			$KSYM "$BATS_TEST_TMPDIR/$c.data" $c
		pdj -j records --type sample --event timer:hrtimer_start --limit 1 --kallsyms $KSYMS "$BATS_TEST_TMPDIR/$c.data"
		want=$(sed -n "s/^$c //p" testdata/perf-ref/tp-ksym.data.pconv.txt)
		jq_eq '.records[0].print' "$(jq -n --arg w "$want" '$w')"
	done
	# perf 6.1's three, checked against libtraceevent 1.7 by the oracle
	grep -q '^pF .* function=tick_nohz_handler+0x0 ' testdata/perf-ref/tp-ksym.data.pconv.txt
	grep -q '^pB .* function=0xffffffff81442220B ' testdata/perf-ref/tp-ksym.data.pconv.txt
}

# The kernel's symbols are read at the first %ps printed: not for a
# recording whose formats print none (tp-sched.data), nor for one whose
# formats could but whose samples do not (irq-syscalls.data: tasklet
# formats, no tasklet sample).  Its kallsyms, a directory here, would
# make a warning if it were read.
@test "tracepoint: a recording that prints no kernel function reads no kernel symbols" {
	local T=$BATS_TEST_TMPDIR f id
	mkdir "$T/dir"
	for f in tp-sched.data irq-syscalls.data tp-ksym.data; do
		id=$(jq -r '.buildids[] | select(.filename == "[kernel.kallsyms]") | .build_id' \
			<<<"$("$PERFDUMP" -j buildids testdata/$f)")
		notes "$T/notes-$f" "$id"
		PERFDUMP_KERNEL_NOTES=$T/notes-$f PERFDUMP_PROC_KALLSYMS=$T/dir pdj -j records testdata/$f
		assert_status 0
		if [ $f = tp-ksym.data ]; then
			jq_eq '[.warnings[].detail | .[:11]]' '["unreadable,"]'
		else
			jq_eq '.warnings' '[]'
		fi
	done
	command -v strace >/dev/null || skip "strace is not installed"
	for f in tp-sched.data irq-syscalls.data tp-ksym.data; do
		PERFDUMP_KERNEL_NOTES=$T/notes-$f PERFDUMP_PROC_KALLSYMS=$KSYMS PERF_BUILDID_DIR=$T/cache \
			ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
			strace -f -qq -e trace=open,openat,openat2 -o "$T/log-$f" "$PERFDUMP" records testdata/$f >/dev/null
		if [ $f = tp-ksym.data ]; then
			[ "$(grep -c "\"$KSYMS\"" "$T/log-$f")" = 1 ]
		else
			! grep -E "notes-|kallsyms|$T/cache" "$T/log-$f"
		fi
	done
}

@test "tracepoint: text shows the fields in format order and the print on the record's line" {
	pd_lines records --type sample --limit 1 testdata/tracepoint.data
	assert_status 0
	[ "${lines[2]}" = '  0x6140 [0x80] PERF_RECORD_SAMPLE: misc=0x1 cpumode=kernel event=sched:sched_switch identifier=0xa1 ip=0xffffffff821facd8 pid=3151 tid=3151 time=198624877972 time_s=198.624877 cpu=0 period=1 raw_data: size=68 tracepoint=sched:sched_switch fields: common_type=372 common_flags=1 common_preempt_count=3 common_pid=3151 prev_comm=perf prev_pid=3151 prev_prio=120 prev_state=2 next_comm=migration/0 next_pid=18 next_prio=0 print="prev_comm=perf prev_pid=3151 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0"' ]
}

@test "tracepoint: JSON fields are typed as the format says; raw hex only with -x" {
	pdj -j records --type sample --limit 1 testdata/synthetic/tp-le.data
	jq_all '.records[0].fields | [.a_s8, .a_u8, .a_s16, .a_s32, .a_s64]' '[-5,1,-300,-70000,-5000000000]' \
		'.records[0].fields | [.comm, .ptr, .ul, .arr, .name, .vals]' '["perf","0xc0de1000","0xee6b2800",[1,2,3],"eth0",[7,8,9]]' \
		'.records[0].fields | keys_unsorted | .[:4]' '["common_type","common_flags","common_preempt_count","common_pid"]' \
		'.records[0].raw_data' '{"size":92,"tracepoint":"pdtest:fields"}' \
		'.records[0].event' '"pdtest:fields"' \
		'.records[0].print' '"a_s8=251 a_s16=65236 a_s32=-70000 a_s64=-5000000000 a_u64=18000000000000000000 comm=perf ptr=0xc0de1000 ul=4000000000 name=eth0 sym=ONE flags=0xfffeee90 vals={7 8 9}"'
	# a u64 above 2^63 in full precision (jq would round it)
	[[ $output == *'"a_u64":18000000000000000000,'* ]]
	pdj -j -x records --type sample --limit 1 testdata/synthetic/tp-le.data
	[[ $output == *'"raw_data":{"size":92,"tracepoint":"pdtest:fields","data":"f401010092100000fb01d4fe'* ]]
}

# libtraceevent's print_field_raw and perf's data-convert-bt.c show an
# unsigned field whose type has "long" in it (TEP_FIELD_IS_LONG) in hex.
@test "tracepoint: unsigned longs (a probe's __probe_ip) are hex as perf shows them; signed longs decimal" {
	pd records --type sample --limit 1 testdata/tp-uprobe.data
	assert_status 0
	assert_contains "$output" ' common_pid=6120 __probe_ip=0x7f312b283fc0 file=/etc/hostname flags=0 print="(7f312b283fc0) file='
	pdj -j records --type sample testdata/tp-secret.data
	jq_eq '[.records[] | .fields.__probe_ip]' '["0x7f7fe74b0080","0x7f7fe74b0080"]'
	# perf's print of the same value: (%lx)
	[[ $(grep -o '^\[000\] .*(7f7fe74b0080) s=' testdata/perf-ref/tp-secret.data.trace.txt | wc -l) = 2 ]]
	# a 4-byte unsigned long (tp-le32.data) as the 8-byte one
	pdj -j records --type sample --limit 1 testdata/synthetic/tp-le32.data
	jq_eq '.records[0].fields.ul' '"0xee6b2800"'
	# sched_switch's prev_state is a signed long: a number
	pdj -j records --type sample --limit 1 testdata/tracepoint.data
	jq_eq '.records[0].fields.prev_state' '2'
	pdj -j features testdata/tp-uprobe.data tracing_data
	jq_eq '[.features[0].events[0].fields[] | select(.name == "__probe_ip" or .name == "flags") | [.type, .shown_as]]' \
		'[["unsigned long","hex"],["s32","integer"]]'
	pdj -j features testdata/tracepoint.data tracing_data
	jq_eq '.features[0].events[0].fields[7] | [.name, .signed, .shown_as]' '["prev_state",true,"integer"]'
}

@test "tracepoint: big-endian and 32-bit twins decode to the same fields as tp-le.data" {
	local le be l32
	le=$("$PERFDUMP" records --json-lines --type sample testdata/synthetic/tp-le.data | grep -o '"fields".*')
	be=$("$PERFDUMP" records --json-lines --type sample testdata/synthetic/tp-be.data | grep -o '"fields".*')
	l32=$("$PERFDUMP" records --json-lines --type sample testdata/synthetic/tp-le32.data | grep -o '"fields".*')
	[ "$(wc -l <<<"$le")" -eq 6 ]
	[ "$l32" = "$le" ]
	# libtraceevent's __print_array reads the elements in the host's byte
	# order (perf shows the same): the fields agree, the print's vals not
	[ "${be%%,\"print\"*}" = "${le%%,\"print\"*}" ]
	[ "$(sed 's/vals={[^}]*}//' <<<"$be")" = "$(sed 's/vals={[^}]*}//' <<<"$le")" ]
	[[ $be == *'vals={1792 2048 2304}'* ]]
}

@test "tracepoint: damaged formats and payloads: coded diagnostics, exit 1, every record shown" {
	pd records --json-lines --type sample testdata/synthetic/tp-bad.data
	assert_status 1
	[ "$(grep -c '"type":9' <<<"$output")" -eq 10 ]
	# every line is perfdump's, with its offset
	[ -z "$(grep -v '^perfdump: testdata/synthetic/tp-bad.data: 0x' <<<"$stderr")" ]
	[[ $stderr == *"format of pdtest:broken (ID 501): a field line of the format text is not whole"* ]]
	[[ $stderr == *"field common_type (offset 0, size 2) lies outside the 0-byte RAW payload (16 fields in all)"* ]]
	[[ $stderr == *"field name (offset 68, size 4, or the data its __data_loc points to) lies outside the 92-byte RAW payload (1 field)"* ]]
	[[ $stderr == *"field a_s64 (offset 16, size 8) lies outside the 20-byte RAW payload (8 fields in all)"* ]]
	pdj -j check testdata/synthetic/tp-bad.data
	jq_eq '[.check.findings[] | select(.code | startswith("tracepoint")) | [.offset, .code]]' \
		'[[3701,"tracepoint-format-rejected"],[4036,"tracepoint-print-failed"],[1116,"tracepoint-field-outside-raw"],[1176,"tracepoint-field-outside-raw"],[1328,"tracepoint-field-outside-raw"],[1864,"tracepoint-no-format"]]'
	pdj -j records --type sample testdata/synthetic/tp-bad.data
	jq_all '[.records[] | .fields != null]' '[true,true,true,true,true,false,true,true,true,false]' \
		'[.records[] | .print]' '["a_s8=251 a_s16=65236 a_s32=-70000 a_s64=-5000000000 a_u64=18000000000000000000 comm=perf ptr=0xc0de1000 ul=4000000000 name=eth0 sym=ONE flags=0xfffeee90 vals={7 8 9}",null,null,null,null,null,"[FAILED TO PARSE] x=-9","buf=01 02",null,null]' \
		'.records[2].fields | [.name, .vals, .comm]' '[null,[7,8,9],"perf"]' \
		'.records[5] | [.event, .raw_data.data]' '["pdtest:broken","f50100000000000000000000"]' \
		'.records[6].fields.x' '-9' \
		'.records[8].fields.len' '1000' \
		'[.warnings[].detail | select(test("print output"))] | length' '3'
	# a print fmt that does not parse: the fields in perf's raw form, as
	# libtraceevent prints a failed event (pretty_print, print_field_raw)
	[[ $output == *'"detail":"format of pdtest:badprint (ID 502): its print fmt cannot be printed (it ends where a value goes): the fields are decoded, the print output is perf'"'"'s raw form then (\"[FAILED TO PARSE] NAME=VALUE ...\")"'* ]]
}

@test "tracepoint: features tracing_data shows every format in full" {
	pdj -j features testdata/tracepoint.data tracing_data
	jq_all '.features[0].events[0] | [.system, .name, .id, .parsed, .print_parsed]' '["sched","sched_switch",372,true,true]' \
		'.features[0].events[0].fields[4]' '{"name":"prev_comm","type":"char[16]","offset":8,"size":16,"signed":false,"common":false,"shown_as":"string"}' \
		'.features[0].events[0].fields[7] | [.name, .type, .offset, .size, .signed]' '["prev_state","long",32,8,true]' \
		'.features[0].events[0].fields | length' '11' \
		'.features[0].events[0].print_fmt | startswith("\"prev_comm=%s prev_pid=%d")' 'true'
	pdj -j features testdata/tp-irq.data tracing_data
	jq_eq '.features[0].events[] | select(.name == "irq_handler_entry") | .fields[5]' \
		'{"name":"name","type":"__data_loc char[]","offset":12,"size":4,"signed":false,"common":false,"shown_as":"string","location":"__data_loc"}'
	pdj -j features testdata/synthetic/tp-bad.data tracing_data
	jq_eq '[.features[0].events[] | [.name, .parsed, .print_parsed]]' \
		'[["fields",true,true],["broken",false,null],["badprint",true,false],["hexdump",true,true]]'
}

@test "tracepoint: --event system:name in file and pipe mode, and names only the tracing data gives" {
	pd records --type sample --event sched:sched_wakeup testdata/tp-pipe.data
	assert_status 0
	[ "$(grep -c 'event=sched:sched_wakeup' <<<"$output")" -eq "$(grep -c sched_wakeup testdata/perf-ref/tp-pipe.data.trace.txt)" ]
	[ "$(grep -c 'PERF_RECORD_SAMPLE' <<<"$output")" -eq "$(grep -c sched_wakeup testdata/perf-ref/tp-pipe.data.trace.txt)" ]
	# tp-le.data has no EVENT_DESC: the name comes from TRACING_DATA
	pd records --type sample --event pdtest:fields testdata/synthetic/tp-le.data
	assert_status 0
	[ "$(grep -c 'PERF_RECORD_SAMPLE' <<<"$output")" -eq 3 ]
	pdj -j attrs testdata/synthetic/tp-le.data
	jq_true '.attrs[0].config_name == "pdtest:fields"'
}

@test "tracepoint: simpleperf's tracing data inside the data section decodes its samples" {
	local f=$CORPUS/platform_system_extras/perf_with_tracepoint_event.data
	[ -f "$f" ] || skip "corpus absent"
	pdj -j records --type sample --event sched:sched_switch "$f"
	jq_all '.records | length' '31' \
		'[.records[] | select(.fields.common_type == 47 and (.print | test(" ==> next_comm=")))] | length' '31' \
		'.records[0].fields | [.prev_comm, .prev_pid, .prev_state, .next_comm]' '["sleep",9896,130,"swapper/5"]' \
		'.records[0].print' '"prev_comm=sleep prev_pid=9896 prev_prio=120 prev_state=D|K ==> next_comm=swapper/5 next_pid=0 next_prio=120"'
	# --at past the tracing data record still reads it for the formats
	pd_lines records --at 0x1124 --limit 1 "$f"
	assert_status 0
	[[ ${lines[2]} == "  0x1124 [0x80] PERF_RECORD_SAMPLE: "*" fields: common_type=47 "* ]]
}

# The oracle: libtraceevent itself (tests/oracle/tp_oracle.c, linked by
# the tests only) prints every sample of every fixture from the same format
# text and payload; perfdump's print must be the same bytes.
@test "tracepoint: every print equals libtraceevent's own (the tests' oracle)" {
	local oracle=build/tp-oracle
	[ -x "$oracle" ] || make -s "$oracle" >/dev/null 2>&1 || skip "libtraceevent is not installed"
	run python3 tests/tp_oracle.py "$PERFDUMP" "$oracle" testdata/tracepoint.data testdata/tp-*.data \
		testdata/synthetic/tp-*.data testdata/irq-syscalls.data testdata/synthetic/nodesc-tracepoint.data
	[ "$status" -eq 0 ] || {
		echo "$output"
		return 1
	}
	# every print is checked; tp-bad.data's three without one are
	# refused (common_type, a length past the payload, fields outside)
	[[ $output == *"testdata/tp-sched.data: 199 samples equal to libtraceevent's print, 0 without one"* ]]
	[[ $output == *"testdata/irq-syscalls.data: 189 samples equal to libtraceevent's print, 0 without one"* ]]
	[[ $output == *"testdata/synthetic/tp-le.data: 6 samples equal to libtraceevent's print, 0 without one"* ]]
	[[ $output == *"testdata/synthetic/tp-bad.data: 3 samples equal to libtraceevent's print, 3 without one"* ]]
	[ "$(grep -c ' 0 samples equal' <<<"$output")" -eq 0 ]
}

@test "tracepoint: perfdump prints without libtraceevent: pdtest:print's conversions" {
	pdj -j records --type sample --event pdtest:print testdata/synthetic/tp-be.data
	jq_eq '[.records[].print]' '["state=R v=-2 w=65534 h=0 l=0 big=18446744073709551615 neg=65534 name=idle  | msg=hello sym=0x0 pct=100% tab=\t. r=65534 x=0   |z=ffffffffffffffff s=idle| n=-0001 m=-1   |","state=A|B+ v=300 w=300 h=7 l=7 big=1 neg=300 name=sixchr| msg= sym=seven pct=100% tab=\t. r=  300 x=7   |z=00000001 s=sixchr| n=00001 m=1    |","state=R+ v=-32768 w=32768 h=c l=c big=0 neg=32768 name=      | msg=x y sym=0xc pct=100% tab=\t. r=32768 x=c   |z=00000000 s=   | n=00000 m=0    |"]'
}

# Print fmts the fuzzer found crashing libtraceevent 1.7's parser (a
# string literal followed by ->, a type keyword where an operand goes):
# perfdump's own parser says why it cannot print them, the fields are
# decoded and the samples print in perf's raw form.
@test "tracepoint: a print fmt that does not parse: fields kept, perf's raw form, a warning with its reason" {
	pdj -j features tracing_data tests/fuzz/regress/tp-print-string-arrow.data
	assert_status 0
	jq_all '.features[0].events[] | select(.name == "print") | [.print_parsed, (.fields | length)]' '[false,9]' \
		'[.warnings[] | select(.detail | test("pdtest:print \\(ID 510\\): its print fmt cannot be printed \\(a -> that does not follow REC\\)")) | .offset]' '[3041]'
	pdj -j records --type sample tests/fuzz/regress/tp-print-type-keyword.data
	assert_status 0
	jq_all '[.records[] | select(.event == "pdtest:fields") | .fields.a_s16]' '[-300,32767,-32768]' \
		'[.records[] | select(.event == "pdtest:print") | .print]' '["[FAILED TO PARSE] state=0 v16=-2 name=idle msg=hello big=18446744073709551615","[FAILED TO PARSE] state=7 v16=300 name=sixchr  msg= big=1","[FAILED TO PARSE] state=12 v16=-32768 name= msg=x y big=0"]' \
		'[.warnings[].detail | select(test("pdtest:print \\(ID 510\\): its print fmt cannot be printed"))] | length' '1'
	pd check tests/fuzz/regress/tp-print-type-keyword.data
	assert_contains "$output" "[tracepoint-print-failed]"
	assert_no_signal
}

# The format texts of every tracepoint input the fuzzer kept: parsed in
# perfdump's own process (no child, no library), no signal, and what does
# not parse is said with a code.
@test "tracepoint: every fuzz-found format parses in process, without a child or a signal" {
	local f
	for f in tests/fuzz/regress/tp-*.data; do
		run "$PERFDUMP" records --type sample "$f"
		assert_no_signal
		run "$PERFDUMP" features -j tracing_data "$f"
		assert_no_signal
	done
	command -v strace >/dev/null || skip "strace is not installed"
	local log=$BATS_TEST_TMPDIR/strace
	# LeakSanitizer cannot run under ptrace: no leak check here
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=clone,clone3,fork,vfork -o "$log" "$PERFDUMP" records -j \
		tests/fuzz/regress/tp-print-type-keyword.data testdata/tp-sched.data testdata/tp-irq.data >/dev/null || true
	[ "$(grep -c 'flags=.*SIGCHLD' "$log")" = 0 ]
}

# A print fmt is parsed by a bounded recursive descent (patched into a
# copy of tp-le.data's pdtest:fields, same length): 30 levels of
# parentheses, a cast, a unary minus and an index print what libtraceevent
# prints (x=, checked with tests/oracle/tp_oracle.c); 150 levels are
# refused with the reason; a division by a field that is zero gives no
# print, said once.
@test "tracepoint: print fmt bounds: nesting refused with a reason, a division by zero not printed" {
	local d=$BATS_TEST_TMPDIR
	python3 - testdata/synthetic/tp-le.data "$d" <<-'PY'
		import sys
		d = open(sys.argv[1], "rb").read()
		i = d.index(b"print fmt: \"a_s8=")
		e = d.index(b"\n", i)
		def patch(name, fmt):
		    assert len(fmt) <= e - i
		    open(sys.argv[2] + "/" + name, "wb").write(d[:i] + fmt.ljust(e - i) + d[e:])
		patch("ok.data", b'print fmt: "x=%d", ' + b"(" * 30 + b"REC->a_s8 + (u8)REC->a_s16 - -REC->arr[1]" + b")" * 30)
		patch("deep.data", b'print fmt: "x=%d", ' + b"(" * 150 + b"REC->a_s8" + b")" * 150)
		patch("div.data", b'print fmt: "q=%d r=%u", REC->a_s16 / REC->a_u8, REC->a_s32 % REC->a_u64')
	PY
	pdj -j records --type sample --event pdtest:fields "$d/ok.data"
	jq_eq '[.records[].print]' '["x=465","x=382","x=128"]'
	pdj -j records --type sample --event pdtest:fields "$d/deep.data"
	assert_status 0
	jq_all '[.warnings[].detail | select(test("its print fmt cannot be printed \\(its print args nest deeper than 128 levels\\)"))] | length' '1' \
		'[.records[].print][0]' '"[FAILED TO PARSE] a_s8=-5 a_u8=1 a_s16=-300 a_s32=-70000 a_s64=-5000000000 a_u64=18000000000000000000 comm=perf ptr=0xc0de1000 ul=0xee6b2800 arr=ARRAY[01, 00, 00, 00, 02, 00, 00, 00, 03, 00, 00, 00] name=eth0 vals=ARRAY[07, 00, 08, 00, 09, 00]"'
	pdj -j records --type sample --event pdtest:fields "$d/div.data"
	assert_status 0
	# a_u64 is 18000000000000000000, 0, 1: the second divides by zero
	jq_all '[.records[].print]' '["q=65236 r=4294897296",null,"q=3640 r=0"]' \
		'[.warnings[].detail | select(test("pdtest:fields: its print args divide by zero: no print output"))] | length' '1'
}

# libtraceevent is on the tests' side of the boundary only.
@test "tracepoint: perfdump neither links nor includes libtraceevent" {
	[ -z "$(grep -rlE '#include.*(event-parse|trace-seq|kbuffer)\.h' src)" ]
	command -v ldd >/dev/null || skip "ldd is not installed"
	! ldd "$PERFDUMP" | grep -q traceevent
}
