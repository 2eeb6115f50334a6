#!/usr/bin/env bash
# Record the fixture of `perfdump records --symbols` (issue 25) and perf
# script's view of it, without touching the other fixtures.
#
# Run as root from the project root:   scripts/record-symbols-fixtures.sh
#
#   testdata/profile/callchain.data   perf record -g -e cpu-clock:u of
#                                     testdata/profile/hot (frame pointers),
#                                     run as /tmp/perfdump-profile/hot
#   perf-ref/callchain.data.script.txt  perf script -F ip,sym,symoff,dso of
#                                     it, with the --symfs tree of profile.data
#                                     (testdata/profile/debian and hot)
#   perf-ref/profile.data.script.txt  the same of profile.data (not
#                                     recorded again), with profile/kallsyms
#   perf-ref/*.comm.txt               perf script -F comm,tid of
#                                     profile-sh.data, callchain.data and
#                                     comm-order.data (not recorded again)
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
    echo "record-symbols-fixtures.sh: must run as root" >&2
    exit 1
fi
P=testdata/profile
REF=testdata/perf-ref
RUN=/tmp/perfdump-profile
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rm -rf "$RUN"
mkdir -p "$RUN"
cp "$P/hot" "$RUN/hot"
# -N: this machine's build-id cache is left alone; 10,000,000 loops of
# work_b, 30,000,000 of work_a: about 100 ms, 400 samples
perf record -N -g -e cpu-clock:u -o $P/callchain.data -- "$RUN/hot" 10000000 \
    2>$REF/callchain.data.record.log
rm -f $P/callchain.data.old
mkdir -p "$TMP/symfs$RUN" "$TMP/empty"
cp -r $P/debian/. "$TMP/symfs/"
cp "$P/hot" "$TMP/symfs$RUN/hot"
PERF_BUILDID_DIR=$TMP/empty perf script -i $P/callchain.data --symfs "$TMP/symfs" \
    -F ip,sym,symoff,dso 2>/dev/null >$REF/callchain.data.script.txt
# profile.data (scripts/record-profile-fixtures.sh): its samples' ips, with
# the kernel's symbols of profile/kallsyms
PERF_BUILDID_DIR=$TMP/empty perf script -i $P/profile.data --symfs "$TMP/symfs" \
    --kallsyms $P/kallsyms -F ip,sym,symoff,dso 2>/dev/null >$REF/profile.data.script.txt
# the thread names perf script gives samples (COMM, FORK: a shell and its
# children; comm-order.data: COMMs that come late in file order)
for f in $P/profile-sh.data $P/callchain.data testdata/comm-order.data; do
    perf script -i $f -F comm,tid 2>/dev/null >$REF/$(basename $f).comm.txt
done
