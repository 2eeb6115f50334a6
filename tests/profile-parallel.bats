#!/usr/bin/env bats
# profile on several threads (-J/--jobs N; profile_par.c): by function, DSO
# or line, each worker a replica of the maps and symbols, its own address
# table and rows, merged at the end.  The profile must be byte for byte the
# one of --jobs 1 (stdout, stderr and exit status, text, JSON and CSV), but
# for the two exceptions perfdump(1) gives (the address table full, a
# kallsyms file's bounds).  PERFDUMP_BATCH_BYTES=1 makes every record its
# own batch, so that every record boundary is a batch boundary.
#
# Under ThreadSanitizer (make check-tsan) a report changes the exit status.

load helpers
load jobs
# bats file_tags=asan

load symfs

setup_file() {
	python3 scripts/gen-readerdata.py "$BATS_FILE_TMPDIR/big" >/dev/null
}

P=testdata/profile
FIXTURES="testdata/*.data testdata/synthetic/*.data"

# bats test_tags=normal
@test "profile -J: every fixture with symbols, by function, dso and line, one record a batch: --jobs 2, 3, 4 as --jobs 1" {
	symfs_setup
	cp $P/hot_cxx "$T/s$RUN/hot_cxx"
	local name k
	export PD_CMD=profile PERFDUMP_BATCH_BYTES=1
	for name in $SYM_FIXTURES; do
		k=$(kallsyms_of $name)
		same_as_one "2 3 4" $P/$name.data -- --symfs "$T/s" --kallsyms $k
		same_as_one "2" $P/$name.data -- --symfs "$T/s" --kallsyms $k -j --no-children
		same_as_one "3" $P/$name.data -- --symfs "$T/s" --kallsyms $k --by dso --csv
		same_as_one "2" $P/$name.data -- --symfs "$T/s" --kallsyms $k --by line -j
		same_as_one "4" $P/$name.data -- --symfs "$T/s" --strict-build-ids --no-demangle
	done
	# without symbols: every DSO's status, said where one thread says it
	same_as_one "2 3" $P/inl-fp.data $P/callchain.data $P/profile.data \
		$P/nolibc-dwarf.data -- --symfs "$T/empty"
	# the default batches
	unset PERFDUMP_BATCH_BYTES
	same_as_one "2" $P/profile.data $P/nobid-killed.data -- --symfs "$T/s" --kallsyms $P/kallsyms
}

@test "profile -J: the other fixtures and the generated files (damage, cut records, containers), as --jobs 1" {
	export PD_CMD=profile PERF_BUILDID_DIR=$BATS_TEST_TMPDIR/empty
	local big=$BATS_FILE_TMPDIR/big
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 3" $FIXTURES -- -j
	# shellcheck disable=SC2086
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" $FIXTURES -- --by line --csv
	PERFDUMP_BATCH_BYTES=1 same_as_one "2 4" "$big"/*.data --
	same_as_one "3" "$big"/*.data -- -j --by dso
	# diff --profile's profiles
	PERFDUMP_BATCH_BYTES=1 PD_CMD=diff same_as_one "2" "$big"/big.data "$big"/big-jump.data -- \
		--profile -j "$big"/big-records.data
}

# bats test_tags=normal
@test "profile -J: every corpus file, --jobs 2 and 3 as --jobs 1" {
	local -a files=()
	corpus_files
	export PD_CMD=profile PERF_BUILDID_DIR=$BATS_TEST_TMPDIR/empty
	PERFDUMP_BATCH_BYTES=1 same_as_one "2" "${files[@]}" --
	PERFDUMP_BATCH_BYTES=4096 same_as_one "3" "${files[@]}" -- -j --by line
}

@test "profile -J: a full address table folds on each thread: the rows' counts are the same, the folds and hot lines may not be" {
	symfs_setup
	export PERFDUMP_PROFILE_ADDRS=3 PERFDUMP_BATCH_BYTES=1
	local one par strip='del(.. | .address_table_folds?, .hot_line?, .hot_address?, .hot_file?)'
	pd -j profile --jobs 1 --symfs "$T/s" --kallsyms $P/kallsyms $P/profile.data
	assert_status 0
	one=$(jq -S "$strip" <<<"$output")
	jq -e '.profile.summary.address_table_folds > 100' <<<"$output"
	pd -j profile --jobs 3 --symfs "$T/s" --kallsyms $P/kallsyms $P/profile.data
	assert_status 0
	par=$(jq -S "$strip" <<<"$output")
	jq -e '.profile.summary.address_table_folds > 100' <<<"$output"
	assert_eq "$par" "$one"
	jq -e '.profile.functions | length > 5' <<<"$output"
}

@test "profile -J: the kernel's map fitted to a kallsyms file's symbols before its first address is looked up, on every thread alike" {
	local f=$CORPUS/hotspot/perf.data.PerfFormatLost ks=$BATS_TEST_TMPDIR/kallsyms
	[ -f "$f" ] || skip "no corpus"
	# symbols that end before the recorded kernel map does (its MMAP:
	# 0xffffffff8d800000, 0x20151c0 bytes), where samples landed: a
	# sample there is the kernel's until the map is fitted
	printf '%s\n' 'ffffffff8d800000 T _text' 'ffffffff8d800100 T startup_64' \
		'ffffffff8d900000 T mid_func' 'ffffffff8da00000 T _etext' >"$ks"
	export PERFDUMP_BATCH_BYTES=1
	PD_CMD=profile same_as_one "2 3" "$f" -- --kallsyms "$ks" -j
	PD_CMD=profile same_as_one "2" "$f" -- --kallsyms "$ks" --no-children
	PD_CMD=export same_as_one "2 3" "$f" -- --to folded --kallsyms "$ks"
	# and the first kernel sample's own address is looked up in the
	# fitted map too: the kernel's rows are its symbols', the samples
	# past them unmapped (perf 6.1 refuses this recording)
	pd -j profile --jobs 1 --kallsyms "$ks" "$f"
	assert_status 0
	assert_eq "$(jq -c '[.profile.functions[] | select(.dso == "[kernel.kallsyms]") |
		[.symbol, .samples]]' <<<"$output")" '[["startup_64",5],["mid_func",4]]'
	assert_eq "$(jq -c '.profile.events[0].unmapped' <<<"$output")" 22
}

# bats test_tags=normal
@test "profile -J: workers start by function, dso and line (at most 4), not by process or thread" {
	command -v strace >/dev/null || skip "strace is not installed"
	case $PERFDUMP in */build-tsan/*) skip "ThreadSanitizer's runtime has a thread" ;; esac
	local big=$BATS_FILE_TMPDIR/big/big-records.data
	[ "$(nthreads profile --jobs 1 "$big")" = 0 ]
	# --jobs N: N - 1 threads started, the reading thread the Nth
	[ "$(nthreads profile --jobs 3 "$big")" = 2 ]
	[ "$(nthreads profile --jobs 2 --by dso "$big")" = 1 ]
	[ "$(nthreads profile --jobs 2 --by line "$big")" = 1 ]
	[ "$(nthreads profile --jobs 8 "$big")" = 3 ]
	[ "$(nthreads profile --jobs 3 --by thread "$big")" = 0 ]
	[ "$(nthreads profile --jobs 3 --by process "$big")" = 0 ]
	# a small data section: one thread does it
	[ "$(nthreads profile --jobs 3 testdata/cpu-clock.data)" = 0 ]
	# without -J: the online CPUs (at most 4)
	local want=$(($(getconf _NPROCESSORS_ONLN)))
	((want <= 4)) || want=4
	want=$((want - 1))
	[ "$(nthreads profile "$big")" = "$want" ]
}
