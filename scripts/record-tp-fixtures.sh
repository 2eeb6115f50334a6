#!/usr/bin/env bash
# Re-create the tracepoint fixtures testdata/tp-*.data and perf's view of
# every sample of them (and of testdata/tracepoint.data) in
# testdata/perf-ref/:
#   NAME.trace.txt    perf script -F cpu,time,event,trace --ns
#                     (the print_fmt output of every sample)
#   NAME.fields.jsonl perf script -s scripts/perf-tp-fields.py
#                     (every field of every sample, as perf reads it)
# tests/tracepoint.bats compares perfdump with both.
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

for f in tracepoint.data tp-sched.data tp-openat.data tp-irq.data tp-uprobe.data tp-secret.data tp-pipe.data; do
	want "$f" || continue
	in=(-i "$TD/$f")
	# pipe mode: perf reads it from standard input
	[ "$f" = tp-pipe.data ] && in=(-i -)
	perf script "${in[@]}" -F cpu,time,event,trace --ns <"$TD/$f" \
		>"$REF/$f.trace.txt" 2>/dev/null
	perf script "${in[@]}" -s scripts/perf-tp-fields.py <"$TD/$f" \
		>"$REF/$f.fields.jsonl" 2>/dev/null
	echo "$f: $(wc -l <"$REF/$f.trace.txt") samples"
done
