#!/usr/bin/env bash
# Record the fixture of `perfdump records --symbols` (issue 25) and perf
# script's view of it, without touching the other fixtures.
#
# Run as root from the project root:   scripts/record-symbols-fixtures.sh
# (--inl-only: callchain.data is not recorded again)
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
#   testdata/profile/inl, inl-nolibc  inl_a.c inl_b.c (inl.h) built -g -O2
#                                     with frame pointers; inl-nolibc with
#                                     inl_start.c for _start, no C library
#   testdata/profile/inl-fp.data      perf record -g of inl
#   testdata/profile/inl-dwarf.data   perf record --call-graph dwarf,1024
#   testdata/profile/nolibc-dwarf.data  --call-graph dwarf,512 of inl-nolibc
#   testdata/profile/nolibc-cut.data  --call-graph dwarf,8 of it: stack
#                                     copies too short to unwind
#   perf-ref/{inl-*,nolibc-*}.data.script.txt   perf script -F
#                                     ip,sym,symoff,dso of each, and
#                                     .srcline.txt: -F ip,sym,symoff,dso,srcline
#                                     --inline
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
if [ "${1:-}" != --inl-only ]; then
perf record -N -g -e cpu-clock:u -o $P/callchain.data -- "$RUN/hot" 10000000 \
    2>$REF/callchain.data.record.log
rm -f $P/callchain.data.old
fi
mkdir -p "$TMP/symfs$RUN" "$TMP/empty"
cp -r $P/debian/. "$TMP/symfs/"
cp "$P/hot" "$TMP/symfs$RUN/hot"
PERF_BUILDID_DIR=$TMP/empty perf script -i $P/callchain.data --symfs "$TMP/symfs" \
    -F ip,sym,symoff,dso 2>/dev/null >$REF/callchain.data.script.txt
# inl and inl-nolibc: built here, run from $RUN; -c 2000000: a sample per
# 2 ms of the 130 ms they run; the build-ids read "perfdump-profile-inl"
# and "perfdump-profile-nlc"
(cd $P &&
    gcc -g -O2 -fno-omit-frame-pointer -fdebug-prefix-map=$PWD=$P \
        -Wl,--build-id=0x7065726664756d702d70726f66696c652d696e6c \
        -o inl inl_a.c inl_b.c &&
    gcc -g -O2 -fno-omit-frame-pointer -DINL_NOLIBC -nostdlib -static \
        -fdebug-prefix-map=$PWD=$P \
        -Wl,--eh-frame-hdr \
        -Wl,--build-id=0x7065726664756d702d70726f66696c652d6e6c63 \
        -o inl-nolibc inl_a.c inl_b.c inl_start.c)
cp $P/inl $P/inl-nolibc "$RUN/"
cp $P/inl $P/inl-nolibc "$TMP/symfs$RUN/"
rec() { # NAME PROGRAM ARGS...
    local name=$1
    shift
    perf record -N -e cpu-clock:u -c 2000000 -o $P/$name.data "$@" \
        2>$REF/$name.data.record.log
    rm -f $P/$name.data.old
}
rec inl-fp -g -- "$RUN/inl" 30000000
rec inl-dwarf --call-graph dwarf,1024 -- "$RUN/inl" 30000000
rec nolibc-dwarf --call-graph dwarf,512 -- "$RUN/inl-nolibc"
rec nolibc-cut --call-graph dwarf,8 -- "$RUN/inl-nolibc"
for f in inl-fp inl-dwarf nolibc-dwarf nolibc-cut; do
    PERF_BUILDID_DIR=$TMP/empty perf script -i $P/$f.data --symfs "$TMP/symfs" \
        -F ip,sym,symoff,dso 2>/dev/null >$REF/$f.data.script.txt
    PERF_BUILDID_DIR=$TMP/empty perf script -i $P/$f.data --symfs "$TMP/symfs" \
        -F ip,sym,symoff,dso,srcline --inline 2>/dev/null >$REF/$f.data.srcline.txt
done
# profile.data (scripts/record-profile-fixtures.sh): its samples' ips, with
# the kernel's symbols of profile/kallsyms
PERF_BUILDID_DIR=$TMP/empty perf script -i $P/profile.data --symfs "$TMP/symfs" \
    --kallsyms $P/kallsyms -F ip,sym,symoff,dso 2>/dev/null >$REF/profile.data.script.txt
# the thread names perf script gives samples (COMM, FORK: a shell and its
# children; comm-order.data: COMMs that come late in file order)
for f in $P/profile-sh.data $P/callchain.data testdata/comm-order.data; do
    perf script -i $f -F comm,tid 2>/dev/null >$REF/$(basename $f).comm.txt
done
