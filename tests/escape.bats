#!/usr/bin/env bats
# Strings from the file never reach the terminal raw.  The fixture, made
# by scripts/gen-hostile-strings.py, carries terminal escapes (ESC ] ... BEL,
# ESC [ ...), C0 bytes, DEL, a lone 0x9b (8-bit CSI), C1 characters as
# UTF-8 (C2 9B, C2 85, C2 80), invalid UTF-8 and a valid "é" in every kind
# of string perfdump shows.  Text output escapes them all with one rule
# (man/perfdump.1, OUTPUT): \\, \n, \t, other C0, DEL and the C1 bytes as
# \xNN, invalid bytes as \xNN; "é" passes unchanged.  JSON escapes them as
# \u00XX and replaces invalid UTF-8 with U+FFFD.

load helpers
# bats file_tags=asan

setup_file() {
	python3 scripts/gen-hostile-strings.py "$BATS_FILE_TMPDIR/hostile.data"
	python3 scripts/gen-hostile-strings.py --pipe "$BATS_FILE_TMPDIR/hostile-pipe.data"
}

setup() {
	H=$BATS_FILE_TMPDIR/hostile.data
	P=$BATS_FILE_TMPDIR/hostile-pipe.data
}

# clean FILE WHAT: FILE holds no raw C0 byte but newline and tab, no DEL,
# no byte 0x80..0x9f (alone, or as the second byte of a UTF-8 C1
# character: the only non-ASCII the fixture's output may hold is "é", C3
# A9), and is valid UTF-8 (no 0xff, 0xfe, lone 0x9b ...).
clean() {
	local bad
	if bad=$(LC_ALL=C grep -naP '[\x00-\x08\x0b-\x1f\x7f]' "$1"); then
		echo "$2: raw C0/DEL bytes:"
		printf '%s\n' "$bad" | cat -v | head -5
		return 1
	fi
	if bad=$(LC_ALL=C grep -naP '\xc2[\x80-\x9f]' "$1"); then
		echo "$2: raw UTF-8 C1 characters:"
		printf '%s\n' "$bad" | cat -v | head -5
		return 1
	fi
	if bad=$(LC_ALL=C grep -naP '[\x80-\x9f]' "$1"); then
		echo "$2: raw bytes 0x80..0x9f:"
		printf '%s\n' "$bad" | cat -v | head -5
		return 1
	fi
	if ! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; then
		echo "$2: not valid UTF-8"
		return 1
	fi
}

# has_line FILE LINE: FILE has exactly this line.
has_line() {
	if ! grep -qxF -- "$2" "$1"; then
		echo "no line: $2"
		echo "in: $(cat -v "$1" | head -c 3000)"
		return 1
	fi
}

@test "escape: the fixture is sound, and every text output holds no control byte and is valid UTF-8" {
	pd check "$H"
	assert_status 0
	local out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err st c
	# every command of 'perfdump --help' is in the list below, with the
	# options that change what is shown
	for c in $("$PERFDUMP" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'); do
		[ "$c" = help ] || grep -qE "(^|\s)$c(\s|$)" "$BATS_TEST_FILENAME" ||
			{ echo "command $c is not run here"; false; }
	done
	while read -r args; do
		# shellcheck disable=SC2086
		"$PERFDUMP" $args "$H" >"$out" 2>"$err" && st=0 || st=$?
		assert_eq "$st" 0 "exit status of 'perfdump $args'"
		[ -s "$out" ] || { echo "'perfdump $args': no output"; false; }
		clean "$out" "stdout of 'perfdump $args'"
		clean "$err" "stderr of 'perfdump $args'"
	done <<-'EOF'
		summary
		header
		-x header
		features
		-x features
		features --list
		features --resolve
		attrs
		-x attrs
		records
		-x records
		records --order time
		stats
		stats --top 0
		check
		buildids
		buildids --no-resolve
		buildids --hits
		buildids --missing
		profile
		profile --by dso
		profile --by process
		profile --by thread
		profile --csv
		profile --by thread --csv
		export --to folded
		export --to folded --folded-tid --kernel-suffix --jit-suffix
		export --to folded --period --inline
	EOF
	# diff takes two recordings: the file against itself (0), and against
	# another, its strings in the differences (1)
	for args in "$H" testdata/cpu-clock.data; do
		"$PERFDUMP" diff "$args" "$H" >"$out" 2>"$err" && st=0 || st=$?
		assert_eq "$st" "$([ "$args" = "$H" ] && echo 0 || echo 1)" "exit status of 'perfdump diff $args'"
		clean "$out" "stdout of 'perfdump diff $args'"
		clean "$err" "stderr of 'perfdump diff $args'"
	done
	# copy writes a recording to -o, and on stdout what it wrote
	"$PERFDUMP" copy -o "$BATS_TEST_TMPDIR/copy.data" "$H" >"$out" 2>"$err" && st=0 || st=$?
	assert_eq "$st" 0 "exit status of 'perfdump copy'"
	clean "$out" "stdout of 'perfdump copy'"
	clean "$err" "stderr of 'perfdump copy'"
}

@test "escape: stats shows an EVENT_DESC name as a row label, escaped" {
	pd stats "$H"
	assert_status 0
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/o"
	has_line "$BATS_TEST_TMPDIR/o" \
		'      ev\x1b]0;pwn\x07\x1b[2J:       samples=1 percent=50.0% period=1000'
	assert_contains "$output" $'\n      café\\xc2\\x9b[2J\\x9b\\x7f\\xff: '
	assert_contains "$output" 'comm=co\x1b]0;x\x07\x9b samples=2'
}

@test "escape: the attrs title line escapes the name and the PMU name (C0, C1, a lone 0x9b, DEL, 0xff)" {
	pd attrs "$H"
	assert_status 0
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/o"
	has_line "$BATS_TEST_TMPDIR/o" \
		'  attr 0: ev\x1b]0;pwn\x07\x1b[2J (HARDWARE) at 0x78:'
	has_line "$BATS_TEST_TMPDIR/o" \
		'  attr 1: café\xc2\x9b[2J\x9b\x7f\xff (pmu\x1b]8;;x\x07\x9b) at 0x110:'
	has_line "$BATS_TEST_TMPDIR/o" \
		'    name:                   café\xc2\x9b[2J\x9b\x7f\xff'
	has_line "$BATS_TEST_TMPDIR/o" \
		'    type:                   8 (pmu\x1b]8;;x\x07\x9b)'
}

@test "escape: records escape COMM, MMAP, MMAP2, KSYMBOL and CGROUP strings and event names" {
	pd records "$H"
	assert_status 0
	assert_contains "$output" \
		'PERF_RECORD_COMM: event=ev\x1b]0;pwn\x07\x1b[2J pid=4242 tid=4242 comm=co\x1b]0;x\x07\x9b sample_id:'
	assert_contains "$output" ' filename=/lib/\x1b[2J\xc2\x85café.so sample_id:'
	assert_contains "$output" ' filename=/bin/\x1b[1mx\n\x7f sample_id:'
	assert_contains "$output" ' name=ksym\x1b[2J\x9b sample_id:'
	assert_contains "$output" ' path=/sys\x1b[2J\xc2\x9b sample_id:'
	assert_contains "$output" \
		'PERF_RECORD_SAMPLE: misc=0x2 cpumode=user event=café\xc2\x9b[2J\x9b\x7f\xff ip=0x400101'
	# one line per record: a newline in a string forges none
	assert_eq "$(grep -c 'PERF_RECORD_' <<<"$output")" 8 "record lines"
	pd -x records "$H"
	assert_status 0
	# the hex dump's ASCII column shows '.' for every non-ASCII byte
	assert_contains "$output" '|co.]0;x.........|'
}

@test "escape: features escape host strings, cmdline, event, PMU, group and capability names" {
	pd features "$H"
	assert_status 0
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/o"
	local v='    value:                  '
	has_line "$BATS_TEST_TMPDIR/o" "${v}"'host\x1b[31m\x0d\n\x08\xc2\x85'
	has_line "$BATS_TEST_TMPDIR/o" "${v}6.1\\x9b2Jé"
	has_line "$BATS_TEST_TMPDIR/o" "${v}"'6.1\x1b[A'
	has_line "$BATS_TEST_TMPDIR/o" "${v}"'x86\x7f_64'
	has_line "$BATS_TEST_TMPDIR/o" "${v}"'cpu\nFAKE: line\tx'
	has_line "$BATS_TEST_TMPDIR/o" "${v}"'Genuine\xc2\x9b\xf0(\x8c'
	has_line "$BATS_TEST_TMPDIR/o" \
		"    argv:                   /usr/bin/perf record \$'-o\\x1b[2J' \$'é\\xc2\\x80\\xfe'"
	has_line "$BATS_TEST_TMPDIR/o" \
		'        name:               ev\x1b]0;pwn\x07\x1b[2J'
	has_line "$BATS_TEST_TMPDIR/o" \
		'        name:               café\xc2\x9b[2J\x9b\x7f\xff'
	has_line "$BATS_TEST_TMPDIR/o" \
		'        type:               8 (pmu\x1b]8;;x\x07\x9b)'
	has_line "$BATS_TEST_TMPDIR/o" '      type=8 name=pmu\x1b]8;;x\x07\x9b'
	has_line "$BATS_TEST_TMPDIR/o" \
		'      name={grp\x1b[1m} leader_idx=0 nr_members=2'
	has_line "$BATS_TEST_TMPDIR/o" '      name=branches\x1b[K value=32\x07'
	has_line "$BATS_TEST_TMPDIR/o" '      pmu_name=cpu_core\x1b[2J cpus=0-3'
	has_line "$BATS_TEST_TMPDIR/o" '        pmu_name:           cpu\x9b'
	has_line "$BATS_TEST_TMPDIR/o" '          name=cap\x1b value=v\xc2\x9b'
	assert_contains "$output" ' filename=/tmp/bin\x1b[2J\xc2\x9b\xfe'
	# a newline in CPUDESC forges no line
	if grep -q '^FAKE' "$BATS_TEST_TMPDIR/o"; then
		echo "a forged line"
		false
	fi
}

@test "escape: buildids escape the file name, in the entry and in the paths tried" {
	pd buildids "$H"
	assert_status 0
	assert_contains "$output" \
		'build_id=101112131415161718191a1b1c1d1e1f20212223 filename=/tmp/bin\x1b[2J\xc2\x9b\xfe status=missing'
	assert_contains "$output" 'tried={path=/tmp/bin\x1b[2J\xc2\x9b\xfe status=missing'
}

@test "escape: messages on stderr and the File: line escape the file name" {
	local f=$BATS_TEST_TMPDIR/t$'\e]0;x\a\xc2\x9b'.data
	head -c 2000 "$H" >"$f"
	pd features "$f"
	assert_status 1
	assert_no_signal
	printf '%s\n' "$stderr" >"$BATS_TEST_TMPDIR/e"
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/o"
	clean "$BATS_TEST_TMPDIR/e" stderr
	clean "$BATS_TEST_TMPDIR/o" stdout
	assert_contains "$stderr" \
		"perfdump: $BATS_TEST_TMPDIR/t"'\x1b]0;x\x07\xc2\x9b.data: 0x7d0: HEADER_EVENT_DESC: '
	assert_contains "$output" "File: $BATS_TEST_TMPDIR/t"'\x1b]0;x\x07\xc2\x9b.data'
	# a file that cannot be opened
	pd header "$BATS_TEST_TMPDIR/none"$'\e[2J'
	assert_status 3
	assert_eq "$stderr" \
		"perfdump: $BATS_TEST_TMPDIR/none"'\x1b[2J: No such file or directory'
}

@test "escape: pipe mode, from a file and on stdin: HEADER_FEATURE, EVENT_UPDATE and HEADER_BUILD_ID strings" {
	local out=$BATS_TEST_TMPDIR/out err=$BATS_TEST_TMPDIR/err st
	while read -r args; do
		for src in file stdin; do
			# shellcheck disable=SC2086
			if [ $src = file ]; then
				"$PERFDUMP" $args "$P" >"$out" 2>"$err" && st=0 || st=$?
			else
				"$PERFDUMP" $args - <"$P" >"$out" 2>"$err" && st=0 || st=$?
			fi
			assert_eq "$st" 0 "exit status of 'perfdump $args' ($src)"
			clean "$out" "stdout of 'perfdump $args' ($src)"
			clean "$err" "stderr of 'perfdump $args' ($src)"
		done
	done <<-'EOF'
		header
		features
		attrs
		records
		-x records
		stats
		check
		buildids
	EOF
	pd records - <"$P"
	assert_status 0
	assert_contains "$output" 'PERF_RECORD_EVENT_UPDATE: update_type=NAME id=0x102 name=upd\x1b[5m\xc2\x9b\x9b'
	assert_contains "$output" 'PERF_RECORD_SAMPLE: misc=0x2 cpumode=user event=upd\x1b[5m\xc2\x9b\x9b ip=0x400101'
	assert_contains "$output" \
		'PERF_RECORD_HEADER_BUILD_ID: misc=0x2 cpumode=user pid=-1 build_id=101112131415161718191a1b1c1d1e1f20212223 build_id_size=20 filename=/tmp/bin\x1b[2J\xc2\x9b\xfe'
	assert_contains "$output" 'value=host\x1b[31m\x0d\n\x08\xc2\x85}'
	pd stats - <"$P"
	assert_status 0
	assert_contains "$output" $'\n      upd\\x1b[5m\\xc2\\x9b\\x9b: '
}

@test "escape: JSON is valid, holds no raw control character, and keeps the exact strings" {
	local out=$BATS_TEST_TMPDIR/out
	for args in header features attrs records "records --json-lines" stats check buildids; do
		for fmt in -j -p; do
			[ "$args" != "records --json-lines" ] || [ "$fmt" = -j ] || continue
			# shellcheck disable=SC2086
			"$PERFDUMP" $fmt $args "$H" >"$out"
			jq -e . "$out" >/dev/null
			# C0 and DEL as \u00XX (\n, \t ... as such), C1 as \u0080..\u009f
			clean "$out" "perfdump $fmt $args"
		done
	done
	# the decoded values, compared as JSON values (== in jq): invalid
	# UTF-8 is U+FFFD, everything else the bytes of the file
	pdj -j features "$H"
	local ev='.features[] | select(.name == "EVENT_DESC") | .events'
	jq_all \
		"[${ev}[].name] == "'["ev\u001b]0;pwn\u0007\u001b[2J", "café\u009b[2J\ufffd\u007f\ufffd"]' true \
		"$(feature HOSTNAME).value == "'"host\u001b[31m\r\n\b\u0085"' true \
		"$(feature OSRELEASE).value == "'"6.1\ufffd2Jé"' true \
		"$(feature CPUDESC).value == "'"cpu\nFAKE: line\tx"' true \
		"$(feature CPUID).value == "'"Genuine\u009b\ufffd(\ufffd"' true \
		"$(feature CMDLINE).argv == "'["/usr/bin/perf", "record", "-o\u001b[2J", "é\u0080\ufffd"]' true \
		"$(feature PMU_MAPPINGS).mappings[1].name == "'"pmu\u001b]8;;x\u0007\ufffd"' true \
		"$(feature BUILD_ID).build_ids[0].filename == "'"/tmp/bin\u001b[2J\u009b\ufffd"' true
	pdj -j records "$H"
	jq_all \
		'[.records[] | .comm // .filename // .path // .name // empty] == ["co\u001b]0;x\u0007\ufffd", "/lib/\u001b[2J\u0085café.so", "/bin/\u001b[1mx\n\u007f", "ksym\u001b[2J\ufffd", "/sys\u001b[2J\u009b"]' true \
		'[.records[] | .event // empty] | unique == ["café\u009b[2J\ufffd\u007f\ufffd", "ev\u001b]0;pwn\u0007\u001b[2J"]' true
}
