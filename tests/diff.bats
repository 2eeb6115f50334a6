#!/usr/bin/env bats
# perfdump diff (issue 28): what differs between two recordings, structure
# by structure.  The pairs of one recording in two forms and of one
# command at two frequencies are made by scripts/record-diff-fixtures.sh
# (testdata/diff/), as is perf diff's view of two programs
# (perf-ref/diff.cpu-clock.profile.txt).

load helpers
# bats file_tags=asan

D=testdata/diff

# paths: the differences' paths of -j output, one per line
paths() {
	jq -r '.diff.differences[] | .path? // .' <<<"$output"
}

# paths_in GROUP: those of one structure
paths_in() {
	jq -r --arg g "$1" '.diff.differences[] | select(.group == $g) | .path' <<<"$output"
}

@test "diff: a recording against itself is the same, exit 0" {
	for f in testdata/cpu-clock.data testdata/pipe.data testdata/zstd.data \
		testdata/threads.data testdata/group.data testdata/tracepoint.data; do
		pdj diff -j "$f" "$f"
		assert_status 0
		jq_all '.diff.same' 'true' '.diff.differences | length' '0' \
			'.diff.verdict' '"same"' '.diff.compared' '["header","features","attrs","stats"]'
	done
	pd diff testdata/cpu-clock.data testdata/cpu-clock.data
	assert_status 0
	assert_eq "$output" "File: testdata/cpu-clock.data
against:                    testdata/cpu-clock.data
verdict:                    same"
}

# bats test_tags=normal
@test "diff: every corpus file against itself: exit 0, nothing differs" {
	need_corpus
	sweep
	local f n=0
	while read -r f; do
		pd diff -j "$CORPUS/$f" "$CORPUS/$f"
		assert_no_signal
		n=$((n + 1))
		check_json '.diff.differences == []'
		# a damaged file is damaged on both sides: 1, and said so; one
		# that is not a recording (invalid_perf.data) is not compared
		if jq -e '.diff.verdict | startswith("not compared")' <<<"$output" >/dev/null; then
			assert_status 1
		elif jq -e '.diff.a.errors > 0' <<<"$output" >/dev/null; then
			assert_status 1
			assert_contains "$(jq -r .diff.verdict <<<"$output")" "same; A damaged"
		else
			assert_status 0
		fi
	done < <(cd "$CORPUS" && find . -type f ! -name '*.md' | sed 's|^\./||' | sort)
	[ "$n" -ge 50 ]
}

@test "diff: a file and its pipe form differ in the mode and what perf inject rewrote" {
	# perf inject -o - writes the records and attrs as they are; it
	# writes CMDLINE and NUMA_TOPOLOGY of its own run, and pipe mode
	# carries no BUILD_ID feature (-b would add records) nor CACHE
	pdj diff -j testdata/cpu-clock.data $D/cpu-clock-pipe.data
	assert_status 1
	jq_all '[.diff.differences[] | select(.group == "header")]' \
		'[{"path":"header.mode","group":"header","a":"file","b":"pipe"}]' \
		'[.diff.differences[] | select(.group == "attrs" or .group == "stats")]' '[]' \
		'[.diff.differences[] | select(.group == "features") | .path |
		  select(test("^features\\.(cmdline|numa_topology)\\.") | not)]' \
		'["features.build_id","features.cache"]'
	# the same with -z: the compressed records kept in pipe mode
	pdj diff -j testdata/zstd.data $D/zstd-pipe.data
	assert_status 1
	jq_all '[.diff.differences[] | select(.group != "features") | .path]' '["header.mode"]' \
		'[.diff.differences[] | select(.group == "features") | .path |
		  select(test("^features\\.(cmdline|numa_topology)\\.") | not)]' \
		'["features.cache"]'
}

@test "diff: a pipe stream on standard input compares as its file" {
	pdj diff -j testdata/cpu-clock.data - < <(cat $D/cpu-clock-pipe.data)
	assert_status 1
	local want=$output
	pdj diff -j testdata/cpu-clock.data $D/cpu-clock-pipe.data
	assert_eq "$(jq -c .diff.differences <<<"$output")" "$(jq -c .diff.differences <<<"$want")"
	# a stream is walked one time: stats and profile of it are refused
	pd diff --profile testdata/cpu-clock.data - < <(cat $D/cpu-clock-pipe.data)
	assert_status 2
	assert_contains "$stderr" "read as it arrives"
	pd diff - - </dev/null
	assert_status 2
}

@test "diff: a --threads directory and the one file perf inject makes of it" {
	pdj diff -j testdata/threads.data $D/threads-one.data
	assert_status 1
	jq_all '[.diff.differences[] | select(.group != "features")]' \
		'[{"path":"header.mode","group":"header","a":"directory","b":"file"},{"path":"header.data_files","group":"header","a":2,"b":0,"change":-100}]'
	# and the same file compressed with zstd is the same recording
	zstd -q -o "$BATS_TEST_TMPDIR/c.data.zst" testdata/cpu-clock.data
	pd diff testdata/cpu-clock.data "$BATS_TEST_TMPDIR/c.data.zst"
	assert_status 0
}

@test "diff: -F 999 against -F 4999: sample_freq, the samples and the cmdline differ" {
	pdj diff -j $D/f999.data $D/f4999.data
	assert_status 1
	# attrs: the frequency alone (sampling is its text)
	jq_all '[.diff.differences[] | select(.group == "attrs") | [.path, .a, .b]]' \
		'[["attrs[cpu-clock].sample_freq",999,4999],["attrs[cpu-clock].sampling","999 samples per second (freq)","4999 samples per second (freq)"]]' \
		'[.diff.differences[] | select(.path == "features.cmdline.argv[4]") | [.a, .b]]' '[["999","4999"]]' \
		'.diff.differences[] | select(.path == "stats.samples[cpu-clock]") | [.a, .b]' \
		"[$(./perfdump stats -j $D/f999.data | jq .stats.samples.total),$(./perfdump stats -j $D/f4999.data | jq .stats.samples.total)]" \
		'[.diff.differences[] | select(.group == "header")]' '[]'
	# numbers stay numbers, with the change
	jq_true '.diff.differences[] | select(.path == "attrs[cpu-clock].sample_freq") |
		(.a | type) == "number" and (.change | floor) == 400'
	# text: grouped by structure, the change of a count in percent
	pd diff $D/f999.data $D/f4999.data
	assert_status 1
	assert_contains "$output" "attrs:
    attrs[cpu-clock].sample_freq: 999 -> 4999 (+400%)"
	assert_contains "$output" '    features.cmdline.argv[4]: "999" -> "4999"'
	assert_contains "$output" "stats.samples[cpu-clock]: 95 -> 557 (+486%)"
	assert_contains "$output" "verdict:                    differ: "
	# --brief: the paths alone
	pd diff --brief --only attrs $D/f999.data $D/f4999.data
	assert_status 1
	assert_eq "$output" "File: testdata/diff/f999.data
against:                    testdata/diff/f4999.data
attrs:
    attrs[cpu-clock].sample_freq
    attrs[cpu-clock].sampling
verdict:                    differ: 2 differences (attrs 2)"
}

@test "diff: --only selects the structures, --offsets adds the offsets" {
	pdj diff -j --only header,stats $D/f999.data $D/f4999.data
	jq_all '.diff.compared' '["header","stats"]' \
		'[.diff.differences[].group] | unique' '["stats"]'
	pdj diff -j --only head $D/f999.data $D/f4999.data
	assert_status 0
	pdj diff -j --offsets --only header,features testdata/cpu-clock.data testdata/zstd.data
	jq_true '[.diff.differences[].path] | any(. == "header.data.size") and
		any(test("^features\\.[a-z_]+\\.offset$"))'
	pdj diff -j --only header,features testdata/cpu-clock.data testdata/zstd.data
	jq_true '[.diff.differences[].path] | all(test("offset") | not)'
	pd diff --only nothing a b
	assert_status 2
	pd diff testdata/cpu-clock.data
	assert_status 2
	pd diff testdata/cpu-clock.data /nonexistent
	assert_status 3
	# not a recording: not compared, 1, as the other commands say of it
	pd diff "$CORPUS/platform_system_extras/invalid_perf.data" testdata/cpu-clock.data
	assert_status 1
	assert_contains "$output" "verdict:                    not compared: A is not a perf.data recording"
}

@test "diff: corpus files of different machines: every feature difference named" {
	need_corpus
	# the oracle: features -j of both, less what diff leaves out
	local norm='def norm: walk(if type == "object" then with_entries(select(
		(.key | test("offset")) or .key == "ids" | not)) else . end) |
		del(.id, .name, .source, .size, .records, .raw, .first_sample_time,
		.first_sample_time_s, .last_sample_time, .last_sample_time_s, .tod_ns,
		.tod, .clockid_ns, .clockid_time_s);
		[.features[] | {key: ((.name // (.id | tostring)) | ascii_downcase), value: norm}] | from_entries'
	local a b want
	while read -r a b; do
		pdj features -j "$CORPUS/$a"
		local fa=$output
		pdj features -j "$CORPUS/$b"
		local fb=$output
		want=$(jq -n -r --argjson x "$(jq "$norm" <<<"$fa")" --argjson y "$(jq "$norm" <<<"$fb")" \
			'($x + $y | keys[]) as $k | select($x[$k] != $y[$k]) | "features.\($k)"' | sort)
		pdj diff -j --only features "$CORPUS/$a" "$CORPUS/$b"
		assert_no_signal
		[ -n "$want" ]
		assert_eq "$(paths | sed -E 's/^(features\.[a-z0-9_]+).*/\1/' | sort -u)" "$want" "$a $b"
	done <<'EOF2'
linux-perf-data/sleep.data perf_data_converter/perf.data.group_desc-4.14
hotspot/perf.data.true.v2 perfparser/vector_static_gcc__perf.data
perf_data_converter/perf.data.hybrid_topology autofdo/perf-kernel.data
EOF2
	# in text, a feature's value: "a" -> "b"
	pd diff --only features "$CORPUS/linux-perf-data/sleep.data" \
		"$CORPUS/perf_data_converter/perf.data.group_desc-4.14"
	assert_contains "$output" 'features.osrelease.value: "'
}

@test "diff: a torn file against its whole original: counts differ, damage said, exit 1" {
	head -c 10000 testdata/cpu-clock.data >"$BATS_TEST_TMPDIR/torn.data"
	pdj diff -j "$BATS_TEST_TMPDIR/torn.data" testdata/cpu-clock.data
	assert_status 1
	assert_contains "$stderr" "extends past the end of the file"
	jq_all '.diff.a.errors > 0' 'true' '.diff.b.errors' '0' \
		'.errors | length > 0' 'true' \
		'.diff.differences[] | select(.path == "stats.records[SAMPLE]") | .b' '391' \
		'.diff.differences[] | select(.path == "stats.records[SAMPLE]") | .a < .b' 'true'
	assert_contains "$(jq -r .diff.verdict <<<"$output")" "; A damaged ("
	pd diff --only header,attrs "$BATS_TEST_TMPDIR/torn.data" testdata/cpu-clock.data
	assert_status 1
	assert_contains "$output" "verdict:                    same; A damaged ("
}

@test "diff --profile: the deltas are perf diff's for the functions both symbolize" {
	local T=$BATS_TEST_TMPDIR
	mkdir -p "$T/empty" "$T/s/tmp/perfdump-profile"
	export PERF_BUILDID_DIR=$T/empty
	cp -r testdata/profile/debian/. "$T/s/"
	cp testdata/profile/hot "$T/s/tmp/perfdump-profile/"
	pdj diff -j --only profile --symfs "$T/s" --kallsyms testdata/profile/kallsyms \
		testdata/cpu-clock.data testdata/profile/profile.data
	assert_status 1
	# perf's rows with a delta: those in B; "DSO SYMBOL DELTA"
	local want got
	want=$(awk '!/^#/ && NF && /%/ {
			d = $1 ~ /^[+-]/ ? $1 : $2; sub(/%/, "", d)
			if ($1 !~ /^[+-]/ && $2 !~ /^[+-]/) next
			dso = $(NF - 2); sym = $NF
			if (sym ~ /^0x/) sym = "[unknown]"
			printf "%s %s %+.2f\n", dso, sym, d
		}' testdata/perf-ref/diff.cpu-clock.profile.txt | sort)
	got=$(jq -r '.diff.differences[] | select(.b > 0) |
		(.path | capture("^profile\\[cpu-clock\\]\\[(?<d>[^:]*):(?<s>.*)\\]$")) as $m |
		"\($m.d) \($m.s) \(.change)"' <<<"$output" |
		awk '{ printf "%s %s %+.2f\n", $1, $2, $3 }' | sort)
	[ "$(wc -l <<<"$want")" -ge 10 ]
	assert_eq "$got" "$want"
	# largest change first, as shares in percent
	jq_all '.diff.differences[0] | [.path, .a, (.b * 100 | round)]' \
		'["profile[cpu-clock][hot:work_a]",0,7433]' \
		'[.diff.differences[] | .change | fabs] | . == (sort | reverse)' 'true'
	pd diff --only profile --symfs "$T/s" --kallsyms testdata/profile/kallsyms \
		testdata/cpu-clock.data testdata/profile/profile.data
	assert_contains "$output" "profile[cpu-clock][[kernel.kallsyms]:_raw_spin_unlock_irqrestore]: 0.26% -> 0.37% (+0.11)"
}

@test "diff: --help, the JSON contract, -x refused" {
	pd diff --help
	assert_status 0
	assert_contains "$output" "Usage: perfdump diff [OPTIONS] A B"
	pd help diff
	assert_status 0
	pdj diff -p testdata/cpu-clock.data testdata/pipe.data
	assert_status 1
	pd diff -x testdata/cpu-clock.data testdata/pipe.data
	assert_status 2
}
