#!/usr/bin/env bats
# perfdump copy --redact: the copy's own strings redacted (perfdump(1)
# copy): no host name, private directory or argument of the recording in
# its bytes, while perf still reads it sample for sample.  The fixtures
# redact.data and redact-pipe.data were recorded with a known host name,
# a program and a file under /home/alice-test, and a user's cgroup
# (testdata/README.md).

load helpers
# bats file_tags=asan

# what must not survive --redact (the host, the home, the file, the uid)
SECRETS='redact-test-host|alice-test|redact-secret|31337'

setup() {
	command -v perf >/dev/null || skip "perf is not installed"
	OUT=$BATS_TEST_TMPDIR/out.data
}

# perf_run ARGS...: perf with an empty build-id cache of the test's own
perf_run() {
	output=$(PERF_BUILDID_DIR=$BATS_TEST_TMPDIR/bid perf "$@" 2>/dev/null) &&
		status=0 || status=$?
}

# same_fields FIELDS FILE: perf script -F FIELDS prints on $OUT what it
# prints on FILE, and something
same_fields() {
	local want
	perf_run script -F "$1" -i "$2"
	want=$output
	[ -n "$want" ]
	perf_run script -F "$1" -i "$OUT"
	assert_status 0
	assert_eq "$output" "$want"
}

# in_bytes FILE: the strings of FILE's bytes
in_bytes() {
	strings -a "$1"
}

@test "copy --redact: no secret in the copy's bytes, perf reads it sample for sample" {
	local f want
	for f in testdata/redact.data testdata/redact-pipe.data; do
		# the fixture holds them all to begin with
		[ "$(in_bytes "$f" | grep -cE "$SECRETS")" -gt 0 ]
		pdj --redact=comm -j copy --force "$f" -o "$OUT"
		assert_status 0
		jq -e '.copy.records_damaged == 0' <<<"$output" >/dev/null
		run grep -E "$SECRETS" < <(in_bytes "$OUT")
		[ "$status" -eq 1 ] || { echo "left in the copy of $f: $output"; return 1; }
		# the kinds replaced, each seen in the copy
		for t in '<host-1>' '<arg-1>' '<dir-1>/worker' '<cgroup-1>' '<comm-1>'; do
			in_bytes "$OUT" | grep -qF -- "$t" || { echo "no $t in the copy of $f"; return 1; }
		done
		# system paths and the kernel stay, so that the copy symbolizes
		for t in /usr/lib/x86_64-linux-gnu/libc.so.6 '[kernel.kallsyms]' /usr/bin/perf; do
			in_bytes "$OUT" | grep -qF -- "$t"
		done
		# perf reads the copy: the same samples at the same places
		same_fields pid,tid,time,ip,sym "$f"
		perf_run report --stats -i "$OUT"
		assert_status 0
		want=$(grep -E '^ +SAMPLE events:' <<<"$output" | awk '{print $3}')
		[ -n "$want" ]
		perf_run report --stats -i "$f"
		assert_eq "$(grep -E '^ +SAMPLE events:' <<<"$output" | awk '{print $3}')" "$want"
		pdj -j check "$OUT"
		assert_status 0
		jq -e '.check.sound == true' <<<"$output" >/dev/null
	done
}

@test "copy --redact: comm kept without --redact=comm, build-ids kept" {
	pd --redact copy --force testdata/redact.data -o "$OUT"
	assert_status 0
	in_bytes "$OUT" | grep -qx worker
	run grep -F '<comm-' < <(in_bytes "$OUT")
	[ "$status" -eq 1 ]
	assert_eq "$("$PERFDUMP" buildids -j "$OUT" | jq -c '[.buildids[].build_id]')" \
		"$("$PERFDUMP" buildids -j testdata/redact.data | jq -c '[.buildids[].build_id]')"
}

@test "copy --redact-key: the copy's tokens are those records and features show" {
	local k=copy-redact-key shown
	pd --redact-key $k copy --force testdata/redact.data -o "$OUT"
	assert_status 0
	# every token of the copy is shown by records or features with the key
	shown=$( ("$PERFDUMP" --redact-key $k records testdata/redact.data
		"$PERFDUMP" --redact-key $k features testdata/redact.data) |
		grep -o '<[a-z]*-[0-9a-f]*>' | sort -u)
	while read -r t; do
		grep -qxF -- "$t" <<<"$shown" || { echo "$t: not shown by records/features"; return 1; }
	done < <(in_bytes "$OUT" | grep -o '<[a-z]*-[0-9a-f]*>' | sort -u)
	[ "$(in_bytes "$OUT" | grep -o '<[a-z]*-[0-9a-f]\{12\}>' | sort -u | wc -l)" -ge 5 ]
}

@test "copy --redact: tracepoint recordings keep their formats, perf decodes the copy" {
	local f
	for f in testdata/tp-sched.data testdata/tp-pipe.data; do
		pdj --redact -j copy --force "$f" -o "$OUT"
		assert_status 0
		jq -e '.copy.notes == []' <<<"$output" >/dev/null
		same_fields pid,tid,time,event,trace "$f"
	done
}

@test "copy --redact: a tracepoint's string fields are replaced where they lie" {
	# a uprobe's string argument: any string, replaced whole
	strings -a testdata/tp-secret.data | grep -q hunter2xyz
	pd --redact copy --force testdata/tp-secret.data -o "$OUT"
	assert_status 0
	run grep -E 'hunter2xyz|swordfish42' < <(in_bytes "$OUT")
	[ "$status" -eq 1 ]
	perf_run script -F event,trace -i "$OUT"
	assert_status 0
	assert_eq "$output" "$(printf '%s\n' 'probe_libc:pd_arg: (7f7fe74b0080) s="<str-1>"' \
		'probe_libc:pd_arg: (7f7fe74b0080) s="<str-2>"')"
	# sched_switch's prev_comm and next_comm, char[16]: comms, with
	# --redact=comm
	pd --redact=comm copy --force testdata/tp-sched.data -o "$OUT"
	assert_status 0
	perf_run script -i "$OUT"
	assert_status 0
	assert_contains "$output" "prev_comm=<comm-"
	run grep -cE 'rcu_preempt|[ =]perf ' <<<"$output"
	assert_eq "$output" 0
}

@test "copy --redact -o -: the pipe written holds no secret either, and perf reads it" {
	local f want
	for f in testdata/redact.data testdata/redact-pipe.data; do
		"$PERFDUMP" --redact=comm copy "$f" -o - >"$OUT"
		[ -s "$OUT" ]
		run grep -E "$SECRETS" < <(in_bytes "$OUT")
		[ "$status" -eq 1 ] || { echo "left in the pipe copy of $f: $output"; return 1; }
		for t in '<host-1>' '<dir-1>/worker' '<comm-1>'; do
			in_bytes "$OUT" | grep -qF -- "$t" || { echo "no $t in the pipe copy of $f"; return 1; }
		done
		perf_run script -F pid,tid,time,ip -i "$f"
		want=$output
		[ -n "$want" ]
		output=$(PERF_BUILDID_DIR=$BATS_TEST_TMPDIR/bid perf script -F pid,tid,time,ip -i - <"$OUT" 2>/dev/null)
		assert_eq "$output" "$want"
	done
}
