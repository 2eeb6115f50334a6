#!/usr/bin/env bats
# perfdump copy's conversions: pipe mode on standard output (-o -), a
# perf record --threads directory written as one file, and --compress
# (COMPRESSED records, as perf record -z writes them).  perf is the
# oracle, reading from a pipe (perf script -i -) where the copy is one.

load helpers
load copy
# bats file_tags=asan

setup() {
	command -v perf >/dev/null || skip "perf is not installed"
	OUT=$BATS_TEST_TMPDIR/out.data
}

# pipe_script ARGS...: perfdump copy $ZARGS ARGS -o - | perf script -i -;
# $output (perf's stdout), $stderr (perf's), $status (perf's)
pipe_script() {
	local errf=$BATS_TEST_TMPDIR/.perf-stderr
	# shellcheck disable=SC2086
	output=$("$PERFDUMP" copy $ZARGS "$@" -o - |
		PERF_BUILDID_DIR=$BATS_TEST_TMPDIR/bid perf script -i - 2>"$errf") &&
		status=0 || status=$?
	stderr=$(cat "$errf")
}

# same_pipe_script IN [ARGS...]: perf script on the copy of IN in pipe
# mode prints what perf script prints on IN (ARGS, the filters, given to
# both; $ZARGS to the copy only)
same_pipe_script() {
	local in=$1 want
	shift
	perf_run script -i "$in" "$@"
	want=$output
	[ -n "$want" ] || {
		echo "perf script $* printed nothing on $in"
		return 1
	}
	pipe_script "$@" "$in"
	assert_status 0
	assert_eq "$stderr" ""
	assert_eq "$output" "$want"
}

# zfeature FILE: HEADER_COMPRESSED's fields, as perfdump reads them
zfeature() {
	"$PERFDUMP" features -j "$1" 2>/dev/null |
		jq -c '.features[] | select(.name == "COMPRESSED") | [.version, .type, .level, .mmap_len, .ratio > 0]'
}

@test "copy -o -: pipe mode that perf script -i - reads as it reads the input, file and pipe fixtures" {
	local f
	for f in cpu-clock callgraph tracepoint zstd pipe tp-pipe group-s-pipe syswide; do
		same_pipe_script testdata/$f.data
	done
}

@test "copy --pid P -o -: perf script -i - prints what perf script --pid P prints on the input" {
	local a
	for a in "--pid 32000" "--pid 25609" "--cpu 1" "--time 4021.2,4021.25"; do
		# shellcheck disable=SC2086
		same_pipe_script testdata/syswide.data $a
	done
}

@test "copy -o -: perf report -i - --stats counts the records of the input" {
	local f p=$BATS_TEST_TMPDIR/p.data
	for f in cpu-clock syswide zstd pipe; do
		"$PERFDUMP" copy testdata/$f.data -o - >"$p"
		# from a pipe, not a file
		perf_run report --stats -i - < <(cat "$p")
		assert_status 0
		assert_contains "$output" "Aggregated stats"
		assert_eq "$(stat_lines - < <(cat "$p"))" "$(stat_lines testdata/$f.data)"
	done
}

@test "copy -o -: the stream is pipe mode; perfdump reads the input's records in it, and its attrs, features, tracing data" {
	local f p=$BATS_TEST_TMPDIR/p.data
	for f in cpu-clock zstd pipe tracepoint tp-pipe; do
		"$PERFDUMP" copy testdata/$f.data -o - >"$p"
		assert_eq "$(head -c 8 "$p")" "PERFILE2"
		pd check -b "$p"
		assert_eq "$output" "$p: sound"
		pdj -j stats "$p"
		jq_all '.stats.mode' '"pipe"'
		assert_eq "$(records_view "$p")" "$(records_view testdata/$f.data)"
		pdj -j attrs "$p"
		local got=$output
		pdj -j attrs testdata/$f.data
		assert_eq "$(jq -c '[.attrs[] | del(.attr_offset, .entry_offset, .ids_offset)]' <<<"$got")" \
			"$(jq -c '[.attrs[] | del(.attr_offset, .entry_offset, .ids_offset)]' <<<"$output")"
	done
	# the tracepoint formats came along: perf script names the fields
	pipe_script testdata/tracepoint.data
	assert_contains "$output" "sched:sched_switch"
}

@test "copy -o -: a big-endian recording stays big-endian, and perf 6.1 reads the pipe" {
	local p=$BATS_TEST_TMPDIR/p.data
	"$PERFDUMP" copy testdata/synthetic/pipe-be.data -o - >"$p"
	# "PERFILE2" written big-endian
	assert_eq "$(head -c 8 "$p")" "2ELIFREP"
	same_pipe_script testdata/synthetic/pipe-be.data
}

@test "copy -o -: refused when standard output is a terminal; no document beside the copy" {
	command -v script >/dev/null || skip "script (util-linux) is not installed"
	run script -qec "'$PERFDUMP' copy testdata/cpu-clock.data -o -" /dev/null
	assert_status 2
	assert_contains "$output" "the output is binary and standard output is a terminal"
	# standard output is the copy, all of it
	"$PERFDUMP" copy testdata/cpu-clock.data -o - >"$OUT"
	assert_eq "$(head -c 8 "$OUT")" "PERFILE2"
	pd check -b "$OUT"
	assert_eq "$output" "$OUT: sound"
}

@test "copy: a --threads directory becomes one file in time order; perf script reads it as the directory" {
	local d
	for d in threads comm-order; do
		rm -f "$OUT"
		copy_ok testdata/$d.data
		# perf 6.1 reads a directory's files in time order too: the
		# same lines in the same order
		same_script testdata/$d.data "$OUT"
		assert_eq "$(stat_lines "$OUT")" "$(stat_lines testdata/$d.data)"
		pdj -j features "$OUT"
		jq_all '[.features[].name] | index("DIR_FORMAT")' 'null'
		pdj -j stats "$OUT"
		jq_all '.stats.mode' '"file"'
	done
	# every record of data and data.N, the samples in time order
	pdj -j copy testdata/threads.data -o "$OUT" --force
	jq_all '.copy | [.records_read, .records_written, .samples_written]' '[564,564,536]'
	local times
	times=$("$PERFDUMP" records -j --type SAMPLE "$OUT" | jq -c '[.records[].time]')
	assert_eq "$(jq -c 'sort' <<<"$times")" "$times"
}

@test "copy: a --threads directory with --pid, and to a pipe" {
	copy_ok --pid 25826 testdata/comm-order.data
	same_script testdata/comm-order.data "$OUT" --pid 25826
	same_pipe_script testdata/threads.data
}

@test "copy --compress: COMPRESSED records perf script reads as the input; perfdump reads the same records" {
	local f
	for f in cpu-clock callgraph tracepoint zstd pipe syswide threads; do
		rm -f "$OUT"
		copy_ok --compress testdata/$f.data
		same_script testdata/$f.data "$OUT"
		# a directory's records are merged in time order
		[ $f = threads ] ||
			assert_eq "$(records_view "$OUT")" "$(records_view testdata/$f.data)"
		assert_eq "$(zfeature "$OUT")" "[0,1,1,528384,true]"
		pdj -j stats "$OUT"
		jq_all '.stats.records.types[] | select(.name == "COMPRESSED") | .count > 0' 'true'
	done
	# -z's own COMPRESSED feature is not noted as left out: it is written anew
	pdj -j copy --compress=19 --force testdata/zstd.data -o "$OUT"
	jq_all '.copy.notes' '[]'
	assert_eq "$(zfeature "$OUT")" "[0,1,19,528384,true]"
	same_script testdata/zstd.data "$OUT"
}

@test "copy --compress -o -: a compressed pipe perf script -i - reads" {
	local f
	for f in callgraph tp-pipe syswide; do
		ZARGS=--compress=3 same_pipe_script testdata/$f.data
	done
}

@test "copy --compress: records that do not compress (random user stacks) still go one batch per record perf reads" {
	command -v cc >/dev/null || skip "no C compiler"
	local d=$BATS_TEST_TMPDIR in
	in=$d/rnd.data
	cat >"$d/rnd.c" <<-'EOF'
		#include <stdlib.h>
		int main(void)
		{
			volatile unsigned char b[40000];
			for (long k = 0; k < 300; k++)
				for (int i = 0; i < 40000; i++)
					b[i] = (unsigned char)rand();
			return b[5] & 0;
		}
	EOF
	cc -O1 -o "$d/rnd" "$d/rnd.c"
	perf record -q -e cpu-clock -c 2000000 --call-graph dwarf,32768 -o "$in" "$d/rnd" 2>/dev/null ||
		skip "perf record failed"
	copy_ok --compress "$in"
	same_script "$in" "$OUT"
	# each COMPRESSED record holds whole zstd blocks: perf 6.1 stops at
	# one that decompresses to nothing
	pdj -j stats "$OUT"
	jq_all '.stats.records.types[] | select(.name == "COMPRESSED") | .count > 20' 'true'
	ZARGS=--compress same_pipe_script "$in"
}

@test "copy --compress: refused for a byte-swapped recording, which perf does not decompress" {
	pd copy --compress testdata/synthetic/pipe-be.data -o "$OUT"
	assert_status 3
	assert_contains "$stderr" "--compress: a byte-swapped recording's compressed records are not read by perf"
	[ ! -e "$OUT" ]
}

@test "copy --compress=LEVEL: a level from 1 to 22" {
	local l
	for l in 0 23 x ''; do
		pd copy --compress="$l" testdata/cpu-clock.data -o "$OUT"
		assert_status 2
		assert_contains "$stderr" "a zstd level from 1 to 22"
		[ ! -e "$OUT" ]
	done
	copy_ok --compress=22 testdata/callgraph.data
	same_script testdata/callgraph.data "$OUT"
}
