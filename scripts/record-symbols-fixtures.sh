#!/usr/bin/env bash
# Record the fixtures of `perfdump records --symbols` (issue 25) and perf
# script's view of them, without touching the other fixtures.
#
# Run as root from the project root:
#   scripts/record-symbols-fixtures.sh [PART...]
# PART: callchain, refs, inl, reports, cxx, inlcxx, names, kinit (default:
# callchain inl reports cxx inlcxx names); each touches only its own files.
# --inl-only: refs inl (the views of callchain.data made again, the
# recording not).
#
# callchain (then refs):
#   testdata/profile/callchain.data   perf record -g -e cpu-clock:u of
#                                     testdata/profile/hot (frame pointers),
#                                     run as /tmp/perfdump-profile/hot
# refs:
#   perf-ref/callchain.data.script.txt  perf script -F ip,sym,symoff,dso of
#                                     it, with the --symfs tree of profile.data
#                                     (testdata/profile/debian and hot)
#   perf-ref/profile.data.script.txt  the same of profile.data (not
#                                     recorded again), with profile/kallsyms
#   perf-ref/*.comm.txt               perf script -F comm,tid of
#                                     profile-sh.data, callchain.data and
#                                     comm-order.data (not recorded again)
# inl:
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
# reports (profile's views, of the recordings above; not recorded again):
#   perf-ref/*.data.children-*.txt   perf report --children of
#                                     callchain.data (--sort dso,sym and
#                                     dso), inl-dwarf.data and
#                                     nolibc-dwarf.data (--sort dso,sym)
#   perf-ref/{profile,callchain}.data.sort-srcline.txt  perf report --sort
#                                     srcline of each, with this machine's
#                                     /usr/lib/debug hidden
# cxx (names demangled):
#   testdata/profile/hot_cxx          hot_cxx.cc built with g++ -g -O2, frame
#                                     pointers and a fixed build-id
#   testdata/profile/cxx.data         perf record -g -e cpu-clock:u of it, run
#                                     as /tmp/perfdump-profile/hot_cxx
#   perf-ref/cxx.data.script.txt      perf script -F comm,ip,sym,symoff,dso,
#   perf-ref/cxx.data.raw.script.txt  and with --no-demangle
#   perf-ref/cxx.data.report.txt      perf report --sort dso,sym (self),
#   perf-ref/cxx.data.raw.report.txt  and with --no-demangle; all with the
#                                     --symfs tree (profile/debian, hot_cxx)
# inlcxx (an inlined C++ call's name):
#   testdata/profile/inl_cxx          inl_cxx.cc built with g++ -g -O2
#   testdata/profile/inl-cxx.data     perf record --call-graph dwarf,1024 of it
#   perf-ref/inl-cxx.data.srcline.txt perf script -F ip,sym,symoff,dso,srcline
#                                     --inline
# names (the demangler's cases):
#   perf-ref/names.data.report.txt    perf report --sort dso,sym of the
#                                     recording and DSO that
#                                     gen-profiledata.py names makes of
#                                     profile/cxx-names.txt (not kept: the
#                                     test makes them again)
# kinit (the kernel's init text: start_kernel, past the MMAP's _etext):
#   testdata/profile/kinit.data       perf record -N --synth=no -a -g of the
#                                     idle CPUs (their stacks run down to
#                                     start_kernel and start_secondary)
#   testdata/profile/kinit.kallsyms   the lines of /proc/kallsyms its kernel
#                                     frames need (gen-profiledata.py kallsyms)
#   perf-ref/kinit.data.script.txt    perf script -F ip,sym,symoff,dso with it
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
CXX_BID=7065726664756d702d70726f66696c652d637878 # "perfdump-profile-cxx"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
rm -rf "$RUN"
mkdir -p "$RUN" "$TMP/symfs$RUN" "$TMP/empty"
cp -r $P/debian/. "$TMP/symfs/"
cp "$P/hot" "$RUN/hot"
cp "$P/hot" "$TMP/symfs$RUN/hot"

callchain() {
    # -N: this machine's build-id cache is left alone; 10,000,000 loops of
    # work_b, 30,000,000 of work_a: about 100 ms, 400 samples
    perf record -N -g -e cpu-clock:u -o $P/callchain.data -- "$RUN/hot" 10000000 \
        2>$REF/callchain.data.record.log
    rm -f $P/callchain.data.old
    refs
}

refs() {
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
}

inl() {
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
}

reports() {
    # the callers' shares (perf report --children, its default with
    # callchains) and the lines; the tips perf prints at random are left
    # out
    cp $P/inl $P/inl-nolibc "$TMP/symfs$RUN/"
    report() {
        PERF_BUILDID_DIR=$TMP/empty perf report --symfs "$TMP/symfs" --stdio "$@" \
            2>/dev/null | grep -v '^# (Tip:'
    }
    for f in callchain inl-dwarf nolibc-dwarf; do
        report -i $P/$f.data --children --sort dso,sym -g none \
            -F overhead_children,overhead,sample,period,dso,sym >$REF/$f.data.children-sym.txt
    done
    report -i $P/callchain.data --children --sort dso -g none \
        -F overhead_children,overhead,sample,period,dso >$REF/callchain.data.children-dso.txt
    # perf hands addr2line a DSO's recorded path, not the one under
    # --symfs, and addr2line follows it to this machine's /usr/lib/debug
    # (libc6-dbg): hidden in a mount namespace, perf says what the --symfs
    # tree says
    export -f report
    export TMP P
    unshare -m bash -c "mount --bind $TMP/empty /usr/lib/debug &&
        report -i $P/profile.data --kallsyms $P/kallsyms --sort srcline \
            -F sample,period,srcline >$REF/profile.data.sort-srcline.txt &&
        report -i $P/callchain.data --no-children --sort srcline -g none \
            -F sample,period,srcline >$REF/callchain.data.sort-srcline.txt"
}

cxx() {
    # the program: no exceptions, RTTI or C++ library calls, so that it
    # needs libc alone (the Debian tree's); its DWARF names
    # testdata/profile/hot_cxx.cc
    (cd "$P" && g++ -g -O2 -fno-omit-frame-pointer -fno-exceptions -fno-rtti \
        -fdebug-prefix-map="$PWD"=testdata/profile -Wl,--as-needed \
        -Wl,--build-id=0x$CXX_BID -o hot_cxx hot_cxx.cc)
    cp "$P/hot_cxx" "$RUN/hot_cxx"
    # 10,000,000 loops in each of ten functions: about 50 ms, 200 samples
    perf record -N -g -e cpu-clock:u -o $P/cxx.data -- "$RUN/hot_cxx" 10000000 \
        2>$REF/cxx.data.record.log
    rm -f $P/cxx.data.old
    cp "$P/hot_cxx" "$TMP/symfs$RUN/hot_cxx"
    for raw in "" .raw; do
        PERF_BUILDID_DIR=$TMP/empty perf script -i $P/cxx.data --symfs "$TMP/symfs" \
            ${raw:+--no-demangle} -F comm,ip,sym,symoff,dso 2>/dev/null \
            >$REF/cxx.data$raw.script.txt
        PERF_BUILDID_DIR=$TMP/empty perf report -i $P/cxx.data --symfs "$TMP/symfs" \
            ${raw:+--no-demangle} --no-children --stdio --sort dso,sym \
            -F sample,period,dso,sym -g none 2>/dev/null >$REF/cxx.data$raw.report.txt
    done
    chmod a+r $P/hot_cxx $P/cxx.data $REF/cxx.data.*
    printf '%-24s %7s bytes\n' $P/cxx.data "$(stat -c %s $P/cxx.data)"
}

inlcxx() {
    # the build-id reads "perfdump-profile-icx"
    (cd "$P" && g++ -g -O2 -fno-omit-frame-pointer -fno-exceptions -fno-rtti \
        -fdebug-prefix-map="$PWD"=testdata/profile -Wl,--as-needed \
        -Wl,--build-id=0x7065726664756d702d70726f66696c652d696378 \
        -o inl_cxx inl_cxx.cc)
    cp "$P/inl_cxx" "$RUN/inl_cxx"
    cp "$P/inl_cxx" "$TMP/symfs$RUN/inl_cxx"
    perf record -N -e cpu-clock:u -c 2000000 --call-graph dwarf,1024 \
        -o $P/inl-cxx.data -- "$RUN/inl_cxx" 2>$REF/inl-cxx.data.record.log
    rm -f $P/inl-cxx.data.old
    PERF_BUILDID_DIR=$TMP/empty perf script -i $P/inl-cxx.data --symfs "$TMP/symfs" \
        -F ip,sym,symoff,dso,srcline --inline 2>/dev/null >$REF/inl-cxx.data.srcline.txt
    chmod a+r $P/inl_cxx $P/inl-cxx.data $REF/inl-cxx.data.*
}

names() {
    python3 scripts/gen-profiledata.py names $P/cxx-names.txt "$TMP/names"
    PERF_BUILDID_DIR=$TMP/empty perf report -i "$TMP/names/names.data" \
        --symfs "$TMP/names/symfs" --stdio --sort dso,sym -F sample,period,dso,sym \
        2>/dev/null >$REF/names.data.report.txt
    chmod a+r $REF/names.data.report.txt
}

kinit() {
    perf record -N --synth=no -a -g -e cpu-clock -F 200 -o $P/kinit.data -- sleep 0.2 \
        2>/dev/null
    rm -f $P/kinit.data.old
    PERF_BUILDID_DIR=$TMP/empty perf script -i $P/kinit.data -F ip 2>/dev/null |
        awk '$1 ~ /^ffffffff/ { print $1 }' |
        python3 scripts/gen-profiledata.py kallsyms /proc/kallsyms $P/kinit.kallsyms
    PERF_BUILDID_DIR=$TMP/empty perf script -i $P/kinit.data --kallsyms $P/kinit.kallsyms \
        -F ip,sym,symoff,dso 2>/dev/null >$REF/kinit.data.script.txt
    chmod a+r $P/kinit.data $P/kinit.kallsyms $REF/kinit.data.script.txt
}

parts=${*:-callchain inl reports cxx inlcxx names}
[ "$parts" = --inl-only ] && parts="refs inl"
for p in $parts; do
    case $p in
    callchain | refs | inl | reports | cxx | inlcxx | names | kinit) $p ;;
    *) echo "record-symbols-fixtures.sh: no part '$p' (callchain, refs, inl, reports, cxx, inlcxx, names, kinit)" >&2; exit 2 ;;
    esac
done
