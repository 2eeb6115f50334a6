#!/bin/sh
# Run the bats suite against the normal build and against the
# AddressSanitizer + UBSan build, the two at once (one per core), and print
# one closing line "N passed, N failed".  PERFDUMP=path runs one binary
# only.  Each run's TAP output is shown whole when it ends.
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C

if [ -n "${PERFDUMP:-}" ]; then
	bins=$PERFDUMP
else
	bins="$PWD/perfdump $PWD/build-asan/perfdump"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for bin in $bins; do
	i=$((i + 1))
	(PERFDUMP=$bin ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		bats --tap tests/*.bats >"$tmp/$i.tap" 2>&1) &
done
wait

passed=0
failed=0
i=0
for bin in $bins; do
	i=$((i + 1))
	echo "== bats with $bin"
	cat "$tmp/$i.tap"
	p=$(grep -c '^ok ' "$tmp/$i.tap")
	f=$(grep -c '^not ok ' "$tmp/$i.tap")
	passed=$((passed + p))
	failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
