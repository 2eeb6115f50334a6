#!/usr/bin/env bash
# Record the fixtures of --redact (tests/redact.bats) and perf's own view
# of them, without touching the other fixtures.
#
# Run as root from the project root:   scripts/record-redact-fixtures.sh
#
#   testdata/redact.data       file mode, --all-cgroups
#   testdata/redact-pipe.data  the same workload in pipe mode (-o -): the
#                              features and build-ids as records
#
# What identifies a person or machine in them, and must not survive
# --redact:
#   - the host name "redact-test-host" (a UTS namespace of its own);
#   - the workload /home/alice-test/bin/worker (a copy of /usr/bin/dd), in
#     MMAP2, HEADER_BUILD_ID and CMDLINE;
#   - its file argument if=/home/alice-test/notes/redact-secret.txt (CMDLINE);
#   - the cgroup /user.slice/user-31337.slice/session-7.scope (CGROUP
#     records: a user id in systemd's naming).
# What must survive: /usr/lib/x86_64-linux-gnu/libc.so.6 and the other
# system paths, [kernel.kallsyms], [vdso].
#
# perf-ref/NAME.header.txt   perf report --header-only -I -i FILE
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
	echo "record-redact-fixtures.sh: must run as root" >&2
	exit 1
fi

TD=$PWD/testdata
REF=$TD/perf-ref
MAX=262144
HOME_DIR=/home/alice-test
CG=/sys/fs/cgroup/unified/user.slice/user-31337.slice/session-7.scope
[ -d /sys/fs/cgroup/unified ] || CG=/sys/fs/cgroup/user.slice/user-31337.slice/session-7.scope

cleanup() {
	rm -rf "$HOME_DIR"
	rmdir "$CG" "${CG%/*}" 2>/dev/null || true
}
trap cleanup EXIT

mkdir -p "$HOME_DIR/bin" "$HOME_DIR/notes" "$CG"
cp /usr/bin/dd "$HOME_DIR/bin/worker"
head -c 100000 /dev/zero >"$HOME_DIR/notes/redact-secret.txt"
WORKLOAD="$HOME_DIR/bin/worker if=$HOME_DIR/notes/redact-secret.txt of=/dev/null bs=1"

# record NAME OUTPUT-ARGS...: in a UTS namespace with the test host name,
# from inside the cgroup; the workload reads the home file byte by byte
# (about 0.1 s).  Relative output names, so CMDLINE holds no path of
# this machine's checkout.
record() {
	local name=$1
	shift
	rm -f "$TD/$name" "$TD/$name.old"
	(cd "$TD" && unshare --uts sh -c "hostname redact-test-host &&
		echo \$\$ >$CG/cgroup.procs &&
		exec perf record -e cpu-clock --all-cgroups --no-buildid-cache $* -- $WORKLOAD" \
		2>"$REF/$name.record.log")
	chmod a+r "$TD/$name"
	local size
	size=$(stat -c %s "$TD/$name")
	printf '%-20s %7s bytes\n' "$name" "$size"
	if [ "$size" -gt "$MAX" ]; then
		echo "$name is over the $MAX byte budget" >&2
		exit 1
	fi
}

record redact.data -o redact.data
record redact-pipe.data -o - ">redact-pipe.data"
perf report --header-only -I -i "$TD/redact.data" >"$REF/redact.data.header.txt" 2>/dev/null
chmod a+r "$REF"/redact*
