#!/usr/bin/env bats
# LeakSanitizer over the paths that `make mutate` and `make fuzz` do not
# reach (tests/run.sh lists them): standard input, a directory, read-ahead
# on a helper thread, compressed files, the records filters, output errors,
# features NAME and --list, build-id resolution, profile's symfs, option
# errors.  tests/run.sh runs the other bats files under the sanitizers
# without leak checks: each check scans the runtime's 9 MiB of zeroed
# globals, a page fault a page, and took a run of header from 25 ms to
# 57 ms, more than half of the sanitizer build's share of `make check`.
# Here every run has them.  With the normal build there is nothing to
# check: the tests are skipped.

load helpers
# bats file_tags=asan

setup() {
	sanitized || skip "needs the sanitizer build (make SANITIZE=1)"
}

# leak_free STATUS ARGS... [< IN]: perfdump ARGS with leak checks on exits
# STATUS, and its standard error names no leak nor any other sanitizer
# report.  Standard output is not checked: the other files do that.
leak_free() {
	local want=$1 err=$BATS_TEST_TMPDIR/leak-err st=0
	shift
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$PERFDUMP" "$@" >/dev/null 2>"$err" || st=$?
	if grep -q 'Sanitizer' "$err" || [ "$st" != "$want" ]; then
		echo "perfdump $*: exit $st (expected $want)"
		head -c 3000 "$err"
		return 1
	fi
}

@test "leaks: standard input, file and pipe mode, both byte orders" {
	leak_free 0 records - <testdata/pipe.data
	leak_free 0 -j stats - <testdata/tp-pipe.data
	leak_free 0 -j records --order time - <testdata/group-s-pipe.data
	leak_free 0 summary - <testdata/synthetic/pipe-be.data
	leak_free 0 features - <testdata/redact-pipe.data
	leak_free 0 -j check - <testdata/cpu-clock.data
	leak_free 0 buildids --hits - <testdata/buildid-mmap.data
}

@test "leaks: a directory (perf record --threads), and several files" {
	local c
	for c in header features attrs records stats check buildids summary; do
		leak_free 0 -j "$c" testdata/threads.data
	done
	leak_free 0 records --order time testdata/threads.data
	leak_free 0 -j stats testdata/cpu-clock.data testdata/threads.data testdata/pipe.data
}

@test "leaks: inputs over 64 KiB, read ahead on a helper thread" {
	leak_free 0 -j records testdata/allbits.data
	leak_free 0 -j stats testdata/tp-irq.data
	leak_free 0 check testdata/irq-syscalls.data
}

@test "leaks: zstd, xz and gzip files" {
	local d=$BATS_TEST_TMPDIR
	zstd -q -c testdata/zstd.data >"$d/a.zst"
	xz -c testdata/tracepoint.data >"$d/b.xz"
	gzip -c testdata/pipe.data >"$d/c.gz"
	leak_free 0 -j records "$d/a.zst"
	leak_free 0 -j stats "$d/b.xz"
	leak_free 0 records "$d/c.gz"
	leak_free 0 -j check "$d/a.zst"
}

@test "leaks: the records filters and time order" {
	local f=testdata/cpu-clock.data
	leak_free 0 records --pid 1 --tid 1 "$f"
	leak_free 0 records --cpu 0 --type sample,comm "$f"
	leak_free 0 -j records --time 0.5,99999999.5 "$f"
	leak_free 0 records --skip 3 --limit 5 "$f"
	leak_free 0 records --event cpu-clock --order time testdata/group.data
	leak_free 0 --hex records --at 1 "$f"
	leak_free 0 -j records --json-lines --order time testdata/tracepoint.data
	leak_free 2 records --time 'not a time' "$f"
	leak_free 2 records --type no-such-type "$f"
}

@test "leaks: features by name and --list, help, and option errors" {
	leak_free 0 features --list testdata/cpu-clock.data
	leak_free 0 -j features cmdline build_id testdata/buildid.data
	leak_free 0 help records
	leak_free 0 --help
	leak_free 2 --no-such-option testdata/cpu-clock.data
	leak_free 2 records --limit x testdata/cpu-clock.data
	leak_free 3 header "$BATS_TEST_TMPDIR/no-such-file"
}

@test "leaks: output errors (a full device) end the run cleanly" {
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$PERFDUMP" -j records testdata/allbits.data \
		>/dev/full 2>"$BATS_TEST_TMPDIR/err" && return 1
	run ! grep -q Sanitizer "$BATS_TEST_TMPDIR/err"
}

@test "leaks: build-id resolution, redaction, profile with symfs and kallsyms, tracepoints" {
	leak_free 0 -j buildids --debug-dir "$BATS_TEST_TMPDIR" --symfs / --missing testdata/buildid.data
	leak_free 0 -j --redact=comm features testdata/redact.data
	leak_free 0 --redact records testdata/redact-pipe.data
	leak_free 0 -j profile --symfs / --kallsyms testdata/profile/kallsyms testdata/profile/profile.data
	leak_free 0 profile --by dso testdata/profile/profile-sh.data
	leak_free 0 -j records testdata/tp-sched.data testdata/tp-openat.data
	leak_free 0 records --symbols --kallsyms testdata/profile/kallsyms testdata/profile/profile.data
	leak_free 0 -j records --symbols --type sample testdata/profile/callchain.data
}

@test "leaks: DWARF unwinding of user stacks (libdw sessions kept per process)" {
	local s=$BATS_TEST_TMPDIR/s
	mkdir -p "$s/tmp/perfdump-profile"
	cp testdata/profile/inl-nolibc "$s/tmp/perfdump-profile/"
	leak_free 0 -j records --symbols --symfs "$s" testdata/profile/nolibc-dwarf.data
	leak_free 0 records --symbols --symfs "$s" testdata/profile/nolibc-cut.data
	leak_free 0 records --symbols testdata/profile/inl-dwarf.data
}
