#!/usr/bin/env bats
# perfdump copy --event: only the attrs of the events kept (issue 27), and
# what names events by id or index written for them alone: ID_INDEX,
# EVENT_UPDATE, STAT, EVENT_DESC, GROUP_DESC.  perf is the oracle: perf
# evlist lists the events written, perf script prints the input's lines
# of the event kept, perf report --stats counts that event's samples
# without a warning, perf report --group and perf stat report read the
# groups and counters written.

load helpers
load copy
# bats file_tags=asan

setup() {
	command -v perf >/dev/null || skip "perf is not installed"
	OUT=$BATS_TEST_TMPDIR/out.data
}

# evlist ARGS...: perf evlist's lines, its tip left out
evlist() {
	perf_run evlist "$@"
	assert_status 0
	grep -v '^#' <<<"$output" || true
}

# event_lines FILE EVENT: perf script's lines of EVENT on FILE, spaces
# squeezed (perf pads an event's name to the longest of the file's)
event_lines() {
	perf_run script -i "$1"
	assert_status 0
	grep " $2: " <<<"$output" | tr -s ' '
}

# same_event_script IN EVENT: perf script on $OUT prints IN's lines of
# EVENT, and some
same_event_script() {
	local want
	want=$(event_lines "$1" "$2")
	[ -n "$want" ]
	perf_run script -i "$OUT"
	assert_status 0
	assert_eq "$(tr -s ' ' <<<"$output")" "$want"
}

# copy_doc ARGS...: copy ARGS to $OUT, its document in $output (check
# then finds the copy sound: sound_copy)
copy_doc() {
	pdj -j copy "$@" -o "$OUT"
	assert_status 0
}

sound_copy() {
	pd check -b "$OUT"
	assert_eq "$output" "$OUT: sound"
}

# report_clean FILE: perf report --stats reads FILE without a word on
# stderr; $output: its per-event SAMPLE counts ("EVENT N" lines)
report_clean() {
	perf_run report --stats -i "$1"
	assert_status 0
	assert_eq "$stderr" ""
	output=$(awk '/ stats:$/ && $1 != "Aggregated" {e = $1}
		/SAMPLE events:/ && e {print e, $3}' <<<"$output")
}

# record_ids FILE: the ids FILE's records name (a sample's, a trailer's,
# ID_INDEX's, EVENT_UPDATE's, STAT's), 0 (perf's synthesized) left out
record_ids() {
	"$PERFDUMP" records -j "$1" | jq -r '[.records[] |
		(.id, .identifier, .sample_id.id?, (.entries[]?.id?)) |
		select(type == "string" and . != "0x0")] | unique | .[]'
}

# attr_ids FILE: the ids of FILE's attrs
attr_ids() {
	"$PERFDUMP" attrs -j "$1" | jq -r '[.attrs[].ids[]] | unique | .[]'
}

@test "copy --event: no record of the copy names an id its attrs lack, though the input's do" {
	local f e
	for f in tp-sched:sched:sched_switch group:cpu-clock tracepoint:dummy:HG \
		stat-a:task-clock; do
		e=${f#*:}
		f=testdata/${f%%:*}.data
		rm -f "$OUT"
		copy_ok --event "$e" "$f"
		# the input names ids the copy's attrs lack (the test can fail)
		[ -n "$(comm -23 <(record_ids "$f") <(attr_ids "$OUT"))" ]
		assert_eq "$(comm -23 <(record_ids "$OUT") <(attr_ids "$OUT"))" ""
	done
}

@test "copy --event: each of two tracepoints in turn: its attr, its samples, perf script's lines of it" {
	local e other
	for e in sched:sched_switch sched:sched_wakeup; do
		rm -f "$OUT"
		copy_doc --event $e testdata/tp-sched.data
		if [ $e = sched:sched_switch ]; then
			# the first event asked for the side-band records: the
			# other one is left out
			jq_all '.copy.attrs' 1 '.copy.notes' \
				'["events left out (--event sched:sched_switch): sched:sched_wakeup"]'
			assert_eq "$(evlist -i "$OUT")" "$e"
		else
			# sched_switch asked for the MMAP/COMM records kept:
			# written too, after the event named, without samples
			other=sched:sched_switch
			jq_all '.copy.attrs' 2 '.copy.notes' \
				"[\"events written without their samples: $other (the side-band records kept are theirs, or a sample kept reads them)\"]"
			assert_eq "$(evlist -i "$OUT")" "$e"$'\n'"$other"
		fi
		sound_copy
		same_event_script testdata/tp-sched.data $e
		report_clean testdata/tp-sched.data
		local want
		want=$(grep "^$e " <<<"$output")
		report_clean "$OUT"
		assert_eq "$output" "$want"
		pdj -j attrs "$OUT"
		jq_all '[.attrs[].name][0]' "\"$e\""
	done
}

@test "copy --event: the second event of a recording keeps its symbols and comms (the first's side-band records)" {
	copy_ok --event task-clock testdata/group.data
	perf_run script -F comm,tid,ip,sym,dso -i "$OUT"
	assert_status 0
	# every sample's comm, its symbol and DSO (kernel and user)
	[ "$(grep -c '^ *dd  3157 ' <<<"$output")" = 406 ]
	grep -q ' do_syscall_64 (\[kernel.kallsyms\])$' <<<"$output"
	grep -q ' read (/usr/lib/x86_64-linux-gnu/libc.so.6)$' <<<"$output"
	same_event_script testdata/group.data task-clock
	# perf report without the group: the samples under task-clock
	report_clean "$OUT"
	assert_eq "$output" "task-clock 406"
}

@test "copy --event: a group of two, one member kept: perf evlist -g and perf report --group" {
	copy_doc --event cpu-clock testdata/group.data
	jq_all '.copy.notes' \
		'["events left out (--event cpu-clock): task-clock","HEADER_GROUP_DESC left out: no group'"'"'s leader has its samples and another member written"]'
	sound_copy
	assert_eq "$(evlist -g -i "$OUT")" "cpu-clock"
	perf_run report --group --stdio -i "$OUT"
	assert_status 0
	assert_eq "$stderr" ""
	assert_contains "$output" "# Samples: 406  of event 'cpu-clock'"
	rm -f "$OUT"
	# task-clock first: perf report --group makes the first event the
	# leader of a recording without groups, cpu-clock (side-band, no
	# samples) in a column of zeros
	copy_ok --event task-clock testdata/group.data
	assert_eq "$(evlist -g -i "$OUT")" $'task-clock\ncpu-clock'
	perf_run report --group --stdio -i "$OUT"
	assert_status 0
	assert_contains "$output" "# Samples: 406  of events 'task-clock, cpu-clock'"
	assert_contains "$output" "    26.85%   0.00%  dd       [kernel.kallsyms]     [k] do_syscall_64"
	perf_run report --header-only -i "$OUT"
	[ "$(grep -c '^# event : name = ' <<<"$output")" = 2 ]
	assert_contains "$output" "# event : name = task-clock, , id = { 174, 175 }"
	if grep -q '^# group' <<<"$output"; then
		echo "a group is written: $output"
		return 1
	fi
}

@test "copy --event: a :S group behind another event is written whole and renumbered (GROUP_DESC leader 1 -> 0)" {
	local in=$BATS_TEST_TMPDIR/grp.data want
	perf record -e page-faults -e '{cpu-clock,task-clock}:S' -o "$in" -- \
		dd if=/dev/zero of=/dev/null bs=1k count=30000 2>/dev/null ||
		skip "perf record failed"
	assert_eq "$(evlist -g -i "$in")" $'page-faults\n{cpu-clock,task-clock}'
	copy_ok --event cpu-clock "$in"
	# task-clock: its values are in cpu-clock's samples; page-faults: it
	# asked for the side-band records
	assert_eq "$(evlist -g -i "$OUT")" $'{cpu-clock,task-clock}\npage-faults'
	pdj -j features GROUP_DESC "$OUT"
	jq_all '[.features[0].groups[] | [.leader_idx, .nr_members]]' '[[0,2]]'
	report_clean "$in"
	want=$(grep -E '^(cpu|task)-clock ' <<<"$output")
	report_clean "$OUT"
	assert_eq "$output" "$want"
	# perf report --group: the group's two columns as on the input
	perf_run report --group --stdio -q -S do_syscall_64 --sort sym -i "$in"
	want=$(grep -v '^$' <<<"$output")
	grep -qE '^ +[0-9.]+% +[0-9.]+% +\[k\] do_syscall_64$' <<<"$want"
	perf_run report --group --stdio -q -S do_syscall_64 --sort sym -i "$OUT"
	assert_eq "$(grep -v '^$' <<<"$output")" "$want"
}

@test "copy --event: ID_INDEX holds the kept ids only; EVENT_UPDATE of the others left out" {
	copy_ok --event cpu-clock testdata/group.data
	pdj -j records --type id_index,event_update "$OUT"
	jq_all '[.records[] | select(.type == 69) | .nr, [.entries[].id]]' \
		'[2,["0xac","0xad"]]' \
		'[.records[] | select(.type == 78) | .id] | unique' '["0xac"]'
	perf_run report -D -i "$OUT"
	assert_status 0
	assert_contains "$output" "PERF_RECORD_ID_INDEX nr: 2"
	pdj -j attrs "$OUT"
	jq_all '[.attrs[] | [.name, .ids]]' '[["cpu-clock",["0xac","0xad"]]]'
}

@test "copy --event: ID_INDEX with its guest part (id_index_entry_2): the kept entries' machine_pid and vcpu" {
	local in=$BATS_TEST_TMPDIR/guest.data
	python3 scripts/gen-id-index-guest.py testdata/group.data "$in"
	copy_ok --event cpu-clock "$in"
	perf_run report -D -i "$OUT"
	assert_status 0
	assert_eq "$(grep -A2 'PERF_RECORD_ID_INDEX nr' <<<"$output" | cut -d: -f2-)" \
		" PERF_RECORD_ID_INDEX nr: 2
 172  idx: 0  cpu: 0  tid: 3157  machine_pid: 4200  vcpu: 0
 173  idx: 1  cpu: 1  tid: 3157  machine_pid: 4201  vcpu: 1"
	report_clean "$OUT"
	assert_eq "$output" "cpu-clock 406"
}

@test "copy --event: perf stat record's counters of one event (STAT, EVENT_UPDATE of the others left out)" {
	copy_ok --event task-clock testdata/stat-a.data
	pdj -j records --type stat,event_update "$OUT"
	jq_all '[.records[] | select(.type == 76) | .event] | unique' '["task-clock"]' \
		'[.records[] | select(.type == 78) | .id]' '["0x475","0x475"]'
	perf_run stat report -i "$OUT"
	assert_status 0
	# perf stat report prints its counters on stderr: task-clock's alone
	assert_eq "$(grep -E '^ +[0-9.]+ ' <<<"$stderr" | grep -v 'seconds time elapsed' |
		tr -s ' ')" " 202.98 msec task-clock # 2.000 CPUs utilized "
}

@test "copy --event -o -: a pipe perf script -i - reads, its HEADER_ATTRs of the kept events" {
	"$PERFDUMP" copy --event task-clock testdata/group.data -o - >"$OUT"
	pdj -j attrs "$OUT"
	jq_all '[.attrs[].name]' '["task-clock","cpu-clock"]'
	perf_run script -i - <"$OUT"
	assert_status 0
	assert_eq "$(tr -s ' ' <<<"$output")" "$(event_lines testdata/group.data task-clock)"
	pd check -b "$OUT"
	assert_eq "$output" "$OUT: sound"
}

@test "copy --event: a pipe input with its group (:S), to a file" {
	copy_ok --event cpu-clock testdata/group-s-pipe.data
	assert_eq "$(evlist -g -i "$OUT")" "{cpu-clock,task-clock,page-faults}"
	report_clean testdata/group-s-pipe.data
	local want=$output
	report_clean "$OUT"
	assert_eq "$output" "$want"
	rm -f "$OUT"
	pd copy --event cpu-clock - -o "$OUT" <testdata/group-s-pipe.data
	assert_status 0
	report_clean "$OUT"
	assert_eq "$output" "$want"
}

@test "copy --event with --redact: both, perf reads the copy" {
	pdj -j --redact copy --event task-clock testdata/group.data -o "$OUT"
	assert_status 0
	assert_eq "$(evlist -i "$OUT")" $'task-clock\ncpu-clock'
	perf_run report --header-only -i "$OUT"
	assert_contains "$output" "# hostname : <host-1>"
	perf_run script -F time,event,period -i testdata/group.data
	local want
	want=$(grep task-clock <<<"$output" | tr -s ' ')
	perf_run script -F time,event,period -i "$OUT"
	assert_eq "$(tr -s ' ' <<<"$output")" "$want"
	pd check -b "$OUT"
	assert_eq "$output" "$OUT: sound"
}

@test "copy --event: an event the recording does not have is a usage error, nothing written" {
	pd copy --event nosuch testdata/group.data -o "$OUT"
	assert_status 2
	assert_contains "$stderr" "copy: --event 'nosuch' names no event of the recording; its events are cpu-clock (attr0), task-clock (attr1)"
	[ ! -e "$OUT" ]
}

@test "copy --event naming every event: the copy is the one without --event" {
	local all=$BATS_TEST_TMPDIR/all.data
	copy_ok --event cpu-clock testdata/cpu-clock.data
	pd copy testdata/cpu-clock.data -o "$all"
	assert_status 0
	cmp "$OUT" "$all"
}
