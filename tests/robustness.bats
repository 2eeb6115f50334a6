#!/usr/bin/env bats
# Bad bytes never crash perfdump: the fuzz regressions replay cleanly, and
# every fixture cut at many offsets or with bytes flipped still gives exit
# 0 or 1 (never a signal), valid JSON, and a bounded run time.

load helpers
# bats file_tags=asan

REPLAY=build-asan/perfdump-replay

# bounded OUT ARGS...: perfdump with a 10 s limit, stdout to OUT, stderr
# dropped; fails (saying so) on exit 2 or more, a signal or a hang.  No
# `run`: the sweeps below call it hundreds of times.
bounded() {
	local out=$1 st=0
	shift
	timeout 10 "$PERFDUMP" "$@" >"$out" 2>/dev/null || st=$?
	[ "$st" -le 1 ] || { echo "perfdump $*: exit $st (2 or more, a signal or a hang)"; false; }
}

# run_bounded ARGS...: perfdump with a 10 s limit; fail on a signal or hang
run_bounded() {
	run --separate-stderr timeout 10 "$PERFDUMP" "$@"
	if [ "$status" -ge 124 ]; then
		echo "perfdump $*: exit $status (signal or hang)"
		echo "$stderr" | tail -5
		return 1
	fi
}

# The fixtures and the corpus go through the same pipeline under the same
# sanitizers in make check's `make mutate`, which runs each of them whole
# first (MUTATE_FILES): here, the fuzz regressions only.
# bats test_tags=normal
@test "fuzz regressions replay through the sanitizer build" {
	sweep
	[ -x "$REPLAY" ] || skip "$REPLAY not built (make SANITIZE=1 build-asan/perfdump-replay)"
	local files=(tests/fuzz/regress/*)
	local f
	for f in "${files[@]}"; do
		[ -f "$f" ] || continue
		case $f in *.md) continue ;; esac
		run --separate-stderr timeout 60 "$REPLAY" "$f"
		[ "$status" -eq 0 ] || { echo "$f: exit $status"; echo "$stderr" | tail -20; false; }
	done
}

# cuts FILE N: N cut points spread over FILE, always including 0..16 and
# the bytes around the 104-byte header
cuts() {
	local size step i
	size=$(stat -c %s "$1")
	step=$(( size / $2 + 1 ))
	{ seq 0 8 16; seq 96 8 112; seq 0 "$step" "$size"; } | sort -nu
}

# all_json N DIR: DIR's files (one per run) hold N JSON objects, one each:
# one jq for all of them (it names the file it cannot parse)
all_json() {
	local res
	res=$(jq -n '[inputs | type == "object"] | "\(length) \(all)"' "$2"/* 2>&1)
	[ "$res" = "\"$1 true\"" ] || { echo "$2: $1 JSON documents expected: $res"; false; }
}

# bats test_tags=normal
@test "truncated fixtures: exit 0 or 1, valid JSON, never a signal" {
	sweep
	local tmp f n k=0 d=$BATS_TEST_TMPDIR/json
	tmp=$(mktemp)
	mkdir -p "$d"
	for f in testdata/cpu-clock.data testdata/pipe.data testdata/tracepoint.data \
		 testdata/synthetic/full-le.data testdata/synthetic/full-be.data \
		 testdata/synthetic/pipe-be.data; do
		for n in $(cuts "$f" 24); do
			head -c "$n" "$f" > "$tmp"
			k=$((k + 1))
			bounded "$d/$k" -j features "$tmp" || { echo "$f cut at $n"; false; }
			bounded /dev/null header "$tmp" || { echo "$f cut at $n"; false; }
		done
	done
	all_json "$k" "$d"
	rm -f "$tmp"
}

# bats test_tags=normal
@test "fixtures with bytes flipped: exit 0 or 1, valid JSON, never a signal" {
	sweep
	local tmp f i off size k=0 d=$BATS_TEST_TMPDIR/json
	tmp=$(mktemp)
	mkdir -p "$d"
	RANDOM=42 # the same flips on every run
	for f in testdata/cpu-clock.data testdata/pipe.data \
		 testdata/synthetic/full-le.data testdata/synthetic/full-be.data; do
		size=$(stat -c %s "$f")
		for i in $(seq 1 25); do
			cp "$f" "$tmp"
			off=$(( (RANDOM * 32768 + RANDOM) % size ))
			printf "\\x$(printf %02x $((RANDOM % 256)))" |
				dd of="$tmp" bs=1 seek="$off" conv=notrunc status=none
			k=$((k + 1))
			bounded "$d/$k" -j features "$tmp" || { echo "$f flip at $off"; false; }
			bounded /dev/null -x header "$tmp" || { echo "$f flip at $off"; false; }
		done
	done
	all_json "$k" "$d"
	rm -f "$tmp"
}

@test "a feature section claiming 2^63 bytes is refused, not allocated" {
	local tmp
	tmp=$(mktemp)
	cp testdata/cpu-clock.data "$tmp"
	# the HOSTNAME entry is the second of the table at 0x41c0: size at +8
	printf '\x00\x00\x00\x00\x00\x00\x00\x80' |
		dd of="$tmp" bs=1 seek=$((0x41d0 + 8)) conv=notrunc status=none
	run_bounded -j features "$tmp" hostname
	[ "$status" -eq 1 ]
	jq -e '.errors[0].offset == 16848 and (.errors[0].detail | test("extends past the end of the file"))' <<<"$output"
	rm -f "$tmp"
}
