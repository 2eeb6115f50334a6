# Shared by the tests of records --symbols (symbols.bats, unwind.bats):
# the symfs tree built from testdata/profile/, as tests/profile.bats
# builds it (nothing depends on this machine's binaries, kernel or
# build-id cache), and frames as perf script -F ip,sym,symoff,dso prints
# them (testdata/perf-ref/*.script.txt, made by
# scripts/record-symbols-fixtures.sh).

RUN=/tmp/perfdump-profile # where the programs ran

# symfs_setup: $T, an empty build-id cache and the tree $T/s
symfs_setup() {
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/empty" "$T/s$RUN"
	export PERF_BUILDID_DIR=$T/empty
	cp -r testdata/profile/debian/. "$T/s/"
	cp testdata/profile/hot testdata/profile/inl testdata/profile/inl-nolibc \
		testdata/profile/inl_cxx "$T/s$RUN/"
}

# perf_frames NAME: perf script's frames, blanks squeezed, no empty lines
# (inlined frames left out: records --symbols without --srcline has none)
perf_frames() {
	awk 'NF && !/\(inlined\)$/ { $1 = $1; print }' "testdata/perf-ref/$1.script.txt"
}

# our_frames ADDR: the frames of records -j --symbols ($output) as perf
# prints them, ADDR (ip or dso_ip) the address shown; markers left out
our_frames() {
	jq -r --arg a "$1" '.records[].frames[]? | select(.context == null) |
		"\(.[$a] | ltrimstr("0x")) \(if .sym then "\(.sym)+\(.symoff)"
		else "[unknown]" end) (\(.dso // "[unknown]"))"' <<<"$output"
}
