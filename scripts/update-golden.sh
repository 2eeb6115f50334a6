#!/bin/sh
# Regenerate the golden outputs in tests/golden/ from the current build:
# for every fixture in testdata/ (and the testdata/threads.data directory)
# and every synthetic file in testdata/synthetic/,
#
#   tests/golden/NAME.header.txt      perfdump header NAME
#   tests/golden/NAME.header.json     perfdump -p header NAME
#   tests/golden/NAME.features.txt    perfdump features NAME
#   tests/golden/NAME.features.json   perfdump -p features NAME
#   tests/golden/NAME.attrs.txt       perfdump attrs NAME
#   tests/golden/NAME.attrs.json      perfdump -p attrs NAME
#   tests/golden/NAME.records.txt     perfdump records NAME
#   tests/golden/NAME.records.jsonl   perfdump records --json-lines NAME
#   tests/golden/NAME.stats.txt       perfdump stats NAME
#   tests/golden/NAME.stats.json      perfdump -p stats NAME
#   tests/golden/NAME.CMD.err         stderr of the text run, when not empty
#
# NAME is the path below testdata/ (cpu-clock.data, synthetic/full-le.data).
# Run from anywhere; it works from the project root, under LC_ALL=C, with
# ./perfdump (or PERFDUMP=path).  tests/golden.bats compares against these.
# Review the diff (git diff tests/golden) before committing.
set -eu
cd "$(dirname "$0")/.."
export LC_ALL=C
# no kernel symbols from this machine's build-id cache or running kernel
# (tests/helpers.bash sets the same): goldens are the same everywhere
export PERF_BUILDID_DIR=/nonexistent/perfdump-tests/buildid-cache
export PERFDUMP_KERNEL_NOTES=/dev/null
export PERFDUMP_PROC_KALLSYMS=/nonexistent/perfdump-tests/kallsyms
PERFDUMP=${PERFDUMP:-./perfdump}

if [ ! -x "$PERFDUMP" ]; then
	echo "update-golden.sh: $PERFDUMP not found; run make first" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run OUT ERR ARGS...: perfdump ARGS >OUT 2>ERR; exit statuses 0 (sound)
# and 1 (damaged) are both fine for a golden, anything else is not.
run() {
	out=$1 err=$2
	shift 2
	rc=0
	"$PERFDUMP" "$@" >"$out" 2>"$err" || rc=$?
	if [ "$rc" -gt 1 ]; then
		echo "update-golden.sh: perfdump $* exited with $rc:" >&2
		cat "$err" >&2
		exit 1
	fi
}

n=0
for f in testdata/*.data testdata/synthetic/*.data; do
	[ -e "$f" ] || continue
	name=${f#testdata/}
	mkdir -p "$tmp/$(dirname "$name")"
	for cmd in header features attrs records stats; do
		run "$tmp/$name.$cmd.txt" "$tmp/$name.$cmd.err" "$cmd" "$f"
		[ -s "$tmp/$name.$cmd.err" ] || rm -f "$tmp/$name.$cmd.err"
		if [ $cmd = records ]; then
			run "$tmp/$name.$cmd.jsonl" "$tmp/err" records --json-lines "$f"
		else
			run "$tmp/$name.$cmd.json" "$tmp/err" -p "$cmd" "$f"
		fi
	done
	n=$((n + 1))
done
rm -f "$tmp/err"

rm -rf tests/golden
mkdir -p tests/golden
cp -R "$tmp"/. tests/golden/

# perfdump check: the text output for one damaged file (tests/check.bats)
mkdir -p tests/golden-check
run tests/golden-check/check-time.data.check.txt \
	tests/golden-check/check-time.data.check.err \
	check testdata/synthetic/check-time.data
[ -s tests/golden-check/check-time.data.check.err ] ||
	rm -f tests/golden-check/check-time.data.check.err
echo "update-golden.sh: wrote golden outputs for $n inputs into tests/golden/"
