#!/usr/bin/env bats
# perfdump copy for an older perf: --attr-size writes every attr at an
# older layout's size, so perf 6.1 (128-byte attrs) reads recordings made
# by a newer perf (136 bytes: config3), and refuses to cut a field that
# is set.  perf is the oracle.

load helpers
load copy
# bats file_tags=asan

setup() {
	command -v perf >/dev/null || skip "perf is not installed"
	OUT=$BATS_TEST_TMPDIR/out.data
	C=../shared/corpus
}

# The corpus recordings whose attrs are 136 bytes (perf 6.3 and later),
# every one of which perf 6.1 refuses.
NEWER="linux-perf-data/sleep.data linux-perf-data/sleep.compressed.data
linux-perf-data/sleep.compressed2.data hotspot/perf.data.PerfFormatLost
perfparser/cpp-inlining__cpp-inlining.perf.data
platform_system_extras/lbr__perf_lbr.data
autofdo/hierarchical_discriminator_test.x86_64.perf.data"

# sample_times FILE: each sample's "tid seconds" as perfdump reads FILE,
# once each, sorted
sample_times() {
	"$PERFDUMP" records -j "$1" 2>/dev/null |
		jq -r '.records[] | select(.type == 9) | "\(.tid) \(.time_s)"' |
		sort -u
}

@test "copy --attr-size 128: perf 6.1 reads the corpus recordings with 136-byte attrs, every sample" {
	local f n=0
	for f in $NEWER; do
		[ -f "$C/$f" ] || continue
		n=$((n + 1))
		perf_run report --stats -i "$C/$f"
		[ "$status" -ne 0 ] || {
			echo "perf read $f: it no longer makes the case"
			return 1
		}
		pdj -j copy --force --attr-size 128 "$C/$f" -o "$OUT"
		assert_status 0
		jq_all '.copy.attr_size' '128'
		pd check -b "$OUT"
		assert_eq "$output" "$OUT: sound"
		perf_run evlist -v -i "$OUT"
		assert_status 0
		[ -n "$output" ] && ! grep -v ' size: 128,' <<<"$output" || {
			echo "$f: perf evlist -v: $output"
			return 1
		}
		# every sample of the input, as perf script times it
		perf_run script -F tid,time -i "$OUT"
		assert_status 0
		assert_eq "$(sed -E 's/^ *([0-9]+) +([0-9.]+):.*/\1 \2/' <<<"$output" |
			sort -u)" "$(sample_times "$C/$f")"
		assert_eq "$(records_view "$OUT")" "$(records_view "$C/$f")"
	done
	[ $n -ge 5 ] || skip "only $n of the corpus recordings are there"
}

@test "copy --attr-size: a smaller attr padded, a larger one cut, the attrs as read but for their size" {
	local s
	for s in 120 136 144; do
		pdj -j copy --force --attr-size $s testdata/cpu-clock.data -o "$OUT"
		assert_status 0
		jq_all '.copy.attr_size' "$s"
		pdj -j attrs "$OUT"
		jq_all "[.attrs[].size] == [$s]" true \
			'.attrs[0] | [.sample_type, .sample_freq, .config]' '["0x107",4000,"0x0"]'
		assert_eq "$(records_view "$OUT")" "$(records_view testdata/cpu-clock.data)"
	done
	# perf 6.1 reads the smaller one (and refuses 136 and 144: its own
	# attr is 128 bytes)
	"$PERFDUMP" copy --force --attr-size 120 testdata/cpu-clock.data -o "$OUT" >/dev/null
	same_script testdata/cpu-clock.data "$OUT"
	# a VER8 attr whose config3 is zero, cut to VER7 and padded to VER9
	for s in 128 144; do
		pdj -j copy --force --attr-size $s testdata/synthetic/full-le.data -o "$OUT"
		assert_status 0
		pdj -j attrs "$OUT"
		jq_all "[.attrs[].size] == [$s, $s]" true
		assert_eq "$(records_view "$OUT")" "$(records_view testdata/synthetic/full-le.data)"
	done
}

@test "copy --attr-size: a field past N that is set is refused, naming it and the event; OUT not written" {
	pd copy --attr-size 128 testdata/synthetic/attr-config3.data -o "$OUT"
	assert_status 3
	assert_eq "$stderr" "perfdump: copy: testdata/synthetic/attr-config3.data: --attr-size 128: event 0 (cpu-clock): config3 is not zero (byte 128 of its 136-byte attr); an attr of 128 bytes cannot hold it"
	[ ! -e "$OUT" ]
	pd copy --attr-size 136 testdata/synthetic/attr-big.data -o "$OUT"
	assert_status 3
	assert_contains "$stderr" "event 0 (cpu-clock): config4 is not zero (byte 136 of its 160-byte attr)"
	# at its own size, the set field is kept
	pdj -j copy --attr-size 136 testdata/synthetic/attr-config3.data -o "$OUT"
	assert_status 0
	pdj -j attrs "$OUT"
	jq_all '.attrs[0] | [.size, .config3]' '[136,"0x5"]'
	# perf record -k CLOCK_MONOTONIC sets clockid (VER3), which VER2 lacks
	pd copy --force --attr-size 80 testdata/mono.data -o "$OUT"
	assert_status 3
	assert_contains "$stderr" "--attr-size 80: event 0 (cpu-clock): clockid is not zero (byte 92 of its 128-byte attr)"
}

@test "copy --attr-size: usage errors name the sizes it takes" {
	local s
	for s in 100 0 152 x ""; do
		pd copy --attr-size "$s" testdata/cpu-clock.data -o "$OUT"
		assert_status 2
		assert_contains "$stderr" "--attr-size $s: the size of a perf_event_attr layout: 64, 72, 80, 96, 104, 112, 120, 128, 136, 144"
	done
}

@test "copy -o -: 136-byte attrs whose config3 is zero go in 128-byte HEADER_ATTR records, which perf 6.1 reads" {
	local f=$C/linux-perf-data/sleep.data
	[ -f "$f" ] || skip "no $f"
	output=$("$PERFDUMP" copy "$f" -o - |
		PERF_BUILDID_DIR=$BATS_TEST_TMPDIR/bid perf script -F tid,time -i - 2>/dev/null)
	assert_eq "$(sed -E 's/^ *([0-9]+) +([0-9.]+):.*/\1 \2/' <<<"$output" | sort -u)" \
		"$(sample_times "$f")"
	"$PERFDUMP" copy "$f" -o - >"$OUT"
	pdj attrs -j "$OUT"
	jq_all '[.attrs[].size]' '[128]'
	# --attr-size decides, also in a pipe
	"$PERFDUMP" copy --attr-size 136 "$f" -o - >"$OUT"
	pdj attrs -j "$OUT"
	jq_all '[.attrs[].size]' '[136]'
}
