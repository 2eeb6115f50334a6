#!/usr/bin/env bash
# Re-create the tracepoint fixtures testdata/tp-*.data and perf's view of
# every sample of them (and of testdata/tracepoint.data) in
# testdata/perf-ref/:
#   NAME.trace.txt    perf script -F cpu,time,event,trace --ns
#                     (the print_fmt output of every sample)
#   NAME.fields.jsonl perf script -s scripts/perf-tp-fields.py
#                     (every field of every sample, as perf reads it)
# tests/tracepoint.bats compares perfdump with both.  tp-ksym.data's
# kernel functions (%ps, %pS) come from testdata/tp-ksym.kallsyms, the
# lines of this machine's /proc/kallsyms its samples need, which perf
# script is given too (--kallsyms; no build-id cache): the script checks
# that perf prints the same with the whole /proc/kallsyms.
#
# Run as root from the project root:   scripts/record-tp-fixtures.sh
# (REF_ONLY=1: only the reference outputs, from the fixtures as they are;
# ONLY=NAME: only testdata/NAME and its reference outputs.)
# Needs perf, tracefs and uprobe events (perf probe -x); the uprobe is
# removed afterwards.  Re-recording changes the bytes: update the goldens.
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "record-tp-fixtures.sh: must run as root" >&2; exit 1; }

TD=testdata
REF=$TD/perf-ref
MAX=262144
LIBC=/lib/x86_64-linux-gnu/libc.so.6

want() { # NAME: is testdata/NAME to be made (ONLY)?
	[ -z "${ONLY:-}" ] || [ "$ONLY" = "$1" ]
}

rec() { # NAME perf-record-args...: testdata/NAME, checked against MAX
	local name=$1
	shift
	rm -f "$TD/$name" "$TD/$name.old"
	perf record -q "$@" >/dev/null 2>"$REF/$name.record.log" || true
	chmod 644 "$TD/$name"
	local size
	size=$(stat -c %s "$TD/$name")
	[ "$size" -le $MAX ] || { echo "$name: $size bytes, over $MAX" >&2; exit 1; }
}

if [ -z "${REF_ONLY:-}" ]; then
	# sched_switch + sched_wakeup of a pipe ping-pong between two tasks
	want tp-sched.data &&
		rec tp-sched.data -e sched:sched_switch,sched:sched_wakeup \
			-o $TD/tp-sched.data -- perf bench sched pipe -l 60
	# syscalls:sys_enter_openat (on this kernel filename is a pointer)
	want tp-openat.data &&
		rec tp-openat.data -e syscalls:sys_enter_openat \
			-o $TD/tp-openat.data -- cat /etc/hostname /etc/os-release
	# softirqs (__print_symbolic) and hard irqs (a __data_loc string)
	want tp-irq.data &&
		rec tp-irq.data -e irq:softirq_entry,irq:irq_handler_entry -a \
			-o $TD/tp-irq.data -- sleep 0.05
	# a uprobe with arguments (this kernel has no kprobe events): a
	# __data_loc string from user memory and an s32
	if want tp-uprobe.data; then
		perf probe -q -d 'probe_libc:pd_open' 2>/dev/null || true
		perf probe -q -x $LIBC -a 'pd_open=__libc_open64 file=+0(%di):string flags=%si:s32'
		rec tp-uprobe.data -e probe_libc:pd_open \
			-o $TD/tp-uprobe.data -- cat /etc/hostname /etc/os-release
		perf probe -q -d 'probe_libc:pd_open'
	fi
	# a uprobe string argument that is no path but a secret, for
	# tests/redact.bats: coreutils' echo writes each argument with
	# fputs_unlocked (gnulib's unlocked-io), one sample an argument
	if want tp-secret.data; then
		perf probe -q -d 'probe_libc:pd_arg' 2>/dev/null || true
		perf probe -q -x $LIBC -a 'pd_arg=fputs_unlocked s=+0(%di):string'
		rec tp-secret.data -e probe_libc:pd_arg -o $TD/tp-secret.data -- \
			/bin/echo --token=hunter2xyz pass=swordfish42
		perf probe -q -d 'probe_libc:pd_arg'
	fi
	# kernel functions in prints: hrtimer_start's function=%ps and
	# kmalloc's call_site=%pS (its gfp_flags a __print_flags list of
	# constant expressions); -N: the build-id cache is left alone,
	# --synth=no: no process's maps (the kernel's MMAP is still written),
	# the filter leaves out the page-sized buffers perf_event_mmap takes
	# for each mmap perf records (most of the samples otherwise)
	if want tp-ksym.data; then
		rec tp-ksym.data -N --synth=no -e timer:hrtimer_start \
			-e kmem:kmalloc --filter 'bytes_req != 4096' -a \
			-o $TD/tp-ksym.data -- sleep 0.02
		./perfdump records --type sample --json-lines $TD/tp-ksym.data |
			jq -r '.fields | .function // .call_site // empty' |
			python3 scripts/gen-profiledata.py kallsyms /proc/kallsyms $TD/tp-ksym.kallsyms
	fi
	# pipe mode: the formats in PERF_RECORD_HEADER_TRACING_DATA
	if want tp-pipe.data; then
		rm -f $TD/tp-pipe.data
		# (the workload's output kept out of the stream)
		perf record -q -e sched:sched_switch,sched:sched_wakeup -o - -- \
			sh -c 'perf bench sched pipe -l 30 >/dev/null' \
			>$TD/tp-pipe.data 2>"$REF/tp-pipe.data.record.log"
		chmod 644 $TD/tp-pipe.data
		[ "$(stat -c %s $TD/tp-pipe.data)" -le $MAX ]
	fi
fi

EMPTY=$(mktemp -d)
trap 'rm -rf "$EMPTY"' EXIT
for f in tracepoint.data tp-sched.data tp-openat.data tp-irq.data tp-uprobe.data tp-secret.data tp-pipe.data tp-ksym.data; do
	want "$f" || continue
	in=(-i "$TD/$f")
	# pipe mode: perf reads it from standard input
	[ "$f" = tp-pipe.data ] && in=(-i -)
	# the kernel's functions from the fixture's kallsyms alone
	[ "$f" = tp-ksym.data ] && in+=(--kallsyms $TD/tp-ksym.kallsyms)
	PERF_BUILDID_DIR=$EMPTY perf script "${in[@]}" -F cpu,time,event,trace --ns <"$TD/$f" \
		>"$REF/$f.trace.txt" 2>/dev/null
	perf script "${in[@]}" -s scripts/perf-tp-fields.py <"$TD/$f" \
		>"$REF/$f.fields.jsonl" 2>/dev/null
	echo "$f: $(wc -l <"$REF/$f.trace.txt") samples"
done
# the cut-down kallsyms prints what the whole one does
if want tp-ksym.data; then
	PERF_BUILDID_DIR=$EMPTY perf script -i $TD/tp-ksym.data --kallsyms /proc/kallsyms \
		-F cpu,time,event,trace --ns 2>/dev/null | diff -u - $REF/tp-ksym.data.trace.txt
	if grep -q '=0x[0-9a-f]* expires\|call_site=0x' $REF/tp-ksym.data.trace.txt; then
		echo "tp-ksym.data: a %ps left in hex" >&2
		exit 1
	fi
	# %pF, %pf and %pB (no format of this kernel has them): the fixture
	# with hrtimer_start's "function=%ps" made each, as perf prints its
	# first hrtimer_start ("CONV PRINT"; tests/tracepoint.bats patches
	# the same bytes)
	for c in pF pf pB; do
		python3 -c 'import sys; d = open(sys.argv[1], "rb").read()
open(sys.argv[2], "wb").write(d.replace(b"function=%ps", b"function=%" + sys.argv[3].encode()))' \
			$TD/tp-ksym.data "$EMPTY/k.data" $c
		printf '%s ' $c
		PERF_BUILDID_DIR=$EMPTY perf script -i "$EMPTY/k.data" --kallsyms $TD/tp-ksym.kallsyms \
			-F trace 2>/dev/null | sed -n 's/^ *\(hrtimer=\)/\1/p' | head -1
	done >$REF/tp-ksym.data.pconv.txt
fi
