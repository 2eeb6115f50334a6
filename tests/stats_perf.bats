#!/usr/bin/env bats
# perfdump stats against perf on the recordings of
# scripts/record-stats-fixtures.sh (issue 12): group reads with :S, thread
# names, `perf stat record` counts.  Each test parses perf's stored output
# (testdata/perf-ref), so it fails if either side moves.

load helpers

REF=testdata/perf-ref

# perf_event_samples NAME: "EVENT N" per event, from "EVENT stats:" blocks
# of perf report --stats
perf_event_samples() {
	awk '/ stats:$/ && !/Aggregated/ { ev = $0; sub(/ stats:$/, "", ev) }
	     ev != "" && /SAMPLE events:/ { print ev, $3; ev = "" }' "$REF/$1.stats.txt" |
		LC_ALL=C sort
}

# perf_total_samples NAME: the Aggregated SAMPLE events (records)
perf_total_samples() {
	awk '/Aggregated/ { a = 1 } a && /SAMPLE events:/ { print $3; exit }' "$REF/$1.stats.txt"
}

# ------------------------------------------------- PERF_SAMPLE_READ groups

# perf delivers a sample per group member whose value changed since the
# last read of its id (session.c: deliver_sample_group, deliver_sample_value)
@test "stats: :S group reads count samples per member as perf report --stats" {
	local name
	for name in group-s.data group-s-pipe.data allbits.data; do
		pdj -j stats "testdata/$name"
		assert_status 0
		assert_eq "$(jq -r '.samples.events[] | "\(.event) \(.samples)"' <<<"$output" | LC_ALL=C sort)" \
			"$(perf_event_samples "$name")" "samples per event of $name"
		# the leader's SAMPLE records, apart: perf's Aggregated SAMPLE count
		jq_all '.samples.total' "$(perf_total_samples "$name")" \
			'.samples.events[0].sample_records' "$(perf_total_samples "$name")" \
			'[.samples.events[1:][].sample_records] | add' '0'
	done
	# a member whose value moved in few samples (page-faults) is not 0
	pdj -j stats testdata/group-s.data
	jq_true '.samples.events[2] | .event == "page-faults" and .samples > 0 and .samples < 100'
}

# perf report -F period,sample: the period of a member is the sum of its
# value's changes, in the order of the group
@test "stats: :S group reads sum each member's period as perf report" {
	local name want
	for name in group-s.data group-s-pipe.data; do
		pdj -j stats "testdata/$name"
		want=$(awk '{ print $1, $2, $3, $4, $5, $6 }' "$REF/$name.period.txt")
		assert_eq "$(jq -r '[.samples.events[].period] + [.samples.events[].samples] | map(tostring) | join(" ")' <<<"$output")" \
			"$want" "periods and samples of $name"
	done
}

@test "stats: :S group text shows sample_records beside perf's samples" {
	pd stats testdata/group-s.data
	assert_status 0
	local n
	n=$(perf_total_samples group-s.data)
	assert_contains "$output" "cpu-clock:              samples=$n "
	assert_contains "$output" "sample_records=$n"
	assert_contains "$output" "sample_records=0"
}

@test "records: a :S group sample names every member's value by event" {
	pdj -j records --type sample --limit 1 testdata/group-s.data
	jq_eq '.records[0].read.values | map(.event)' '["cpu-clock","task-clock","page-faults"]'
}
