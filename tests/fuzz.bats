#!/usr/bin/env bats
# The fuzz harness and its seeds (tests/fuzz/README.md), and the slow
# inputs fuzzing found, bounded.

load helpers

REPLAY=build-asan/perfdump-replay

# features_overlap: 22 feature sections over the same 640 KB (the attrs
# and data sections), each 8 bytes after the one before; made once.
features_overlap() {
	local f=$BATS_FILE_TMPDIR/features-overlap.data
	[ -e "$f" ] || python3 scripts/gen-hostile-big.py "$f" features-overlap >&2
	echo "$f"
}

# bats test_tags=asan,normal
@test "22 overlapping feature sections: -x dumps their bytes once, the others say so" {
	local f lines
	f=$(features_overlap)
	# 640144 bytes dump in 40009 lines, once; they were 21 times more
	pd -x features "$f"
	assert_status 1
	lines=$(grep -c '^      0x' <<<"$output")
	assert_eq "$lines" 40009 "hex dump lines"
	assert_eq "$(grep -c ': overlap bytes dumped above, not repeated$' <<<"$output")" 38 "repeats"
	assert_contains "$output" "    raw: 640144 bytes at 0x70: overlap bytes dumped above, not repeated"
	assert_contains "$output" "    unparsed: 640139 bytes at 0x7d: overlap bytes dumped above, not repeated"
	# the unknown and undecoded ones (BRANCH_STACK, STAT) too
	assert_contains "$output" "    bytes: 640144 bytes at 0xd8: overlap bytes dumped above, not repeated"
	pdj -j -x features "$f"
	assert_status 1
	jq_all '[.features[] | .raw, .unparsed, .bytes | select(.hex)] | map([.offset, .size, (.hex | length)])' '[[104,640144,1280288]]' \
		'[.features[] | .raw, .unparsed, .bytes | select(.repeat)] | length' 38 \
		'.features[1].raw' '{"offset":112,"size":640144,"repeat":true}' \
		'[.errors[] | select(.what == "feature section table" and (.detail | test("overlaps feature 1 section 0x68-0x9c4f8( and [0-9]+ more feature sections?)?$")))] | length' 21 \
		'[.errors[].detail | select(test("overlaps feature 1 .* and 20 more"))]' '["feature 22 section 0x110-0x9c5a0 overlaps feature 1 section 0x68-0x9c4f8 and 20 more feature sections"]'
	# without -x only what no decoder took is dumped: once, too
	pd features "$f"
	assert_eq "$(grep -c '^      0x' <<<"$output")" 40009 "hex dump lines without -x"
}

@test "the fuzz targets: the list matches make fuzz, each replays the regressions cleanly" {
	once # the same sanitizer build whichever perfdump the suite tests
	[ -x "$REPLAY" ] || skip "$REPLAY not built (make SANITIZE=1 build-asan/perfdump-replay)"
	local listed made t
	# all but the whole pipeline, which runs what they run
	listed=$("$REPLAY" --list | awk '$1 != "perfdump" {print $1}' | sort | tr '\n' ' ')
	made=$(make -s --no-print-directory -f - print-targets <<'EOF' | tr ' ' '\n' | sort | tr '\n' ' '
include Makefile
print-targets:
	@echo $(FUZZ_TARGETS)
EOF
)
	assert_eq "$made" "$listed" "make fuzz's targets"
	for t in perfdump $listed; do
		run --separate-stderr "$REPLAY" --target="$t" tests/fuzz/regress/*.data
		assert_no_signal
		assert_status 0
	done
	run --separate-stderr "$REPLAY" --target=nosuch tests/fuzz/regress/README.md
	assert_status 2
	assert_contains "$stderr" "unknown fuzz target 'nosuch'"
}

@test "fuzz seeds: under 64 KiB each, and the cut ones are sound recordings" {
	local d=$BATS_TEST_TMPDIR/seeds f n=0
	run python3 scripts/gen-fuzz-seeds.py "$d"
	assert_status 0
	[ -z "$(find "$d" -type f -size +65536c)" ] || { find "$d" -size +65536c; false; }
	[ "$(find "$d/elf" -type f | wc -l)" -ge 10 ]
	for f in "$d"/perf/*.head "$d"/perf/*.cut; do
		pd check "$f"
		assert_status 0
		n=$((n + 1))
	done
	[ "$n" -ge 18 ] || { echo "only $n cut seeds"; false; }
	# allbits.data (114 KB) cut at a record boundary: its features kept
	pdj -j features "$d/perf/allbits.data.cut"
	jq_all '.features | length' "$(perfdump_json features testdata/allbits.data '.features | length')"
}

# perfdump_json ARGS... FILTER: jq -c FILTER on perfdump -j ARGS
perfdump_json() {
	local filter=${*: -1}
	"$PERFDUMP" -j "${@:1:$#-1}" | jq -c "$filter"
}

# make check bounds the mutation test with -T: a file whose share of the
# time is spent still runs -M MIN (32 by default, make check's 16) of its
# mutants, cuts and flips
@test "perfdump-mutate -T: past its share, a file runs 32 of its mutants (-M 16: 16); without -T, all" {
	once # the same sanitizer build whichever perfdump the suite tests
	local m=build-asan/perfdump-mutate
	[ -x "$m" ] || skip "$m not built (make SANITIZE=1 build-asan/perfdump-mutate)"
	export ASAN_OPTIONS=quarantine_size_mb=16:malloc_context_size=10
	run "$m" -T 0.001 -n 40 -o "$BATS_TEST_TMPDIR" testdata/killed.data
	assert_status 0
	# (how many flips a file gets depends on the machine's speed)
	[[ $output =~ "ok   testdata/killed.data: 632 bytes, 102 cuts + "[0-9]+" flip mutants (32 of them in its " ]] ||
		{ echo "$output"; false; }
	assert_contains "$output" ": 33 mutants of 1 files in " # and the file itself
	run "$m" -T 0.001 -M 16 -n 40 -o "$BATS_TEST_TMPDIR" testdata/killed.data
	assert_status 0
	[[ $output =~ "ok   testdata/killed.data: 632 bytes, 102 cuts + "[0-9]+" flip mutants (16 of them in its " ]] ||
		{ echo "$output"; false; }
	assert_contains "$output" ": 17 mutants of 1 files in "
	run "$m" -T 1 -M 0 testdata/killed.data
	assert_status 2
	run "$m" -n 0 -o "$BATS_TEST_TMPDIR" testdata/synthetic/trunc-header.data
	assert_status 0
	[[ $output != *"of them in its"* ]]
	assert_contains "$output" "mutants of 1 files in "
}
