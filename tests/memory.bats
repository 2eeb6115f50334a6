#!/usr/bin/env bats
# Memory stays bounded whatever the file claims: what the session keeps is
# capped (128 MiB), so feature sections that all point at one big region
# cannot multiply it, and hex dumps of big sections are streamed.

load helpers
# bats file_tags=asan

# big_overlap OUT: a file whose 30 feature sections (bits 2..31) all claim
# the same 60 MiB region (sparse: it takes no disk space).
big_overlap() {
	python3 - "$1" <<'PY'
import struct, sys
bits = range(2, 32)
fb = sum(1 << b for b in bits)
blob_off, blob = 112 + 16 * len(bits), 60 << 20
with open(sys.argv[1], 'wb') as f:
    f.write(b'PERFILE2' + struct.pack('<8Q', 104, 136, 104, 0, 104, 8, 0, 0))
    f.write(struct.pack('<4Q', fb, 0, 0, 0))
    f.write(struct.pack('<IHH', 68, 0, 8))  # FINISHED_ROUND
    for _ in bits:
        f.write(struct.pack('<QQ', blob_off, blob))
    f.truncate(blob_off + blob)
PY
}

@test "30 feature sections over one 60 MiB region: two are loaded, the rest refused, peak RSS under 256 MiB" {
	local f=$BATS_TEST_TMPDIR/overlap.data t=$BATS_TEST_TMPDIR rss st
	big_overlap "$f"
	# About 500 MB of JSON (hex dumps of the two sections loaded): streamed
	# into jq, which validates all of it, rather than kept in $output.
	/usr/bin/time -f '%M' -o "$t/rss" "$PERFDUMP" -j -x features "$f" 2>"$t/err" |
		jq -c '(.perfdump_json_version == 1 and (.errors | type == "array")),
			(.features | length),
			([.errors[] | select(.detail == "section of 62914560 bytes not decoded: the sections loaded so far already hold 120 MiB of the 128 MiB perfdump keeps")] |
			length, .[0].offset, .[0].what, .[-1].what)' >"$t/out"
	st=${PIPESTATUS[0]}
	[ "$st" -eq 1 ] || { echo "exit status $st"; cat "$t/err"; false; }
	diff -u - "$t/out" <<'EOF2'
true
30
28
592
"PMU_MAPPINGS"
"PMU_CAPS"
EOF2
	rss=$(tail -1 "$t/rss")
	[ "$rss" -lt $((256 * 1024)) ] || { echo "peak RSS $rss KiB"; false; }
}

@test "pipe mode: HEADER_TRACING_DATA declaring 100 MiB is refused before it is read" {
	local f=$BATS_TEST_TMPDIR/pipe-tracing.data rss
	# pipe header; record 66 (size 16) with u32 size 100 MiB; the payload
	# really there (sparse zeros), then a FINISHED_ROUND
	python3 -c '
import struct, sys
with open(sys.argv[1], "wb") as f:
    f.write(b"PERFILE2" + struct.pack("<Q", 16) + struct.pack("<IHHII", 66, 0, 16, 100 << 20, 0))
    f.seek(32 + (100 << 20))
    f.write(struct.pack("<IHH", 68, 0, 8))
' "$f"
	run --separate-stderr /usr/bin/time -f '%M' -o "$BATS_TEST_TMPDIR/rss" "$PERFDUMP" -j features "$f"
	assert_status 1
	check_json
	jq_all '.errors' '[{"offset":32,"what":"PERF_RECORD_HEADER_TRACING_DATA","detail":"tracing data of 104857600 bytes is larger than the 64 MiB perfdump loads; not decoded"}]' \
		'.warnings' '[]'
	rss=$(tail -1 "$BATS_TEST_TMPDIR/rss")
	[ "$rss" -lt $((64 * 1024)) ] || { echo "peak RSS $rss KiB"; false; }
}

# ---------------------------------------------- big hostile inputs
# Made at test time by scripts/gen-hostile-big.py (megabytes: never
# committed).  Each command must stay under 64 MiB of peak RSS.

# hostile NAME [COUNT]: the file (or directory) for NAME, made once per
# bats file.
hostile() {
	local f=$BATS_FILE_TMPDIR/$1${2:+-$2}
	[ -e "$f" ] || python3 scripts/gen-hostile-big.py "$f" "$1" ${2:+"$2"} >&2
	echo "$f"
}

# rss_run OUT ARGS...: perfdump ARGS with stdout to OUT, stderr to OUT.err;
# $status is its exit status and $rss its peak RSS in KiB.
rss_run() {
	local out=$1
	shift
	status=0
	RSS_OUT=$out
	/usr/bin/time -f '%M' -o "$out.rss" "$PERFDUMP" "$@" >"$out" 2>"$out.err" || status=$?
	rss=$(tail -1 "$out.rss")
}

# Under AddressSanitizer the RSS is mostly its shadow and quarantine:
# only the normal build's is measured (the outputs are checked in both).
SANITIZED=$(sanitized && echo 1 || echo 0)

# under_64: the last rss_run stayed under 64 MiB (and did not crash).
under_64() {
	[ "$status" -lt 128 ] || { echo "killed: status $status: $*"; cat "$RSS_OUT.err"; false; }
	! grep -q -E 'Sanitizer|runtime error:' "$RSS_OUT.err" || { cat "$RSS_OUT.err"; false; }
	[ "$SANITIZED" -gt 0 ] || [ "$rss" -lt $((64 * 1024)) ] || { echo "peak RSS $rss KiB: $*"; false; }
}

# The queue's bound (order.c) counts its 256 KiB blocks of records and its
# heap of runs: 2047 16-byte records (128 bytes queued) fill a block, so the
# 64th block, at the 128962nd rising record, passes 16 MiB; records whose
# times fall are a run each (24 bytes in a heap of 131072 slots), so the
# 52nd block, at the 104398th, does.
QUEUE_FULL='"records wait for a FINISHED_ROUND and take the 16 MiB the time-order queue may hold: the older half goes out now, and records after it may come out of time order"'

# bats test_tags=normal
@test "time order: 600,000 16-byte records and no FINISHED_ROUND; the queue's own memory counts (order-queue-full)" {
	local f o=$BATS_TEST_TMPDIR/out
	f=$(hostile order-tiny 600000)
	rss_run "$o" records --order time "$f"
	assert_status 0
	under_64 records --order time
	# every sample, in time order (times rise: the early halves too)
	assert_eq "$(grep -c 'PERF_RECORD_SAMPLE' "$o")" 600000 samples
	assert_eq "$(sed -n 's/.* time=\([0-9]*\) .*/\1/p' "$o" | sort -n -c && echo sorted)" sorted
	assert_contains "$(tail -2 "$o")" "warning: 0x1f7d08: time order: 128962 records wait for a FINISHED_ROUND"
	rss_run "$o" -j buildids --hits --no-resolve "$f"
	assert_status 0
	under_64 buildids --hits
	output=$(cat "$o")
	check_json
	jq_all '.summary.hits | [.samples, .unmapped]' '[600000,600000]' \
		'[.warnings[] | [.offset, .what, (.detail | sub("^[0-9]+ "; ""))]]' "[[2063624,\"time order\",$QUEUE_FULL]]" \
		'.warnings[0].detail | split(" ")[0]' '"128962"'
}

# bats test_tags=normal
@test "time order: 600,000 records whose times fall, no FINISHED_ROUND: bounded, every record out once" {
	local f o=$BATS_TEST_TMPDIR/out
	f=$(hostile order-reversed 600000)
	rss_run "$o" -j buildids --hits --no-resolve "$f"
	assert_status 0
	under_64 buildids --hits
	output=$(cat "$o")
	check_json
	jq_all '.summary.hits.samples' 600000 \
		'[.warnings[] | [.offset, .what, .detail]]' "[[1670600,\"time order\",\"104398 ${QUEUE_FULL#\"}]]"
	rss_run "$o" records --order time "$f"
	assert_status 0
	under_64 records --order time
	assert_eq "$(grep -c 'PERF_RECORD_SAMPLE' "$o")" 600000 samples
	# the first half flushed holds the oldest of the first 104398 queued
	assert_eq "$(grep -m1 -o 'time=[0-9]*' "$o")" "time=496603"
}

# bats test_tags=normal
@test "directory of 1,000 data.N: time order merges 4,000 samples with little memory" {
	local d o=$BATS_TEST_TMPDIR/out
	d=$(hostile dir-many 1000)
	rss_run "$o" -j records --order time "$d"
	assert_status 0
	under_64 records --order time
	output=$(cat "$o")
	check_json
	jq_all '[.records[] | select(.type == 9) | .time] | [length, . == sort, .[0], .[-1]]' '[4000,true,1,4000]' \
		'[.records[] | select(.type == 9) | .stream] | [.[0], .[1], .[999], .[1000]]' '["data.0","data.1","data.999","data.0"]' \
		'.errors' '[]' '.warnings' '[]'
	rss_run "$o" -j buildids --hits --no-resolve "$d"
	assert_status 0
	under_64 buildids --hits
	output=$(cat "$o")
	jq_all '.summary.hits.samples' 4000 '.errors' '[]'
}

@test "directory of 300 data.N under ulimit -n 64: one data.N open at a time, no sample lost" {
	local d o=$BATS_TEST_TMPDIR/out
	d=$(hostile dir-many 300)
	(
		ulimit -n 64
		"$PERFDUMP" -j stats "$d" >"$o.stats" 2>/dev/null
		"$PERFDUMP" -j records --order time "$d" >"$o.time" 2>/dev/null
		"$PERFDUMP" -j check "$d" >"$o.check" 2>/dev/null
		true
	)
	output=$(cat "$o.stats")
	check_json
	jq_all '.stats.samples.total' 1200 '.errors' '[]'
	output=$(cat "$o.time")
	check_json
	jq_all '[.records[] | select(.type == 9) | .time] | [length, . == sort]' '[1200,true]' '.errors' '[]'
	output=$(cat "$o.check")
	check_json
	jq_all '[.check.findings[].code]' '[]'
}

# bats test_tags=normal
@test "zstd frame declaring a 128 MiB window: refused at its container (zstd-window-too-large), no allocation" {
	local f o=$BATS_TEST_TMPDIR/out c
	f=$(hostile zstd-window)
	for c in stats check records "records --order time" "buildids --hits"; do
		# shellcheck disable=SC2086
		rss_run "$o" -j $c "$f"
		assert_status 1
		under_64 "$c"
	done
	rss_run "$o" -j check "$f"
	output=$(cat "$o")
	check_json
	jq_all '[.check.findings[] | [.offset, .severity, .code]]' '[[248,"error","zstd-window-too-large"]]'
	rss_run "$o" -j stats "$f"
	output=$(cat "$o")
	check_json
	jq_all '.errors' '[{"offset":248,"what":"data section","detail":"PERF_RECORD_COMPRESSED: the zstd frame needs a window of 134217728 bytes larger than the 8 MiB perfdump keeps; the rest of this stream is not decompressed"}]'
	assert_contains "$(cat "$o.err")" "perfdump: $f: 0xf8: data section: PERF_RECORD_COMPRESSED: the zstd frame needs a window of 134217728 bytes"
}

# bats test_tags=normal
@test "zstd frame with an 8 MiB window (the most kept): decoded, under 64 MiB" {
	local f o=$BATS_TEST_TMPDIR/out
	f=$(hostile zstd-window 23)
	rss_run "$o" -j stats "$f"
	assert_status 1
	under_64 stats
	output=$(cat "$o")
	check_json
	# 9 containers of 127 RLE blocks of 128 KiB: records of 2056 bytes
	jq_all '.stats.compression.decompressed_bytes' 149815296 \
		'[.errors[].detail]' '["the compressed stream ends inside a record (744 bytes left over)"]'
}

# bats test_tags=normal
@test "200,000 distinct MMAP2 build-ids: 16384 listed, the rest counted (not_kept, table-full)" {
	local f o=$BATS_TEST_TMPDIR/out
	f=$(hostile many-buildids 200000)
	rss_run "$o" -j buildids --no-resolve "$f"
	assert_status 0
	under_64 buildids
	output=$(cat "$o")
	check_json
	jq_all '.summary | [.entries, .listed, .not_kept, .sources.mmap2]' '[16384,16384,183616,16384]' \
		'.warnings' '[{"offset":1704184,"what":"build-id list","detail":"more than 16384 distinct build-ids (or out of memory): the rest are left out and counted (not_kept)"}]'
	rss_run "$o" buildids --no-resolve "$f"
	assert_contains "$(tail -5 "$o")" "not_kept:                 183616"
	rss_run "$o" buildids --hits --no-resolve "$f"
	under_64 buildids --hits
}

# bats test_tags=normal
@test "200,000 processes with a map and a sample each: buildids --hits keeps 65536 (hits.not_kept)" {
	local f o=$BATS_TEST_TMPDIR/out
	f=$(hostile many-pids 200000)
	rss_run "$o" -j buildids --hits --no-resolve "$f"
	assert_status 0
	under_64 buildids --hits
	output=$(cat "$o")
	check_json
	jq_all '.summary | [.entries, .not_kept]' '[16384,49152]' \
		'.summary.hits' '{"samples":200000,"mapped":65536,"ksymbol":0,"unmapped":134464,"maps":65536,"not_kept":134464,"capped":true}' \
		'[.warnings[] | [.offset, .what]]' '[[6379080,"time order"],[8913064,"--hits"],[0,"build-id list"]]' \
		'.warnings[1].detail' '"more than 524288 maps, 65536 processes or 65536 DSOs: later MMAP, MMAP2, KSYMBOL and FORK records are left out and counted (not_kept); sample counts may be short"'
	rss_run "$o" stats "$f"
	under_64 stats
}

# bats test_tags=normal
@test "300,000 threads: stats keeps 262144 and counts the rest (threads_not_kept, table-full)" {
	local f o=$BATS_TEST_TMPDIR/out
	f=$(hostile many-pids 300000)
	rss_run "$o" -j stats "$f"
	assert_status 0
	under_64 stats
	output=$(cat "$o")
	check_json
	jq_all '.stats.samples | [.total, .threads, .threads_not_kept]' '[300000,262144,37856]' \
		'.warnings' '[{"offset":null,"what":"thread table","detail":"more than 262144 threads: 37856 samples of the threads beyond them are counted in the totals, not per thread (threads_not_kept)"}]'
	rss_run "$o" -j records --order time "$f"
	under_64 records --order time
}

# bats test_tags=normal
@test "200,000 attrs: 16384 are kept, the rest said (table-full); records of theirs belong to no attr" {
	local f o=$BATS_TEST_TMPDIR/out
	f=$(hostile attrs-many)
	rss_run "$o" -j records "$f"
	assert_status 1
	under_64 records
	output=$(cat "$o")
	check_json
	jq_all '[.records[] | [.event, .unknown_id]]' '[["cpu-clock:HG",null],[null,"0x30d40"]]' \
		'.warnings' '[{"offset":1310824,"what":"attrs section","detail":"200000 attrs: the first 16384 are kept, the others are not read (records of theirs belong to no attr)"}]'
	rss_run "$o" -j stats "$f"
	under_64 stats
	rss_run "$o" -j attrs "$f"
	under_64 attrs
	output=$(cat "$o")
	jq_all '.attrs | length' 16384 '.attrs[-1].ids' '["0x4000"]'
}

# bats test_tags=normal
@test "4,000 attrs whose ids all claim the same 512 KiB: 1048576 ids kept, the rest said (table-full), 16 duplicates named" {
	local f o=$BATS_TEST_TMPDIR/out
	f=$(hostile ids-overlap)
	rss_run "$o" -j stats "$f"
	under_64 stats
	output=$(cat "$o")
	check_json
	jq_all '[.warnings[] | select(.what == "attr 16")]' '[{"offset":576104,"what":"attr 16","detail":"the attrs'"'"' ids pass the 1048576 perfdump keeps: 65536 of these and the ids of the attrs after are not kept (records with them belong to no attr)"}]' \
		'[.warnings[] | select(.what == "attr ids")] | length' 17 \
		'[.warnings[] | select(.what == "attr ids")][-1].detail' '"983024 more ids belong to two attrs or more; records with one are taken as the first attr'"'"'s"'
	rss_run "$o" -j attrs "$f"
	under_64 attrs
	output=$(cat "$o")
	jq_all '[.attrs[] | .ids | length] | add' 1048576
	rss_run "$o" check "$f"
	under_64 check
}
