#!/bin/sh
# Run the bats suite against the normal build and against the
# AddressSanitizer + UBSan build, and print one closing line "N passed,
# N failed".  PERFDUMP=path runs one binary only.
#
# The work is a queue of (binary, bats file) jobs that one worker per core
# (PD_TEST_JOBS=N to choose) takes in turn, the heaviest files
# first, so that both cores stay busy to the end.  Each job's TAP output
# is kept and shown whole, grouped by binary, when all have ended.
#
# With both binaries, the sanitizer build runs the tests tagged `asan`
# (`# bats file_tags=asan` for a whole file, `# bats test_tags=asan`
# before one test): those that reach code `make mutate` and `make fuzz`
# do not.  Those two put every fixture, synthetic file and corpus file
# (mutate: each unmutated first, then cut and flipped) through every
# command in every format under the same sanitizers, by the commands' own
# functions; they do not run main() and its option handling, standard
# input and other streams, directories (data.N), inputs over 64 KiB read
# ahead on a helper thread, compressed files, output errors, the records
# filters (--pid, --time, --limit, ...), features NAME and --list, build-id
# resolution and profile's symfs, nor the files tests make at test time.
# Files whose tests all do one of those are tagged whole (cli, inputs,
# stdin, reader, memory, usability, torn, profile, buildids, redact,
# tracepoint, escape, fuzz, robustness, leaks); elsewhere each such test
# is tagged.  The normal build runs the other tests, and those tagged
# `normal` too: the tests tagged `asan` of which a part does not run under
# the sanitizers.  The sweeps (marked `sweep` in helpers.bash: the same
# commands over every corpus file or fixture) are skipped there, for the
# reason above; the tests marked `once` (they check the docs, help texts,
# Makefile and sources against each other, not perfdump's memory) run with
# the normal build only; `few` loops take their first items there; and
# peak RSS is the normal build's (the sanitizers' shadow is not
# perfdump's).  scripts/check-test-tags.py (run by a test) keeps the
# `normal` tags on every such test.  Each test thus runs once, but those:
# the two builds differ in their optimisation, not in their code.
#
# In that run the sanitizer build's leak checks are off (a check scans the
# runtime's 9 MiB of zeroed globals and doubles a run's time) except in
# tests/leaks.bats, which puts the paths above through them.  `make
# check-asan` (one binary) runs every test under ASan with leak checks.
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C

if [ -n "${PERFDUMP:-}" ]; then
	bins=$PERFDUMP
	sweeps_asan=1
	leaks=1
else
	bins="$PWD/build-asan/perfdump $PWD/perfdump"
	sweeps_asan=0
	leaks=0
fi
jobs=${PD_TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}

# The heaviest files first (the times this script prints at the end: the
# sweeps, the crafted files, the goldens), then the rest in name order.
heavy="records features golden buildids attrs corpus robustness samples header cli stdin memory check stats"
files=
for h in $heavy; do
	[ -f "tests/$h.bats" ] && files="$files tests/$h.bats"
done
for f in tests/*.bats; do
	case " $files " in *" $f "*) ;; *) files="$files $f" ;; esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# python3 as a version manager's shim (pyenv's: 0.3 s a start, against
# 0.03 s for the interpreter it runs) is resolved once, here
if py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) && [ -x "$py" ]; then
	mkdir "$tmp/bin" && ln -s "$py" "$tmp/bin/python3" && PATH=$tmp/bin:$PATH
fi
n=0
for f in $files; do
	i=0
	for bin in $bins; do
		i=$((i + 1))
		# of both builds, the sanitizer build: only files with tests
		# tagged asan; the normal build: not files tagged asan whole but
		# for tests tagged normal
		if [ "$sweeps_asan" = 0 ]; then
			case $bin in
			*/build-asan/*)
				grep -q '^# bats \(file\|test\)_tags=.*asan' "$f" || continue
				;;
			*)
				grep -q '^# bats file_tags=asan$' "$f" &&
					! grep -q '^# bats test_tags=.*normal' "$f" && continue
				;;
			esac
		fi
		n=$((n + 1))
		echo "$n $i $bin $f" >>"$tmp/queue"
	done
done
echo 0 >"$tmp/next"

# take: the next job's line, or nothing when the queue is empty
take() {
	flock "$tmp/next" sh -c '
		k=$(($(cat "$1") + 1))
		echo "$k" >"$1"
		sed -n "${k}p" "$2"' sh "$tmp/next" "$tmp/queue"
}

worker() {
	while :; do
		job=$(take)
		[ -n "$job" ] || return 0
		set -- $job
		sweeps=1
		tags=
		case $3 in */build-asan/*) sweeps=$sweeps_asan ;; esac
		if [ "$sweeps_asan" = 0 ]; then
			case $3 in
			*/build-asan/*) tags="--filter-tags asan" ;;
			*) tags="--filter-tags !asan --filter-tags normal" ;;
			esac
		fi
		t0=$(date +%s%N)
		# shellcheck disable=SC2086
		PERFDUMP=$3 PD_SWEEPS=$sweeps PD_ONCE=$sweeps \
			ASAN_OPTIONS=detect_leaks=$leaks:abort_on_error=0 \
			UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			bats --tap $tags "$4" >"$tmp/$2.$(printf %03d "$1").tap" 2>&1
		echo "$((($(date +%s%N) - t0) / 1000000)) $3 $4" >>"$tmp/times"
	done
}

w=0
while [ "$w" -lt "$jobs" ]; do
	worker &
	w=$((w + 1))
done
wait

passed=0
failed=0
i=0
for bin in $bins; do
	i=$((i + 1))
	echo "== bats with $bin"
	cat "$tmp/$i".*.tap
	p=$(cat "$tmp/$i".*.tap | grep -c '^ok ')
	f=$(cat "$tmp/$i".*.tap | grep -c '^not ok ')
	# a file that ended before its plan (bats itself failed) fails too
	for t in "$tmp/$i".*.tap; do
		plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$t" | head -1)
		ran=$(grep -c -E '^(not )?ok ' "$t")
		if [ -z "$plan" ] || [ "$ran" -ne "$plan" ]; then
			echo "# $t: ${plan:-no} tests planned, $ran ran"
			f=$((f + 1))
		fi
	done
	passed=$((passed + p))
	failed=$((failed + f))
done
# each job's wall time, the slowest first (what to split or list in $heavy)
echo "# seconds per bats file and binary, the slowest first:"
sort -rn "$tmp/times" | awk '{ printf "#   %6.1f  %s %s\n", $1 / 1000, $2, $3 }' | sed "s|$PWD/||"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
