#!/usr/bin/env bats
# export (issue 26): --to folded, equal to FlameGraph's stackcollapse-perf.pl
# of perf script's output (tests/collapse_perf.py, its rules), the record
# filters, the event folded counts, and -o's refusals and safety.

load helpers
# bats file_tags=asan

load symfs

P=testdata/profile
KSYMS=$P/kallsyms
NOBID_KSYMS=$P/nobid-kallsyms

setup() {
	symfs_setup
	cp testdata/profile/hot_cxx "$T/s$RUN/hot_cxx"
}

# perf_folded FILE KALLSYMS COLLAPSE-OPTS [PERF-OPTS]: perf script's
# output of FILE (with the pid: -F +pid), folded by collapse_perf.py.
# perf 6.1 demangles two of cxx.data's names as perfdump does not
# (symbols.bats): they are given perfdump's names first.
perf_folded() {
	local f=$1 k=$2 c=$3
	shift 3
	perf script -i "$f" --symfs "$T/s" --kallsyms "$k" -F +pid "$@" 2>/dev/null |
		sed -e 's/ mycrate::foo::bar+/ _RNvNtCs1234_7mycrate3foo3bar+/' \
			-e 's/ std::io::stdio::_print+/ std::io::stdio::_print::h0123456789abcdef+/' |
		python3 tests/collapse_perf.py $c
}

# our_folded FILE KALLSYMS OPTS...: the export's, into $output
our_folded() {
	local f=$1 k=$2
	shift 2
	pd export --to folded --symfs "$T/s" --kallsyms "$k" "$@" "$f"
	assert_status 0
}

# The fixtures with symbols: frame pointers (callchain, cxx, inl-fp), DWARF
# (inl-dwarf, inl-cxx, nolibc-dwarf: perf shows the inlined calls of
# unwound frames), no callchain with kernel samples (profile, profile-sh),
# pipe mode (nobid-pipe), -z (nobid-z)
FIXTURES="callchain cxx inl-fp inl-dwarf inl-cxx nolibc-dwarf profile profile-sh nobid-pipe nobid-z"

@test "export --to folded: each fixture as stackcollapse-perf.pl folds perf script's output, with --folded-pid, --folded-tid, --kernel-suffix" {
	local name k
	for name in $FIXTURES; do
		k=$KSYMS
		[[ $name != nobid-* ]] || k=$NOBID_KSYMS
		our_folded $P/$name.data $k
		assert_eq "$output" "$(perf_folded $P/$name.data $k "")"
		[ -n "$output" ]
		our_folded $P/$name.data $k --folded-pid --kernel-suffix
		assert_eq "$output" "$(perf_folded $P/$name.data $k "--pid --kernel")"
		our_folded $P/$name.data $k --folded-tid
		assert_eq "$output" "$(perf_folded $P/$name.data $k --tid)"
	done
}

@test "export --to folded: a sample whose callchain is empty (nr 0, nothing unwound) is its comm alone, as perf script shows it" {
	# regs.data: 28 samples with PERF_SAMPLE_CALLCHAIN and callchain_nr
	# 0, no user stack: machine.c thread__resolve_callchain leaves them
	# no frame, collapse_perf.py folds them to the comm (not the ip)
	local want
	want=$(perf script -i testdata/regs.data --kallsyms $KSYMS 2>/dev/null |
		python3 tests/collapse_perf.py)
	pd export --to folded --kallsyms $KSYMS testdata/regs.data
	assert_status 0
	assert_eq "$output" "$want"
	assert_contains "$output" "dd 28
dd;__x86_indirect_thunk_rax 4"
	pd export --to folded --jobs 2 --kallsyms $KSYMS testdata/regs.data
	assert_eq "$output" "$want"
}

@test "export --to folded: lines and names as the script makes them" {
	our_folded $P/profile.data $KSYMS --kernel-suffix
	# one-frame stacks (no callchain); kernel frames _[k]; sorted by bytes
	assert_eq "$output" "hot;[ld-linux-x86-64.so.2] 1
hot;__get_user_8_[k] 2
hot;_raw_spin_unlock_irqrestore_[k] 4
hot;exit_creds_[k] 1
hot;finish_task_switch.isra.0_[k] 3
hot;irqentry_exit_to_user_mode_[k] 2
hot;pgd_free_[k] 1
hot;rcu_cblist_dequeue_[k] 1
hot;rcu_nocb_unlock_irqrestore.part.0_[k] 1
hot;thread_stack_free_rcu_[k] 1
hot;vma_interval_tree_insert_[k] 1
hot;work_a 808
hot;work_b 261"
	# C++: parameters cut ("main::{lambda"), "(anonymous namespace)::spin"
	# left out as the script leaves out a name starting with '('
	our_folded $P/cxx.data $KSYMS --folded-tid
	assert_contains "$output" "hot_cxx-23293/23293;[libc.so.6];main::{lambda 16"
	assert_contains "$output" "hot_cxx-23293/23293;[libc.so.6];main;geo::Walker::step 31"
	assert_contains "$output" "hot_cxx-23293/23293;[libc.so.6];main;geo::Walker::step;geo::Vec::operator+ 16"
	# a pipe-mode recording on standard input, as it arrives
	our_folded $P/nobid-pipe.data $NOBID_KSYMS
	"$PERFDUMP" export --to folded --symfs "$T/s" --kallsyms $NOBID_KSYMS - <$P/nobid-pipe.data >"$T/stdin.folded" 2>/dev/null
	assert_eq "$(cat "$T/stdin.folded")" "$output"
	# --period: the periods' sum (cpu-clock's 250000 a sample)
	our_folded $P/profile.data $KSYMS --period
	assert_contains "$output" "hot;work_a 202000000
hot;work_b 65250000"
}

@test "export --to folded: inlined calls of unwound frames as perf script shows them; --inline every frame's, --no-inline none" {
	local name
	for name in inl-dwarf nolibc-dwarf inl-cxx; do
		our_folded $P/$name.data $KSYMS --no-inline
		assert_eq "$output" "$(perf_folded $P/$name.data $KSYMS "" --no-inline)"
		[[ $output != *mix* ]]
		our_folded $P/$name.data $KSYMS --inline
		assert_eq "$output" "$(perf_folded $P/$name.data $KSYMS "")"
	done
	# frame pointers: perf shows none; --inline shows mix where loop_a and
	# loop_b inlined it, the same samples
	our_folded $P/inl-fp.data $KSYMS
	assert_eq "$output" "inl;[libc.so.6];loop_a 26
inl;[libc.so.6];loop_b 8"
	our_folded $P/inl-fp.data $KSYMS --inline
	assert_contains "$output" "inl;[libc.so.6];loop_a;mix "
	assert_eq "$(sed 's/;mix / /' <<<"$output" | awk '{ n[$1] += $2 } END { for (k in n) print k, n[k] }' | sort)" \
		"inl;[libc.so.6];loop_a 26
inl;[libc.so.6];loop_b 8"
}

@test "export --to folded: a DSO without symbols is [its base name], warned about once; no map [unknown]" {
	pd export --to folded --symfs "$T/empty" $P/inl-fp.data
	assert_status 0
	assert_eq "$output" "inl;[libc.so.6];[inl] 34"
	assert_eq "$stderr" "perfdump: $P/inl-fp.data: warning: /tmp/perfdump-profile/inl: missing, no such file: its frames have no symbol
perfdump: $P/inl-fp.data: warning: /usr/lib/x86_64-linux-gnu/libc.so.6: missing, no such file: its frames have no symbol"
	# the kernel without its symbols: the script's [[kernel.kallsyms]]
	pd export --to folded --kernel-suffix --symfs "$T/s" $P/profile.data
	assert_contains "$output" "hot;[[kernel.kallsyms]]_[k] 17"
}

@test "export --to folded: the filters of records" {
	our_folded $P/profile-sh.data $KSYMS --pid 3428
	assert_eq "$(awk '{ s += $NF } END { print s }' <<<"$output")" \
		"$("$PERFDUMP" records --type sample --pid 3428 $P/profile-sh.data | grep -c SAMPLE)"
	[[ $output != *cat* ]]
	our_folded $P/profile.data $KSYMS --time 1952.504839,1952.505336
	assert_eq "$output" "hot;vma_interval_tree_insert 1
hot;work_a 2"
	our_folded $P/profile.data $KSYMS --cpu 99
	assert_empty "$output"
	pd export --to folded --event cycles $P/profile.data
	assert_status 2
	assert_contains "$stderr" "perfdump: export: --event 'cycles' names no event of the recording; its events are cpu-clock (attr0)"
	pd export --to folded --pid x $P/profile.data
	assert_status 2
	assert_contains "$stderr" "export: --pid: 'x' is not a process id (a number, or -1)"
}

@test "export --to folded: the first sample's event, others said; --event chooses" {
	# tail-mixed.data: cpu-clock 433 samples, task-clock 432; perf script
	# delivers a task-clock sample first (stackcollapse-perf.pl's choice)
	pd export --to folded --kallsyms /dev/null testdata/tail-mixed.data
	assert_status 0
	assert_eq "$(awk '{ s += $NF } END { print s }' <<<"$output")" 432
	assert_contains "$stderr" "perfdump: export: 1 more event has samples; folded counts the first sample's, task-clock/no-overwrite/, alone (--event NAME chooses one)"
	pd export --to folded --kallsyms /dev/null --event cpu-clock testdata/tail-mixed.data
	assert_status 0
	assert_eq "$(awk '{ s += $NF } END { print s }' <<<"$output")" 433
	assert_empty "$stderr"
}

@test "export: no samples: an empty export, exit 0; -o makes the empty file" {
	pd export --to folded testdata/stat.data
	assert_status 0
	assert_empty "$output"
	pd export --to folded -o "$T/out.folded" testdata/stat.data
	assert_status 0
	[ -f "$T/out.folded" ] && [ ! -s "$T/out.folded" ]
}

@test "export -o: the file written, through a temporary file renamed at the end" {
	printf 'old\n' >"$T/out"
	chmod 640 "$T/out"
	ln -s out "$T/link"
	pd export --to folded --symfs "$T/s" -o "$T/link" $P/inl-fp.data
	assert_status 0
	assert_empty "$output"
	assert_eq "$(cat "$T/out")" "inl;[libc.so.6];loop_a 26
inl;[libc.so.6];loop_b 8"
	# the link written through, the mode kept, no temporary file left
	[ -L "$T/link" ]
	assert_eq "$(stat -c %a "$T/out")" 640
	assert_eq "$(ls -A "$T" | grep -c perfdump)" 0
}

@test "export -o: never the input, by its name, another path, a hard link, a symlink or standard input (exit 2)" {
	local f=$T/in.data out
	cp $P/inl-fp.data "$f"
	ln "$f" "$T/hard.data"
	ln -s in.data "$T/sym.data"
	mkdir "$T/d"
	for out in "$f" "$T/./in.data" "$T/d/../in.data" "$T/hard.data" "$T/sym.data"; do
		pd export --to folded -o "$out" "$f"
		assert_status 2
		assert_contains "$stderr" "perfdump: export: '$out' is the input '$f': an output never replaces its input"
		cmp -s "$f" $P/inl-fp.data
	done
	pd export --to folded -o "$f" "$T/sym.data"
	assert_status 2
	"$PERFDUMP" export --to folded -o "$f" - <"$f" 2>"$T/err" && status=0 || status=$?
	assert_eq "$status" 2
	assert_eq "$(cat "$T/err")" "perfdump: export: '$f' is the input (standard input): an output never replaces its input"
	cmp -s "$f" $P/inl-fp.data
}

@test "export -o: a directory that cannot be written, a failed write, an input that cannot be read: OUT as it was, no half file" {
	: >"$T/file"
	pd export --to folded -o "$T/file/out" $P/inl-fp.data
	assert_status 3
	assert_eq "$stderr" "perfdump: export: cannot create a file in '$T/file': Not a directory"
	pd export --to folded -o /proc/perfdump-out $P/inl-fp.data
	assert_status 3
	assert_contains "$stderr" "perfdump: export: cannot create a file in '/proc':"
	pd export --to folded -o "$T" $P/inl-fp.data
	assert_status 2
	assert_eq "$stderr" "perfdump: export: '$T' is not a regular file"
	# the write fails (file size limit 0): the old OUT stays
	printf 'old\n' >"$T/out"
	# (stderr a pipe: the limit holds for files)
	output=$( (trap '' XFSZ; ulimit -f 0; exec "$PERFDUMP" export --to folded -o "$T/out" --symfs "$T/s" $P/inl-fp.data) 2>&1) && status=0 || status=$?
	assert_eq "$status" 3
	assert_eq "$output" "perfdump: export: cannot write '$T/out': File too large"
	assert_eq "$(cat "$T/out")" old
	# inputs that cannot be read or are not recordings: nothing written
	pd export --to folded -o "$T/out" "$T/missing.data"
	assert_status 3
	printf 'hello\n' >"$T/text"
	pd export --to folded -o "$T/out" "$T/text"
	assert_status 1
	assert_eq "$(cat "$T/out")" old
	assert_eq "$(ls -A "$T" | grep -c perfdump)" 0
}

@test "export: usage errors" {
	pd export $P/inl-fp.data
	assert_status 2
	assert_contains "$stderr" "perfdump: export: give the format: --to folded"
	pd export --to fold $P/inl-fp.data
	assert_status 0
	pd export --to svg $P/inl-fp.data
	assert_status 2
	assert_contains "$stderr" "export: --to: unknown format 'svg'"
	pd export --to folded -j $P/inl-fp.data
	assert_status 2
	pd export --to folded $P/inl-fp.data $P/inl-dwarf.data
	assert_status 2
	assert_contains "$stderr" "perfdump: export: one FILE at a time"
	pd export --to folded --vmlinux a --kallsyms b $P/inl-fp.data
	assert_status 2
}
