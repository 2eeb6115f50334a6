#!/usr/bin/env bash
# Record the fixtures of `perfdump profile` (issue 14) and perf's own view
# of them, without touching the other fixtures.
#
# Run as root from the project root:   scripts/record-profile-fixtures.sh
#
#   testdata/profile/hot          the fixture program: hot_a.c and hot_b.c
#                                 with -g -O0 -fno-omit-frame-pointer and a
#                                 fixed build-id (committed: 18 KiB)
#   testdata/profile/profile.data     perf record -e cpu-clock of it, run
#                                     as /tmp/perfdump-profile/hot
#   testdata/profile/profile-sh.data  perf record -e cpu-clock of a shell
#                                     that starts several children
# (below testdata/profile/: fixtures of profile alone, without the goldens
# of every command that testdata/*.data have)
#   testdata/profile/kallsyms     the lines of this machine's /proc/kallsyms
#                                 that the kernel samples of profile.data and
#                                 cpu-clock.data need (gen-profiledata.py)
#   testdata/profile/debian/...   /usr/bin/dd, libc.so.6 and ld.so of
#                                 Debian 12 as cpu-clock.data saw them, cut
#                                 down to their .dynsym (gen-profiledata.py)
#
#   perf-ref/profile.data.report.txt     perf report --stdio --sort dso,sym
#   perf-ref/cpu-clock.data.report.txt   -F sample,period,dso,sym, with the
#                                        --symfs trees and --kallsyms above
#   perf-ref/profile-sh.data.tasks.txt   perf script --show-task-events,
#                                        its PERF_RECORD_ lines
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
    echo "record-profile-fixtures.sh: must run as root" >&2
    exit 1
fi

TD=testdata
P=$TD/profile
REF=$TD/perf-ref
RUN=/tmp/perfdump-profile
BID=7065726664756d702d70726f66696c652d686f74 # "perfdump-profile-hot"
LIBDIR=usr/lib/x86_64-linux-gnu
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# 1. the program: source paths in its DWARF are testdata/profile/*.c
(cd "$P" && gcc -g -O0 -fno-omit-frame-pointer \
    -fdebug-prefix-map="$PWD"=testdata/profile \
    -Wl,--build-id=0x$BID -o hot hot_a.c hot_b.c)

# 2. the recordings (-N: this machine's build-id cache is left alone)
rm -rf "$RUN"
mkdir -p "$RUN"
cp "$P/hot" "$RUN/hot"
perf record -N -e cpu-clock -o $P/profile.data -- "$RUN/hot" \
    2>$REF/profile.data.record.log
perf record -N -e cpu-clock -o $P/profile-sh.data -- \
    sh -c 'for i in 1 2 3; do /bin/true; done; echo x | cat >/dev/null; sleep 0.01' \
    2>$REF/profile-sh.data.record.log
rm -f $P/profile.data.old $P/profile-sh.data.old
perf script --show-task-events -i $P/profile-sh.data 2>/dev/null |
    grep PERF_RECORD_ >$REF/profile-sh.data.tasks.txt

# 3. the kernel symbols the samples need, and the Debian binaries' .dynsym
for f in $P/profile.data $TD/cpu-clock.data; do
    ./perfdump records --type sample --json-lines "$f" |
        jq -r 'select(.cpumode_name == "kernel") | .ip'
done | python3 scripts/gen-profiledata.py kallsyms /proc/kallsyms $P/kallsyms
mkdir -p $P/debian/usr/bin $P/debian/$LIBDIR
python3 scripts/gen-profiledata.py dynsym-elf /usr/bin/dd $P/debian/usr/bin/dd
for l in libc.so.6 ld-linux-x86-64.so.2; do
    python3 scripts/gen-profiledata.py dynsym-elf /$LIBDIR/$l $P/debian/$LIBDIR/$l
done

# 4. perf's reports, on the same trees and kernel symbols the tests use:
# profile.data's is the program and the Debian tree (its ld.so)
mkdir -p "$TMP/symfs$RUN" "$TMP/empty"
cp -r $P/debian/. "$TMP/symfs/"
cp "$P/hot" "$TMP/symfs$RUN/hot"
report() { # FILE SYMFS KALLSYMS
    PERF_BUILDID_DIR=$TMP/empty perf report -i "$1" --symfs "$2" \
        --kallsyms "$3" --stdio --sort dso,sym -F sample,period,dso,sym 2>/dev/null
}
report $P/profile.data "$TMP/symfs" $P/kallsyms >$REF/profile.data.report.txt
report $TD/cpu-clock.data $P/debian $P/kallsyms >$REF/cpu-clock.data.report.txt
# the cut-down kallsyms and binaries give what the whole ones give
full=$TMP/full
mkdir -p "$full/usr/bin" "$full/$LIBDIR" "$full$RUN"
cp /usr/bin/dd "$full/usr/bin/"
cp /$LIBDIR/libc.so.6 /$LIBDIR/ld-linux-x86-64.so.2 "$full/$LIBDIR/"
cp "$P/hot" "$full$RUN/hot"
report $P/profile.data "$full" /proc/kallsyms |
    diff -u - $REF/profile.data.report.txt
report $TD/cpu-clock.data "$full" /proc/kallsyms |
    diff -u - $REF/cpu-clock.data.report.txt

chmod a+r $P/profile.data $P/profile-sh.data $REF/profile*.txt $REF/*.log
for f in $P/profile.data $P/profile-sh.data; do
    printf '%-24s %7s bytes\n' "$f" "$(stat -c %s "$f")"
done
