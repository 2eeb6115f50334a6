#!/usr/bin/env bats
# The rough edges a new user meets (issues 15 and 23): records --event as
# perf record -e names events, usage errors that point to the command's
# help, -x where there is nothing to dump, `perfdump FILE`, and inputs that
# are not recordings.

load helpers
# bats file_tags=asan

# ------------------------------------------------------- records --event

# events_of ARGS...: the distinct "event" values of records --json-lines ARGS
events_of() {
	pd records --json-lines "$@"
	assert_status 0
	jq -r 'select(.event) | .event' <<<"$output" | LC_ALL=C sort -u | tr '\n' ' '
}

@test "records --event: the name as perf record -e takes it, with or without modifiers and system" {
	assert_eq "$(events_of --event dummy:HG testdata/tracepoint.data)" "dummy:HG "
	assert_eq "$(events_of --event dummy testdata/tracepoint.data)" "dummy:HG "
	assert_eq "$(events_of --event sched_switch --type sample testdata/tracepoint.data)" "sched:sched_switch "
	assert_eq "$(events_of --event sched:sched_switch --type sample testdata/tracepoint.data)" "sched:sched_switch "
	assert_eq "$(events_of --event attr1 testdata/tracepoint.data)" "dummy:HG "
	# modifiers given must be the event's
	pd records --event dummy:u testdata/tracepoint.data
	assert_status 2
	pd records --event cpu-clock:ppp testdata/syswide.data
	assert_status 2
}

@test "records --event that names no event: exit 2, the events listed, nothing on stdout" {
	pd records --event cpu-clok testdata/tracepoint.data
	assert_status 2
	assert_empty "$output" stdout
	assert_eq "$stderr" "perfdump: records: --event 'cpu-clok' names no event of the recording; its events are sched:sched_switch (attr0), dummy:HG (attr1)
Try 'perfdump help records'."
	# pipe mode, on stdin: the names come from HEADER_FEATURE EVENT_DESC
	run --separate-stderr sh -c "'$PERFDUMP' records --event nosuch - <testdata/pipe.data"
	assert_status 2
	assert_contains "$stderr" "its events are cpu-clock (attr0)"
	run --separate-stderr sh -c "'$PERFDUMP' records --event cpu-clock --type sample --limit 1 --json-lines - <testdata/pipe.data"
	assert_status 0
	jq_eq 'select(.type_name == "SAMPLE") | .event' '"cpu-clock"'
}

# ------------------------------------------------------------ usage errors

@test "usage errors point to 'perfdump help COMMAND'; before a command, to --help" {
	pd records --type nosuch testdata/cpu-clock.data
	assert_status 2
	assert_contains "$stderr" $'\nTry \'perfdump help records\'.'
	pd stats --top x testdata/cpu-clock.data
	assert_status 2
	assert_contains "$stderr" "Try 'perfdump help stats'."
	pd header --nosuch testdata/cpu-clock.data
	assert_status 2
	assert_contains "$stderr" "Try 'perfdump help header'."
	pd --nosuch header testdata/cpu-clock.data
	assert_status 2
	assert_contains "$stderr" "Try 'perfdump --help'."
}

# ---------------------------------------------------------------- -x

@test "-x where the command has no raw bytes to show: exit 2, said so" {
	local c
	for c in stats check buildids; do
		pd -x $c testdata/cpu-clock.data
		assert_status 2
		assert_empty "$output" stdout
		assert_contains "$stderr" "perfdump: $c: -x: $c shows no structure's raw bytes, so there is nothing to dump"
	done
	for c in header features attrs records; do
		pd -x $c testdata/cpu-clock.data
		assert_no_signal
		[ "$status" -le 1 ]
		assert_contains "$output" "raw: "
	done
}

# ------------------------------------------------------ perfdump FILE

@test "perfdump FILE: the summary, as 'perfdump summary FILE'" {
	pd testdata/cpu-clock.data
	assert_status 0
	assert_empty "$stderr" stderr
	local want=$output
	pd summary testdata/cpu-clock.data
	assert_eq "$output" "$want" "summary"
	assert_eq "$(head -3 <<<"$output")" "File: testdata/cpu-clock.data
summary:
  mode:                     file"
	assert_contains "$output" $'\n  hostname:                 vm\n'
	assert_contains "$output" $'\n    cpu-clock:              attr=0 samples=391\n'
	assert_contains "$output" $'\n  time:                     first_s=193.085121 last_s=193.183034 duration_s=0.097913531\n'
	pdj -j testdata/cpu-clock.data
	jq_all '.summary | [.mode, .endianness, .file_size, .data_size, .perf_version, .hostname, .arch, .nr_cpus_online]' \
		'["file","little",21572,16568,"6.1.187","vm","x86_64",2]' \
		'.summary | [.records, .samples, .events, .result]' '[406,391,[{"name":"cpu-clock","attr":0,"samples":391}],"sound"]' \
		'.summary.cmdline | join(" ")' '"/usr/bin/perf record -e cpu-clock -o testdata/cpu-clock.data -- dd if=/dev/zero of=/dev/null bs=1k count=200000"' \
		'.summary.time' '{"first_s":"193.085121","last_s":"193.183034","duration_s":"0.097913531"}' \
		'.summary.lost' '{"events":0,"samples":0}'
}

@test "perfdump FILE: a damaged file, a pipe on stdin, a directory" {
	pd testdata/killed.data
	assert_status 1
	assert_contains "$output" $'\n  result:                   damaged\nProblems:\n  error: 0x30: '
	run --separate-stderr sh -c "'$PERFDUMP' -j - <testdata/pipe.data"
	assert_status 0
	check_json '.summary.mode == "pipe" and .summary.samples == 397 and .file == "-"'
	pdj -j testdata/threads.data
	jq_all '.summary | [.mode, .records, .samples]' '["directory",564,536]'
}

@test "perfdump NAME: a command name wins over a file of that name; neither is an error" {
	cd "$BATS_TEST_TMPDIR"
	cp "$PROJECT_ROOT/testdata/cpu-clock.data" header
	pd header
	assert_status 3 # header of ./perf.data, which does not exist
	assert_contains "$stderr" "perfdump: perf.data: "
	pd ./header
	assert_status 0
	assert_contains "$output" $'File: ./header\nsummary:\n'
	pd nosuch.data
	assert_status 2
	assert_eq "$stderr" "perfdump: 'nosuch.data' is not a command, and no such file
Try 'perfdump --help'."
}

# ------------------------------------------ option values of a few names

@test "option values: an unambiguous prefix is the value: --by func, --order t, --type samp, --redact=c" {
	local F=testdata/cpu-clock.data want v
	pd -j profile --by function $F
	assert_status 0
	want=$output
	for v in func f functio; do
		pd -j profile --by $v $F
		assert_status 0
		assert_eq "$output" "$want" "profile --by $v"
	done
	pd -j profile --by th testdata/threads.data
	jq_eq '.profile.by' '"thread"'
	pd -j records --order time --limit 20 testdata/comm-order.data
	want=$output
	pd -j records --order t --limit 20 testdata/comm-order.data
	assert_status 0
	assert_eq "$output" "$want" "--order t"
	pd -j records --type sample,mmap2 $F
	want=$output
	pd -j records --type SAMP,mmap2 $F
	assert_status 0
	assert_eq "$output" "$want" "--type SAMP,mmap2"
	pd --redact=comm records --limit 5 $F
	want=$output
	pd --redact=c records --limit 5 $F
	assert_status 0
	assert_eq "$output" "$want" "--redact=c"
}

@test "option values: an ambiguous prefix lists its names; a misspelt one gets 'did you mean'; exit 2" {
	local F=testdata/cpu-clock.data line
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086
		pd $args $F
		assert_status 2
		assert_empty "$output" "stdout of $args"
		assert_eq "$stderr" "perfdump: $want
Try 'perfdump help ${args%% *}'." "stderr of $args"
	done <<'EOF'
records --type auxt|records: --type: ambiguous record type 'auxt'; it could be: AUXTRACE_INFO AUXTRACE AUXTRACE_ERROR
records --type sample,comp|records: --type: ambiguous record type 'comp'; it could be: COMPRESSED COMPRESSED2
records --type smaple|records: --type: unknown record type 'smaple'; did you mean 'SAMPLE'?
records --type mmap,PERF_RECORD_COMMM|records: --type: unknown record type 'COMMM'; did you mean 'COMM'?
records --order tiem|records: --order: unknown value 'tiem'; did you mean 'time'?
profile --by fnction|profile: --by: unknown value 'fnction'; did you mean 'function'?
profile --by prcess|profile: --by: unknown value 'prcess'; did you mean 'process'?
profile --by symbol|profile: --by: unknown value 'symbol'; values are: function dso line process thread
EOF
	pd --redact=cmm header $F
	assert_status 2
	assert_eq "$stderr" "perfdump: --redact: unknown value 'cmm'; did you mean 'comm'?
Try 'perfdump --help'."
	pd header --redact=all $F
	assert_status 2
	assert_eq "$stderr" "perfdump: --redact: unknown value 'all'; values are: comm
Try 'perfdump help header'."
}

# ------------------------------------- inputs that are not recordings

# The commands that show no model of an input that is not a recording
# (check shows it as its finding: tested below).
NOT_PERF_CMDS="summary header features attrs records stats buildids profile"

# not_perf FILE WHAT DETAIL: every command (but check) says on stderr, and
# only there, "perfdump: FILE: 0x0: WHAT: DETAIL" (no offset when WHAT is
# "directory"); text writes nothing, -j a document whose command key is
# null with that error; exit 1 each time.  The JSON documents of all the
# commands are checked by one jq run at the end (jq starts slowly).
not_perf() {
	local f=$1 what=$2 detail=$3 at="0x0: " off=0 c docs= errs
	[ "$what" != directory ] || at= off=null
	for c in $NOT_PERF_CMDS; do
		pd $c "$f"
		assert_status 1
		assert_empty "$output" "stdout of '$c $f'"
		assert_eq "$stderr" "perfdump: $f: $at$what: $detail" "stderr of '$c $f'"
		pd -j $c "$f"
		assert_status 1
		docs="$docs$output
"
	done
	# one document per command, in order, each the contract's keys and
	# the command's key, null, with exactly that error
	errs="[{\"offset\":$off,\"what\":$(js "$what"),\"detail\":$(js "$detail")}]"
	if ! jq -e -n --arg cmds "$NOT_PERF_CMDS" --argjson errs "$errs" '
		[inputs] as $d | ($cmds | split(" ")) as $c |
		($d | length) == ($c | length) and all(range($c | length); . as $i | $d[$i] |
			type == "object" and .perfdump_json_version == 1 and .file == '"$(js "$f")"' and
			has($c[$i]) and .[$c[$i]] == null and .errors == $errs and .warnings == [] and
			(keys - ["errors", "file", "perfdump_json_version", "warnings"]) == [$c[$i]])' \
		>/dev/null <<<"$docs"; then
		echo "-j $NOT_PERF_CMDS on $f: not one document each, with the command's key null and the error $errs:"
		printf '%s\n' "$docs" | head -c 3000
		return 1
	fi
	# nor with -p, --json-lines, -x, --csv or --list: no field of it
	for c in "-p header" "features --list" "-x header" "profile --csv"; do
		# shellcheck disable=SC2086
		pd $c "$f"
		assert_status 1
		[[ $output != *mode* && $output != *endianness* ]] || {
			echo "'$c $f' shows fields that were never read: $output"
			return 1
		}
	done
	pd records --json-lines "$f"
	assert_status 1
	assert_eq "$output" "{\"perfdump_json_version\":1,\"file\":$(js "$f"),\"format\":\"json-lines\"}
{\"errors\":[{\"offset\":$off,\"what\":$(js "$what"),\"detail\":$(js "$detail")}],\"warnings\":[]}" "records --json-lines"
}

# The bytes od shows, "72 6f 6f 74", of FILE's first N.
first_bytes() {
	od -A n -t x1 -N "$2" "$1" | sed 's/^ //'
}

# The regular files below are a sweep: make mutate runs such inputs (an
# empty file, short and long text, zstd-compressed text: MUTATE_NOTPERF in
# the Makefile) through every command under the sanitizers.  /dev/null,
# standard input and the directories are not files it can run: the
# sanitizer build runs those tests too.
# bats test_tags=normal
@test "not a perf.data file: /etc/passwd, an empty file: said on stderr, nothing shown, exit 1" {
	sweep
	[ -s /etc/passwd ] || skip "no /etc/passwd"
	not_perf /etc/passwd "file header: magic" \
		"not a perf.data file: the first 8 bytes are $(first_bytes /etc/passwd 8), not \"PERFILE2\" or \"PERFFILE\""
	: >"$BATS_TEST_TMPDIR/empty.data"
	not_perf "$BATS_TEST_TMPDIR/empty.data" "file header: magic" "not a perf.data file: the input is empty"
}

# bats test_tags=normal
@test "not a perf.data file: /dev/null, standard input: said on stderr, nothing shown, exit 1" {
	not_perf /dev/null "file header: magic" "not a perf.data file: the input is empty"
	run --separate-stderr sh -c "printf 'x\n' | '$PERFDUMP' -j -"
	assert_status 1
	check_json '.summary == null and .errors[0].detail == "not a perf.data file: the input has 2 bytes, 78 0a, too few for the 8-byte magic \"PERFILE2\" or \"PERFFILE\""'
}

# bats test_tags=normal
@test "not a perf.data file: text files of 3 and 12 bytes" {
	sweep
	local d=$BATS_TEST_TMPDIR
	printf 'abc' >"$d/3.txt"
	not_perf "$d/3.txt" "file header: magic" \
		'not a perf.data file: the input has 3 bytes, 61 62 63, too few for the 8-byte magic "PERFILE2" or "PERFFILE"'
	printf 'hello world\n' >"$d/12.txt"
	not_perf "$d/12.txt" "file header: magic" \
		'not a perf.data file: the first 8 bytes are 68 65 6c 6c 6f 20 77 6f, not "PERFILE2" or "PERFFILE"'
	# the magic and fewer than 16 bytes: a recording, cut (its header is shown)
	printf 'PERFILE2\x68\0' >"$d/cut.data"
	pd header "$d/cut.data"
	assert_status 1
	assert_eq "$stderr" "perfdump: $d/cut.data: 0x0: file header: the input has 10 bytes, too few for even the 16-byte pipe header"
	assert_contains "$output" $'\n  magic:                    PERFILE2\n'
}

# bats test_tags=normal
@test "not a perf.data file: zstd-compressed text" {
	sweep
	command -v zstd >/dev/null || skip "zstd not installed"
	local d=$BATS_TEST_TMPDIR
	printf hello | zstd -q >"$d/hello.zst"
	not_perf "$d/hello.zst" "file header: magic" \
		'not a perf.data file: the input decompressed from zstd has 5 bytes, 68 65 6c 6c 6f, too few for the 8-byte magic "PERFILE2" or "PERFFILE"'
}

@test "not a perf.data file: a directory without 'data', or whose 'data' is a directory" {
	local d=$BATS_TEST_TMPDIR
	mkdir "$d/notperf" "$d/datadir" "$d/datadir/data"
	not_perf "$d/notperf" directory \
		"not a perf.data file: a directory without a file 'data' (where perf record --threads writes the header)"
	not_perf "$d/datadir" directory \
		"not a perf.data file: a directory without a file 'data' (where perf record --threads writes the header)"
}

# bats test_tags=normal
@test "not a perf.data file: check lists it as bad-magic; --brief says 'not a perf.data file'" {
	local f=$BATS_TEST_TMPDIR/3.txt detail
	printf 'abc' >"$f"
	detail='not a perf.data file: the input has 3 bytes, 61 62 63, too few for the 8-byte magic "PERFILE2" or "PERFFILE"'
	pd check "$f"
	assert_status 1
	assert_eq "$stderr" "perfdump: $f: 0x0: file header: magic: $detail"
	assert_contains "$output" $'\n    error 0x0 header [bad-magic]: message='
	[[ $output != *mode* && $output != *endianness* ]]
	pdj -j check "$f"
	assert_status 1
	jq_all '[.check.findings[] | [.offset, .code]]' '[[0,"bad-magic"]]' \
		'.check.summary | [.errors, .bytes_covered, .file_size]' '[1,0,3]'
	pd check --brief "$f"
	assert_status 1
	assert_empty "$stderr" stderr
	assert_eq "$output" "$f: not a perf.data file"
	pdj -j check --brief "$f"
	assert_status 1
	jq_eq '.check' '{"summary":"not a perf.data file","sound":false,"errors":1,"warnings":0,"first_error":{"offset":0,"code":"bad-magic"}}'
}

@test "not a perf.data file among others: the others shown as usual, exit 1" {
	local F=testdata/cpu-clock.data P=testdata/pipe.data want
	printf 'abc' >"$BATS_TEST_TMPDIR/3.txt"
	pd header $F
	want=$output
	pd header $P
	want="$want

$output"
	pd header $F "$BATS_TEST_TMPDIR/3.txt" $P
	assert_status 1
	assert_eq "$output" "$want" "stdout"
	pdj -p header $F "$BATS_TEST_TMPDIR/3.txt" $P 2>/dev/null || true
	assert_eq "$(jq -c '[.file, (.header | type)]' <<<"$output")" "[\"$F\",\"object\"]
[\"$BATS_TEST_TMPDIR/3.txt\",\"null\"]
[\"$P\",\"object\"]"
}

@test "make demo shows the summary of the bundled sample" {
	run make -n demo
	assert_contains "$output" "./perfdump testdata/cpu-clock.data"
	[[ $output != *"perfdump header"* && $output != *"perfdump features"* ]]
}
