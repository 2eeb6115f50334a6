#!/usr/bin/env bats
# Memory stays bounded whatever the file claims: what the session keeps is
# capped (128 MiB), so feature sections that all point at one big region
# cannot multiply it, and hex dumps of big sections are streamed.

load helpers

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
