# shellcheck shell=bash
# The helpers of the copy tests (copy.bats, copy-convert.bats): perf as
# the oracle of a copy.  Load after helpers.

# perf_run ARGS...: perf with an empty build-id cache of the test's own;
# $output (stdout), $stderr
perf_run() {
	local errf=$BATS_TEST_TMPDIR/.perf-stderr
	output=$(PERF_BUILDID_DIR=$BATS_TEST_TMPDIR/bid perf "$@" 2>"$errf") &&
		status=0 || status=$?
	stderr=$(cat "$errf")
}

# same_script IN COPY [PERF SCRIPT ARGS...]: perf script on COPY prints
# what perf script ARGS prints on IN, and something
same_script() {
	local in=$1 copy=$2 want
	shift 2
	perf_run script -i "$in" "$@"
	want=$output
	[ -n "$want" ] || {
		echo "perf script $* printed nothing on $in"
		return 1
	}
	perf_run script -i "$copy"
	assert_status 0
	assert_eq "$output" "$want"
}

# stat_lines FILE: perf report --stats's counts by record type, without
# the shares, the TOTAL and perf's pipe records (the copy has them as its
# header) and the containers (written decompressed)
stat_lines() {
	perf_run report --stats -i "$1"
	assert_status 0
	grep -E '^ +[A-Z_0-9]+ events:' <<<"$output" | sed 's/(.*//' |
		grep -vE '^ +(TOTAL|ATTR|FEATURE|TRACING_DATA|BUILD_ID|COMPRESSED) ' || true
}

# records_view FILE: perfdump records, without file offsets
records_view() {
	"$PERFDUMP" records -j "$1" 2>/dev/null |
		jq -c '[.records[] | del(.offset, .inner_offset)
			| select(.type < 64 or .type > 67) | select(.type != 80)]'
}

copy_ok() {
	pdj -j copy "$@" -o "$OUT"
	assert_status 0
	pd check -b "$OUT"
	assert_eq "$output" "$OUT: sound"
}
