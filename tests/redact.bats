#!/usr/bin/env bats
# --redact: the strings that identify a person or machine are replaced by
# stable tokens in every output (perfdump(1) REDACTION).  The fixtures
# redact.data and redact-pipe.data were recorded with a known host name,
# a program and a file under /home/alice-test, and a user's cgroup
# (testdata/README.md).

load helpers
# bats file_tags=asan

F=testdata/redact.data
P=testdata/redact-pipe.data
# what must not survive --redact (the host, the home, the file, the uid)
SECRETS='redact-test-host|alice-test|redact-secret|31337'
# what must: system paths and kernel names
KEPT="/usr/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 [kernel.kallsyms] [vdso] /usr/bin/perf"

# every_output FILE ARGS...: stdout and stderr of every command --help
# lists (a new one is checked too) in text, -j and (records)
# --json-lines, with the global ARGS, into $all (export: --to folded).
every_output() {
	local f=$1 cmd fmt
	shift
	all=
	for cmd in $("$PERFDUMP" --help | sed -n '/^Commands:/,/^$/p' |
		awk 'NR > 1 && NF && $1 != "help" { print $1 }'); do
		for fmt in "" -j; do
			# export writes its own format (folded: text), no -j
			[ $cmd != export ] || [ -z "$fmt" ] || continue
			# copy: its document of what it wrote (the copy's own
			# bytes: copy-redact.bats)
			# diff takes two: another recording, then this one
			# shellcheck disable=SC2086
			pd "$@" $fmt $cmd $([ $cmd != diff ] || echo testdata/cpu-clock.data) \
				$([ $cmd != export ] || echo --to folded) \
				$([ $cmd != copy ] || echo --force -o "$BATS_TEST_TMPDIR/copy.data") "$f"
			assert_no_signal
			[ "$status" -le 1 ] || { echo "$* $fmt $cmd: exit $status: $stderr"; return 1; }
			all+=$output$'\n'$stderr$'\n'
		done
	done
	pd "$@" records --json-lines "$f"
	assert_no_signal
	all+=$output$'\n'$stderr$'\n'
}

# siphash_token KEY KIND STRING: the token --redact-key KEY gives STRING,
# computed here from the algorithm perfdump(1) names (SipHash-2-4 as its
# paper gives it, checked against the paper's test vector first).
siphash_token() {
	python3 - "$@" <<'EOF'
import sys
M = (1 << 64) - 1
def rotl(x, b): return ((x << b) | (x >> (64 - b))) & M
def sip(k0, k1, m):
    v = [k0 ^ 0x736f6d6570736575, k1 ^ 0x646f72616e646f6d,
         k0 ^ 0x6c7967656e657261, k1 ^ 0x7465646279746573]
    def rnd():
        v[0] = (v[0] + v[1]) & M; v[1] = rotl(v[1], 13); v[1] ^= v[0]; v[0] = rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & M; v[3] = rotl(v[3], 16); v[3] ^= v[2]
        v[0] = (v[0] + v[3]) & M; v[3] = rotl(v[3], 21); v[3] ^= v[0]
        v[2] = (v[2] + v[1]) & M; v[1] = rotl(v[1], 17); v[1] ^= v[2]; v[2] = rotl(v[2], 32)
    b = m + b"\0" * (7 - len(m) % 8) + bytes([len(m) & 0xff])
    for i in range(0, len(b), 8):
        w = int.from_bytes(b[i:i + 8], "little")
        v[3] ^= w; rnd(); rnd(); v[0] ^= w
    v[2] ^= 0xff
    for _ in range(4): rnd()
    return v[0] ^ v[1] ^ v[2] ^ v[3]
key = bytes(range(16))
assert sip(int.from_bytes(key[:8], "little"), int.from_bytes(key[8:], "little"),
           bytes(range(15))) == 0xa129ca6149be45e5
k = sys.argv[1].encode()
k0 = sip(0x7265646163742d6b, 0x6579203120706466, k)
k1 = sip(0x7265646163742d6b, 0x6579203220706466, k)
h = sip(k0, k1, (sys.argv[2] + ":" + sys.argv[3]).encode())
print("<%s-%012x>" % (sys.argv[2], h >> 16))
EOF
}

@test "redact: the fixtures hold the strings --redact removes (the test can fail)" {
	every_output $F
	grep -qE "$SECRETS" <<<"$all"
	for s in redact-test-host alice-test redact-secret user-31337; do
		assert_contains "$all" "$s"
	done
}

@test "redact: no output of any command, text, JSON or JSON lines, names the host, home, file or uid" {
	local f s
	for f in $F $P; do
		every_output $f --redact
		if grep -nE "$SECRETS" <<<"$all"; then
			echo "$f: --redact left the lines above"
			false
		fi
		assert_contains "$all" "<host-1>"
		assert_contains "$all" "<arg-1>"
		assert_contains "$all" "/worker"
		assert_contains "$all" "user-<user-1>.slice"
		for s in $KEPT; do
			assert_contains "$all" "$s" "$f: redacted output"
		done
	done
}

@test "redact: the values, and one token per distinct string across the outputs of a run" {
	pdj --redact -j features $F hostname cmdline build_id
	jq_all "$(feature HOSTNAME).value" '"<host-1>"' \
		"$(feature CMDLINE).argv" '["/usr/bin/perf","record","-e","cpu-clock","--all-cgroups","--no-buildid-cache","-o","redact.data","--","<dir-2>/worker","<arg-1>","<arg-2>","<arg-3>"]' \
		"[$(feature BUILD_ID).build_ids[].filename]" '["[kernel.kallsyms]","<dir-2>/worker","/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2","[vdso]","/usr/lib/x86_64-linux-gnu/libc.so.6"]' \
		.file '"<dir-1>/redact.data"'
	pd --redact records --type mmap2,cgroup,comm $F
	assert_status 0
	assert_contains "$output" "File: <dir-1>/redact.data"
	[ "$(grep -c 'filename=<dir-2>/worker ' <<<"$output")" = 1 ]
	assert_contains "$output" "path=/ "
	assert_contains "$output" "path=/user.slice "
	assert_contains "$output" "path=<cgroup-1>/user-<user-1>.slice "
	assert_contains "$output" "path=<cgroup-2>/session-7.scope "
	assert_contains "$output" "comm=worker "
}

@test "redact: stderr names the input as the output does" {
	pd --redact header "$BATS_TEST_TMPDIR/alice-test/none.data"
	assert_status 3
	assert_contains "$stderr" "perfdump: <dir-1>/none.data: "
	[[ $stderr != *alice-test* ]]
}

@test "redact: --redact=comm replaces comm values too, in records and stats" {
	pd --redact=comm records --type comm,thread_map $F
	assert_status 0
	assert_contains "$output" 'comm=""'
	assert_contains "$output" "comm=<comm-1> "
	assert_contains "$output" "comm=<comm-2> "
	[[ $output != *worker* && $output != *perf-exec* ]]
	pdj --redact=comm -j stats $F
	jq_eq '[.. | objects | .comm? // empty] | unique' '["<comm-1>"]'
}

@test "redact: --redact-key tokens are SipHash-2-4 under the key, the same across runs and files" {
	local want
	want=$(siphash_token k1 host redact-test-host)
	pdj --redact-key k1 -j features $F hostname
	jq_eq "$(feature HOSTNAME).value" "\"$want\""
	pdj --redact-key k1 -j features $P hostname
	jq_eq "$(feature HOSTNAME).value" "\"$want\""
	want=$(siphash_token k1 dir /home/alice-test/bin)
	pd --redact-key=k1 records --type mmap2 $P
	assert_contains "$output" "filename=$want/worker "
	pdj --redact-key k2 -j features $F hostname
	jq_eq "$(feature HOSTNAME).value" "\"$(siphash_token k2 host redact-test-host)\""
}

@test "redact: -x is refused under --redact, and --redact takes only =comm" {
	pd --redact -x header $F
	assert_status 2
	assert_empty "$output" stdout
	assert_contains "$stderr" "-x cannot be used with --redact"
	pd header --redact-key k $F -x
	assert_status 2
	pd --redact=all header $F
	assert_status 2
	assert_contains "$stderr" "--redact: unknown value 'all'"
	# every way out frees the run's redactor (the sanitizer build checks)
	pd --redact --help
	assert_status 0
	assert_no_signal
	pd --redact-key k nosuch
	assert_status 2
	assert_no_signal
	pd --redact=comm
	assert_status 2
	assert_no_signal
}

@test "redact: bytes perfdump does not decode are withheld (unknown features, tracepoint fields)" {
	pdj --redact -j features testdata/synthetic/unknown-features.data
	jq_true '[.features[] | select(has("bytes")) | .bytes] | length > 0 and
		all(.redacted == true and (has("hex") | not))'
	pd --redact features testdata/synthetic/unknown-features.data
	assert_contains "$output" "(not shown: --redact)"
	# a tracepoint's raw bytes (the fields are decoded: see below)
	pdj --redact -j records --type sample --limit 1 testdata/tracepoint.data
	jq_eq '.records[0].raw_data' '{"size":68,"tracepoint":"sched:sched_switch"}'
}

# testdata/tp-secret.data: a uprobe's string argument that is a secret,
# not a path (testdata/README.md)
TP_SECRETS='hunter2xyz|swordfish42'

@test "redact: the tracepoint fixtures hold the strings --redact removes (the test can fail)" {
	every_output testdata/tp-secret.data
	assert_contains "$all" 's="--token=hunter2xyz" print="(7f7fe74b0080) s=\"--token=hunter2xyz\""'
	assert_contains "$all" '"s":"pass=swordfish42"},"print":"(7f7fe74b0080) s=\"pass=swordfish42\""'
	pd records --type sample testdata/tp-uprobe.data
	assert_contains "$output" 'file=/etc/hostname '
}

@test "redact: a tracepoint's string fields are tokens, in fields and in the print output, text and JSON" {
	local f=testdata/tp-secret.data
	every_output $f --redact
	if grep -nE "$TP_SECRETS" <<<"$all"; then
		echo "$f: --redact left the lines above"
		false
	fi
	pd --redact records --type sample $f
	assert_status 0
	[ "$(grep -c 'PERF_RECORD_SAMPLE' <<<"$output")" = 2 ]
	assert_contains "$output" ' s=<str-1> print="(7f7fe74b0080) s=\"<str-1>\""'
	assert_contains "$output" ' s=<str-2> print="(7f7fe74b0080) s=\"<str-2>\""'
	pd --redact records --json-lines --type sample $f
	assert_eq "$(jq -e -c 'select(.fields) | [.fields.s, .print]' <<<"$output" | tr '\n' ' ')" \
		'["<str-1>","(7f7fe74b0080) s=\"<str-1>\""] ["<str-2>","(7f7fe74b0080) s=\"<str-2>\""] '
	pdj --redact -j records --type sample $f
	jq_eq '[.records[] | [.fields.s, .print]]' \
		'[["<str-1>","(7f7fe74b0080) s=\"<str-1>\""],["<str-2>","(7f7fe74b0080) s=\"<str-2>\""]]'
	# a string that looks like a path is a string too
	pdj --redact -j records --type sample testdata/tp-uprobe.data
	jq_eq '[.records[] | [.fields.file, .print]]' \
		'[["<str-1>","(7f312b283fc0) file=\"<str-1>\" flags=0"],["<str-2>","(7f312b283fc0) file=\"<str-2>\" flags=0"]]'
	[[ $output != *hostname* && $output != *os-release* ]]
	# a kernel string (an irq's name) too; __print_symbolic's names stay
	pd --redact records --json-lines --type sample testdata/tp-irq.data
	assert_eq "$(jq -e -c 'select(.event == "irq:irq_handler_entry") | [.fields.name, .print]' <<<"$output")" \
		'["<str-1>","irq=36 name=<str-1>"]'
	assert_eq "$(jq -e -c 'select(.event == "irq:softirq_entry") | .print' <<<"$output" | sort -u | tr '\n' ' ')" \
		'"vec=1 [action=TIMER]" "vec=4 [action=BLOCK]" "vec=7 [action=SCHED]" "vec=9 [action=RCU]" '
}

@test "redact: in the print output exactly the bytes a %s printed of a string field become its token" {
	# name=%-6s| keeps its padding; the same field twice, one token;
	# an empty string stays empty; numbers, literals and flags stay
	pdj --redact -j records --type sample --event pdtest:print testdata/synthetic/tp-le.data
	jq_eq '[.records[] | [.fields.name, .fields.msg, .print]]' \
		'[["<str-1>","<str-2>","state=R v=-2 w=65534 h=0 l=0 big=18446744073709551615 neg=65534 name=<str-1>  | msg=<str-2> sym=0x0 pct=100% tab=\t. r=65534 x=0   |z=ffffffffffffffff s=<str-1>| n=-0001 m=-1   |"],["<str-3>","","state=A|B+ v=300 w=300 h=7 l=7 big=1 neg=300 name=<str-3>| msg= sym=seven pct=100% tab=\t. r=  300 x=7   |z=00000001 s=<str-3>| n=00001 m=1    |"],["","<str-4>","state=R+ v=-32768 w=32768 h=c l=c big=0 neg=32768 name=      | msg=<str-4> sym=0xc pct=100% tab=\t. r=32768 x=c   |z=00000000 s=   | n=00000 m=0    |"]]'
}

@test "redact: a print whose bytes are not all known cannot be taken apart: withheld, never in clear" {
	# a uprobe's string argument (__get_str): its span is the token
	pd --redact records --json-lines --type sample testdata/tp-secret.data
	assert_status 0
	assert_eq "$(jq -e -c 'select(.fields) | [.fields.s, .print]' <<<"$output" | tr '\n' ' ')" \
		'["<str-1>","(7f7fe74b0080) s=\"<str-1>\""] ["<str-2>","(7f7fe74b0080) s=\"<str-2>\""] '
	# perf's raw form of a print fmt that does not parse: string fields
	# are spans too
	pd --redact records --json-lines --type sample --event pdtest:print tests/fuzz/regress/tp-print-string-arrow.data
	assert_eq "$(jq -e -c 'select(.fields) | .print' <<<"$output" | head -1)" \
		'"[FAILED TO PARSE] state=0 v16=-2 name=<str-1> msg=<str-2> big=18446744073709551615"'
	# a field's bytes in hex (__print_hex) are not a span: withheld
	pd --redact records --json-lines --type sample --event pdtest:hexdump testdata/synthetic/tp-bad.data
	assert_eq "$(jq -e -c 'select(.fields) | .print' <<<"$output" | head -1)" '"<redacted>"'
	# pdtest:fields prints an array (__print_array): its numbers are no span
	pd --redact records --json-lines --type sample --event pdtest:fields testdata/synthetic/tp-le.data
	assert_eq "$(jq -e -c 'select(.fields) | [.fields.name, .print]' <<<"$output" | tr '\n' ' ')" \
		'["<str-1>","<redacted>"] ["","<redacted>"] ["<str-2>","<redacted>"] '
	# a print of numbers only is shown (syscalls:sys_enter_openat's: it
	# casts its args)
	pdj --redact -j records --type sample --limit 1 testdata/tp-openat.data
	jq_eq '.records[0].print' '"dfd: 0xffffff9c, filename: 0x7f2cc333b0b1, flags: 0x00080000, mode: 0x00000000"'
}

@test "redact: tracepoint comm fields follow --redact=comm, in fields and print, with the COMM records' tokens" {
	pd --redact records --json-lines --type sample --limit 2 testdata/tracepoint.data
	assert_eq "$(jq -e -c 'select(.fields) | [.fields.prev_comm, .fields.next_comm, .print]' <<<"$output" | tr '\n' ' ')" \
		'["perf","migration/0","prev_comm=perf prev_pid=3151 prev_prio=120 prev_state=D ==> next_comm=migration/0 next_pid=18 next_prio=0"] ["migration/0","swapper/0","prev_comm=migration/0 prev_pid=18 prev_prio=0 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120"] '
	pd --redact=comm records --type sample --limit 1 testdata/tracepoint.data
	assert_contains "$output" ' prev_comm=<comm-1> prev_pid=3151 prev_prio=120 prev_state=2 next_comm=<comm-2> next_pid=18 next_prio=0 print="prev_comm=<comm-1> prev_pid=3151 prev_prio=120 prev_state=D ==> next_comm=<comm-2> next_pid=18 next_prio=0"'
	# one run: the token of perf's comm (pid 3151) and migration/0's
	# (pid 18) in their COMM records and in the first sched_switch
	pd --redact=comm records --json-lines testdata/tracepoint.data
	assert_eq "$(jq -e -s -c '[(map(select(.type == 3 and .pid == 3151)) | first | .comm),
		(map(select(.type == 3 and .pid == 18)) | first | .comm)] as $c |
		map(select(.fields)) | first | [.fields.prev_comm, .fields.next_comm] == $c and
		(.print | contains("prev_comm=" + $c[0] + " ") and contains("next_comm=" + $c[1] + " ")) and
		($c | all(startswith("<comm-")))' <<<"$output")" true
}

@test "redact: system paths are kept; others lose their directory, not their name" {
	pdj --redact -j buildids testdata/buildid.data
	jq_eq '[.buildids[].filename]' '["[kernel.kallsyms]","/usr/bin/dd","/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2","[vdso]","/usr/lib/x86_64-linux-gnu/libc.so.6"]'
	pd --redact records --type mmap2 testdata/synthetic/full-le.data
	[[ $output != *"/home/"* ]]
}

# A formatter that writes a path, a comm or a host with emit_str() instead
# of emit_private() would bypass --redact: the keys say which ones.
@test "redact: formatters write paths, comms and hosts through emit_private" {
	run grep -nE 'emit_(str|pstr|bytes_str|strf)\([^,]+, *"[a-z_]*(path|file|comm|host|cmdline|argv|dir|dso|cwd|cgroup|user)[a-z_]*", *[^" ]' \
		src/fmt/*.c src/*.c
	[ "$status" -eq 1 ] || { echo "these bypass --redact: $output"; false; }
}

# The path rule, through the input's own name in the open error message.
@test "redact: which directories are system ones (kept) and which are not" {
	local p want
	while read -r p want; do
		pd --redact header "$p"
		assert_status 3
		assert_contains "$stderr" "perfdump: $want: " "stderr for $p"
	done <<-'EOF'
		/usr/lib/none.data /usr/lib/none.data
		/lib64/none.data /lib64/none.data
		/opt/tool/none.data /opt/tool/none.data
		none.data none.data
		/none.data /none.data
		/usr/../home/alice/none.data <dir-1>/none.data
		/opt/home/alice/none.data <dir-1>/none.data
		/usr//x/none.data <dir-1>/none.data
		/dev/shm/alice/none.data <dir-1>/none.data
		/libalice/none.data <dir-1>/none.data
		/tmp/alice/none.data <dir-1>/none.data
		x/none.data <dir-1>/none.data
		[vdso]/none.data [vdso]/none.data
	EOF
}

@test "redact: CMDLINE keeps perf's subcommand, options and their values; the workload's arguments become tokens" {
	pd --redact features testdata/callgraph.data cmdline
	assert_status 0
	assert_contains "$output" $'\n    argv:                   /usr/bin/perf record -e cpu-clock -g -o <dir-1>/callgraph.data -- dd <arg-1> <arg-2> <arg-3> <arg-4>\n'
	pdj --redact -j summary testdata/allbits.data
	jq_all '.summary.cmdline[:25] | join(" ")' \
		'"/usr/bin/perf record -e {cpu-clock,task-clock}:S --call-graph dwarf,512 -d --sample-cpu -T --phys-data --data-page-size --code-page-size --all-cgroups -W --transaction --intr-regs --running-time -R -P --sample-identifier --switch-events --namespaces -c 1000000 -o"' \
		'.summary.cmdline[25:]' '["<dir-1>/allbits.data","--","dd","<arg-1>","<arg-2>","<arg-3>","<arg-4>"]'
	# the rules, one command line each (tools/perf/builtin-record.c,
	# builtin-stat.c: which options take the next argument)
	local c="$BATS_TEST_TMPDIR/c.data" line
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086
		python3 scripts/gen-hostile-strings.py "$c" --cmdline $args
		pd --redact features "$c" cmdline
		line=$(sed -n 's/^    argv: *//p' <<<"$output")
		assert_eq "$line" "$want" "$args"
	done <<'CASES'
/usr/bin/perf record -F99 -ag -o/home/bob/out.data --output=/srv/x/y.data -e cpu/event=0x3c/ ./app --secret=1 x|/usr/bin/perf record -F99 -ag -o<dir-2>/out.data --output=<dir-3>/y.data -e cpu/event=0x3c/ <dir-4>/app <arg-1> <arg-2>
perf sched record sleep 10|perf sched record sleep <arg-1>
/usr/local/bin/perf stat record -e cycles -I 1000 -x, -- /home/bob/bin/app hunter2|/usr/local/bin/perf stat record -e cycles -I 1000 -x, -- <dir-2>/app <arg-1>
perf stat record -i -e cycles -- /home/bob/app hunter2|perf stat record -i -e cycles -- <dir-2>/app <arg-1>
perf record --vmlinux /srv/k/vmlinux --call-graph dwarf -p 123|perf record --vmlinux <dir-2>/vmlinux --call-graph dwarf -p 123
perf record --new-option=/srv/k/f -c 1 app hunter2|perf record --new-option=<dir-2>/f -c 1 app <arg-1>
mytool run -e cycles app|mytool <arg-1> <arg-2> <arg-3> <arg-4>
CASES
}
