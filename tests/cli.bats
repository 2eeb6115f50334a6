#!/usr/bin/env bats
# Command line: help, version, command lookup, options, exit statuses,
# default file, output errors (DESIGN.md "Command line", "Errors and exit
# status").

load helpers
# bats file_tags=asan

F=testdata/cpu-clock.data

# The command names listed under "Commands:" in --help (without "help").
help_commands() {
	"$PERFDUMP" --help | sed -n '/^Commands:/,/^$/p' |
		awk 'NR > 1 && NF { print $1 }' | grep -v '^help$'
}

# make_big_feature FILE N: a sound file-mode perf.data whose only feature
# is bit 40 (unknown to perf) with N bytes, so that `features` hex-dumps
# about 5.4 x N bytes of text.
make_big_feature() {
	head -c "$2" /dev/zero | tr '\0' 'A' >"$1.payload"
	make_perf_file "$1" 40 "$1.payload"
}

# ------------------------------------------------------------------ help

@test "--help lists the commands header and features, on stdout, exit 0" {
	pd --help
	assert_status 0
	assert_empty "$stderr" stderr
	assert_contains "$output" "Usage: perfdump"
	printf '%s\n' "$output" | grep -Eq '^  header +[a-z]'
	printf '%s\n' "$output" | grep -Eq '^  features +[a-z]'
	printf '%s\n' "$output" | grep -Eq '^  help '
	local o
	for o in '-j, --json' '-p, --pretty' '-x, --hex' '-h, --help' '-V, --version'; do
		assert_contains "$output" "$o"
	done
}

@test "-h and 'help' print the same text as --help" {
	pd --help
	local want=$output
	pd -h
	assert_status 0
	assert_eq "$output" "$want" "-h output"
	pd help
	assert_status 0
	assert_eq "$output" "$want" "help output"
}

@test "'help header' prints the same text as 'header --help' and 'header -h'" {
	pd help header
	assert_status 0
	assert_empty "$stderr" stderr
	local want=$output
	[[ $want == "Usage: perfdump header"* ]]
	pd header --help
	assert_status 0
	assert_eq "$output" "$want" "header --help"
	pd header -h
	assert_status 0
	assert_eq "$output" "$want" "header -h"
}

@test "'help features' prints the same text as 'features --help' and mentions --list" {
	pd help features
	assert_status 0
	assert_empty "$stderr" stderr
	local want=$output
	[[ $want == "Usage: perfdump features"* ]]
	assert_contains "$want" "--list"
	pd features --help
	assert_status 0
	assert_eq "$output" "$want" "features --help"
	pd features -h
	assert_status 0
	assert_eq "$output" "$want" "features -h"
}

@test "every command listed in --help has help text equal to 'help CMD'" {
	local cmds
	cmds=$(help_commands)
	[ -n "$cmds" ]
	for c in $cmds; do
		pd help "$c"
		assert_status 0
		local want=$output
		[[ $want == "Usage: perfdump $c"* ]]
		pd "$c" --help
		assert_status 0
		assert_eq "$output" "$want" "$c --help"
	done
}

@test "--help does not need a file and ignores ./perf.data" {
	cd "$BATS_TEST_TMPDIR"
	pd header --help
	assert_status 0
	assert_contains "$output" "Usage: perfdump header"
}

@test "help for an unknown command: exit 2, the commands listed on stderr" {
	pd help nosuch
	assert_status 2
	assert_empty "$output" stdout
	assert_contains "$stderr" "perfdump: unknown command 'nosuch'"
	assert_contains "$stderr" header
	assert_contains "$stderr" features
}

# --------------------------------------------------------------- version

@test "-V and --version print 'perfdump X.Y.Z', exit 0" {
	pd -V
	assert_status 0
	assert_empty "$stderr" stderr
	[[ $output =~ ^perfdump\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	local want=$output
	pd --version
	assert_status 0
	assert_eq "$output" "$want" "--version"
	pd header -V
	assert_status 0
	assert_eq "$output" "$want" "header -V"
}

# ------------------------------------------------------ command lookup

@test "no command: usage on stderr, exit 2" {
	pd
	assert_status 2
	assert_empty "$output" stdout
	assert_contains "$stderr" "Usage: perfdump"
}

@test "neither a command nor a file: exit 2, said to be both" {
	pd frobnicate $F
	assert_status 2
	assert_empty "$output" stdout
	assert_eq "$stderr" "perfdump: 'frobnicate' is not a command, and no such file
Try 'perfdump --help'."
	pd nonexist.data
	assert_status 2
	assert_eq "$stderr" "perfdump: 'nonexist.data' is not a command, and no such file
Try 'perfdump --help'."
	pd -j ./nosuch/perf.data
	assert_status 2
	assert_eq "$stderr" "perfdump: './nosuch/perf.data' is not a command, and no such file
Try 'perfdump --help'."
	# as an operand of a command it is a file that cannot be opened
	pd summary nonexist.data
	assert_status 3
	assert_eq "$stderr" "perfdump: nonexist.data: No such file or directory"
}

@test "a misspelt command: exit 2, 'did you mean' the nearest (swapped, missing, added letters)" {
	local word want
	while read -r word want; do
		pd "$word" $F
		assert_status 2
		assert_empty "$output" "stdout of $word"
		assert_eq "$stderr" "perfdump: unknown command '$word'; did you mean '$want'?
Try 'perfdump --help'." "stderr of $word"
	done <<'WORDS'
recrods records
stast stats
headr header
Header header
headers header
chekc check
profle profile
buildid-s buildids
hlep help
WORDS
	# a file of that name is shown: it is no misspelling
	cp $F "$BATS_TEST_TMPDIR/recrods"
	run --separate-stderr bash -c 'cd "$1" && exec "$2" recrods' _ "$BATS_TEST_TMPDIR" "$PERFDUMP"
	assert_status 0
	assert_contains "$output" $'File: recrods\nsummary:\n'
	# help COMMAND too
	pd help recrods
	assert_status 2
	assert_eq "$stderr" "perfdump: unknown command 'recrods'; did you mean 'records'?
Try 'perfdump --help'."
	# too far from every command: no guess
	pd help stx
	assert_status 2
	assert_eq "$stderr" "perfdump: unknown command 'stx'; commands are: summary header features attrs records stats check buildids profile export copy diff help
Try 'perfdump --help'."
}

@test "a unique prefix selects the command: head, hea, feat, f" {
	pd header $F
	local want_h=$output
	pd features $F
	local want_f=$output
	for p in head hea heade; do
		pd $p $F
		assert_status 0
		assert_eq "$output" "$want_h" "perfdump $p"
	done
	for p in feat f featur; do
		pd $p $F
		assert_status 0
		assert_eq "$output" "$want_f" "perfdump $p"
	done
}

@test "a prefix shared by two commands is ambiguous: exit 2 naming both" {
	local cmds a b p found=
	cmds=$(help_commands)
	for a in $cmds; do
		for b in $cmds; do
			[ "$a" \< "$b" ] || continue
			p=
			while [ "${a:${#p}:1}" = "${b:${#p}:1}" ] && [ ${#p} -lt ${#a} ]; do
				p=$p${a:${#p}:1}
			done
			[ -n "$p" ] || continue
			[ "$p" != "$a" ] || continue
			found=1
			pd "$p" $F
			assert_status 2
			assert_contains "$stderr" "ambiguous"
			assert_contains "$stderr" "$a"
			assert_contains "$stderr" "$b"
		done
	done
	[ -n "$found" ] || skip "no two commands share a prefix: ${cmds//$'\n'/ }"
}

@test "a word that is longer than a command is not a prefix: exit 2" {
	pd headers $F
	assert_status 2
	assert_contains "$stderr" "unknown command 'headers'"
}

# --------------------------------------------------------------- options

@test "unknown global option: exit 2, message names it" {
	pd --bogus header $F
	assert_status 2
	assert_empty "$output" stdout
	assert_contains "$stderr" "unknown option '--bogus'"
	pd -Q header $F
	assert_status 2
	assert_contains "$stderr" "-Q"
}

@test "unknown command option: exit 2, message names it" {
	pd header --bogus $F
	assert_status 2
	assert_empty "$output" stdout
	assert_contains "$stderr" "--bogus"
	pd features -Z $F
	assert_status 2
	assert_contains "$stderr" "-Z"
}

@test "header takes several FILEs: each under its File: line, exit 0" {
	pd header $F testdata/pipe.data
	assert_status 0
	assert_eq "$(grep -c '^File: ' <<<"$output")" 2 "File: lines"
	assert_contains "$output" $'\n\nFile: testdata/pipe.data\n'
}

@test "-- ends the options" {
	pd header $F
	local want=$output
	pd header -- $F
	assert_status 0
	assert_eq "$output" "$want" "header -- FILE"
}

@test "global options are accepted before and after the command" {
	local form want
	for form in -j --json -p --pretty -x --hex; do
		pd "$form" header $F
		assert_status 0
		want=$output
		pd header "$form" $F
		assert_status 0
		assert_eq "$output" "$want" "header $form FILE vs $form header FILE"
		pd "$form" features $F
		assert_status 0
		want=$output
		pd features "$form" $F
		assert_status 0
		assert_eq "$output" "$want" "features $form FILE vs $form features FILE"
	done
	pd -j -x header $F
	want=$output
	pd -j header -x $F
	assert_eq "$output" "$want" "-j header -x"
	pd header -x -j $F
	assert_eq "$output" "$want" "header -x -j"
}

@test "long and short forms of the global options are the same" {
	pd -j header $F
	local j=$output
	pd --json header $F
	assert_eq "$output" "$j" "--json"
	pd -p header $F
	local p=$output
	pd --pretty header $F
	assert_eq "$output" "$p" "--pretty"
	pd -x header $F
	local x=$output
	pd --hex header $F
	assert_eq "$output" "$x" "--hex"
}

# ------------------------------------------------------------------ JSON

@test "-j writes one valid JSON document on one line, newline-terminated" {
	for cmd in header features; do
		pdj -j $cmd $F
		assert_status 0
		assert_empty "$stderr" stderr
		local lines
		lines=$("$PERFDUMP" -j $cmd $F | wc -l)
		assert_eq "$lines" 1 "lines of -j $cmd output (wc -l)"
		assert_eq "$("$PERFDUMP" -j $cmd $F | tail -c 1 | od -A n -t x1 | tr -d ' ')" 0a \
			"last byte of -j $cmd output"
	done
}

@test "-p writes the same document, indented, newline-terminated" {
	for cmd in header features; do
		pdj -p $cmd $F
		assert_status 0
		local pretty=$output
		[ "$(printf '%s\n' "$pretty" | wc -l)" -gt 10 ]
		assert_eq "$(printf '%s\n' "$pretty" | sed -n 1p)" "{"
		assert_eq "$(printf '%s\n' "$pretty" | sed -n 2p)" '  "perfdump_json_version": 1,'
		assert_eq "$("$PERFDUMP" -p $cmd $F | tail -c 1 | od -A n -t x1 | tr -d ' ')" 0a \
			"last byte of -p $cmd output"
		pdj -j $cmd $F
		assert_eq "$(jq -S . <<<"$output")" "$(jq -S . <<<"$pretty")" "-j vs -p content"
	done
}

@test "-p wins over -j in either order (pretty implies JSON)" {
	pd -p header $F
	local want=$output
	pd -j -p header $F
	assert_eq "$output" "$want" "-j -p"
	pd -p -j header $F
	assert_eq "$output" "$want" "-p -j"
}

@test "JSON documents are named after the command and carry file, errors, warnings" {
	pdj -j header $F
	jq_eq 'keys' '["errors","file","header","perfdump_json_version","warnings"]'
	jq_eq '.file' '"testdata/cpu-clock.data"'
	jq_eq '.errors' '[]'
	jq_eq '.warnings' '[]'
	pdj -j features $F
	jq_eq 'keys' '["errors","features","file","perfdump_json_version","warnings"]'
	jq_true '.features | type == "array" and length > 0'
}

@test "text output starts with the file name" {
	pd header $F
	assert_eq "$(printf '%s\n' "$output" | sed -n 1p)" "File: testdata/cpu-clock.data"
	pd features $F
	assert_eq "$(printf '%s\n' "$output" | sed -n 1p)" "File: testdata/cpu-clock.data"
}

# ---------------------------------------------------------- input errors

@test "missing file: exit 3, 'perfdump: NAME: No such file or directory'" {
	for cmd in header features; do
		pd $cmd testdata/no-such-file.data
		assert_status 3
		assert_eq "$stderr" "perfdump: testdata/no-such-file.data: No such file or directory" \
			"$cmd stderr"
		assert_empty "$output" stdout
		pd -j $cmd testdata/no-such-file.data
		assert_status 3
		assert_eq "$stderr" "perfdump: testdata/no-such-file.data: No such file or directory" \
			"-j $cmd stderr"
	done
}

@test "unreadable file: exit 3 with the system's message" {
	[ "$(id -u)" != 0 ] || skip "root can read any file"
	cp $F "$BATS_TEST_TMPDIR/noperm.data"
	chmod 000 "$BATS_TEST_TMPDIR/noperm.data"
	pd header "$BATS_TEST_TMPDIR/noperm.data"
	assert_status 3
	assert_eq "$stderr" "perfdump: $BATS_TEST_TMPDIR/noperm.data: Permission denied"
}

@test "a path through a regular file: exit 3, 'Not a directory'" {
	pd header $F/x
	assert_status 3
	assert_eq "$stderr" "perfdump: $F/x: Not a directory"
	assert_empty "$output" stdout
}

@test "FILE defaults to ./perf.data" {
	cp $F "$BATS_TEST_TMPDIR/perf.data"
	cd "$BATS_TEST_TMPDIR"
	pd header
	assert_status 0
	assert_empty "$stderr" stderr
	assert_eq "$(printf '%s\n' "$output" | sed -n 1p)" "File: perf.data"
	local want=$output
	pd header perf.data
	assert_eq "$output" "$want" "header vs header perf.data"
	pdj -j header
	assert_status 0
	jq_eq '.file' '"perf.data"'
	jq_eq '.header.data' '{"offset":264,"size":16568,"end":16832,"status":"ok"}'
	pdj -j features
	assert_status 0
	jq_eq "$(feature HOSTNAME).value" '"vm"'
}

@test "no ./perf.data and no FILE: exit 3 naming perf.data" {
	cd "$BATS_TEST_TMPDIR"
	pd header
	assert_status 3
	assert_eq "$stderr" "perfdump: perf.data: No such file or directory"
	pd features
	assert_status 3
	assert_eq "$stderr" "perfdump: perf.data: No such file or directory"
}

# --------------------------------------------------------- output errors

@test "stdout closed early ('| head -1'): nothing on stderr" {
	for cmd in header features; do
		run bash -c "set -o pipefail; '$PERFDUMP' $cmd $F 2>'$BATS_TEST_TMPDIR/err' | head -1"
		[ "$status" -eq 0 ] || [ "$status" -eq 141 ]
		assert_eq "$output" "File: testdata/cpu-clock.data" "first line"
		assert_empty "$(cat "$BATS_TEST_TMPDIR/err")" "stderr of $cmd"
	done
}

@test "stdout closed early on a large output: killed by SIGPIPE (141), nothing on stderr" {
	make_big_feature "$BATS_TEST_TMPDIR/big.data" 1048576
	# sanity: the file is sound and its output is megabytes long
	pd header "$BATS_TEST_TMPDIR/big.data"
	assert_status 0
	assert_contains "$output" '"bit 40"'
	run bash -c "'$PERFDUMP' features '$BATS_TEST_TMPDIR/big.data' | wc -c"
	[ "$output" -gt 4000000 ]
	run bash -c "set -o pipefail; '$PERFDUMP' features '$BATS_TEST_TMPDIR/big.data' 2>'$BATS_TEST_TMPDIR/err' | head -1"
	assert_status 141
	assert_eq "$output" "File: $BATS_TEST_TMPDIR/big.data" "first line"
	assert_empty "$(cat "$BATS_TEST_TMPDIR/err")" stderr
}

@test "stdout is /dev/full: exit 3, 'cannot write output'" {
	[ -w /dev/full ] || skip "no /dev/full"
	for args in "header $F" "features $F" "-j header $F" "-p features $F" "--help" "-V" "help header"; do
		# shellcheck disable=SC2086
		run bash -c "'$PERFDUMP' $args >/dev/full"
		assert_status 3
		assert_eq "$output" "perfdump: cannot write output: No space left on device" \
			"stderr of perfdump $args >/dev/full"
	done
}

@test "'he' is ambiguous between header and help: exit 2 naming both" {
	pd he $F
	assert_status 2
	assert_contains "$stderr" "ambiguous command 'he'; it could be: header help"
}

@test "options may follow FILE and feature names" {
	pd header $F -j
	assert_status 0
	check_json
	[ "$(jq -r .header.mode <<<"$output")" = file ]
	pd features $F hostname -p
	assert_status 0
	check_json
	[ "$(jq -r '.features[0].value' <<<"$output")" = vm ]
}
