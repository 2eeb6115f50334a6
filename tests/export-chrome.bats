#!/usr/bin/env bats
# export --to chrome (issue 26): the Chrome Trace Event Format's JSON
# object (src/fmt/fmt_chrome.h).  Every event's fields checked with jq;
# each sample's stack equal to perf script's frames for that sample, the
# samples per thread perf script's, the threads' names perf's; the
# sched_switch slices equal perf sched timehist's run intervals
# (tests/chrome_ref.py makes both sides the same lines).  The symfs tree:
# tests/symfs.bash.

load helpers
# bats file_tags=asan

load symfs

P=testdata/profile
KSYMS=$P/kallsyms
NOBID_KSYMS=$P/nobid-kallsyms
# the symbol fixtures of export.bats (frame pointers, DWARF with inlined
# calls, kernel samples, C++, pipe mode, -z), and the tracepoint ones
FIXTURES="callchain cxx inl-fp inl-dwarf inl-cxx nolibc-dwarf profile profile-sh nobid-pipe nobid-z"

setup() {
	symfs_setup
}

# ksyms NAME: the kallsyms of a fixture of testdata/profile
ksyms() {
	[[ $1 != nobid-* ]] && echo $KSYMS || echo $NOBID_KSYMS
}

# chrome FILE [OPTIONS...]: the export into $output, exit status 0
chrome() {
	local f=$1
	shift
	pd export --to chrome --symfs "$T/s" "$@" "$f"
	assert_status 0
}

# The structure, on $output: the keys in their order (displayTimeUnit
# first, "ts" first in an event: where Perfetto's importer looks), no
# array among an event's own values (Perfetto refuses those), the
# instant events in time order, a name for every thread and process.
STRUCTURE='
	def keys_are($k): keys_unsorted == $k;
	def int: type == "number" and . == floor;
	keys_are(["displayTimeUnit", "traceEvents", "otherData"]) and
	.displayTimeUnit == "ns" and
	.otherData == {exporter: "perfdump", file: $file} and
	(.traceEvents | all(.[]; all(.[]; type != "array"))) and
	(.traceEvents | all(.[];
		(.pid | int) and (.tid | int) and (.name | type == "string") and
		if .ph == "i" then
			keys_are(["ph", "ts", "pid", "tid", "s", "name", "cat", "args"]) and
			.s == "t" and (.ts | type == "number") and .ts > 0 and
			(.cat | type == "string") and .name != "" and
			(.args | keys_unsorted - ["cpu", "period", "fields", "print", "stack"] == []) and
			(.args.period | int) and
			(.args.stack | type == "array" and all(.[]; type == "string"))
		elif .ph == "X" then
			keys_are(["ph", "ts", "dur", "pid", "tid", "name", "cat", "args"]) and
			.cat == "sched" and .dur >= 0 and (.args | keys_are(["cpu"]))
		elif .ph == "M" then
			keys_are(["ph", "pid", "tid", "name", "args"]) and
			(.name == "process_name" or .name == "thread_name") and
			(.args | keys_are(["name"])) and .args.name != ""
		else false end)) and
	([.traceEvents[] | select(.ph == "i") | .ts] | . == sort) and
	([.traceEvents[] | select(.ph != "M") | [.pid, .tid]] | unique) ==
		[.traceEvents[] | select(.name == "thread_name") | [.pid, .tid]] and
	([.traceEvents[] | select(.ph != "M") | .pid] | unique) ==
		[.traceEvents[] | select(.name == "process_name") | .pid]'

# check_chrome FILE: $output has the structure, its times exact (3
# decimals: nanoseconds), and is the same document read again
check_chrome() {
	jq -e --arg file "$1" "$STRUCTURE" >/dev/null <<<"$output" || {
		echo "$1: not the structure: $(head -c 1500 <<<"$output")"
		return 1
	}
	[ -z "$(grep -oE '"(ts|dur)":[^,]*' <<<"$output" | grep -vE '^"(ts|dur)":[0-9]+\.[0-9]{3}$')" ]
}

# perf_stacks FILE KALLSYMS: perf script's samples as chrome_ref.py's
# lines (perf 6.1 demangles two of cxx.data's names as perfdump does not:
# export.bats)
perf_stacks() {
	perf script -i "$1" --symfs "$T/s" --kallsyms "$2" -F pid,tid,ip,sym,symoff,dso 2>/dev/null |
		sed -e 's/ mycrate::foo::bar+/ _RNvNtCs1234_7mycrate3foo3bar+/' \
			-e 's/ std::io::stdio::_print+/ std::io::stdio::_print::h0123456789abcdef+/' |
		python3 tests/chrome_ref.py script
}

@test "export --to chrome: each fixture's structure and fields; each sample's stack perf script's, outermost first" {
	local name k
	for name in $FIXTURES; do
		k=$(ksyms $name)
		chrome $P/$name.data --kallsyms $k
		check_chrome $P/$name.data
		assert_eq "$(python3 tests/chrome_ref.py stacks <<<"$output")" "$(perf_stacks $P/$name.data $k)"
	done
	# the tracepoint recordings (the kernel's symbols: none, as perf's)
	for name in tracepoint tp-sched tp-irq; do
		chrome testdata/$name.data --kallsyms /dev/null
		check_chrome testdata/$name.data
		assert_eq "$(python3 tests/chrome_ref.py stacks <<<"$output")" \
			"$(perf_stacks testdata/$name.data /dev/null)"
	done
}

@test "export --to chrome: a sample whose callchain is empty (regs.data): an empty stack, named [unknown], as perf script shows no frame" {
	chrome testdata/regs.data --kallsyms $KSYMS
	check_chrome testdata/regs.data
	assert_eq "$(python3 tests/chrome_ref.py stacks <<<"$output")" "$(perf_stacks testdata/regs.data $KSYMS)"
	jq_all '[.traceEvents[] | select(.ph == "i" and .args.stack == [])] | length' 28 \
		'[.traceEvents[] | select(.ph == "i" and .args.stack == []) | .name] | unique' '["[unknown]"]'
}

@test "export --to chrome: the samples per thread and the threads' names are perf script's" {
	local name k
	for name in profile-sh cxx tracepoint; do
		k=$(ksyms $name)
		[[ $name != tracepoint ]] || k=/dev/null
		f=$P/$name.data
		[ -f $f ] || f=testdata/$name.data
		chrome $f --kallsyms $k
		# samples per pid/tid
		assert_eq "$(jq -r '.traceEvents[] | select(.ph == "i") | "\(.pid)/\(.tid)"' <<<"$output" | sort | uniq -c)" \
			"$(perf script -i $f -F pid,tid 2>/dev/null | awk '{ print $1 }' | sort | uniq -c)"
		# each thread's name: its last sample's comm, as perf script shows it
		assert_eq "$(jq -r '.traceEvents[] | select(.name == "thread_name") | "\(.tid) \(.args.name)"' <<<"$output" | sort)" \
			"$(perf script -i $f -F tid,comm 2>/dev/null | awk '{ t = $NF; sub(/[ \t]+[0-9]+[ \t]*$/, ""); sub(/^[ \t]+/, ""); c[t] = $0 } END { for (t in c) print t, c[t] }' | sort)"
	done
}

@test "export --to chrome: an instant event's fields: time, ids, leaf, event, cpu, period" {
	chrome $P/profile.data --kallsyms $KSYMS
	jq_all '.traceEvents[0]' '{"ph":"i","ts":1952504587.937,"pid":3364,"tid":3364,"s":"t","name":"[ld-linux-x86-64.so.2]","cat":"cpu-clock","args":{"period":250000,"stack":["[unknown] (/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)"]}}' \
		'.traceEvents[1].name' '"vma_interval_tree_insert"' \
		'.traceEvents[1].args.stack' '["vma_interval_tree_insert+0x36 ([kernel.kallsyms])"]' \
		'[.traceEvents[] | select(.ph == "i")] | length' 1087 \
		'[.traceEvents[] | select(.ph == "M")]' '[{"ph":"M","pid":3364,"tid":3364,"name":"process_name","args":{"name":"hot"}},{"ph":"M","pid":3364,"tid":3364,"name":"thread_name","args":{"name":"hot"}}]'
	# the time: perf script's, to the nanosecond
	assert_eq "$(perf script -i $P/profile.data -F time --ns 2>/dev/null | head -1 | tr -d ' :')" 1952.504587937
	# DWARF: the inlined call after its caller, and the leaf
	chrome $P/inl-dwarf.data --kallsyms $KSYMS
	jq_all '.traceEvents[0].name' '"mix"' \
		'.traceEvents[0].args.stack' '["[unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)","main+0x27 (/tmp/perfdump-profile/inl)","loop_a+0x25 (/tmp/perfdump-profile/inl)","mix (inlined)"]'
	chrome $P/inl-dwarf.data --kallsyms $KSYMS --no-inline
	jq_all '.traceEvents[0].name' '"loop_a"'
}

@test "export --to chrome: tracepoint samples: named by their event, records' fields and print in args" {
	chrome testdata/tp-sched.data --kallsyms /dev/null
	check_chrome testdata/tp-sched.data
	local ours
	ours=$(jq -c '[.traceEvents[] | select(.ph == "i") | {cat, name, cpu: .args.cpu, fields: .args.fields, print: .args.print}]' <<<"$output")
	pd records -j --order time --type sample testdata/tp-sched.data
	assert_eq "$ours" "$(jq -c '[.records[] | {cat: .event, name: .event, cpu, fields, print}]' <<<"$output")"
	jq_true 'length == 199 and (map(.name) | unique) == ["sched:sched_switch", "sched:sched_wakeup"]' "$ours"
}

# timehist_slices [OPTIONS...]: the sched_switch fixtures' slices are
# perf sched timehist's run intervals, exported with OPTIONS
timehist_slices() {
	local name
	for name in tracepoint tp-sched; do
		chrome testdata/$name.data "$@" --kallsyms /dev/null
		perf script -i testdata/$name.data -F cpu,time,trace >"$T/switches" 2>/dev/null
		perf sched timehist -i testdata/$name.data 2>/dev/null |
			python3 tests/chrome_ref.py timehist "$T/switches" >"$T/timehist" 2>"$T/left"
		assert_eq "$(python3 tests/chrome_ref.py slices <<<"$output")" "$(cat "$T/timehist")"
		[ -s "$T/timehist" ]
	done
	# tracepoint.data (-a): 8 intervals; perf's run time for one more
	# spans cpu 1 idle (its switch to perf was not recorded)
	assert_eq "$(cat "$T/left")" "left out: 8"
	chrome testdata/tracepoint.data "$@" --kallsyms /dev/null
	jq_all '[.traceEvents[] | select(.ph == "X")] | length' 8 \
		'[.traceEvents[] | select(.ph == "X")][1]' '{"ph":"X","ts":198624983.509,"dur":927.806,"pid":3152,"tid":3152,"name":"sleep","cat":"sched","args":{"cpu":0}}'
}

@test "export --to chrome: sched_switch slices are perf sched timehist's run intervals" {
	timehist_slices
}

@test "export --to chrome --jobs 3: the slices are perf sched timehist's still, made in order from the batches' switches" {
	PERFDUMP_BATCH_BYTES=1 timehist_slices --jobs 3
}

@test "export --to chrome: a pipe-mode recording, from standard input as from the file" {
	local name
	for name in $P/nobid-pipe testdata/tp-pipe; do
		chrome $name.data --kallsyms $NOBID_KSYMS
		check_chrome $name.data
		"$PERFDUMP" export --to chrome --symfs "$T/s" --kallsyms $NOBID_KSYMS - <$name.data >"$T/stdin.json" 2>/dev/null
		assert_eq "$(jq -c 'del(.otherData.file)' "$T/stdin.json")" "$(jq -c 'del(.otherData.file)' <<<"$output")"
		assert_eq "$(jq -r .otherData.file "$T/stdin.json")" "-"
	done
	# the pipe's sched_switch samples make slices too
	jq_true '[.traceEvents[] | select(.ph == "X")] | length > 0'
	assert_eq "$(jq '[.traceEvents[] | select(.ph == "i")] | length' <<<"$output")" 99
}

@test "export --to chrome: no samples: a valid empty export, exit 0; no time: refused (exit 2)" {
	pd export --to chrome testdata/stat.data
	assert_status 0
	assert_eq "$output" '{"displayTimeUnit":"ns","traceEvents":[],"otherData":{"exporter":"perfdump","file":"testdata/stat.data"}}'
	chrome $P/profile.data --cpu 99
	jq_true '.traceEvents == []'
	pd export --to chrome -o "$T/out.json" testdata/notime.data
	assert_status 2
	assert_eq "$stderr" "perfdump: export: --to chrome: the recording's events have no sample time (PERF_SAMPLE_TIME), which a timeline needs (--to folded and pprof need none)"
	[ ! -e "$T/out.json" ]
	# the other formats export it
	pd export --to folded testdata/notime.data
	assert_status 0
	assert_eq "$(awk '{ s += $NF } END { print s }' <<<"$output")" 218
}

@test "export --to chrome: the filters; -o; --redact" {
	chrome $P/profile.data --kallsyms $KSYMS --time 1952.504839,1952.505336
	jq_all '[.traceEvents[] | select(.ph == "i") | .name]' '["vma_interval_tree_insert","work_a","work_a"]'
	chrome $P/profile-sh.data --kallsyms $KSYMS --pid 3428
	jq_true '[.traceEvents[] | .pid] | unique == [3428]'
	# a thread's run slices: its switch in is another thread's sample
	chrome testdata/tracepoint.data --kallsyms /dev/null --pid 18
	jq_all '[.traceEvents[] | select(.ph == "X")]' '[{"ph":"X","ts":198624877.972,"dur":17.266,"pid":18,"tid":18,"name":"migration/0","cat":"sched","args":{"cpu":0}}]' \
		'[.traceEvents[] | select(.ph == "i") | .ts]' '[198624895.238]'
	chrome $P/profile.data --kallsyms $KSYMS -o "$T/out.json"
	assert_empty "$output"
	pd export --to chrome --symfs "$T/s" --kallsyms $KSYMS $P/profile.data
	assert_eq "$(cat "$T/out.json")" "$output"
	# --redact: the DSOs' directories (not the system's), and with comm
	# the threads' names
	pd --redact=comm export --to chrome --symfs "$T/s" --kallsyms $KSYMS $P/inl-fp.data
	assert_status 0
	jq_all '.traceEvents[0].args.stack' '["[unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)","loop_a+0x33 (<dir-1>/inl)"]' \
		'[.traceEvents[] | select(.ph == "M") | .args.name] | unique' '["<comm-1>"]' \
		'.otherData.file' '"<dir-2>/inl-fp.data"'
	[[ $output != *perfdump-profile* ]]
	# --folded's options go with folded alone
	pd export --to chrome --folded-pid $P/profile.data
	assert_status 2
	assert_contains "$stderr" "export: --folded-pid goes with --to folded"
}
