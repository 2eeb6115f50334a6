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
