#!/usr/bin/env bats
# Events the file names nowhere (no EVENT_DESC, EVENT_UPDATE NAME or
# tracing data: a killed perf record writes no feature section) are named
# from their attr as perf's evsel__name names them (issue 23, item 3), in
# every command.  Fixtures: scripts/record-evname-fixtures.sh.

load helpers

REF=testdata/perf-ref
S=testdata/synthetic

# evlist_names FILE: the event names perf evlist -v printed for FILE
evlist_names() {
	sed -n 's/^\(.*\): type: .*/\1/p' "$REF/$1.evlist.txt" | tr '\n' '|'
}

# our_names FILE: the names perfdump attrs gives the events of testdata/FILE
our_names() {
	pdj -j attrs "testdata/$1"
	assert_no_signal
	jq -r '.attrs[].name' <<<"$output" | tr '\n' '|'
}

@test "evname: the names equal perf evlist's for killed.data, killed-u.data and the copies without EVENT_DESC" {
	local f
	for f in killed.data killed-u.data stat-msr.data synthetic/nodesc-tracepoint.data \
		synthetic/nodesc-bp.data synthetic/nodesc-group.data; do
		[ -s "$REF/$f.evlist.txt" ] || {
			echo "no perf evlist reference for $f"
			false
		}
		assert_eq "$(our_names "$f")" "$(evlist_names "$f")" "event names of $f vs perf evlist -v"
	done
	assert_eq "$(evlist_names killed-u.data)" "cpu-clock:uH|"
	assert_eq "$(evlist_names synthetic/nodesc-tracepoint.data)" "sched:sched_switch|dummy:HG|"
}

@test "evname: names say where they come from; TRACING_DATA still names a tracepoint first" {
	pdj -j attrs $S/nodesc-tracepoint.data
	assert_status 0
	jq_eq '[.attrs[] | [.name, .name_from, .config_name]]' \
		'[["sched:sched_switch","TRACING_DATA","sched:sched_switch"],["dummy:HG","attr","dummy"]]'
	pdj -j attrs testdata/killed-u.data
	assert_status 1
	jq_eq '[.attrs[] | [.name, .name_from, .config_name, .flags_names]]' \
		'[["cpu-clock:uH","attr","cpu-clock",["disabled","inherit","exclude_kernel","exclude_hv","mmap","comm","freq","enable_on_exec","task","sample_id_all","exclude_guest","mmap2","comm_exec","ksymbol","bpf_event"]]]'
	pd attrs testdata/killed-u.data
	assert_contains "$output" "  attr 0: cpu-clock:uH (SOFTWARE) at 0x78:
    index:                  0
    name:                   cpu-clock:uH
    name_from:              attr"
	# the recording's own name is kept where it has one
	pdj -j attrs testdata/stat-msr.data
	jq_eq '[.attrs[] | [.name, .name_from]]' '[["msr/tsc/","EVENT_DESC"]]'
}

# bats test_tags=asan
@test "evname: a dynamic PMU's event (perf: unknown attr type: 9) is PMU/config=0x../, PMU_MAPPINGS naming the PMU, else its type" {
	assert_eq "$(evlist_names synthetic/nodesc-stat-msr.data)" "unknown attr type: 9|"
	assert_eq "$(evlist_names synthetic/nodesc-nopmu-stat-msr.data)" "unknown attr type: 9|"
	# no exclude bit: perf 6.1's modifiers for counting in host and guest
	assert_eq "$(our_names synthetic/nodesc-stat-msr.data)" "msr/config=0x0/HG|"
	assert_eq "$(our_names synthetic/nodesc-nopmu-stat-msr.data)" "9/config=0x0/HG|"
	pd records --event msr/config=0x0/HG --type read $S/nodesc-stat-msr.data
	assert_status 0
}

@test "evname: killed fixtures: summary, stats, records and profile say cpu-clock, in text and JSON" {
	local f name n
	for f in killed.data killed-u.data; do
		if [ $f = killed.data ]; then name=cpu-clock n=0; else name=cpu-clock:uH n=398; fi
		pdj -j summary "testdata/$f"
		assert_status 1
		jq_eq '.summary.events' "[{\"name\":\"$name\",\"attr\":0,\"samples\":$n}]"
		pd summary "testdata/$f"
		assert_contains "$output" "  events:
    $name:"
		pdj -j stats "testdata/$f"
		assert_status 1
		jq_eq '[.stats.samples.events[] | [.event, .samples]]' "[[\"$name\",$n]]"
		pd stats "testdata/$f"
		assert_contains "$output" "      $name:"
		pdj -j records "testdata/$f"
		assert_status 1
		jq_eq '[.records[] | select(.type < 64) | .event] | unique' "[\"$name\"]"
		pd records "testdata/$f"
		assert_contains "$output" "PERF_RECORD_COMM: event=$name pid="
		[[ $output != *attr0* ]] || {
			echo "records of $f still say attr0"
			false
		}
		pdj -j profile "testdata/$f"
		assert_status 1
		jq_eq '[.profile.events[] | [.event, .samples]]' "[[\"$name\",$n]]"
		pd profile "testdata/$f"
		assert_contains "$output" "  events:
    $name:"
	done
	pdj -j profile testdata/killed-u.data
	jq_eq '[.profile.functions[].event] | unique' '["cpu-clock:uH"]'
}

# bats test_tags=asan
@test "evname: records --event cpu-clock selects a killed recording's records, exit 1 (damaged), not 2" {
	local f
	for f in killed.data killed-u.data; do
		pd records --event cpu-clock --json-lines "testdata/$f"
		assert_status 1
		assert_contains "$stderr" "data.size is 0"
	done
	# killed.data: its kernel records, MMAP and COMM; killed-u.data: every
	# SAMPLE too
	pd records --event cpu-clock --json-lines testdata/killed.data
	assert_eq "$(jq -c 'select(.event) | [.offset, .type_name, .event]' <<<"$output" | tr '\n' ' ')" \
		'[344,"MMAP","cpu-clock"] [576,"COMM","cpu-clock"] '
	assert_eq "$(jq -c 'select(.offset) | .offset' <<<"$output" | tr '\n' ' ')" '344 576 ' 
	pd records --event cpu-clock --type sample --json-lines testdata/killed-u.data
	assert_eq "$(jq -r 'select(.event) | .event' <<<"$output" | sort | uniq -c | tr -s ' ')" " 398 cpu-clock:uH"
	pd records --event cpu-clock:uH --type sample --json-lines testdata/killed-u.data
	assert_status 1
	assert_eq "$(grep -c '"SAMPLE"' <<<"$output")" 398
	# a name the recording does not have is still a usage error
	pd records --event task-clock testdata/killed.data
	assert_status 2
	assert_contains "$stderr" "its events are cpu-clock (attr0)"
}
