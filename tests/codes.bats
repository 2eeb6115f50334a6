#!/usr/bin/env bats
# The stable codes of perfdump check: the table in the program
# (check --list-codes) and the man page list the same codes with the same
# severities; every documented code is raised by a fixture; no fixture or
# corpus file raises a code that is not documented; each file made for a
# code gives exactly its findings.

load helpers

MAN=man/perfdump.1

# Codes no committed fixture can raise, and why:
#   features-missing  data.size 0 is reported as data-size-zero (or
#                     data-size-zero-with-records), which says the feature
#                     sections were never written; the feature table is not
#                     read then.  Kept: scripts may name it.
#   read-error        needs the input to fail while being read (an I/O
#                     error, or a data.N file that cannot be opened);
#                     permissions are not kept by git and root reads all.
#   order-queue-full, table-full, zstd-window-too-large
#                     need megabytes of records, or (zstd) a window that
#                     check refuses but no committed file declares: raised
#                     by the files scripts/gen-hostile-big.py writes at test
#                     time (tests/memory.bats), and order-queue-full and
#                     table-full only by records --order time, buildids and
#                     stats, not by check (but for the attrs' and ids'
#                     caps, which every command has).
#   dso-not-symbolized, stack-unwind-stopped
#                     raised by records --symbols and profile, which read
#                     DSOs; check does not (tests/symbols.bats,
#                     tests/unwind.bats, tests/profile-callers.bats raise
#                     them).
UNRAISED="dso-not-symbolized features-missing order-queue-full read-error stack-unwind-stopped table-full zstd-window-too-large"

# "name severity" of every code the program knows.
program_codes() {
	"$PERFDUMP" check --list-codes | cut -f1,2 | tr '\t' ' ' | LC_ALL=C sort
}

# "name severity" of every code in the man page's list of codes.
man_codes() {
	MANWIDTH=200 man -l "$MAN" 2>/dev/null | col -b |
		sed -n '/^[[:space:]]*The codes:/,/^[[:space:]]*buildids /p' |
		sed -nE 's/^[[:space:]]+([a-z][a-z-]+) \((error|warning)\)$/\1 \2/p' | LC_ALL=C sort
}

# The codes perfdump check gives on the files named (one per line, sorted,
# unique): one perfdump over all of them (one JSON document per file) and
# one jq over its output.
raised_codes() {
	"$PERFDUMP" -j check "$@" 2>/dev/null | jq -r '.check.findings[]?.code' | LC_ALL=C sort -u
}

fixtures() {
	printf '%s\n' testdata/*.data testdata/synthetic/*.data
}

# A directory recording whose data file is a pipe stream (made of a fixture).
dir_with_pipe_data() {
	mkdir -p "$BATS_TEST_TMPDIR/pipe-dir.data"
	cp testdata/synthetic/pipe-le.data "$BATS_TEST_TMPDIR/pipe-dir.data/data"
	echo "$BATS_TEST_TMPDIR/pipe-dir.data"
}

# A directory recording whose data.0 is a FIFO (made of threads.data):
# not-regular-file.
dir_with_fifo() {
	local d=$BATS_TEST_TMPDIR/fifo-dir.data
	if [ ! -d "$d" ]; then
		cp -r testdata/threads.data "$d"
		rm "$d/data.0"
		mkfifo "$d/data.0"
	fi
	echo "$d"
}

# A pipe stream whose compressed record decompresses to 17 MiB
# (scripts/gen-stdindata.py): decompressed-too-large.
zstd_bomb() {
	local f=$BATS_TEST_TMPDIR/bomb.data
	[ -e "$f" ] || python3 scripts/gen-stdindata.py bomb "$f"
	echo "$f"
}

# cpu-clock.data in xz, cut after 2000 of its compressed bytes:
# input-decompress-failed.
truncated_xz() {
	local f=$BATS_TEST_TMPDIR/cut.data.xz
	[ -e "$f" ] || xz -c testdata/cpu-clock.data | head -c 2000 >"$f"
	echo "$f"
}

# Every file the codes are raised by: the fixtures, and those made here.
code_files() {
	fixtures
	dir_with_pipe_data
	dir_with_fifo
	zstd_bomb
	truncated_xz
}

# check_findings FILE STATUS JSON: exactly these [offset, severity, code].
check_findings() {
	pdj -j check "$1"
	assert_status "$2"
	jq_all '[.check.findings[] | [.offset, .severity, .code]]' "$3"
}

# bats test_tags=asan
@test "codes: --list-codes lists 60 codes, each with a severity and a meaning" {
	pd check --list-codes
	assert_status 0
	assert_eq "$(wc -l <<<"$output")" 60 "codes listed"
	assert_eq "$(awk -F'\t' 'NF != 3 || ($2 != "error" && $2 != "warning") || $3 == ""' <<<"$output")" "" "malformed lines"
	assert_eq "$(cut -f1 <<<"$output" | sort | uniq -d)" "" "codes listed twice"
	assert_contains "$output" "$(printf 'record-too-small\terror\t')"
	assert_contains "$output" "$(printf 'unknown-feature\twarning\t')"
	pd check --list-codes testdata/cpu-clock.data
	assert_status 2
}

# bats test_tags=asan
@test "codes: the man page lists exactly the codes of --list-codes, with their severities" {
	local prog man
	prog=$(program_codes)
	man=$(man_codes)
	[ "$(wc -l <<<"$man")" -ge 60 ] || { echo "only $(wc -l <<<"$man") codes found in the man page"; false; }
	diff -u <(echo "$prog") <(echo "$man")
}

# The codes the fixtures raise, computed once for both directions.
@test "codes: every documented code is raised by a fixture (but the unraisable ones), and no fixture raises an undocumented code" {
	sweep
	local raised missing extra c files
	mapfile -t files < <(code_files)
	[ "${#files[@]}" -ge 80 ] || { echo "only ${#files[@]} files"; false; }
	raised=$(raised_codes "${files[@]}")
	[ -n "$raised" ]
	missing=$(man_codes | cut -d' ' -f1 | LC_ALL=C comm -23 - <(echo "$raised"))
	assert_eq "$(echo $missing)" "$UNRAISED" "documented codes no fixture raises"
	for c in $UNRAISED; do
		man_codes | grep -q "^$c " || { echo "$c is not documented"; false; }
	done
	extra=$(LC_ALL=C comm -23 <(echo "$raised") <(man_codes | cut -d' ' -f1))
	assert_eq "$extra" "" "undocumented codes"
}

@test "codes corpus: no corpus file raises an undocumented code" {
	sweep
	need_corpus
	local raised extra
	local files
	mapfile -t files < <(find "$CORPUS" -type f ! -name '*.md' ! -name '*.json' ! -name '*.txt' ! -name '*.jsonl')
	[ "${#files[@]}" -ge 40 ] || { echo "only ${#files[@]} corpus files"; false; }
	raised=$(raised_codes "${files[@]}")
	[ -n "$raised" ]
	extra=$(LC_ALL=C comm -23 <(echo "$raised") <(man_codes | cut -d' ' -f1))
	assert_eq "$extra" "" "undocumented codes"
}

# ------------------------------------------- the files made for the codes

@test "codes code-header.data: header and attr fields" {
	check_findings testdata/synthetic/code-header.data 1 \
		'[[56,"warning","event-types-size"],[140,"warning","attr-size-mismatch"],[432,"error","ids-size-mismatch"],[72,"warning","reserved-feature-bit"],[120,"warning","duplicate-id"],[128,"warning","unreferenced-bytes"]]'
	jq_eq '[.check.findings[] | .structure]' '["header","attrs[0]","attrs[1]","header","attrs","file"]'
}

@test "codes code-attr-size.data: attr_size 0" {
	check_findings testdata/synthetic/code-attr-size.data 1 \
		'[[16,"error","bad-attr-size"],[328,"error","no-attrs"]]'
}

@test "codes code-attrs-size.data: attrs.size not a multiple of attr_size" {
	check_findings testdata/synthetic/code-attrs-size.data 1 \
		'[[32,"error","attrs-size-mismatch"],[120,"warning","unreferenced-bytes"],[432,"warning","unreferenced-bytes"]]'
}

@test "codes code-no-attrs.data: no attr, a warning; its sample, an error" {
	check_findings testdata/synthetic/code-no-attrs.data 1 \
		'[[24,"warning","no-attrs"],[328,"error","no-attrs"],[104,"warning","unreferenced-bytes"]]'
}

@test "codes code-killed.data: data.size 0, nothing after data.offset" {
	check_findings testdata/synthetic/code-killed.data 1 '[[48,"error","data-size-zero"]]'
	jq_eq '.check.findings[0].values' '{"data_offset":"0x110","records":0}'
}

@test "codes code-features.data: left-over bytes, version 2, online > avail, padding" {
	check_findings testdata/synthetic/code-features.data 1 \
		'[[516,"warning","unusual"],[508,"warning","feature-trailing-bytes"],[524,"error","feature-undecodable"],[528,"warning","feature-trailing-bytes"],[532,"warning","trailing-padding"]]'
	jq_eq '[.check.findings[] | .structure]' '["feature NRCPUS","feature HOSTNAME","feature CACHE","feature CACHE","file"]'
}

@test "codes code-records.data: short, trailing bytes, undecodable, unknown bits" {
	check_findings testdata/synthetic/code-records.data 1 \
		'[[516,"error","record-short"],[560,"warning","record-trailing-bytes"],[578,"error","record-undecodable"],[640,"warning","unknown-bits"]]'
	jq_eq '[.check.findings[] | .structure]' '["record TEXT_POKE","record FINISHED_ROUND","record CPU_MAP","record SAMPLE"]'
}

@test "codes code-pipe.data: feat_id 300, a feature twice, tracing data too large" {
	check_findings testdata/synthetic/code-pipe.data 1 \
		'[[344,"error","feature-id-invalid"],[444,"warning","duplicate-feature"],[544,"error","section-too-large"],[544,"error","record-past-end"]]'
	jq_eq '[.check.findings[] | .structure]' '["record HEADER_FEATURE","record HEADER_FEATURE","record HEADER_TRACING_DATA","record"]'
}

@test "codes code-bad-magic.data: not a perf.data file" {
	check_findings testdata/synthetic/code-bad-magic.data 1 '[[0,"error","bad-magic"]]'
}

@test "codes: a directory whose data file is a pipe stream is malformed" {
	local d
	d=$(dir_with_pipe_data)
	pdj -j check "$d"
	assert_status 1
	jq_eq '.check.findings[0] | [.offset, .severity, .structure, .code]' '[8,"error","header","malformed"]'
}
