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
# bats test_tags=asan,normal
@test "stats: :S group reads count samples per member as perf report --stats" {
	local name
	for name in group-s.data group-s-pipe.data allbits.data; do
		pdj -j stats "testdata/$name"
		assert_status 0
		assert_eq "$(jq -r '.stats.samples.events[] | "\(.event) \(.samples)"' <<<"$output" | LC_ALL=C sort)" \
			"$(perf_event_samples "$name")" "samples per event of $name"
		# the leader's SAMPLE records, apart: perf's Aggregated SAMPLE count
		jq_all '.stats.samples.total' "$(perf_total_samples "$name")" \
			'.stats.samples.events[0].sample_records' "$(perf_total_samples "$name")" \
			'[.stats.samples.events[1:][].sample_records] | add' '0'
	done
	# a member whose value moved in few samples (page-faults) is not 0
	pdj -j stats testdata/group-s.data
	jq_true '.stats.samples.events[2] | .event == "page-faults" and .samples > 0 and .samples < 100'
}

# perf report -F period,sample: the period of a member is the sum of its
# value's changes, in the order of the group
# bats test_tags=asan
@test "stats: :S group reads sum each member's period as perf report" {
	local name want
	for name in group-s.data group-s-pipe.data; do
		pdj -j stats "testdata/$name"
		want=$(awk '{ print $1, $2, $3, $4, $5, $6 }' "$REF/$name.period.txt")
		assert_eq "$(jq -r '[.stats.samples.events[].period] + [.stats.samples.events[].samples] | map(tostring) | join(" ")' <<<"$output")" \
			"$want" "periods and samples of $name"
	done
}

@test "stats: :S group text shows sample_records beside perf's samples" {
	pd stats testdata/group-s.data
	assert_status 0
	local n
	n=$(perf_total_samples group-s.data)
	assert_contains "$output" "cpu-clock:            samples=$n "
	assert_contains "$output" "sample_records=$n"
	assert_contains "$output" "sample_records=0"
}

# bats test_tags=asan
@test "records: a :S group sample names every member's value by event" {
	pdj -j records --type sample --limit 1 testdata/group-s.data
	jq_eq '.records[0].read.values | map(.event)' '["cpu-clock","task-clock","page-faults"]'
}

# ------------------------------------------------- perf stat record counters

# perf_stat_counts NAME: "EVENT COUNT" from perf stat report's counter lines
# ("   202.98 msec cpu-clock   # ..."); with -I the interval's time first.
# perf prints them on stderr: stat.data's are in NAME.statreport.err.
perf_stat_ref() {
	cat "$REF/$1.statreport.txt" "$REF/$1.statreport.err" 2>/dev/null
}
perf_stat_counts() {
	awk '/seconds time elapsed/ { exit }
	     $1 ~ /^[0-9.]+$/ && NF >= 2 {
		n = 1; t = ""
		if ($1 ~ /\./ && $2 ~ /^[0-9.]+$/) { t = $1 " "; n = 2 }
		ev = ($(n + 1) == "msec") ? $(n + 2) : $(n + 1)
		print t ev, $n }' <(perf_stat_ref "$1")
}

# our_counts [FILTER]: "EVENT COUNT" of .stats.counters.events, the count as perf
# prints it (two decimals unless whole)
our_stat_counts() {
	jq -r "${1:-.stats.counters.events[]} | \"\(.event) \(.count)\"" <<<"$output" |
		awk '{ c = $NF; $NF = ""; printf "%s%s\n", $0, (c == int(c)) ? sprintf("%.0f", c) : sprintf("%.2f", c) }'
}

@test "stats: perf stat record counters equal perf stat report (stat-a.data, stat.data)" {
	local name
	for name in stat-a.data stat.data; do
		pdj -j stats "testdata/$name"
		assert_status 0
		assert_eq "$(our_stat_counts)" "$(perf_stat_counts "$name")" "counters of $name"
		# "0.101477579 seconds time elapsed": the final STAT_ROUND's time
		jq_eq '.stats.counters.elapsed_ns' "$(awk '/seconds time elapsed/ { sub(/\./, "", $1); print $1 + 0 }' <(perf_stat_ref "$name"))"
		jq_all '.stats.counters.aggr_mode' '1' '.stats.counters.interval_ms' '0' '.stats.counters.intervals' '[]'
	done
	# four events on two CPUs: one STAT per event and CPU
	pdj -j stats testdata/stat-a.data
	jq_all '.stats.counters.stat_records' '8' '.stats.counters.rounds' '1' \
		'[.stats.counters.events[] | .unit]' '["msec","msec","",""]' \
		'[.stats.counters.events[] | .scaled]' '[0,0,0,0]'
}

# bats test_tags=asan
@test "stats: perf stat record -I counters per interval equal perf stat report" {
	pdj -j stats testdata/stat-i.data
	assert_status 0
	# perf's interval lines start with the round's time in seconds
	assert_eq "$(jq -r '.stats.counters.intervals[] | (.time | tostring) as $t |
		.events[] | "\($t[0:-9] | if . == "" then "0" else . end).\($t[-9:]) \(.event) \(.count)"' <<<"$output" |
		awk '{ c = $NF; printf "%s %s %s\n", $1, $2, (c == int(c)) ? sprintf("%.0f", c) : sprintf("%.2f", c) }')" \
		"$(perf_stat_counts stat-i.data)" "interval counts of stat-i.data"
	jq_all '.stats.counters.interval_ms' '100' '.stats.counters.rounds' '4' '.stats.counters.intervals | length' '4'
}

@test "stats: perf stat record counters in text" {
	pd stats testdata/stat-a.data
	assert_status 0
	assert_contains "$output" "counters:"
	assert_contains "$output" "cpu-clock:            count=$(perf_stat_counts stat-a.data | awk '$1 == "cpu-clock" { print $2 }') unit=msec"
}

# bats test_tags=asan
@test "records: a STAT record names its event" {
	pdj -j records --type stat testdata/stat-a.data
	jq_eq '[.records[] | .event] | unique' '["context-switches","cpu-clock","page-faults","task-clock"]'
	pd records --type stat testdata/stat.data
	assert_contains "$output" "PERF_RECORD_STAT: id=0xbb event=cpu-clock cpu=-1 thread=0"
}

# ------------------------------------------------------------ thread names

# perf_pid_rows NAME: "TID COMM SAMPLES" from perf report -s pid
# ("    12    25344:bash"): perf's pid key is the thread
perf_pid_rows() {
	awk '{ split($2, a, ":"); c = substr($2, length(a[1]) + 2); print a[1], c, $1 }' \
		"$REF/$1.pid.txt" | LC_ALL=C sort
}

our_thread_rows() {
	jq -r '.stats.samples.top_threads[] | "\(.tid) \(.comm) \(.samples)"' <<<"$output" | LC_ALL=C sort
}

# a thread forked without a COMM of its own has its parent's name
# (thread.c: thread__fork); perf processes records in time order
# bats test_tags=asan
@test "stats: thread names equal perf report -s pid (forks named by the parent)" {
	local name
	for name in syswide.data comm-order.data; do
		pdj -j stats --top 0 "testdata/$name"
		assert_status 0
		assert_eq "$(our_thread_rows)" "$(perf_pid_rows "$name")" "threads of $name"
		jq_true '[.stats.samples.top_processes[].comm] | all(. != null)'
	done
}

# comm-order.data: taskset's COMM is in data.1, dd's (later in time) in data.0
# bats test_tags=asan
@test "stats: a directory's thread name is the latest in time, not in file order" {
	pdj -j stats testdata/comm-order.data
	jq_eq '[.stats.samples.top_processes[].comm]' "[\"$(perf_pid_rows comm-order.data | awk '{ print $2 }')\"]"
	jq_eq '[.stats.samples.top_processes[].comm]' '["dd"]'
}

# perf writes pid -1 for the kernel's MMAP and tasks of -a recordings
# bats test_tags=asan
@test "records: --pid -1 and --tid -1 select records of pid/tid -1" {
	pdj -j records --pid -1 testdata/cpu-clock.data
	jq_eq '[.records[] | .pid]' '[-1]'
	pd records --tid -1 testdata/cpu-clock.data
	assert_status 0
	pd records --pid -2 testdata/cpu-clock.data
	assert_status 2
}

# ---------------------------------------------- records against perf -D

# perf_dump_read NAME [SHIFT]: "OFFSET ID VALUE" of each group member's
# value in perf report -D's samples (perf-ref/NAME.dump.txt: "..... id
# 000000000000044b, value 000000000003f815, lost 0" under its sample line).
# perf counts a pipe stream's offsets from after its 16-byte header: SHIFT
# is added to give the file offset.
perf_dump_read() {
	local off id v shift=${2:-0}
	awk '/PERF_RECORD_SAMPLE/ { for (i = 1; i <= NF; i++) if ($i ~ /^0x/) { off = $i; break } }
	     /^\.\.\.\.\. id / { id = $3; v = $5; sub(/,/, "", id); sub(/,/, "", v); print off, id, v }' \
		"$REF/$1.dump.txt" |
		while read -r off id v; do printf '%d 0x%x %d\n' "$((off + shift))" "0x$id" "0x$v"; done
}

# records keeps one record per :S sample and shows every member's value,
# with the member's event by its id
# bats test_tags=asan,normal
@test "records: a :S group sample's values equal perf report -D's sample_read, each named by its event" {
	local name want ids
	for name in group-s.data group-s-pipe.data; do
		want=$(perf_dump_read "$name" "$([ "$name" = group-s.data ] || echo 16)")
		[ "$(wc -l <<<"$want")" -gt 100 ] || { echo "$name: too few values in perf's dump"; return 1; }
		pd -j attrs "testdata/$name"
		ids=$(jq -c '[.attrs[] | .name as $n | .ids[] | {key: ., value: $n}] | from_entries' <<<"$output")
		pd records --json-lines --type sample "testdata/$name"
		assert_status 0
		assert_eq "$(jq -r 'select(.type_name == "SAMPLE") | .offset as $o | .read.values[] | "\($o) \(.id) \(.value)"' <<<"$output" |
			awk 'NR == FNR { want[$1] = 1; next } $1 in want' <(printf '%s\n' "$want") -)" \
			"$want" "$name: group values of the samples perf -D shows"
		assert_eq "$(jq -s --argjson ids "$ids" '[.[] | select(.type_name == "SAMPLE") | .read.values[] | .event == $ids[.id]] | all and length > 1000' <<<"$output")" \
			true "$name: each value named by the event of its id"
	done
}

# perf_dump_stat NAME: "OFFSET ID CPU THREAD VALUE ENABLED RUNNING" of each
# PERF_RECORD_STAT in perf report -D ("... id 1140, cpu 0, thread 0",
# "... value 101490436, enabled 101490646, running 101490646")
perf_dump_stat() {
	awk '/PERF_RECORD_STAT$/ { for (i = 1; i <= NF; i++) if ($i ~ /^0x/) off = $i }
	     /^\.\.\. id / { gsub(/,/, ""); id = $3; cpu = $5; th = $7 }
	     /^\.\.\. value / { gsub(/,/, ""); print off, id, cpu, th, $3, $5, $7 }' "$REF/$1.dump.txt" |
		while read -r off rest; do echo "$((off)) $rest"; done
}

# bats test_tags=asan
@test "records: STAT records' id, event, CPU, thread and counts equal perf report -D" {
	local name want
	for name in stat.data stat-a.data stat-i.data; do
		want=$(perf_dump_stat "$name")
		[ -n "$want" ] || { echo "$name: no STAT in perf's dump"; return 1; }
		pd records --json-lines --type stat "testdata/$name"
		assert_status 0
		assert_eq "$(jq -r "$JQ_DEFS"' select(.type_name == "STAT") | "\(.offset) \(.id | num) \(.cpu) \(.thread) \(.val) \(.ena) \(.run)"' <<<"$output")" \
			"$want" "$name: STAT records"
		# every STAT named through the id map, as the attrs name the ids
		assert_eq "$(jq -s '[.[] | select(.type_name == "STAT") | .event] | all(. != null)' <<<"$output")" true "$name: events"
	done
}

# ------------------------------------------------------------ tid -1

# tid-minus-one.data (scripts/derive_recordings.py): six samples of pids
# 4001-4003 with tid -1, as the kernel writes for an exiting task.  perf
# keys threads by tid alone and shows one "-1" thread of 6; threads here
# are (pid, tid): three threads, each in its own process
# bats test_tags=asan
@test "stats: samples with tid -1 stay with their pids; records --tid -1 finds them" {
	pdj -j stats --top 0 testdata/synthetic/tid-minus-one.data
	assert_status 0
	jq_all '[.stats.samples.top_threads[] | select(.tid == -1) | [.pid, .samples]]' '[[4001,2],[4002,2],[4003,2]]' \
		'[.stats.samples.top_processes[] | select(.pid > 4000) | [.pid, .samples, .threads]]' '[[4001,2,1],[4002,2,1],[4003,2,1]]'
	# perf's one tid -1 thread holds the same samples; the rest agree
	assert_eq "$(awk '$2 ~ /^-1:/ { print $1 }' "$REF/synthetic/tid-minus-one.data.pid.txt")" \
		"$(jq '[.stats.samples.top_threads[] | select(.tid == -1) | .samples] | add' <<<"$output")" "perf's tid -1 samples"
	assert_eq "$(awk '$2 !~ /^-1:/ { split($2, a, ":"); print a[1], $1 }' "$REF/synthetic/tid-minus-one.data.pid.txt")" \
		"$(jq -r '.stats.samples.top_threads[] | select(.tid != -1) | "\(.tid) \(.samples)"' <<<"$output")" "the other threads"
	pdj -j records --tid -1 testdata/synthetic/tid-minus-one.data
	jq_eq '[.records[] | .pid]' '[4001,4002,4003,4001,4002,4003]'
}
