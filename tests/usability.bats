#!/usr/bin/env bats
# The rough edges a new user meets (issue 15): records --event as perf
# record -e names events, usage errors that point to the command's help,
# -x where there is nothing to dump, and `perfdump FILE`.

load helpers

# ------------------------------------------------------- records --event

# events_of ARGS...: the distinct "event" values of records --json-lines ARGS
events_of() {
	pd records --json-lines "$@"
	assert_status 0
	jq -r 'select(.event) | .event' <<<"$output" | LC_ALL=C sort -u | tr '\n' ' '
}

@test "records --event: the name as perf record -e takes it, with or without modifiers and system" {
	assert_eq "$(events_of --event dummy:HG testdata/tracepoint.data)" "dummy:HG "
	assert_eq "$(events_of --event dummy testdata/tracepoint.data)" "dummy:HG "
	assert_eq "$(events_of --event sched_switch --type sample testdata/tracepoint.data)" "sched:sched_switch "
	assert_eq "$(events_of --event sched:sched_switch --type sample testdata/tracepoint.data)" "sched:sched_switch "
	assert_eq "$(events_of --event attr1 testdata/tracepoint.data)" "dummy:HG "
	# modifiers given must be the event's
	pd records --event dummy:u testdata/tracepoint.data
	assert_status 2
	pd records --event cpu-clock:ppp testdata/syswide.data
	assert_status 2
}

@test "records --event that names no event: exit 2, the events listed, nothing on stdout" {
	pd records --event cpu-clok testdata/tracepoint.data
	assert_status 2
	assert_empty "$output" stdout
	assert_eq "$stderr" "perfdump: records: --event 'cpu-clok' names no event of the recording; its events are sched:sched_switch (attr0), dummy:HG (attr1)
Try 'perfdump help records'."
	# pipe mode, on stdin: the names come from HEADER_FEATURE EVENT_DESC
	run --separate-stderr sh -c "'$PERFDUMP' records --event nosuch - <testdata/pipe.data"
	assert_status 2
	assert_contains "$stderr" "its events are cpu-clock (attr0)"
	run --separate-stderr sh -c "'$PERFDUMP' records --event cpu-clock --type sample --limit 1 --json-lines - <testdata/pipe.data"
	assert_status 0
	jq_eq 'select(.type_name == "SAMPLE") | .event' '"cpu-clock"'
}

# ------------------------------------------------------------ usage errors

@test "usage errors point to 'perfdump help COMMAND'; before a command, to --help" {
	pd records --type nosuch testdata/cpu-clock.data
	assert_status 2
	assert_contains "$stderr" $'\nTry \'perfdump help records\'.'
	pd stats --top x testdata/cpu-clock.data
	assert_status 2
	assert_contains "$stderr" "Try 'perfdump help stats'."
	pd header --nosuch testdata/cpu-clock.data
	assert_status 2
	assert_contains "$stderr" "Try 'perfdump help header'."
	pd --nosuch header testdata/cpu-clock.data
	assert_status 2
	assert_contains "$stderr" "Try 'perfdump --help'."
}

# ---------------------------------------------------------------- -x

@test "-x where the command has no raw bytes to show: exit 2, said so" {
	local c
	for c in stats check buildids; do
		pd -x $c testdata/cpu-clock.data
		assert_status 2
		assert_empty "$output" stdout
		assert_contains "$stderr" "perfdump: $c: -x: $c shows no structure's raw bytes, so there is nothing to dump"
	done
	for c in header features attrs records; do
		pd -x $c testdata/cpu-clock.data
		assert_no_signal
		[ "$status" -le 1 ]
		assert_contains "$output" "raw: "
	done
}

# ------------------------------------------------------ perfdump FILE

@test "perfdump FILE: the summary, as 'perfdump summary FILE'" {
	pd testdata/cpu-clock.data
	assert_status 0
	assert_empty "$stderr" stderr
	local want=$output
	pd summary testdata/cpu-clock.data
	assert_eq "$output" "$want" "summary"
	assert_eq "$(head -3 <<<"$output")" "File: testdata/cpu-clock.data
summary:
  mode:                     file"
	assert_contains "$output" $'\n  hostname:                 vm\n'
	assert_contains "$output" $'\n    cpu-clock:              attr=0 samples=391\n'
	assert_contains "$output" $'\n  time:                     first_s=193.085121 last_s=193.183034 duration_s=0.097913531\n'
	pdj -j testdata/cpu-clock.data
	jq_all '.summary | [.mode, .endianness, .file_size, .data_size, .perf_version, .hostname, .arch, .nr_cpus_online]' \
		'["file","little",21572,16568,"6.1.187","vm","x86_64",2]' \
		'.summary | [.records, .samples, .events, .result]' '[406,391,[{"name":"cpu-clock","attr":0,"samples":391}],"sound"]' \
		'.summary.cmdline | join(" ")' '"/usr/bin/perf record -e cpu-clock -o testdata/cpu-clock.data -- dd if=/dev/zero of=/dev/null bs=1k count=200000"' \
		'.summary.time' '{"first_s":"193.085121","last_s":"193.183034","duration_s":"0.097913531"}' \
		'.summary.lost' '{"events":0,"samples":0}'
}

@test "perfdump FILE: a damaged file, a pipe on stdin, a directory" {
	pd testdata/killed.data
	assert_status 1
	assert_contains "$output" $'\n  result:                   damaged\nProblems:\n  error: 0x30: '
	run --separate-stderr sh -c "'$PERFDUMP' -j - <testdata/pipe.data"
	assert_status 0
	check_json '.summary.mode == "pipe" and .summary.samples == 397 and .file == "-"'
	pdj -j testdata/threads.data
	jq_all '.summary | [.mode, .records, .samples]' '["directory",564,536]'
}

@test "perfdump NAME: a command name wins over a file of that name; neither is an error" {
	cd "$BATS_TEST_TMPDIR"
	cp "$PROJECT_ROOT/testdata/cpu-clock.data" header
	pd header
	assert_status 3 # header of ./perf.data, which does not exist
	assert_contains "$stderr" "perfdump: perf.data: "
	pd ./header
	assert_status 0
	assert_contains "$output" $'File: ./header\nsummary:\n'
	pd nosuch.data
	assert_status 2
	assert_contains "$stderr" "perfdump: unknown command 'nosuch.data'; commands are: summary header"
}

@test "make demo shows the summary of the bundled sample" {
	run make -n demo
	assert_contains "$output" "./perfdump testdata/cpu-clock.data"
	[[ $output != *"perfdump header"* && $output != *"perfdump features"* ]]
}
