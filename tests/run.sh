#!/bin/sh
# Run the bats suite against the normal build and again against the
# AddressSanitizer + UBSan build, and print one closing line
# "N passed, N failed".  PERFDUMP=path runs one binary only.
set -u
cd "$(dirname "$0")/.." || exit 2
export LC_ALL=C

if [ -n "${PERFDUMP:-}" ]; then
	bins=$PERFDUMP
else
	bins="$PWD/perfdump $PWD/build-asan/perfdump"
fi

passed=0
failed=0
out=$(mktemp)
for bin in $bins; do
	echo "== bats with $bin"
	PERFDUMP=$bin ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		bats --tap tests/*.bats | tee "$out"
	p=$(grep -c '^ok ' "$out")
	f=$(grep -c '^not ok ' "$out")
	passed=$((passed + p))
	failed=$((failed + f))
done
rm -f "$out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
