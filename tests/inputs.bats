#!/usr/bin/env bats
# Everyday inputs (issue 15): compressed recordings (zstd, xz, gzip, by
# their magic bytes) in file and pipe mode, on a FILE and on standard
# input.

load helpers

# The compressed copies are made once, by the command-line tools, under
# the same names as the originals in their own directories, so that every
# output (its File: line too) can be compared byte for byte:
#   $Z/plain/NAME  the fixture     $Z/zst/NAME $Z/xz/NAME $Z/gz/NAME
setup_file() {
	local z=$BATS_FILE_TMPDIR/z n
	mkdir -p "$z/plain" "$z/zst" "$z/xz" "$z/gz"
	for n in cpu-clock.data pipe.data zstd.data; do
		cp "testdata/$n" "$z/plain/$n"
		zstd -q -c "testdata/$n" >"$z/zst/$n"
		xz -c "testdata/$n" >"$z/xz/$n"
		gzip -c "testdata/$n" >"$z/gz/$n"
	done
}

setup() {
	Z=$BATS_FILE_TMPDIR/z
}

# pd_in DIR ARGS...: perfdump ARGS in DIR; $status, $output, $stderr
pd_in() {
	local d=$1
	shift
	run --separate-stderr bash -c 'cd "$1" && shift && exec "$@"' sh "$d" "$PERFDUMP" "$@"
}

# same_output KIND NAME ARGS...: perfdump ARGS NAME gives the same stdout,
# stderr and status on the KIND copy as on the fixture
same_output() {
	local kind=$1 name=$2 want_out want_err want_st
	shift 2
	pd_in "$Z/plain" "$@" "$name"
	want_out=$output want_err=$stderr want_st=$status
	pd_in "$Z/$kind" "$@" "$name"
	assert_eq "$status" "$want_st" "$kind $name $*: status"
	assert_eq "$output" "$want_out" "$kind $name $*: stdout"
	assert_eq "$stderr" "$want_err" "$kind $name $*: stderr"
}

# ------------------------------------------------------- compressed inputs

@test "compressed: zstd, xz and gzip copies give the fixtures' output, byte for byte" {
	local kind name args
	for kind in zst xz gz; do
		for name in cpu-clock.data pipe.data zstd.data; do
			for args in stats records check "-j records" "-j features"; do
				# shellcheck disable=SC2086
				same_output "$kind" "$name" $args
			done
		done
	done
}

@test "compressed: header adds one line, input_compression, with both sizes" {
	local kind name csize dsize
	for kind in zst xz gz; do
		for name in cpu-clock.data pipe.data; do
			pd_in "$Z/plain" header "$name"
			local want=$output
			pd_in "$Z/$kind" header "$name"
			assert_status 0
			csize=$(file_size "$Z/$kind/$name")
			dsize=$(file_size "$Z/plain/$name")
			format=${kind/zst/zstd}
			format=${format/gz/gzip}
			assert_eq "$(sed -n 3p <<<"$output")" \
				"  input_compression:        format=$format compressed_size=$csize decompressed_size=$dsize"
			assert_eq "$(sed 3d <<<"$output")" "$want" "the other lines"
			pd_in "$Z/$kind" -j header "$name"
			check_json ".header.input_compression == {\"format\": \"$format\", \"compressed_size\": $csize, \"decompressed_size\": $dsize}"
		done
	done
	# not compressed: no such line
	pdj -j header testdata/cpu-clock.data
	jq_true '.header | has("input_compression") | not'
}

@test "compressed: standard input, a pipe or a redirected file, pipe and file mode" {
	local kind name want
	for name in pipe.data cpu-clock.data; do
		run --separate-stderr bash -c "'$PERFDUMP' records - <'$Z/plain/$name'"
		want=$output
		for kind in zst xz gz; do
			run --separate-stderr bash -c "cat '$Z/$kind/$name' | '$PERFDUMP' records -"
			assert_status 0
			assert_eq "$output" "$want" "$kind $name through a pipe"
			run --separate-stderr bash -c "'$PERFDUMP' records - <'$Z/$kind/$name'"
			assert_status 0
			assert_eq "$output" "$want" "$kind $name redirected"
		done
	done
}

@test "compressed: concatenated gzip members and zstd frames read as one stream" {
	local d=$BATS_TEST_TMPDIR
	head -c 10000 testdata/cpu-clock.data >"$d/a"
	tail -c +10001 testdata/cpu-clock.data >"$d/b"
	mkdir "$d/gz" "$d/zst"
	cat <(gzip -c "$d/a") <(gzip -c "$d/b") >"$d/gz/cpu-clock.data"
	cat <(zstd -q -c "$d/a") <(zstd -q -c "$d/b") >"$d/zst/cpu-clock.data"
	pd_in testdata records cpu-clock.data
	local want=$output
	pd_in "$d/gz" records cpu-clock.data
	assert_status 0
	assert_eq "$output" "$want" "two gzip members"
	pd_in "$d/zst" records cpu-clock.data
	assert_status 0
	assert_eq "$output" "$want" "two zstd frames"
}

@test "compressed: a cut .xz is an error at its offsets, exit 1, what was decoded shown" {
	local f=$BATS_TEST_TMPDIR/cut.xz p=$BATS_TEST_TMPDIR/cut-pipe.xz
	head -c 2000 "$Z/xz/cpu-clock.data" >"$f"
	head -c 2000 "$Z/xz/pipe.data" >"$p"
	# file mode: spooled up to where decoding stopped
	pd records "$f"
	assert_status 1
	assert_contains "$stderr" "perfdump: $f: 0x309b: compressed input: xz stream, at compressed offset 0x7d0: the compressed stream is cut short; the decompressed recording ends here"
	assert_contains "$output" "PERF_RECORD_COMM"
	pd -j check "$f"
	assert_status 1
	jq_true '[.check.findings[] | select(.code == "input-decompress-failed") | [.offset, .structure]] == [[12443, "file"]]'
	# pipe mode: decoded as it arrives, the records before the cut shown
	pd records "$p"
	assert_status 1
	assert_contains "$stderr" "perfdump: $p: 0x38bd: compressed input: xz stream, at compressed offset 0x7d0: the compressed stream is cut short; the decompressed recording ends here"
	[ "$(grep -c PERF_RECORD <<<"$output")" -gt 100 ]
	run --separate-stderr bash -c "'$PERFDUMP' -j records - <'$p'"
	assert_status 1
	check_json '[.errors[] | select(.what == "compressed input") | .offset] == [14525]'
}

@test "compressed: corrupt bytes, trailing garbage and an oversized window are errors" {
	local d=$BATS_TEST_TMPDIR
	# a byte flipped inside the zstd data
	cp "$Z/zst/pipe.data" "$d/flip.zst"
	printf '\xff\xff\xff\xff' | dd of="$d/flip.zst" bs=1 seek=1500 conv=notrunc status=none
	pd stats "$d/flip.zst"
	assert_status 1
	assert_contains "$stderr" "compressed input: zstd stream, at compressed offset 0x"
	assert_contains "$stderr" ": corrupt data ("
	# bytes after the gzip stream that are not another member
	{ cat "$Z/gz/cpu-clock.data"; printf 'garbage'; } >"$d/trail.gz"
	pd header "$d/trail.gz"
	assert_status 1
	assert_contains "$stderr" "perfdump: $d/trail.gz: 0x5444: compressed input: gzip stream, at compressed offset 0xef9: bytes after the end of the gzip stream that are not another gzip member"
	# a 128 MiB window or dictionary: refused, memory stays bounded
	zstd -q --long=27 -c <testdata/cpu-clock.data >"$d/long.zst"
	pd header "$d/long.zst"
	assert_status 1
	assert_contains "$stderr" "a frame's window is larger than the 64 MiB perfdump allows"
	xz --lzma2=dict=128MiB -c testdata/cpu-clock.data >"$d/dict.xz"
	pd header "$d/dict.xz"
	assert_status 1
	assert_contains "$stderr" "its dictionary needs 128 MiB, more than the 80 MiB perfdump allows"
}

@test "compressed: a spool that runs out of room says where and why, exit 3" {
	# a 10 KiB file size limit (SIGXFSZ ignored, so the write fails)
	run --separate-stderr bash -c "trap '' XFSZ; ulimit -f 10; TMPDIR='$BATS_TEST_TMPDIR' '$PERFDUMP' stats '$Z/zst/cpu-clock.data'"
	assert_status 3
	assert_empty "$output" stdout
	assert_eq "$stderr" "perfdump: $Z/zst/cpu-clock.data: a zstd-compressed file-mode recording is decompressed to a temporary file (it must be read out of order), but that failed in $BATS_TEST_TMPDIR after 10240 bytes: File too large"
}
